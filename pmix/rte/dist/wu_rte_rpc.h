/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_rpc.h -- requests a daemon (wired) makes of the head node (wrun) on behalf of its
 * clients, answered later: the data service (publish, lookup, unpublish) and what else lives on
 * the head node only.
 *
 * A request is the dmsg RPC (origin node, request id, operation, payload); its answer RPC_REP
 * (origin node, request id, status, payload) goes back down the launch tree to the origin.
 * Everything runs on the rte thread. A daemon that loses the head fails what it still waits
 * for (PMIX_ERR_LOST_CONNECTION); the head answers every request it got exactly once, an
 * unknown operation with PMIX_ERR_NOT_SUPPORTED. */
#ifndef WU_RTE_RPC_H
#define WU_RTE_RPC_H

#include "pmix/rte/dist/wu_rte_dmsg.h"

#include <stdint.h>

struct rte_dvm;

/* The operations. */
enum {
    WU_RTE_RPC_PUBLISH = 1,
    WU_RTE_RPC_LOOKUP,
    WU_RTE_RPC_UNPUBLISH,
    WU_RTE_RPC_CONNECT, /* wu_rte_connect.h */
    WU_RTE_RPC_SPAWN,   /* wu_rte_children.c */
};

/* wired: the answer to a request (payload NULL unless status says there is one; read it, it is
 * destructed after the call). */
typedef void (*wu_rte_rpc_done_fn)(pmix_status_t status, wu_dmsg_t *payload, void *arg);
/* wired, rte thread: send op with args (destructed here) to the head; done runs once with the
 * answer, or with the error that kept it from coming. */
void wu_rte_rpc_call(uint32_t op, wu_dmsg_t *args, wu_rte_rpc_done_fn done, void *arg);
/* wired: an RPC_REP from the head. */
void wu_rte_rpc_on_reply(wu_dmsg_t *m);
/* wired: the head is gone: every request still waiting fails with status. */
void wu_rte_rpc_fail_all(pmix_status_t status);

/* The head: a request being served. */
typedef struct wu_rte_rpc wu_rte_rpc_t;
/* The head, rte thread: how a service serves an operation; it answers call exactly once
 * (wu_rte_rpc_answer), now or later; args is destructed after the call. */
typedef void (*wu_rte_rpc_serve_fn)(wu_rte_rpc_t *call, uint32_t op, wu_dmsg_t *args);
/* A service serves op (once per op, at the runtime's start; WU_ERR_BAD_PARAM for an op out of
 * range or taken). An op nobody serves is answered PMIX_ERR_NOT_SUPPORTED. */
#define WU_RTE_RPC_OPS_MAX 16
int wu_rte_rpc_handle(uint32_t op, wu_rte_rpc_serve_fn serve);
/* The head, rte thread: an RPC message from the daemon of map node origin. */
void wu_rte_rpc_serve(struct rte_dvm *dvm, uint32_t origin, wu_dmsg_t *m);
/* The map node the request came from, and the daemons of the job whose map that is. */
uint32_t wu_rte_rpc_origin(const wu_rte_rpc_t *call);
struct rte_dvm *wu_rte_rpc_dvm(const wu_rte_rpc_t *call);
/* The name of that node (in the map: the name the head uses for it). */
const char *wu_rte_rpc_host(const wu_rte_rpc_t *call);
/* Answer call (exactly once) with status and reply (destructed here; NULL: no payload); call is
 * freed. The answer is dropped when its daemon cannot be reached any more. */
void wu_rte_rpc_answer(wu_rte_rpc_t *call, pmix_status_t status, wu_dmsg_t *reply);

#endif
