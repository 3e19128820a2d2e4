/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_connect.c -- PMIx_Connect and PMIx_Disconnect for wrun's jobs (wu_rte_connect.h): the
 * hook of the servers and their group upcall, a request's way to the head (the head's own, or a
 * daemon's through an RPC) and its answer, and the ends that fail collectives. The collective
 * itself is wu_rte_connect_coll.c, the exchange with other wruns wu_rte_connect_xchg.c.
 * Everything but the hook and the upcall runs on the rte thread. */
#include "opal/class/wu_hash_table.h"
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_connect_int.h"
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

pmix_status_t wu_rte_cx_put_infos(wu_dmsg_t *m, const pmix_info_t *info, size_t n)
{
    pmix_status_t rc = wu_dmsg_put_u32(m, (uint32_t)n);
    if (PMIX_SUCCESS == rc && 0 < n) {
        rc = PMIx_Data_pack(NULL, m, (void *)info, (int32_t)n, PMIX_INFO);
    }
    return rc;
}

pmix_status_t wu_rte_cx_get_infos(wu_dmsg_t *m, pmix_info_t **info, size_t *n)
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

/* The namespaces registered with this node's server (keys; no values), made with the first. */
static wu_hash_table_t *known;

static bool is_known(const char *ns)
{
    return NULL != known && WU_SUCCESS == wu_hash_table_get_str(known, ns, NULL);
}

/* A foreign namespace's job data made for this node (host): its processes on this host are
 * its local peers here. */
pmix_status_t wu_rte_cx_for_host(const pmix_info_t *in, size_t n, const char *host,
                                 pmix_info_t **out, size_t *nout)
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

void wu_rte_cx_creq_free(creq_t *r)
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
    wu_rte_cx_creq_free(a->req);
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
void wu_rte_cx_answer_local(creq_t *r, pmix_status_t status, char *blob, size_t nblob, size_t nf,
                            char *const *ns, pmix_info_t *const *infos, const size_t *ninfos)
{
    ans_t *a = calloc(1, sizeof *a);
    if (NULL == a) {
        r->cbfunc(PMIX_ERR_NOMEM, NULL, 0, r->cbdata, NULL, NULL);
        free(blob);
        wu_rte_cx_creq_free(r);
        return;
    }
    a->req = r;
    a->status = status;
    a->blob = blob;
    a->nblob = nblob;
    atomic_init(&a->pending, 1);
    for (size_t i = 0; PMIX_SUCCESS == status && i < nf; i++) {
        char nspace[PMIX_MAX_NSLEN + 1];
        pmix_status_t rc;
        PMIX_LOAD_NSPACE(nspace, ns[i]);
        if (is_known(nspace) || (NULL == known && NULL == (known = WU_NEW(wu_hash_table_t))) ||
            WU_SUCCESS != wu_hash_table_set_str(known, nspace, NULL)) {
            continue;
        }
        atomic_fetch_add(&a->pending, 1);
        rc = PMIx_server_register_nspace(ns[i], 0, infos[i], ninfos[i], reg_done, a);
        if (PMIX_SUCCESS != rc) {
            reg_done(PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc, a);
        }
    }
    ans_release(a);
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
            st = PMIX_SUCCESS == st ? wu_rte_cx_get_infos(payload, &infos[i], &ninfos[i]) : st;
        }
    }
    wu_rte_cx_answer_local(r, st, PMIX_SUCCESS == st ? blob : NULL, PMIX_SUCCESS == st ? nblob : 0,
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
            wu_rte_cx_answer_local(r, rc, NULL, 0, 0, NULL, NULL, NULL);
            return;
        }
        wu_rte_rpc_call(WU_RTE_RPC_CONNECT, &m, rpc_done, r);
        return;
    }
    if (NULL == job || UINT32_MAX == job->mynode) {
        free(host);
        wu_rte_cx_answer_local(r, PMIX_ERR_INIT, NULL, 0, 0, NULL, NULL, NULL);
        return;
    }
    {
        char *lblob = r->lblob, *rblob = r->rblob;
        r->lblob = r->rblob = NULL; /* taken by contribute, which may answer (free r) at once */
        wu_rte_cx_contribute(NULL, job->mynode, r->kind, r->grp, r->procs, r->nprocs, r->timeout,
                             host, lblob, r->nl, rblob, r->nr, NULL, r);
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
    wu_rte_cx_contribute(wu_rte_rpc_dvm(call), wu_rte_rpc_origin(call), kind, grp, procs, n,
                         timeout, host, lblob, nl, rblob, nr, call, NULL);
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
        wu_rte_cx_creq_free(r);
        return PMIX_ERR_NOMEM;
    }
    memcpy(r->procs, procs, nprocs * sizeof *procs);
    r->nprocs = nprocs;
    r->nl = nl;
    r->nr = nr;
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), creq_in_rte, r)) {
        wu_rte_cx_creq_free(r);
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
    wu_rte_cx_proc_ended(proc);
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
    wu_rte_cx_fail_all(PMIX_ERR_PROC_TERM_WO_SYNC);
    void *it = NULL;
    const char *ns;
    while (NULL != known && WU_SUCCESS == wu_hash_table_next_str(known, &it, &ns, NULL)) {
        PMIx_server_deregister_nspace(ns, dereg_done, NULL);
    }
    if (NULL != known) {
        WU_RELEASE(known);
    }
    wu_rte_cx_exchange_forget();
}
