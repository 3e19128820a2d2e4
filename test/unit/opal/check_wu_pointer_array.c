/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_pointer_array.c -- Check suite for the pointer array: lowest-free-slot reuse, growth
 * by blocks, the size limit, out-of-range indices and bad parameters. */
#include "opal/class/wu_pointer_array.h"
#include "opal/util/wu_error.h"
#include "test/support/wu_test.h"

#include <limits.h>
#include <stdint.h>

static wu_pointer_array_t *a;

static void setup(void)
{
    a = WU_NEW(wu_pointer_array_t);
    ck_assert_ptr_nonnull(a);
}

static void teardown(void)
{
    WU_RELEASE(a);
}

static void *ptr(int i)
{
    return (void *)(uintptr_t)(i + 1);
}

static const struct {
    int initial, max_size, block, want;
} init_cases[] = {
    {0, 1, 1, WU_SUCCESS},         {4, 4, 1, WU_SUCCESS},         {16, 1024, 16, WU_SUCCESS},
    {0, INT_MAX, 8, WU_SUCCESS},   {-1, 10, 1, WU_ERR_BAD_PARAM}, {0, 0, 1, WU_ERR_BAD_PARAM},
    {0, -5, 1, WU_ERR_BAD_PARAM},  {0, 10, 0, WU_ERR_BAD_PARAM},  {0, 10, -1, WU_ERR_BAD_PARAM},
    {11, 10, 1, WU_ERR_BAD_PARAM},
};

START_TEST(init_params)
{
    ck_assert_int_eq(init_cases[_i].want,
                     wu_pointer_array_init(a, init_cases[_i].initial, init_cases[_i].max_size,
                                           init_cases[_i].block));
    if (WU_SUCCESS == init_cases[_i].want) {
        ck_assert_int_eq(init_cases[_i].initial, wu_pointer_array_size(a));
        ck_assert_int_eq(0, wu_pointer_array_count(a));
        for (int i = 0; i < init_cases[_i].initial; i++) {
            ck_assert_ptr_null(wu_pointer_array_get_item(a, i));
        }
    } else {
        /* a refused init leaves the array as it was */
        ck_assert_int_eq(0, wu_pointer_array_size(a));
        ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    }
}
END_TEST

START_TEST(init_refused_when_holding_items)
{
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pointer_array_init(NULL, 0, 10, 1));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 2, 10, 2));
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    ck_assert_int_eq(WU_ERR_EXISTS, wu_pointer_array_init(a, 2, 10, 2));
    ck_assert_ptr_eq(ptr(0), wu_pointer_array_get_item(a, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 5, 10, 2));
    ck_assert_int_eq(5, wu_pointer_array_size(a));
}
END_TEST

START_TEST(add_get_grow)
{
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 2, 1000, 4));
    for (int i = 0; i < 11; i++) {
        ck_assert_int_eq(i, wu_pointer_array_add(a, ptr(i)));
        ck_assert_int_eq(i + 1, wu_pointer_array_count(a));
    }
    /* 2 -> 6 -> 10 -> 14 */
    ck_assert_int_eq(14, wu_pointer_array_size(a));
    for (int i = 0; i < 11; i++) {
        ck_assert_ptr_eq(ptr(i), wu_pointer_array_get_item(a, i));
    }
    for (int i = 11; i < 14; i++) {
        ck_assert_ptr_null(wu_pointer_array_get_item(a, i));
    }
}
END_TEST

START_TEST(works_without_init)
{
    ck_assert_int_eq(0, wu_pointer_array_size(a));
    ck_assert_ptr_null(wu_pointer_array_get_item(a, 0));
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    ck_assert_int_eq(1, wu_pointer_array_add(a, ptr(1)));
    ck_assert_int_gt(wu_pointer_array_size(a), 1);
    ck_assert_int_eq(2, wu_pointer_array_count(a));
}
END_TEST

START_TEST(lowest_free_slot_reused)
{
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(i, wu_pointer_array_add(a, ptr(i)));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 7));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 3));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 5));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_set_item(a, 9, NULL)); /* set NULL frees */
    ck_assert_int_eq(6, wu_pointer_array_count(a));
    ck_assert_ptr_null(wu_pointer_array_get_item(a, 3));
    ck_assert_int_eq(3, wu_pointer_array_add(a, ptr(100)));
    ck_assert_int_eq(5, wu_pointer_array_add(a, ptr(101)));
    ck_assert_int_eq(7, wu_pointer_array_add(a, ptr(102)));
    ck_assert_int_eq(9, wu_pointer_array_add(a, ptr(103)));
    ck_assert_int_eq(10, wu_pointer_array_add(a, ptr(104)));
    ck_assert_ptr_eq(ptr(101), wu_pointer_array_get_item(a, 5));
    ck_assert_int_eq(11, wu_pointer_array_count(a));

    /* freeing below the lowest free slot moves the search back */
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 0));
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(200)));
}
END_TEST

START_TEST(lowest_free_slot_many)
{
    enum { N = 10000 };
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(i, wu_pointer_array_add(a, ptr(i)));
    }
    /* free every third slot from the top down, then refill: lowest first */
    for (int i = N - 1; i >= 0; i--) {
        if (0 == i % 3) {
            ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, i));
        }
    }
    ck_assert_int_eq(N - (N + 2) / 3, wu_pointer_array_count(a));
    for (int i = 0; i < N; i += 3) {
        ck_assert_int_eq(i, wu_pointer_array_add(a, ptr(i)));
    }
    ck_assert_int_eq(N, wu_pointer_array_count(a));
    ck_assert_int_eq(N, wu_pointer_array_add(a, ptr(N)));
}
END_TEST

START_TEST(max_limit)
{
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 0, 10, 4));
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(i, wu_pointer_array_add(a, ptr(i)));
    }
    /* grew 4, 8, then stopped at the limit instead of 12 */
    ck_assert_int_eq(10, wu_pointer_array_size(a));
    ck_assert_int_eq(-1, wu_pointer_array_add(a, ptr(10)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pointer_array_set_item(a, 10, ptr(10)));
    ck_assert_int_eq(10, wu_pointer_array_count(a));
    ck_assert_int_eq(10, wu_pointer_array_size(a));
    /* a freed slot makes room again */
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 6));
    ck_assert_int_eq(6, wu_pointer_array_add(a, ptr(60)));
    ck_assert_int_eq(-1, wu_pointer_array_add(a, ptr(61)));
    ck_assert_ptr_eq(ptr(60), wu_pointer_array_get_item(a, 6));
}
END_TEST

START_TEST(max_limit_of_one)
{
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 0, 1, 8));
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    ck_assert_int_eq(1, wu_pointer_array_size(a));
    ck_assert_int_eq(-1, wu_pointer_array_add(a, ptr(1)));
}
END_TEST

START_TEST(set_item_grows)
{
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 0, 1000, 8));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_set_item(a, 100, ptr(100)));
    ck_assert_int_ge(wu_pointer_array_size(a), 101);
    ck_assert_int_le(wu_pointer_array_size(a), 1000);
    ck_assert_int_eq(1, wu_pointer_array_count(a));
    ck_assert_ptr_eq(ptr(100), wu_pointer_array_get_item(a, 100));
    for (int i = 0; i < 100; i++) {
        ck_assert_ptr_null(wu_pointer_array_get_item(a, i));
    }
    /* add still fills from the bottom */
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    /* replacing a non-NULL item keeps the count */
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_set_item(a, 100, ptr(7)));
    ck_assert_int_eq(2, wu_pointer_array_count(a));
    ck_assert_ptr_eq(ptr(7), wu_pointer_array_get_item(a, 100));
    /* setting NULL beyond the allocated slots is a no-op, not a growth */
    int size = wu_pointer_array_size(a);
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_set_item(a, 999, NULL));
    ck_assert_int_eq(size, wu_pointer_array_size(a));
    /* the last allowed index */
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_set_item(a, 999, ptr(999)));
    ck_assert_int_eq(1000, wu_pointer_array_size(a));
    ck_assert_ptr_eq(ptr(999), wu_pointer_array_get_item(a, 999));
    ck_assert_int_eq(3, wu_pointer_array_count(a));
    /* set_item onto a slot below the search start, then add skips it */
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_set_item(a, 1, ptr(1)));
    ck_assert_int_eq(2, wu_pointer_array_add(a, ptr(2)));
}
END_TEST

static const int bad_index[] = {-1, -100, INT_MIN, 50, INT_MAX};

START_TEST(out_of_range)
{
    int idx = bad_index[_i];
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 4, 50, 4));
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    ck_assert_ptr_null(wu_pointer_array_get_item(a, idx));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pointer_array_set_item(a, idx, ptr(1)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pointer_array_remove(a, idx));
    ck_assert_int_eq(4, wu_pointer_array_size(a));
    ck_assert_int_eq(1, wu_pointer_array_count(a));
}
END_TEST

START_TEST(remove_free_or_unallocated)
{
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_init(a, 4, 50, 4));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_pointer_array_remove(a, 2));  /* free slot */
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_pointer_array_remove(a, 20)); /* beyond size */
    ck_assert_ptr_null(wu_pointer_array_get_item(a, 20));
    ck_assert_int_eq(0, wu_pointer_array_add(a, ptr(0)));
    ck_assert_int_eq(WU_SUCCESS, wu_pointer_array_remove(a, 0));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_pointer_array_remove(a, 0)); /* twice */
    ck_assert_int_eq(0, wu_pointer_array_count(a));
}
END_TEST

START_TEST(null_args)
{
    ck_assert_int_eq(-1, wu_pointer_array_add(a, NULL));
    ck_assert_int_eq(0, wu_pointer_array_count(a));
    ck_assert_int_eq(-1, wu_pointer_array_add(NULL, ptr(0)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pointer_array_set_item(NULL, 0, ptr(0)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pointer_array_remove(NULL, 0));
    ck_assert_ptr_null(wu_pointer_array_get_item(NULL, 0));
    ck_assert_int_eq(0, wu_pointer_array_size(NULL));
    ck_assert_int_eq(0, wu_pointer_array_count(NULL));
}
END_TEST

static Suite *pointer_array_suite(void)
{
    Suite *s = suite_create("wu_pointer_array");
    TCase *tc = tcase_create("pointer_array");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, init_params, 0, WU_NELEMS(init_cases));
    tcase_add_test(tc, init_refused_when_holding_items);
    tcase_add_test(tc, add_get_grow);
    tcase_add_test(tc, works_without_init);
    tcase_add_test(tc, lowest_free_slot_reused);
    tcase_add_test(tc, lowest_free_slot_many);
    tcase_add_test(tc, max_limit);
    tcase_add_test(tc, max_limit_of_one);
    tcase_add_test(tc, set_item_grows);
    tcase_add_loop_test(tc, out_of_range, 0, WU_NELEMS(bad_index));
    tcase_add_test(tc, remove_free_or_unallocated);
    tcase_add_test(tc, null_args);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pointer_array_suite)
