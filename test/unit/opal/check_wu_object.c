/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_object.c -- Check suite for the object system: construction and destruction order,
 * reference counting, objects embedded in other memory, class tests, and (debug builds) the
 * aborts on use after the final release. */
#include "opal/class/wu_object.h"
#include "opal/class/wu_list.h"
#include "test/support/wu_test.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

/* Every ctor/dtor appends one letter to this log: upper case for ctors, lower case for dtors. */
static char trail[64];

static void note(char c)
{
    size_t n = strlen(trail);
    ck_assert_uint_lt(n + 1, sizeof trail);
    trail[n] = c;
    trail[n + 1] = '\0';
}

static void reset(void)
{
    trail[0] = '\0';
}

/* base_t <- mid_t <- leaf_t, plus gap_t (no ctor/dtor) <- gapleaf_t, and an unrelated class. */
typedef struct {
    wu_object_t super;
    int base_val;
} base_t;
typedef struct {
    base_t super;
    int mid_val;
} mid_t;
typedef struct {
    mid_t super;
    int leaf_val;
    char *buf;
} leaf_t;
typedef struct {
    base_t super;
} gap_t;
typedef struct {
    gap_t super;
} gapleaf_t;
typedef struct {
    wu_object_t super;
} other_t;

static void base_ctor(base_t *o)
{
    o->base_val = 1;
    note('A');
}
static void base_dtor(base_t *o)
{
    ck_assert_int_eq(1, o->base_val);
    note('a');
}
static void mid_ctor(mid_t *o)
{
    /* the parent is fully constructed before the child's ctor runs */
    ck_assert_int_eq(1, o->super.base_val);
    o->mid_val = 2;
    note('B');
}
static void mid_dtor(mid_t *o)
{
    ck_assert_int_eq(2, o->mid_val);
    note('b');
}
static void leaf_ctor(leaf_t *o)
{
    ck_assert_int_eq(2, o->super.mid_val);
    o->leaf_val = 3;
    o->buf = malloc(16); /* freed by the dtor: LeakSanitizer catches a missing dtor call */
    note('C');
}
static void leaf_dtor(leaf_t *o)
{
    /* the child is destroyed while its parents are still intact */
    ck_assert_int_eq(1, o->super.super.base_val);
    free(o->buf);
    note('c');
}
static void gapleaf_ctor(WU_UNUSED gapleaf_t *o)
{
    note('G');
}
static void gapleaf_dtor(WU_UNUSED gapleaf_t *o)
{
    note('g');
}

WU_CLASS_INSTANCE(base_t, wu_object_t, base_ctor, base_dtor);
WU_CLASS_INSTANCE(mid_t, base_t, mid_ctor, mid_dtor);
WU_CLASS_INSTANCE(leaf_t, mid_t, leaf_ctor, leaf_dtor);
WU_CLASS_INSTANCE(gap_t, base_t, NULL, NULL);
WU_CLASS_INSTANCE(gapleaf_t, gap_t, gapleaf_ctor, gapleaf_dtor);
WU_CLASS_INSTANCE(other_t, wu_object_t, NULL, NULL);

typedef struct {
    wu_object_t super;
    char pad[256];
} big_t;
WU_CLASS_INSTANCE(big_t, wu_object_t, NULL, NULL);

static const struct {
    const wu_class_t *cls;
    const char *after_ctor, *after_dtor;
} order_cases[] = {
    {&wu_object_t_class, "", ""},     {&base_t_class, "A", "Aa"}, {&mid_t_class, "AB", "ABba"},
    {&leaf_t_class, "ABC", "ABCcba"}, {&gap_t_class, "A", "Aa"},  {&gapleaf_t_class, "AG", "AGga"},
};

START_TEST(ctor_dtor_order_heap)
{
    wu_object_t *o;
    reset();
    o = wu_obj_new(order_cases[_i].cls, __FILE__, __LINE__);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(order_cases[_i].after_ctor, trail);
    ck_assert_ptr_eq(order_cases[_i].cls, o->cls);
    ck_assert_int_eq(1, WU_REFCOUNT(o));
    ck_assert_int_eq(1, wu_obj_release(o, __FILE__, __LINE__));
    ck_assert_str_eq(order_cases[_i].after_dtor, trail);
}
END_TEST

START_TEST(ctor_dtor_order_embedded)
{
    /* guard bytes around the object catch a constructor that writes past the class size */
    struct {
        unsigned char before[16];
        leaf_t obj;
        unsigned char after[16];
    } holder;
    unsigned char pattern[16];
    memset(pattern, 0xa5, sizeof pattern);
    memset(&holder, 0xa5, sizeof holder);
    reset();
    WU_CONSTRUCT(&holder.obj, leaf_t);
    ck_assert_str_eq("ABC", trail);
    ck_assert_int_eq(1, WU_REFCOUNT(&holder.obj));
    ck_assert_int_eq(0, holder.obj.super.super.super.heap);
    ck_assert_int_eq(3, holder.obj.leaf_val);
    WU_DESTRUCT(&holder.obj);
    ck_assert_str_eq("ABCcba", trail);
    ck_assert_mem_eq(pattern, holder.before, sizeof pattern);
    ck_assert_mem_eq(pattern, holder.after, sizeof pattern);

    /* it can be constructed again in the same memory */
    reset();
    WU_CONSTRUCT(&holder.obj, leaf_t);
    ck_assert_str_eq("ABC", trail);
    WU_DESTRUCT(&holder.obj);
    ck_assert_str_eq("ABCcba", trail);
}
END_TEST

START_TEST(embedded_release_does_not_free)
{
    /* An embedded object's last release runs the dtors but must not free() the memory (which
     * is on the stack here: ASan would report it). */
    leaf_t obj;
    leaf_t *p = &obj;
    reset();
    WU_CONSTRUCT(&obj, leaf_t);
    WU_RETAIN(p);
    ck_assert_int_eq(0, wu_obj_release(&obj.super.super.super, __FILE__, __LINE__));
    ck_assert_str_eq("ABC", trail);
    WU_RELEASE(p);
    ck_assert_ptr_null(p);
    ck_assert_str_eq("ABCcba", trail);
}
END_TEST

START_TEST(embedded_list_member)
{
    /* a container embedded in a struct, as most users will do it */
    struct {
        int tag;
        wu_list_t list;
    } s;
    s.tag = 42;
    WU_CONSTRUCT(&s.list, wu_list_t);
    ck_assert(wu_list_is_empty(&s.list));
    wu_list_append(&s.list, WU_NEW(wu_list_item_t));
    ck_assert_uint_eq(1, wu_list_length(&s.list));
    WU_DESTRUCT(&s.list); /* releases the item: LeakSanitizer checks */
    ck_assert_int_eq(42, s.tag);
}
END_TEST

START_TEST(refcount_lifecycle)
{
    leaf_t *o = WU_NEW(leaf_t);
    leaf_t *alias = o;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(1, WU_REFCOUNT(o));
    WU_RETAIN(o);
    WU_RETAIN(o);
    ck_assert_int_eq(3, WU_REFCOUNT(o));
    reset();
    ck_assert_int_eq(0, wu_obj_release((wu_object_t *)o, __FILE__, __LINE__));
    ck_assert_int_eq(2, WU_REFCOUNT(o));
    WU_RELEASE(alias); /* WU_RELEASE clears the variable it was given, not other aliases */
    ck_assert_ptr_null(alias);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(1, WU_REFCOUNT(o));
    ck_assert_str_eq("", trail); /* not destroyed yet */
    WU_RELEASE(o);
    ck_assert_ptr_null(o);
    ck_assert_str_eq("cba", trail);
}
END_TEST

#define N_THREADS 4
#define N_ROUNDS  100000

/* Returns how many of its releases claimed to destroy the object (must be none). */
static void *hammer(void *arg)
{
    wu_object_t *o = arg;
    uintptr_t destroyed = 0;
    for (int i = 0; i < N_ROUNDS; i++) {
        wu_obj_retain(o, __FILE__, __LINE__);
        destroyed += (uintptr_t)wu_obj_release(o, __FILE__, __LINE__);
    }
    return (void *)destroyed;
}

START_TEST(refcount_atomic_across_threads)
{
    pthread_t th[N_THREADS];
    leaf_t *o = WU_NEW(leaf_t);
    for (int i = 0; i < N_THREADS; i++) {
        ck_assert_int_eq(0, pthread_create(&th[i], NULL, hammer, o));
    }
    for (int i = 0; i < N_THREADS; i++) {
        void *destroyed;
        ck_assert_int_eq(0, pthread_join(th[i], &destroyed));
        ck_assert_ptr_null(destroyed);
    }
    ck_assert_int_eq(1, WU_REFCOUNT(o));
    reset();
    WU_RELEASE(o);
    ck_assert_str_eq("cba", trail);
}
END_TEST

static const struct {
    const wu_class_t *obj_cls, *test_cls;
    int want;
} is_a_cases[] = {
    {&leaf_t_class, &leaf_t_class, 1},
    {&leaf_t_class, &mid_t_class, 1},
    {&leaf_t_class, &base_t_class, 1},
    {&leaf_t_class, &wu_object_t_class, 1},
    {&mid_t_class, &leaf_t_class, 0},
    {&base_t_class, &mid_t_class, 0},
    {&leaf_t_class, &other_t_class, 0},
    {&other_t_class, &base_t_class, 0},
    {&gapleaf_t_class, &gap_t_class, 1},
    {&gapleaf_t_class, &base_t_class, 1},
    {&gapleaf_t_class, &mid_t_class, 0},
    {&wu_object_t_class, &wu_object_t_class, 1},
    {&wu_object_t_class, &base_t_class, 0},
    {&wu_list_t_class, &wu_object_t_class, 1},
    {&wu_list_t_class, &wu_list_item_t_class, 0},
};

START_TEST(is_a)
{
    wu_object_t *o = wu_obj_new(is_a_cases[_i].obj_cls, __FILE__, __LINE__);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(is_a_cases[_i].want, wu_obj_is_a(o, is_a_cases[_i].test_cls));
    WU_RELEASE(o);
}
END_TEST

START_TEST(new_zeroes_memory)
{
    /* fields the ctors do not set start zeroed, so classes may rely on calloc semantics */
    other_t *o = WU_NEW(other_t);
    big_t *b = WU_NEW(big_t);
    char zero[256] = {0};
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(b);
    ck_assert_mem_eq(zero, b->pad, sizeof zero);
    ck_assert_str_eq("big_t", b->super.cls->name);
    WU_RELEASE(o);
    WU_RELEASE(b);
}
END_TEST

#if WU_ENABLE_DEBUG
START_TEST(debug_double_release_aborts)
{
    leaf_t *o = WU_NEW(leaf_t);
    leaf_t *copy = o;
    WU_RELEASE(o);
    WU_RELEASE(copy); /* must abort */
}
END_TEST

START_TEST(debug_retain_after_release_aborts)
{
    leaf_t *o = WU_NEW(leaf_t);
    leaf_t *copy = o;
    WU_RELEASE(o);
    WU_RETAIN(copy); /* must abort */
}
END_TEST

START_TEST(debug_release_after_destruct_aborts)
{
    leaf_t obj;
    leaf_t *p = &obj;
    WU_CONSTRUCT(&obj, leaf_t);
    WU_DESTRUCT(&obj);
    WU_RELEASE(p); /* must abort */
}
END_TEST

START_TEST(debug_retain_of_garbage_aborts)
{
    union {
        wu_object_t obj;
        unsigned char raw[sizeof(wu_object_t)];
    } junk;
    memset(junk.raw, 0x5a, sizeof junk.raw);
    WU_RETAIN(&junk.obj); /* never constructed: must abort */
}
END_TEST
#endif

static Suite *object_suite(void)
{
    Suite *s = suite_create("wu_object");
    TCase *tc = tcase_create("lifecycle");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, ctor_dtor_order_heap, 0, WU_NELEMS(order_cases));
    tcase_add_test(tc, ctor_dtor_order_embedded);
    tcase_add_test(tc, embedded_release_does_not_free);
    tcase_add_test(tc, embedded_list_member);
    tcase_add_test(tc, refcount_lifecycle);
    tcase_add_test(tc, refcount_atomic_across_threads);
    tcase_add_loop_test(tc, is_a, 0, WU_NELEMS(is_a_cases));
    tcase_add_test(tc, new_zeroes_memory);
    suite_add_tcase(s, tc);
#if WU_ENABLE_DEBUG
    tc = tcase_create("debug");
    tcase_set_timeout(tc, 10);
    tcase_add_test_raise_signal(tc, debug_double_release_aborts, SIGABRT);
    tcase_add_test_raise_signal(tc, debug_retain_after_release_aborts, SIGABRT);
    tcase_add_test_raise_signal(tc, debug_release_after_destruct_aborts, SIGABRT);
    tcase_add_test_raise_signal(tc, debug_retain_of_garbage_aborts, SIGABRT);
    suite_add_tcase(s, tc);
#endif
    return s;
}

WU_TEST_MAIN(object_suite)
