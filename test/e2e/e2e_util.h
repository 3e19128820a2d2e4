/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_util.h -- shared helpers of the end-to-end PMIx client programs (public PMIx API only):
 * failure reporting with the process's identity, a per-step watchdog, value checks. */
#ifndef E2E_UTIL_H
#define E2E_UTIL_H

#include <pmix.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define E2E_FN static __attribute__((unused))

static pmix_proc_t e2e_me __attribute__((unused));
static const char *volatile e2e_step_name = "start";
static unsigned e2e_watchdog_secs __attribute__((unused)) = 60;

/* "rank R" once initialized, else the pid */
E2E_FN void e2e_prefix(FILE *f)
{
    if (e2e_me.nspace[0] != '\0') {
        fprintf(f, "[%s:%u] ", e2e_me.nspace, e2e_me.rank);
    } else {
        fprintf(f, "[pid %ld] ", (long)getpid());
    }
}

__attribute__((format(printf, 1, 2), noreturn)) E2E_FN void e2e_fail(const char *fmt, ...)
{
    va_list ap;
    e2e_prefix(stderr);
    fprintf(stderr, "FAIL in step '%s': ", e2e_step_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    _exit(1);
}

__attribute__((format(printf, 1, 2))) E2E_FN void e2e_note(const char *fmt, ...)
{
    va_list ap;
    e2e_prefix(stdout);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

E2E_FN void e2e_alarm(int sig)
{
    static const char msg[] = "FAIL: watchdog expired (no answer) in step: ";
    (void)sig;
    if (write(2, msg, sizeof(msg) - 1) < 0 ||
        write(2, (const char *)e2e_step_name, strlen((const char *)e2e_step_name)) < 0 ||
        write(2, "\n", 1) < 0) {
        _exit(2);
    }
    _exit(2);
}

/* Name the step about to run and (re)arm the watchdog: a step that blocks longer than
 * e2e_watchdog_secs fails the program with the step's name. With E2E_TRACE_STEPS set, each
 * step is also printed ("e2e-step NAME"). */
E2E_FN void e2e_step(const char *name)
{
    static int installed;
    if (!installed) {
        signal(SIGALRM, e2e_alarm);
        installed = 1;
    }
    e2e_step_name = name;
    if (NULL != getenv("E2E_TRACE_STEPS")) {
        printf("e2e-step %s\n", name); /* how far a run got, for comparing two runs */
        fflush(stdout);
    }
    alarm(e2e_watchdog_secs);
}

E2E_FN double e2e_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define E2E_CHECK(cond, ...)       \
    do {                           \
        if (!(cond)) {             \
            e2e_fail(__VA_ARGS__); \
        }                          \
    } while (0)

#define E2E_RC(rc, what)                                                          \
    do {                                                                          \
        pmix_status_t rc_ = (rc);                                                 \
        if (rc_ != PMIX_SUCCESS) {                                                \
            e2e_fail("%s returned %s (%d)", (what), PMIx_Error_string(rc_), rc_); \
        }                                                                         \
    } while (0)

#define E2E_RC_IS(rc, want, what)                                                                  \
    do {                                                                                           \
        pmix_status_t rc_ = (rc);                                                                  \
        if (rc_ != (want)) {                                                                       \
            e2e_fail("%s returned %s (%d), expected %s (%d)", (what), PMIx_Error_string(rc_), rc_, \
                     PMIx_Error_string(want), (want));                                             \
        }                                                                                          \
    } while (0)

/* Get key of (ns, rank) with the given directives; on success check its type. The value is
 * returned (caller frees with e2e_free_value), NULL when status is not success (*st set). */
E2E_FN pmix_value_t *e2e_get(const char *ns, pmix_rank_t rank, const char *key,
                             const pmix_info_t *info, size_t ninfo, pmix_status_t *st)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&p, ns, rank);
    *st = PMIx_Get(&p, key, info, ninfo, &v);
    if (*st != PMIX_SUCCESS) {
        if (v != NULL) {
            e2e_fail("Get(%s, rank %u) failed with %s but returned a value", key, rank,
                     PMIx_Error_string(*st));
        }
        return NULL;
    }
    if (v == NULL) {
        e2e_fail("Get(%s, rank %u) succeeded but returned no value", key, rank);
    }
    return v;
}

E2E_FN void e2e_free_value(pmix_value_t *v)
{
    if (v != NULL) {
        PMIX_VALUE_RELEASE(v);
    }
}

/* Get that must succeed with the given type; returns the value. */
E2E_FN pmix_value_t *e2e_get_typed(const char *ns, pmix_rank_t rank, const char *key,
                                   pmix_data_type_t type, const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t st;
    pmix_value_t *v = e2e_get(ns, rank, key, info, ninfo, &st);
    if (v == NULL) {
        e2e_fail("Get(%s, rank %u%s) returned %s (%d)", key, rank,
                 rank == PMIX_RANK_WILDCARD ? " = WILDCARD" : "", PMIx_Error_string(st), st);
    }
    if (v->type != type) {
        e2e_fail("Get(%s, rank %u) has type %s, expected %s", key, rank,
                 PMIx_Data_type_string(v->type), PMIx_Data_type_string(type));
    }
    return v;
}

E2E_FN uint32_t e2e_get_u32(const char *ns, pmix_rank_t rank, const char *key)
{
    pmix_value_t *v = e2e_get_typed(ns, rank, key, PMIX_UINT32, NULL, 0);
    uint32_t r = v->data.uint32;
    e2e_free_value(v);
    return r;
}

E2E_FN uint16_t e2e_get_u16(const char *ns, pmix_rank_t rank, const char *key)
{
    pmix_value_t *v = e2e_get_typed(ns, rank, key, PMIX_UINT16, NULL, 0);
    uint16_t r = v->data.uint16;
    e2e_free_value(v);
    return r;
}

/* malloc'd copy of a STRING value (NULL string allowed: returns NULL) */
E2E_FN char *e2e_get_str(const char *ns, pmix_rank_t rank, const char *key)
{
    pmix_value_t *v = e2e_get_typed(ns, rank, key, PMIX_STRING, NULL, 0);
    char *r = v->data.string != NULL ? strdup(v->data.string) : NULL;
    e2e_free_value(v);
    return r;
}

/* Deterministic pattern of blob bytes for (rank, size). */
E2E_FN unsigned char e2e_pattern(pmix_rank_t rank, size_t size, size_t i)
{
    return (unsigned char)((i * 131u + rank * 17u + size * 7u + (i >> 8) * 3u) & 0xffu);
}

E2E_FN void e2e_fence(const pmix_info_t *info, size_t ninfo, const char *what)
{
    E2E_RC(PMIx_Fence(NULL, 0, info, ninfo), what);
}

/* Wait (timeout seconds at most) for the string another job publishes under key: a copy of it
 * (the caller frees it), and who published it in *from (unless NULL). */
E2E_FN char *e2e_await_str(const char *key, int timeout, pmix_proc_t *from)
{
    pmix_pdata_t pd;
    pmix_info_t d[2];
    bool yes = true;
    char *v;
    PMIX_INFO_LOAD(&d[0], PMIX_WAIT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&d[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, key);
    E2E_RC(PMIx_Lookup(&pd, 1, d, 2), key);
    E2E_CHECK(PMIX_STRING == pd.value.type, "%s: type %d", key, pd.value.type);
    v = strdup(pd.value.data.string);
    if (NULL != from) {
        *from = pd.proc;
    }
    PMIX_PDATA_DESTRUCT(&pd);
    return v;
}

/* Two jobs swap a string: rank 0 publishes mine (key) = val, every rank waits (60 s at most)
 * for the other job's under the key theirs and copies it into out. */
E2E_FN void e2e_swap_str(const char *mine, const char *theirs, const char *val, char *out,
                         size_t outlen)
{
    char *got;
    if (0 == e2e_me.rank) {
        pmix_info_t i;
        PMIX_INFO_LOAD(&i, mine, val, PMIX_STRING);
        E2E_RC(PMIx_Publish(&i, 1), mine);
        PMIX_INFO_DESTRUCT(&i);
    }
    got = e2e_await_str(theirs, 60, NULL);
    snprintf(out, outlen, "%s", got);
    free(got);
}

#endif /* E2E_UTIL_H */
