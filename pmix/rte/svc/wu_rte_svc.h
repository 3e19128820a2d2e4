/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_svc.h -- the services of the runtime (pmix/rte/svc): spawned children, job control, the
 * PMI server, the log (and, with headers of their own, publish/lookup, the rendezvous files,
 * connect and groups). Each plugs in with an attach function at the runtime's start: observers
 * of the jobs (wu_rte_job_observe), daemon messages (wu_dmsg_handle), the daemons' requests
 * (wu_rte_rpc_handle); the host module calls their upcalls. Everything here is touched only on
 * the rte progress thread, except where said. */
#ifndef WU_RTE_SVC_H
#define WU_RTE_SVC_H

#include "mca/pls/pls.h"
#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "pmix/rte/job/wu_rte_job.h"
#include "pmix_common.h"
#include "pmix_server.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A child job (rte thread); NULL when nspace is none of them. */
rte_job_t *wu_rte_child_find(const char *nspace);
/* wu_rte_children.c: the spawn upcall (server thread); on the main thread, at the launcher's
 * job's end, wait until every child has ended and its thread is gone; on the rte thread, a
 * signal for the children, and the launcher's job failing (its children end too). */
pmix_status_t wu_rte_children_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[],
                                    size_t ninfo, const pmix_app_t apps[], size_t napps,
                                    pmix_spawn_cbfunc_t cbfunc, void *cbdata);
/* Plug the service in (once, at the runtime's start): it watches the jobs (wu_rte_job_observe:
 * a child's failure ends its parent's job unless it is independent, the launcher's job's
 * failure or signal reaches its children, and its end waits for theirs), and serves the
 * daemons' spawn requests on the head (WU_RTE_RPC_SPAWN; the answer is the new namespace). */
int wu_rte_children_attach(void);

/* wu_rte_jobctl.c: PMIx_Job_control's signal, kill and terminate (rules in the file). The host's
 * job_control upcall (server thread). */
pmix_status_t wu_rte_jobctl_upcall(const pmix_proc_t *requester, const pmix_proc_t targets[],
                                   size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata);
/* Plug job control in (once, at the runtime's start): JOBCTL messages on the head and on the
 * daemons. */
int wu_rte_jobctl_attach(void);

/* wu_rte_pmi.c: plug the PMI-1/PMI-2 server of this node's processes (MPICH's simple PMI) in,
 * once, at the runtime's start: it follows each job through wu_rte_job_observe (its state at
 * set-up, a connection for each process a programming model wants one for, serving once the
 * processes started, a process's end, what its processes are blocked in, the job's release). */
int wu_rte_pmi_attach_service(void);

/* wu_rte_log.c: the host's log upcall, and the count of repeated help messages (after the job;
 * also forgets them). */
void wu_rte_log_upcall(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                       const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                       void *cbdata);
/* Plug the log in (once, at the runtime's start): its summary follows the launcher's job's
 * output. */
int wu_rte_log_attach(void);
/* Route plog's writes to our stdout/stderr through the output queues (after the rte thread
 * starts), and stop doing so (before it stops). */
void wu_rte_log_start(void);
void wu_rte_log_stop(void);

#endif
