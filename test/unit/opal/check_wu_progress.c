/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_progress.c -- unit tests of the progress thread, thread shifts, timers and waits.
 *
 * Callbacks never call ck_assert (they run in the progress thread): they record what they saw
 * in a context that the test thread reads after a wait, which orders the accesses. A callback
 * that must hold the loop still waits on a semaphore "gate" the test thread opens. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getname_np */
#endif

#include "opal/event/wu_progress.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_error.h"
#include "test/support/wu_test.h"
#include "test/support/wu_test_io.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void count_cb(void *arg)
{
    (*(int *)arg)++; /* only ever touched in one progress thread */
}

static void gate_cb(void *arg)
{
    sem_wait(arg);
}

static void done_cb(wu_wait_call_t *call)
{
    wu_wait_call_done(call, WU_SUCCESS);
}

static void release_cb(void *arg)
{
    wu_wait_release(arg, 9);
}

/* ---- lifecycle ---- */

START_TEST(start_stop_cycles)
{
    ck_assert_int_eq(WU_SUCCESS, wu_event_global_init());
    ck_assert_int_eq(WU_SUCCESS, wu_event_global_init()); /* idempotent */
    wu_progress_stop(wu_progress_start("warmup"));
    int fds = wu_test_count_fds();
    int ran = 0, shifted = 0;
    for (int i = 0; i < 100; i++) {
        wu_progress_t *pt = wu_progress_start(0 == i % 3 ? NULL : "cycle");
        ck_assert_ptr_nonnull(pt);
        ck_assert_ptr_nonnull(wu_progress_base(pt));
        ck_assert(!wu_progress_in_thread(pt));
        if (0 != i % 2) { /* stop right after a shift, and with nothing queued */
            ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(pt, count_cb, &ran));
            shifted++;
        }
        wu_progress_stop(pt);
    }
    ck_assert_int_eq(shifted, ran);
    ck_assert_int_eq(fds, wu_test_count_fds());
}
END_TEST

START_TEST(null_and_bad_params)
{
    wu_progress_stop(NULL);
    ck_assert_ptr_null(wu_progress_base(NULL));
    ck_assert(!wu_progress_in_thread(NULL));
    ck_assert(!wu_progress_in_any_thread());
    ck_assert(!wu_progress_timer_cancel(NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_progress_shift(NULL, count_cb, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_progress_shift_wait(NULL, done_cb, NULL, 1.0));
    wu_progress_t *pt = wu_progress_start("bad");
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_progress_shift(pt, NULL, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_progress_shift_wait(pt, NULL, NULL, 1.0));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_progress_shift_wait(pt, done_cb, NULL, NAN));
    wu_progress_stop(pt);
}
END_TEST

static const struct {
    bool null_pt, null_fn;
    double seconds;
} bad_timers[] = {
    {true, false, 1.0},  {false, true, 1.0},       {false, false, -0.001}, {false, false, -1e300},
    {false, false, NAN}, {false, false, INFINITY}, {false, false, 2e9},
};

START_TEST(timer_rejects_bad_input)
{
    wu_progress_t *pt = wu_progress_start("badtimer");
    int ran = 0;
    wu_timer_t *t = wu_progress_timer(bad_timers[_i].null_pt ? NULL : pt, bad_timers[_i].seconds,
                                      bad_timers[_i].null_fn ? NULL : count_cb, &ran);
    ck_assert_ptr_null(t);
    wu_progress_stop(pt);
    ck_assert_int_eq(0, ran);
}
END_TEST

/* ---- shifting ---- */

struct where {
    pthread_t tid;
    bool in_pt, in_any;
    char name[32];
};

static void where_cb(wu_wait_call_t *call)
{
    struct where *w = call->cbdata;
    w->tid = pthread_self();
    w->in_any = wu_progress_in_any_thread();
    pthread_getname_np(pthread_self(), w->name, sizeof(w->name));
    wu_wait_call_done(call, 7);
}

START_TEST(callbacks_run_in_progress_thread)
{
    wu_progress_t *pt = wu_progress_start("wu-test-progress-long-name");
    struct where w = {0};
    ck_assert_int_eq(7, wu_progress_shift_wait(pt, where_cb, &w, 10.0));
    ck_assert(!pthread_equal(w.tid, pthread_self()));
    ck_assert(w.in_any);
    ck_assert_str_eq("wu-test-progres", w.name); /* truncated to the kernel's 15 characters */
    wu_progress_stop(pt);
}
END_TEST

enum { NPRODUCERS = 8, NITEMS = 4000 };

struct fifo_ctx {
    wu_progress_t *pt;
    pthread_t progress_tid;
    int next[NPRODUCERS];
    int out_of_order, wrong_thread, ran;
};
struct fifo_item {
    struct fifo_ctx *ctx;
    int producer, seq;
};
struct producer {
    struct fifo_ctx *ctx;
    struct fifo_item items[NITEMS];
    int failures;
};

static void fifo_cb(void *arg)
{
    struct fifo_item *it = arg;
    struct fifo_ctx *ctx = it->ctx;
    ctx->out_of_order += ctx->next[it->producer] != it->seq;
    ctx->next[it->producer] = it->seq + 1;
    ctx->wrong_thread += !pthread_equal(pthread_self(), ctx->progress_tid);
    ctx->ran++;
}

static void *producer_main(void *arg)
{
    struct producer *p = arg;
    for (int i = 0; i < NITEMS; i++) {
        p->failures += WU_SUCCESS != wu_progress_shift(p->ctx->pt, fifo_cb, &p->items[i]);
        if (0 == i % 512) {
            sched_yield(); /* interleave producers */
        }
    }
    return NULL;
}

START_TEST(shift_fifo_per_producer)
{
    static struct producer prod[NPRODUCERS];
    struct fifo_ctx ctx = {.pt = wu_progress_start("fifo")};
    struct where w;
    ck_assert_int_eq(7, wu_progress_shift_wait(ctx.pt, where_cb, &w, 10.0));
    ctx.progress_tid = w.tid;
    pthread_t th[NPRODUCERS];
    for (int p = 0; p < NPRODUCERS; p++) {
        prod[p].ctx = &ctx;
        prod[p].failures = 0;
        for (int i = 0; i < NITEMS; i++) {
            prod[p].items[i] = (struct fifo_item){&ctx, p, i};
        }
        ck_assert_int_eq(0, pthread_create(&th[p], NULL, producer_main, &prod[p]));
    }
    for (int p = 0; p < NPRODUCERS; p++) {
        pthread_join(th[p], NULL);
        ck_assert_int_eq(0, prod[p].failures);
    }
    /* The queue is one FIFO: this runs after every item shifted above. */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(ctx.pt, done_cb, NULL, 30.0));
    ck_assert_int_eq(NPRODUCERS * NITEMS, ctx.ran);
    ck_assert_int_eq(0, ctx.out_of_order);
    ck_assert_int_eq(0, ctx.wrong_thread);
    for (int p = 0; p < NPRODUCERS; p++) {
        ck_assert_int_eq(NITEMS, ctx.next[p]);
    }
    wu_progress_stop(ctx.pt);
}
END_TEST

struct nest_ctx {
    wu_progress_t *pt;
    wu_wait_t done;
    bool first_returned;
    int rc;
    atomic_bool timer_fired;
    int spins;
};

static void nested_second(void *arg)
{
    struct nest_ctx *c = arg;
    wu_wait_release(&c->done, c->first_returned ? 1 : 2);
}

static void nested_first(void *arg)
{
    struct nest_ctx *c = arg;
    c->rc = wu_progress_shift(c->pt, nested_second, c);
    c->first_returned = true; /* set after the shift: an inline run would see false */
}

START_TEST(shift_from_callback_runs_later)
{
    struct nest_ctx c = {.pt = wu_progress_start("nest")};
    wu_wait_init(&c.done);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(c.pt, nested_first, &c));
    ck_assert_int_eq(1, wu_wait_for(&c.done, 10.0));
    ck_assert_int_eq(WU_SUCCESS, c.rc);
    wu_progress_stop(c.pt);
    wu_wait_destroy(&c.done);
}
END_TEST

static void spin_timer_cb(void *arg)
{
    atomic_store(&((struct nest_ctx *)arg)->timer_fired, true);
}

static void spin_cb(void *arg)
{
    struct nest_ctx *c = arg;
    c->spins++;
    if (atomic_load(&c->timer_fired)) {
        wu_wait_release(&c->done, WU_SUCCESS);
    } else if (WU_SUCCESS != wu_progress_shift(c->pt, spin_cb, c)) {
        wu_wait_release(&c->done, WU_ERROR);
    }
}

/* A callback that keeps re-shifting itself must not starve timers. */
START_TEST(self_shifting_does_not_starve_timers)
{
    struct nest_ctx c = {.pt = wu_progress_start("spin")};
    wu_wait_init(&c.done);
    wu_timer_t *t = wu_progress_timer(c.pt, 0.05, spin_timer_cb, &c);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(c.pt, spin_cb, &c));
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&c.done, 20.0));
    ck_assert_int_gt(c.spins, 1);
    ck_assert(!wu_progress_timer_cancel(t)); /* it fired */
    wu_progress_stop(c.pt);
    wu_wait_destroy(&c.done);
}
END_TEST

/* ---- timers ---- */

struct tctx {
    wu_wait_t all_fired;
    int order[8], n, want;
};
struct tslot {
    struct tctx *ctx;
    int id;
    bool fired;
};

static void order_cb(void *arg)
{
    struct tslot *s = arg;
    s->fired = true;
    s->ctx->order[s->ctx->n++] = s->id;
    if (s->ctx->n == s->ctx->want) {
        wu_wait_release(&s->ctx->all_fired, WU_SUCCESS);
    }
}

START_TEST(timers_fire_in_deadline_order)
{
    static const double delay[] = {0.15, 0.05, 0.25, 0.10, 0.20, 0.0};
    static const int expect[] = {5, 1, 3, 0, 4, 2};
    wu_progress_t *pt = wu_progress_start("timers");
    struct tctx ctx = {.want = WU_NELEMS(delay)};
    struct tslot slot[WU_NELEMS(delay)];
    wu_timer_t *t[WU_NELEMS(delay)];
    wu_wait_init(&ctx.all_fired);
    double t0 = now();
    for (size_t i = 0; i < WU_NELEMS(delay); i++) {
        slot[i] = (struct tslot){&ctx, (int)i, false};
        t[i] = wu_progress_timer(pt, delay[i], order_cb, &slot[i]);
        ck_assert_ptr_nonnull(t[i]);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&ctx.all_fired, 20.0));
    ck_assert_double_ge(now() - t0, 0.25);
    for (size_t i = 0; i < WU_NELEMS(delay); i++) {
        ck_assert_int_eq(expect[i], ctx.order[i]);
        ck_assert(!wu_progress_timer_cancel(t[i])); /* fired: fn ran */
    }
    wu_progress_stop(pt);
    wu_wait_destroy(&ctx.all_fired);
}
END_TEST

enum { NEARLY = 40 };

struct early_ctx {
    wu_progress_t *pt;
    wu_wait_t all_fired;
    _Atomic int n;
    double armed[NEARLY], fired[NEARLY], delay[NEARLY];
    int ids[NEARLY];
};
static struct early_ctx early;

static void early_cb(void *arg)
{
    int id = *(int *)arg;
    early.fired[id] = now();
    if (NEARLY == atomic_fetch_add(&early.n, 1) + 1) {
        wu_wait_release(&early.all_fired, WU_SUCCESS);
    }
}

static wu_timer_t *early_arm(int i)
{
    early.ids[i] = i;
    early.armed[i] = now();
    return wu_progress_timer(early.pt, early.delay[i], early_cb, &early.ids[i]);
}

/* Half of the timers are armed in the progress thread (where libevent caches the time). */
static void early_arm_in_pt(wu_wait_call_t *call)
{
    wu_timer_t **t = call->cbdata;
    for (int i = 0; i < NEARLY; i += 2) {
        t[i] = early_arm(i);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Deadlines 0.7 ms apart, less than a tick of the coarse clock the loop measures time with:
 * none fires before its deadline, and deadlines 10 ms apart or more fire in their order. */
START_TEST(timers_never_early)
{
    wu_timer_t *t[NEARLY];
    memset(&early, 0, sizeof early);
    early.pt = wu_progress_start("early");
    wu_wait_init(&early.all_fired);
    for (int i = 0; i < NEARLY; i++) {
        early.delay[i] = 0.02 + 0.0007 * i;
    }
    for (int round = 0; round < 2; round++) {
        atomic_store(&early.n, 0);
        ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(early.pt, early_arm_in_pt, t, 10.0));
        for (int i = 1; i < NEARLY; i += 2) {
            usleep(330); /* armed at different points of a clock tick */
            t[i] = early_arm(i);
        }
        ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&early.all_fired, 20.0));
        for (int i = 0; i < NEARLY; i++) {
            ck_assert_ptr_nonnull(t[i]);
            ck_assert_msg(early.fired[i] - early.armed[i] >= early.delay[i],
                          "timer %d of %.4f s fired after %.4f s", i, early.delay[i],
                          early.fired[i] - early.armed[i]);
            ck_assert(!wu_progress_timer_cancel(t[i]));
        }
        for (int a = 0; a < NEARLY; a++) {
            for (int b = 0; b < NEARLY; b++) {
                ck_assert_msg(early.armed[a] + early.delay[a] + 0.01 >=
                                      early.armed[b] + early.delay[b] ||
                                  early.fired[a] <= early.fired[b],
                              "timer %d fired after timer %d, due 10 ms later", a, b);
            }
        }
        wu_wait_destroy(&early.all_fired);
        wu_wait_init(&early.all_fired);
    }
    wu_progress_stop(early.pt);
    wu_wait_destroy(&early.all_fired);
}
END_TEST

enum { NCANCEL = 6 };

struct cancel_ctx {
    wu_progress_t *pt;
    struct tctx tc;
    struct tslot slot[NCANCEL + 1];
    bool in_thread_cancel_ret[NCANCEL];
};

/* In the progress thread: timers due at once are cancelled before the loop can run them. */
static void cancel_in_pt_cb(wu_wait_call_t *call)
{
    struct cancel_ctx *c = call->cbdata;
    for (int i = 0; i < NCANCEL; i++) {
        wu_timer_t *t = wu_progress_timer(c->pt, 0.0, order_cb, &c->slot[i]);
        c->in_thread_cancel_ret[i] = NULL != t && wu_progress_timer_cancel(t);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

START_TEST(cancelled_timers_never_fire)
{
    struct cancel_ctx c = {.pt = wu_progress_start("cancel"), .tc = {.want = 1}};
    sem_t gate;
    sem_init(&gate, 0, 0);
    wu_wait_init(&c.tc.all_fired);
    for (int i = 0; i <= NCANCEL; i++) {
        c.slot[i] = (struct tslot){&c.tc, i, false};
    }
    /* From the progress thread itself. */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(c.pt, cancel_in_pt_cb, &c, 10.0));
    /* From another thread while the loop is held, so none can have fired yet. */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(c.pt, gate_cb, &gate));
    wu_timer_t *t[NCANCEL];
    for (int i = 0; i < NCANCEL; i++) {
        t[i] = wu_progress_timer(c.pt, 0.001 * i, order_cb, &c.slot[i]);
        ck_assert_ptr_nonnull(t[i]);
    }
    /* the sentinel, due after all of them */
    wu_timer_t *sentinel = wu_progress_timer(c.pt, 0.1, order_cb, &c.slot[NCANCEL]);
    for (int i = 0; i < NCANCEL; i++) {
        ck_assert(wu_progress_timer_cancel(t[i]));
    }
    sem_post(&gate);
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&c.tc.all_fired, 20.0));
    for (int i = 0; i < NCANCEL; i++) {
        ck_assert(c.in_thread_cancel_ret[i]);
        ck_assert(!c.slot[i].fired);
    }
    ck_assert(c.slot[NCANCEL].fired);
    ck_assert_int_eq(NCANCEL, c.tc.order[0]);
    ck_assert(!wu_progress_timer_cancel(sentinel));
    wu_progress_stop(c.pt);
    wu_wait_destroy(&c.tc.all_fired);
    sem_destroy(&gate);
}
END_TEST

enum { NRACE = 300 };
static atomic_bool race_fired[NRACE];

static void race_cb(void *arg)
{
    atomic_store(&race_fired[*(int *)arg], true);
}

/* Cancel racing with expiry: cancel says true exactly when the callback never runs. */
START_TEST(cancel_races_with_fire)
{
    static int ids[NRACE];
    bool not_run[NRACE];
    wu_progress_t *pt = wu_progress_start("race");
    for (int i = 0; i < NRACE; i++) {
        ids[i] = i;
        atomic_store(&race_fired[i], false);
        wu_timer_t *t = wu_progress_timer(pt, (i % 3) * 1e-4, race_cb, &ids[i]);
        ck_assert_ptr_nonnull(t);
        if (0 == i % 7) {
            sched_yield();
        }
        not_run[i] = wu_progress_timer_cancel(t);
    }
    /* anything still running finishes before this barrier runs */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, done_cb, NULL, 10.0));
    wu_progress_stop(pt);
    for (int i = 0; i < NRACE; i++) {
        ck_assert_int_eq(!not_run[i], atomic_load(&race_fired[i]));
    }
}
END_TEST

START_TEST(stop_drops_unfired_timers)
{
    wu_progress_t *pt = wu_progress_start("droptimer");
    int ran = 0;
    wu_timer_t *late = wu_progress_timer(pt, 3600.0, count_cb, &ran);
    wu_timer_t *soon = wu_progress_timer(pt, 1e-6, count_cb, &ran);
    ck_assert_ptr_nonnull(late);
    ck_assert_ptr_nonnull(soon);
    wu_progress_stop(pt);
    ck_assert(wu_progress_timer_cancel(late)); /* the handle outlives pt; fn never ran */
    ck_assert_int_eq(ran, !wu_progress_timer_cancel(soon));
}
END_TEST

/* ---- stopping with work queued ---- */

struct stop_ctx {
    wu_progress_t *pt;
    int ran;
    int inner_rc;
};

static void *stopper_main(void *arg)
{
    wu_progress_stop(arg);
    return NULL;
}

static void shift_during_stop_cb(void *arg)
{
    struct stop_ctx *c = arg;
    c->inner_rc = wu_progress_shift(c->pt, count_cb, &c->ran);
}

START_TEST(stop_runs_all_accepted_work)
{
    struct stop_ctx c = {.pt = wu_progress_start("stopwork"), .inner_rc = 12345};
    sem_t gate;
    int queued = 0, rc = WU_SUCCESS;
    sem_init(&gate, 0, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(c.pt, gate_cb, &gate)); /* hold the loop */
    for (int i = 0; i < 50; i++, queued++) {
        ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(c.pt, count_cb, &c.ran));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(c.pt, shift_during_stop_cb, &c));
    pthread_t stopper;
    ck_assert_int_eq(0, pthread_create(&stopper, NULL, stopper_main, c.pt));
    /* pt cannot be freed before the gate opens: keep shifting until stop refuses */
    double deadline = now() + 20.0;
    while (now() < deadline) {
        rc = wu_progress_shift(c.pt, count_cb, &c.ran);
        if (WU_SUCCESS != rc) {
            break;
        }
        queued++;
        sched_yield();
    }
    ck_assert_int_eq(WU_ERR_INIT, rc);
    ck_assert_int_eq(WU_ERR_INIT, wu_progress_shift_wait(c.pt, done_cb, NULL, 1.0));
    ck_assert_ptr_null(wu_progress_timer(c.pt, 0.0, count_cb, &c.ran));
    sem_post(&gate);
    pthread_join(stopper, NULL);
    ck_assert_int_eq(queued, c.ran);
    ck_assert_int_eq(WU_ERR_INIT, c.inner_rc);
    sem_destroy(&gate);
}
END_TEST

struct self_stop {
    wu_progress_t *target;
    bool returned;
};

static void stop_target_cb(wu_wait_call_t *call)
{
    struct self_stop *s = call->cbdata;
    wu_progress_stop(s->target);
    s->returned = true;
    wu_wait_call_done(call, WU_SUCCESS);
}

START_TEST(stop_from_own_thread_refused)
{
    wu_progress_t *pt = wu_progress_start("selfstop");
    struct self_stop s = {pt, false};
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, stop_target_cb, &s, 10.0));
    ck_assert(s.returned);
    /* still running */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, done_cb, NULL, 10.0));
    wu_progress_stop(pt);
}
END_TEST

struct two {
    wu_progress_t *a, *b;
    bool a_in_a, a_in_b;
    wu_wait_t w;
};

static void hop_b(void *arg)
{
    struct two *t = arg;
    wu_wait_release(&t->w, wu_progress_in_thread(t->b) && !wu_progress_in_thread(t->a) ? 1 : 2);
}

static void hop_a(void *arg)
{
    struct two *t = arg;
    t->a_in_a = wu_progress_in_thread(t->a);
    t->a_in_b = wu_progress_in_thread(t->b);
    if (WU_SUCCESS != wu_progress_shift(t->b, hop_b, t)) {
        wu_wait_release(&t->w, 3);
    }
}

START_TEST(two_progress_threads)
{
    struct two t = {.a = wu_progress_start("a"), .b = wu_progress_start("b")};
    wu_wait_init(&t.w);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(t.a, hop_a, &t));
    ck_assert_int_eq(1, wu_wait_for(&t.w, 10.0));
    ck_assert(t.a_in_a);
    ck_assert(!t.a_in_b);
    /* a progress thread may stop another one */
    struct self_stop s = {t.a, false};
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(t.b, stop_target_cb, &s, 10.0));
    ck_assert(s.returned);
    wu_progress_stop(t.b);
    wu_wait_destroy(&t.w);
}
END_TEST

/* ---- waits ---- */

static const double timeouts[] = {0.01, 0.2, 0.5};

START_TEST(wait_times_out)
{
    wu_wait_t w;
    wu_wait_init(&w);
    double t0 = now();
    ck_assert_int_eq(WU_ERR_TIMEOUT, wu_wait_for(&w, timeouts[_i]));
    double dt = now() - t0;
    ck_assert_double_ge(dt, timeouts[_i]);
    ck_assert_double_lt(dt, timeouts[_i] + 5.0);
    wu_wait_destroy(&w);
}
END_TEST

START_TEST(wait_release_before_and_twice)
{
    wu_wait_t w;
    wu_wait_init(&w);
    wu_wait_release(&w, 5);
    wu_wait_release(&w, 6); /* keeps the first */
    ck_assert_int_eq(5, wu_wait_for(&w, 0.0));
    ck_assert_int_eq(5, wu_wait_for(&w, 1.0));
    wu_wait_release(NULL, 1);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_wait_for(NULL, 1.0));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_wait_for(&w, NAN));
    wu_wait_destroy(&w);
    wu_wait_destroy(NULL);
}
END_TEST

static void *releaser_main(void *arg)
{
    wu_wait_release(arg, 42);
    return NULL;
}

START_TEST(wait_released_by_other_threads)
{
    wu_wait_t w;
    pthread_t th;
    wu_wait_init(&w);
    ck_assert_int_eq(0, pthread_create(&th, NULL, releaser_main, &w));
    ck_assert_int_eq(42, wu_wait_for(&w, 0.0));
    pthread_join(th, NULL);
    wu_wait_destroy(&w);

    wu_progress_t *pt = wu_progress_start("release");
    wu_wait_init(&w);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(pt, release_cb, &w));
    ck_assert_int_eq(9, wu_wait_for(&w, 10.0));
    wu_progress_stop(pt);
    wu_wait_destroy(&w);
}
END_TEST

struct refuse {
    wu_progress_t *pt;
    int wait_rc, shift_wait_rc;
    double took;
};

static void refuse_cb(wu_wait_call_t *call)
{
    struct refuse *r = call->cbdata;
    wu_wait_t never;
    wu_wait_init(&never);
    double t0 = now();
    r->wait_rc = wu_wait_for(&never, 5.0);
    r->shift_wait_rc = wu_progress_shift_wait(r->pt, done_cb, NULL, 5.0);
    r->took = now() - t0;
    wu_wait_destroy(&never);
    wu_wait_call_done(call, WU_SUCCESS);
}

START_TEST(wait_refused_in_progress_thread)
{
    struct refuse r = {.pt = wu_progress_start("refuse")};
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(r.pt, refuse_cb, &r, 20.0));
    ck_assert_int_eq(WU_ERR_RESOURCE_BUSY, r.wait_rc);
    ck_assert_int_eq(WU_ERR_RESOURCE_BUSY, r.shift_wait_rc);
    ck_assert_double_lt(r.took, 4.0); /* refused, not timed out */
    wu_progress_stop(r.pt);
}
END_TEST

struct late {
    wu_progress_t *pt;
    wu_wait_call_t *call;
    wu_timer_t *timer;
};

static void late_done_cb(void *arg)
{
    struct late *l = arg;
    wu_wait_call_done(l->call, 11);
}

/* Completes later, from a timer, as an asynchronous request would. */
static void deferred_cb(wu_wait_call_t *call)
{
    struct late *l = call->cbdata;
    l->call = call;
    l->timer = wu_progress_timer(l->pt, 0.05, late_done_cb, l);
    if (NULL == l->timer) {
        wu_wait_call_done(call, WU_ERROR);
    }
}

static void keep_call_cb(wu_wait_call_t *call)
{
    ((struct late *)call->cbdata)->call = call; /* completed later by the test */
}

START_TEST(shift_wait_async_and_timeout)
{
    struct late l = {.pt = wu_progress_start("async")};
    ck_assert_int_eq(11, wu_progress_shift_wait(l.pt, deferred_cb, &l, 10.0));
    ck_assert(!wu_progress_timer_cancel(l.timer));

    double t0 = now();
    ck_assert_int_eq(WU_ERR_TIMEOUT, wu_progress_shift_wait(l.pt, keep_call_cb, &l, 0.1));
    ck_assert_double_ge(now() - t0, 0.1);
    /* the waiter gave up; completing the call afterwards must still be safe (ASan checks) */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(l.pt, late_done_cb, &l));
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(l.pt, done_cb, NULL, 10.0));
    wu_progress_stop(l.pt);
}
END_TEST

/* ---- fork ---- */

struct parked {
    sem_t entered, leave;
};

static void park_cb(void *arg)
{
    struct parked *p = arg;
    sem_post(&p->entered);
    sem_wait(&p->leave);
}

START_TEST(child_after_fork_uses_its_own_thread)
{
    wu_progress_t *pt = wu_progress_start("parent");
    int ran = 0;
    wu_timer_t *t = wu_progress_timer(pt, 3600.0, count_cb, &ran);
    ck_assert_ptr_nonnull(t);
    /* Fork while the progress thread is parked in a known place: a sanitizer's allocator is not
     * fork safe, so a fork while that thread allocates could hang the child's first malloc. */
    struct parked park;
    sem_init(&park.entered, 0, 0);
    sem_init(&park.leave, 0, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift(pt, park_cb, &park));
    sem_wait(&park.entered);
    pid_t pid = fork();
    sem_post(&park.leave);
    ck_assert_int_ge(pid, 0);
    if (0 == pid) {
        int code = 0;
        if (WU_ERR_INIT != wu_progress_shift(pt, count_cb, &ran)) {
            code = 1;
        } else if (NULL != wu_progress_timer(pt, 0.0, count_cb, &ran)) {
            code = 2;
        } else if (!wu_progress_timer_cancel(t)) {
            code = 3;
        } else {
            wu_progress_stop(pt); /* returns without touching the parent's thread */
#ifndef __SANITIZE_THREAD__       /* TSan cannot start threads after a multi-threaded fork */
            wu_progress_t *mine = wu_progress_start("child");
            if (NULL == mine || WU_SUCCESS != wu_progress_shift_wait(mine, done_cb, NULL, 10.0)) {
                code = 4;
            }
            wu_progress_stop(mine);
#endif
        }
        _exit(code);
    }
    int status;
    ck_assert_int_eq(pid, waitpid(pid, &status, 0));
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(0, WEXITSTATUS(status));
    /* the parent is unaffected */
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, done_cb, NULL, 10.0));
    ck_assert(wu_progress_timer_cancel(t));
    wu_progress_stop(pt);
    ck_assert_int_eq(0, ran);
    sem_destroy(&park.entered);
    sem_destroy(&park.leave);
}
END_TEST

static Suite *wu_progress_suite(void)
{
    Suite *s = suite_create("wu_progress");
    TCase *tc = tcase_create("lifecycle");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, start_stop_cycles);
    tcase_add_test(tc, null_and_bad_params);
    tcase_add_loop_test(tc, timer_rejects_bad_input, 0, WU_NELEMS(bad_timers));
    tcase_add_test(tc, stop_runs_all_accepted_work);
    tcase_add_test(tc, stop_from_own_thread_refused);
    tcase_add_test(tc, two_progress_threads);
    tcase_add_test(tc, child_after_fork_uses_its_own_thread);
    suite_add_tcase(s, tc);

    tc = tcase_create("shift");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, callbacks_run_in_progress_thread);
    tcase_add_test(tc, shift_fifo_per_producer);
    tcase_add_test(tc, shift_from_callback_runs_later);
    tcase_add_test(tc, self_shifting_does_not_starve_timers);
    suite_add_tcase(s, tc);

    tc = tcase_create("timer");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, timers_fire_in_deadline_order);
    tcase_add_test(tc, timers_never_early);
    tcase_add_test(tc, cancelled_timers_never_fire);
    tcase_add_test(tc, cancel_races_with_fire);
    tcase_add_test(tc, stop_drops_unfired_timers);
    suite_add_tcase(s, tc);

    tc = tcase_create("wait");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, wait_times_out, 0, WU_NELEMS(timeouts));
    tcase_add_test(tc, wait_release_before_and_twice);
    tcase_add_test(tc, wait_released_by_other_threads);
    tcase_add_test(tc, wait_refused_in_progress_thread);
    tcase_add_test(tc, shift_wait_async_and_timeout);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(wu_progress_suite)
