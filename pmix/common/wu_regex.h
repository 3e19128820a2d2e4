/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_regex.h -- Wireup's compact encodings of node lists and per-node rank lists, the values of
 * PMIX_NODE_MAP and PMIX_PROC_MAP made by PMIx_generate_regex and PMIx_generate_ppn.
 *
 * Both encodings start with the tag "wu1:" so a reader can tell them from other formats.
 *   node map  "wu1:" + the node names in order, separated by ','. A run of names that differ
 *             only in a trailing decimal number of the same width, counting up by one, is
 *             written "prefix[w:a-b]suffix-free": e.g. "n01,n02,n03,login" -> "wu1:n[2:1-3],login".
 *             (w is the zero-padded width of the numbers, a-b the range.) Names must not
 *             contain ',', '[' or ']'.
 *   proc map  "wu1:" + one entry per node, separated by ';', each the node's ranks as
 *             comma-separated ranges in the given order: "0,1,2,3;4,5,6,7" -> "wu1:0-3;4-7",
 *             "0,2,4;1,3" -> "wu1:0,2,4;1,3". A node without ranks is an empty entry.
 * The parsers also accept the plain forms without the tag ("a,b" and "0,1;2,3"), which is what
 * a host that does not call the generators passes. */
#ifndef WU_REGEX_H
#define WU_REGEX_H

#include "opal/util/wu_macros.h"
#include "pmix_common.h"

#include <stddef.h>

#define WU_REGEX_TAG "wu1:"

/* Encode a comma-separated node list. *out is malloc'd. PMIX_ERR_BAD_PARAM (NULL, a name with
 * '[' or ']'), PMIX_ERR_NOMEM. */
pmix_status_t wu_regex_nodes_encode(const char *list, char **out);
/* Encode per-node rank lists ("0,1;2,3"). *out is malloc'd. PMIX_ERR_BAD_PARAM (NULL, a rank
 * that is not a decimal number below PMIX_RANK_VALID), PMIX_ERR_NOMEM. */
pmix_status_t wu_regex_ppn_encode(const char *list, char **out);

/* Decode a node map (tagged or plain) into an argv of node names (wu_argv_free). An empty map
 * gives an empty argv. PMIX_ERR_BAD_PARAM for a malformed map (a foreign format such as
 * OpenPMIx's "pmix[...]" included), PMIX_ERR_NOMEM. */
pmix_status_t wu_regex_nodes_decode(const char *map, char ***nodes);
/* The nodes of a node map as a comma-separated list (PMIX_NODE_LIST's form), malloc'd; NULL for
 * a map without nodes. The errors of wu_regex_nodes_decode. */
pmix_status_t wu_regex_node_list(const char *map, char **list);
/* Decode a proc map (tagged or plain) into an argv with one entry per node: that node's ranks
 * expanded and comma-separated ("0,1,2,3"), the format of PMIX_LOCAL_PEERS. */
pmix_status_t wu_regex_ppn_decode(const char *map, char ***per_node);
/* Expand one rank list ("0-3,8", as in a proc map entry, or "0,1,2") into a malloc'd array
 * (*ranks NULL when *n is 0). PMIX_ERR_BAD_PARAM on malformed input or more than 1<<24 ranks. */
pmix_status_t wu_regex_ranks_expand(const char *list, pmix_rank_t **ranks, size_t *n);

/* The reverse for messages: ranks (in the given order) as ranges, "0-3,8". *out is malloc'd
 * ("" for none). PMIX_ERR_BAD_PARAM, PMIX_ERR_NOMEM. */
WU_EXPORT pmix_status_t wu_regex_ranks_compress(const pmix_rank_t *ranks, size_t n, char **out);

#endif
