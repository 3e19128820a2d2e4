/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_connect.h -- PMIx_Connect and PMIx_Disconnect for wrun's jobs: the servers' connect
 * hook (pmix/server/wu_server_host.h).
 *
 * A node's server calls the hook once its local participants have all joined, with their data.
 * wired passes it to the head node (wu_rte_rpc.h); the head waits for every node of its job
 * that holds participants and, when the participants include namespaces of other wrun
 * instances, meets those through the rendezvous directory (wu_rte_rdv.h): each writes its
 * nodes' contributions and the job data of its namespaces there, and reads the others'. Every
 * node then gets the data of the participants elsewhere (the local-scope data of those on its
 * own host, the remote-scope data of the others), its server learns the other wruns'
 * namespaces (PMIx_server_register_nspace, their node-specific keys rebuilt for this node), and
 * the participants' PMIx_Connect returns. A disconnect is the same collective without data.
 * PMIX_TIMEOUT bounds the whole; a participant of this wrun that ends fails it. */
#ifndef WU_RTE_CONNECT_H
#define WU_RTE_CONNECT_H

#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix_common.h"
#include "pmix_server.h"

#include <stdbool.h>

/* Install the hook, and the group upcall in module (before the server starts): a group
 * construct or destruct is the same collective without data, and a construct's answer is a
 * context id the head gives (one counter per wrun: the same id at every member, no two groups
 * of the job alike; with processes of other wruns, an id every wrun computes alike). */
void wu_rte_connect_init(pmix_server_module_t *module);
/* Does a fence's participant set name processes of more than one job (server thread): of other
 * wrun instances, or of a job and its children? Such a fence is a collective of this module too
 * (wu_rte_connect_fence), with the fence's data: Open MPI's MPI_Comm_disconnect is a fence over
 * both sides. A fence of one job goes to its daemons (wired: to the head). */
bool wu_rte_connect_foreign(const pmix_proc_t procs[], size_t nprocs);
pmix_status_t wu_rte_connect_fence(const pmix_proc_t procs[], size_t nprocs, const char *data,
                                   size_t ndata, int timeout, pmix_modex_cbfunc_t cbfunc,
                                   void *cbdata);
/* rte thread: a process of nspace ended (connects it takes part in fail); the job nspace ended
 * (every connect fails, this wrun's files go, the namespaces it learnt are forgotten). */
void wu_rte_connect_proc_ended(const pmix_proc_t *proc);
void wu_rte_connect_job_ended(const char *nspace);
/* Plug the service in (once, at the runtime's start): it watches the jobs' ends for the above
 * (wu_rte_job_observe) and serves the daemons' requests on the head (WU_RTE_RPC_CONNECT). */
int wu_rte_connect_attach(void);

#endif
