/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dmsg.c -- packing and unpacking the fields of the head/daemon messages
 * (wu_rte_dmsg.h), and the job description a LAUNCH carries. */
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "opal/util/wu_argv.h"
#include "pmix.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* Longest argv or environment a LAUNCH may carry, and most contexts or nodes: far above real
 * use, low enough that a corrupt count cannot make us allocate much. */
#define MAX_LIST  (1u << 20)
#define MAX_NODES (1u << 20)

pmix_status_t wu_dmsg_put_u32(wu_dmsg_t *m, uint32_t v)
{
    return PMIx_Data_pack(NULL, m, &v, 1, PMIX_UINT32);
}

pmix_status_t wu_dmsg_put_i32(wu_dmsg_t *m, int32_t v)
{
    return PMIx_Data_pack(NULL, m, &v, 1, PMIX_INT32);
}

pmix_status_t wu_dmsg_put_u64(wu_dmsg_t *m, uint64_t v)
{
    return PMIx_Data_pack(NULL, m, &v, 1, PMIX_UINT64);
}

pmix_status_t wu_dmsg_put_str(wu_dmsg_t *m, const char *s)
{
    return PMIx_Data_pack(NULL, m, (void *)&s, 1, PMIX_STRING);
}

pmix_status_t wu_dmsg_put_bytes(wu_dmsg_t *m, const void *p, size_t n)
{
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    return PMIx_Data_pack(NULL, m, &bo, 1, PMIX_BYTE_OBJECT);
}

pmix_status_t wu_dmsg_put_argv(wu_dmsg_t *m, char *const *argv)
{
    uint32_t n = (uint32_t)wu_argv_count(argv);
    pmix_status_t rc = wu_dmsg_put_u32(m, n);
    if (PMIX_SUCCESS == rc && n > 0) {
        rc = PMIx_Data_pack(NULL, m, (void *)argv, (int32_t)n, PMIX_STRING);
    }
    return rc;
}

pmix_status_t wu_dmsg_put_proc(wu_dmsg_t *m, const pmix_proc_t *p)
{
    return PMIx_Data_pack(NULL, m, (void *)p, 1, PMIX_PROC);
}

pmix_status_t wu_dmsg_fence_sig(const pmix_proc_t procs[], size_t nprocs, char **sig,
                                size_t *siglen)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, (uint32_t)nprocs);
    for (size_t i = 0; i < nprocs && PMIX_SUCCESS == rc; i++) {
        rc = wu_dmsg_put_proc(&m, &procs[i]);
    }
    if (PMIX_SUCCESS != rc) {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
        return rc;
    }
    *sig = m.base_ptr; /* the buffer's storage is the caller's now */
    *siglen = m.bytes_used;
    return PMIX_SUCCESS;
}

pmix_status_t wu_dmsg_put_dmodex_rep(wu_dmsg_t *m, uint32_t origin, uint64_t id, int32_t st,
                                     const char *data, size_t ndata)
{
    pmix_status_t rc = wu_dmsg_put_u32(m, origin);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(m, id) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(m, st) : rc;
    return PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(m, data, ndata) : rc;
}

pmix_status_t wu_dmsg_get_dmodex_rep(wu_dmsg_t *m, uint32_t *origin, uint64_t *id, int32_t *st,
                                     char **data, size_t *ndata)
{
    pmix_status_t rc = wu_dmsg_get_u32(m, origin);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u64(m, id) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_i32(m, st) : rc;
    return PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(m, data, ndata) : rc;
}

void wu_dmsg_fence_free(wu_dmsg_fence_t *f)
{
    if (NULL != f) {
        free(f->sig);
        free(f->data);
        free(f);
    }
}

pmix_status_t wu_dmsg_fence_shift(void (*fn)(void *), const pmix_proc_t procs[], size_t nprocs,
                                  const char *data, size_t ndata, int timeout,
                                  pmix_modex_cbfunc_t cb, void *cbdata)
{
    wu_dmsg_fence_t *f = calloc(1, sizeof *f);
    if (NULL == f || PMIX_SUCCESS != wu_dmsg_fence_sig(procs, nprocs, &f->sig, &f->siglen) ||
        (ndata > 0 && NULL == (f->data = malloc(ndata)))) {
        wu_dmsg_fence_free(f);
        return PMIX_ERR_NOMEM;
    }
    if (ndata > 0) {
        memcpy(f->data, data, ndata);
    }
    f->ndata = ndata;
    f->timeout = timeout;
    PMIX_LOAD_NSPACE(f->nspace, 0 < nprocs ? procs[0].nspace : "");
    f->cb = cb;
    f->cbdata = cbdata;
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), fn, f)) {
        wu_dmsg_fence_free(f);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

static void release_copy(void *arg)
{
    free(arg);
}

void wu_dmsg_modex_answer(pmix_modex_cbfunc_t cb, void *cbdata, pmix_status_t st, const char *data,
                          size_t n)
{
    char *copy = n > 0 ? malloc(n) : NULL;
    if (n > 0 && NULL == copy) {
        cb(PMIX_ERR_NOMEM, NULL, 0, cbdata, NULL, NULL);
        return;
    }
    if (n > 0) {
        memcpy(copy, data, n);
    }
    cb(st, copy, n, cbdata, release_copy, copy);
}

/* Unpack exactly one value of type t into dst. */
static pmix_status_t get_one(wu_dmsg_t *m, void *dst, pmix_data_type_t t)
{
    int32_t n = 1;
    pmix_status_t rc = PMIx_Data_unpack(NULL, m, dst, &n, t);
    return PMIX_SUCCESS == rc && 1 != n ? PMIX_ERR_UNPACK_FAILURE : rc;
}

pmix_status_t wu_dmsg_get_u32(wu_dmsg_t *m, uint32_t *v)
{
    return get_one(m, v, PMIX_UINT32);
}

pmix_status_t wu_dmsg_get_i32(wu_dmsg_t *m, int32_t *v)
{
    return get_one(m, v, PMIX_INT32);
}

pmix_status_t wu_dmsg_get_u64(wu_dmsg_t *m, uint64_t *v)
{
    return get_one(m, v, PMIX_UINT64);
}

pmix_status_t wu_dmsg_get_str(wu_dmsg_t *m, char **s)
{
    *s = NULL;
    return get_one(m, s, PMIX_STRING);
}

pmix_status_t wu_dmsg_get_bytes(wu_dmsg_t *m, char **p, size_t *n)
{
    pmix_byte_object_t bo = {.bytes = NULL, .size = 0};
    pmix_status_t rc = get_one(m, &bo, PMIX_BYTE_OBJECT);
    *p = PMIX_SUCCESS == rc ? bo.bytes : NULL;
    *n = PMIX_SUCCESS == rc ? bo.size : 0;
    return rc;
}

pmix_status_t wu_dmsg_get_argv(wu_dmsg_t *m, char ***argv)
{
    uint32_t n = 0;
    pmix_status_t rc = wu_dmsg_get_u32(m, &n);
    char **v;
    int32_t got = (int32_t)n;

    *argv = NULL;
    if (PMIX_SUCCESS != rc || 0 == n) {
        return rc;
    }
    if (n > MAX_LIST || NULL == (v = calloc((size_t)n + 1, sizeof *v))) {
        return n > MAX_LIST ? PMIX_ERR_UNPACK_FAILURE : PMIX_ERR_NOMEM;
    }
    rc = PMIx_Data_unpack(NULL, m, v, &got, PMIX_STRING);
    if (PMIX_SUCCESS != rc || (uint32_t)got != n) {
        wu_argv_free(v);
        return PMIX_SUCCESS == rc ? PMIX_ERR_UNPACK_FAILURE : rc;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (NULL == v[i]) { /* an argv has no holes */
            wu_argv_free(v);
            return PMIX_ERR_UNPACK_FAILURE;
        }
    }
    *argv = v;
    return PMIX_SUCCESS;
}

pmix_status_t wu_dmsg_get_proc(wu_dmsg_t *m, pmix_proc_t *p)
{
    return get_one(m, p, PMIX_PROC);
}

void wu_dmsg_keepalive(int fd)
{
    int on = 1, idle = 2, intvl = 1, cnt = 3;
    unsigned int user_timeout_ms = 5000;
    if (fd < 0) {
        return;
    }
    (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
}

/* --- EVENT ---------------------------------------------------------------------------------- */

/* Most infos an event may carry (far above real use). */
#define MAX_EVENT_INFOS 1024u

pmix_status_t wu_dmsg_put_event(wu_dmsg_t *m, pmix_status_t status, const pmix_proc_t *source,
                                pmix_data_range_t range, const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t rc = wu_dmsg_put_i32(m, status);
    uint32_t r = range;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_proc(m, source) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, r) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, (uint32_t)ninfo) : rc;
    if (PMIX_SUCCESS == rc && ninfo > 0) {
        rc = PMIx_Data_pack(NULL, m, (void *)info, (int32_t)ninfo, PMIX_INFO);
    }
    return rc;
}

pmix_status_t wu_dmsg_get_event(wu_dmsg_t *m, pmix_status_t *status, pmix_proc_t *source,
                                pmix_data_range_t *range, pmix_info_t **info, size_t *ninfo)
{
    uint32_t r = 0, n = 0;
    int32_t got;
    pmix_status_t rc = wu_dmsg_get_i32(m, status);
    *info = NULL;
    *ninfo = 0;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_proc(m, source) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(m, &r) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(m, &n) : rc;
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (r > UINT8_MAX || n > MAX_EVENT_INFOS) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *range = (pmix_data_range_t)r;
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(*info, n);
    if (NULL == *info) {
        return PMIX_ERR_NOMEM;
    }
    got = (int32_t)n;
    rc = PMIx_Data_unpack(NULL, m, *info, &got, PMIX_INFO);
    if (PMIX_SUCCESS != rc || (uint32_t)got != n) {
        PMIX_INFO_FREE(*info, n);
        *info = NULL;
        return PMIX_SUCCESS == rc ? PMIX_ERR_UNPACK_FAILURE : rc;
    }
    *ninfo = n;
    return PMIX_SUCCESS;
}

/* --- LAUNCH ---------------------------------------------------------------------------------- */

#define TRY(x)                            \
    do {                                  \
        if (PMIX_SUCCESS != (rc = (x))) { \
            return rc;                    \
        }                                 \
    } while (0)

pmix_status_t wu_dmsg_put_job(wu_dmsg_t *m, const char *nspace, const wu_rte_spec_t *app,
                              const char *cwd, const wu_rte_jobmap_t *map, uint32_t node,
                              const pmix_proc_t *parent)
{
    pmix_proc_t none;
    pmix_status_t rc;
    TRY(wu_dmsg_put_str(m, nspace));
    TRY(wu_dmsg_put_u32(m, node));
    TRY(wu_dmsg_put_u32(m, app->nctx));
    for (uint32_t c = 0; c < app->nctx; c++) {
        const wu_rte_ctx_t *ctx = &app->ctx[c];
        TRY(wu_dmsg_put_u32(m, ctx->np));
        TRY(wu_dmsg_put_argv(m, ctx->argv));
        /* a context without a directory runs where wrun runs, as with mpirun */
        TRY(wu_dmsg_put_str(m, NULL != ctx->cwd ? ctx->cwd : cwd));
        TRY(wu_dmsg_put_argv(m, ctx->env_set));
    }
    TRY(wu_dmsg_put_argv(m, app->env_set));
    TRY(wu_dmsg_put_u32(m, (app->merge_stderr ? 1u : 0u) | (app->oversubscribe ? 2u : 0u) |
                               (app->keep_lib_path ? 4u : 0u) | (app->report_bindings ? 8u : 0u)));
    TRY(wu_dmsg_put_i32(m, app->stdin_target));
    TRY(wu_dmsg_put_str(m, app->map_by));
    TRY(wu_dmsg_put_str(m, app->bind_to));
    TRY(wu_dmsg_put_u32(m, map->np));
    TRY(wu_dmsg_put_u32(m, map->nnodes));
    for (uint32_t n = 0; n < map->nnodes; n++) {
        const wu_rte_jm_node_t *nd = &map->nodes[n];
        TRY(wu_dmsg_put_str(m, nd->name));
        TRY(wu_dmsg_put_u32(m, nd->slots));
        TRY(wu_dmsg_put_u32(m, nd->nlocal));
        if (nd->nlocal > 0) {
            TRY(PMIx_Data_pack(NULL, m, nd->ranks, (int32_t)nd->nlocal, PMIX_UINT32));
        }
    }
    TRY(wu_dmsg_put_str(m, map->mapby));
    TRY(wu_dmsg_put_str(m, map->rankby));
    TRY(wu_dmsg_put_str(m, map->bindto));
    PMIX_LOAD_PROCID(&none, "", PMIX_RANK_UNDEF);
    TRY(wu_dmsg_put_proc(m, NULL != parent ? parent : &none));
    return PMIX_SUCCESS;
}

void wu_dmsg_free_app(wu_rte_spec_t *app)
{
    if (NULL == app) {
        return;
    }
    for (uint32_t c = 0; NULL != app->ctx && c < app->nctx; c++) {
        wu_argv_free(app->ctx[c].argv);
        free((char *)app->ctx[c].cwd);
        wu_argv_free(app->ctx[c].env_set);
    }
    free(app->ctx);
    wu_argv_free(app->env_set);
    free((char *)app->map_by);
    free((char *)app->bind_to);
    free(app);
}

/* The map's nodes and ranks: every rank on exactly one node, local and node ranks by order. */
static pmix_status_t get_map(wu_dmsg_t *m, wu_rte_jobmap_t *map)
{
    pmix_status_t rc;
    uint32_t placed = 0;
    TRY(wu_dmsg_get_u32(m, &map->np));
    TRY(wu_dmsg_get_u32(m, &map->nnodes));
    if (0 == map->np || map->np > UINT16_MAX || 0 == map->nnodes || map->nnodes > MAX_NODES) {
        map->nnodes = 0;
        return PMIX_ERR_UNPACK_FAILURE;
    }
    map->nodes = calloc(map->nnodes, sizeof *map->nodes);
    map->procs = calloc(map->np, sizeof *map->procs);
    if (NULL == map->nodes || NULL == map->procs) {
        map->nnodes = 0;
        return PMIX_ERR_NOMEM;
    }
    for (uint32_t p = 0; p < map->np; p++) {
        map->procs[p].node = UINT32_MAX;
    }
    for (uint32_t n = 0; n < map->nnodes; n++) {
        wu_rte_jm_node_t *nd = &map->nodes[n];
        int32_t got;
        nd->id = n;
        TRY(wu_dmsg_get_str(m, &nd->name));
        TRY(wu_dmsg_get_u32(m, &nd->slots));
        TRY(wu_dmsg_get_u32(m, &nd->nlocal));
        if (NULL == nd->name || 0 == nd->nlocal || nd->nlocal > map->np - placed) {
            nd->nlocal = 0;
            return PMIX_ERR_UNPACK_FAILURE;
        }
        if (NULL == (nd->ranks = calloc(nd->nlocal, sizeof *nd->ranks))) {
            return PMIX_ERR_NOMEM;
        }
        got = (int32_t)nd->nlocal;
        TRY(PMIx_Data_unpack(NULL, m, nd->ranks, &got, PMIX_UINT32));
        if ((uint32_t)got != nd->nlocal) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        for (uint32_t i = 0; i < nd->nlocal; i++) {
            uint32_t r = nd->ranks[i];
            if (r >= map->np || UINT32_MAX != map->procs[r].node) {
                return PMIX_ERR_UNPACK_FAILURE; /* out of range, or on two nodes */
            }
            map->procs[r] = (wu_rte_jm_proc_t){.node = n, .local_rank = i, .node_rank = i};
            if (nd->nlocal > nd->slots) {
                map->oversubscribed = true;
            }
        }
        placed += nd->nlocal;
    }
    if (placed != map->np) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    TRY(wu_dmsg_get_str(m, &map->mapby));
    TRY(wu_dmsg_get_str(m, &map->rankby));
    TRY(wu_dmsg_get_str(m, &map->bindto));
    return PMIX_SUCCESS;
}

static pmix_status_t get_app(wu_dmsg_t *m, wu_rte_spec_t *app)
{
    pmix_status_t rc;
    uint32_t flags = 0, total = 0;
    char *s;
    TRY(wu_dmsg_get_u32(m, &app->nctx));
    if (0 == app->nctx || app->nctx > MAX_LIST) {
        app->nctx = 0;
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (NULL == (app->ctx = calloc(app->nctx, sizeof *app->ctx))) {
        app->nctx = 0;
        return PMIX_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < app->nctx; c++) {
        wu_rte_ctx_t *ctx = &app->ctx[c];
        TRY(wu_dmsg_get_u32(m, &ctx->np));
        TRY(wu_dmsg_get_argv(m, &ctx->argv));
        TRY(wu_dmsg_get_str(m, &s));
        ctx->cwd = s;
        TRY(wu_dmsg_get_argv(m, &ctx->env_set));
        if (0 == ctx->np || NULL == ctx->argv || ctx->np > UINT16_MAX - total) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        total += ctx->np;
    }
    TRY(wu_dmsg_get_argv(m, &app->env_set));
    TRY(wu_dmsg_get_u32(m, &flags));
    app->merge_stderr = 0 != (flags & 1u);
    app->oversubscribe = 0 != (flags & 2u);
    app->keep_lib_path = 0 != (flags & 4u);
    app->report_bindings = 0 != (flags & 8u);
    TRY(wu_dmsg_get_i32(m, &app->stdin_target));
    TRY(wu_dmsg_get_str(m, &s));
    app->map_by = s;
    TRY(wu_dmsg_get_str(m, &s));
    app->bind_to = s;
    return PMIX_SUCCESS;
}

pmix_status_t wu_dmsg_get_job(wu_dmsg_t *m, char **nspace, wu_rte_spec_t **app,
                              wu_rte_jobmap_t **map, uint32_t *node, pmix_proc_t *parent)
{
    wu_rte_spec_t *a = calloc(1, sizeof *a);
    wu_rte_jobmap_t *jm = calloc(1, sizeof *jm);
    uint32_t total = 0;
    pmix_status_t rc = NULL == a || NULL == jm ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    *nspace = NULL;
    if (PMIX_SUCCESS == rc) {
        rc = wu_dmsg_get_str(m, nspace);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_dmsg_get_u32(m, node);
    }
    if (PMIX_SUCCESS == rc) {
        rc = get_app(m, a);
    }
    if (PMIX_SUCCESS == rc) {
        rc = get_map(m, jm);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_dmsg_get_proc(m, parent);
    }
    for (uint32_t c = 0; PMIX_SUCCESS == rc && c < a->nctx; c++) {
        total += a->ctx[c].np;
    }
    if (PMIX_SUCCESS == rc && (NULL == *nspace || strlen(*nspace) > PMIX_MAX_NSLEN ||
                               total != jm->np || *node >= jm->nnodes)) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS != rc) {
        free(*nspace);
        *nspace = NULL;
        wu_dmsg_free_app(a);
        wu_rte_jobmap_free(jm);
        return rc;
    }
    *app = a;
    *map = jm;
    return PMIX_SUCCESS;
}

pmix_status_t wu_dmsg_get_hello(wu_dmsg_t *m, char **version, char **token, uint32_t *node,
                                char **host, int32_t *pid)
{
    pmix_status_t rc;
    *version = *token = *host = NULL;
    rc = wu_dmsg_get_str(m, version);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_str(m, token) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(m, node) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_str(m, host) : rc;
    return PMIX_SUCCESS == rc ? wu_dmsg_get_i32(m, pid) : rc;
}

bool wu_dmsg_token_ok(const char *mine, const char *theirs)
{
    size_t n = strlen(mine);
    unsigned char diff = 0;
    if (NULL == theirs || strlen(theirs) != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        diff |= (unsigned char)(mine[i] ^ theirs[i]);
    }
    return 0 == diff;
}

pmix_status_t wu_dmsg_put_fwd(wu_dmsg_t *m, uint32_t node, uint32_t skip, uint32_t type,
                              const void *p, size_t n)
{
    pmix_status_t rc = wu_dmsg_put_u32(m, node);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, skip) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, type) : rc;
    return PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(m, p, n) : rc;
}

pmix_status_t wu_dmsg_get_fwd(wu_dmsg_t *m, uint32_t *node, uint32_t *skip, uint32_t *type,
                              char **p, size_t *n)
{
    pmix_status_t rc = wu_dmsg_get_u32(m, node);
    *p = NULL;
    *n = 0;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(m, skip) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(m, type) : rc;
    return PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(m, p, n) : rc;
}

static void pending_destruct(wu_dmsg_pending_t *p)
{
    free(p->sig);
}

static WU_CLASS_INSTANCE(wu_dmsg_pending_t, wu_list_item_t, NULL, pending_destruct);

wu_dmsg_pending_t *wu_dmsg_pending_add(wu_list_t **list, pmix_modex_cbfunc_t cb, void *cbdata)
{
    wu_dmsg_pending_t *p;
    if ((NULL == *list && NULL == (*list = WU_NEW(wu_list_t))) ||
        NULL == (p = WU_NEW(wu_dmsg_pending_t))) {
        return NULL;
    }
    p->cb = cb;
    p->cbdata = cbdata;
    wu_list_append(*list, &p->super);
    return p;
}

bool wu_dmsg_pending_answer(wu_list_t **list, uint64_t id, const char *sig, size_t siglen,
                            pmix_status_t st, const char *data, size_t n)
{
    wu_dmsg_pending_t *p;
    if (NULL == *list) {
        return false;
    }
    WU_LIST_FOREACH(p, *list, wu_dmsg_pending_t)
    {
        if (NULL != sig ? p->siglen == siglen && (0 == siglen || 0 == memcmp(p->sig, sig, siglen))
                        : p->id == id) {
            wu_list_remove(*list, &p->super);
            wu_dmsg_modex_answer(p->cb, p->cbdata, st, data, n);
            WU_RELEASE(p);
            return true;
        }
    }
    return false;
}

void wu_dmsg_pending_fail(wu_list_t **list, pmix_status_t st)
{
    wu_dmsg_pending_t *p;
    while (NULL != *list && NULL != (p = (wu_dmsg_pending_t *)wu_list_remove_first(*list))) {
        p->cb(st, NULL, 0, p->cbdata, NULL, NULL);
        WU_RELEASE(p);
    }
}

void wu_dmsg_pending_free(wu_list_t **list)
{
    if (NULL != *list) {
        WU_RELEASE(*list);
    }
}

pmix_status_t wu_dmsg_dmodex_shift(void (*fn)(void *), const pmix_proc_t *proc,
                                   pmix_modex_cbfunc_t cb, void *cbdata)
{
    wu_dmsg_dmodex_t *d = calloc(1, sizeof *d);
    if (NULL == d) {
        return PMIX_ERR_NOMEM;
    }
    *d = (wu_dmsg_dmodex_t){.proc = *proc, .cb = cb, .cbdata = cbdata};
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), fn, d)) {
        free(d);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

pmix_status_t wu_dmsg_fence_parts(const char *sig, size_t siglen, const char *nspace, uint32_t np,
                                  bool *wildcard, uint32_t **ranks, uint32_t *nranks)
{
    pmix_data_buffer_t b;
    pmix_byte_object_t bo = {.bytes = (char *)sig, .size = siglen};
    uint32_t n = 0;
    pmix_status_t rc;
    *wildcard = false;
    *ranks = NULL;
    *nranks = 0;
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    rc = siglen > 0 ? PMIx_Data_embed(&b, &bo) : PMIX_ERR_BAD_PARAM;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(&b, &n) : rc;
    if (PMIX_SUCCESS == rc && n > siglen) {
        rc = PMIX_ERR_BAD_PARAM; /* more participants than the set could hold */
    }
    if (PMIX_SUCCESS == rc && n > 0 && NULL == (*ranks = calloc(n, sizeof **ranks))) {
        rc = PMIX_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        pmix_proc_t p;
        if (PMIX_SUCCESS != (rc = wu_dmsg_get_proc(&b, &p)) ||
            0 != strncmp(p.nspace, nspace, PMIX_MAX_NSLEN)) {
            continue; /* another job's procs are not ours to wait for */
        }
        if (PMIX_RANK_WILDCARD == p.rank) {
            *wildcard = true;
        } else if (p.rank < np) {
            (*ranks)[(*nranks)++] = p.rank;
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    if (PMIX_SUCCESS != rc) {
        free(*ranks);
        *ranks = NULL;
        *nranks = 0;
    }
    return rc;
}

bool wu_dmsg_walk_fence_agg(wu_dmsg_t *m, wu_dmsg_agg_fn fn, void *arg)
{
    wu_dmsg_t pairs;
    char *sig = NULL, *blob = NULL;
    size_t siglen = 0, nblob = 0;
    int32_t timeout = 0;
    uint32_t count = 0;
    bool ok = PMIX_SUCCESS == wu_dmsg_get_bytes(m, &sig, &siglen) &&
              PMIX_SUCCESS == wu_dmsg_get_i32(m, &timeout) &&
              PMIX_SUCCESS == wu_dmsg_get_u32(m, &count) &&
              PMIX_SUCCESS == wu_dmsg_get_bytes(m, &blob, &nblob);
    PMIX_DATA_BUFFER_CONSTRUCT(&pairs);
    if (ok && nblob > 0) {
        pmix_byte_object_t pb = {.bytes = blob, .size = nblob};
        ok = PMIX_SUCCESS == PMIx_Data_embed(&pairs, &pb);
    }
    for (uint32_t i = 0; ok && i < count; i++) {
        uint32_t node = UINT32_MAX;
        char *data = NULL;
        size_t ndata = 0;
        ok = PMIX_SUCCESS == wu_dmsg_get_u32(&pairs, &node) &&
             PMIX_SUCCESS == wu_dmsg_get_bytes(&pairs, &data, &ndata) &&
             fn(node, sig, siglen, data, ndata, timeout, arg);
        free(data);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&pairs);
    free(sig);
    free(blob);
    return ok;
}

/* --- the services' message types ------------------------------------------------------------- */

static wu_dmsg_at_head_fn at_head[WU_DMSG_TYPES_MAX];
static wu_dmsg_at_daemon_fn at_daemon[WU_DMSG_TYPES_MAX];

int wu_dmsg_handle(uint32_t type, wu_dmsg_at_head_fn head_fn, wu_dmsg_at_daemon_fn daemon_fn)
{
    if (type >= WU_DMSG_TYPES_MAX || (NULL != at_head[type] && at_head[type] != head_fn) ||
        (NULL != at_daemon[type] && at_daemon[type] != daemon_fn)) {
        return WU_ERR_BAD_PARAM;
    }
    at_head[type] = head_fn;
    at_daemon[type] = daemon_fn;
    return WU_SUCCESS;
}

wu_dmsg_at_head_fn wu_dmsg_at_head(uint32_t type)
{
    return type < WU_DMSG_TYPES_MAX ? at_head[type] : NULL;
}

wu_dmsg_at_daemon_fn wu_dmsg_at_daemon(uint32_t type)
{
    return type < WU_DMSG_TYPES_MAX ? at_daemon[type] : NULL;
}
