/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_list.c -- Check suite for the intrusive list: insertion, removal, traversal, stable
 * sort, join, removal during iteration, and release of the items a list still holds. */
#include "opal/class/wu_list.h"
#include "test/support/wu_test.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    wu_list_item_t super;
    int key;
    int seq; /* position before a sort */
} num_t;

static int destroyed; /* num_t destructor calls */

static void num_ctor(num_t *n)
{
    n->key = -1;
    n->seq = -1;
}
static void num_dtor(WU_UNUSED num_t *n)
{
    destroyed++;
}
WU_CLASS_INSTANCE(num_t, wu_list_item_t, num_ctor, num_dtor);

static void setup(void)
{
    destroyed = 0;
}

static num_t *mk(int key)
{
    num_t *n = WU_NEW(num_t);
    ck_assert_ptr_nonnull(n);
    n->key = key;
    return n;
}

static wu_list_t *mk_list(const int *keys, size_t n)
{
    wu_list_t *l = WU_NEW(wu_list_t);
    ck_assert_ptr_nonnull(l);
    for (size_t i = 0; i < n; i++) {
        num_t *it = mk(keys[i]);
        it->seq = (int)i;
        wu_list_append(l, &it->super);
    }
    return l;
}

/* Check the keys front to back and back to front, and the length. */
static void expect_keys(const wu_list_t *l, const int *keys, size_t n)
{
    wu_list_item_t *it;
    size_t i = 0;
    ck_assert_uint_eq(n, wu_list_length(l));
    ck_assert_int_eq(0 == n, wu_list_is_empty(l));
    for (it = wu_list_first(l); NULL != it; it = wu_list_next(l, it), i++) {
        ck_assert_uint_lt(i, n);
        ck_assert_int_eq(keys[i], ((num_t *)it)->key);
    }
    ck_assert_uint_eq(n, i);
    for (it = wu_list_last(l); NULL != it; it = wu_list_prev(l, it)) {
        ck_assert_uint_gt(i, 0);
        ck_assert_int_eq(keys[--i], ((num_t *)it)->key);
    }
    ck_assert_uint_eq(0, i);
}

START_TEST(empty_list)
{
    wu_list_t *l = WU_NEW(wu_list_t);
    num_t *n;
    int visits = 0;
    expect_keys(l, NULL, 0);
    ck_assert_ptr_null(wu_list_first(l));
    ck_assert_ptr_null(wu_list_last(l));
    ck_assert_ptr_null(wu_list_remove_first(l));
    ck_assert_ptr_null(wu_list_remove_last(l));
    WU_LIST_FOREACH(n, l, num_t)
    {
        visits++;
    }
    ck_assert_int_eq(0, visits);
    WU_RELEASE(l);
    ck_assert_int_eq(0, destroyed);
}
END_TEST

START_TEST(append_prepend)
{
    wu_list_t *l = WU_NEW(wu_list_t);
    wu_list_append(l, &mk(2)->super);
    wu_list_append(l, &mk(3)->super);
    wu_list_prepend(l, &mk(1)->super);
    wu_list_append(l, &mk(4)->super);
    wu_list_prepend(l, &mk(0)->super);
    expect_keys(l, (const int[]){0, 1, 2, 3, 4}, 5);
    ck_assert_int_eq(0, ((num_t *)wu_list_first(l))->key);
    ck_assert_int_eq(4, ((num_t *)wu_list_last(l))->key);
    ck_assert_ptr_null(wu_list_next(l, wu_list_last(l)));
    ck_assert_ptr_null(wu_list_prev(l, wu_list_first(l)));
    WU_RELEASE(l);
    ck_assert_int_eq(5, destroyed);
}
END_TEST

START_TEST(insert_after)
{
    wu_list_t *l = WU_NEW(wu_list_t);
    num_t *a = mk(10), *c = mk(30);
    wu_list_insert_after(l, NULL, &a->super); /* into an empty list */
    expect_keys(l, (const int[]){10}, 1);
    wu_list_insert_after(l, &a->super, &c->super); /* after the last */
    expect_keys(l, (const int[]){10, 30}, 2);
    wu_list_insert_after(l, &a->super, &mk(20)->super); /* in the middle */
    wu_list_insert_after(l, NULL, &mk(0)->super);       /* at the front */
    wu_list_insert_after(l, &c->super, &mk(40)->super);
    expect_keys(l, (const int[]){0, 10, 20, 30, 40}, 5);
    WU_RELEASE(l);
    ck_assert_int_eq(5, destroyed);
}
END_TEST

START_TEST(remove_items)
{
    const int keys[] = {0, 1, 2, 3, 4, 5};
    wu_list_t *l = mk_list(keys, WU_NELEMS(keys));
    wu_list_item_t *it = wu_list_next(l, wu_list_first(l)); /* key 1 */
    wu_list_remove(l, it);
    ck_assert_ptr_null(it->next);
    ck_assert_ptr_null(it->prev);
    ck_assert_int_eq(0, destroyed); /* the caller owns it now */
    WU_RELEASE(it);
    ck_assert_int_eq(1, destroyed);
    expect_keys(l, (const int[]){0, 2, 3, 4, 5}, 5);

    it = wu_list_remove_first(l);
    ck_assert_int_eq(0, ((num_t *)it)->key);
    WU_RELEASE(it);
    it = wu_list_remove_last(l);
    ck_assert_int_eq(5, ((num_t *)it)->key);
    WU_RELEASE(it);
    expect_keys(l, (const int[]){2, 3, 4}, 3);

    /* a removed item can go onto another list */
    wu_list_t *other = WU_NEW(wu_list_t);
    it = wu_list_remove_last(l);
    wu_list_append(other, it);
    expect_keys(other, (const int[]){4}, 1);
    expect_keys(l, (const int[]){2, 3}, 2);

    /* remove the only item */
    it = wu_list_remove_first(other);
    expect_keys(other, NULL, 0);
    WU_RELEASE(it);
    ck_assert_int_eq(4, destroyed);
    WU_RELEASE(other);
    WU_RELEASE(l);
    ck_assert_int_eq(6, destroyed);
}
END_TEST

static int cmp_key(const wu_list_item_t *a, const wu_list_item_t *b)
{
    int x = ((const num_t *)a)->key, y = ((const num_t *)b)->key;
    return (x > y) - (x < y);
}

#define MAX_SORT 16
static const struct {
    size_t n;
    int keys[MAX_SORT];
} sort_cases[] = {
    {0, {0}},
    {1, {7}},
    {2, {2, 1}},
    {2, {1, 1}},
    {3, {3, 1, 2}},
    {5, {1, 2, 3, 4, 5}},
    {5, {5, 4, 3, 2, 1}},
    {6, {4, 4, 4, 4, 4, 4}},
    {7, {3, 1, 3, 1, 2, 3, 1}},
    {8, {2, 1, 2, 1, 2, 1, 2, 1}},
    {9, {-5, 9, 0, -5, 9, 0, 100, -100, 0}},
    {16, {5, 3, 5, 1, 3, 5, 1, 3, 0, 0, 9, 5, 3, 1, 9, 0}},
};

/* Sorted by key, items of equal keys in their original order, nothing lost or duplicated. */
static void expect_stably_sorted(const wu_list_t *l, size_t n)
{
    unsigned char seen[4096] = {0};
    const num_t *prev = NULL;
    wu_list_item_t *it;
    ck_assert_uint_le(n, sizeof seen);
    ck_assert_uint_eq(n, wu_list_length(l));
    for (it = wu_list_first(l); NULL != it; it = wu_list_next(l, it)) {
        const num_t *cur = (const num_t *)it;
        ck_assert_int_ge(cur->seq, 0);
        ck_assert_uint_lt((size_t)cur->seq, n);
        ck_assert_int_eq(0, seen[cur->seq]);
        seen[cur->seq] = 1;
        if (NULL != prev) {
            ck_assert_int_le(prev->key, cur->key);
            if (prev->key == cur->key) {
                ck_assert_int_lt(prev->seq, cur->seq);
            }
        }
        prev = cur;
    }
}

START_TEST(sort_stable_table)
{
    wu_list_t *l = mk_list(sort_cases[_i].keys, sort_cases[_i].n);
    wu_list_sort(l, cmp_key);
    expect_stably_sorted(l, sort_cases[_i].n);
    /* sorting a sorted list changes nothing */
    wu_list_sort(l, cmp_key);
    expect_stably_sorted(l, sort_cases[_i].n);
    WU_RELEASE(l);
    ck_assert_int_eq((int)sort_cases[_i].n, destroyed);
}
END_TEST

START_TEST(sort_stable_large)
{
    /* lengths around powers of two, few distinct keys so there are many ties */
    static const size_t lens[] = {31, 32, 33, 1000, 4095};
    int keys[4095];
    unsigned x = 12345;
    for (size_t k = 0; k < WU_NELEMS(lens); k++) {
        for (size_t i = 0; i < lens[k]; i++) {
            x = x * 1103515245u + 12345u;
            keys[i] = (int)((x >> 16) % 7);
        }
        wu_list_t *l = mk_list(keys, lens[k]);
        wu_list_sort(l, cmp_key);
        expect_stably_sorted(l, lens[k]);
        WU_RELEASE(l);
    }
}
END_TEST

static const struct {
    size_t ndst, nsrc;
    int dst[4], src[4];
} join_cases[] = {
    {2, 3, {1, 2}, {3, 4, 5}},
    {0, 2, {0}, {1, 2}},
    {2, 0, {1, 2}, {0}},
    {0, 0, {0}, {0}},
};

START_TEST(join)
{
    wu_list_t *dst = mk_list(join_cases[_i].dst, join_cases[_i].ndst);
    wu_list_t *src = mk_list(join_cases[_i].src, join_cases[_i].nsrc);
    int want[8];
    size_t n = 0;
    for (size_t i = 0; i < join_cases[_i].ndst; i++) {
        want[n++] = join_cases[_i].dst[i];
    }
    for (size_t i = 0; i < join_cases[_i].nsrc; i++) {
        want[n++] = join_cases[_i].src[i];
    }
    wu_list_join(dst, src);
    expect_keys(dst, want, n);
    expect_keys(src, NULL, 0);
    /* the moved items belong to dst now: removing them from dst is legal (checked in debug) */
    wu_list_item_t *it;
    while (NULL != (it = wu_list_remove_last(dst))) {
        WU_RELEASE(it);
    }
    WU_RELEASE(src);
    WU_RELEASE(dst);
    ck_assert_int_eq((int)n, destroyed);
}
END_TEST

START_TEST(join_self_is_noop)
{
    /* regression: joining a list to itself used to loop forever */
    wu_list_t *l = mk_list((const int[]){1, 2, 3}, 3);
    wu_list_join(l, l);
    expect_keys(l, (const int[]){1, 2, 3}, 3);
    WU_RELEASE(l);
    ck_assert_int_eq(3, destroyed);
}
END_TEST

START_TEST(foreach_safe_removal)
{
    const int keys[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    wu_list_t *l = mk_list(keys, WU_NELEMS(keys));
    num_t *n, *next;
    int visits = 0;
    WU_LIST_FOREACH_SAFE(n, next, l, num_t)
    {
        visits++;
        if (0 == n->key % 2 || 9 == n->key) { /* first, inner and last items */
            wu_list_remove(l, &n->super);
            WU_RELEASE(n);
        }
    }
    ck_assert_int_eq(10, visits);
    ck_assert_int_eq(6, destroyed);
    expect_keys(l, (const int[]){1, 3, 5, 7}, 4);

    /* remove everything */
    WU_LIST_FOREACH_SAFE(n, next, l, num_t)
    {
        wu_list_remove(l, &n->super);
        WU_RELEASE(n);
    }
    expect_keys(l, NULL, 0);
    ck_assert_int_eq(10, destroyed);
    WU_RELEASE(l);
}
END_TEST

START_TEST(foreach_visits_in_order)
{
    const int keys[] = {5, 8, 13};
    wu_list_t *l = mk_list(keys, WU_NELEMS(keys));
    num_t *n;
    size_t i = 0;
    WU_LIST_FOREACH(n, l, num_t)
    {
        ck_assert_uint_lt(i, WU_NELEMS(keys));
        ck_assert_int_eq(keys[i++], n->key);
    }
    ck_assert_uint_eq(WU_NELEMS(keys), i);
    WU_RELEASE(l);
}
END_TEST

START_TEST(destruct_releases_items)
{
    const int keys[] = {1, 2, 3, 4, 5};
    wu_list_t *l = mk_list(keys, WU_NELEMS(keys));
    num_t *kept = (num_t *)wu_list_next(l, wu_list_first(l));
    WU_RETAIN(kept); /* a second reference survives the list */
    WU_RELEASE(l);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(4, destroyed);
    ck_assert_int_eq(1, WU_REFCOUNT(kept));
    ck_assert_int_eq(2, kept->key);
    WU_RELEASE(kept);
    ck_assert_int_eq(5, destroyed);

    /* the same for a list embedded in other memory */
    wu_list_t embedded;
    WU_CONSTRUCT(&embedded, wu_list_t);
    for (int i = 0; i < 3; i++) {
        wu_list_append(&embedded, &mk(i)->super);
    }
    WU_DESTRUCT(&embedded);
    ck_assert_int_eq(8, destroyed);
}
END_TEST

#if WU_ENABLE_DEBUG
START_TEST(debug_double_insert_aborts)
{
    wu_list_t *a = WU_NEW(wu_list_t), *b = WU_NEW(wu_list_t);
    num_t *n = mk(1);
    wu_list_append(a, &n->super);
    wu_list_append(b, &n->super); /* already on a: must abort */
}
END_TEST

START_TEST(debug_remove_from_wrong_list_aborts)
{
    wu_list_t *a = WU_NEW(wu_list_t), *b = WU_NEW(wu_list_t);
    num_t *n = mk(1);
    wu_list_append(a, &n->super);
    wu_list_remove(b, &n->super); /* not on b: must abort */
}
END_TEST
#endif

static Suite *list_suite(void)
{
    Suite *s = suite_create("wu_list");
    TCase *tc = tcase_create("list");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, empty_list);
    tcase_add_test(tc, append_prepend);
    tcase_add_test(tc, insert_after);
    tcase_add_test(tc, remove_items);
    tcase_add_loop_test(tc, sort_stable_table, 0, WU_NELEMS(sort_cases));
    tcase_add_test(tc, sort_stable_large);
    tcase_add_loop_test(tc, join, 0, WU_NELEMS(join_cases));
    tcase_add_test(tc, join_self_is_noop);
    tcase_add_test(tc, foreach_safe_removal);
    tcase_add_test(tc, foreach_visits_in_order);
    tcase_add_test(tc, destruct_releases_items);
    suite_add_tcase(s, tc);
#if WU_ENABLE_DEBUG
    tc = tcase_create("debug");
    tcase_set_timeout(tc, 10);
    tcase_add_test_raise_signal(tc, debug_double_insert_aborts, SIGABRT);
    tcase_add_test_raise_signal(tc, debug_remove_from_wrong_list_aborts, SIGABRT);
    suite_add_tcase(s, tc);
#endif
    return s;
}

WU_TEST_MAIN(list_suite)
