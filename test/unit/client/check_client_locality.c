/* SPDX-License-Identifier: BSD-3-Clause */
/* check_client_locality.c -- the locality helpers without a server: PMIx_Get_relative_locality
 * (the bits OpenPMIx 4.2 computes for the same strings, with and without the "hwloc:" source),
 * PMIx_Parse_cpuset_string and PMIx_Get_cpuset (compared with sched_getaffinity), bad input. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity */
#endif
#include "test/support/wu_test.h"

#include "pmix.h"

#include <hwloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

static pmix_locality_t rel(const char *a, const char *b)
{
    pmix_locality_t l = 0;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get_relative_locality(a, b, &l));
    return l;
}

START_TEST(relative_locality)
{
    /* the values OpenPMIx 4.2.2 gives for these pairs */
    ck_assert_uint_eq(0x4030,
                      rel("hwloc:SK0:L30:L20:L10:CR0:HT0-1", "hwloc:SK0:L30:L21:L11:CR1:HT2-3"));
    ck_assert_uint_eq(0x403f,
                      rel("hwloc:SK0:L30:L20:L10:CR0:HT0-1", "hwloc:SK0:L30:L20:L10:CR0:HT0-1"));
    ck_assert_uint_eq(
        0x407e, rel("hwloc:NM0:SK0:L30:L20:L10:CR0:HT0", "hwloc:NM0:SK0:L30:L20:L10:CR0:HT1"));
    ck_assert_uint_eq(PMIX_LOCALITY_SHARE_NODE, rel("hwloc:SK0:CR0", "hwloc:SK1:CR1"));
    ck_assert_uint_eq(PMIX_LOCALITY_SHARE_NODE, rel("hwloc:SK0", "hwloc:CR0"));
    /* Wireup's own PMIX_LOCALITY_STRING has no source prefix; ranges overlap */
    ck_assert_uint_eq(PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_NUMA |
                          PMIX_LOCALITY_SHARE_PACKAGE | PMIX_LOCALITY_SHARE_CORE,
                      rel("NM0:SK0-1:CR0-3:HT0-7", "NM0:SK1:CR3:HT8"));
    ck_assert_uint_eq(PMIX_LOCALITY_SHARE_NODE, rel("", ""));
    ck_assert_uint_eq(PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_CORE,
                      rel("XX0:CR0", "hwloc:CR0:YY1"));
}
END_TEST

START_TEST(relative_locality_bad)
{
    pmix_locality_t l = 0;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_relative_locality(NULL, "SK0", &l));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_relative_locality("SK0", NULL, &l));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_relative_locality("SK0", "SK0", NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_relative_locality("SKx:CR0", "SK0", &l));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_relative_locality("SK0", "CR", &l));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_relative_locality("hwloc:", "CRz", &l));
}
END_TEST

static char *list_of(const pmix_cpuset_t *c)
{
    char *s = NULL;
    ck_assert_str_eq("hwloc", c->source);
    ck_assert_ptr_nonnull(c->bitmap);
    ck_assert_int_ge(hwloc_bitmap_list_asprintf(&s, (hwloc_const_bitmap_t)c->bitmap), 0);
    return s;
}

START_TEST(parse_cpuset)
{
    pmix_cpuset_t c;
    char *s;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:0,2,5-6", &c));
    s = list_of(&c);
    ck_assert_str_eq("0,2,5-6", s);
    free(s);
    PMIx_Cpuset_destruct(&c);
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:", &c));
    ck_assert(hwloc_bitmap_iszero(c.bitmap));
    PMIx_Cpuset_destruct(&c);
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, PMIx_Parse_cpuset_string("0-3", &c));
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, PMIx_Parse_cpuset_string("foo:0-3", &c));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Parse_cpuset_string("hwloc:abc", &c));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Parse_cpuset_string(NULL, &c));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Parse_cpuset_string("hwloc:0", NULL));
    ck_assert_ptr_null(c.source);
    ck_assert_ptr_null(c.bitmap);
}
END_TEST

START_TEST(get_cpuset)
{
    pmix_cpuset_t c;
    cpu_set_t mask;
    int n = 0;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(0, sched_getaffinity(0, sizeof mask, &mask));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get_cpuset(&c, PMIX_CPUBIND_PROCESS));
    free(list_of(&c));
    for (int i = 0; i < CPU_SETSIZE; i++) {
        if (CPU_ISSET(i, &mask)) {
            ck_assert(hwloc_bitmap_isset(c.bitmap, (unsigned)i));
            n++;
        }
    }
    ck_assert_int_eq(n, hwloc_bitmap_weight(c.bitmap));
    PMIx_Cpuset_destruct(&c);
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get_cpuset(&c, PMIX_CPUBIND_THREAD));
    ck_assert_int_eq(n, hwloc_bitmap_weight(c.bitmap));
    PMIx_Cpuset_destruct(&c);
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_cpuset(&c, (pmix_bind_envelope_t)7));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_cpuset(NULL, PMIX_CPUBIND_PROCESS));
    ck_assert_ptr_null(c.source);
}
END_TEST

static Suite *locality_suite(void)
{
    Suite *s = suite_create("client_locality");
    TCase *tc = tcase_create("locality");
    tcase_add_test(tc, relative_locality);
    tcase_add_test(tc, relative_locality_bad);
    tcase_add_test(tc, parse_cpuset);
    tcase_add_test(tc, get_cpuset);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(locality_suite)
