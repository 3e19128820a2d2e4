/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_relay_coll.c -- in a relay (a wired that started daemons): the fence contributions of
 * its branch of the launch tree combined into one FENCE_AGG up, so that a fence is an allgather
 * along the tree rather than one message per node at wrun.
 *
 * A contribution of a node of the branch (its FENCE, or the pairs of a child relay's FENCE_AGG)
 * is held in the oldest open collection of its participant set that the node has not
 * contributed to, as wrun does. Once every node of the branch that hosts a participant has
 * contributed, the pairs (node, data) go up in one FENCE_AGG; wrun (or the relay above) takes
 * them node by node, so its own rules decide as before. A collection is sent up as far as it
 * got (flushed), and no longer held, when a participant of the branch ends before its node
 * contributed (its EXITED, or its node's loss, passes through here, and the collection goes up
 * before it). When a FENCE_DONE with an error for the set passes down, wrun has failed its oldest
 * open fence of the set and sent the failure to every node hosting a participant: the oldest
 * collection of the set held here is dropped, as its contributions are answered already (sent
 * up, they would open a stale fence at wrun that the next fence of the set would meet).
 * A fence with a PMIX_TIMEOUT is combined too, but wrun times it from its first contribution:
 * the first contribution of a collection goes up on its own at once, so that wrun's timer starts
 * as it would without relays, and the rest of the branch follows in one FENCE_AGG. A contribution
 * whose timeout differs from the collection's first, and anything before the job's map is known,
 * go up on their own. Everything runs on the relay's progress thread. */
#include "pmix/rte/dist/wu_rte_relay.h"
#include "pmix/rte/core/wu_rte_coll.h"
#include "pmix.h"

#include <stdlib.h>
#include <string.h>

/* A fence of the branch being combined: the engine's collection, one slot per daemon of the
 * branch (its tree index), a daemon expected if it hosts a participant. */
typedef struct {
    wu_rte_coll_t super;
    bool wildcard;   /* every rank takes part */
    uint32_t *ranks; /* else these */
    uint32_t nranks;
    int32_t timeout; /* the PMIX_TIMEOUT of the first contribution */
    uint32_t npairs; /* contributions held in pairs (with a timeout, the first went up alone) */
    wu_dmsg_t pairs; /* (node, data) of each contribution held */
} rcoll_t;

static void rcoll_construct(rcoll_t *r)
{
    r->wildcard = false;
    r->ranks = NULL;
    r->nranks = 0;
    r->timeout = 0;
    r->npairs = 0;
    PMIX_DATA_BUFFER_CONSTRUCT(&r->pairs);
}

static void rcoll_destruct(rcoll_t *r)
{
    free(r->ranks);
    PMIX_DATA_BUFFER_DESTRUCT(&r->pairs);
}

static WU_CLASS_INSTANCE(rcoll_t, wu_rte_coll_t, rcoll_construct, rcoll_destruct);

struct wu_rte_rcolls {
    const wu_rte_tree_t *tree;
    wu_rte_relay_up_fn up;
    void *arg;
    char *nspace; /* the job, once known */
    uint32_t np;
    uint32_t *rank_node; /* per rank: its map node */
    uint32_t *rank_bi;   /* per rank: the tree index of its node, UINT32_MAX: not the branch's */
    bool *ended;         /* per rank: it ended */
    uint32_t nended;
    wu_rte_colls_t colls;
};

wu_rte_rcolls_t *wu_rte_rcolls_new(const wu_rte_tree_t *tree, wu_rte_relay_up_fn up, void *arg)
{
    wu_rte_rcolls_t *c = calloc(1, sizeof *c);
    if (NULL != c) {
        *c = (wu_rte_rcolls_t){.tree = tree, .up = up, .arg = arg};
        if (WU_SUCCESS != wu_rte_colls_init(&c->colls, NULL, NULL)) { /* no timeouts here */
            free(c);
            c = NULL;
        }
    }
    return c;
}

void wu_rte_rcolls_free(wu_rte_rcolls_t *c)
{
    if (NULL == c) {
        return;
    }
    wu_rte_colls_fini(&c->colls);
    free(c->nspace);
    free(c->rank_node);
    free(c->rank_bi);
    free(c->ended);
    free(c);
}

int wu_rte_rcolls_set_job(wu_rte_rcolls_t *c, const char *nspace, const wu_rte_jobmap_t *map)
{
    if (NULL != c->nspace) {
        return WU_SUCCESS;
    }
    size_t n = map->np > 0 ? map->np : 1;
    if (NULL == (c->rank_node = calloc(n, sizeof *c->rank_node)) ||
        NULL == (c->rank_bi = calloc(n, sizeof *c->rank_bi)) ||
        NULL == (c->ended = calloc(n, sizeof *c->ended)) || NULL == (c->nspace = strdup(nspace))) {
        free(c->rank_node);
        free(c->rank_bi);
        free(c->ended);
        c->rank_node = c->rank_bi = NULL;
        c->ended = NULL;
        return WU_ERR_NOMEM;
    }
    for (uint32_t r = 0; r < map->np; r++) {
        c->rank_node[r] = map->procs[r].node;
        c->rank_bi[r] = wu_rte_tree_index(c->tree, map->procs[r].node);
    }
    c->np = map->np;
    return WU_SUCCESS;
}

/* Send r's pairs up in one FENCE_AGG (if it holds any) and forget r. */
static void send_up(wu_rte_rcolls_t *c, rcoll_t *r)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_bytes(&m, r->super.key, r->super.keylen);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, r->timeout) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, r->npairs) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, r->pairs.base_ptr, r->pairs.bytes_used) : rc;
    if (PMIX_SUCCESS == rc && r->npairs > 0) {
        c->up(WU_DMSG_FENCE_AGG, m.base_ptr, m.bytes_used, c->arg);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    wu_rte_coll_close(&r->super);
}

/* Has a participant of r ended whose node has not contributed? */
static bool rcoll_stuck(const wu_rte_rcolls_t *c, const rcoll_t *r)
{
    uint32_t n = r->wildcard ? c->np : r->nranks;
    for (uint32_t i = 0; i < n && c->nended > 0; i++) {
        uint32_t rank = r->wildcard ? i : r->ranks[i];
        uint32_t bi = c->rank_bi[rank];
        if (c->ended[rank] && UINT32_MAX != bi && !r->super.from[bi]) {
            return true;
        }
    }
    return false;
}

/* Flush every collection that can no longer complete here. */
static void flush_stuck(wu_rte_rcolls_t *c)
{
    for (wu_rte_coll_t *r = wu_rte_colls_first(&c->colls), *next; NULL != r; r = next) {
        next = wu_rte_colls_next(&c->colls, r);
        if (rcoll_stuck(c, (rcoll_t *)r)) {
            send_up(c, (rcoll_t *)r);
        }
    }
}

/* A collection of set sig, opened in c; NULL if out of memory or sig does not decode. */
static rcoll_t *rcoll_new(wu_rte_rcolls_t *c, const char *sig, size_t siglen)
{
    rcoll_t *r = WU_NEW(rcoll_t);
    if (NULL == r ||
        WU_SUCCESS != wu_rte_coll_open(&c->colls, &r->super, 0, sig, siglen, c->tree->n)) {
        return NULL;
    }
    if (PMIX_SUCCESS !=
        wu_dmsg_fence_parts(sig, siglen, c->nspace, c->np, &r->wildcard, &r->ranks, &r->nranks)) {
        wu_rte_coll_close(&r->super);
        return NULL;
    }
    for (uint32_t i = 0; i < (r->wildcard ? c->np : r->nranks); i++) {
        uint32_t bi = c->rank_bi[r->wildcard ? i : r->ranks[i]];
        if (UINT32_MAX != bi) {
            wu_rte_coll_expect(&r->super, bi);
        }
    }
    return r;
}

/* bi's contribution to r is accounted for (held in r, or gone up on its own): r no longer
 * waits for it, and goes up once complete or stuck. */
static void counted(wu_rte_rcolls_t *c, rcoll_t *r, uint32_t bi)
{
    (void)wu_rte_coll_add(&r->super, bi, NULL, 0); /* r expects bi: no failure */
    if (wu_rte_coll_complete(&r->super) || rcoll_stuck(c, r)) {
        send_up(c, r);
    }
}

/* node's contribution: held (true) or to be passed on as it came (false). */
static bool contribute(wu_rte_rcolls_t *c, uint32_t node, const char *sig, size_t siglen,
                       const char *data, size_t ndata, int32_t timeout)
{
    uint32_t bi = wu_rte_tree_index(c->tree, node);
    rcoll_t *r;
    if (NULL == c->nspace || UINT32_MAX == bi || 0 == siglen) {
        return false;
    }
    /* the oldest open collection of the set, as at wrun */
    r = (rcoll_t *)wu_rte_coll_match(&c->colls, 0, sig, siglen, bi);
    if (NULL == r) {
        if (NULL == (r = rcoll_new(c, sig, siglen))) {
            return false;
        }
        if (!r->super.expect[bi]) {
            wu_rte_coll_close(&r->super);
            return false; /* wrun answers a node that hosts no participant */
        }
        r->timeout = timeout;
        if (0 != timeout) { /* the first goes up at once: wrun's timer starts with it */
            counted(c, r, bi);
            return false;
        }
    } else if (!r->super.expect[bi]) {
        return false;
    } else if (timeout != r->timeout) { /* one FENCE_AGG carries one timeout */
        counted(c, r, bi);
        return false;
    }
    if (PMIX_SUCCESS != wu_dmsg_put_u32(&r->pairs, node) ||
        PMIX_SUCCESS != wu_dmsg_put_bytes(&r->pairs, data, ndata)) {
        send_up(c, r); /* what it has, and this one on its own */
        return false;
    }
    r->npairs++;
    counted(c, r, bi);
    return true;
}

/* Pass one contribution up on its own, as node's FENCE relayed. */
static void pass_up(wu_rte_rcolls_t *c, uint32_t node, const char *sig, size_t siglen,
                    const char *data, size_t ndata, int32_t timeout)
{
    wu_dmsg_t m, env;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    PMIX_DATA_BUFFER_CONSTRUCT(&env);
    if (PMIX_SUCCESS == wu_dmsg_put_bytes(&m, sig, siglen) &&
        PMIX_SUCCESS == wu_dmsg_put_bytes(&m, data, ndata) &&
        PMIX_SUCCESS == wu_dmsg_put_i32(&m, timeout) &&
        PMIX_SUCCESS ==
            wu_dmsg_put_fwd(&env, node, WU_DMSG_ALL, WU_DMSG_FENCE, m.base_ptr, m.bytes_used)) {
        c->up(WU_DMSG_FWD_UP, env.base_ptr, env.bytes_used, c->arg);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    PMIX_DATA_BUFFER_DESTRUCT(&env);
}

bool wu_rte_rcolls_fence(wu_rte_rcolls_t *c, uint32_t node, const void *p, size_t n)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    char *sig = NULL, *data = NULL;
    size_t siglen = 0, ndata = 0;
    int32_t timeout = 0;
    bool held = false;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (NULL != c && n > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
        PMIX_SUCCESS == wu_dmsg_get_bytes(&m, &sig, &siglen) &&
        PMIX_SUCCESS == wu_dmsg_get_bytes(&m, &data, &ndata) &&
        PMIX_SUCCESS == wu_dmsg_get_i32(&m, &timeout)) {
        held = contribute(c, node, sig, siglen, data, ndata, timeout);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    free(sig);
    free(data);
    return held;
}

typedef struct {
    wu_rte_rcolls_t *c;
    uint32_t chunk;
} agg_walk_t;

static bool agg_pair(uint32_t node, const char *sig, size_t siglen, const char *data, size_t ndata,
                     int32_t timeout, void *arg)
{
    agg_walk_t *w = arg;
    if (wu_rte_tree_chunk_of(w->c->tree, node) != w->chunk) {
        return false; /* not of that child's chunk */
    }
    if (!contribute(w->c, node, sig, siglen, data, ndata, timeout)) {
        pass_up(w->c, node, sig, siglen, data, ndata, timeout);
    }
    return true;
}

bool wu_rte_rcolls_agg(wu_rte_rcolls_t *c, uint32_t chunk, const void *p, size_t n)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    agg_walk_t w = {.c = c, .chunk = chunk};
    bool ok;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ok = NULL != c && n > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
         wu_dmsg_walk_fence_agg(&m, agg_pair, &w);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return ok;
}

void wu_rte_rcolls_rank_ended(wu_rte_rcolls_t *c, uint32_t rank)
{
    if (NULL != c && NULL != c->nspace && rank < c->np && !c->ended[rank]) {
        c->ended[rank] = true;
        c->nended++;
        flush_stuck(c);
    }
}

void wu_rte_rcolls_node_gone(wu_rte_rcolls_t *c, uint32_t node)
{
    if (NULL == c || NULL == c->nspace) {
        return;
    }
    for (uint32_t r = 0; r < c->np; r++) {
        if (!c->ended[r] && c->rank_node[r] == node) {
            c->ended[r] = true;
            c->nended++;
        }
    }
    flush_stuck(c);
}

void wu_rte_rcolls_done(wu_rte_rcolls_t *c, const void *p, size_t n)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    char *sig = NULL;
    size_t siglen = 0;
    int32_t st = 0;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (NULL != c && n > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
        PMIX_SUCCESS == wu_dmsg_get_bytes(&m, &sig, &siglen) &&
        PMIX_SUCCESS == wu_dmsg_get_i32(&m, &st) && PMIX_SUCCESS != st) {
        /* the oldest of the set (slot UINT32_MAX: whoever contributed) */
        wu_rte_coll_close(wu_rte_coll_match(&c->colls, 0, sig, siglen, UINT32_MAX));
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    free(sig);
}
