/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_derive.c -- what a host's job registration leaves out and OpenPMIx derives, added
 * to the registration before it is stored.
 *
 * Many hosts (Slurm's mpi/pmix, Open MPI's mpirun, OpenPMIx's examples/server.c) register only
 * job-level data: sizes, PMIX_NODE_MAP and PMIX_PROC_MAP (the nodes and, per node, its ranks) and
 * the local node's PMIX_LOCAL_PEERS. Their clients still read each process's PMIX_HOSTNAME,
 * PMIX_NODEID, PMIX_LOCAL_RANK and PMIX_NODE_RANK, each node's PMIX_LOCAL_PEERS,
 * PMIX_LOCAL_PROCS (PMIx 5: the same, as process names), PMIX_LOCAL_SIZE and PMIX_LOCALLDR, and the job's PMIX_NODE_LIST, PMIX_NUM_NODES,
 * PMIX_MAX_PROCS and PMIX_LOCALLDR. From the two maps these are derived here: node i of the map
 * has PMIX_NODEID i, a process's local and node rank are its position in its node's list (one
 * job per registration), and a job-level PMIX_NODE_SIZE (Slurm's) is this node's. What the
 * host gave itself is kept (derived keys are only added where the host's own arrays and
 * job-level data lack them), with two corrections: a process's PMIX_NODEID that the maps
 * contradict is the maps' (Slurm 22.05 gives every rank its own node's id), and a
 * PMIX_LOCALLDR given as a uint32 (Slurm) is a rank, as OpenPMIx answers it. */
#include "opal/util/wu_argv.h"
#include "pmix/common/wu_regex.h"
#include "pmix/common/wu_value.h"
#include "pmix/server/wu_server.h"
#include "pmix.h"

#include <stdlib.h>
#include <string.h>

static const char *info_str(const pmix_info_t *info, size_t n, const char *key)
{
    const pmix_info_t *i = wu_info_find(info, n, key);
    return NULL != i && PMIX_STRING == i->value.type ? i->value.data.string : NULL;
}

/* PMIX_NODE_LIST: the nodes of PMIX_NODE_MAP (Open MPI 4.1's mpirun registers only the map), else
 * the hostnames of the node arrays in order, or NULL. */
static char *derived_node_list(const pmix_info_t *info, size_t ninfo)
{
    const char *map = info_str(info, ninfo, PMIX_NODE_MAP);
    char *list = NULL, **names = NULL;
    if (NULL != map && PMIX_SUCCESS == wu_regex_node_list(map, &list)) {
        return list;
    }
    for (size_t i = 0; i < ninfo; i++) {
        const pmix_data_array_t *d = info[i].value.data.darray;
        const pmix_info_t *host;
        if (!PMIX_CHECK_KEY(&info[i], PMIX_NODE_INFO_ARRAY) ||
            PMIX_DATA_ARRAY != info[i].value.type || NULL == d || PMIX_INFO != d->type) {
            continue;
        }
        host = wu_info_find(d->array, d->size, PMIX_HOSTNAME);
        if (NULL != host && PMIX_STRING == host->value.type && NULL != host->value.data.string &&
            WU_SUCCESS != wu_argv_append_unique(&names, host->value.data.string)) {
            break;
        }
    }
    list = NULL != names ? wu_argv_join(names, ',') : NULL;
    wu_argv_free(names);
    return list;
}

/* The two maps, decoded: nodes[i] holds ranks[i] (nranks[i] of them), peers[i] lists them as
 * PMIX_LOCAL_PEERS does. */
typedef struct {
    char **nodes;
    char **peers;
    pmix_rank_t **ranks;
    size_t *nranks;
    size_t n;
    int local; /* the index of this server's node, or -1 */
    /* the host's job-level PMIX_NODE_SIZE (Slurm's), which is this node's */
    bool has_node_size;
    uint32_t node_size;
    const char *nspace; /* the job's */
} maps_t;

static void maps_free(maps_t *m)
{
    for (size_t i = 0; NULL != m->ranks && i < m->n; i++) {
        free(m->ranks[i]);
    }
    free(m->ranks);
    free(m->nranks);
    wu_argv_free(m->nodes);
    wu_argv_free(m->peers);
    memset(m, 0, sizeof *m);
}

/* Does a node name mean this host (also when one side is fully qualified)? */
static bool is_me(const char *node)
{
    size_t a = strcspn(node, "."), b = strcspn(wu_srv.hostname, ".");
    return 0 == strcmp(node, wu_srv.hostname) || (a == b && 0 == strncmp(node, wu_srv.hostname, a));
}

static bool maps_decode(const pmix_info_t *info, size_t ninfo, maps_t *m)
{
    const char *nmap = info_str(info, ninfo, PMIX_NODE_MAP);
    const char *pmap = info_str(info, ninfo, PMIX_PROC_MAP);
    bool ok;
    memset(m, 0, sizeof *m);
    m->local = -1;
    if (NULL == nmap || NULL == pmap || PMIX_SUCCESS != wu_regex_nodes_decode(nmap, &m->nodes) ||
        PMIX_SUCCESS != wu_regex_ppn_decode(pmap, &m->peers)) {
        maps_free(m);
        return false;
    }
    m->n = (size_t)wu_argv_count(m->nodes);
    ok = m->n > 0 && (size_t)wu_argv_count(m->peers) == m->n &&
         NULL != (m->ranks = calloc(m->n, sizeof *m->ranks)) &&
         NULL != (m->nranks = calloc(m->n, sizeof *m->nranks));
    for (size_t i = 0; ok && i < m->n; i++) {
        ok = PMIX_SUCCESS == wu_regex_ranks_expand(m->peers[i], &m->ranks[i], &m->nranks[i]);
        if (ok && m->local < 0 && is_me(m->nodes[i])) {
            m->local = (int)i;
        }
    }
    if (!ok) {
        maps_free(m);
    }
    return ok;
}

static pmix_rank_t lowest(const pmix_rank_t *r, size_t n)
{
    pmix_rank_t low = PMIX_RANK_INVALID;
    for (size_t i = 0; i < n; i++) {
        low = r[i] < low ? r[i] : low;
    }
    return low;
}

/* A growing PMIX_INFO array. Items are moved into it (the source item is left empty), so the
 * registration is rebuilt without copying its values. */
typedef struct {
    pmix_info_t *a;
    size_t n, cap;
} grow_t;

static pmix_info_t *slot(grow_t *g, pmix_status_t *rc)
{
    if (PMIX_SUCCESS != *rc) {
        return NULL;
    }
    if (g->n == g->cap) {
        size_t cap = 0 == g->cap ? 8 : 2 * g->cap;
        pmix_info_t *a = realloc(g->a, cap * sizeof *a);
        if (NULL == a) {
            *rc = PMIX_ERR_NOMEM;
            return NULL;
        }
        g->a = a;
        g->cap = cap;
    }
    PMIX_INFO_CONSTRUCT(&g->a[g->n]);
    return &g->a[g->n++];
}

static void move_in(grow_t *g, pmix_info_t *src, pmix_status_t *rc)
{
    pmix_info_t *i = slot(g, rc);
    if (NULL != i) {
        *i = *src;
        PMIX_INFO_CONSTRUCT(src);
    }
}

static void grow_free(grow_t *g)
{
    if (NULL != g->a) {
        PMIX_INFO_FREE(g->a, g->n);
    }
    memset(g, 0, sizeof *g);
}

/* Add key unless the array have (n items) has it already. */
static void add_missing(grow_t *g, const pmix_info_t *have, size_t n, const char *key,
                        const void *val, pmix_data_type_t type, pmix_status_t *rc)
{
    pmix_info_t *i;
    if (NULL == wu_info_find(have, n, key) && NULL != (i = slot(g, rc))) {
        PMIx_Info_load(i, key, val, type);
    }
}

/* key in g as a uint32 val, whatever the host gave: where the maps say otherwise, the maps are
 * right (Slurm 22.05 gives every rank the PMIX_NODEID of the node that registers the job, the
 * others' included). */
static void set_u32(grow_t *g, const char *key, uint32_t val, pmix_status_t *rc)
{
    pmix_info_t *i = (pmix_info_t *)wu_info_find(g->a, g->n, key);
    if (NULL == i) {
        add_missing(g, NULL, 0, key, &val, PMIX_UINT32, rc);
    } else if (PMIX_UINT32 != i->value.type || val != i->value.data.uint32) {
        PMIX_VALUE_DESTRUCT(&i->value);
        PMIx_Value_load(&i->value, &val, PMIX_UINT32);
    }
}

/* A PMIX_LOCALLDR the host gave as a plain integer (Slurm: uint32) becomes a rank, the type
 * OpenPMIx answers it with. */
static void ldr_as_rank(pmix_info_t *a, size_t n)
{
    pmix_info_t *i = (pmix_info_t *)wu_info_find(a, n, PMIX_LOCALLDR);
    if (NULL != i && PMIX_UINT32 == i->value.type) {
        i->value.type = PMIX_PROC_RANK;
        i->value.data.rank = i->value.data.uint32;
    }
}

/* inner (moved, emptied) as the PMIX_DATA_ARRAY of PMIX_INFO key of g. */
static void add_array(grow_t *g, const char *key, grow_t *inner, pmix_status_t *rc)
{
    pmix_data_array_t *d = PMIX_SUCCESS == *rc ? calloc(1, sizeof *d) : NULL;
    pmix_info_t *i = NULL != d ? slot(g, rc) : NULL;
    if (NULL == i) {
        *rc = PMIX_SUCCESS == *rc ? PMIX_ERR_NOMEM : *rc;
        free(d);
        return;
    }
    PMIX_LOAD_KEY(i->key, key);
    d->type = PMIX_INFO;
    d->size = inner->n;
    d->array = inner->a;
    i->value.type = PMIX_DATA_ARRAY;
    i->value.data.darray = d;
    memset(inner, 0, sizeof *inner);
}

/* Where a rank is: its node's index and its position there. */
typedef struct {
    const maps_t *m;
    size_t node, pos;
    pmix_rank_t rank;
} where_t;

static void derive_proc(grow_t *g, const where_t *w, pmix_status_t *rc)
{
    uint32_t id = (uint32_t)w->node;
    uint16_t pos = (uint16_t)w->pos;
    if (0 == g->n) {
        add_missing(g, NULL, 0, PMIX_RANK, &w->rank, PMIX_PROC_RANK, rc);
    }
    add_missing(g, g->a, g->n, PMIX_HOSTNAME, w->m->nodes[w->node], PMIX_STRING, rc);
    set_u32(g, PMIX_NODEID, id, rc);
    add_missing(g, g->a, g->n, PMIX_LOCAL_RANK, &pos, PMIX_UINT16, rc);
    add_missing(g, g->a, g->n, PMIX_NODE_RANK, &pos, PMIX_UINT16, rc);
}

/* PMIX_LOCAL_PROCS (PMIx 5): a node's processes of this job as a PMIX_PROC array, unless have
 * (n items) has it. */
static void add_local_procs(grow_t *g, const pmix_info_t *have, size_t n, const maps_t *m,
                            size_t node, pmix_status_t *rc)
{
    pmix_data_array_t d = {.type = PMIX_PROC, .size = m->nranks[node]};
    if (PMIX_SUCCESS != *rc || NULL != wu_info_find(have, n, PMIX_LOCAL_PROCS)) {
        return;
    }
    if (0 < d.size && NULL == (d.array = calloc(d.size, sizeof(pmix_proc_t)))) {
        *rc = PMIX_ERR_NOMEM;
        return;
    }
    for (size_t k = 0; k < d.size; k++) {
        PMIX_LOAD_PROCID(&((pmix_proc_t *)d.array)[k], m->nspace, m->ranks[node][k]);
    }
    add_missing(g, NULL, 0, PMIX_LOCAL_PROCS, &d, PMIX_DATA_ARRAY, rc);
    free(d.array);
}

/* A node's peers, processes, size and leader into g unless have (n items) has them. */
static void derive_peers(grow_t *g, const pmix_info_t *have, size_t n, const maps_t *m, size_t node,
                         pmix_status_t *rc)
{
    uint32_t size = (uint32_t)m->nranks[node];
    pmix_rank_t ldr = lowest(m->ranks[node], m->nranks[node]);
    add_missing(g, have, n, PMIX_LOCAL_PEERS, m->peers[node], PMIX_STRING, rc);
    add_local_procs(g, have, n, m, node, rc);
    add_missing(g, have, n, PMIX_LOCAL_SIZE, &size, PMIX_UINT32, rc);
    if (PMIX_RANK_INVALID != ldr) {
        add_missing(g, have, n, PMIX_LOCALLDR, &ldr, PMIX_PROC_RANK, rc);
    }
}

static void derive_node(grow_t *g, const where_t *w, pmix_status_t *rc)
{
    uint32_t id = (uint32_t)w->node;
    ldr_as_rank(g->a, g->n);
    if (w->m->has_node_size && (int)w->node == w->m->local) {
        add_missing(g, g->a, g->n, PMIX_NODE_SIZE, &w->m->node_size, PMIX_UINT32, rc);
    }
    add_missing(g, g->a, g->n, PMIX_HOSTNAME, w->m->nodes[w->node], PMIX_STRING, rc);
    add_missing(g, g->a, g->n, PMIX_NODEID, &id, PMIX_UINT32, rc);
    derive_peers(g, g->a, g->n, w->m, w->node, rc);
}

/* The host's array items (moved) completed by derive, as key of out. */
static void complete_array(grow_t *out, const char *key, pmix_info_t *a, size_t n,
                           void (*derive)(grow_t *g, const where_t *w, pmix_status_t *rc),
                           const where_t *w, pmix_status_t *rc)
{
    grow_t inner = {0};
    for (size_t i = 0; i < n; i++) {
        move_in(&inner, &a[i], rc);
    }
    derive(&inner, w, rc);
    add_array(out, key, &inner, rc);
    grow_free(&inner);
}

static bool find_rank(const maps_t *m, pmix_rank_t r, where_t *w)
{
    for (size_t i = 0; i < m->n; i++) {
        for (size_t k = 0; k < m->nranks[i]; k++) {
            if (m->ranks[i][k] == r) {
                w->m = m;
                w->node = i;
                w->pos = k;
                w->rank = r;
                return true;
            }
        }
    }
    return false;
}

/* The array of key in info[i], or NULL. */
static pmix_info_t *array_of(const pmix_info_t *i, const char *key, size_t *n)
{
    const pmix_data_array_t *d = i->value.data.darray;
    if (!PMIX_CHECK_KEY(i, key) || PMIX_DATA_ARRAY != i->value.type || NULL == d ||
        PMIX_INFO != d->type || (NULL == d->array && 0 != d->size)) {
        return NULL;
    }
    *n = d->size;
    return d->array;
}

/* The node of the map a PMIX_NODE_INFO_ARRAY names (by hostname or id), or m->n. */
static size_t array_node(const maps_t *m, const pmix_info_t *a, size_t n)
{
    const char *h = info_str(a, n, PMIX_HOSTNAME);
    const pmix_info_t *id = wu_info_find(a, n, PMIX_NODEID);
    for (size_t i = 0; i < m->n; i++) {
        if ((NULL != h && 0 == strcmp(h, m->nodes[i])) ||
            (NULL == h && NULL != id && PMIX_UINT32 == id->value.type &&
             id->value.data.uint32 == i)) {
            return i;
        }
    }
    return m->n;
}

/* The registration (its items moved) into out, with what the maps give added. */
static pmix_status_t derive_all(pmix_info_t *info, size_t ninfo, maps_t *m, grow_t *out)
{
    size_t total = 0;
    bool *node_done = calloc(m->n + 1, sizeof *node_done), *rank_done;
    pmix_status_t rc = NULL == node_done ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    uint32_t nnodes = (uint32_t)m->n;
    const pmix_info_t *u;
    for (size_t i = 0; i < m->n; i++) {
        total += m->nranks[i];
    }
    if (NULL == (rank_done = calloc(total + 1, sizeof *rank_done))) {
        rc = PMIX_ERR_NOMEM;
    }
    /* the job's first: what is looked for below must still be in info */
    add_missing(out, info, ninfo, PMIX_NUM_NODES, &nnodes, PMIX_UINT32, &rc);
    if (NULL == (u = wu_info_find(info, ninfo, PMIX_UNIV_SIZE))) {
        u = wu_info_find(info, ninfo, PMIX_JOB_SIZE);
    }
    if (NULL != u && PMIX_UINT32 == u->value.type) {
        add_missing(out, info, ninfo, PMIX_MAX_PROCS, &u->value.data.uint32, PMIX_UINT32, &rc);
    }
    ldr_as_rank(info, ninfo);
    if (NULL != (u = wu_info_find(info, ninfo, PMIX_NODE_SIZE)) && PMIX_UINT32 == u->value.type) {
        m->has_node_size = true;
        m->node_size = u->value.data.uint32;
    }
    if (m->local >= 0) { /* this node's peers, as job-level data too */
        derive_peers(out, info, ninfo, m, (size_t)m->local, &rc);
    }
    /* the host's items, its process and node arrays completed */
    for (size_t i = 0; i < ninfo && PMIX_SUCCESS == rc; i++) {
        pmix_info_t *a;
        size_t n = 0;
        where_t w = {.m = m};
        pmix_rank_t r;
        if (NULL != (a = array_of(&info[i], PMIX_PROC_DATA, &n)) && wu_proc_data_rank(a, n, &r) &&
            find_rank(m, r, &w)) {
            complete_array(out, PMIX_PROC_DATA, a, n, derive_proc, &w, &rc);
            if (w.rank < total) {
                rank_done[w.rank] = true;
            }
        } else if (NULL != (a = array_of(&info[i], PMIX_NODE_INFO_ARRAY, &n)) &&
                   (w.node = array_node(m, a, n)) < m->n) {
            complete_array(out, PMIX_NODE_INFO_ARRAY, a, n, derive_node, &w, &rc);
            node_done[w.node] = true;
        } else {
            move_in(out, &info[i], &rc);
        }
    }
    /* the processes and nodes the host said nothing of */
    for (size_t i = 0; i < m->n && PMIX_SUCCESS == rc; i++) {
        where_t w = {.m = m, .node = i};
        for (size_t k = 0; k < m->nranks[i] && PMIX_SUCCESS == rc; k++) {
            w.pos = k;
            w.rank = m->ranks[i][k];
            if (w.rank >= total || !rank_done[w.rank]) {
                complete_array(out, PMIX_PROC_DATA, NULL, 0, derive_proc, &w, &rc);
            }
        }
        if (!node_done[i]) {
            complete_array(out, PMIX_NODE_INFO_ARRAY, NULL, 0, derive_node, &w, &rc);
        }
    }
    free(node_done);
    free(rank_done);
    return rc;
}

pmix_status_t wu_srv_derive(const char *nspace, pmix_info_t **info, size_t *ninfo)
{
    maps_t m;
    grow_t out = {0};
    char *list = NULL;
    pmix_status_t rc = PMIX_SUCCESS;
    bool has_list = NULL != wu_info_find(*info, *ninfo, PMIX_NODE_LIST);
    bool mapped = maps_decode(*info, *ninfo, &m);
    m.nspace = nspace;

    if (!has_list) {
        list = derived_node_list(*info, *ninfo);
    }
    if (!mapped && NULL == list) {
        return PMIX_SUCCESS; /* nothing to add */
    }
    if (mapped) {
        rc = derive_all(*info, *ninfo, &m, &out);
    } else {
        for (size_t i = 0; i < *ninfo; i++) {
            move_in(&out, &(*info)[i], &rc);
        }
    }
    if (NULL != list) {
        add_missing(&out, NULL, 0, PMIX_NODE_LIST, list, PMIX_STRING, &rc);
    }
    if (PMIX_SUCCESS == rc) {
        /* the registration with the derived keys replaces the host's (emptied) copy */
        if (NULL != *info) {
            PMIX_INFO_FREE(*info, *ninfo);
        }
        *info = out.a;
        *ninfo = out.n;
    } else {
        grow_free(&out); /* out of memory: the registration fails */
    }
    free(list);
    if (mapped) {
        maps_free(&m);
    }
    return rc;
}
