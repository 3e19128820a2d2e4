/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_locality.c -- the locality helpers of the client API: PMIx_Get_relative_locality
 * (how much of the hardware two processes' locality strings share), PMIx_Parse_cpuset_string
 * ("hwloc:<list>" into a pmix_cpuset_t) and PMIx_Get_cpuset (the caller's binding). They need no
 * server, so they also work before PMIx_Init.
 *
 * A locality string (PMIX_LOCALITY_STRING) is a ':'-separated list of levels, each a tag and the
 * logical indexes of the objects of that level the process is bound to, e.g.
 * "SK0:L30:L20:L10:CR0:HT0-1", optionally after the source "hwloc:" (OpenPMIx's form). Tags:
 * NM (NUMA node), SK (package), L3, L2, L1 (caches), CR (core), HT (hardware thread). */
#include "pmix.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    char tag[3];
    pmix_locality_t bit;
} levels[] = {
    {"NM", PMIX_LOCALITY_SHARE_NUMA},     {"SK", PMIX_LOCALITY_SHARE_PACKAGE},
    {"L3", PMIX_LOCALITY_SHARE_L3CACHE},  {"L2", PMIX_LOCALITY_SHARE_L2CACHE},
    {"L1", PMIX_LOCALITY_SHARE_L1CACHE},  {"CR", PMIX_LOCALITY_SHARE_CORE},
    {"HT", PMIX_LOCALITY_SHARE_HWTHREAD},
};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* The index sets of s, one bitmap per level (NULL: level absent). false for a malformed string
 * (a known tag without a valid index list, or no memory); unknown fields are skipped. */
static bool parse_locality(const char *s, hwloc_bitmap_t sets[NLEVELS])
{
    char *copy, *save = NULL;
    bool ok = true;
    if (0 == strncmp(s, "hwloc:", 6)) {
        s += 6;
    }
    if (NULL == (copy = strdup(s))) {
        return false;
    }
    for (char *f = strtok_r(copy, ":", &save); NULL != f && ok; f = strtok_r(NULL, ":", &save)) {
        for (size_t l = 0; l < NLEVELS; l++) {
            if (0 != strncmp(f, levels[l].tag, 2)) {
                continue;
            }
            if (NULL == sets[l] && NULL == (sets[l] = hwloc_bitmap_alloc())) {
                ok = false;
            } else if ('\0' == f[2] || 0 > hwloc_bitmap_list_sscanf(sets[l], f + 2)) {
                ok = false;
            }
            break;
        }
    }
    free(copy);
    return ok;
}

static void free_sets(hwloc_bitmap_t sets[NLEVELS])
{
    for (size_t l = 0; l < NLEVELS; l++) {
        hwloc_bitmap_free(sets[l]); /* NULL is a no-op */
    }
}

pmix_status_t PMIx_Get_relative_locality(const char *locality1, const char *locality2,
                                         pmix_locality_t *locality)
{
    hwloc_bitmap_t a[NLEVELS] = {NULL}, b[NLEVELS] = {NULL};
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL == locality1 || NULL == locality2 || NULL == locality) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!parse_locality(locality1, a) || !parse_locality(locality2, b)) {
        rc = PMIX_ERR_BAD_PARAM;
    } else {
        /* two processes with locality strings are on the same node */
        *locality = PMIX_LOCALITY_SHARE_NODE;
        for (size_t l = 0; l < NLEVELS; l++) {
            if (NULL != a[l] && NULL != b[l] && hwloc_bitmap_intersects(a[l], b[l])) {
                *locality |= levels[l].bit;
            }
        }
    }
    free_sets(a);
    free_sets(b);
    return rc;
}

pmix_status_t PMIx_Parse_cpuset_string(const char *cpuset_string, pmix_cpuset_t *cpuset)
{
    hwloc_bitmap_t set;
    if (NULL == cpuset_string || NULL == cpuset) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 != strncmp(cpuset_string, "hwloc:", 6)) {
        return PMIX_ERR_NOT_SUPPORTED; /* another source's form */
    }
    if (NULL == (set = hwloc_bitmap_alloc())) {
        return PMIX_ERR_NOMEM;
    }
    if (0 > hwloc_bitmap_list_sscanf(set, cpuset_string + 6)) {
        hwloc_bitmap_free(set);
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (cpuset->source = strdup("hwloc"))) {
        hwloc_bitmap_free(set);
        return PMIX_ERR_NOMEM;
    }
    cpuset->bitmap = set;
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t *cpuset, pmix_bind_envelope_t ref)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t set;
    int flags;
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL == cpuset || (PMIX_CPUBIND_PROCESS != ref && PMIX_CPUBIND_THREAD != ref)) {
        return PMIX_ERR_BAD_PARAM;
    }
    flags = PMIX_CPUBIND_THREAD == ref ? HWLOC_CPUBIND_THREAD : HWLOC_CPUBIND_PROCESS;
    if (0 != hwloc_topology_init(&topo)) {
        return PMIX_ERR_NOMEM;
    }
    if (0 != hwloc_topology_load(topo)) {
        hwloc_topology_destroy(topo);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    if (NULL == (set = hwloc_bitmap_alloc())) {
        rc = PMIX_ERR_NOMEM;
    } else if (0 != hwloc_get_cpubind(topo, set, flags)) {
        rc = PMIX_ERR_NOT_AVAILABLE;
    } else if (NULL == (cpuset->source = strdup("hwloc"))) {
        rc = PMIX_ERR_NOMEM;
    }
    hwloc_topology_destroy(topo);
    if (PMIX_SUCCESS != rc) {
        hwloc_bitmap_free(set);
        return rc;
    }
    cpuset->bitmap = set;
    return PMIX_SUCCESS;
}
