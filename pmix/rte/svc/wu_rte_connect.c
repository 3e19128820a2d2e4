/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_connect.c -- PMIx_Connect and PMIx_Disconnect for wrun's jobs (wu_rte_connect.h): the
 * hook of the servers, the collective on the head node, and the exchange with other wrun
 * instances through the rendezvous directory. Everything but the hook runs on the rte thread. */
#include "pmix/rte/svc/wu_rte_connect.h"
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix/rte/svc/wu_rte_rdv.h"
#include "pmix/server/wu_server_host.h"
#include "pmix.h"
#include "pmix_server.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most participants, infos and bytes a request may name (a malformed one is refused). */
#define MAX_PROCS 1000000u
#define MAX_INFOS 100000u

/* ---- packing -------------------------------------------------------------------------------- */

static pmix_status_t put_infos(wu_dmsg_t *m, const pmix_info_t *info, size_t n)
{
    pmix_status_t rc = wu_dmsg_put_u32(m, (uint32_t)n);
    if (PMIX_SUCCESS == rc && 0 < n) {
        rc = PMIx_Data_pack(NULL, m, (void *)info, (int32_t)n, PMIX_INFO);
    }
    return rc;
}

static pmix_status_t get_infos(wu_dmsg_t *m, pmix_info_t **info, size_t *n)
{
    uint32_t k = 0;
    int32_t cnt;
    pmix_status_t rc = wu_dmsg_get_u32(m, &k);
    *info = NULL;
    *n = 0;
    if (PMIX_SUCCESS != rc || 0 == k) {
        return rc;
    }
    if (k > MAX_INFOS) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_INFO_CREATE(*info, k);
    if (NULL == *info) {
        return PMIX_ERR_NOMEM;
    }
    *n = k;
    cnt = (int32_t)k;
    return PMIx_Data_unpack(NULL, m, *info, &cnt, PMIX_INFO);
}

/* ---- the namespaces of other wruns this node's server knows ------------------------------- */

typedef struct known {
    struct known *next;
    char nspace[PMIX_MAX_NSLEN + 1];
} known_t;
static known_t *known;

static bool is_known(const char *ns)
{
    for (known_t *k = known; NULL != k; k = k->next) {
        if (PMIX_CHECK_NSPACE(k->nspace, ns)) {
            return true;
        }
    }
    return false;
}

/* A foreign namespace's job data made for this node (host): its processes on this host are
 * its local peers here. */
static pmix_status_t for_host(const pmix_info_t *in, size_t n, const char *host, pmix_info_t **out,
                              size_t *nout)
{
    char **peers = NULL, *list;
    pmix_info_t *a;
    size_t k = 0;
    uint32_t nlocal;
    PMIX_INFO_CREATE(a, n + 2);
    if (NULL == a) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const pmix_data_array_t *d;
        const pmix_info_t *pd;
        if (PMIX_SUCCESS != PMIx_Info_xfer(&a[k++], &in[i])) {
            PMIX_INFO_FREE(a, n + 2);
            wu_argv_free(peers);
            return PMIX_ERR_NOMEM;
        }
        if (!PMIX_CHECK_KEY(&in[i], PMIX_PROC_DATA) || PMIX_DATA_ARRAY != in[i].value.type ||
            NULL == (d = in[i].value.data.darray) || PMIX_INFO != d->type) {
            continue;
        }
        pd = d->array;
        const char *h = NULL;
        pmix_rank_t r = PMIX_RANK_UNDEF;
        for (size_t j = 0; j < d->size; j++) {
            if (PMIX_CHECK_KEY(&pd[j], PMIX_RANK) && PMIX_PROC_RANK == pd[j].value.type) {
                r = pd[j].value.data.rank;
            } else if (PMIX_CHECK_KEY(&pd[j], PMIX_HOSTNAME) && PMIX_STRING == pd[j].value.type) {
                h = pd[j].value.data.string;
            }
        }
        if (NULL != h && PMIX_RANK_UNDEF != r && 0 == strcmp(h, host)) {
            char num[16];
            snprintf(num, sizeof num, "%u", r);
            (void)wu_argv_append(&peers, num);
        }
    }
    nlocal = (uint32_t)wu_argv_count(peers);
    PMIx_Info_load(&a[k++], PMIX_LOCAL_SIZE, &nlocal, PMIX_UINT32);
    if (NULL != peers && NULL != (list = wu_argv_join(peers, ','))) {
        PMIx_Info_load(&a[k++], PMIX_LOCAL_PEERS, list, PMIX_STRING);
        free(list);
    }
    wu_argv_free(peers);
    *out = a;
    *nout = k;
    return PMIX_SUCCESS;
}

/* ---- a node's request, and the answer to it -------------------------------------------------- */

/* What a collective is: a connect, a disconnect, a fence over other wruns' processes too, a
 * group construct or destruct (collectives without data; a construct's answer is the group's
 * context id, the same at every member: within one wrun the head's counter gives it; a group
 * with other wruns' processes takes one from the rendezvous that every wrun of it computes
 * alike, with the top bit set so that it never meets a counter's). */
enum { K_CONNECT = 0, K_DISCONNECT = 1, K_FENCE = 2, K_GROUP = 3, K_GROUP_END = 4 };

static uint64_t next_ctxid;

typedef struct {
    uint8_t kind;
    char *grp; /* a group's name, else "" */
    pmix_proc_t *procs;
    size_t nprocs;
    int timeout;
    char *lblob, *rblob;
    size_t nl, nr;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
} creq_t;

static void creq_free(creq_t *r)
{
    if (NULL != r->procs) {
        PMIX_PROC_FREE(r->procs, r->nprocs);
    }
    free(r->grp);
    free(r->lblob);
    free(r->rblob);
    free(r);
}

/* The answer of a request of this node's server: the foreign namespaces registered first. */
typedef struct {
    creq_t *req;
    pmix_status_t status;
    char *blob;
    size_t nblob;
    atomic_int pending; /* registrations outstanding, + 1 until all are started */
} ans_t;

static void ans_release(ans_t *a)
{
    if (1 != atomic_fetch_sub(&a->pending, 1)) {
        return;
    }
    a->req->cbfunc(a->status, a->blob, a->nblob, a->req->cbdata, NULL, NULL); /* it copies */
    free(a->blob);
    creq_free(a->req);
    free(a);
}

static void reg_done(pmix_status_t status, void *cbdata)
{
    ans_t *a = cbdata;
    if (PMIX_SUCCESS != status && PMIX_SUCCESS == a->status) {
        a->status = status;
    }
    ans_release(a);
}

/* Answer r with status, the blob (taken) and the foreign namespaces' job data (nf of them, in
 * ns[] and infos[], made for this node by the caller). */
static void answer_local(creq_t *r, pmix_status_t status, char *blob, size_t nblob, size_t nf,
                         char *const *ns, pmix_info_t *const *infos, const size_t *ninfos)
{
    ans_t *a = calloc(1, sizeof *a);
    if (NULL == a) {
        r->cbfunc(PMIX_ERR_NOMEM, NULL, 0, r->cbdata, NULL, NULL);
        free(blob);
        creq_free(r);
        return;
    }
    a->req = r;
    a->status = status;
    a->blob = blob;
    a->nblob = nblob;
    atomic_init(&a->pending, 1);
    for (size_t i = 0; PMIX_SUCCESS == status && i < nf; i++) {
        known_t *k;
        pmix_status_t rc;
        if (is_known(ns[i]) || NULL == (k = calloc(1, sizeof *k))) {
            continue;
        }
        PMIX_LOAD_NSPACE(k->nspace, ns[i]);
        k->next = known;
        known = k;
        atomic_fetch_add(&a->pending, 1);
        rc = PMIx_server_register_nspace(ns[i], 0, infos[i], ninfos[i], reg_done, a);
        if (PMIX_SUCCESS != rc) {
            reg_done(PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc, a);
        }
    }
    ans_release(a);
}

/* ---- the head: one collective ------------------------------------------------------------- */

/* What a node gave: its host's name, its participants' data, and whom to answer. */
typedef struct {
    bool in;
    char *host;
    char *lblob, *rblob;
    size_t nl, nr;
    wu_rte_rpc_t *call; /* a daemon's request */
    creq_t *local;      /* the head's own */
} part_t;

/* What another wrun wrote for the same collective. */
typedef struct theirs {
    struct theirs *next;
    char *name;        /* its file */
    char **ns;         /* the namespaces it speaks for */
    pmix_info_t **job; /* their job data */
    size_t *njob;
    size_t nparts;
    char **host;
    char **lblob, **rblob;
    size_t *nl, *nr;
} theirs_t;

typedef struct cx {
    struct cx *next;
    uint8_t kind;
    char *sig;
    size_t siglen;
    pmix_proc_t *procs;
    size_t nprocs;
    /* Who contributes: the servers holding participants, in slots. The launcher's job's map
     * nodes are slots 0..nmain-1 (the head's server among them); a spawned job with daemons of
     * its own has a slot per node of its map from kbase[k] on (its part on the head node is the
     * head's slot). */
    uint32_t nnodes; /* slots */
    uint32_t nmain;
    bool *need;
    part_t *parts;
    uint32_t nneed, nin;
    char **foreign;  /* namespaces of other wruns among the participants */
    char **kids;     /* namespaces of this wrun's spawned jobs among them */
    uint32_t *kbase; /* per kid: its first slot, UINT32_MAX when it has no daemons */
    bool exchanging;
    char prefix[64]; /* of the rendezvous files of this collective */
    char mine[128];  /* ours */
    theirs_t *theirs;
    wu_timer_t *timer;
    int timeout;
    uint64_t ctxid; /* a group construct's context id, given when it completes */
} cx_t;

static cx_t *cxs;

/* Per participant set: how many collectives of it this wrun has run (the rendezvous files of
 * the n-th are the n-th of every wrun taking part). */
typedef struct seqno {
    struct seqno *next;
    uint64_t hash;
    uint32_t n;
} seqno_t;
static seqno_t *seqnos;

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ c[i]) * 1099511628211ull;
    }
    return h;
}

static uint32_t next_seq(uint64_t hash)
{
    seqno_t *s;
    for (s = seqnos; NULL != s && s->hash != hash; s = s->next) {
    }
    if (NULL == s && NULL != (s = calloc(1, sizeof *s))) {
        s->hash = hash;
        s->next = seqnos;
        seqnos = s;
    }
    return NULL != s ? ++s->n : 0;
}

static void theirs_free(theirs_t *t)
{
    for (size_t i = 0; NULL != t->ns && NULL != t->ns[i]; i++) {
        if (NULL != t->job[i]) {
            PMIX_INFO_FREE(t->job[i], t->njob[i]);
        }
    }
    wu_argv_free(t->ns);
    free(t->job);
    free(t->njob);
    for (size_t i = 0; i < t->nparts; i++) {
        free(t->host[i]);
        free(t->lblob[i]);
        free(t->rblob[i]);
    }
    free(t->host);
    free(t->lblob);
    free(t->rblob);
    free(t->nl);
    free(t->nr);
    free(t->name);
    free(t);
}

static void cx_free(cx_t *c)
{
    (void)wu_progress_timer_cancel(c->timer);
    for (uint32_t i = 0; i < c->nnodes; i++) {
        free(c->parts[i].host);
        free(c->parts[i].lblob);
        free(c->parts[i].rblob);
    }
    while (NULL != c->theirs) {
        theirs_t *t = c->theirs;
        c->theirs = t->next;
        theirs_free(t);
    }
    free(c->parts);
    free(c->need);
    free(c->sig);
    if (NULL != c->procs) {
        PMIX_PROC_FREE(c->procs, c->nprocs);
    }
    wu_argv_free(c->foreign);
    wu_argv_free(c->kids);
    free(c->kbase);
    free(c);
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
    pmix_status_t rc = PMIX_SUCCESS;
    *blob = NULL;
    *nblob = 0;
    if (K_DISCONNECT == c->kind || K_GROUP_END == c->kind) {
        return PMIX_SUCCESS;
    }
    if (K_GROUP == c->kind) {
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
    for (uint32_t m = 0; m < c->nnodes && PMIX_SUCCESS == rc; m++) {
        const part_t *o = &c->parts[m];
        if (m != n && o->in) {
            /* two servers on one host: a job and its child's daemon */
            bool same = NULL != host && NULL != o->host && 0 == strcmp(host, o->host);
            rc = same ? buf_add(blob, nblob, o->lblob, o->nl)
                      : buf_add(blob, nblob, o->rblob, o->nr);
        }
    }
    for (const theirs_t *t = c->theirs; NULL != t && PMIX_SUCCESS == rc; t = t->next) {
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
        rc = for_host(info, ninfo, NULL != c->parts[n].host ? c->parts[n].host : "", &f->info[f->n],
                      &f->ninfo[f->n]);
        f->n++;
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}

static pmix_status_t foreign_for(const cx_t *c, uint32_t n, foreign_t *f)
{
    size_t cap = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    memset(f, 0, sizeof *f);
    if (K_CONNECT != c->kind) {
        return PMIX_SUCCESS; /* only a connect makes the namespaces known */
    }
    for (const theirs_t *t = c->theirs; NULL != t; t = t->next) {
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
    for (const theirs_t *t = c->theirs; NULL != t && PMIX_SUCCESS == rc; t = t->next) {
        for (size_t i = 0; NULL != t->ns[i] && PMIX_SUCCESS == rc; i++) {
            f->ns[f->n] = t->ns[i];
            rc = for_host(t->job[i], t->njob[i], NULL != c->parts[n].host ? c->parts[n].host : "",
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

static void cx_unlink(cx_t *c)
{
    for (cx_t **pc = &cxs; NULL != *pc; pc = &(*pc)->next) {
        if (*pc == c) {
            *pc = c->next;
            return;
        }
    }
}

static void watch_changed(void);

/* Answer every node of c with status, and free it. */
static void cx_finish(cx_t *c, pmix_status_t status)
{
    cx_unlink(c);
    if (K_GROUP == c->kind && PMIX_SUCCESS == status) {
        c->ctxid = c->exchanging ? (UINT64_C(1) << 63) |
                                       fnv(c->prefix, strlen(c->prefix), 1469598103934665603ull)
                                 : ++next_ctxid;
    }
    for (uint32_t n = 0; n < c->nnodes; n++) {
        part_t *p = &c->parts[n];
        char *blob = NULL;
        size_t nblob = 0;
        foreign_t f = {0};
        pmix_status_t st = status;
        if (!p->in) {
            continue;
        }
        if (PMIX_SUCCESS == st) {
            st = blob_for(c, n, &blob, &nblob);
        }
        if (PMIX_SUCCESS == st) {
            st = foreign_for(c, n, &f);
        }
        if (NULL != p->local) {
            answer_local(p->local, st, blob, nblob, f.n, f.ns, f.info, f.ninfo);
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
                rc = PMIX_SUCCESS == rc ? put_infos(&m, f.info[i], f.ninfo[i]) : rc;
            }
            wu_rte_rpc_answer(p->call, PMIX_SUCCESS == rc ? st : rc, &m);
            p->call = NULL;
        }
        free(blob);
        free_foreign(&f);
    }
    /* our file stays for a slower reader: it goes with the next collective of the same set
     * (exchange_start) or with this wrun */
    cx_free(c);
    wu_rte_rdv_watch(false, watch_changed);
    for (cx_t *o = cxs; NULL != o; o = o->next) {
        if (o->exchanging) {
            wu_rte_rdv_watch(true, watch_changed);
            break;
        }
    }
}

/* ---- the exchange with the other wruns ---------------------------------------------------- */

/* Our file: the namespaces we speak for, their job data, every node's contribution. */
static pmix_status_t write_mine(cx_t *c)
{
    rte_job_t *job = wu_rte_job;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    char *ns[2] = {NULL, NULL};
    wu_dmsg_t m;
    pmix_status_t rc;
    if (NULL == job) {
        return PMIX_ERR_INIT;
    }
    ns[0] = job->nspace;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_argv(&m, ns);
    if (PMIX_SUCCESS == rc && K_CONNECT == c->kind) {
        rc = wu_rte_reg_portable_info(job, &info, &ninfo);
    }
    rc = PMIX_SUCCESS == rc ? put_infos(&m, info, ninfo) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, c->nin) : rc;
    for (uint32_t n = 0; n < c->nnodes && PMIX_SUCCESS == rc; n++) {
        const part_t *p = &c->parts[n];
        if (p->in) {
            rc = wu_dmsg_put_str(&m, p->host);
            rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, p->lblob, p->nl) : rc;
            rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, p->rblob, p->nr) : rc;
        }
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_rte_rdv_put(c->mine, m.base_ptr, m.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return rc;
}

/* Read another wrun's file into a theirs_t. */
static theirs_t *read_theirs(const char *name, const char *p, size_t n)
{
    theirs_t *t = calloc(1, sizeof *t);
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    uint32_t np = 0;
    size_t nns;
    wu_dmsg_t m;
    pmix_status_t rc = NULL == t ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = PMIX_SUCCESS == rc ? PMIx_Data_embed(&m, &bo) : rc;
    rc = PMIX_SUCCESS == rc && NULL == (t->name = strdup(name)) ? PMIX_ERR_NOMEM : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_argv(&m, &t->ns) : rc;
    if (PMIX_SUCCESS == rc && (NULL == t->ns || NULL == t->ns[0])) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc) {
        nns = (size_t)wu_argv_count(t->ns);
        t->job = calloc(nns, sizeof *t->job);
        t->njob = calloc(nns, sizeof *t->njob);
        rc = NULL == t->job || NULL == t->njob ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        /* the job data of its first namespace (one namespace per wrun so far) */
        rc = PMIX_SUCCESS == rc ? get_infos(&m, &t->job[0], &t->njob[0]) : rc;
    }
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(&m, &np) : rc;
    if (PMIX_SUCCESS == rc && np > 65536) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc && 0 < np) {
        t->host = calloc(np, sizeof *t->host);
        t->lblob = calloc(np, sizeof *t->lblob);
        t->rblob = calloc(np, sizeof *t->rblob);
        t->nl = calloc(np, sizeof *t->nl);
        t->nr = calloc(np, sizeof *t->nr);
        rc = NULL == t->host || NULL == t->lblob || NULL == t->rblob || NULL == t->nl ||
                     NULL == t->nr
                 ? PMIX_ERR_NOMEM
                 : PMIX_SUCCESS;
    }
    for (uint32_t i = 0; i < np && PMIX_SUCCESS == rc; i++) {
        t->nparts = i + 1;
        rc = wu_dmsg_get_str(&m, &t->host[i]);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(&m, &t->lblob[i], &t->nl[i]) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(&m, &t->rblob[i], &t->nr[i]) : rc;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    if (PMIX_SUCCESS != rc && NULL != t) {
        theirs_free(t);
        return NULL;
    }
    return t;
}

static bool scan_one(const char *name, const char *p, size_t n, void *arg)
{
    cx_t *c = arg;
    theirs_t *t;
    for (t = c->theirs; NULL != t; t = t->next) {
        if (0 == strcmp(t->name, name)) {
            return true; /* read already */
        }
    }
    if (NULL != (t = read_theirs(name, p, n))) {
        t->next = c->theirs;
        c->theirs = t;
    }
    return true;
}

/* Do the files read so far speak for every foreign namespace of c? */
static bool covered(const cx_t *c)
{
    for (size_t i = 0; NULL != c->foreign[i]; i++) {
        bool found = false;
        for (const theirs_t *t = c->theirs; NULL != t && !found; t = t->next) {
            for (size_t k = 0; NULL != t->ns[k] && !found; k++) {
                found = PMIX_CHECK_NSPACE(t->ns[k], c->foreign[i]);
            }
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

static void exchange_try(cx_t *c)
{
    wu_rte_rdv_scan(c->prefix, scan_one, c);
    if (covered(c)) {
        cx_finish(c, PMIX_SUCCESS);
    }
}

static void watch_changed(void)
{
    cx_t *c = cxs;
    while (NULL != c) {
        cx_t *next = c->next; /* c may finish */
        if (c->exchanging) {
            exchange_try(c);
        }
        c = next;
    }
}

static void exchange_start(cx_t *c)
{
    static const char letter[] = {'c', 'd', 'f', 'g', 'e'}; /* by kind */
    uint64_t h = fnv(c->sig, c->siglen, 1469598103934665603ull);
    uint32_t seq;
    h = fnv(&c->kind, sizeof c->kind, h);
    seq = next_seq(h);
    snprintf(c->prefix, sizeof c->prefix, "x%c.%016llx.%u.", letter[c->kind], (unsigned long long)h,
             seq);
    snprintf(c->mine, sizeof c->mine, "%s%016llx", c->prefix,
             (unsigned long long)fnv(wu_rte_job->nspace, strlen(wu_rte_job->nspace),
                                     1469598103934665603ull));
    if (1 < seq) {
        /* the others have finished the collective before (this one needs them all) */
        char old[128];
        snprintf(old, sizeof old, "x%c.%016llx.%u.%016llx", letter[c->kind], (unsigned long long)h,
                 seq - 1,
                 (unsigned long long)fnv(wu_rte_job->nspace, strlen(wu_rte_job->nspace),
                                         1469598103934665603ull));
        wu_rte_rdv_remove(old);
    }
    if (PMIX_SUCCESS != write_mine(c)) {
        cx_finish(c, PMIX_ERR_NOT_SUPPORTED); /* no rendezvous: other wruns cannot be met */
        return;
    }
    c->exchanging = true;
    wu_rte_rdv_watch(true, watch_changed);
    exchange_try(c);
}

static void cx_timeout(void *arg)
{
    cx_t *c = arg;
    static const char *const call[] = {"PMIx_Connect", "PMIx_Disconnect", "PMIx_Fence",
                                       "PMIx_Group_construct", "PMIx_Group_destruct"};
    wu_rte_say("connect-timeout", wu_rte_tool, call[c->kind], c->timeout);
    cx_finish(c, PMIX_ERR_TIMEOUT);
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
            c->need[head] = true; /* its processes here (all of them without daemons) */
        } else {
            c->need[c->kbase[k] + n] = true;
        }
    }
}

/* A collective of procs: which servers must contribute (slots: the nodes of this wrun's job,
 * those of its spawned jobs' daemons), which namespaces are other wruns' and which are jobs
 * this wrun spawned. */
static cx_t *cx_new(uint8_t kind, const pmix_proc_t *procs, size_t nprocs, const char *sig,
                    size_t siglen, int timeout)
{
    rte_job_t *job = wu_rte_job;
    cx_t *c = calloc(1, sizeof *c);
    size_t nkids;
    if (NULL == c || NULL == job || NULL == job->map || UINT32_MAX == job->mynode) {
        free(c);
        return NULL;
    }
    c->kind = kind;
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, job->nspace)) {
            char ns[PMIX_MAX_NSLEN + 1];
            bool kid = NULL != wu_rte_child_find(procs[i].nspace);
            PMIX_LOAD_NSPACE(ns, procs[i].nspace);
            if (WU_SUCCESS != wu_argv_append_unique(kid ? &c->kids : &c->foreign, ns)) {
                cx_free(c);
                return NULL;
            }
        }
    }
    nkids = (size_t)wu_argv_count(c->kids);
    c->nmain = c->nnodes = job->map->nnodes;
    if (nkids > 0 && NULL == (c->kbase = calloc(nkids, sizeof *c->kbase))) {
        cx_free(c);
        return NULL;
    }
    for (size_t k = 0; k < nkids; k++) {
        const rte_job_t *kid = wu_rte_child_find(c->kids[k]);
        c->kbase[k] = UINT32_MAX;
        if (NULL != kid->dvm && c->nnodes <= UINT32_MAX / 2 - kid->map->nnodes) {
            c->kbase[k] = c->nnodes;
            c->nnodes += kid->map->nnodes;
        }
    }
    c->need = calloc(c->nnodes, sizeof *c->need);
    c->parts = calloc(c->nnodes, sizeof *c->parts);
    c->sig = malloc(siglen);
    PMIX_PROC_CREATE(c->procs, nprocs);
    if (NULL == c->need || NULL == c->parts || NULL == c->sig || NULL == c->procs) {
        cx_free(c);
        return NULL;
    }
    memcpy(c->sig, sig, siglen);
    c->siglen = siglen;
    memcpy(c->procs, procs, nprocs * sizeof *procs);
    c->nprocs = nprocs;
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, job->nspace)) {
            for (size_t k = 0; k < nkids; k++) {
                if (PMIX_CHECK_NSPACE(procs[i].nspace, c->kids[k])) {
                    need_kid(c, k, wu_rte_child_find(c->kids[k]), procs[i].rank, job->mynode);
                }
            }
        } else if (PMIX_RANK_WILDCARD == procs[i].rank) {
            for (uint32_t n = 0; n < c->nmain; n++) {
                c->need[n] = true;
            }
        } else if (procs[i].rank < job->np) {
            c->need[job->map->procs[procs[i].rank].node] = true;
        }
    }
    for (uint32_t n = 0; n < c->nnodes; n++) {
        c->nneed += c->need[n];
    }
    if (NULL == c->foreign && NULL == (c->foreign = calloc(1, sizeof *c->foreign))) {
        cx_free(c);
        return NULL;
    }
    c->timeout = timeout;
    if (timeout > 0) {
        c->timer = wu_progress_timer(wu_rte_progress(), timeout, cx_timeout, c);
    }
    c->next = cxs;
    cxs = c;
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
static void contribute(const struct rte_dvm *dvm, uint32_t node, uint8_t kind, const char *grp,
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
    for (c = cxs; PMIX_SUCCESS == rc && NULL != c; c = c->next) {
        if (c->kind == kind && c->siglen == siglen && 0 == memcmp(c->sig, sig, siglen) &&
            !c->exchanging && (slot = slot_of(c, dvm, node)) < c->nnodes && !c->parts[slot].in) {
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
    if (PMIX_SUCCESS == rc && (slot >= c->nnodes || !c->need[slot])) {
        rc = PMIX_ERR_BAD_PARAM; /* no participant runs there */
    }
    if (PMIX_SUCCESS != rc) {
        free(host);
        free(lblob);
        free(rblob);
        if (NULL != call) {
            wu_rte_rpc_answer(call, rc, NULL);
        } else if (NULL != local) {
            answer_local(local, rc, NULL, 0, 0, NULL, NULL, NULL);
        }
        if (NULL != c && 0 == c->nin) {
            cx_unlink(c);
            cx_free(c);
        }
        return;
    }
    c->parts[slot] = (part_t){.in = true,
                              .host = host,
                              .lblob = lblob,
                              .nl = nl,
                              .rblob = rblob,
                              .nr = nr,
                              .call = call,
                              .local = local};
    if (++c->nin < c->nneed) {
        return;
    }
    if (NULL == c->foreign[0]) {
        cx_finish(c, PMIX_SUCCESS); /* every participant is of this wrun */
    } else {
        exchange_start(c);
    }
}

/* ---- requests of a node's server ------------------------------------------------------------ */

static char *dup_bytes(const char *p, size_t n)
{
    char *q = n > 0 ? malloc(n) : NULL;
    if (NULL != q) {
        memcpy(q, p, n);
    }
    return q;
}

/* wired: the head's answer to r: register the foreign namespaces, then answer the server. */
static void rpc_done(pmix_status_t st, wu_dmsg_t *payload, void *arg)
{
    creq_t *r = arg;
    char *blob = NULL, **ns = NULL;
    size_t nblob = 0, nf = 0;
    pmix_info_t **infos = NULL;
    size_t *ninfos = NULL;
    uint32_t k = 0;
    if (PMIX_SUCCESS == st && NULL != payload) {
        st = wu_dmsg_get_bytes(payload, &blob, &nblob);
        st = PMIX_SUCCESS == st ? wu_dmsg_get_u32(payload, &k) : st;
        if (PMIX_SUCCESS == st && k > 1024) {
            st = PMIX_ERR_BAD_PARAM;
        }
        if (PMIX_SUCCESS == st && 0 < k) {
            ns = calloc(k, sizeof *ns);
            infos = calloc(k, sizeof *infos);
            ninfos = calloc(k, sizeof *ninfos);
            st = NULL == ns || NULL == infos || NULL == ninfos ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        }
        for (uint32_t i = 0; i < k && PMIX_SUCCESS == st; i++) {
            nf = i + 1;
            st = wu_dmsg_get_str(payload, &ns[i]);
            st = PMIX_SUCCESS == st ? get_infos(payload, &infos[i], &ninfos[i]) : st;
        }
    }
    answer_local(r, st, PMIX_SUCCESS == st ? blob : NULL, PMIX_SUCCESS == st ? nblob : 0,
                 PMIX_SUCCESS == st ? nf : 0, ns, infos, ninfos);
    if (PMIX_SUCCESS != st) {
        free(blob);
    }
    for (size_t i = 0; i < nf; i++) {
        free(ns[i]);
        if (NULL != infos[i]) {
            PMIX_INFO_FREE(infos[i], ninfos[i]);
        }
    }
    free(ns);
    free(infos);
    free(ninfos);
}

static void creq_in_rte(void *arg)
{
    creq_t *r = arg;
    rte_job_t *job = wu_rte_job;
    char *host = strdup(wu_rte_hostname);
    if (wu_rte_daemon_mode) {
        wu_dmsg_t m;
        pmix_status_t rc;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = PMIx_Data_pack(NULL, &m, &r->kind, 1, PMIX_UINT8);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, (uint32_t)r->nprocs) : rc;
        rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &m, r->procs, (int32_t)r->nprocs, PMIX_PROC)
                                : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, r->timeout) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_str(&m, host) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, r->lblob, r->nl) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, r->rblob, r->nr) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_str(&m, r->grp) : rc;
        free(host);
        if (PMIX_SUCCESS != rc) {
            PMIX_DATA_BUFFER_DESTRUCT(&m);
            answer_local(r, rc, NULL, 0, 0, NULL, NULL, NULL);
            return;
        }
        wu_rte_rpc_call(WU_RTE_RPC_CONNECT, &m, rpc_done, r);
        return;
    }
    if (NULL == job || UINT32_MAX == job->mynode) {
        free(host);
        answer_local(r, PMIX_ERR_INIT, NULL, 0, 0, NULL, NULL, NULL);
        return;
    }
    {
        char *lblob = r->lblob, *rblob = r->rblob;
        r->lblob = r->rblob = NULL; /* taken by contribute, which may answer (free r) at once */
        contribute(NULL, job->mynode, r->kind, r->grp, r->procs, r->nprocs, r->timeout, host, lblob,
                   r->nl, rblob, r->nr, NULL, r);
    }
}

static void connect_serve(wu_rte_rpc_t *call, uint32_t op, wu_dmsg_t *args)
{
    (void)op;
    uint8_t kind = 0;
    uint32_t n = 0;
    int32_t timeout = 0, cnt, one = 1;
    pmix_proc_t *procs = NULL;
    char *host = NULL, *lblob = NULL, *rblob = NULL, *grp = NULL;
    size_t nl = 0, nr = 0;
    pmix_status_t rc = PMIx_Data_unpack(NULL, args, &kind, &one, PMIX_UINT8);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(args, &n) : rc;
    if (PMIX_SUCCESS == rc && (0 == n || n > MAX_PROCS || kind > K_GROUP_END)) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_PROC_CREATE(procs, n);
        cnt = (int32_t)n;
        rc = NULL == procs ? PMIX_ERR_NOMEM : PMIx_Data_unpack(NULL, args, procs, &cnt, PMIX_PROC);
    }
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_i32(args, &timeout) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_str(args, &host) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(args, &lblob, &nl) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(args, &rblob, &nr) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_str(args, &grp) : rc;
    if (PMIX_SUCCESS == rc && (NULL == grp || strlen(grp) > PMIX_MAX_NSLEN)) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != rc) {
        free(grp);
        free(host);
        free(lblob);
        free(rblob);
        if (NULL != procs) {
            PMIX_PROC_FREE(procs, n);
        }
        wu_rte_rpc_answer(call, rc, NULL);
        return;
    }
    contribute(wu_rte_rpc_dvm(call), wu_rte_rpc_origin(call), kind, grp, procs, n, timeout, host,
               lblob, nl, rblob, nr, call, NULL);
    free(grp);
    PMIX_PROC_FREE(procs, n);
}

/* A copy of a request goes to the rte thread (server thread). */
static pmix_status_t start(uint8_t kind, const char *grp, const pmix_proc_t procs[], size_t nprocs,
                           int timeout, const char *lblob, size_t nl, const char *rblob, size_t nr,
                           pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    creq_t *r = calloc(1, sizeof *r);
    if (NULL == r || 0 == nprocs) {
        free(r);
        return NULL == r ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM;
    }
    r->kind = kind;
    r->timeout = timeout;
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    PMIX_PROC_CREATE(r->procs, nprocs);
    r->grp = strdup(NULL != grp ? grp : "");
    r->lblob = dup_bytes(lblob, nl);
    r->rblob = dup_bytes(rblob, nr);
    if (NULL == r->procs || NULL == r->grp || (nl > 0 && NULL == r->lblob) ||
        (nr > 0 && NULL == r->rblob)) {
        creq_free(r);
        return PMIX_ERR_NOMEM;
    }
    memcpy(r->procs, procs, nprocs * sizeof *procs);
    r->nprocs = nprocs;
    r->nl = nl;
    r->nr = nr;
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), creq_in_rte, r)) {
        creq_free(r);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

/* The directives' PMIX_TIMEOUT in seconds, 0 when none. */
static int timeout_of(const pmix_info_t info[], size_t ninfo)
{
    int timeout = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_TIMEOUT) && PMIX_INT == info[i].value.type &&
            info[i].value.data.integer > 0) {
            timeout = info[i].value.data.integer;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_TIMEOUT) && PMIX_UINT32 == info[i].value.type &&
                   info[i].value.data.uint32 > 0 && info[i].value.data.uint32 < 1000000000u) {
            timeout = (int)info[i].value.data.uint32; /* Open MPI passes a UINT32 */
        }
    }
    return timeout;
}

/* The hook (server thread). */
static pmix_status_t h_connect(bool disc, const pmix_proc_t procs[], size_t nprocs,
                               const pmix_info_t info[], size_t ninfo, const char *lblob, size_t nl,
                               const char *rblob, size_t nr, pmix_modex_cbfunc_t cbfunc,
                               void *cbdata)
{
    return start(disc ? K_DISCONNECT : K_CONNECT, NULL, procs, nprocs, timeout_of(info, ninfo),
                 lblob, nl, rblob, nr, cbfunc, cbdata);
}

bool wu_rte_connect_foreign(const pmix_proc_t procs[], size_t nprocs)
{
    /* the head runs the daemons of its children's jobs too: a fence of one job is theirs */
    const char *mine = wu_rte_daemon_mode ? wu_rte_daemon_nspace()
                       : 0 < nprocs       ? procs[0].nspace
                                          : NULL;
    for (size_t i = 0; NULL != mine && i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, mine)) {
            return true;
        }
    }
    return false;
}

pmix_status_t wu_rte_connect_fence(const pmix_proc_t procs[], size_t nprocs, const char *data,
                                   size_t ndata, int timeout, pmix_modex_cbfunc_t cbfunc,
                                   void *cbdata)
{
    return start(K_FENCE, NULL, procs, nprocs, timeout, NULL, 0, data, ndata, cbfunc, cbdata);
}

/* ---- groups --------------------------------------------------------------------------------- */

typedef struct {
    pmix_info_cbfunc_t fn;
    void *cbdata;
} group_cb_t;

/* The collective's answer: a construct's context id (8 bytes, little-endian) as the result. */
static void group_answer(pmix_status_t st, const char *data, size_t ndata, void *cbdata,
                         pmix_release_cbfunc_t relfn, void *relcbdata)
{
    group_cb_t *g = cbdata;
    if (PMIX_SUCCESS == st && 8 == ndata) {
        pmix_info_t res;
        size_t ctx = 0;
        for (int i = 0; i < 8; i++) {
            ctx |= (size_t)(unsigned char)data[i] << (8 * i);
        }
        PMIX_INFO_LOAD(&res, PMIX_GROUP_CONTEXT_ID, &ctx, PMIX_SIZE);
        g->fn(st, &res, 1, g->cbdata, NULL, NULL);
        PMIX_INFO_DESTRUCT(&res);
    } else {
        g->fn(st, NULL, 0, g->cbdata, NULL, NULL);
    }
    if (NULL != relfn) {
        relfn(relcbdata);
    }
    free(g);
}

/* The servers' group upcall (server thread). */
static pmix_status_t h_group(pmix_group_operation_t op, char grp[], const pmix_proc_t procs[],
                             size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                             pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    group_cb_t *g;
    pmix_status_t rc;
    if (NULL == grp || '\0' == grp[0] || NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (g = calloc(1, sizeof *g))) {
        return PMIX_ERR_NOMEM;
    }
    g->fn = cbfunc;
    g->cbdata = cbdata;
    rc = start(PMIX_GROUP_CONSTRUCT == op ? K_GROUP : K_GROUP_END, grp, procs, nprocs,
               timeout_of(directives, ndirs), NULL, 0, NULL, 0, group_answer, g);
    if (PMIX_SUCCESS != rc) {
        free(g);
    }
    return rc;
}

void wu_rte_connect_init(pmix_server_module_t *module)
{
    wu_server_set_connect_hook(h_connect);
    module->group = h_group;
}

/* ---- ends ----------------------------------------------------------------------------------- */

void wu_rte_connect_proc_ended(const pmix_proc_t *proc)
{
    cx_t *c = cxs;
    while (NULL != c) {
        cx_t *next = c->next;
        if (is_part(c, proc)) {
            cx_finish(c, PMIX_ERR_PROC_TERM_WO_SYNC);
        }
        c = next;
    }
}

static void observe_job_ended(rte_job_t *job)
{
    if (!job->child) { /* the launcher's job: what it learnt of other wruns' jobs goes too */
        wu_rte_connect_job_ended(job->nspace);
    }
}

int wu_rte_connect_attach(void)
{
    static const rte_job_observer_t observer = {.proc_ended = wu_rte_connect_proc_ended,
                                                .job_ended = observe_job_ended};
    int rc = wu_rte_job_observe(&observer);
    return WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_CONNECT, connect_serve) : rc;
}

static void dereg_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

void wu_rte_connect_job_ended(const char *nspace)
{
    (void)nspace;
    while (NULL != cxs) {
        cx_finish(cxs, PMIX_ERR_PROC_TERM_WO_SYNC);
    }
    while (NULL != known) {
        known_t *k = known;
        known = k->next;
        PMIx_server_deregister_nspace(k->nspace, dereg_done, NULL);
        free(k);
    }
    while (NULL != seqnos) {
        seqno_t *s = seqnos;
        seqnos = s->next;
        free(s);
    }
}
