/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_jobmap.h -- the job map: which node runs which ranks of a job (ORTE's job map).
 *
 * The launcher computes it once, before anything starts, from the nodes it may use (name and
 * slots), the number of processes and the user's spreading options; everything that states a
 * placement fact is derived from it and from nothing else: the registration of the job with
 * the PMIx server (NUM_NODES, NODE_MAP, PROC_MAP, LOCAL_PEERS, LOCAL_SIZE, LOCAL_RANK,
 * NODE_RANK, NODEID, hostnames, MAPBY), the environment of each process (pmdl), and what the
 * process launcher gets. How the ranks of one node sit on its cores is the node-level
 * placement of wu_rte_map.h, indexed by local rank.
 *
 * Spreading rules (mpirun's, as users know them):
 *  - by slot (default): fill each node up to its slots, in node order;
 *  - by node: one rank per node in turn, skipping full nodes;
 *  - ppr N per node (--npernode N, --map-by ppr:N:node): N ranks on each node in node order;
 *  - more ranks than slots is an error unless oversubscription is allowed; then the ranks left
 *    over are dealt one per node in turn (--oversubscribe).
 * Local ranks number a node's ranks from 0 in rank order; with one job per launcher the node
 * rank equals the local rank. */
#ifndef WU_RTE_JOBMAP_H
#define WU_RTE_JOBMAP_H

#include <stdbool.h>
#include <stdint.h>

/* A node the job may use. */
typedef struct wu_rte_jm_host {
    const char *name;
    uint32_t slots; /* >= 1 */
} wu_rte_jm_host_t;

typedef enum {
    WU_RTE_JM_BYSLOT,
    WU_RTE_JM_BYNODE,
    WU_RTE_JM_PPR, /* a fixed number per node */
} wu_rte_jm_span_t;

typedef struct wu_rte_jm_opts {
    wu_rte_jm_span_t span;
    uint32_t ppr;       /* WU_RTE_JM_PPR: ranks per node */
    bool oversubscribe; /* more ranks than slots is allowed */
} wu_rte_jm_opts_t;

typedef struct wu_rte_jm_node {
    char *name;
    uint32_t id;     /* PMIX_NODEID: its index in the map */
    uint32_t slots;  /* as given */
    uint32_t nlocal; /* ranks of the job on it */
    uint32_t *ranks; /* nlocal ranks, ascending */
} wu_rte_jm_node_t;

typedef struct wu_rte_jm_proc {
    uint32_t node;       /* index into nodes */
    uint32_t local_rank; /* among the job's ranks on its node */
    uint32_t node_rank;  /* among every rank the launcher runs on that node */
} wu_rte_jm_proc_t;

typedef struct wu_rte_jobmap {
    uint32_t np;
    uint32_t nnodes; /* nodes with at least one rank (nodes without any are left out) */
    wu_rte_jm_node_t *nodes;
    wu_rte_jm_proc_t *procs; /* np entries, by rank */
    bool oversubscribed;     /* some node runs more ranks than its slots */
    /* the policy as registered (PMIX_MAPBY "BYCORE:NOOVERSUBSCRIBE", PMIX_RANKBY "SLOT",
     * PMIX_BINDTO "CORE:IF-SUPPORTED"), set by the launcher; freed with the map */
    char *mapby, *rankby, *bindto;
} wu_rte_jobmap_t;

/* Map np ranks onto the hosts. WU_SUCCESS; WU_ERR_OUT_OF_RESOURCE when the ranks do not fit
 * and oversubscription is not allowed, or ppr cannot place them all (with *why a one-line
 * explanation, free()); WU_ERR_BAD_PARAM (no host, np 0, a host without a name or with 0 slots,
 * ppr 0, the same host twice); WU_ERR_NOMEM. */
int wu_rte_jobmap_build(const wu_rte_jm_host_t *hosts, uint32_t nhosts, uint32_t np,
                        const wu_rte_jm_opts_t *opts, wu_rte_jobmap_t **out, char **why);
void wu_rte_jobmap_free(wu_rte_jobmap_t *map);

/* The node named name, or NULL. */
const wu_rte_jm_node_t *wu_rte_jobmap_node(const wu_rte_jobmap_t *map, const char *name);
/* The ranks of a node as "0,1,5" (PMIX_LOCAL_PEERS); NULL when out of memory. free(). */
char *wu_rte_jobmap_peers(const wu_rte_jm_node_t *node);
/* The node names in map order, comma-separated (input of PMIx_generate_regex, and
 * PMIX_NODE_LIST); NULL when out of memory. free(). */
char *wu_rte_jobmap_node_list(const wu_rte_jobmap_t *map);
/* The ranks of every node, nodes separated by ';' ("0,1;2,3": input of PMIx_generate_ppn);
 * NULL when out of memory. free(). */
char *wu_rte_jobmap_proc_list(const wu_rte_jobmap_t *map);

#endif
