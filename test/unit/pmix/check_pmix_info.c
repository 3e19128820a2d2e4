/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_info.c -- PMIx_Info_load/xfer and the PMIx_Info_list_* builder.
 *
 * Expected results are OpenPMIx 4.2.2's, observed with a probe against its library: load resets
 * the flags, xfer copies them, a PMIX_INFO_PERSISTENT source lends its value, list insert lends
 * (and marks persistent), and converting an empty list is PMIX_ERR_EMPTY. Also the library's
 * own copies (wu_info_copy, wu_info_dup), always deep. */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "pmix_common.h"

#include "opal/util/wu_macros.h"
#include "pmix/common/wu_value.h"
#include "test/support/wu_test.h"

START_TEST(load_basic)
{
    pmix_info_t *infos;
    int x = 42;

    PMIX_INFO_CREATE(infos, 2);
    ck_assert_ptr_nonnull(infos);
    ck_assert_uint_eq(PMIX_INFO_ARRAY_END, infos[1].flags);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&infos[1], "key", &x, PMIX_INT));
    ck_assert_uint_eq(0, infos[1].flags); /* load resets the flags, end marker included */
    ck_assert_str_eq("key", infos[1].key);
    ck_assert_uint_eq(PMIX_INT, infos[1].value.type);
    ck_assert_int_eq(42, infos[1].value.data.integer);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&infos[0], "flag", NULL, PMIX_BOOL));
    ck_assert(infos[0].value.data.flag); /* NULL data with PMIX_BOOL means true */
    PMIX_INFO_FREE(infos, 2);
}
END_TEST

START_TEST(load_long_key_truncated)
{
    char big[600];
    pmix_info_t info;

    memset(big, 'k', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&info, big, "v", PMIX_STRING));
    ck_assert_uint_eq(PMIX_MAX_KEYLEN, strnlen(info.key, sizeof(info.key)));
    PMIx_Value_destruct(&info.value);
}
END_TEST

START_TEST(load_and_xfer_bad_params)
{
    pmix_info_t a, b;
    int x = 1;

    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_load(NULL, "k", &x, PMIX_INT));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_load(&a, NULL, &x, PMIX_INT));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&a, "k", &x, PMIX_INT));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_xfer(NULL, &a));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_xfer(&b, NULL));
}
END_TEST

static const pmix_info_directives_t xfer_flags[] = {0x0, 0x1, 0x9, 0x20009, 0xffffffef};

START_TEST(xfer_copies_flags_and_value)
{
    pmix_info_t a, b;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&a, "k", "text", PMIX_STRING));
    a.flags = xfer_flags[_i];
    memset(&b, 0xff, sizeof(b));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_xfer(&b, &a));
    ck_assert_uint_eq(xfer_flags[_i], b.flags);
    ck_assert_str_eq("k", b.key);
    ck_assert_str_eq("text", b.value.data.string);
    ck_assert_ptr_ne(a.value.data.string, b.value.data.string);
    PMIx_Value_destruct(&a.value);
    PMIx_Value_destruct(&b.value);
}
END_TEST

START_TEST(xfer_persistent_lends_value)
{
    pmix_info_t a, b;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&a, "k", "text", PMIX_STRING));
    a.flags = PMIX_INFO_PERSISTENT;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_xfer(&b, &a));
    ck_assert_uint_eq(PMIX_INFO_PERSISTENT, b.flags);
    ck_assert_ptr_eq(a.value.data.string, b.value.data.string);
    PMIx_Value_destruct(&a.value); /* only the owner releases */
}
END_TEST

/* What the library keeps of a caller's info is its own, whatever the caller's flags say:
 * python3-pmix's arrays come from malloc and may carry PMIX_INFO_PERSISTENT by chance. */
START_TEST(internal_copies_are_deep)
{
    pmix_info_t a, b, *dup = NULL;
    size_t ndup = 0;

    PMIX_INFO_CONSTRUCT(&b);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_load(&a, "k", "text", PMIX_STRING));
    a.flags = PMIX_INFO_PERSISTENT | PMIX_INFO_REQD;
    ck_assert_int_eq(PMIX_SUCCESS, wu_info_copy(&b, &a));
    ck_assert_uint_eq(PMIX_INFO_REQD, b.flags);
    ck_assert_ptr_ne(a.value.data.string, b.value.data.string);
    ck_assert_str_eq("text", b.value.data.string);
    ck_assert_int_eq(PMIX_SUCCESS, wu_info_dup(&dup, &ndup, &a, 1));
    ck_assert_uint_eq(1, ndup);
    ck_assert_ptr_ne(a.value.data.string, dup[0].value.data.string);
    PMIx_Value_destruct(&a.value); /* the caller's value gone: the copies stay readable */
    ck_assert_str_eq("text", b.value.data.string);
    ck_assert_str_eq("text", dup[0].value.data.string);
    PMIX_INFO_DESTRUCT(&b);
    PMIX_INFO_FREE(dup, ndup);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_info_copy(NULL, &a));
}
END_TEST

START_TEST(list_add_insert_xfer_convert)
{
    void *l = PMIx_Info_list_start();
    int x = 1;
    pmix_info_t ins, xf;
    pmix_data_array_t da = {PMIX_UNDEF, 0, NULL};

    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(l, "a", &x, PMIX_INT));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(l, "b", "v", PMIX_STRING));
    PMIx_Info_load(&ins, "c", "lent", PMIX_STRING);
    ins.flags = PMIX_INFO_REQD;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_insert(l, &ins));
    PMIx_Info_load(&xf, "d", "copied", PMIX_STRING);
    xf.flags = PMIX_INFO_REQD;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_xfer(l, &xf));
    PMIx_Value_destruct(&xf.value); /* the list holds its own copy */

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_convert(l, &da));
    ck_assert_uint_eq(PMIX_INFO, da.type);
    ck_assert_uint_eq(4, da.size);
    pmix_info_t *a = da.array;
    ck_assert_str_eq("a", a[0].key);
    ck_assert_uint_eq(0, a[0].flags);
    ck_assert_int_eq(1, a[0].value.data.integer);
    ck_assert_str_eq("b", a[1].key);
    ck_assert_str_eq("v", a[1].value.data.string);
    ck_assert_str_eq("c", a[2].key);
    ck_assert_uint_eq(PMIX_INFO_REQD | PMIX_INFO_PERSISTENT, a[2].flags);
    ck_assert_ptr_eq(ins.value.data.string, a[2].value.data.string); /* still lent */
    ck_assert_str_eq("d", a[3].key);
    ck_assert_uint_eq(PMIX_INFO_REQD, a[3].flags);
    ck_assert_str_eq("copied", a[3].value.data.string);

    PMIx_Info_list_release(l);
    ck_assert_str_eq("lent", ins.value.data.string); /* release left the lent value alone */
    PMIx_Data_array_destruct(&da);
    ck_assert_str_eq("lent", ins.value.data.string);
    PMIx_Value_destruct(&ins.value);
}
END_TEST

START_TEST(list_many_items_grow)
{
    void *l = PMIx_Info_list_start();
    pmix_data_array_t da;
    char key[16];

    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof(key), "k%d", i);
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(l, key, &i, PMIX_INT));
    }
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_convert(l, &da));
    ck_assert_uint_eq(1000, da.size);
    ck_assert_str_eq("k999", ((pmix_info_t *)da.array)[999].key);
    ck_assert_int_eq(999, ((pmix_info_t *)da.array)[999].value.data.integer);
    PMIx_Info_list_release(l);
    PMIx_Data_array_destruct(&da);
}
END_TEST

START_TEST(list_errors)
{
    void *l = PMIx_Info_list_start();
    pmix_data_array_t da = {PMIX_UNDEF, 0, NULL};
    int x = 1;

    ck_assert_int_eq(PMIX_ERR_EMPTY, PMIx_Info_list_convert(l, &da));
    ck_assert_ptr_null(da.array);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_add(NULL, "k", &x, PMIX_INT));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_add(l, NULL, &x, PMIX_INT));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_insert(l, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_xfer(l, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_convert(NULL, &da));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_convert(l, NULL));
    /* an unknown type is recorded, as OpenPMIx does */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(l, "odd", &x, 999));
    PMIx_Info_list_release(l);
    PMIx_Info_list_release(NULL);
}
END_TEST

/* The header's PMIX_INFO_LIST_* macros reach the same functions. */
START_TEST(list_macros)
{
    void *l;
    pmix_status_t rc;
    pmix_data_array_t da;
    bool t = true;

    PMIX_INFO_LIST_START(l);
    ck_assert_ptr_nonnull(l);
    PMIX_INFO_LIST_ADD(rc, l, PMIX_TIMEOUT, &t, PMIX_BOOL);
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    PMIX_INFO_LIST_CONVERT(rc, l, &da);
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    ck_assert_str_eq(PMIX_TIMEOUT, ((pmix_info_t *)da.array)[0].key);
    PMIX_INFO_LIST_RELEASE(l);
    PMIX_DATA_ARRAY_DESTRUCT(&da);
}
END_TEST

static Suite *pmix_info_suite(void)
{
    Suite *s = suite_create("pmix_info");
    TCase *tc = tcase_create("info");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, load_basic);
    tcase_add_test(tc, load_long_key_truncated);
    tcase_add_test(tc, load_and_xfer_bad_params);
    tcase_add_loop_test(tc, xfer_copies_flags_and_value, 0, (int)WU_NELEMS(xfer_flags));
    tcase_add_test(tc, xfer_persistent_lends_value);
    tcase_add_test(tc, internal_copies_are_deep);
    suite_add_tcase(s, tc);

    tc = tcase_create("list");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, list_add_insert_xfer_convert);
    tcase_add_test(tc, list_many_items_grow);
    tcase_add_test(tc, list_errors);
    tcase_add_test(tc, list_macros);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_info_suite)
