/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_jobmap.c -- the job map: spreading ranks over nodes by slot, by node and per node,
 * oversubscription, local and node ranks, and the strings registration derives from it. */
#include "opal/util/wu_error.h"
#include "pmix/rte/wu_rte_jobmap.h"

#include "test/support/wu_test.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const wu_rte_jm_host_t three[] = {{"n0", 2}, {"n1", 2}, {"n2", 3}};

/* Ranks of each node as the proc list string: "0,1;2,3". */
static const struct {
    const char *what;
    uint32_t np;
    wu_rte_jm_span_t span;
    uint32_t ppr;
    bool over;
    const char *procs; /* wu_rte_jobmap_proc_list */
    const char *nodes; /* wu_rte_jobmap_node_list */
    bool oversubscribed;
} cases[] = {
    {"by slot, fits", 5, WU_RTE_JM_BYSLOT, 0, false, "0,1;2,3;4", "n0,n1,n2", false},
    {"by slot, one node", 2, WU_RTE_JM_BYSLOT, 0, false, "0,1", "n0", false},
    {"by slot, all slots", 7, WU_RTE_JM_BYSLOT, 0, false, "0,1;2,3;4,5,6", "n0,n1,n2", false},
    {"by node", 5, WU_RTE_JM_BYNODE, 0, false, "0,3;1,4;2", "n0,n1,n2", false},
    {"by node, skipping full", 7, WU_RTE_JM_BYNODE, 0, false, "0,3;1,4;2,5,6", "n0,n1,n2", false},
    {"by slot, oversubscribed", 9, WU_RTE_JM_BYSLOT, 0, true, "0,1,7;2,3,8;4,5,6", "n0,n1,n2",
     true},
    {"ppr 1", 3, WU_RTE_JM_PPR, 1, false, "0;1;2", "n0,n1,n2", false},
    {"ppr 2, fewer ranks", 3, WU_RTE_JM_PPR, 2, false, "0,1;2", "n0,n1", false},
    {"ppr 4 over the slots", 8, WU_RTE_JM_PPR, 4, true, "0,1,2,3;4,5,6,7", "n0,n1", true},
};

START_TEST(spreads)
{
    wu_rte_jm_opts_t o = {
        .span = cases[_i].span, .ppr = cases[_i].ppr, .oversubscribe = cases[_i].over};
    wu_rte_jobmap_t *map = NULL;
    char *procs, *nodes;

    ck_assert_int_eq(WU_SUCCESS, wu_rte_jobmap_build(three, 3, cases[_i].np, &o, &map, NULL));
    procs = wu_rte_jobmap_proc_list(map);
    nodes = wu_rte_jobmap_node_list(map);
    ck_assert_msg(0 == strcmp(procs, cases[_i].procs), "%s: procs %s, want %s", cases[_i].what,
                  procs, cases[_i].procs);
    ck_assert_msg(0 == strcmp(nodes, cases[_i].nodes), "%s: nodes %s, want %s", cases[_i].what,
                  nodes, cases[_i].nodes);
    ck_assert_int_eq(cases[_i].oversubscribed, map->oversubscribed);
    /* every rank's node, local rank and node rank agree with the node's rank list */
    for (uint32_t r = 0; r < map->np; r++) {
        const wu_rte_jm_node_t *n = &map->nodes[map->procs[r].node];
        ck_assert_uint_eq(r, n->ranks[map->procs[r].local_rank]);
        ck_assert_uint_eq(map->procs[r].local_rank, map->procs[r].node_rank);
        ck_assert_ptr_eq(n, wu_rte_jobmap_node(map, n->name));
        ck_assert_uint_eq(map->procs[r].node, n->id);
    }
    free(procs);
    free(nodes);
    wu_rte_jobmap_free(map);
}
END_TEST

START_TEST(refuses)
{
    wu_rte_jm_opts_t o = {.span = WU_RTE_JM_BYSLOT};
    wu_rte_jobmap_t *map = (wu_rte_jobmap_t *)0x1;
    wu_rte_jm_host_t dup[] = {{"a", 1}, {"a", 1}}, zero[] = {{"a", 0}}, noname[] = {{NULL, 1}};
    char *why = NULL;

    /* more ranks than slots without oversubscription: the reason says so */
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_jobmap_build(three, 3, 8, &o, &map, &why));
    ck_assert_ptr_nonnull(why);
    ck_assert_ptr_nonnull(strstr(why, "8 processes do not fit in the 7 slots of 3 nodes"));
    free(why);
    o.span = WU_RTE_JM_PPR;
    o.ppr = 2;
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_jobmap_build(three, 3, 7, &o, &map, &why));
    ck_assert_ptr_nonnull(strstr(why, "fewer than the 7 asked for"));
    free(why);
    o.ppr = 3; /* more than n0's 2 slots */
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_jobmap_build(three, 3, 3, &o, &map, &why));
    ck_assert_ptr_nonnull(strstr(why, "3 processes per node exceed the 2 slots of node n0"));
    free(why);
    o.ppr = 0;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(three, 3, 1, &o, &map, NULL));
    o.span = WU_RTE_JM_BYSLOT;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(dup, 2, 1, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(zero, 1, 1, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(noname, 1, 1, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(three, 3, 0, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(three, 0, 1, &o, &map, NULL));
    ck_assert_ptr_null(wu_rte_jobmap_node(NULL, "n0"));
}
END_TEST

START_TEST(peers_string)
{
    wu_rte_jm_opts_t o = {.span = WU_RTE_JM_BYNODE};
    wu_rte_jm_host_t big[] = {{"x", 1000}, {"y", 1000}};
    wu_rte_jobmap_t *map = NULL;
    char *p;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_jobmap_build(big, 2, 2000, &o, &map, NULL));
    p = wu_rte_jobmap_peers(wu_rte_jobmap_node(map, "y"));
    ck_assert_ptr_nonnull(p);
    ck_assert(0 == strncmp(p, "1,3,5,", 6));
    ck_assert_ptr_nonnull(strstr(p, ",1997,1999"));
    ck_assert_uint_eq('9', p[strlen(p) - 1]);
    free(p);
    wu_rte_jobmap_free(map);
}
END_TEST

static Suite *jobmap_suite(void)
{
    Suite *s = suite_create("rte_jobmap");
    TCase *tc = tcase_create("jobmap");
    tcase_add_loop_test(tc, spreads, 0, sizeof cases / sizeof cases[0]);
    tcase_add_test(tc, refuses);
    tcase_add_test(tc, peers_string);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(jobmap_suite)
