/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_fork_lock.h -- a module mutex that stays usable in a child forked while another thread held
 * it: fork handlers take it before fork() and release it in the parent and the child.
 *
 *     WU_FORK_SAFE_MUTEX(lock)      defines: static pthread_mutex_t lock; static void lock_take(void)
 *     lock_take(); ... pthread_mutex_unlock(&lock);
 *
 * The handlers are registered on the first lock_take(). Modules using this must not take another
 * module's fork-safe mutex while holding their own (fork handlers would invert the order). */
#ifndef WU_FORK_LOCK_H
#define WU_FORK_LOCK_H

#include <pthread.h>

#define WU_FORK_SAFE_MUTEX(name)                                              \
    static pthread_mutex_t name = PTHREAD_MUTEX_INITIALIZER;                  \
    static pthread_once_t name##_once = PTHREAD_ONCE_INIT;                    \
    static void name##_prepare(void)                                          \
    {                                                                         \
        pthread_mutex_lock(&name);                                            \
    }                                                                         \
    static void name##_release(void)                                          \
    {                                                                         \
        pthread_mutex_unlock(&name);                                          \
    }                                                                         \
    static void name##_register(void)                                         \
    {                                                                         \
        (void)pthread_atfork(name##_prepare, name##_release, name##_release); \
    }                                                                         \
    static void name##_take(void)                                             \
    {                                                                         \
        (void)pthread_once(&name##_once, name##_register);                    \
        pthread_mutex_lock(&name);                                            \
    }

#endif
