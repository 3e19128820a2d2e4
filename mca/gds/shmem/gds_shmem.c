/* SPDX-License-Identifier: BSD-3-Clause */
/* gds_shmem.c -- gds component that adds shared segments to the hash store.
 *
 * A server lays each fence's collected data out once as a wu_shm segment (pmix/common/wu_shm.h)
 * in a sealed memfd (seg_make) and passes the descriptor to its local clients; each client maps
 * it read-only (seg_attach) and looks values up in place, so the data exists once on the node
 * instead of once per client. The per-process data of a namespace's registration goes the same
 * way, one job segment per namespace (job_seg_make, job_seg_attach). Everything else -- job,
 * node and app data, Puts, values received one by one -- stays in a store of the hash
 * component, which this one wraps: its operations are hash's, except those that must also see
 * the segments (fetch, has_proc, purge_nspace, store_create, store_release).
 *
 * A store keeps its segments newest first, each with the namespace its data belongs to. A
 * lookup of (nspace, rank, key) asks the hash tables first (what the host registered, and what
 * was stored after the segment: seg_attach drops the hash tables' values under the segment's
 * keys), then the newest fence segment holding the rank (older ones are not asked: a rank's
 * commit holds all its data, so its whole committed set is in the newest), then the job
 * segment of the namespace. A fence segment none of whose ranks it is the newest for is
 * unmapped (in batches). A memfd is not in any file system: a segment vanishes with its last
 * mapping and descriptor, whatever way its processes end. */
#include "mca/gds/gds.h"
#include "opal/util/wu_output.h"
#include "pmix/common/wu_buffer.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_shm.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t segment_max = (size_t)256 << 20;
static size_t segment_min = (size_t)32 << 10;
static size_t dead_max = (size_t)16 << 20;

/* Blobs up to this size leave the writer's memory allocated for the next one. */
#define KEEP_MAX ((size_t)8 << 20)

/* The server's writer, kept from one segment to the next (seg_make runs on the server's
 * progress thread only): warm memory, where fresh pages would cost a fault each. */
static wu_shm_writer_t *writer;

/* hash's operations, found when this component is queried */
static const wu_gds_module_t *hash;

typedef struct seg {
    struct seg *next; /* older */
    char nspace[PMIX_MAX_NSLEN + 1];
    wu_shm_seg_t shm;
} seg_t;

typedef struct {
    wu_gds_store_t *h; /* the hash store */
    seg_t *segs;       /* newest first */
    seg_t *jobs;       /* registered per-process data, one per namespace */
    seg_t *dead;       /* no longer looked at, still mapped */
    size_t dead_bytes; /* their mapped bytes (whole pages) */
    unsigned ndead;
} shm_store_t;

#define S(store) ((shm_store_t *)(void *)(store))
#define H(store) (S(store)->h)

static void seg_free(seg_t *g)
{
    wu_shm_unmap(&g->shm);
    free(g);
}

/* Superseded segments kept mapped at most (each is one mapping of the process's). */
#define DEAD_MAX_SEGS 64u

static size_t round_page(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (n + page - 1) / page * page;
}

static int cmp_seg_base(const void *a, const void *b)
{
    const char *x = (*(seg_t *const *)a)->shm.base, *y = (*(seg_t *const *)b)->shm.base;
    return x < y ? -1 : x > y;
}

/* Unmap the dead segments. Every munmap costs a TLB shootdown across the process's threads,
 * so mappings that lie next to each other (the kernel places new ones below the last) go in one
 * call. */
static void dead_flush(shm_store_t *s)
{
    size_t n = 0, i = 0;
    seg_t **v;
    for (seg_t *g = s->dead; NULL != g; g = g->next) {
        n++;
    }
    if (0 == n) {
        return;
    }
    if (NULL == (v = malloc(n * sizeof *v))) {
        while (NULL != s->dead) { /* one by one, then */
            seg_t *g = s->dead;
            s->dead = g->next;
            seg_free(g);
        }
        s->dead_bytes = 0;
        s->ndead = 0;
        return;
    }
    for (seg_t *g = s->dead; NULL != g; g = g->next) {
        v[i++] = g;
    }
    qsort(v, n, sizeof *v, cmp_seg_base);
    for (i = 0; i < n;) {
        char *start = (char *)v[i]->shm.base;
        char *end = start + round_page(v[i]->shm.len);
        size_t j = i + 1;
        while (j < n && (char *)v[j]->shm.base == end) {
            end += round_page(v[j]->shm.len);
            j++;
        }
        munmap(start, (size_t)(end - start));
        for (; i < j; i++) {
            free(v[i]);
        }
    }
    free(v);
    s->dead = NULL;
    s->dead_bytes = 0;
    s->ndead = 0;
}

/* The job segment of nspace, or NULL. */
static seg_t **job_of(shm_store_t *s, const char *nspace)
{
    for (seg_t **pp = &s->jobs; NULL != *pp; pp = &(*pp)->next) {
        if (0 == strcmp((*pp)->nspace, nspace)) {
            return pp;
        }
    }
    return NULL;
}

/* Unmap nspace's job segment; was there one? */
static bool job_drop(shm_store_t *s, const char *nspace)
{
    seg_t **pp = job_of(s, nspace), *g;
    if (NULL == pp) {
        return false;
    }
    g = *pp;
    *pp = g->next;
    seg_free(g);
    return true;
}

/* The newest segment of nspace holding rank, or NULL. */
static const seg_t *seg_of(const shm_store_t *s, const char *nspace, pmix_rank_t rank)
{
    for (const seg_t *g = s->segs; NULL != g; g = g->next) {
        if (0 == strcmp(g->nspace, nspace) && wu_shm_has_rank(&g->shm, rank)) {
            return g;
        }
    }
    return NULL;
}

static pmix_status_t shm_store_create(wu_gds_store_t **store)
{
    shm_store_t *s;
    pmix_status_t rc;
    if (NULL == store) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (s = calloc(1, sizeof *s))) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = hash->store_create(&s->h))) {
        free(s);
        return rc;
    }
    *store = (wu_gds_store_t *)(void *)s;
    return PMIX_SUCCESS;
}

static void shm_store_release(wu_gds_store_t *store)
{
    shm_store_t *s = S(store);
    if (NULL == s) {
        return;
    }
    while (NULL != s->segs) {
        seg_t *g = s->segs;
        s->segs = g->next;
        seg_free(g);
    }
    while (NULL != s->jobs) {
        seg_t *g = s->jobs;
        s->jobs = g->next;
        seg_free(g);
    }
    dead_flush(s);
    hash->store_release(s->h);
    free(s);
}

static pmix_status_t shm_fetch(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                               const char *key, pmix_value_t **val)
{
    pmix_status_t rc =
        NULL == store ? PMIX_ERR_BAD_PARAM : hash->fetch(H(store), nspace, rank, key, val);
    const seg_t *g;
    seg_t **j;
    if (PMIX_ERR_NOT_FOUND == rc && PMIX_RANK_IS_VALID(rank) &&
        NULL != (g = seg_of(S(store), nspace, rank))) {
        rc = wu_shm_fetch(&g->shm, rank, key, val);
    }
    if (PMIX_ERR_NOT_FOUND == rc && PMIX_RANK_IS_VALID(rank) &&
        NULL != (j = job_of(S(store), nspace))) {
        rc = wu_shm_fetch(&(*j)->shm, rank, key, val);
    }
    return rc;
}

static bool shm_has_proc(wu_gds_store_t *store, const char *nspace, pmix_rank_t rank)
{
    if (NULL == store || NULL == nspace) {
        return false;
    }
    seg_t **j;
    if (hash->has_proc(H(store), nspace, rank)) {
        return true;
    }
    if (!PMIX_RANK_IS_VALID(rank)) {
        return false;
    }
    return NULL != seg_of(S(store), nspace, rank) ||
           (NULL != (j = job_of(S(store), nspace)) && wu_shm_has_rank(&(*j)->shm, rank));
}

/* Drop the segments of nspace that match: all of them (unmapped at once), or (only_dead) those
 * no rank needs (unmapped with others once they hold more than dead_max bytes). */
static bool drop_segs(shm_store_t *s, const char *nspace, bool only_dead)
{
    bool any = false;
    for (seg_t **pp = &s->segs; NULL != *pp;) {
        seg_t *g = *pp;
        bool dead = 0 == strcmp(g->nspace, nspace);
        if (dead && only_dead) {
            /* dead when a newer segment of nspace holds each of its ranks */
            for (uint32_t i = 0; i < g->shm.nranks && dead; i++) {
                dead = seg_of(s, nspace, wu_shm_rank_at(&g->shm, i)) != g;
            }
        }
        if (dead) {
            *pp = g->next;
            g->next = s->dead;
            s->dead = g;
            s->dead_bytes += round_page(g->shm.len);
            s->ndead++;
            any = true;
        } else {
            pp = &g->next;
        }
    }
    if (!only_dead || s->dead_bytes > dead_max || s->ndead > DEAD_MAX_SEGS) {
        dead_flush(s);
    }
    return any;
}

static pmix_status_t shm_purge_nspace(wu_gds_store_t *store, const char *nspace)
{
    pmix_status_t rc;
    bool had;
    if (NULL == store || NULL == nspace) {
        return PMIX_ERR_BAD_PARAM;
    }
    rc = hash->purge_nspace(H(store), nspace);
    had = drop_segs(S(store), nspace, false);
    had = job_drop(S(store), nspace) || had;
    return PMIX_ERR_NOT_FOUND == rc && had ? PMIX_SUCCESS : rc;
}

/* ---- the server's side: a blob laid out as one segment ---------------------------------- */

typedef struct {
    wu_shm_writer_t *w;
    char *nspace; /* of the first record */
    bool mixed;
} make_t;

static int make_one(const pmix_proc_t *proc, pmix_info_t *info, void *ctx)
{
    make_t *m = ctx;
    if ('\0' == m->nspace[0]) {
        PMIX_LOAD_NSPACE(m->nspace, proc->nspace);
    } else if (!PMIX_CHECK_NSPACE(m->nspace, proc->nspace)) {
        m->mixed = true;
        return PMIX_ERR_NOT_SUPPORTED;
    }
    return wu_shm_writer_add(m->w, proc->rank, info->key, &info->value);
}

static pmix_status_t shm_seg_make(const void *blob, size_t len, char nspace[PMIX_MAX_NSLEN + 1],
                                  int *fd)
{
    make_t m = {NULL, nspace, false};
    wu_buffer_t b = {.base = (char *)blob, .used = len, .cap = len}; /* a read-only view */
    pmix_proc_t proc;
    size_t ilen = 0;
    int rc;
    if (NULL == blob || NULL == nspace || NULL == fd) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (len < segment_min || len > segment_max) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL == writer && PMIX_SUCCESS != (rc = wu_shm_writer_new(&writer))) {
        return rc;
    }
    wu_shm_writer_reset(writer);
    m.w = writer;
    nspace[0] = '\0';
    while (PMIX_SUCCESS == (rc = wu_proto_blob_next_each(&b, &proc, make_one, &m))) {
    }
    if (PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc) {
        rc = '\0' == nspace[0] ? PMIX_ERR_NOT_SUPPORTED : PMIX_SUCCESS;
    } else if (m.mixed) {
        rc = PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_shm_writer_memfd(writer, "wu-shm-fence", fd, &ilen);
    }
    wu_shm_writer_reset(writer);
    if (len > KEEP_MAX) { /* kept warm only for fences of ordinary size */
        wu_shm_writer_free(writer);
        writer = NULL;
    }
    return rc;
}

static pmix_status_t shm_job_seg_make(const pmix_info_t info[], size_t ninfo, int *fd)
{
    wu_shm_writer_t *w = NULL;
    pmix_status_t rc = PMIX_SUCCESS;
    size_t len = 0, bytes, nadded = 0;
    if ((NULL == info && 0 != ninfo) || NULL == fd) {
        return PMIX_ERR_BAD_PARAM;
    }
    *fd = -1;
    if (PMIX_SUCCESS != (rc = wu_shm_writer_new(&w))) {
        return rc;
    }
    for (size_t i = 0; i < ninfo && PMIX_SUCCESS == rc; i++) {
        const pmix_value_t *v = &info[i].value;
        const pmix_info_t *a;
        pmix_rank_t rank;
        if (0 != strncmp(info[i].key, PMIX_PROC_DATA, PMIX_MAX_KEYLEN)) {
            continue;
        }
        if (PMIX_DATA_ARRAY != v->type || NULL == v->data.darray ||
            PMIX_INFO != v->data.darray->type || NULL == (a = v->data.darray->array) ||
            !wu_proc_data_rank(a, v->data.darray->size, &rank)) {
            rc = PMIX_ERR_BAD_PARAM; /* register_nspace refused it already */
            break;
        }
        for (size_t k = 1; k < v->data.darray->size && PMIX_SUCCESS == rc; k++) {
            rc = wu_shm_writer_add(w, rank, a[k].key, &a[k].value);
            nadded++;
        }
    }
    bytes = wu_shm_writer_bytes(w);
    if (PMIX_SUCCESS == rc && (0 == nadded || bytes > segment_max)) {
        rc = PMIX_ERR_NOT_SUPPORTED; /* nothing to lay out, or too big */
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_shm_writer_memfd(w, "wu-shm-job", fd, &len);
    }
    wu_shm_writer_free(w);
    return rc;
}

/* ---- the client's side ------------------------------------------------------------------- */

/* The segment in fd mapped as a new seg_t of nspace (not linked yet) in *out. */
static pmix_status_t seg_map(const shm_store_t *s, const char *nspace, int fd, seg_t **out)
{
    seg_t *g;
    pmix_status_t rc;
    if (NULL == s || NULL == nspace || '\0' == nspace[0] || PMIX_MAX_NSLEN < strlen(nspace)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (g = calloc(1, sizeof *g))) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = wu_shm_map(fd, &g->shm))) {
        free(g);
        return rc;
    }
    PMIX_LOAD_NSPACE(g->nspace, nspace);
    *out = g;
    return PMIX_SUCCESS;
}

static pmix_status_t shm_job_seg_attach(wu_gds_store_t *store, const char *nspace, int fd)
{
    shm_store_t *s = S(store);
    seg_t *g;
    pmix_status_t rc = seg_map(s, nspace, fd, &g);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    (void)job_drop(s, nspace);
    g->next = s->jobs;
    s->jobs = g;
    return PMIX_SUCCESS;
}

typedef struct {
    shm_store_t *s;
    const char *nspace;
    pmix_rank_t keep;
} supersede_t;

/* A value the hash tables hold under a key of the new segment is older than it: dropped. */
static int supersede(pmix_rank_t rank, const char *key, void *ctx)
{
    supersede_t *c = ctx;
    if (rank != c->keep && PMIX_RANK_IS_VALID(rank)) {
        (void)hash->purge_key(c->s->h, c->nspace, rank, key);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t shm_seg_attach(wu_gds_store_t *store, const char *nspace, int fd,
                                    pmix_rank_t keep)
{
    shm_store_t *s = S(store);
    supersede_t ctx;
    seg_t *g;
    pmix_status_t rc = seg_map(s, nspace, fd, &g);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    ctx.s = s;
    ctx.nspace = nspace;
    ctx.keep = keep;
    if (PMIX_SUCCESS != (rc = wu_shm_walk(&g->shm, supersede, &ctx))) {
        seg_free(g);
        return rc;
    }
    g->next = s->segs;
    s->segs = g;
    (void)drop_segs(s, nspace, true);
    return PMIX_SUCCESS;
}

/* ---- the module ---------------------------------------------------------------------------- */

/* Operations passed to hash's with the wrapped store. */
#define PASS(name, params, args)                                     \
    static pmix_status_t shm_##name params                           \
    {                                                                \
        return NULL == store ? PMIX_ERR_BAD_PARAM : hash->name args; \
    }
PASS(put,
     (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, const char *key,
      const pmix_value_t *val),
     (H(store), nspace, rank, key, val))
PASS(put_info, (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, const pmix_info_t *i),
     (H(store), nspace, rank, i))
PASS(take_info, (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, pmix_info_t *i),
     (H(store), nspace, rank, i))
PASS(fetch_view,
     (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, const char *key,
      const pmix_value_t **val),
     (H(store), nspace, rank, key, val))
PASS(fetch_node,
     (wu_gds_store_t * store, const char *nspace, const char *host, uint32_t id, const char *key,
      pmix_value_t **val),
     (H(store), nspace, host, id, key, val))
PASS(fetch_app,
     (wu_gds_store_t * store, const char *nspace, uint32_t app, const char *key,
      pmix_value_t **val),
     (H(store), nspace, app, key, val))
PASS(register_nspace,
     (wu_gds_store_t * store, const char *nspace, const pmix_info_t info[], size_t n),
     (H(store), nspace, info, n))
PASS(export_proc,
     (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, pmix_info_t **info, size_t *n),
     (H(store), nspace, rank, info, n))
PASS(each_proc,
     (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank,
      pmix_status_t (*fn)(const char *key, const pmix_value_t *val, void *ctx), void *ctx),
     (H(store), nspace, rank, fn, ctx))
PASS(import_job, (wu_gds_store_t * store, const char *nspace, const pmix_info_t info[], size_t n),
     (H(store), nspace, info, n))
PASS(take_proc,
     (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, pmix_info_t info[], size_t n),
     (H(store), nspace, rank, info, n))
PASS(job_nspaces, (wu_gds_store_t * store, char ***names), (H(store), names))
PASS(resolve_peers,
     (wu_gds_store_t * store, const char *nspace, const char *node, pmix_proc_t **procs, size_t *n),
     (H(store), nspace, node, procs, n))
PASS(resolve_nodes, (wu_gds_store_t * store, const char *nspace, char **nodelist),
     (H(store), nspace, nodelist))
PASS(purge_key, (wu_gds_store_t * store, const char *nspace, pmix_rank_t rank, const char *key),
     (H(store), nspace, rank, key))

static bool shm_has_nspace(wu_gds_store_t *store, const char *nspace)
{
    return NULL != store && hash->has_nspace(H(store), nspace);
}

static const wu_gds_module_t shmem_module = {
    .name = "shmem",
    .store_create = shm_store_create,
    .store_release = shm_store_release,
    .put = shm_put,
    .put_info = shm_put_info,
    .take_info = shm_take_info,
    .fetch = shm_fetch,
    .fetch_view = shm_fetch_view,
    .fetch_node = shm_fetch_node,
    .fetch_app = shm_fetch_app,
    .has_nspace = shm_has_nspace,
    .register_nspace = shm_register_nspace,
    .purge_nspace = shm_purge_nspace,
    .export_proc = shm_export_proc,
    .each_proc = shm_each_proc,
    .import_job = shm_import_job,
    .take_proc = shm_take_proc,
    .has_proc = shm_has_proc,
    .job_nspaces = shm_job_nspaces,
    .resolve_peers = shm_resolve_peers,
    .resolve_nodes = shm_resolve_nodes,
    .purge_key = shm_purge_key,
    .seg_make = shm_seg_make,
    .seg_attach = shm_seg_attach,
    .job_seg_make = shm_job_seg_make,
    .job_seg_attach = shm_job_seg_attach,
};

/* Available when the hash component is there to hold what segments do not, and memfds can be
 * sealed here. */
static int shmem_query(const void **module, int *priority, const char **reason)
{
    const wu_mca_framework_t *fw = wu_mca_framework_find("gds");
    int fd = -1;
    (void)priority;
    for (size_t i = 0; NULL != fw && i < fw->ncomps; i++) {
        const wu_mca_component_t *c = fw->comps[i]->component;
        if (0 == strcmp(c->name, "hash") && NULL != c->module) {
            hash = c->module;
        }
    }
    if (NULL == hash) {
        *reason = "the gds hash component, which holds what segments do not, is missing";
        return WU_ERR_NOT_AVAILABLE;
    }
    if (PMIX_SUCCESS != wu_shm_memfd("", 0, &fd)) {
        *reason = "sealed memfds are not supported here";
        return WU_ERR_NOT_AVAILABLE;
    }
    close(fd);
    *module = &shmem_module;
    return WU_SUCCESS;
}

static const wu_mca_param_t shmem_params[] = {
    {.name = "segment_max",
     .type = WU_PARAM_TYPE_SIZE,
     .storage = &segment_max,
     .level = WU_INFO_LVL_5,
     .help = "Largest fence data or registered per-process data (bytes, k/m/g suffixes) a "
             "server lays out as one shared segment for its clients; larger data is sent to "
             "each client as before (hash)",
     .flags = WU_PARAM_FLAG_RANGE,
     .min = 1,
     .max = UINT32_MAX / 2},
    {.name = "segment_min",
     .type = WU_PARAM_TYPE_SIZE,
     .storage = &segment_min,
     .level = WU_INFO_LVL_5,
     .help = "Smallest fence data (bytes, k/m/g suffixes) a server lays out as a shared segment; "
             "smaller data is sent to each client, which costs less than making and mapping a "
             "segment",
     .flags = WU_PARAM_FLAG_RANGE,
     .min = 0,
     .max = UINT32_MAX / 2},
    {.name = "unmap_batch",
     .type = WU_PARAM_TYPE_SIZE,
     .storage = &dead_max,
     .level = WU_INFO_LVL_6,
     .help = "Bytes of superseded segments a client keeps mapped before unmapping them together "
             "(each unmapping costs a TLB shootdown; neighbours go in one call). 0: unmap each at "
             "once",
     .flags = WU_PARAM_FLAG_RANGE,
     .min = 0,
     .max = (size_t)1 << 34},
    WU_PARAM_END};

static void shmem_close(void)
{
    wu_shm_writer_free(writer);
    writer = NULL;
}

WU_MCA_COMPONENT(gds, shmem, .priority = 20, .query = shmem_query, .close = shmem_close,
                 .params = shmem_params,
                 .description = "Fence data in shared segments mapped by every local client; "
                                "the rest in hash tables");
