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

#include "opal/util/wu_macros.h"

#include <stdbool.h>
#include <stdint.h>

/* A node the job may use. In a launcher's spec (wu_rte_spec_t) slots 0 means "not given": the
 * node has as many slots as this node (cores, or hwthreads when mapping by hwthread), as the
 * head node cannot see the cores of the others; wu_rte_jobmap_build needs slots >= 1. */
typedef struct wu_rte_jm_host {
    const char *name;
    uint32_t slots;
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

/* ---- the hosts a user names (wrun's -H and --hostfile) --------------------------------------
 *
 * -H host[:N],...: N slots, 1 when omitted (Open MPI's -H rule). A hostfile (Open MPI syntax):
 * one host per line, "host [slots=N] [max_slots=M]", '#' starts a comment, blank lines are
 * skipped; a host without slots= has this node's slot count (slots 0 in the list). In both, a
 * host named again adds its slots to the first entry (Open MPI merges them) and keeps its place.
 * Names of this node ("localhost", 127.0.0.1, ::1, its hostname with or without the domain) are
 * stored as this node's hostname, so that they merge and match each other. */
typedef struct wu_rte_hostent {
    char *name;
    uint32_t slots;     /* 0: not given (hostfile line without slots=) */
    uint32_t max_slots; /* max_slots= of the hostfile (0: none); checked, not used otherwise */
    bool slots_given;   /* some mention gave a count (-H host:N, slots=N) */
} wu_rte_hostent_t;

typedef struct wu_rte_hostlist {
    wu_rte_hostent_t *ent;
    uint32_t n;
} wu_rte_hostlist_t;

/* Is name this node? */
WU_EXPORT bool wu_rte_host_is_local(const char *name);
/* Is name usable as a host name, whatever gave it (-H, a hostfile, an allocation, PMIX_HOST)?
 * Letters, digits, '.', '-' and '_', not starting with '-' or '.', at most 255 characters, with
 * "user@" before it if wanted. So no host can reach a launch agent as an option or carry shell
 * or ssh syntax. WU_SUCCESS; WU_ERR_BAD_PARAM with *why (free(); why may be NULL) saying what
 * is wrong and what is allowed; WU_ERR_NOMEM. */
WU_EXPORT int wu_rte_host_name_check(const char *name, char **why);
/* Add one -H value ("h1,h2:4"). WU_SUCCESS; WU_ERR_BAD_PARAM (empty name, a count that is not
 * 1..65535, or a name wu_rte_host_name_check refuses: then *why says so, if why is not NULL);
 * WU_ERR_NOMEM. The list is unchanged on an error. */
WU_EXPORT int wu_rte_hosts_parse_arg(wu_rte_hostlist_t *l, const char *arg, char **why);
/* Add the hosts of a hostfile. WU_SUCCESS; WU_ERR_NOT_FOUND (cannot be read) or
 * WU_ERR_BAD_PARAM (a bad line, or no host at all) with *why "FILE:LINE: what is wrong" or
 * "cannot read FILE: reason" (free()); WU_ERR_NOMEM. */
WU_EXPORT int wu_rte_hosts_parse_file(wu_rte_hostlist_t *l, const char *path, char **why);
/* -H together with a hostfile: keep the hostfile's hosts that -H names, in the hostfile's order,
 * with the -H count where -H gave one. WU_SUCCESS; WU_ERR_NOT_FOUND when a host of sel is not in
 * file (*missing names it; not freed separately); WU_ERR_NOMEM. */
WU_EXPORT int wu_rte_hosts_filter(wu_rte_hostlist_t *file, const wu_rte_hostlist_t *sel,
                                  const char **missing);
/* The list as job map hosts (names borrowed from l; free() the array). NULL when empty or out
 * of memory. */
WU_EXPORT wu_rte_jm_host_t *wu_rte_hosts_jm(const wu_rte_hostlist_t *l);
WU_EXPORT void wu_rte_hosts_free(wu_rte_hostlist_t *l);

#endif
