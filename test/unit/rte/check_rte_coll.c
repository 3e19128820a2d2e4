/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_coll.c -- the runtime's collective engine (pmix/rte/core/wu_rte_coll.c): a
 * contribution meets the oldest open collection of its kind and key that its slot has not
 * joined (so the second fence of a set waits while the first is open), never a sealed one;
 * a slot that is not expected or has contributed is refused; data is kept in arrival order;
 * complete once every expected slot is in; the missing slots are named; a timeout calls the
 * set's expired function on its progress thread once, and closing a collection before stops
 * it; closing or finishing the set runs the owner's destructor. */
#include "opal/event/wu_wait.h"
#include "pmix/rte/core/wu_rte_coll.h"
#include "test/support/wu_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An owner's collection: the engine's, and a counter of destructions. */
typedef struct {
    wu_rte_coll_t super;
    int *destroyed;
} own_t;

static void own_destruct(own_t *o)
{
    if (NULL != o->destroyed) {
        (*o->destroyed)++;
    }
}

static WU_CLASS_INSTANCE(own_t, wu_rte_coll_t, NULL, own_destruct);

static own_t *open_one(wu_rte_colls_t *s, int kind, const char *key, uint32_t nslots,
                       int *destroyed)
{
    own_t *o = WU_NEW(own_t);
    ck_assert_ptr_nonnull(o);
    o->destroyed = destroyed;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_coll_open(s, &o->super, kind, key, strlen(key), nslots));
    return o;
}

START_TEST(arrival_order)
{
    wu_rte_colls_t s;
    int destroyed = 0;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_colls_init(&s, NULL, NULL));
    ck_assert_ptr_null(wu_rte_coll_match(&s, 0, "ab", 2, 0));
    own_t *a = open_one(&s, 0, "ab", 3, &destroyed);
    own_t *b = open_one(&s, 0, "ab", 3, &destroyed);
    own_t *other = open_one(&s, 1, "ab", 3, &destroyed); /* another kind, the same key */
    for (uint32_t k = 0; k < 3; k++) {
        wu_rte_coll_expect(&a->super, k);
        wu_rte_coll_expect(&b->super, k);
    }
    wu_rte_coll_expect(&a->super, 1); /* twice: still one */
    ck_assert_uint_eq(3, a->super.nexpect);
    /* slot 0 contributes twice: the first goes to a, the second to b */
    ck_assert_ptr_eq(&a->super, wu_rte_coll_match(&s, 0, "ab", 2, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_coll_add(&a->super, 0, "x", 1));
    ck_assert_ptr_eq(&b->super, wu_rte_coll_match(&s, 0, "ab", 2, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_coll_add(&b->super, 0, "y", 1));
    /* slot 1 still meets a; another key or kind meets neither */
    ck_assert_ptr_eq(&a->super, wu_rte_coll_match(&s, 0, "ab", 2, 1));
    ck_assert_ptr_null(wu_rte_coll_match(&s, 0, "abc", 3, 1));
    ck_assert_ptr_eq(&other->super, wu_rte_coll_match(&s, 1, "ab", 2, 0));
    ck_assert_ptr_null(wu_rte_coll_match(&s, 2, "ab", 2, 0));
    /* a sealed collection is never met; a slot past the slots meets the oldest */
    a->super.sealed = true;
    ck_assert_ptr_eq(&b->super, wu_rte_coll_match(&s, 0, "ab", 2, 1));
    a->super.sealed = false;
    ck_assert_ptr_eq(&a->super, wu_rte_coll_match(&s, 0, "ab", 2, UINT32_MAX));
    /* iteration in the order of opening */
    ck_assert_ptr_eq(&a->super, wu_rte_colls_first(&s));
    ck_assert_ptr_eq(&b->super, wu_rte_colls_next(&s, &a->super));
    ck_assert_ptr_eq(&other->super, wu_rte_colls_next(&s, &b->super));
    ck_assert_ptr_null(wu_rte_colls_next(&s, &other->super));
    /* closing a: b is the oldest now */
    wu_rte_coll_close(&a->super);
    ck_assert_int_eq(1, destroyed);
    ck_assert_ptr_eq(&b->super, wu_rte_colls_first(&s));
    ck_assert_ptr_eq(&b->super, wu_rte_coll_match(&s, 0, "ab", 2, 1));
    wu_rte_colls_fini(&s); /* b and other */
    ck_assert_int_eq(3, destroyed);
}
END_TEST

static char *slot_name(uint32_t slot, void *arg)
{
    char buf[16];
    if (slot == *(uint32_t *)arg) {
        return NULL; /* left out */
    }
    snprintf(buf, sizeof buf, "n%u", slot);
    return strdup(buf);
}

START_TEST(contributions)
{
    wu_rte_colls_t s;
    uint32_t skip = UINT32_MAX;
    char *missing;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_colls_init(&s, NULL, NULL));
    own_t *a = open_one(&s, 0, "", 5, NULL); /* an empty key is a key */
    ck_assert_ptr_eq(&a->super, wu_rte_coll_match(&s, 0, "", 0, 4));
    wu_rte_coll_expect(&a->super, 1);
    wu_rte_coll_expect(&a->super, 3);
    wu_rte_coll_expect(&a->super, 4);
    wu_rte_coll_expect(&a->super, 9); /* no such slot: ignored */
    ck_assert_uint_eq(3, a->super.nexpect);
    ck_assert(!wu_rte_coll_complete(&a->super));
    ck_assert(wu_rte_coll_waits_for(&a->super, 3));
    ck_assert(!wu_rte_coll_waits_for(&a->super, 2));
    ck_assert(!wu_rte_coll_waits_for(&a->super, 9));
    /* not expected, or past the slots: refused, nothing kept */
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_coll_add(&a->super, 2, "zz", 2));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_coll_add(&a->super, 9, "zz", 2));
    ck_assert_uint_eq(0, a->super.ndata);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_coll_add(&a->super, 3, "three", 5));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_coll_add(&a->super, 3, "again", 5));
    missing = wu_rte_coll_missing(&a->super, slot_name, &skip, ',');
    ck_assert_str_eq("n1,n4", missing);
    free(missing);
    skip = 4;
    missing = wu_rte_coll_missing(&a->super, slot_name, &skip, ' ');
    ck_assert_str_eq("n1", missing);
    free(missing);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_coll_add(&a->super, 1, NULL, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_coll_add(&a->super, 4, "four", 4));
    ck_assert(wu_rte_coll_complete(&a->super));
    ck_assert_uint_eq(3, a->super.nfrom);
    ck_assert_uint_eq(9, a->super.ndata);
    ck_assert_int_eq(0, memcmp("threefour", a->super.data, 9)); /* in arrival order */
    skip = UINT32_MAX;
    ck_assert_ptr_null(wu_rte_coll_missing(&a->super, slot_name, &skip, ','));
    wu_rte_colls_fini(&s);
}
END_TEST

/* What the expired function saw, on which thread. */
static wu_wait_t fired;
static int nfired;
static bool in_thread;
static wu_progress_t *pt;

static void on_expired(wu_rte_coll_t *c)
{
    nfired++;
    in_thread = wu_progress_in_thread(pt);
    ck_assert_int_eq(1, c->timeout);
    wu_rte_coll_close(c);
    wu_wait_release(&fired, WU_SUCCESS);
}

typedef struct {
    wu_rte_colls_t *s;
    int *destroyed;
    bool close_early;
} arm_t;

static void arm_in_pt(void *arg)
{
    arm_t *a = arg;
    own_t *o = open_one(a->s, 0, "k", 2, a->destroyed);
    own_t *q = open_one(a->s, 0, "k", 2, a->destroyed);
    wu_rte_coll_expect(&o->super, 0);
    wu_rte_coll_arm(&o->super, 1);
    wu_rte_coll_arm(&o->super, 5); /* armed already: stays 1 s */
    wu_rte_coll_arm(&q->super, 1);
    wu_rte_coll_close(&q->super); /* closed before its time: never fires */
}

static void fini_in_pt(void *arg)
{
    wu_rte_colls_fini(arg);
}

START_TEST(timeouts)
{
    wu_rte_colls_t s;
    int destroyed = 0;
    arm_t a = {.s = &s, .destroyed = &destroyed};
    pt = wu_progress_start("coll-test");
    ck_assert_ptr_nonnull(pt);
    wu_wait_init(&fired);
    nfired = 0;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_colls_init(&s, pt, on_expired));
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(pt, arm_in_pt, &a));
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&fired, 20.0));
    ck_assert_int_eq(1, nfired);
    ck_assert(in_thread);
    ck_assert_int_eq(2, destroyed); /* the one closed early, the one closed on its timeout */
    ck_assert_ptr_null(wu_rte_colls_first(&s));
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(pt, fini_in_pt, &s));
    wu_progress_stop(pt);
    ck_assert_int_eq(1, nfired);
    wu_wait_destroy(&fired);
}
END_TEST

START_TEST(no_timeouts)
{
    /* a set without a progress thread never arms */
    wu_rte_colls_t s;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_colls_init(&s, NULL, NULL));
    own_t *o = open_one(&s, 0, "k", 1, NULL);
    wu_rte_coll_arm(&o->super, 1);
    ck_assert_ptr_null(o->super.timer);
    ck_assert_int_eq(0, o->super.timeout);
    wu_rte_coll_close(&o->super);
    wu_rte_coll_close(NULL);
    wu_rte_colls_fini(&s);
}
END_TEST

static Suite *coll_suite(void)
{
    Suite *s = suite_create("rte_coll");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, arrival_order);
    tcase_add_test(tc, contributions);
    tcase_add_test(tc, timeouts);
    tcase_add_test(tc, no_timeouts);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(coll_suite)
