/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_rpc.c -- requests of the daemons to the head node and their answers (wu_rte_rpc.h):
 * the daemon's list of requests waiting, the head's dispatch by operation. */
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "opal/class/wu_hash_table.h"
#include "pmix/rte/dist/wu_rte_dvm_int.h"
#include "pmix/rte/dist/wu_rte_dist.h"

#include <stdlib.h>

/* ---- the daemon's side ------------------------------------------------------------------- */

typedef struct {
    wu_rte_rpc_done_fn done;
    void *arg;
} waiting_t;

static wu_hash_table_t *waiting; /* id -> waiting_t, made with the first request */
static uint64_t next_id;

void wu_rte_rpc_call(uint32_t op, wu_dmsg_t *args, wu_rte_rpc_done_fn done, void *arg)
{
    waiting_t *w = calloc(1, sizeof *w);
    uint64_t id = ++next_id;
    wu_dmsg_t m;
    pmix_status_t rc = NULL == w ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    if (NULL == waiting && NULL == (waiting = WU_NEW(wu_hash_table_t))) {
        rc = PMIX_ERR_NOMEM;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == rc) {
        w->done = done;
        w->arg = arg;
        rc = wu_dmsg_put_u32(&m, wu_rte_daemon_node());
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(&m, id) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, op) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, args->base_ptr, args->bytes_used) : rc;
    }
    PMIX_DATA_BUFFER_DESTRUCT(args);
    if (PMIX_SUCCESS == rc && WU_SUCCESS != wu_hash_table_set_u64(waiting, id, w)) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_rte_daemon_send(WU_DMSG_RPC, &m);
        if (PMIX_SUCCESS != rc) {
            (void)wu_hash_table_remove_u64(waiting, id);
        }
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
    if (PMIX_SUCCESS != rc) {
        free(w);
        done(rc, NULL, arg);
    }
}

void wu_rte_rpc_on_reply(wu_dmsg_t *m)
{
    uint32_t origin = 0;
    uint64_t id = 0;
    int32_t st = PMIX_ERROR;
    char *p = NULL;
    size_t n = 0;
    void *found = NULL;
    waiting_t *w;
    wu_dmsg_t payload;
    if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &origin) || PMIX_SUCCESS != wu_dmsg_get_u64(m, &id) ||
        PMIX_SUCCESS != wu_dmsg_get_i32(m, &st) || PMIX_SUCCESS != wu_dmsg_get_bytes(m, &p, &n)) {
        free(p);
        return; /* what cannot be read cannot be matched: its request waits for the head */
    }
    if (NULL == waiting || WU_SUCCESS != wu_hash_table_get_u64(waiting, id, &found)) {
        free(p);
        return;
    }
    (void)wu_hash_table_remove_u64(waiting, id);
    w = found;
    PMIX_DATA_BUFFER_CONSTRUCT(&payload);
    if (n > 0) {
        pmix_byte_object_t bo = {.bytes = p, .size = n};
        if (PMIX_SUCCESS != PMIx_Data_load(&payload, &bo)) { /* takes p */
            free(p);
            st = PMIX_ERR_NOMEM;
        }
    }
    w->done(st, n > 0 ? &payload : NULL, w->arg);
    PMIX_DATA_BUFFER_DESTRUCT(&payload);
    free(w);
}

void wu_rte_rpc_fail_all(pmix_status_t status)
{
    void *iter = NULL, *value = NULL;
    uint64_t id;
    /* one at a time from the start: a callback may make a new request */
    while (wu_hash_table_count(waiting) > 0 &&
           WU_SUCCESS == wu_hash_table_next_u64(waiting, &iter, &id, &value)) {
        waiting_t *w = value;
        (void)wu_hash_table_remove_u64(waiting, id);
        iter = NULL;
        w->done(status, NULL, w->arg);
        free(w);
    }
}

/* ---- the head's side --------------------------------------------------------------------- */

/* The services' operations (registered at the runtime's start, read on the rte thread). */
static wu_rte_rpc_serve_fn served[WU_RTE_RPC_OPS_MAX];

int wu_rte_rpc_handle(uint32_t op, wu_rte_rpc_serve_fn serve)
{
    if (op >= WU_RTE_RPC_OPS_MAX || NULL == serve || (NULL != served[op] && served[op] != serve)) {
        return WU_ERR_BAD_PARAM;
    }
    served[op] = serve;
    return WU_SUCCESS;
}

struct wu_rte_rpc {
    struct rte_dvm *dvm; /* the daemons of the job whose daemon asked */
    uint32_t origin;
    uint64_t id;
};

void wu_rte_rpc_serve(struct rte_dvm *dvm, uint32_t origin, wu_dmsg_t *m)
{
    uint32_t from = 0, op = 0;
    uint64_t id = 0;
    char *p = NULL;
    size_t n = 0;
    wu_rte_rpc_t *call;
    wu_dmsg_t args;
    if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &from) || PMIX_SUCCESS != wu_dmsg_get_u64(m, &id) ||
        PMIX_SUCCESS != wu_dmsg_get_u32(m, &op) || PMIX_SUCCESS != wu_dmsg_get_bytes(m, &p, &n) ||
        NULL == (call = calloc(1, sizeof *call))) {
        free(p); /* without its id the answer could not be matched */
        return;
    }
    call->dvm = dvm;
    call->origin = origin; /* the answer goes to the sender */
    call->id = id;
    if (from != origin) {
        free(p); /* a daemon speaks for its own node only */
        wu_rte_rpc_answer(call, PMIX_ERR_BAD_PARAM, NULL);
        return;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&args);
    if (n > 0) {
        pmix_byte_object_t bo = {.bytes = p, .size = n};
        if (PMIX_SUCCESS != PMIx_Data_load(&args, &bo)) {
            free(p);
            wu_rte_rpc_answer(call, PMIX_ERR_NOMEM, NULL);
            return;
        }
    }
    if (op < WU_RTE_RPC_OPS_MAX && NULL != served[op]) {
        served[op](call, op, &args);
    } else {
        wu_rte_rpc_answer(call, PMIX_ERR_NOT_SUPPORTED, NULL); /* a newer daemon's request */
    }
    PMIX_DATA_BUFFER_DESTRUCT(&args);
}

uint32_t wu_rte_rpc_origin(const wu_rte_rpc_t *call)
{
    return call->origin;
}

struct rte_dvm *wu_rte_rpc_dvm(const wu_rte_rpc_t *call)
{
    return call->dvm;
}

const char *wu_rte_rpc_host(const wu_rte_rpc_t *call)
{
    const wu_rte_jobmap_t *map = call->dvm->job->map;
    return call->origin < map->nnodes ? map->nodes[call->origin].name : "?";
}

void wu_rte_rpc_answer(wu_rte_rpc_t *call, pmix_status_t status, wu_dmsg_t *reply)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, call->origin);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(&m, call->id) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, status) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, NULL != reply ? reply->base_ptr : NULL,
                                                NULL != reply ? reply->bytes_used : 0)
                            : rc;
    if (NULL != reply) {
        PMIX_DATA_BUFFER_DESTRUCT(reply);
    }
    if (PMIX_SUCCESS == rc && wu_rte_dvm_live(call->dvm)) {
        wu_rte_dvm_send_to(call->dvm, call->origin, WU_DMSG_RPC_REP, &m);
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
    free(call);
}
