/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_map_show.c -- a placement as text: Open MPI's locality string (pmix.locstr), ORTE's
 * --report-bindings line and the --display-map text of a job map.
 *
 * The report line keeps ORTE 4.1's format, which users and scripts know: the bound hwthreads as
 * "socket S[core C[hwt H]]" items joined by ", " (S and C logical indexes of the package and
 * core, H the hwthreads' positions inside the core as a range list), then one [...] group per
 * package with one field per core separated by '/', 'B' for a bound hwthread and '.' for the
 * others. A binding that covers every available processor reads as not bound, as in ORTE.
 * --display-map shows the whole job's map node by node in mpirun 4.1's layout. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "pmix/rte/map/wu_rte_map_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string grown by appending; s is NULL after a failed allocation (later appends no-op). */
typedef struct {
    char *s;
    size_t len;
    bool failed;
} sbuf_t;

static void WU_PRINTF(2, 3) add(sbuf_t *b, const char *fmt, ...)
{
    char *piece = NULL, *grown;
    size_t n;
    va_list ap;
    if (b->failed) {
        return;
    }
    va_start(ap, fmt);
    if (WU_SUCCESS != wu_vasprintf(&piece, fmt, ap)) {
        va_end(ap);
        b->failed = true;
        return;
    }
    va_end(ap);
    n = strlen(piece);
    if (NULL == (grown = realloc(b->s, b->len + n + 1))) {
        free(piece);
        b->failed = true;
        return;
    }
    memcpy(grown + b->len, piece, n + 1);
    b->s = grown;
    b->len += n;
    free(piece);
}

/* The finished string, or NULL (everything freed) after a failure. */
static char *done(sbuf_t *b)
{
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    return NULL != b->s ? b->s : strdup("");
}

/* ---- locality string ----------------------------------------------------------------------- */

static const struct {
    hwloc_obj_type_t type;
    const char *tag;
} loc_levels[] = {
    {HWLOC_OBJ_NUMANODE, "NM"}, {HWLOC_OBJ_PACKAGE, "SK"}, {HWLOC_OBJ_L3CACHE, "L3"},
    {HWLOC_OBJ_L2CACHE, "L2"},  {HWLOC_OBJ_L1CACHE, "L1"}, {HWLOC_OBJ_CORE, "CR"},
    {HWLOC_OBJ_PU, "HT"},
};

/* Each level present in the topology gives "<tag><logical indexes of the objects the binding
 * overlaps>", joined by ':' (opal_hwloc_compute_relative_locality parses it back). */
char *wu_rte_map_locstr(const wu_rte_topo_t *t, hwloc_const_cpuset_t set)
{
    sbuf_t b = {0};
    hwloc_bitmap_t hit = hwloc_bitmap_alloc();
    if (NULL == hit) {
        return NULL;
    }
    for (size_t l = 0; l < sizeof loc_levels / sizeof loc_levels[0]; l++) {
        int n = hwloc_get_nbobjs_by_type(t->topo, loc_levels[l].type);
        char *list = NULL;
        hwloc_bitmap_zero(hit);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, loc_levels[l].type, (unsigned)i);
            if (NULL != o->cpuset && hwloc_bitmap_intersects(o->cpuset, set)) {
                hwloc_bitmap_set(hit, o->logical_index);
            }
        }
        if (hwloc_bitmap_iszero(hit)) {
            continue;
        }
        if (0 > hwloc_bitmap_list_asprintf(&list, hit)) {
            b.failed = true;
            break;
        }
        add(&b, "%s%s%s", 0 == b.len ? "" : ":", loc_levels[l].tag, list);
        free(list);
    }
    hwloc_bitmap_free(hit);
    return done(&b);
}

/* ---- --report-bindings ----------------------------------------------------------------------- */

static bool is_bound(const wu_rte_topo_t *t, hwloc_const_cpuset_t set)
{
    return NULL != set && !hwloc_bitmap_iszero(set) &&
           !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(t->topo), set);
}

/* Logical index of the package holding obj, 0 when there are no packages. */
static unsigned package_of(const wu_rte_topo_t *t, hwloc_obj_t obj)
{
    hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, obj);
    return NULL == p ? 0 : p->logical_index;
}

/* "socket 0[core 0[hwt 0-1]], socket 0[core 1[hwt 0-1]]" */
static void add_items(sbuf_t *b, const wu_rte_topo_t *t, hwloc_const_cpuset_t set)
{
    hwloc_obj_type_t ct =
        0 < hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE) ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    hwloc_bitmap_t hwt = hwloc_bitmap_alloc();
    bool first = true;
    if (NULL == hwt) {
        b->failed = true;
        return;
    }
    for (hwloc_obj_t c = hwloc_get_next_obj_by_type(t->topo, ct, NULL); NULL != c;
         c = hwloc_get_next_obj_by_type(t->topo, ct, c)) {
        int npu = hwloc_get_nbobjs_inside_cpuset_by_type(t->topo, c->cpuset, HWLOC_OBJ_PU);
        char *list = NULL;
        hwloc_bitmap_zero(hwt);
        for (int i = 0; i < npu; i++) {
            hwloc_obj_t pu =
                hwloc_get_obj_inside_cpuset_by_type(t->topo, c->cpuset, HWLOC_OBJ_PU, (unsigned)i);
            if (hwloc_bitmap_isset(set, pu->os_index)) {
                hwloc_bitmap_set(hwt, (unsigned)i);
            }
        }
        if (hwloc_bitmap_iszero(hwt)) {
            continue;
        }
        if (0 > hwloc_bitmap_list_asprintf(&list, hwt)) {
            b->failed = true;
            break;
        }
        add(b, "%ssocket %u[core %u[hwt %s]]", first ? "" : ", ", package_of(t, c),
            HWLOC_OBJ_CORE == ct ? c->logical_index : 0, list);
        free(list);
        first = false;
    }
    hwloc_bitmap_free(hwt);
}

/* "[BB/../../..][../../../..]": one group per package (the whole node when there are none). */
static void add_map(sbuf_t *b, const wu_rte_topo_t *t, hwloc_const_cpuset_t set)
{
    int npk = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PACKAGE);
    hwloc_obj_type_t ct =
        0 < hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE) ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    for (int k = 0; k < (npk > 0 ? npk : 1); k++) {
        hwloc_obj_t pk = npk > 0 ? hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, (unsigned)k)
                                 : hwloc_get_root_obj(t->topo);
        int nc = hwloc_get_nbobjs_inside_cpuset_by_type(t->topo, pk->cpuset, ct);
        add(b, "[");
        for (int c = 0; c < nc; c++) {
            hwloc_obj_t core =
                hwloc_get_obj_inside_cpuset_by_type(t->topo, pk->cpuset, ct, (unsigned)c);
            int npu = hwloc_get_nbobjs_inside_cpuset_by_type(t->topo, core->cpuset, HWLOC_OBJ_PU);
            if (c > 0) {
                add(b, "/");
            }
            for (int i = 0; i < npu; i++) {
                hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(t->topo, core->cpuset,
                                                                     HWLOC_OBJ_PU, (unsigned)i);
                add(b, "%c", hwloc_bitmap_isset(set, pu->os_index) ? 'B' : '.');
            }
        }
        add(b, "]");
    }
}

char *wu_rte_map_binding_str(const wu_rte_topo_t *t, const wu_rte_placement_t *p, uint32_t lrank,
                             uint32_t rank, const char *host, int pid)
{
    sbuf_t b = {0};
    hwloc_const_cpuset_t set;
    if (NULL == t || NULL == p || lrank >= p->np) {
        return NULL;
    }
    set = p->procs[lrank].cpuset;
    add(&b, "[%s:%d] MCW rank %u ", NULL == host ? "localhost" : host, pid, rank);
    if (!is_bound(t, set)) {
        add(&b, "is not bound (or bound to all available processors)");
        return done(&b);
    }
    add(&b, "bound to ");
    add_items(&b, t, set);
    add(&b, ": ");
    add_map(&b, t, set);
    return done(&b);
}

/* ---- --display-map ---------------------------------------------------------------------------- */

/* The layout of mpirun 4.1 (users and scripts read it): a leading space on each line, tabs
 * between the fields of a node line and before each process line. */
#define MAP_RULE " ========================   JOB MAP   ========================"
#define END_RULE " ============================================================="

/* "Bound: ..." of one rank of this node: the report form without its space after ':'. */
static void add_bound(sbuf_t *b, const wu_rte_topo_t *t, const wu_rte_placement_t *p,
                      uint32_t lrank)
{
    hwloc_const_cpuset_t set = NULL != p && lrank < p->np ? p->procs[lrank].cpuset : NULL;
    if (NULL == t || !is_bound(t, set)) {
        add(b, "UNBOUND");
        return;
    }
    add_items(b, t, set);
    add(b, ":");
    add_map(b, t, set);
}

char *wu_rte_map_display(const wu_rte_topo_t *t, const wu_rte_placement_t *p,
                         const wu_rte_jobmap_t *map, uint32_t mynode, const char *jobid,
                         const uint32_t *app)
{
    sbuf_t b = {0};
    unsigned long long total = 0;
    if (NULL == map) {
        return NULL;
    }
    if (NULL == jobid) {
        jobid = "?";
    }
    for (uint32_t i = 0; i < map->nnodes; i++) {
        total += map->nodes[i].slots;
    }
    add(&b, "\n Data for JOB [%s] offset 0 Total slots allocated %llu\n", jobid, total);
    if (NULL != map->mapby) {
        add(&b, " Mapping policy: %s  Ranking policy: %s  Binding policy: %s\n", map->mapby,
            NULL != map->rankby ? map->rankby : "SLOT", NULL != map->bindto ? map->bindto : "NONE");
    }
    add(&b, "\n%s\n", MAP_RULE);
    for (uint32_t i = 0; i < map->nnodes; i++) {
        const wu_rte_jm_node_t *n = &map->nodes[i];
        add(&b, "\n Data for node: %s\tNum slots: %u\tMax slots: 0\tNum procs: %u\n", n->name,
            n->slots, n->nlocal);
        for (uint32_t k = 0; k < n->nlocal; k++) {
            uint32_t r = n->ranks[k];
            add(&b, " \tProcess OMPI jobid: [%s] App: %u Process rank: %u Bound: ", jobid,
                NULL != app ? app[r] : 0, r);
            if (i == mynode) {
                add_bound(&b, t, p, k);
            } else {
                add(&b, "N/A");
            }
            add(&b, "\n");
        }
    }
    add(&b, "\n%s\n", END_RULE);
    return done(&b);
}
