/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_map_internal.h -- shared by wu_rte_map.c and wu_rte_map_show.c. */
#ifndef WU_RTE_MAP_INTERNAL_H
#define WU_RTE_MAP_INTERNAL_H

#include "pmix/rte/map/wu_rte_map.h"

struct wu_rte_topo {
    hwloc_topology_t topo;
    /* its v2 XML, exported once when loaded: by the thread that loads it (libxml2 keeps state
     * per thread, which a later export from the progress thread would leave behind) and not
     * again for every job */
    char *xml;
};

/* What one rank occupies under map: HWLOC_OBJ_CORE, or HWLOC_OBJ_PU. */
hwloc_obj_type_t wu_rte_map_unit_type(const wu_rte_topo_t *t, wu_rte_mapby_t map);
/* Open MPI's locality string of a binding (malloc'd), NULL when out of memory. */
char *wu_rte_map_locstr(const wu_rte_topo_t *t, hwloc_const_cpuset_t set);

#endif
