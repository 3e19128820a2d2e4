/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_progress.c -- the progress thread: a libevent loop, a FIFO of shifted work, one-shot timers.
 *
 * Shifts go into a mutex-protected singly linked FIFO; the producer that makes the queue
 * non-empty activates a user event ("wakeup") whose callback drains one batch (a snapshot of
 * the queue) and re-arms itself for the next loop turn if more arrived meanwhile, so a steady
 * stream of shifts (even a callback re-shifting itself) cannot starve timers and I/O. Stopping
 * closes the queue under the lock, then lets the loop drain and break.
 *
 * Timers: each has a state (PENDING -> FIRED | CANCELLED | DROPPED) guarded by its own lock, and
 * sits on its progress thread's list while its libevent event exists. Whoever unlinks it (its
 * callback, a cancel, or stop) frees the event and drops the list's reference. Lock order:
 * timer lock, then progress lock, then libevent's base lock; no lock is held across a callback. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setname_np */
#endif

#include "opal/event/wu_progress.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_time.h"

#include <event2/event.h>
#include <event2/thread.h>

#include <math.h> /* isfinite: a macro, no libm */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct shift_item {
    struct shift_item *next;
    wu_shift_fn_t fn;
    void *cbdata;
} shift_item_t;

enum timer_state { TIMER_PENDING, TIMER_FIRED, TIMER_CANCELLED, TIMER_DROPPED };

struct wu_timer {
    pthread_mutex_t lock; /* guards state */
    enum timer_state state;
    _Atomic int refs;             /* the caller's handle, the list, an in-flight cancel shift */
    wu_progress_t *pt;            /* valid while state is PENDING (see stop_cleanup_timers) */
    unsigned fork_gen;            /* as pt->fork_gen, readable after pt is gone */
    struct event *ev;             /* owned by whoever unlinks the timer */
    struct wu_timer *prev, *next; /* on pt->timers, under pt->lock */
    bool linked;
    wu_shift_fn_t fn;
    void *cbdata;
    double deadline; /* CLOCK_MONOTONIC seconds: the callback never runs before it */
};

struct wu_progress {
    pthread_mutex_t lock; /* guards everything below except the loop-thread-only fields */
    shift_item_t *head, *tail;
    bool accepting; /* false once stopping: shifts and new timers are refused */
    bool stopping;
    bool draining; /* the wakeup callback is running a batch */
    wu_timer_t *timers;
    struct event_base *base;
    struct event *wakeup;
    pthread_t thread;
    unsigned fork_gen; /* fork generation at creation; differs in a child */
    bool exit_loop;    /* progress thread only */
    char name[16];
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static int global_status = WU_ERR_INIT;
static _Atomic unsigned fork_gen;
static _Thread_local wu_progress_t *tls_current;

static void on_fork_child(void)
{
    atomic_fetch_add(&fork_gen, 1);
}

static void global_init_once(void)
{
    if (0 != evthread_use_pthreads()) {
        fprintf(stderr, "wireup: libevent thread support (evthread_use_pthreads) failed\n");
        return;
    }
    if (0 != pthread_atfork(NULL, NULL, on_fork_child)) {
        fprintf(stderr, "wireup: pthread_atfork failed; progress threads cannot run\n");
        return;
    }
    global_status = WU_SUCCESS;
}

int wu_event_global_init(void)
{
    pthread_once(&global_once, global_init_once);
    return global_status;
}

static bool inherited(const wu_progress_t *pt)
{
    return pt->fork_gen != atomic_load(&fork_gen);
}

/* Run everything queued right now, in order, without holding the lock. Until the caller clears
 * pt->draining, shifts leave the wakeup event alone and the caller re-arms it if needed:
 * activating it while its callback runs would make libevent run it again in the same pass, and
 * a steady stream of shifts would starve timers and I/O. */
static void run_batch(wu_progress_t *pt)
{
    pthread_mutex_lock(&pt->lock);
    shift_item_t *item = pt->head;
    pt->head = pt->tail = NULL;
    pt->draining = true;
    pthread_mutex_unlock(&pt->lock);
    while (NULL != item) {
        shift_item_t *next = item->next;
        item->fn(item->cbdata);
        free(item);
        item = next;
    }
}

static void wakeup_cb(evutil_socket_t fd WU_UNUSED, short what WU_UNUSED, void *arg)
{
    wu_progress_t *pt = arg;
    run_batch(pt);
    pthread_mutex_lock(&pt->lock);
    pt->draining = false;
    if (NULL != pt->head) {
        /* More arrived: run again on the next loop turn, after due timers and ready I/O. */
        static const struct timeval next_turn = {0, 0};
        event_add(pt->wakeup, &next_turn);
    } else if (pt->stopping) {
        pt->exit_loop = true; /* queue closed and empty: nothing can be added any more */
        event_base_loopbreak(pt->base);
    }
    pthread_mutex_unlock(&pt->lock);
}

static void *progress_main(void *arg)
{
    wu_progress_t *pt = arg;
    tls_current = pt;
    (void)pthread_setname_np(pthread_self(), pt->name);
    /* Someone else may break or exit our base's loop; only our own stop ends the thread. */
    while (!pt->exit_loop) {
        if (event_base_loop(pt->base, EVLOOP_NO_EXIT_ON_EMPTY) < 0) {
            fprintf(stderr, "wireup: progress thread %s: event loop failed\n", pt->name);
            break;
        }
    }
    /* After a loop failure: close the queue and still run what was accepted. */
    pthread_mutex_lock(&pt->lock);
    pt->accepting = false;
    bool more = NULL != pt->head;
    pthread_mutex_unlock(&pt->lock);
    while (more) {
        run_batch(pt);
        pthread_mutex_lock(&pt->lock);
        more = NULL != pt->head;
        pthread_mutex_unlock(&pt->lock);
    }
    tls_current = NULL;
    return NULL;
}

static void free_progress(wu_progress_t *pt)
{
    if (NULL != pt->wakeup) {
        event_free(pt->wakeup);
    }
    if (NULL != pt->base) {
        event_base_free(pt->base);
    }
    pthread_mutex_destroy(&pt->lock);
    free(pt);
}

wu_progress_t *wu_progress_start(const char *name)
{
    if (WU_SUCCESS != wu_event_global_init()) {
        return NULL;
    }
    wu_progress_t *pt = calloc(1, sizeof(*pt));
    if (NULL == pt) {
        fprintf(stderr, "wireup: out of memory starting a progress thread\n");
        return NULL;
    }
    pthread_mutex_init(&pt->lock, NULL);
    snprintf(pt->name, sizeof(pt->name), "%s", NULL != name ? name : "wu-progress");
    pt->accepting = true;
    pt->fork_gen = atomic_load(&fork_gen);
    /* libevent's coarse clock: its precise one re-arms a timerfd at every turn of the loop (one
     * more system call per message handled); wu_progress_timer makes up for the coarse lag. */
    pt->base = event_base_new();
    if (NULL != pt->base) {
        pt->wakeup = event_new(pt->base, -1, 0, wakeup_cb, pt);
    }
    if (NULL == pt->wakeup) {
        fprintf(stderr, "wireup: cannot create the event base of progress thread %s\n", pt->name);
        free_progress(pt);
        return NULL;
    }
    /* The thread inherits a mask blocking asynchronous signals: they belong to the application's
     * threads. Faults stay deliverable so crashes are still reported. */
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};
    sigset_t all, old;
    sigfillset(&all);
    for (size_t i = 0; i < WU_NELEMS(faults); i++) {
        sigdelset(&all, faults[i]);
    }
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&pt->thread, NULL, progress_main, pt);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (0 != rc) {
        fprintf(stderr, "wireup: cannot create progress thread %s: %s\n", pt->name, strerror(rc));
        free_progress(pt);
        return NULL;
    }
    return pt;
}

static void timer_release(wu_timer_t *t)
{
    if (1 == atomic_fetch_sub(&t->refs, 1)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
    }
}

/* Under pt->lock: take t off the list; false if it was not on it. */
static bool timer_unlink_locked(wu_progress_t *pt, wu_timer_t *t)
{
    if (!t->linked) {
        return false;
    }
    if (NULL != t->prev) {
        t->prev->next = t->next;
    } else {
        pt->timers = t->next;
    }
    if (NULL != t->next) {
        t->next->prev = t->prev;
    }
    t->prev = t->next = NULL;
    t->linked = false;
    return true;
}

/* Take t off pt's list if it is still there; the one who does frees the event and drops the
 * list's reference. Called in the progress thread, or by stop after the thread ended. */
static void timer_retire(wu_progress_t *pt, wu_timer_t *t)
{
    pthread_mutex_lock(&pt->lock);
    bool was_linked = timer_unlink_locked(pt, t);
    pthread_mutex_unlock(&pt->lock);
    if (was_linked) {
        event_free(t->ev);
        t->ev = NULL;
        timer_release(t);
    }
}

/* Unlink and drop every timer left after the thread ended. Never holds pt->lock while taking a
 * timer's lock (a concurrent cancel holds them in the other order). Taking each timer's lock
 * before pt is freed is what keeps pt alive for a cancel that saw the timer PENDING. */
static void stop_cleanup_timers(wu_progress_t *pt)
{
    for (;;) {
        pthread_mutex_lock(&pt->lock);
        wu_timer_t *t = pt->timers;
        if (NULL != t) {
            atomic_fetch_add(&t->refs, 1); /* keep t while we use it below */
        }
        pthread_mutex_unlock(&pt->lock);
        if (NULL == t) {
            return;
        }
        pthread_mutex_lock(&t->lock);
        if (TIMER_PENDING == t->state) {
            t->state = TIMER_DROPPED;
        }
        pthread_mutex_unlock(&t->lock);
        timer_retire(pt, t);
        timer_release(t);
    }
}

void wu_progress_stop(wu_progress_t *pt)
{
    if (NULL == pt) {
        return;
    }
    if (inherited(pt)) {
        /* The thread does not exist in this child and the locks may be held by parent threads
         * that are gone: touching anything could hang. Leave it to exit/exec. */
        return;
    }
    if (wu_progress_in_thread(pt)) {
        fprintf(stderr,
                "wireup: wu_progress_stop(%s) called from its own progress thread; "
                "refused (it would wait for itself). Stop it from another thread.\n",
                pt->name);
        return;
    }
    pthread_mutex_lock(&pt->lock);
    pt->accepting = false;
    pt->stopping = true;
    event_active(pt->wakeup, EV_READ, 0);
    pthread_mutex_unlock(&pt->lock);
    pthread_join(pt->thread, NULL);
    stop_cleanup_timers(pt);
    free_progress(pt);
}

struct event_base *wu_progress_base(wu_progress_t *pt)
{
    return NULL != pt ? pt->base : NULL;
}

bool wu_progress_in_thread(const wu_progress_t *pt)
{
    return NULL != pt && tls_current == pt;
}

bool wu_progress_in_any_thread(void)
{
    return NULL != tls_current;
}

int wu_progress_shift(wu_progress_t *pt, wu_shift_fn_t fn, void *cbdata)
{
    if (NULL == pt || NULL == fn) {
        return WU_ERR_BAD_PARAM;
    }
    if (inherited(pt)) {
        return WU_ERR_INIT;
    }
    shift_item_t *item = malloc(sizeof(*item));
    if (NULL == item) {
        return WU_ERR_NOMEM;
    }
    *item = (shift_item_t){.next = NULL, .fn = fn, .cbdata = cbdata};
    pthread_mutex_lock(&pt->lock);
    if (!pt->accepting) {
        pthread_mutex_unlock(&pt->lock);
        free(item);
        return WU_ERR_INIT;
    }
    if (NULL == pt->tail) {
        pt->head = pt->tail = item;
        if (!pt->draining) {
            /* Under the lock: once we unlock, stop may free the event. */
            event_active(pt->wakeup, EV_READ, 0);
        }
    } else {
        pt->tail->next = item;
        pt->tail = item;
    }
    pthread_mutex_unlock(&pt->lock);
    return WU_SUCCESS;
}

/* Seconds on CLOCK_MONOTONIC_COARSE, the clock libevent measures timers with (CLOCK_MONOTONIC
 * where a kernel lacks it: libevent falls back so too). */
static double coarse_now(void)
{
    struct timespec ts;
    if (0 != clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)) {
        return wu_time_now();
    }
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct timeval seconds_tv(double seconds)
{
    struct timeval tv;
    tv.tv_sec = (time_t)seconds;
    double usec = (seconds - (double)tv.tv_sec) * 1e6;
    tv.tv_usec = (suseconds_t)usec;
    if ((double)tv.tv_usec < usec) {
        tv.tv_usec++; /* round up: never early */
    }
    if (tv.tv_usec >= 1000000) {
        tv.tv_sec++;
        tv.tv_usec -= 1000000;
    }
    return tv;
}

static void timer_cb(evutil_socket_t fd WU_UNUSED, short what WU_UNUSED, void *arg)
{
    wu_timer_t *t = arg;
    wu_progress_t *pt = t->pt;
    double left = t->deadline - wu_time_now();
    if (left > 0.0) {
        /* early (the coarse clock ticked between the two readings in wu_progress_timer): wait
         * out the rest */
        pthread_mutex_lock(&t->lock);
        bool pending = TIMER_PENDING == t->state;
        pthread_mutex_unlock(&t->lock);
        struct timeval tv = seconds_tv(left);
        if (pending && 0 == evtimer_add(t->ev, &tv)) {
            return;
        }
    }
    pthread_mutex_lock(&t->lock);
    bool run = TIMER_PENDING == t->state;
    if (run) {
        t->state = TIMER_FIRED;
    }
    pthread_mutex_unlock(&t->lock);
    atomic_fetch_add(&t->refs, 1); /* retiring may drop the last other reference */
    timer_retire(pt, t);
    if (run) {
        t->fn(t->cbdata);
    }
    timer_release(t);
}

wu_timer_t *wu_progress_timer(wu_progress_t *pt, double seconds, wu_shift_fn_t fn, void *cbdata)
{
    if (NULL == pt || NULL == fn || !isfinite(seconds) || seconds < 0.0 || seconds > 1e9) {
        return NULL;
    }
    if (inherited(pt)) {
        return NULL;
    }
    wu_timer_t *t = calloc(1, sizeof(*t));
    if (NULL == t) {
        return NULL;
    }
    pthread_mutex_init(&t->lock, NULL);
    t->state = TIMER_PENDING;
    atomic_init(&t->refs, 2); /* the caller's handle and pt's list */
    t->pt = pt;
    t->fork_gen = pt->fork_gen;
    t->fn = fn;
    t->cbdata = cbdata;
    t->deadline = wu_time_now() + seconds;

    pthread_mutex_lock(&pt->lock);
    if (pt->accepting) {
        t->ev = evtimer_new(pt->base, timer_cb, t);
    }
    if (NULL == t->ev) {
        pthread_mutex_unlock(&pt->lock);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    /* Link before arming: the callback may run at once and retires the timer from the list. */
    t->next = pt->timers;
    if (NULL != t->next) {
        t->next->prev = t;
    }
    pt->timers = t;
    t->linked = true;
    /* The base caches the time while it runs callbacks; measure from now, not from then. */
    event_base_update_cache_time(pt->base);
    /* libevent counts from its coarse clock, which lags by up to a tick: the delay from there
     * to the deadline keeps the timer from firing early and timers in deadline order */
    struct timeval tv = seconds_tv(t->deadline - coarse_now());
    if (0 != evtimer_add(t->ev, &tv)) {
        timer_unlink_locked(pt, t); /* never armed: nobody else can have seen it */
        pthread_mutex_unlock(&pt->lock);
        event_free(t->ev);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    pthread_mutex_unlock(&pt->lock);
    return t;
}

/* The second half of a cancel made outside the progress thread. */
static void cancel_in_thread(void *arg)
{
    wu_timer_t *t = arg;
    timer_retire(t->pt, t);
    timer_release(t); /* the in-flight cancel's reference */
}

bool wu_progress_timer_cancel(wu_timer_t *t)
{
    if (NULL == t) {
        return false;
    }
    if (t->fork_gen != atomic_load(&fork_gen)) {
        /* In a child of fork only this thread exists, so reading without the lock is safe (and
         * the lock may have been copied while held). The parent's thread will never run fn here;
         * nothing is freed, as for the inherited wu_progress_t itself. */
        return TIMER_FIRED != t->state;
    }
    pthread_mutex_lock(&t->lock);
    bool not_run = TIMER_FIRED != t->state;
    if (TIMER_PENDING == t->state) {
        t->state = TIMER_CANCELLED;
        wu_progress_t *pt = t->pt;
        if (wu_progress_in_thread(pt)) {
            pthread_mutex_unlock(&t->lock);
            timer_retire(pt, t);
            timer_release(t);
            return true;
        } else {
            /* Free the event in its thread. While we hold t->lock, stop cannot finish with this
             * timer, so pt stays valid. If pt is stopping the shift fails and stop retires it. */
            atomic_fetch_add(&t->refs, 1);
            if (WU_SUCCESS != wu_progress_shift(pt, cancel_in_thread, t)) {
                atomic_fetch_sub(&t->refs, 1); /* the list still holds one */
            }
        }
    }
    pthread_mutex_unlock(&t->lock);
    timer_release(t);
    return not_run;
}
