/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_hostlist.c -- tests of the node list and count list expansions: ranges, padding,
 * several groups, several items, the limit, and malformed input refused with a reason. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_hostlist.h"
#include "opal/util/wu_macros.h"
#include "test/support/wu_test.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *in;
    const char *want; /* the names joined with ' ' */
} good[] = {
    {"node1", "node1"},
    {"node[1-3]", "node1 node2 node3"},
    {"node[1-3,7]", "node1 node2 node3 node7"},
    {"n[08-10]", "n08 n09 n10"},
    {"n[8-10]", "n8 n9 n10"},
    {"n[001-002],login", "n001 n002 login"},
    {"a,b[1-2],c", "a b1 b2 c"},
    {"r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2"},
    {"[1-2]x", "1x 2x"},
    {"rack[3]-node[5-6].lab", "rack3-node5.lab rack3-node6.lab"},
    {"x[0]", "x0"},
};

START_TEST(expand_good)
{
    char **names = NULL, *why = NULL, *joined;
    size_t n = 0;
    ck_assert_int_eq(WU_SUCCESS, wu_hostlist_expand(good[_i].in, 100, &names, &n, &why));
    ck_assert_ptr_null(why);
    ck_assert_uint_eq(n, (size_t)wu_argv_count(names));
    joined = wu_argv_join(names, ' ');
    ck_assert_str_eq(good[_i].want, joined);
    free(joined);
    wu_argv_free(names);
}
END_TEST

static const char *const bad[] = {
    "",          "node[",     "node[1-3", "node]",    "node[]",
    "node[3-1]", "node[a-b]", "node[1,]", "n[[1]]",   "a,,b",
    "node[1-]",  "no de",     "a;b",      "node[-2]", "n[1234567890123456789]",
    ",",         "a[1]]",
};

START_TEST(expand_bad)
{
    char **names = (char **)1, *why = NULL;
    size_t n = 7;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hostlist_expand(bad[_i], 100, &names, &n, &why));
    ck_assert_ptr_null(names);
    ck_assert_uint_eq(0, n);
    ck_assert_ptr_nonnull(why);
    ck_assert_uint_gt(strlen(why), 5);
    free(why);
}
END_TEST

/* A huge range stops at the limit, quickly, without allocating for all of it. */
START_TEST(expand_limit)
{
    char **names = NULL, *why = NULL;
    size_t n = 0;
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE,
                     wu_hostlist_expand("n[0-999999999999]", 1000, &names, &n, &why));
    ck_assert_ptr_null(names);
    ck_assert_ptr_nonnull(why);
    free(why);
    why = NULL;
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE,
                     wu_hostlist_expand("a[1-40]b[1-40]", 1000, &names, &n, &why));
    free(why);
    ck_assert_int_eq(WU_SUCCESS, wu_hostlist_expand("a[1-40]b[1-25]", 1000, &names, &n, NULL));
    ck_assert_uint_eq(1000, n);
    ck_assert_str_eq("a40b25", names[999]);
    wu_argv_free(names);
}
END_TEST

START_TEST(counts)
{
    uint32_t *v = NULL;
    size_t n = 0;
    char *why = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_hostlist_counts("4(x3),2,1(x2)", 100, 64, &v, &n, &why));
    ck_assert_uint_eq(6, n);
    ck_assert_uint_eq(4, v[0]);
    ck_assert_uint_eq(4, v[2]);
    ck_assert_uint_eq(2, v[3]);
    ck_assert_uint_eq(1, v[5]);
    free(v);
    ck_assert_int_eq(WU_SUCCESS, wu_hostlist_counts("16", 100, 64, &v, &n, &why));
    ck_assert_uint_eq(1, n);
    ck_assert_uint_eq(16, v[0]);
    free(v);
    /* malformed, zero, above the maximum value, too many */
    static const char *const badc[] = {"",   "x",  "4(x3",  "4(x)", "4(3)", "0",     "4,",
                                       ",4", "65", "4(x0)", "-1",   "4 ",   "4(x3)2"};
    for (size_t i = 0; i < WU_NELEMS(badc); i++) {
        ck_assert_msg(WU_ERR_BAD_PARAM == wu_hostlist_counts(badc[i], 100, 64, &v, &n, &why),
                      "'%s' accepted", badc[i]);
        ck_assert_ptr_null(v);
        ck_assert_ptr_nonnull(why);
        free(why);
        why = NULL;
    }
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE,
                     wu_hostlist_counts("1(x99999999999)", 100, 64, &v, &n, &why));
    ck_assert_ptr_null(v);
    free(why);
}
END_TEST

static Suite *hostlist_suite(void)
{
    Suite *s = suite_create("wu_hostlist");
    TCase *tc = tcase_create("hostlist");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, expand_good, 0, WU_NELEMS(good));
    tcase_add_loop_test(tc, expand_bad, 0, WU_NELEMS(bad));
    tcase_add_test(tc, expand_limit);
    tcase_add_test(tc, counts);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(hostlist_suite)
