/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_wait.h -- blocking on work done by the progress thread.
 *
 * A blocking call is its non-blocking form plus a wait: the caller shifts its request into the
 * progress thread, the callback that completes it releases a wu_wait_t, and the caller blocks on
 * that wu_wait_t. Waiting inside a progress thread would block the very loop that has to do the
 * work, so every wait refuses to run there (WU_ERR_RESOURCE_BUSY). */
#ifndef WU_WAIT_H
#define WU_WAIT_H

#include "opal/event/wu_progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* One-shot completion flag with a status. Fields are private to this module. */
typedef struct wu_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond; /* on CLOCK_MONOTONIC */
    bool done;
    int status;
} wu_wait_t;

/* Initialise w (not released). Pair with wu_wait_destroy. */
WU_EXPORT void wu_wait_init(wu_wait_t *w);

/* Destroy w; no thread may be waiting on it or about to release it. NULL is a no-op. */
WU_EXPORT void wu_wait_destroy(wu_wait_t *w);

/* Mark w complete with status and wake its waiters. Callable from any thread, typically a
 * callback in the progress thread, before or after the wait starts. Releasing again keeps the
 * first status. NULL is a no-op. */
WU_EXPORT void wu_wait_release(wu_wait_t *w, int status);

/* Has w been released? Any thread. */
bool wu_wait_released(wu_wait_t *w);

/* Block until w is released or timeout seconds pass (timeout <= 0: no limit; values above 1e9
 * are treated as 1e9). Measured on CLOCK_MONOTONIC. w stays released: a later wait returns the
 * same status at once. Returns the released status; WU_ERR_TIMEOUT; WU_ERR_BAD_PARAM (w NULL or
 * timeout NaN); WU_ERR_RESOURCE_BUSY if called from a progress thread (it could never be
 * released there), with a message on stderr. */
WU_EXPORT int wu_wait_for(wu_wait_t *w, double timeout);

/* Shift-and-wait. The function shifted into the progress thread receives a wu_wait_call_t: it
 * reads its argument from call->cbdata and, once the request is complete (right away or later,
 * from any thread), calls wu_wait_call_done(call, status) exactly once. The call object is
 * reference counted, so it stays valid for the callback even if the waiter gave up on a
 * timeout; after wu_wait_call_done the callback must not touch it. */
typedef struct wu_wait_call wu_wait_call_t;
typedef void (*wu_wait_call_fn_t)(wu_wait_call_t *call);
struct wu_wait_call {
    void *cbdata;   /* the caller's argument, passed through untouched */
    wu_wait_t wait; /* private: released by wu_wait_call_done */
    wu_wait_call_fn_t fn;
    _Atomic int refs; /* private: the waiter and the callback */
};

/* Complete a call: release its waiter with status and drop the callback's reference. */
WU_EXPORT void wu_wait_call_done(wu_wait_call_t *call, int status);

/* Shift fn into pt and wait up to timeout seconds (<= 0: no limit) for wu_wait_call_done.
 * Returns the status given to wu_wait_call_done; WU_ERR_TIMEOUT (fn may still run or be
 * running: cbdata must then stay valid until it is done, so prefer timeouts only where cbdata
 * is owned by the callback or outlives it); WU_ERR_RESOURCE_BUSY from a progress thread (fn is
 * not shifted); WU_ERR_BAD_PARAM, WU_ERR_NOMEM, or wu_progress_shift's error (fn never runs). */
WU_EXPORT int wu_progress_shift_wait(wu_progress_t *pt, wu_wait_call_fn_t fn, void *cbdata,
                                     double timeout);

#endif
