/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pubsub_req.c -- the data service's requests (wu_rte_pubsub.h): the host upcalls of
 * wrun and wired and the PMI server's requests; on the head they go to the store
 * (wu_rte_pubsub.c), on a daemon up to the head as RPCs, whose answers come back down. Everything
 * but the upcalls runs on the rte thread. */
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_pubsub_int.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- requests: from this node's server, or from a daemon (head), or to the head (wired) ---- */

typedef struct {
    uint32_t op; /* WU_RTE_RPC_* */
    pmix_proc_t proc;
    char **keys;
    pmix_info_t *info;
    size_t ninfo;
    pmix_op_cbfunc_t opcb;
    pmix_lookup_cbfunc_t lookupcb;
    void *cbdata;
    wu_rte_rpc_t *call; /* a daemon's request being served, or NULL */
} req_t;

static void req_free(req_t *r)
{
    wu_argv_free(r->keys);
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    free(r);
}

/* The answer of a request: to the server's callback here, or back down to its daemon. */
static void req_answer(req_t *r, pmix_status_t st, pmix_pdata_t *pd, size_t n)
{
    if (NULL != r->call) {
        wu_dmsg_t m;
        pmix_status_t rc = PMIX_SUCCESS;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (WU_RTE_RPC_LOOKUP == r->op) {
            rc = wu_dmsg_put_u32(&m, (uint32_t)n);
            if (PMIX_SUCCESS == rc && 0 < n) {
                rc = PMIx_Data_pack(NULL, &m, pd, (int32_t)n, PMIX_PDATA);
            }
        }
        wu_rte_rpc_answer(r->call, PMIX_SUCCESS == rc ? st : rc, &m);
    } else if (WU_RTE_RPC_LOOKUP == r->op) {
        if (NULL != r->lookupcb) {
            r->lookupcb(st, pd, n, r->cbdata);
        }
    } else if (NULL != r->opcb) {
        r->opcb(st, r->cbdata);
    }
    req_free(r);
}

static void lookup_answer(pmix_status_t st, pmix_pdata_t *pd, size_t n, void *arg)
{
    req_answer(arg, st, pd, n);
}

/* The head serves r for w. */
static void head_run(req_t *r, const who_t *w)
{
    switch (r->op) {
    case WU_RTE_RPC_PUBLISH:
        req_answer(r, wu_rte_ps_publish(w, r->info, r->ninfo), NULL, 0);
        break;
    case WU_RTE_RPC_LOOKUP:
        wu_rte_ps_lookup(w, r->keys, r->info, r->ninfo, lookup_answer, r);
        break;
    default:
        req_answer(r, wu_rte_ps_unpublish(w, r->keys, r->info, r->ninfo), NULL, 0);
        break;
    }
}

static pmix_status_t pack_req(const req_t *r, wu_dmsg_t *m)
{
    pmix_status_t rc = wu_dmsg_put_proc(m, &r->proc);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_argv(m, r->keys) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, (uint32_t)r->ninfo) : rc;
    if (PMIX_SUCCESS == rc && 0 < r->ninfo) {
        rc = PMIx_Data_pack(NULL, m, r->info, (int32_t)r->ninfo, PMIX_INFO);
    }
    return rc;
}

/* wired: the head's answer to r. */
static void rpc_done(pmix_status_t st, wu_dmsg_t *payload, void *arg)
{
    req_t *r = arg;
    pmix_pdata_t *pd = NULL;
    uint32_t n = 0;
    if (WU_RTE_RPC_LOOKUP == r->op && NULL != payload &&
        (PMIX_SUCCESS == st || PMIX_ERR_PARTIAL_SUCCESS == st)) {
        int32_t cnt;
        if (PMIX_SUCCESS != wu_dmsg_get_u32(payload, &n) || n > 65536) {
            st = PMIX_ERR_UNPACK_FAILURE;
            n = 0;
        } else if (0 < n) {
            PMIX_PDATA_CREATE(pd, n);
            cnt = (int32_t)n;
            if (NULL == pd ||
                PMIX_SUCCESS != PMIx_Data_unpack(NULL, payload, pd, &cnt, PMIX_PDATA)) {
                st = NULL == pd ? PMIX_ERR_NOMEM : PMIX_ERR_UNPACK_FAILURE;
            }
        }
    }
    r->call = NULL;
    req_answer(r, st, PMIX_SUCCESS == st || PMIX_ERR_PARTIAL_SUCCESS == st ? pd : NULL,
               PMIX_SUCCESS == st || PMIX_ERR_PARTIAL_SUCCESS == st ? n : 0);
    if (NULL != pd) {
        PMIX_PDATA_FREE(pd, n);
    }
}

/* rte thread: a request of this node's server. */
static void req_in_rte(void *arg)
{
    req_t *r = arg;
    who_t w = {.proc = r->proc};
    snprintf(w.node, sizeof w.node, "%s", wu_rte_hostname);
    if (wu_rte_daemon_mode) {
        wu_dmsg_t m;
        pmix_status_t rc;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS != (rc = pack_req(r, &m))) {
            PMIX_DATA_BUFFER_DESTRUCT(&m);
            req_answer(r, rc, NULL, 0);
            return;
        }
        wu_rte_rpc_call(r->op, &m, rpc_done, r);
        return;
    }
    head_run(r, &w);
}

static void pubsub_serve(wu_rte_rpc_t *call, uint32_t op, wu_dmsg_t *args)
{
    req_t *r = calloc(1, sizeof *r);
    uint32_t ninfo = 0;
    who_t w;
    pmix_status_t rc = NULL == r ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    if (PMIX_SUCCESS == rc) {
        r->op = op;
        r->call = call;
        rc = wu_dmsg_get_proc(args, &r->proc);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_argv(args, &r->keys) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(args, &ninfo) : rc;
        if (PMIX_SUCCESS == rc && ninfo > 4096) {
            rc = PMIX_ERR_BAD_PARAM;
        }
        if (PMIX_SUCCESS == rc && 0 < ninfo) {
            int32_t cnt = (int32_t)ninfo;
            PMIX_INFO_CREATE(r->info, ninfo);
            r->ninfo = NULL != r->info ? ninfo : 0;
            rc = NULL == r->info ? PMIX_ERR_NOMEM
                                 : PMIx_Data_unpack(NULL, args, r->info, &cnt, PMIX_INFO);
        }
    }
    if (PMIX_SUCCESS != rc) {
        if (NULL != r) {
            req_free(r);
        }
        wu_rte_rpc_answer(call, rc, NULL);
        return;
    }
    w.proc = r->proc;
    /* a daemon's clients run on its node */
    snprintf(w.node, sizeof w.node, "%s", wu_rte_rpc_host(call));
    w.uid = w.gid = 0;
    head_run(r, &w);
}

/* The upcalls (server thread): a copy of the request goes to the rte thread. */
static pmix_status_t shift_req(uint32_t op, const pmix_proc_t *proc, char **keys,
                               const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t opcb,
                               pmix_lookup_cbfunc_t lookupcb, void *cbdata)
{
    req_t *r = calloc(1, sizeof *r);
    if (NULL == r || NULL == proc) {
        free(r);
        return PMIX_ERR_NOMEM;
    }
    r->op = op;
    r->proc = *proc;
    r->opcb = opcb;
    r->lookupcb = lookupcb;
    r->cbdata = cbdata;
    if (NULL != keys && NULL == (r->keys = wu_argv_copy(keys))) {
        req_free(r);
        return PMIX_ERR_NOMEM;
    }
    if (0 < ninfo) {
        PMIX_INFO_CREATE(r->info, ninfo);
        if (NULL == r->info) {
            req_free(r);
            return PMIX_ERR_NOMEM;
        }
        r->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_SUCCESS != PMIx_Info_xfer(&r->info[i], &info[i])) {
                req_free(r);
                return PMIX_ERR_NOMEM;
            }
        }
    }
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), req_in_rte, r)) {
        req_free(r);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

pmix_status_t wu_rte_pubsub_request(uint32_t op, const pmix_proc_t *proc, char **keys,
                                    const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t opcb,
                                    pmix_lookup_cbfunc_t lookupcb, void *cbdata)
{
    return shift_req(op, proc, keys, info, ninfo, opcb, lookupcb, cbdata);
}

static pmix_status_t h_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return shift_req(WU_RTE_RPC_PUBLISH, proc, NULL, info, ninfo, cbfunc, NULL, cbdata);
}

static pmix_status_t h_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                              size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    return shift_req(WU_RTE_RPC_LOOKUP, proc, keys, info, ninfo, NULL, cbfunc, cbdata);
}

static pmix_status_t h_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                                 size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return shift_req(WU_RTE_RPC_UNPUBLISH, proc, keys, info, ninfo, cbfunc, NULL, cbdata);
}

void wu_rte_pubsub_module(pmix_server_module_t *m)
{
    m->publish = h_publish;
    m->lookup = h_lookup;
    m->unpublish = h_unpublish;
}

static void observe_job_ended(rte_job_t *job)
{
    if (!wu_rte_daemon_mode) { /* (wired keeps no data: its requests go to the head node) */
        wu_rte_pubsub_job_ended(job->nspace); /* its PMIX_PERSIST_APP data go */
    }
}

int wu_rte_pubsub_attach(void)
{
    static const rte_job_observer_t observer = {.proc_ended = wu_rte_pubsub_proc_ended,
                                                .job_ended = observe_job_ended};
    int rc = wu_rte_job_observe(&observer);
    rc = WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_PUBLISH, pubsub_serve) : rc;
    rc = WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_LOOKUP, pubsub_serve) : rc;
    return WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_UNPUBLISH, pubsub_serve) : rc;
}
