/* SPDX-License-Identifier: BSD-3-Clause */
/* examples.h -- what OpenPMIx's example programs (Debian ships their sources in
 * /usr/share/doc/libpmix-dev/examples, without this header) expect of "examples.h": a lock to
 * wait for a callback on (with a string answer, for 5.0's pset example), a release object for
 * event handlers, a query result (5.0's alloc and abi_with_init), and a macro that marks
 * parameters unused. Written for test/e2e/openpmix_examples.sh, which builds those programs
 * against OpenPMIx's headers and runs them under wrun on our library. */
#ifndef WU_TEST_OPENPMIX_EXAMPLES_H
#define WU_TEST_OPENPMIX_EXAMPLES_H

#include <pmix.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* A callback's result and a flag the waiting thread sleeps on. */
typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    volatile bool active;
    pmix_status_t status;
    int count;
    size_t evhandler_ref;
    char *answer; /* a string a callback hands back (malloc'ed; freed by DEBUG_DESTRUCT_LOCK) */
} mylock_t;

#define DEBUG_CONSTRUCT_LOCK(l)                \
    do {                                       \
        pthread_mutex_init(&(l)->mutex, NULL); \
        pthread_cond_init(&(l)->cond, NULL);   \
        (l)->active = true;                    \
        (l)->status = PMIX_SUCCESS;            \
        (l)->count = 0;                        \
        (l)->evhandler_ref = 0;                \
        (l)->answer = NULL;                    \
    } while (0)

#define DEBUG_DESTRUCT_LOCK(l)              \
    do {                                    \
        pthread_mutex_destroy(&(l)->mutex); \
        pthread_cond_destroy(&(l)->cond);   \
        free((l)->answer);                  \
        (l)->answer = NULL;                 \
    } while (0)

#define DEBUG_WAIT_THREAD(l)                            \
    do {                                                \
        pthread_mutex_lock(&(l)->mutex);                \
        while ((l)->active) {                           \
            pthread_cond_wait(&(l)->cond, &(l)->mutex); \
        }                                               \
        pthread_mutex_unlock(&(l)->mutex);              \
    } while (0)

#define DEBUG_WAKEUP_THREAD(l)              \
    do {                                    \
        pthread_mutex_lock(&(l)->mutex);    \
        (l)->active = false;                \
        pthread_cond_broadcast(&(l)->cond); \
        pthread_mutex_unlock(&(l)->mutex);  \
    } while (0)

/* What an event handler hands back to the thread that registered it. */
typedef struct {
    mylock_t lock;
    char *nspace;
    int exit_code;
    bool exit_code_given;
} myrel_t;

#define DEBUG_CONSTRUCT_MYREL(r)          \
    do {                                  \
        DEBUG_CONSTRUCT_LOCK(&(r)->lock); \
        (r)->nspace = NULL;               \
        (r)->exit_code = 0;               \
        (r)->exit_code_given = false;     \
    } while (0)

#define DEBUG_DESTRUCT_MYREL(r)          \
    do {                                 \
        DEBUG_DESTRUCT_LOCK(&(r)->lock); \
        free((r)->nspace);               \
    } while (0)

/* What a query's callback hands back: its status and a copy of the infos. */
typedef struct {
    mylock_t lock;
    pmix_status_t status;
    pmix_info_t *info;
    size_t ninfo;
    volatile bool active;
} myquery_data_t;

#define DEBUG_CONSTRUCT_MYQUERY(q)        \
    do {                                  \
        DEBUG_CONSTRUCT_LOCK(&(q)->lock); \
        (q)->status = PMIX_SUCCESS;       \
        (q)->info = NULL;                 \
        (q)->ninfo = 0;                   \
        (q)->active = true;               \
    } while (0)

#define DEBUG_DESTRUCT_MYQUERY(q)                  \
    do {                                           \
        DEBUG_DESTRUCT_LOCK(&(q)->lock);           \
        if (NULL != (q)->info) {                   \
            PMIX_INFO_FREE((q)->info, (q)->ninfo); \
        }                                          \
    } while (0)

/* Marks each argument used (up to eight). */
#define EXAMPLES_HIDE_UNUSED_PARAMS(...) wu_ex_unused(0, __VA_ARGS__)
static inline void wu_ex_unused(int n, ...)
{
    (void)n;
}

#endif
