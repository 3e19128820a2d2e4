/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_map.c -- topology loading, policy parsing and the mapper (rules in wu_rte_map.h). The
 * text for users (--report-bindings, --display-map) is in wu_rte_map_show.c. */
#include "pmix/rte/map/wu_rte_map.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_show_help.h"
#include "pmix/rte/map/wu_rte_map_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HELP_FILE "help-wu-map.txt"

/* ---- topology ---------------------------------------------------------------------------- */

/* Keep t's v2 XML (flags 0) in t->xml; NULL when hwloc cannot export it. */
static void export_xml(wu_rte_topo_t *t)
{
    char *buf = NULL;
    int len = 0;
    if (0 == hwloc_topology_export_xmlbuffer(t->topo, &buf, &len, 0) && NULL != buf) {
        t->xml = strdup(buf);
        hwloc_free_xmlbuffer(t->topo, buf);
    }
}

/* Init a topology, let set() choose its source, load it. */
static int load_with(int (*set)(hwloc_topology_t, const void *), const void *arg,
                     wu_rte_topo_t **out)
{
    wu_rte_topo_t *t;
    if (NULL == out) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    if (NULL == (t = calloc(1, sizeof *t))) {
        return WU_ERR_NOMEM;
    }
    if (0 != hwloc_topology_init(&t->topo)) {
        free(t);
        return WU_ERROR;
    }
    if (NULL != set && 0 != set(t->topo, arg)) {
        hwloc_topology_destroy(t->topo);
        free(t);
        return WU_ERR_BAD_PARAM;
    }
    if (0 != hwloc_topology_load(t->topo)) {
        hwloc_topology_destroy(t->topo);
        free(t);
        return NULL != set ? WU_ERR_BAD_PARAM : WU_ERROR;
    }
    export_xml(t);
    *out = t;
    return WU_SUCCESS;
}

static int set_synthetic(hwloc_topology_t topo, const void *desc)
{
    return hwloc_topology_set_synthetic(topo, desc);
}

static int set_xmlfile(hwloc_topology_t topo, const void *path)
{
    return hwloc_topology_set_xml(topo, path);
}

static int set_xmlbuffer(hwloc_topology_t topo, const void *xml)
{
    return hwloc_topology_set_xmlbuffer(topo, xml, (int)strlen(xml) + 1);
}

int wu_rte_topo_load_synthetic(const char *desc, wu_rte_topo_t **out)
{
    if (NULL == desc) {
        return WU_ERR_BAD_PARAM;
    }
    return load_with(set_synthetic, desc, out);
}

int wu_rte_topo_load_xml(const char *xml, wu_rte_topo_t **out)
{
    if (NULL == xml) {
        return WU_ERR_BAD_PARAM;
    }
    return load_with(set_xmlbuffer, xml, out);
}

int wu_rte_topo_load(wu_rte_topo_t **out)
{
    const char *v;
    /* hwloc 2 honours both variables in hwloc_topology_load, but ignores a bad value: choose
     * the source explicitly (an explicit source also takes precedence over the variables). */
    if (NULL != (v = getenv("HWLOC_XMLFILE")) && '\0' != *v) {
        return load_with(set_xmlfile, v, out);
    }
    if (NULL != (v = getenv("HWLOC_SYNTHETIC")) && '\0' != *v) {
        return load_with(set_synthetic, v, out);
    }
    return load_with(NULL, NULL, out);
}

void wu_rte_topo_free(wu_rte_topo_t *t)
{
    if (NULL != t) {
        hwloc_topology_destroy(t->topo);
        free(t->xml);
        free(t);
    }
}

hwloc_topology_t wu_rte_topo_hwloc(const wu_rte_topo_t *t)
{
    return NULL == t ? NULL : t->topo;
}

int wu_rte_topo_xml(const wu_rte_topo_t *t, char **xml)
{
    if (NULL == xml) {
        return WU_ERR_BAD_PARAM;
    }
    *xml = NULL;
    if (NULL == t) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == t->xml) {
        return WU_ERROR;
    }
    *xml = strdup(t->xml); /* the caller frees with free() */
    return NULL == *xml ? WU_ERR_NOMEM : WU_SUCCESS;
}

/* The type a rank occupies: cores, or hwthreads when mapping by hwthread or when the topology
 * has no cores. */
hwloc_obj_type_t wu_rte_map_unit_type(const wu_rte_topo_t *t, wu_rte_mapby_t map)
{
    if (WU_RTE_MAP_HWTHREAD == map || 0 >= hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE)) {
        return HWLOC_OBJ_PU;
    }
    return HWLOC_OBJ_CORE;
}

uint32_t wu_rte_topo_slots(const wu_rte_topo_t *t, const wu_rte_policy_t *pol)
{
    int n;
    if (NULL == t) {
        return 0;
    }
    n = hwloc_get_nbobjs_by_type(t->topo,
                                 wu_rte_map_unit_type(t, NULL == pol ? WU_RTE_MAP_CORE : pol->map));
    return n > 0 ? (uint32_t)n : 0;
}

/* ---- policies ---------------------------------------------------------------------------- */

static const struct {
    const char *name;
    wu_rte_mapby_t map;
} mapby_names[] = {
    {"slot", WU_RTE_MAP_SLOT},      {"core", WU_RTE_MAP_CORE}, {"package", WU_RTE_MAP_PACKAGE},
    {"socket", WU_RTE_MAP_PACKAGE}, {"numa", WU_RTE_MAP_NUMA}, {"hwthread", WU_RTE_MAP_HWTHREAD},
};

static const struct {
    const char *name;
    wu_rte_bindto_t bind;
} bindto_names[] = {
    {"none", WU_RTE_BIND_NONE},      {"core", WU_RTE_BIND_CORE}, {"package", WU_RTE_BIND_PACKAGE},
    {"socket", WU_RTE_BIND_PACKAGE}, {"numa", WU_RTE_BIND_NUMA}, {"hwthread", WU_RTE_BIND_HWTHREAD},
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *wu_rte_mapby_name(wu_rte_mapby_t m)
{
    for (size_t i = 0; i < NELEM(mapby_names); i++) {
        if (mapby_names[i].map == m) {
            return mapby_names[i].name;
        }
    }
    return "unknown";
}

const char *wu_rte_bindto_name(wu_rte_bindto_t b)
{
    if (WU_RTE_BIND_DEFAULT == b) {
        return "default";
    }
    for (size_t i = 0; i < NELEM(bindto_names); i++) {
        if (bindto_names[i].bind == b) {
            return bindto_names[i].name;
        }
    }
    return "unknown";
}

/* A one-line topic of the help file into *why (when why is not NULL); returns BAD_PARAM. */
static int refuse(char **why, const char *topic, ...)
{
    const char *fmt = wu_help_lookup(HELP_FILE, topic);
    va_list ap;
    size_t len;
    if (NULL == why || NULL == fmt) {
        return WU_ERR_BAD_PARAM;
    }
    va_start(ap, topic);
    if (WU_SUCCESS == wu_vasprintf(why, fmt, ap) && 0 < (len = strlen(*why)) &&
        '\n' == (*why)[len - 1]) {
        (*why)[len - 1] = '\0';
    }
    va_end(ap);
    return WU_ERR_BAD_PARAM;
}

/* Apply one modifier of --map-by (after ':'). */
static bool map_modifier(const char *mod, wu_rte_policy_t *pol)
{
    if (0 == strcasecmp(mod, "OVERSUBSCRIBE")) {
        pol->oversubscribe = true;
    } else if (0 == strcasecmp(mod, "NOOVERSUBSCRIBE")) {
        pol->oversubscribe = false;
    } else {
        return false;
    }
    return true;
}

/* "ppr:N:node" (parts after the split at ':'): N ranks on each node, placed by slot there.
 * *used is the number of parts it took. */
static int parse_ppr(char **parts, const char *mapby, wu_rte_policy_t *pol, int *used, char **why)
{
    char *end;
    long n;
    if (NULL == parts[1] || NULL == parts[2]) {
        return refuse(why, "bad-ppr", mapby);
    }
    errno = 0;
    n = strtol(parts[1], &end, 10);
    if (0 != errno || end == parts[1] || '\0' != *end || n < 1 || n > 65535) {
        return refuse(why, "bad-ppr", mapby);
    }
    if (0 != strcasecmp(parts[2], "node")) {
        if (0 == strcasecmp(parts[2], "package") || 0 == strcasecmp(parts[2], "socket") ||
            0 == strcasecmp(parts[2], "numa") || 0 == strcasecmp(parts[2], "core") ||
            0 == strcasecmp(parts[2], "hwthread")) {
            return refuse(why, "ppr-unsupported", parts[2], mapby);
        }
        return refuse(why, "bad-ppr", mapby);
    }
    pol->span = WU_RTE_JM_PPR;
    pol->ppr = (uint32_t)n;
    *used = 3;
    return WU_SUCCESS;
}

static int parse_mapby(const char *mapby, wu_rte_policy_t *pol, char **why)
{
    char **parts, **mods = NULL;
    size_t i;
    int rc = WU_SUCCESS, first_mod = 1;
    if (NULL == (parts = wu_argv_split_with_empty(mapby, ':'))) {
        return WU_ERR_NOMEM;
    }
    if (NULL == parts[0]) {
        rc = refuse(why, "bad-mapby", mapby);
        goto out;
    }
    /* how the ranks spread over the nodes; on each node they then go by slot */
    if (0 == strcasecmp(parts[0], "node")) {
        pol->span = WU_RTE_JM_BYNODE;
        i = 0;
    } else if (0 == strcasecmp(parts[0], "ppr")) {
        if (WU_SUCCESS != (rc = parse_ppr(parts, mapby, pol, &first_mod, why))) {
            goto out;
        }
        i = 0;
    } else {
        for (i = 0; i < NELEM(mapby_names); i++) {
            if (0 == strcasecmp(parts[0], mapby_names[i].name)) {
                pol->map = mapby_names[i].map;
                break;
            }
        }
        if (NELEM(mapby_names) == i) {
            rc = refuse(why, "bad-mapby", mapby);
            goto out;
        }
        pol->map_given = true;
    }
    /* modifiers: "core:OVERSUBSCRIBE", also comma separated as in mpirun */
    for (int p = first_mod; NULL != parts[p]; p++) {
        if ('\0' == parts[p][0]) { /* "core:" */
            rc = refuse(why, "bad-map-modifier", "", mapby);
            goto out;
        }
        wu_argv_free(mods);
        if (NULL == (mods = wu_argv_split_with_empty(parts[p], ','))) {
            rc = WU_ERR_NOMEM;
            goto out;
        }
        for (int m = 0; NULL != mods[m]; m++) {
            if (!map_modifier(mods[m], pol)) {
                rc = refuse(why, "bad-map-modifier", mods[m], mapby);
                goto out;
            }
        }
    }
out:
    wu_argv_free(mods);
    wu_argv_free(parts);
    return rc;
}

int wu_rte_map_parse(const char *mapby, const char *bindto, wu_rte_policy_t *out, char **why)
{
    wu_rte_policy_t pol = {
        .map = WU_RTE_MAP_SLOT, .bind = WU_RTE_BIND_DEFAULT, .span = WU_RTE_JM_BYSLOT};
    int rc;
    if (NULL != why) {
        *why = NULL;
    }
    if (NULL == out) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL != mapby && '\0' != *mapby && WU_SUCCESS != (rc = parse_mapby(mapby, &pol, why))) {
        return rc;
    }
    if (NULL != bindto && '\0' != *bindto) {
        size_t i;
        for (i = 0; i < NELEM(bindto_names); i++) {
            if (0 == strcasecmp(bindto, bindto_names[i].name)) {
                pol.bind = bindto_names[i].bind;
                break;
            }
        }
        if (NELEM(bindto_names) == i) {
            return refuse(why, "bad-bindto", bindto);
        }
    }
    *out = pol;
    return WU_SUCCESS;
}

/* ---- mapping ----------------------------------------------------------------------------- */

/* Objects ranks are dealt over, each with the units (cores or hwthreads) inside it. */
typedef struct {
    hwloc_obj_t *units;
    unsigned n, used;
} bucket_t;

static void buckets_free(bucket_t *b, unsigned nb)
{
    for (unsigned i = 0; NULL != b && i < nb; i++) {
        free(b[i].units);
    }
    free(b);
}

/* One bucket per package / NUMA node with units in it; one for the whole node otherwise (also
 * when the topology lacks the level). */
static int make_buckets(const wu_rte_topo_t *t, wu_rte_mapby_t map, bucket_t **out, unsigned *nb)
{
    hwloc_obj_type_t ut = wu_rte_map_unit_type(t, map), bt = HWLOC_OBJ_MACHINE;
    int nobj;
    bucket_t *b;
    unsigned k = 0;
    if (WU_RTE_MAP_PACKAGE == map) {
        bt = HWLOC_OBJ_PACKAGE;
    } else if (WU_RTE_MAP_NUMA == map) {
        bt = HWLOC_OBJ_NUMANODE;
    }
    if (0 >= (nobj = hwloc_get_nbobjs_by_type(t->topo, bt))) {
        bt = HWLOC_OBJ_MACHINE;
        nobj = 1;
    }
    if (NULL == (b = calloc((size_t)nobj, sizeof *b))) {
        return WU_ERR_NOMEM;
    }
    for (int i = 0; i < nobj; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, bt, (unsigned)i);
        int n = NULL == o || NULL == o->cpuset
                    ? 0
                    : hwloc_get_nbobjs_inside_cpuset_by_type(t->topo, o->cpuset, ut);
        if (n <= 0) {
            continue; /* e.g. a NUMA node without processors */
        }
        if (NULL == (b[k].units = calloc((size_t)n, sizeof(hwloc_obj_t)))) {
            buckets_free(b, k);
            return WU_ERR_NOMEM;
        }
        for (int u = 0; u < n; u++) {
            b[k].units[u] =
                hwloc_get_obj_inside_cpuset_by_type(t->topo, o->cpuset, ut, (unsigned)u);
        }
        b[k].n = (unsigned)n;
        k++;
    }
    if (0 == k) {
        buckets_free(b, 0);
        return WU_ERR_OUT_OF_RESOURCE;
    }
    *out = b;
    *nb = k;
    return WU_SUCCESS;
}

/* The binding the rules of wu_rte_map.h give. */
static wu_rte_bindto_t effective_bind(const wu_rte_policy_t *pol, uint32_t np, bool oversub)
{
    if (WU_RTE_BIND_DEFAULT != pol->bind) {
        return pol->bind;
    }
    if (oversub) {
        return WU_RTE_BIND_NONE;
    }
    if (pol->map_given) {
        switch (pol->map) {
        case WU_RTE_MAP_CORE:
            return WU_RTE_BIND_CORE;
        case WU_RTE_MAP_HWTHREAD:
            return WU_RTE_BIND_HWTHREAD;
        case WU_RTE_MAP_PACKAGE:
            return WU_RTE_BIND_PACKAGE;
        case WU_RTE_MAP_NUMA:
            return WU_RTE_BIND_NUMA;
        case WU_RTE_MAP_SLOT:
            break;
        }
    }
    return np <= 2 ? WU_RTE_BIND_CORE : WU_RTE_BIND_PACKAGE;
}

/* The object of type containing unit, or the whole node when there is none. */
static hwloc_obj_t covering(const wu_rte_topo_t *t, hwloc_obj_t unit, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(t->topo, type);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, type, (unsigned)i);
        if (NULL != o->cpuset && hwloc_bitmap_isincluded(unit->cpuset, o->cpuset)) {
            return o;
        }
    }
    return hwloc_get_root_obj(t->topo);
}

/* What a rank on unit is bound to; nth: how many ranks were on unit before it (binding to
 * hwthreads then spreads them over the unit's hwthreads). */
static hwloc_obj_t bind_target(const wu_rte_topo_t *t, hwloc_obj_t unit, unsigned nth,
                               wu_rte_bindto_t bind)
{
    int npu;
    switch (bind) {
    case WU_RTE_BIND_HWTHREAD:
        if (HWLOC_OBJ_PU == unit->type) {
            return unit;
        }
        npu = hwloc_get_nbobjs_inside_cpuset_by_type(t->topo, unit->cpuset, HWLOC_OBJ_PU);
        return npu <= 0 ? unit
                        : hwloc_get_obj_inside_cpuset_by_type(t->topo, unit->cpuset, HWLOC_OBJ_PU,
                                                              nth % (unsigned)npu);
    case WU_RTE_BIND_CORE:
        return HWLOC_OBJ_CORE == unit->type ? unit : covering(t, unit, HWLOC_OBJ_CORE);
    case WU_RTE_BIND_PACKAGE:
        return covering(t, unit, HWLOC_OBJ_PACKAGE);
    case WU_RTE_BIND_NUMA:
        return covering(t, unit, HWLOC_OBJ_NUMANODE);
    default:
        return NULL;
    }
}

static int place_one(const wu_rte_topo_t *t, wu_rte_proc_place_t *pp, hwloc_obj_t unit,
                     unsigned nth, wu_rte_bindto_t bind)
{
    hwloc_obj_t target = bind_target(t, unit, nth, bind);
    pp->slot = unit->logical_index;
    if (NULL == target) {
        return WU_SUCCESS;
    }
    if (NULL == (pp->cpuset = hwloc_bitmap_dup(target->cpuset)) ||
        0 > hwloc_bitmap_list_asprintf(&pp->cpulist, pp->cpuset) ||
        NULL == (pp->locstr = wu_rte_map_locstr(t, pp->cpuset))) {
        return WU_ERR_NOMEM;
    }
    return WU_SUCCESS;
}

int wu_rte_map(const wu_rte_topo_t *t, uint32_t np, const wu_rte_policy_t *pol, bool oversubscribe,
               wu_rte_placement_t **out)
{
    wu_rte_placement_t *p;
    bucket_t *b = NULL;
    unsigned nb = 0, next = 0, *per_unit = NULL;
    int rc;
    if (NULL == out) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    if (NULL == t || NULL == pol || 0 == np) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == (p = calloc(1, sizeof *p))) {
        return WU_ERR_NOMEM;
    }
    p->np = np;
    p->map = pol->map;
    p->nslots = wu_rte_topo_slots(t, pol);
    p->oversubscribed = np > p->nslots;
    if (p->oversubscribed && !oversubscribe && !pol->oversubscribe) {
        rc = WU_ERR_OUT_OF_RESOURCE;
        goto fail;
    }
    p->bind = effective_bind(pol, np, p->oversubscribed);
    if (NULL == (p->procs = calloc(np, sizeof *p->procs)) ||
        NULL == (per_unit = calloc(p->nslots, sizeof *per_unit))) {
        rc = WU_ERR_NOMEM;
        goto fail;
    }
    if (WU_SUCCESS != (rc = make_buckets(t, pol->map, &b, &nb))) {
        goto fail;
    }
    for (uint32_t r = 0; r < np; r++) {
        unsigned k = next, tries = 0;
        hwloc_obj_t unit;
        /* the next bucket round-robin that still has a free unit; when all are full, a new
         * pass over the node begins */
        while (b[k].used >= b[k].n && ++tries < nb) {
            k = (k + 1) % nb;
        }
        if (b[k].used >= b[k].n) {
            for (unsigned i = 0; i < nb; i++) {
                b[i].used = 0;
            }
            k = next;
        }
        unit = b[k].units[b[k].used++];
        next = (k + 1) % nb;
        rc = place_one(t, &p->procs[r], unit,
                       unit->logical_index < p->nslots ? per_unit[unit->logical_index]++ : 0,
                       p->bind);
        if (WU_SUCCESS != rc) {
            goto fail;
        }
    }
    buckets_free(b, nb);
    free(per_unit);
    *out = p;
    return WU_SUCCESS;
fail:
    buckets_free(b, nb);
    free(per_unit);
    wu_rte_placement_free(p);
    return rc;
}

void wu_rte_placement_free(wu_rte_placement_t *p)
{
    if (NULL == p) {
        return;
    }
    for (uint32_t r = 0; NULL != p->procs && r < p->np; r++) {
        if (NULL != p->procs[r].cpuset) {
            hwloc_bitmap_free(p->procs[r].cpuset);
        }
        free(p->procs[r].cpulist);
        free(p->procs[r].locstr);
    }
    free(p->procs);
    free(p);
}

int wu_rte_map_cpulist(const wu_rte_placement_t *p, uint32_t rank, char **list)
{
    if (NULL == list) {
        return WU_ERR_BAD_PARAM;
    }
    *list = NULL;
    if (NULL == p || rank >= p->np) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == p->procs[rank].cpulist) {
        return WU_SUCCESS;
    }
    *list = strdup(p->procs[rank].cpulist);
    return NULL == *list ? WU_ERR_NOMEM : WU_SUCCESS;
}
