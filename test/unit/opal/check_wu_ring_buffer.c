/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_ring_buffer.c -- Check suite for the ring buffer: FIFO order, eviction of the oldest,
 * wraparound against a reference model, peek indices and bad input. */
#include "opal/class/wu_ring_buffer.h"
#include "opal/util/wu_error.h"
#include "test/support/wu_test.h"

#include <stdint.h>

static wu_ring_buffer_t *rb;

static void setup(void)
{
    rb = WU_NEW(wu_ring_buffer_t);
    ck_assert_ptr_nonnull(rb);
}

static void teardown(void)
{
    WU_RELEASE(rb);
}

static void *ptr(size_t i)
{
    return (void *)(uintptr_t)(i + 1);
}

START_TEST(init_params)
{
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_ring_buffer_init(rb, 0));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_ring_buffer_init(rb, SIZE_MAX));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_ring_buffer_init(NULL, 4));
    ck_assert_uint_eq(0, wu_ring_buffer_capacity(rb));
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, 4));
    ck_assert_uint_eq(4, wu_ring_buffer_capacity(rb));
    ck_assert_uint_eq(0, wu_ring_buffer_count(rb));
    /* re-init while empty resizes; while holding items it is refused */
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, 2));
    ck_assert_uint_eq(2, wu_ring_buffer_capacity(rb));
    ck_assert_ptr_null(wu_ring_buffer_push(rb, ptr(0)));
    ck_assert_int_eq(WU_ERR_EXISTS, wu_ring_buffer_init(rb, 8));
    ck_assert_uint_eq(2, wu_ring_buffer_capacity(rb));
    ck_assert_ptr_eq(ptr(0), wu_ring_buffer_peek(rb, 0));
}
END_TEST

START_TEST(uninitialized_push_returns_item)
{
    /* capacity 0: nothing can be kept, so the caller gets its pointer back to dispose of */
    ck_assert_ptr_eq(ptr(5), wu_ring_buffer_push(rb, ptr(5)));
    ck_assert_uint_eq(0, wu_ring_buffer_count(rb));
    ck_assert_ptr_null(wu_ring_buffer_pop(rb));
    ck_assert_ptr_null(wu_ring_buffer_peek(rb, 0));
}
END_TEST

START_TEST(null_args)
{
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, 2));
    ck_assert_ptr_null(wu_ring_buffer_push(rb, NULL)); /* NULL is not stored */
    ck_assert_uint_eq(0, wu_ring_buffer_count(rb));
    ck_assert_ptr_null(wu_ring_buffer_push(NULL, ptr(0)));
    ck_assert_ptr_null(wu_ring_buffer_pop(NULL));
    ck_assert_ptr_null(wu_ring_buffer_peek(NULL, 0));
    ck_assert_uint_eq(0, wu_ring_buffer_count(NULL));
    ck_assert_uint_eq(0, wu_ring_buffer_capacity(NULL));
}
END_TEST

START_TEST(fifo_and_eviction_order)
{
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, 3));
    ck_assert_ptr_null(wu_ring_buffer_pop(rb));
    ck_assert_ptr_null(wu_ring_buffer_push(rb, ptr(1)));
    ck_assert_ptr_null(wu_ring_buffer_push(rb, ptr(2)));
    ck_assert_ptr_null(wu_ring_buffer_push(rb, ptr(3)));
    ck_assert_uint_eq(3, wu_ring_buffer_count(rb));
    /* full: each push evicts the oldest */
    ck_assert_ptr_eq(ptr(1), wu_ring_buffer_push(rb, ptr(4)));
    ck_assert_ptr_eq(ptr(2), wu_ring_buffer_push(rb, ptr(5)));
    ck_assert_uint_eq(3, wu_ring_buffer_count(rb));
    ck_assert_ptr_eq(ptr(3), wu_ring_buffer_peek(rb, 0));
    ck_assert_ptr_eq(ptr(4), wu_ring_buffer_peek(rb, 1));
    ck_assert_ptr_eq(ptr(5), wu_ring_buffer_peek(rb, 2));
    ck_assert_ptr_null(wu_ring_buffer_peek(rb, 3));
    ck_assert_ptr_null(wu_ring_buffer_peek(rb, SIZE_MAX));
    ck_assert_ptr_eq(ptr(3), wu_ring_buffer_pop(rb));
    ck_assert_ptr_eq(ptr(4), wu_ring_buffer_pop(rb));
    /* not full any more: no eviction */
    ck_assert_ptr_null(wu_ring_buffer_push(rb, ptr(6)));
    ck_assert_ptr_eq(ptr(5), wu_ring_buffer_pop(rb));
    ck_assert_ptr_eq(ptr(6), wu_ring_buffer_pop(rb));
    ck_assert_ptr_null(wu_ring_buffer_pop(rb));
    ck_assert_uint_eq(0, wu_ring_buffer_count(rb));
    ck_assert_ptr_null(wu_ring_buffer_peek(rb, 0));
}
END_TEST

START_TEST(capacity_one)
{
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, 1));
    ck_assert_ptr_null(wu_ring_buffer_push(rb, ptr(0)));
    for (size_t i = 1; i < 10; i++) {
        ck_assert_ptr_eq(ptr(i - 1), wu_ring_buffer_push(rb, ptr(i)));
        ck_assert_ptr_eq(ptr(i), wu_ring_buffer_peek(rb, 0));
        ck_assert_ptr_null(wu_ring_buffer_peek(rb, 1));
    }
    ck_assert_ptr_eq(ptr(9), wu_ring_buffer_pop(rb));
    ck_assert_ptr_null(wu_ring_buffer_pop(rb));
}
END_TEST

/* Reference model: a plain array with the oldest item first. */
#define MODEL_MAX 64
static size_t model[MODEL_MAX], model_n;

static void expect_model(void)
{
    ck_assert_uint_eq(model_n, wu_ring_buffer_count(rb));
    for (size_t i = 0; i < model_n; i++) {
        ck_assert_ptr_eq(ptr(model[i]), wu_ring_buffer_peek(rb, i));
    }
    ck_assert_ptr_null(wu_ring_buffer_peek(rb, model_n));
}

static const size_t wrap_capacities[] = {1, 2, 3, 4, 5, 7, 8, 13, 16};

START_TEST(wraparound_against_model)
{
    size_t cap = wrap_capacities[_i], next = 0;
    unsigned x = 7u + (unsigned)_i;
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, cap));
    ck_assert_uint_le(cap, MODEL_MAX);
    model_n = 0;
    /* a pseudo-random mix of pushes (2/3) and pops (1/3), long enough to wrap many times */
    for (int step = 0; step < 2000; step++) {
        x = x * 1103515245u + 12345u;
        if ((x >> 16) % 3) {
            void *evicted = wu_ring_buffer_push(rb, ptr(next));
            if (model_n == cap) {
                ck_assert_ptr_eq(ptr(model[0]), evicted);
                for (size_t i = 1; i < model_n; i++) {
                    model[i - 1] = model[i];
                }
                model_n--;
            } else {
                ck_assert_ptr_null(evicted);
            }
            model[model_n++] = next++;
        } else {
            void *p = wu_ring_buffer_pop(rb);
            if (0 == model_n) {
                ck_assert_ptr_null(p);
            } else {
                ck_assert_ptr_eq(ptr(model[0]), p);
                for (size_t i = 1; i < model_n; i++) {
                    model[i - 1] = model[i];
                }
                model_n--;
            }
        }
        expect_model();
    }
    ck_assert_uint_eq(cap, wu_ring_buffer_capacity(rb));
}
END_TEST

typedef struct {
    wu_object_t super;
} ev_t;
static int ev_destroyed;
static void ev_dtor(WU_UNUSED ev_t *e)
{
    ev_destroyed++;
}
WU_CLASS_INSTANCE(ev_t, wu_object_t, NULL, ev_dtor);

START_TEST(caller_releases_evicted_objects)
{
    /* the event-cache pattern: release what push evicts, drain before releasing the ring */
    void *old;
    ev_destroyed = 0;
    ck_assert_int_eq(WU_SUCCESS, wu_ring_buffer_init(rb, 4));
    for (int i = 0; i < 10; i++) {
        ev_t *e = WU_NEW(ev_t);
        if (NULL != (old = wu_ring_buffer_push(rb, e))) {
            WU_RELEASE(old);
        }
    }
    ck_assert_int_eq(6, ev_destroyed);
    while (NULL != (old = wu_ring_buffer_pop(rb))) {
        WU_RELEASE(old);
    }
    ck_assert_int_eq(10, ev_destroyed);
}
END_TEST

static Suite *ring_buffer_suite(void)
{
    Suite *s = suite_create("wu_ring_buffer");
    TCase *tc = tcase_create("ring_buffer");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, init_params);
    tcase_add_test(tc, uninitialized_push_returns_item);
    tcase_add_test(tc, null_args);
    tcase_add_test(tc, fifo_and_eviction_order);
    tcase_add_test(tc, capacity_one);
    tcase_add_loop_test(tc, wraparound_against_model, 0, WU_NELEMS(wrap_capacities));
    tcase_add_test(tc, caller_releases_evicted_objects);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(ring_buffer_suite)
