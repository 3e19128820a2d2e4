/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_hostlist.h -- the compact notations resource managers use for node lists and per-node
 * counts (Slurm's SLURM_JOB_NODELIST, SLURM_TASKS_PER_NODE, SLURM_JOB_CPUS_PER_NODE), expanded
 * into plain lists.
 *
 * Node lists: names separated by commas; a name may hold bracket groups of numbers and ranges,
 * "node[1-3,7]" -> node1 node2 node3 node7. A range's numbers are padded with zeros to the
 * width of its lower bound as written ("n[08-10]" -> n08 n09 n10, "n[8-10]" -> n8 n9 n10).
 * Several groups in one name combine, the last varying fastest ("r[1-2]n[1-2]" -> r1n1 r1n2
 * r2n1 r2n2). Count lists: "4(x3),2" -> 4 4 4 2.
 *
 * Both refuse malformed input (WU_ERR_BAD_PARAM, with a one-line reason) and lists longer than
 * the caller's limit (WU_ERR_OUT_OF_RESOURCE), so that a hostile or broken variable cannot make
 * them allocate without bound. */
#ifndef WU_HOSTLIST_H
#define WU_HOSTLIST_H

#include "opal/util/wu_macros.h"

#include <stddef.h>
#include <stdint.h>

/* Expand expr into *names (an argv vector, wu_argv_free) of *n names, at most max. WU_SUCCESS;
 * WU_ERR_BAD_PARAM (*why says what is wrong: free()); WU_ERR_OUT_OF_RESOURCE (more than max
 * names, *why says so); WU_ERR_NOMEM. *names is NULL on an error. */
WU_EXPORT int wu_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n,
                                 char **why);

/* Expand a count list into *counts (free()) of *n values, at most max values, each 1..vmax.
 * Errors as wu_hostlist_expand. */
WU_EXPORT int wu_hostlist_counts(const char *expr, size_t max, uint32_t vmax, uint32_t **counts,
                                 size_t *n, char **why);

#endif
