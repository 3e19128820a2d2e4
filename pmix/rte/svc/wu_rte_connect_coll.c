/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_connect_coll.c -- the connect service's collective on the head node: which servers
 * must contribute to a PMIx_Connect, PMIx_Disconnect, fence across jobs or group operation (the
 * nodes of this wrun's job, those of its spawned jobs' daemons), their contributions as slots of
 * the runtime's collective engine, its timeout and the ends that fail it, and what each server
 * gets back: the other servers' data, the namespaces it does not know yet, a group's context id.
 * Everything runs on the rte thread. */
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_connect_int.h"
#include "pmix.h"

#include <stdlib.h>
#include <string.h>

static uint64_t next_ctxid;

static void cx_construct(cx_t *c)
{
    c->procs = NULL;
    c->nprocs = 0;
    c->nmain = 0;
    c->parts = NULL;
    c->foreign = c->kids = NULL;
    c->kbase = NULL;
    c->exchanging = false;
    c->prefix[0] = c->mine[0] = '\0';
    WU_CONSTRUCT(&c->theirs, wu_list_t);
    c->ctxid = 0;
}

static void cx_destruct(cx_t *c)
{
    for (uint32_t i = 0; NULL != c->parts && i < c->super.nslots; i++) {
        free(c->parts[i].host);
        free(c->parts[i].lblob);
        free(c->parts[i].rblob);
    }
    WU_DESTRUCT(&c->theirs); /* what was read from the other wruns */
    free(c->parts);
    if (NULL != c->procs) {
        PMIX_PROC_FREE(c->procs, c->nprocs);
    }
    wu_argv_free(c->foreign);
    wu_argv_free(c->kids);
    free(c->kbase);
}

static WU_CLASS_INSTANCE(cx_t, wu_rte_coll_t, cx_construct, cx_destruct);

static void cx_timeout(wu_rte_coll_t *coll)
{
    static const char *const call[] = {"PMIx_Connect", "PMIx_Disconnect", "PMIx_Fence",
                                       "PMIx_Group_construct", "PMIx_Group_destruct"};
    wu_rte_say("connect-timeout", wu_rte_tool, call[coll->kind], coll->timeout);
    wu_rte_cx_finish((cx_t *)coll, PMIX_ERR_TIMEOUT);
}

static wu_rte_colls_t cxs;
static bool cxs_ready;

wu_rte_colls_t *wu_rte_cx_colls(void)
{
    if (!cxs_ready) {
        cxs_ready = WU_SUCCESS == wu_rte_colls_init(&cxs, wu_rte_progress(), cx_timeout);
    }
    return cxs_ready ? &cxs : NULL;
}

static bool is_part(const cx_t *c, const pmix_proc_t *p)
{
    for (size_t i = 0; i < c->nprocs; i++) {
        if (PMIX_CHECK_NSPACE(c->procs[i].nspace, p->nspace) &&
            (PMIX_RANK_WILDCARD == c->procs[i].rank || c->procs[i].rank == p->rank)) {
            return true;
        }
    }
    return false;
}

static pmix_status_t buf_add(char **p, size_t *n, const char *add, size_t nadd)
{
    char *q;
    if (0 == nadd) {
        return PMIX_SUCCESS;
    }
    if (NULL == (q = realloc(*p, *n + nadd))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(q + *n, add, nadd);
    *p = q;
    *n += nadd;
    return PMIX_SUCCESS;
}

/* The blob for node n: the remote-scope data of the other nodes of this wrun, and of the other
 * wruns' participants (their local-scope data for those on n's host). */
static pmix_status_t blob_for(const cx_t *c, uint32_t n, char **blob, size_t *nblob)
{
    const char *host = c->parts[n].host;
    const theirs_t *t;
    pmix_status_t rc = PMIX_SUCCESS;
    *blob = NULL;
    *nblob = 0;
    if (K_DISCONNECT == c->super.kind || K_GROUP_END == c->super.kind) {
        return PMIX_SUCCESS;
    }
    if (K_GROUP == c->super.kind) {
        unsigned char *id = malloc(8);
        if (NULL == id) {
            return PMIX_ERR_NOMEM;
        }
        for (int i = 0; i < 8; i++) {
            id[i] = (unsigned char)(c->ctxid >> (8 * i));
        }
        *blob = (char *)id;
        *nblob = 8;
        return PMIX_SUCCESS;
    }
    for (uint32_t m = 0; m < c->super.nslots && PMIX_SUCCESS == rc; m++) {
        const part_t *o = &c->parts[m];
        if (m != n && c->super.from[m]) {
            /* two servers on one host: a job and its child's daemon */
            bool same = NULL != host && NULL != o->host && 0 == strcmp(host, o->host);
            rc = same ? buf_add(blob, nblob, o->lblob, o->nl)
                      : buf_add(blob, nblob, o->rblob, o->nr);
        }
    }
    WU_LIST_FOREACH(t, &c->theirs, theirs_t)
    {
        if (PMIX_SUCCESS != rc) {
            break;
        }
        for (size_t i = 0; i < t->nparts && PMIX_SUCCESS == rc; i++) {
            bool same = NULL != host && NULL != t->host[i] && 0 == strcmp(host, t->host[i]);
            rc = same ? buf_add(blob, nblob, t->lblob[i], t->nl[i])
                      : buf_add(blob, nblob, t->rblob[i], t->nr[i]);
        }
    }
    if (PMIX_SUCCESS != rc) {
        free(*blob);
        *blob = NULL;
        *nblob = 0;
    }
    return rc;
}

/* The foreign namespaces' job data made for node n (arrays of nf entries, freed by the
 * caller with free_foreign). */
typedef struct {
    size_t n;
    char **ns;
    pmix_info_t **info;
    size_t *ninfo;
} foreign_t;

static void free_foreign(foreign_t *f)
{
    for (size_t i = 0; i < f->n; i++) {
        if (NULL != f->info[i]) {
            PMIX_INFO_FREE(f->info[i], f->ninfo[i]);
        }
    }
    free(f->ns);
    free(f->info);
    free(f->ninfo);
    memset(f, 0, sizeof *f);
}

/* The kid whose slots hold slot n (c->nmain or more), as an index into c->kids. */
static size_t kid_of_slot(const cx_t *c, uint32_t n)
{
    size_t k = 0;
    for (size_t i = 0; NULL != c->kids && NULL != c->kids[i]; i++) {
        if (UINT32_MAX != c->kbase[i] && c->kbase[i] <= n) {
            k = i; /* bases grow with i */
        }
    }
    return k;
}

/* Does the server of slot n know job j already (its registration)? */
static bool slot_knows(const cx_t *c, uint32_t n, const rte_job_t *j)
{
    const rte_job_t *top = wu_rte_job;
    if (n >= c->nmain) {
        return PMIX_CHECK_NSPACE(c->kids[kid_of_slot(c, n)], j->nspace);
    }
    if (NULL != top && n == top->mynode) {
        return j == top || UINT32_MAX != j->mynode; /* the head: every job with procs here */
    }
    return j == top;
}

/* The job data of j made for the server of slot n, appended to f (room for it is there). */
static pmix_status_t hand_ours(const cx_t *c, uint32_t n, rte_job_t *j, foreign_t *f)
{
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    pmix_status_t rc;
    if (slot_knows(c, n, j)) {
        return PMIX_SUCCESS;
    }
    if (PMIX_SUCCESS == (rc = wu_rte_reg_portable_info(j, &info, &ninfo))) {
        f->ns[f->n] = j->nspace;
        rc = wu_rte_cx_for_host(info, ninfo, NULL != c->parts[n].host ? c->parts[n].host : "",
                                &f->info[f->n], &f->ninfo[f->n]);
        f->n++;
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}

static pmix_status_t foreign_for(const cx_t *c, uint32_t n, foreign_t *f)
{
    const theirs_t *t;
    size_t cap = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    memset(f, 0, sizeof *f);
    if (K_CONNECT != c->super.kind) {
        return PMIX_SUCCESS; /* only a connect makes the namespaces known */
    }
    WU_LIST_FOREACH(t, &c->theirs, theirs_t)
    {
        cap += (size_t)wu_argv_count(t->ns);
    }
    cap += 1 + (size_t)wu_argv_count(c->kids); /* the launcher's job, its children */
    f->ns = calloc(cap, sizeof *f->ns);
    f->info = calloc(cap, sizeof *f->info);
    f->ninfo = calloc(cap, sizeof *f->ninfo);
    if (NULL == f->ns || NULL == f->info || NULL == f->ninfo) {
        free_foreign(f);
        return PMIX_ERR_NOMEM;
    }
    WU_LIST_FOREACH(t, &c->theirs, theirs_t)
    {
        for (size_t i = 0; NULL != t->ns[i] && PMIX_SUCCESS == rc; i++) {
            f->ns[f->n] = t->ns[i];
            rc = wu_rte_cx_for_host(t->job[i], t->njob[i],
                                    NULL != c->parts[n].host ? c->parts[n].host : "",
                                    &f->info[f->n], &f->ninfo[f->n]);
            f->n++;
        }
    }
    if (PMIX_SUCCESS == rc && NULL != wu_rte_job) {
        rc = hand_ours(c, n, wu_rte_job, f);
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && NULL != c->kids && NULL != c->kids[i]; i++) {
        rte_job_t *kid = wu_rte_child_find(c->kids[i]);
        rc = NULL == kid ? PMIX_ERR_PROC_TERM_WO_SYNC : hand_ours(c, n, kid, f);
    }
    if (PMIX_SUCCESS != rc) {
        free_foreign(f);
    }
    return rc;
}

void wu_rte_cx_finish(cx_t *c, pmix_status_t status)
{
    c->super.sealed = true; /* nothing joins it any more */
    if (K_GROUP == c->super.kind && PMIX_SUCCESS == status) {
        c->ctxid = c->exchanging ? wu_rte_cx_exchange_ctxid(c) : ++next_ctxid;
    }
    for (uint32_t n = 0; n < c->super.nslots; n++) {
        part_t *p = &c->parts[n];
        char *blob = NULL;
        size_t nblob = 0;
        foreign_t f = {0};
        pmix_status_t st = status;
        if (!c->super.from[n]) {
            continue;
        }
        if (PMIX_SUCCESS == st) {
            st = blob_for(c, n, &blob, &nblob);
        }
        if (PMIX_SUCCESS == st) {
            st = foreign_for(c, n, &f);
        }
        if (NULL != p->local) {
            wu_rte_cx_answer_local(p->local, st, blob, nblob, f.n, f.ns, f.info, f.ninfo);
            blob = NULL;
            p->local = NULL;
        } else if (NULL != p->call) {
            wu_dmsg_t m;
            pmix_status_t rc;
            PMIX_DATA_BUFFER_CONSTRUCT(&m);
            rc = wu_dmsg_put_bytes(&m, blob, nblob);
            rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, (uint32_t)f.n) : rc;
            for (size_t i = 0; i < f.n && PMIX_SUCCESS == rc; i++) {
                rc = wu_dmsg_put_str(&m, f.ns[i]);
                rc = PMIX_SUCCESS == rc ? wu_rte_cx_put_infos(&m, f.info[i], f.ninfo[i]) : rc;
            }
            wu_rte_rpc_answer(p->call, PMIX_SUCCESS == rc ? st : rc, &m);
            p->call = NULL;
        }
        free(blob);
        free_foreign(&f);
    }
    /* our file stays for a slower reader: it goes with the next collective of the same set
     * (exchange_start) or with this wrun */
    wu_rte_coll_close(&c->super);
    wu_rte_cx_exchange_rewatch();
}

/* Mark the slot of the server that runs rank r (PMIX_RANK_WILDCARD: every rank) of kid k. */
static void need_kid(cx_t *c, size_t k, const rte_job_t *kid, pmix_rank_t r, uint32_t head)
{
    for (uint32_t n = 0; n < kid->map->nnodes; n++) {
        const wu_rte_jm_node_t *nd = &kid->map->nodes[n];
        bool runs = false;
        for (uint32_t i = 0; i < nd->nlocal && !runs; i++) {
            runs = PMIX_RANK_WILDCARD == r || nd->ranks[i] == r;
        }
        if (!runs) {
            continue;
        }
        if (n == kid->mynode || UINT32_MAX == c->kbase[k]) {
            wu_rte_coll_expect(&c->super, head); /* its processes here (all without daemons) */
        } else {
            wu_rte_coll_expect(&c->super, c->kbase[k] + n);
        }
    }
}

/* A collective of procs: which servers must contribute (slots: the nodes of this wrun's job,
 * those of its spawned jobs' daemons), which namespaces are other wruns' and which are jobs
 * this wrun spawned. Opened in the set; NULL if out of memory. */
static cx_t *cx_new(uint8_t kind, const pmix_proc_t *procs, size_t nprocs, const char *sig,
                    size_t siglen, int timeout)
{
    rte_job_t *job = wu_rte_job;
    wu_rte_colls_t *set = wu_rte_cx_colls();
    cx_t *c;
    size_t nkids;
    uint32_t nslots;
    if (NULL == set || NULL == job || NULL == job->map || UINT32_MAX == job->mynode ||
        NULL == (c = WU_NEW(cx_t))) {
        return NULL;
    }
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, job->nspace)) {
            char ns[PMIX_MAX_NSLEN + 1];
            bool kid = NULL != wu_rte_child_find(procs[i].nspace);
            PMIX_LOAD_NSPACE(ns, procs[i].nspace);
            if (WU_SUCCESS != wu_argv_append_unique(kid ? &c->kids : &c->foreign, ns)) {
                WU_RELEASE(c);
                return NULL;
            }
        }
    }
    nkids = (size_t)wu_argv_count(c->kids);
    c->nmain = nslots = job->map->nnodes;
    if (nkids > 0 && NULL == (c->kbase = calloc(nkids, sizeof *c->kbase))) {
        WU_RELEASE(c);
        return NULL;
    }
    for (size_t k = 0; k < nkids; k++) {
        const rte_job_t *kid = wu_rte_child_find(c->kids[k]);
        c->kbase[k] = UINT32_MAX;
        if (NULL != kid->dvm && nslots <= UINT32_MAX / 2 - kid->map->nnodes) {
            c->kbase[k] = nslots;
            nslots += kid->map->nnodes;
        }
    }
    if (NULL == c->foreign && NULL == (c->foreign = calloc(1, sizeof *c->foreign))) {
        WU_RELEASE(c);
        return NULL;
    }
    c->parts = calloc(nslots, sizeof *c->parts);
    PMIX_PROC_CREATE(c->procs, nprocs);
    if (NULL == c->parts || NULL == c->procs) {
        WU_RELEASE(c);
        return NULL;
    }
    memcpy(c->procs, procs, nprocs * sizeof *procs);
    c->nprocs = nprocs;
    if (WU_SUCCESS != wu_rte_coll_open(set, &c->super, kind, sig, siglen, nslots)) {
        return NULL;
    }
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, job->nspace)) {
            for (size_t k = 0; k < nkids; k++) {
                if (PMIX_CHECK_NSPACE(procs[i].nspace, c->kids[k])) {
                    need_kid(c, k, wu_rte_child_find(c->kids[k]), procs[i].rank, job->mynode);
                }
            }
        } else if (PMIX_RANK_WILDCARD == procs[i].rank) {
            for (uint32_t n = 0; n < c->nmain; n++) {
                wu_rte_coll_expect(&c->super, n);
            }
        } else if (procs[i].rank < job->np) {
            wu_rte_coll_expect(&c->super, job->map->procs[procs[i].rank].node);
        }
    }
    wu_rte_coll_arm(&c->super, timeout);
    return c;
}

/* The slot of the server that sent a request: a node of the launcher's job (dvm NULL: the head
 * itself) or of a spawned job's daemons; UINT32_MAX if none of c's. */
static uint32_t slot_of(const cx_t *c, const struct rte_dvm *dvm, uint32_t node)
{
    const rte_job_t *job = wu_rte_job;
    if (NULL == dvm) {
        return job->mynode;
    }
    if (dvm == job->dvm) {
        return node;
    }
    for (size_t k = 0; NULL != c->kids && NULL != c->kids[k]; k++) {
        const rte_job_t *kid = wu_rte_child_find(c->kids[k]);
        if (NULL != kid && kid->dvm == dvm && UINT32_MAX != c->kbase[k] &&
            node < kid->map->nnodes) {
            return c->kbase[k] + node;
        }
    }
    return UINT32_MAX;
}

/* Node `node` contributes (on the head's rte thread). Takes the strings and blobs. */
void wu_rte_cx_contribute(const struct rte_dvm *dvm, uint32_t node, uint8_t kind, const char *grp,
                          const pmix_proc_t *procs, size_t nprocs, int timeout, char *host,
                          char *lblob, size_t nl, char *rblob, size_t nr, wu_rte_rpc_t *call,
                          creq_t *local)
{
    char *sig = NULL;
    size_t siglen = 0;
    uint32_t slot = UINT32_MAX;
    cx_t *c;
    pmix_status_t rc = wu_dmsg_fence_sig(procs, nprocs, &sig, &siglen);
    if (PMIX_SUCCESS == rc && '\0' != grp[0]) {
        /* a group's collectives are told apart by its name too */
        size_t ng = strlen(grp) + 1;
        char *more = realloc(sig, siglen + ng);
        if (NULL == more) {
            rc = PMIX_ERR_NOMEM;
        } else {
            memcpy(more + siglen, grp, ng);
            sig = more;
            siglen += ng;
        }
    }
    /* the oldest open collective of the set that the sender's slot has not joined */
    wu_rte_colls_t *set = wu_rte_cx_colls();
    c = NULL;
    for (wu_rte_coll_t *o = NULL != set ? wu_rte_colls_first(set) : NULL;
         PMIX_SUCCESS == rc && NULL != o; o = wu_rte_colls_next(set, o)) {
        if (!o->sealed && wu_rte_coll_is(o, kind, sig, siglen) &&
            (slot = slot_of((cx_t *)o, dvm, node)) < o->nslots && !o->from[slot]) {
            c = (cx_t *)o;
            break;
        }
    }
    if (PMIX_SUCCESS == rc && NULL == c &&
        NULL == (c = cx_new(kind, procs, nprocs, sig, siglen, timeout))) {
        rc = PMIX_ERR_NOMEM;
    }
    free(sig);
    if (PMIX_SUCCESS == rc) {
        slot = slot_of(c, dvm, node);
    }
    if (PMIX_SUCCESS == rc && !wu_rte_coll_waits_for(&c->super, slot)) {
        rc = PMIX_ERR_BAD_PARAM; /* no participant runs there */
    }
    if (PMIX_SUCCESS != rc) {
        free(host);
        free(lblob);
        free(rblob);
        if (NULL != call) {
            wu_rte_rpc_answer(call, rc, NULL);
        } else if (NULL != local) {
            wu_rte_cx_answer_local(local, rc, NULL, 0, 0, NULL, NULL, NULL);
        }
        if (NULL != c && 0 == c->super.nfrom) {
            wu_rte_coll_close(&c->super);
        }
        return;
    }
    c->parts[slot] = (part_t){.host = host,
                              .lblob = lblob,
                              .nl = nl,
                              .rblob = rblob,
                              .nr = nr,
                              .call = call,
                              .local = local};
    (void)wu_rte_coll_add(&c->super, slot, NULL, 0); /* it waits for slot: no failure */
    if (!wu_rte_coll_complete(&c->super)) {
        return;
    }
    if (NULL == c->foreign[0]) {
        wu_rte_cx_finish(c, PMIX_SUCCESS); /* every participant is of this wrun */
    } else {
        wu_rte_cx_exchange_start(c);
    }
}

void wu_rte_cx_proc_ended(const pmix_proc_t *proc)
{
    wu_rte_colls_t *set = wu_rte_cx_colls();
    wu_rte_coll_t *c = NULL != set ? wu_rte_colls_first(set) : NULL;
    while (NULL != c) {
        wu_rte_coll_t *next = wu_rte_colls_next(set, c); /* c may finish */
        if (is_part((cx_t *)c, proc)) {
            wu_rte_cx_finish((cx_t *)c, PMIX_ERR_PROC_TERM_WO_SYNC);
        }
        c = next;
    }
}

void wu_rte_cx_fail_all(pmix_status_t status)
{
    wu_rte_colls_t *set = wu_rte_cx_colls();
    wu_rte_coll_t *c;
    while (NULL != set && NULL != (c = wu_rte_colls_first(set))) {
        wu_rte_cx_finish((cx_t *)c, status);
    }
}
