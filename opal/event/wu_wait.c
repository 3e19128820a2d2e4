/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_wait.c -- completion flags on a monotonic condition variable, and shift-and-wait. */
#include "opal/event/wu_wait.h"
#include "opal/util/wu_error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_TIMEOUT 1e9 /* seconds; keeps the deadline arithmetic far from overflow */

void wu_wait_init(wu_wait_t *w)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    /* Cannot fail on Linux; on failure the wait would only measure wall-clock time instead. */
    (void)pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&w->cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&w->lock, NULL);
    w->done = false;
    w->status = 0;
}

void wu_wait_destroy(wu_wait_t *w)
{
    if (NULL == w) {
        return;
    }
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
}

bool wu_wait_released(wu_wait_t *w)
{
    bool done;
    pthread_mutex_lock(&w->lock);
    done = w->done;
    pthread_mutex_unlock(&w->lock);
    return done;
}

void wu_wait_release(wu_wait_t *w, int status)
{
    if (NULL == w) {
        return;
    }
    pthread_mutex_lock(&w->lock);
    if (!w->done) {
        w->done = true;
        w->status = status;
    }
    /* Signal under the lock: the waiter may destroy w as soon as it sees done. */
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static bool refuse_in_progress_thread(const char *what)
{
    if (!wu_progress_in_any_thread()) {
        return false;
    }
    fprintf(stderr,
            "wireup: %s called from a progress thread; refused (the wait could never "
            "end). Use a callback instead.\n",
            what);
    return true;
}

int wu_wait_for(wu_wait_t *w, double timeout)
{
    if (NULL == w || isnan(timeout)) {
        return WU_ERR_BAD_PARAM;
    }
    if (refuse_in_progress_thread("wu_wait_for")) {
        return WU_ERR_RESOURCE_BUSY;
    }
    struct timespec deadline;
    bool limited = timeout > 0.0;
    if (limited) {
        if (timeout > MAX_TIMEOUT) {
            timeout = MAX_TIMEOUT;
        }
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        time_t sec = (time_t)timeout;
        deadline.tv_sec += sec;
        deadline.tv_nsec += (long)((timeout - (double)sec) * 1e9);
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
    }
    int rc = 0;
    pthread_mutex_lock(&w->lock);
    while (!w->done && ETIMEDOUT != rc) {
        rc = limited ? pthread_cond_timedwait(&w->cond, &w->lock, &deadline)
                     : pthread_cond_wait(&w->cond, &w->lock);
    }
    int status = w->done ? w->status : WU_ERR_TIMEOUT;
    pthread_mutex_unlock(&w->lock);
    return status;
}

static void call_release(wu_wait_call_t *call)
{
    if (1 == atomic_fetch_sub(&call->refs, 1)) {
        wu_wait_destroy(&call->wait);
        free(call);
    }
}

void wu_wait_call_done(wu_wait_call_t *call, int status)
{
    if (NULL == call) {
        return;
    }
    wu_wait_release(&call->wait, status);
    call_release(call);
}

static void call_trampoline(void *arg)
{
    wu_wait_call_t *call = arg;
    call->fn(call);
}

int wu_progress_shift_wait(wu_progress_t *pt, wu_wait_call_fn_t fn, void *cbdata, double timeout)
{
    if (NULL == pt || NULL == fn || isnan(timeout)) {
        return WU_ERR_BAD_PARAM;
    }
    if (refuse_in_progress_thread("wu_progress_shift_wait")) {
        return WU_ERR_RESOURCE_BUSY;
    }
    wu_wait_call_t *call = malloc(sizeof(*call));
    if (NULL == call) {
        return WU_ERR_NOMEM;
    }
    call->cbdata = cbdata;
    call->fn = fn;
    atomic_init(&call->refs, 2); /* ours and the callback's */
    wu_wait_init(&call->wait);
    int rc = wu_progress_shift(pt, call_trampoline, call);
    if (WU_SUCCESS != rc) {
        wu_wait_destroy(&call->wait);
        free(call);
        return rc;
    }
    rc = wu_wait_for(&call->wait, timeout);
    call_release(call);
    return rc;
}
