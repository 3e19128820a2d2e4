/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_progress.h -- the progress thread: one libevent loop in its own thread, and the ways other
 * threads hand work to it (thread shift) or schedule work in it (timers).
 *
 * Model (DESIGN.md "Threads"): a library instance owns one wu_progress_t. Public API calls do not
 * touch shared state themselves; they shift a request into the progress thread, which runs it
 * and invokes user callbacks. No lock of this module is held while a shifted function or a timer
 * callback runs, so a callback may shift more work, create or cancel timers, or call back into
 * the library. Blocking calls are a shift plus a wait (opal/event/wu_wait.h).
 *
 * Several progress threads may live in one process (a server embedding a tool, tests); all state
 * is per wu_progress_t, except a thread-local pointer that tells a thread which progress thread
 * it is (if any).
 *
 * Fork: a child must not use a progress thread created by its parent (the thread does not exist
 * in the child). After fork, every call on an inherited wu_progress_t fails (WU_ERR_INIT, NULL,
 * or, for wu_progress_stop, returns without releasing anything); the child calls
 * wu_progress_start anew if it needs one. */
#ifndef WU_PROGRESS_H
#define WU_PROGRESS_H

#include "opal/util/wu_macros.h"

#include <stdbool.h>

struct event_base;

typedef struct wu_progress wu_progress_t;
typedef struct wu_timer wu_timer_t;

/* Work handed to the progress thread; cbdata is passed through untouched. */
typedef void (*wu_shift_fn_t)(void *cbdata);

/* Make libevent thread aware (evthread_use_pthreads) and install the fork handler. Runs its
 * work once per process; idempotent and thread safe (every later call returns the first
 * result). wu_progress_start calls it, so most code never needs to.
 * Returns WU_SUCCESS or WU_ERR_INIT if libevent's thread support cannot be enabled. */
int wu_event_global_init(void);

/* Create an event base and start a thread running its loop until wu_progress_stop. The loop
 * keeps running while no event is registered. name (may be NULL: "wu-progress") names the
 * thread for debuggers, truncated to 15 characters; best effort. The caller owns the result
 * and must pass it to wu_progress_stop exactly once. Returns NULL (and prints why on stderr)
 * on failure. */
WU_EXPORT wu_progress_t *wu_progress_start(const char *name);

/* Stop the loop, join the thread and free everything. NULL is a no-op.
 *
 * Pending work, the rule: every function whose wu_progress_shift returned WU_SUCCESS runs
 * exactly once, in order, before wu_progress_stop returns -- shifted work is never dropped.
 * From the moment wu_progress_stop is entered, new shifts (including shifts made by the
 * callbacks still draining) fail with WU_ERR_INIT and new timers cannot be created. Timers that
 * have not fired when the loop ends never fire; their callbacks are not called, and
 * wu_progress_timer_cancel on them returns true, so the holder of the handle knows that it
 * still owns the timer's cbdata. Events the caller added itself to wu_progress_base() must be
 * deleted before stopping.
 *
 * Must not be called from the progress thread of pt itself (it would wait for its own end):
 * that is refused with a message on stderr and the call returns without stopping anything.
 * Calling it from another progress thread is fine. Other threads may keep calling shift/timer
 * functions on pt while it stops (they get WU_ERR_INIT / NULL), but not once it has returned:
 * pt is freed then. */
WU_EXPORT void wu_progress_stop(wu_progress_t *pt);

/* The event base, for code that registers its own events (sockets, signals). Events may be
 * added from any thread; their callbacks run in the progress thread. NULL if pt is NULL. */
WU_EXPORT struct event_base *wu_progress_base(wu_progress_t *pt);

/* True if the calling thread is pt's progress thread (false for NULL). */
WU_EXPORT bool wu_progress_in_thread(const wu_progress_t *pt);

/* True if the calling thread is the progress thread of any wu_progress_t. Blocking helpers use
 * it to refuse waiting where the wait could never end. */
bool wu_progress_in_any_thread(void);

/* Thread shift: queue fn(cbdata) to run in pt's progress thread. Shifts run in the order they
 * were accepted (one queue per progress thread), so shifts from one thread run in the order
 * that thread made them. Safe from any thread, including the progress thread itself: fn then
 * runs later, never inline. Ownership of cbdata stays with the caller/callback contract.
 * Returns WU_SUCCESS; WU_ERR_BAD_PARAM (pt or fn NULL); WU_ERR_NOMEM; WU_ERR_INIT (pt is
 * stopping, or was inherited across fork). On error fn is never called. */
WU_EXPORT int wu_progress_shift(wu_progress_t *pt, wu_shift_fn_t fn, void *cbdata);

/* One-shot timer: run fn(cbdata) in the progress thread once `seconds` have passed on
 * CLOCK_MONOTONIC, never earlier, usually within a few milliseconds (a tick of the coarse
 * clock the loop measures with; 0 allowed: as soon as possible; at most 1e9). Timers whose
 * deadlines are more than a tick apart fire in deadline order. Callable from any thread.
 *
 * The handle belongs to the caller, who must release it with wu_progress_timer_cancel exactly
 * once, whether or not the timer has fired (also after wu_progress_stop: the handle outlives
 * the progress thread). Returns NULL on bad input (pt or fn NULL, seconds negative, not finite
 * or too large), out of memory, or if pt is stopping. */
WU_EXPORT wu_timer_t *wu_progress_timer(wu_progress_t *pt, double seconds, wu_shift_fn_t fn,
                                        void *cbdata);

/* Cancel the timer if it has not fired and release the handle (t is invalid afterwards; NULL is
 * a no-op returning false). Safe from any thread and at any time, including after the timer
 * fired or its progress thread stopped.
 * Returns true if fn has not run and never will (cancelled now, or dropped by
 * wu_progress_stop): the caller still owns cbdata. Returns false if fn has already been called
 * (when cancelling from another thread it may still be running). */
WU_EXPORT bool wu_progress_timer_cancel(wu_timer_t *t);

#endif
