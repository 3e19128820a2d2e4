/* SPDX-License-Identifier: BSD-3-Clause */
/* check_server_regex.c -- PMIx_generate_regex / PMIx_generate_ppn and their decoders
 * (pmix/common/wu_regex.h): round trips, the plain forms, and malformed input. */
#include "opal/util/wu_argv.h"
#include "pmix/common/wu_regex.h"
#include "test/support/wu_test.h"

#include "pmix.h"
#include "pmix_server.h"

#include <stdlib.h>
#include <string.h>

/* ---- maps -------------------------------------------------------------------------------- */

static const struct {
    const char *in, *enc;
} node_maps[] = {
    {"host1,host2", "wu1:host[1:1-2]"},
    {"n01,n02,n03,login", "wu1:n[2:1-3],login"},
    {"a", "wu1:a"},
    {"n9,n10,n11", "wu1:n9,n[2:10-11]"},
    {"x1,y2,x3", "wu1:x1,y2,x3"},
    {"", "wu1:"},
};

START_TEST(test_node_map)
{
    char *enc = NULL, **dec = NULL, *join;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_generate_regex(node_maps[_i].in, &enc));
    ck_assert_str_eq(node_maps[_i].enc, enc);
    ck_assert_int_eq(PMIX_SUCCESS, wu_regex_nodes_decode(enc, &dec));
    join = wu_argv_join(dec, ',');
    ck_assert_str_eq(node_maps[_i].in, join);
    free(join);
    wu_argv_free(dec);
    /* the plain form decodes too */
    ck_assert_int_eq(PMIX_SUCCESS, wu_regex_nodes_decode(node_maps[_i].in, &dec));
    join = wu_argv_join(dec, ',');
    ck_assert_str_eq(node_maps[_i].in, join);
    free(join);
    wu_argv_free(dec);
    free(enc);
}
END_TEST

static const struct {
    const char *in, *enc;
} proc_maps[] = {
    {"0,1,2,3;4,5,6,7", "wu1:0-3;4-7"},
    {"0,2,4;1,3", "wu1:0,2,4;1,3"},
    {"5", "wu1:5"},
    {"0,1;;2", "wu1:0-1;;2"},
};

START_TEST(test_proc_map)
{
    char *enc = NULL, **dec = NULL, *join;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_generate_ppn(proc_maps[_i].in, &enc));
    ck_assert_str_eq(proc_maps[_i].enc, enc);
    ck_assert_int_eq(PMIX_SUCCESS, wu_regex_ppn_decode(enc, &dec));
    join = wu_argv_join(dec, ';');
    ck_assert_str_eq(proc_maps[_i].in, join);
    free(join);
    wu_argv_free(dec);
    free(enc);
}
END_TEST

START_TEST(test_map_errors)
{
    char *out = NULL, **v = NULL;
    pmix_rank_t *r = NULL;
    size_t n = 0;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_generate_regex(NULL, &out));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_generate_regex("a[1]", &out));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_generate_ppn("0,x", &out));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_generate_ppn("3-1", &out));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_regex_nodes_decode("pmix[n[1-2]]", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_regex_nodes_decode("wu1:n[2:5-1]", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_regex_ppn_decode("wu1:0-", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_regex_ranks_expand("0-99999999", &r, &n));
    ck_assert_int_eq(PMIX_SUCCESS, wu_regex_ranks_expand("0-2,7", &r, &n));
    ck_assert_uint_eq(4, n);
    ck_assert_uint_eq(7, r[3]);
    free(r);
}
END_TEST

static Suite *regex_suite(void)
{
    Suite *s = suite_create("server_regex");
    TCase *maps = tcase_create("maps");
    tcase_add_loop_test(maps, test_node_map, 0, sizeof node_maps / sizeof node_maps[0]);
    tcase_add_loop_test(maps, test_proc_map, 0, sizeof proc_maps / sizeof proc_maps[0]);
    tcase_add_test(maps, test_map_errors);
    suite_add_tcase(s, maps);
    return s;
}

WU_TEST_MAIN(regex_suite)
