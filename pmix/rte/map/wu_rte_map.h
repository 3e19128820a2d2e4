/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_map.h -- where the processes of a job run on one node, and what they are bound to.
 *
 * The launcher loads the node's topology (hwloc; a synthetic or XML one when HWLOC_SYNTHETIC or
 * HWLOC_XMLFILE is set, so mapping is reproducible anywhere), parses the user's --map-by and
 * --bind-to, and maps the job. A placement gives each rank the cpuset it is bound to, that set
 * as a Linux cpu list (PMIX_CPUSET, sched_setaffinity in the child) and Open MPI's locality
 * string (pmix.locstr). The text functions print what mpirun's --report-bindings and
 * --display-map print.
 *
 * Rules (Open MPI 4 as users know it):
 *  - one slot per core, or per hardware thread when mapping by hwthread; more processes than
 *    slots is an error unless oversubscription is allowed (--oversubscribe or :OVERSUBSCRIBE);
 *  - slot and core fill the cores in order, hwthread the hardware threads in order; package
 *    and numa deal the ranks round-robin over the packages / NUMA nodes, each rank taking the
 *    next free core of its object; once every slot is used the same pattern starts again;
 *  - binding when --bind-to is not given: none when the node is oversubscribed; else the
 *    object mapped by when --map-by named one (core, hwthread, package, numa: ORTE 4.1's
 *    rmaps_base_map_job rule); else core for np <= 2 and package for np > 2;
 *  - an explicit --bind-to is always applied, even oversubscribed (ranks then share cpus).
 *
 * Nothing here touches global state; every function is safe to call from any one thread. */
#ifndef WU_RTE_MAP_H
#define WU_RTE_MAP_H

#include "opal/util/wu_macros.h"
#include "pmix/rte/map/wu_rte_jobmap.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stdint.h>

/* A loaded topology (opaque). */
typedef struct wu_rte_topo wu_rte_topo_t;

typedef enum {
    WU_RTE_MAP_SLOT,
    WU_RTE_MAP_CORE,
    WU_RTE_MAP_PACKAGE,
    WU_RTE_MAP_NUMA,
    WU_RTE_MAP_HWTHREAD,
} wu_rte_mapby_t;

typedef enum {
    WU_RTE_BIND_DEFAULT, /* not given: the rules above decide */
    WU_RTE_BIND_NONE,
    WU_RTE_BIND_CORE,
    WU_RTE_BIND_PACKAGE,
    WU_RTE_BIND_NUMA,
    WU_RTE_BIND_HWTHREAD,
} wu_rte_bindto_t;

typedef struct wu_rte_policy {
    wu_rte_mapby_t map;
    bool map_given;     /* --map-by named an object (it then decides the default binding) */
    bool oversubscribe; /* the :OVERSUBSCRIBE modifier */
    wu_rte_bindto_t bind;
    wu_rte_jm_span_t span; /* over the nodes: by slot (default), "node", "ppr:N:node" */
    uint32_t ppr;          /* WU_RTE_JM_PPR: N */
} wu_rte_policy_t;

/* Where one rank runs. */
typedef struct wu_rte_proc_place {
    unsigned slot;         /* logical index of the core (hwthread when mapping by hwthread) */
    hwloc_cpuset_t cpuset; /* what it is bound to; NULL: not bound */
    char *cpulist;         /* cpuset as a Linux cpu list of OS indexes ("0-1,4"); NULL: unbound */
    char *locstr;          /* Open MPI locality string ("NM0:SK0:CR0:HT0-1"); NULL: unbound */
} wu_rte_proc_place_t;

typedef struct wu_rte_placement {
    uint32_t np;
    uint32_t nslots;      /* slots of the node (cores, or hwthreads when mapping by hwthread) */
    bool oversubscribed;  /* np > nslots */
    wu_rte_mapby_t map;   /* as given */
    wu_rte_bindto_t bind; /* as applied: never WU_RTE_BIND_DEFAULT */
    wu_rte_proc_place_t *procs; /* np entries, by rank */
} wu_rte_placement_t;

/* Load this node's topology, or the synthetic description in HWLOC_SYNTHETIC
 * ("package:2 core:4 pu:2"), or the XML file named by HWLOC_XMLFILE. hwloc 2 would read these
 * variables itself but silently falls back to the real machine on a bad value; here a bad value
 * is an error. WU_SUCCESS, WU_ERR_BAD_PARAM (bad synthetic string or XML file), WU_ERR_NOMEM,
 * WU_ERROR (hwloc failed). */
int wu_rte_topo_load(wu_rte_topo_t **out);
/* The same from a synthetic description, or from an XML document in memory. */
int wu_rte_topo_load_synthetic(const char *desc, wu_rte_topo_t **out);
int wu_rte_topo_load_xml(const char *xml, wu_rte_topo_t **out);
void wu_rte_topo_free(wu_rte_topo_t *t);
/* The hwloc topology inside (owned by t). */
hwloc_topology_t wu_rte_topo_hwloc(const wu_rte_topo_t *t);
/* Export as hwloc XML v2 (the value of pmix.hwlocxml2); *xml is freed with free(). */
int wu_rte_topo_xml(const wu_rte_topo_t *t, char **xml);
/* Slots of the node under a mapping policy (pol NULL: cores). */
uint32_t wu_rte_topo_slots(const wu_rte_topo_t *t, const wu_rte_policy_t *pol);

/* Parse --map-by (slot|core|package|socket|numa|hwthread, or how ranks spread over the nodes:
 * node (one per node in turn) or ppr:N:node (N per node), case-insensitive, optionally
 * ":OVERSUBSCRIBE" or ":NOOVERSUBSCRIBE"; ppr:N:package and the like are refused as not
 * supported yet; with node and ppr each node places its ranks by slot) and --bind-to (none|core|package|socket|numa|
 * hwthread). NULL or "" means not given. On a bad value: WU_ERR_BAD_PARAM and, when why is not
 * NULL, a one-line message naming the valid values in *why (free()). */
WU_EXPORT int wu_rte_map_parse(const char *mapby, const char *bindto, wu_rte_policy_t *out,
                               char **why);

/* Map np processes. oversubscribe: the --oversubscribe flag (the :OVERSUBSCRIBE modifier in pol
 * counts the same). WU_SUCCESS; WU_ERR_OUT_OF_RESOURCE when np exceeds the slots and
 * oversubscription is not allowed (the caller shows help-wu-map.txt "not-enough-slots");
 * WU_ERR_BAD_PARAM (np 0, NULL argument); WU_ERR_NOMEM. */
int wu_rte_map(const wu_rte_topo_t *t, uint32_t np, const wu_rte_policy_t *pol, bool oversubscribe,
               wu_rte_placement_t **out);
void wu_rte_placement_free(wu_rte_placement_t *p);

/* Rank's cpu list for sched_setaffinity: *list is a copy (free()), NULL when the rank is not
 * bound. WU_SUCCESS, WU_ERR_BAD_PARAM (rank out of range), WU_ERR_NOMEM. */
int wu_rte_map_cpulist(const wu_rte_placement_t *p, uint32_t rank, char **list);

/* mpirun's --report-bindings line for the process of local rank lrank (its index in p), which
 * is rank of the job, without newline:
 *   [host:pid] MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/../../..][../../../..]
 *   [host:pid] MCW rank 0 is not bound (or bound to all available processors)
 * NULL when out of memory or lrank is out of range. free(). */
char *wu_rte_map_binding_str(const wu_rte_topo_t *t, const wu_rte_placement_t *p, uint32_t lrank,
                             uint32_t rank, const char *host, int pid);
/* The --display-map text for the whole job, mpirun 4.1's layout: a job line, then per node of
 * map "Data for node: NAME  Num slots: N  Max slots: 0  Num procs: K" and a line per rank
 * "Process OMPI jobid: [JOBID] App: A Process rank: R Bound: ...". Bindings are known for the
 * ranks of node mynode only (t and p are its topology and placement, by local rank; both may
 * be NULL when no rank runs here): "UNBOUND" there when a rank is not bound, "N/A" on the
 * other nodes. app: each rank's application context (NULL: all 0). Lines end in '\n'. NULL
 * when out of memory. free(). */
char *wu_rte_map_display(const wu_rte_topo_t *t, const wu_rte_placement_t *p,
                         const wu_rte_jobmap_t *map, uint32_t mynode, const char *jobid,
                         const uint32_t *app);
/* "core", "package", ... for messages. */
const char *wu_rte_mapby_name(wu_rte_mapby_t m);
const char *wu_rte_bindto_name(wu_rte_bindto_t b);

#endif
