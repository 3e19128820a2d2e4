/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dvm_coll.c -- on the head node (wrun): fences and direct-modex requests across nodes.
 *
 * Fences: each node whose server has all its local participants of a fence sends FENCE with the
 * participant set (its signature), its data and the fence's PMIX_TIMEOUT; the head node's own
 * server does the same through wu_rte_dvm_fence. Contributions of the same set are collected in
 * arrival order (the oldest open collection of a set that the node has not contributed to takes
 * it); when every node hosting a participant has contributed, all the data goes back to each
 * contributor (FENCE_DONE, one message per branch of the launch tree that holds contributors). A collection fails, for every node that contributed, when
 *  - a participant ended before its node contributed (WU_PROTO_ERR_TERMINATED, the rank named),
 *  - its PMIX_TIMEOUT ran out, counted from the first contribution (PMIX_ERR_TIMEOUT, the
 *    missing nodes named), or
 *  - the job stops.
 * So no collection outlives its fence on any node, and a later fence of the same set never
 * meets a stale one.
 *
 * Direct modex: a request is routed to the node of the proc it asks about (the head's own
 * server answers for its procs, once they are registered), and the answer back to the asking
 * node. Everything here runs on the rte progress thread except the two server upcalls
 * wu_rte_dvm_fence and wu_rte_dvm_dmodex, which shift into it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "opal/util/wu_argv.h"
#include "pmix/common/wu_proto.h"
#include "pmix/rte/dist/wu_rte_dvm_int.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fence being collected: the engine's collection, one slot per map node, a node expected if
 * it hosts a participant. */
typedef struct {
    wu_rte_coll_t super;
    struct rte_dvm *dvm;
    bool wildcard;   /* every rank of the job takes part */
    uint32_t *ranks; /* otherwise these ranks of the job */
    uint32_t nranks;
    pmix_modex_cbfunc_t head_cb; /* the head node's own server, when it takes part */
    void *head_cbdata;
} fence_t;

static void fence_destruct(fence_t *f)
{
    free(f->ranks);
}

static WU_CLASS_INSTANCE(fence_t, wu_rte_coll_t, NULL, fence_destruct);

/* A request about a proc of this node that came before the job was registered here. */
typedef struct {
    wu_list_item_t super;
    uint32_t origin;
    uint64_t id;
    pmix_proc_t proc;
} early_req_t;

static WU_CLASS_INSTANCE(early_req_t, wu_list_item_t, NULL, NULL);

/* --- fences ---------------------------------------------------------------------------------- */

/* Read the participants of this job from the set packed in the key and expect their nodes. */
static pmix_status_t fence_parts(fence_t *f)
{
    rte_job_t *job = f->dvm->job;
    pmix_status_t rc = wu_dmsg_fence_parts(f->super.key, f->super.keylen, job->nspace, job->np,
                                           &f->wildcard, &f->ranks, &f->nranks);
    for (uint32_t k = 0; k < job->map->nnodes && PMIX_SUCCESS == rc && f->wildcard; k++) {
        wu_rte_coll_expect(&f->super, k);
    }
    for (uint32_t i = 0; i < f->nranks && PMIX_SUCCESS == rc; i++) {
        wu_rte_coll_expect(&f->super, job->map->procs[f->ranks[i]].node);
    }
    return rc;
}

/* The participants that ended before their node contributed: "rank 4 (node3), rank 5 (node3)",
 * or NULL if none did (or out of memory). */
static char *fence_ended_parts(const fence_t *f)
{
    rte_job_t *job = f->dvm->job;
    uint32_t n = f->wildcard ? job->np : f->nranks;
    char **items = NULL, *list, *item;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = f->wildcard ? i : f->ranks[i], node = job->map->procs[r].node;
        if (job->procs[r].exited && !f->super.from[node] &&
            WU_SUCCESS == wu_asprintf(&item, "rank %u (%s)", r, job->map->nodes[node].name)) {
            (void)wu_argv_append(&items, item);
            free(item);
        }
    }
    list = NULL != items ? wu_argv_join(items, ' ') : NULL;
    wu_argv_free(items);
    return list;
}

/* Give every contributor the result, then forget the fence. */
static void fence_end(fence_t *f, pmix_status_t status)
{
    struct rte_dvm *dvm = f->dvm;
    bool *to = f->super.from;
    wu_dmsg_t m;
    if (to[dvm->job->mynode] && NULL != f->head_cb) {
        wu_dmsg_modex_answer(f->head_cb, f->head_cbdata, status, f->super.data, f->super.ndata);
        f->head_cb = NULL;
    }
    /* one message for every other contributor, down the tree; a failure goes to every node
     * that hosts a participant (a relay may hold the contribution of one that has not reached
     * us: it drops it when it sees the failure, which answers that node) */
    if (PMIX_SUCCESS != status) {
        to = f->super.expect;
    }
    to[dvm->job->mynode] = false;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == wu_dmsg_put_bytes(&m, f->super.key, f->super.keylen) &&
        PMIX_SUCCESS == wu_dmsg_put_i32(&m, status) &&
        PMIX_SUCCESS == wu_dmsg_put_bytes(&m, PMIX_SUCCESS == status ? f->super.data : NULL,
                                          PMIX_SUCCESS == status ? f->super.ndata : 0)) {
        wu_rte_dvm_send_many(dvm, to, WU_DMSG_FENCE_DONE, &m);
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
    wu_rte_coll_close(&f->super);
}

/* A job that is ending takes its fences down with it: no message for each of them. */
static bool job_ending(const rte_job_t *job)
{
    return job->status_set || job->terminating;
}

/* Fail f if one of its participants can no longer contribute; true if it did. */
static bool fence_check_ended(fence_t *f)
{
    rte_job_t *job = f->dvm->job;
    char *ended = fence_ended_parts(f);
    if (NULL == ended) {
        return false;
    }
    if (!job_ending(job)) {
        wu_rte_say("fence-proc-ended", wu_rte_tool, ended);
    }
    free(ended);
    fence_end(f, WU_PROTO_ERR_TERMINATED);
    return true;
}

/* A node a fence still waits for, with its participants: "node2 (ranks 2 3)". */
static char *missing_node(uint32_t k, void *arg)
{
    const fence_t *f = arg;
    const wu_rte_jm_node_t *nd = &f->dvm->job->map->nodes[k];
    char **ranks = NULL, *list, *s = NULL, buf[16];
    for (uint32_t i = 0; i < nd->nlocal; i++) {
        uint32_t r = nd->ranks[i];
        bool part = f->wildcard;
        for (uint32_t j = 0; j < f->nranks && !part; j++) {
            part = f->ranks[j] == r;
        }
        if (part) {
            (void)snprintf(buf, sizeof buf, "%u", r);
            (void)wu_argv_append(&ranks, buf);
        }
    }
    list = wu_argv_join(ranks, ' ');
    if (NULL == list ||
        0 > asprintf(&s, "%s (rank%s %s)", nd->name, wu_argv_count(ranks) > 1 ? "s" : "", list)) {
        s = NULL;
    }
    free(list);
    wu_argv_free(ranks);
    return s;
}

static void fence_expired(wu_rte_coll_t *c)
{
    fence_t *f = (fence_t *)c;
    char *missing = wu_rte_coll_missing(c, missing_node, f, ',');
    if (!job_ending(f->dvm->job)) {
        wu_rte_say("fence-timeout", wu_rte_tool, c->timeout, NULL != missing ? missing : "?");
    }
    free(missing);
    fence_end(f, PMIX_ERR_TIMEOUT);
}

int wu_rte_dvm_coll_init(struct rte_dvm *dvm)
{
    WU_CONSTRUCT(&dvm->early, wu_list_t);
    return wu_rte_colls_init(&dvm->fences, wu_rte_progress(), fence_expired);
}

/* Node k contributes data (copied) to the fence of set sig. */
static pmix_status_t fence_contribute(struct rte_dvm *dvm, uint32_t k, const char *sig,
                                      size_t siglen, const char *data, size_t ndata, int timeout,
                                      pmix_modex_cbfunc_t head_cb, void *head_cbdata)
{
    fence_t *f = (fence_t *)wu_rte_coll_match(&dvm->fences, 0, sig, siglen, k);
    pmix_status_t rc;
    if (NULL == f) {
        if (NULL == (f = WU_NEW(fence_t))) {
            return PMIX_ERR_NOMEM;
        }
        f->dvm = dvm;
        if (WU_SUCCESS !=
            wu_rte_coll_open(&dvm->fences, &f->super, 0, sig, siglen, dvm->job->map->nnodes)) {
            return PMIX_ERR_NOMEM;
        }
        if (PMIX_SUCCESS != (rc = fence_parts(f)) || !f->super.expect[k]) {
            wu_rte_coll_close(&f->super);
            return PMIX_SUCCESS == rc ? PMIX_ERR_BAD_PARAM : rc; /* k hosts no participant */
        }
    }
    /* the same set: k hosts no participant either (BAD_PARAM), or no memory */
    if (WU_SUCCESS != (rc = wu_rte_coll_add(&f->super, k, data, ndata))) {
        return rc;
    }
    if (NULL != head_cb) {
        f->head_cb = head_cb;
        f->head_cbdata = head_cbdata;
    }
    if (wu_rte_coll_complete(&f->super)) {
        fence_end(f, PMIX_SUCCESS);
    } else if (!fence_check_ended(f)) {
        wu_rte_coll_arm(&f->super, timeout);
    }
    return PMIX_SUCCESS;
}

/* Node `node`'s contribution, from its FENCE or a relay's FENCE_AGG. */
static void contribute_one(struct rte_dvm *dvm, uint32_t node, const char *sig, size_t siglen,
                           const char *data, size_t ndata, int32_t timeout)
{
    if (PMIX_SUCCESS !=
        fence_contribute(dvm, node, sig, siglen, data, ndata, timeout, NULL, NULL)) {
        /* the node's fence cannot be collected: its server gets the error at once */
        wu_dmsg_t r;
        PMIX_DATA_BUFFER_CONSTRUCT(&r);
        if (PMIX_SUCCESS == wu_dmsg_put_bytes(&r, sig, siglen) &&
            PMIX_SUCCESS == wu_dmsg_put_i32(&r, PMIX_ERR_BAD_PARAM) &&
            PMIX_SUCCESS == wu_dmsg_put_bytes(&r, NULL, 0)) {
            wu_rte_dvm_send_to(dvm, node, WU_DMSG_FENCE_DONE, &r);
        } else {
            PMIX_DATA_BUFFER_DESTRUCT(&r);
        }
    }
}

void wu_rte_dvm_on_fence(struct rte_dvm *dvm, uint32_t node, wu_dmsg_t *m)
{
    char *sig = NULL, *data = NULL;
    size_t siglen = 0, ndata = 0;
    int32_t timeout = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_bytes(m, &sig, &siglen) &&
        PMIX_SUCCESS == wu_dmsg_get_bytes(m, &data, &ndata) &&
        PMIX_SUCCESS == wu_dmsg_get_i32(m, &timeout)) {
        contribute_one(dvm, node, sig, siglen, data, ndata, timeout);
    }
    free(sig);
    free(data);
}

typedef struct {
    struct rte_dvm *dvm;
    const bool *branch;
} agg_walk_t;

static bool agg_pair(uint32_t node, const char *sig, size_t siglen, const char *data, size_t ndata,
                     int32_t timeout, void *arg)
{
    agg_walk_t *w = arg;
    if (node >= w->dvm->job->map->nnodes || !w->branch[node]) {
        return false;
    }
    contribute_one(w->dvm, node, sig, siglen, data, ndata, timeout);
    return true;
}

bool wu_rte_dvm_on_fence_agg(struct rte_dvm *dvm, const bool *branch, wu_dmsg_t *m)
{
    agg_walk_t w = {.dvm = dvm, .branch = branch};
    return wu_dmsg_walk_fence_agg(m, agg_pair, &w);
}

void wu_rte_dvm_proc_ended(rte_job_t *job, uint32_t rank)
{
    wu_rte_colls_t *s = NULL != job->dvm ? &job->dvm->fences : NULL;
    wu_rte_coll_t *c = NULL != s ? wu_rte_colls_first(s) : NULL;
    (void)rank; /* any participant: a node's loss ends several at once */
    while (NULL != c) {
        wu_rte_coll_t *next = wu_rte_colls_next(s, c);
        (void)fence_check_ended((fence_t *)c);
        c = next;
    }
}

static void fence_in_rte(void *arg)
{
    wu_dmsg_fence_t *f = arg;
    rte_job_t *job = wu_rte_job_find(f->nspace); /* the launcher's job or a child */
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;
    if (NULL != job && NULL != job->dvm && UINT32_MAX != job->mynode) {
        rc = fence_contribute(job->dvm, job->mynode, f->sig, f->siglen, f->data, f->ndata,
                              f->timeout, f->cb, f->cbdata);
    }
    if (PMIX_SUCCESS != rc) {
        f->cb(rc, NULL, 0, f->cbdata, NULL, NULL);
    }
    wu_dmsg_fence_free(f);
}

pmix_status_t wu_rte_dvm_fence(const pmix_proc_t procs[], size_t nprocs, const char *data,
                               size_t ndata, int timeout, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return wu_dmsg_fence_shift(fence_in_rte, procs, nprocs, data, ndata, timeout, cbfunc, cbdata);
}

/* --- direct modex ---------------------------------------------------------------------------- */

typedef struct {
    struct rte_dvm *dvm;
    uint32_t origin;
    uint64_t id;
} dmx_local_t;

static void deliver_rep(struct rte_dvm *dvm, uint32_t origin, uint64_t id, pmix_status_t st,
                        const char *data, size_t ndata);

typedef struct {
    dmx_local_t where;
    pmix_status_t st;
    char *data;
    size_t ndata;
} dmx_answer_t;

static void dmx_answer_in_rte(void *arg)
{
    dmx_answer_t *a = arg;
    if (wu_rte_dvm_live(a->where.dvm)) {
        deliver_rep(a->where.dvm, a->where.origin, a->where.id, a->st, a->data, a->ndata);
    }
    free(a->data);
    free(a);
}

/* The head node's server answered a request about one of its procs (any thread). */
static void dmx_local_cb(pmix_status_t status, char *data, size_t sz, void *cbdata)
{
    dmx_local_t *l = cbdata;
    dmx_answer_t *a = calloc(1, sizeof *a);
    if (NULL != a) {
        a->where = *l;
        a->st = status;
        if (sz > 0 && NULL != (a->data = malloc(sz))) {
            memcpy(a->data, data, sz);
            a->ndata = sz;
        } else if (sz > 0) {
            a->st = PMIX_ERR_NOMEM;
        }
        if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), dmx_answer_in_rte, a)) {
            free(a->data);
            free(a);
        }
    }
    free(l);
}

static void deliver_rep(struct rte_dvm *dvm, uint32_t origin, uint64_t id, pmix_status_t st,
                        const char *data, size_t ndata)
{
    wu_dmsg_t m;
    if (WU_DMSG_HEAD == origin) {
        (void)wu_dmsg_pending_answer(&dvm->dmx, id, NULL, 0, st, data, ndata);
        return;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == wu_dmsg_put_dmodex_rep(&m, origin, id, st, data, ndata)) {
        wu_rte_dvm_send_to(dvm, origin, WU_DMSG_DMODEX_REP, &m);
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
}

/* Ask the head node's own server about proc, for origin. */
static void ask_local(struct rte_dvm *dvm, uint32_t origin, uint64_t id, const pmix_proc_t *proc)
{
    dmx_local_t *l = malloc(sizeof *l);
    pmix_status_t rc;
    if (NULL == l) {
        deliver_rep(dvm, origin, id, PMIX_ERR_NOMEM, NULL, 0);
        return;
    }
    *l = (dmx_local_t){.dvm = dvm, .origin = origin, .id = id};
    if (PMIX_SUCCESS != (rc = PMIx_server_dmodex_request(proc, dmx_local_cb, l))) {
        free(l);
        deliver_rep(dvm, origin, id, rc, NULL, 0);
    }
}

static void route_req(struct rte_dvm *dvm, uint32_t origin, uint64_t id, const pmix_proc_t *proc);

/* Ask dvm's job about proc as the head node itself: cb(cbdata) gets the answer; false (cb not
 * called) when out of memory. */
static bool ask_as_head(struct rte_dvm *dvm, const pmix_proc_t *proc, pmix_modex_cbfunc_t cb,
                        void *cbdata)
{
    wu_dmsg_pending_t *p = wu_dmsg_pending_add(&dvm->dmx, cb, cbdata);
    if (NULL == p) {
        return false;
    }
    p->id = ++dvm->next_id;
    route_req(dvm, WU_DMSG_HEAD, p->id, proc);
    return true;
}

/* A request of a daemon of one job about a process of another job of ours (a parent asking
 * about its child's, a child about its parent's): the head asks in the other job's daemons as
 * if for itself, and passes the answer on. */
typedef struct {
    struct rte_dvm *dvm;
    uint32_t origin;
    uint64_t id;
} relay_t;

static void relay_answer(pmix_status_t st, const char *data, size_t ndata, void *cbdata,
                         pmix_release_cbfunc_t relfn, void *relcbdata)
{
    relay_t *r = cbdata; /* called on the rte thread (wu_dmsg_pending_answer) */
    if (wu_rte_dvm_live(r->dvm)) {
        deliver_rep(r->dvm, r->origin, r->id, st, data, ndata);
    }
    if (NULL != relfn) {
        relfn(relcbdata);
    }
    free(r);
}

static void relay_req(struct rte_dvm *from, uint32_t origin, uint64_t id, rte_job_t *to,
                      const pmix_proc_t *proc)
{
    relay_t *r = malloc(sizeof *r);
    if (NULL != r) {
        *r = (relay_t){.dvm = from, .origin = origin, .id = id};
    }
    if (NULL == r || !ask_as_head(to->dvm, proc, relay_answer, r)) {
        free(r);
        deliver_rep(from, origin, id, PMIX_ERR_NOMEM, NULL, 0);
    }
}

/* Route a request from origin about proc to the node that runs it. */
static void route_req(struct rte_dvm *dvm, uint32_t origin, uint64_t id, const pmix_proc_t *proc)
{
    rte_job_t *job = dvm->job, *other;
    uint32_t node;
    wu_dmsg_t m;
    if (0 != strncmp(proc->nspace, job->nspace, PMIX_MAX_NSLEN) && WU_DMSG_HEAD != origin &&
        NULL != (other = wu_rte_job_find(proc->nspace)) && other != job) {
        if (NULL != other->dvm) {
            relay_req(dvm, origin, id, other, proc);
        } else if (UINT32_MAX != other->mynode && proc->rank < other->np) {
            ask_local(dvm, origin, id, proc); /* every process of that job runs here */
        } else {
            deliver_rep(dvm, origin, id, PMIX_ERR_NOT_FOUND, NULL, 0);
        }
        return;
    }
    if (0 != strncmp(proc->nspace, job->nspace, PMIX_MAX_NSLEN) || proc->rank >= job->np) {
        deliver_rep(dvm, origin, id, PMIX_ERR_NOT_FOUND, NULL, 0);
        return;
    }
    node = job->map->procs[proc->rank].node;
    if (node == job->mynode && !job->registered) {
        early_req_t *e = dvm->stopping ? NULL : WU_NEW(early_req_t);
        if (NULL == e) {
            deliver_rep(dvm, origin, id, dvm->stopping ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_NOMEM,
                        NULL, 0);
            return;
        }
        e->origin = origin;
        e->id = id;
        e->proc = *proc;
        wu_list_append(&dvm->early, &e->super); /* served in arrival order once registered */
        return;
    }
    if (node == job->mynode) {
        ask_local(dvm, origin, id, proc);
        return;
    }
    if (!wu_rte_dvm_reachable(dvm, node)) {
        deliver_rep(dvm, origin, id, PMIX_ERR_UNREACH, NULL, 0);
        return;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == wu_dmsg_put_u32(&m, origin) && PMIX_SUCCESS == wu_dmsg_put_u64(&m, id) &&
        PMIX_SUCCESS == wu_dmsg_put_proc(&m, proc)) {
        wu_rte_dvm_send_to(dvm, node, WU_DMSG_DMODEX_REQ, &m);
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
        deliver_rep(dvm, origin, id, PMIX_ERR_NOMEM, NULL, 0);
    }
}

void wu_rte_dvm_on_dmodex_req(struct rte_dvm *dvm, uint32_t node, wu_dmsg_t *m)
{
    uint32_t origin;
    uint64_t id;
    pmix_proc_t proc;
    if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &origin) && PMIX_SUCCESS == wu_dmsg_get_u64(m, &id) &&
        PMIX_SUCCESS == wu_dmsg_get_proc(m, &proc)) {
        route_req(dvm, node, id, &proc); /* the origin is the sender, whatever it says */
    }
}

void wu_rte_dvm_on_dmodex_rep(struct rte_dvm *dvm, wu_dmsg_t *m)
{
    uint32_t origin;
    uint64_t id;
    int32_t st;
    char *data = NULL;
    size_t ndata = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_dmodex_rep(m, &origin, &id, &st, &data, &ndata)) {
        deliver_rep(dvm, origin, id, st, data, ndata);
    }
    free(data);
}

void wu_rte_dvm_registered(rte_job_t *job)
{
    struct rte_dvm *dvm = job->dvm;
    early_req_t *e;
    while (NULL != (e = (early_req_t *)wu_list_remove_first(&dvm->early))) {
        route_req(dvm, e->origin, e->id, &e->proc);
        WU_RELEASE(e);
    }
}

static void dmodex_in_rte(void *arg)
{
    wu_dmsg_dmodex_t *u = arg;
    rte_job_t *job = wu_rte_job_find(u->proc.nspace); /* the launcher's job or a child */
    if (NULL == job || NULL == job->dvm) {
        u->cb(PMIX_ERR_NOT_FOUND, NULL, 0, u->cbdata, NULL, NULL);
    } else if (!ask_as_head(job->dvm, &u->proc, u->cb, u->cbdata)) {
        u->cb(PMIX_ERR_NOMEM, NULL, 0, u->cbdata, NULL, NULL);
    }
    free(u);
}

pmix_status_t wu_rte_dvm_dmodex(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return wu_dmsg_dmodex_shift(dmodex_in_rte, proc, cbfunc, cbdata);
}

void wu_rte_dvm_coll_stop(struct rte_dvm *dvm)
{
    wu_rte_coll_t *c;
    early_req_t *e;
    while (NULL != (c = wu_rte_colls_first(&dvm->fences))) {
        fence_end((fence_t *)c, PMIX_ERR_LOST_CONNECTION);
    }
    wu_rte_colls_fini(&dvm->fences); /* takes no more */
    while (NULL != (e = (early_req_t *)wu_list_remove_first(&dvm->early))) {
        deliver_rep(dvm, e->origin, e->id, PMIX_ERR_LOST_CONNECTION, NULL, 0);
        WU_RELEASE(e);
    }
    WU_DESTRUCT(&dvm->early); /* dvm->stopping: no more come */
    wu_dmsg_pending_fail(&dvm->dmx, PMIX_ERR_LOST_CONNECTION);
}
