/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pubsub.h -- the data service behind PMIx_Publish, PMIx_Lookup and PMIx_Unpublish.
 *
 * The data live on the head node (wrun), on its rte thread; wired passes its clients' requests
 * up (wu_rte_rpc.h). The rules are the Standard's: a key is published into a range (default
 * PMIX_RANGE_SESSION) with a persistence (default PMIX_PERSIST_APP); the same key twice in the
 * same range (and, for PMIX_RANGE_NAMESPACE, the same namespace; PMIX_RANGE_LOCAL, the same
 * node) is PMIX_ERR_DUPLICATE_KEY; a lookup finds what was published into the range it names,
 * if the requester is inside that range; PMIX_WAIT makes it wait (bounded by PMIX_TIMEOUT) for
 * keys not published yet; only the publisher may unpublish a key (PMIX_ERR_NO_PERMISSIONS).
 * PMIX_PERSIST_FIRST_READ data go with the first lookup that returns them, PMIX_PERSIST_PROC
 * data with their publisher's end, PMIX_PERSIST_APP with its job's, the rest with wrun. Data of
 * the session and global ranges are shared with the other wrun instances of the same user on
 * the same machine through a rendezvous directory, so that two separate jobs can meet. */
#ifndef WU_RTE_PUBSUB_H
#define WU_RTE_PUBSUB_H

#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix_server.h"

/* Install the publish, lookup and unpublish upcalls (wrun and wired). */
void wu_rte_pubsub_module(pmix_server_module_t *m);
/* The same requests from this node's PMI server (rte thread): copied, served as the server's;
 * the callback comes later on the rte thread. */
pmix_status_t wu_rte_pubsub_request(uint32_t op, const pmix_proc_t *proc, char **keys,
                                    const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t opcb,
                                    pmix_lookup_cbfunc_t lookupcb, void *cbdata);
/* The head, rte thread: a process ended (its PMIX_PERSIST_PROC data go, its lookups end); a
 * job ended (its PMIX_PERSIST_APP data go); wrun stops (everything goes). */
void wu_rte_pubsub_proc_ended(const pmix_proc_t *proc);
void wu_rte_pubsub_job_ended(const char *nspace);
void wu_rte_pubsub_finalize(void);
/* Plug the service in (once, at the runtime's start): it watches the jobs' ends for the above
 * (wu_rte_job_observe) and serves the daemons' requests on the head (WU_RTE_RPC_PUBLISH,
 * _LOOKUP, _UNPUBLISH). */
int wu_rte_pubsub_attach(void);

#endif
