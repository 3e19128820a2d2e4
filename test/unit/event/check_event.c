/* SPDX-License-Identifier: BSD-3-Clause */
/* check_event.c -- event handlers in a singleton client: registration refs and callbacks, the
 * blocking forms, precedence, the chain (stop, results, completion from another thread),
 * PMIX_EVENT_NON_DEFAULT, deregistration, bad parameters and finalize; the filters of targets
 * (affected processes, custom ranges, job-level and environment-level handlers). */
#include "pmix/event/wu_event.h"
#include "test/support/wu_test.h"

#include "pmix.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Event handlers have a fixed signature; most use few of its parameters. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define EV_X (PMIX_EXTERNAL_ERR_BASE - 11)
#define EV_Y (PMIX_EXTERNAL_ERR_BASE - 12)
#define EV_Z (PMIX_EXTERNAL_ERR_BASE - 13)

static pmix_proc_t me;
static pthread_t test_thread;

/* What the handlers saw (they run one at a time on the progress thread). */
static pthread_mutex_t mx = PTHREAD_MUTEX_INITIALIZER;
static char order[64];
static _Atomic int ncalls;
static pmix_proc_t last_source;
static pmix_status_t seen_result = 1; /* the status the "first" handler reported, as seen next */
static bool seen_res_key;             /* the next handler saw "res.key" */
static _Atomic bool on_test_thread;   /* some callback ran on the caller's thread */
static _Atomic pthread_t hdlr_thread; /* where the last handler ran */
static const char *labels[32];        /* by ref: what rec_hdlr records */
static pmix_status_t first_ret;       /* what first_hdlr reports */

static _Atomic int nreg;
static _Atomic size_t reg_refs[8];
static _Atomic int reg_status[8];
static _Atomic int op_status = 1;
static _Atomic int nops;

static void setup(void)
{
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    unsetenv("WU_PMIX_SERVER_URI");
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0));
    test_thread = pthread_self();
    memset(order, 0, sizeof order);
    ncalls = 0;
    on_test_thread = false;
    seen_result = 1;
    seen_res_key = false;
    nops = nreg = 0;
    op_status = 1;
}

static void teardown(void)
{
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
}

/* Wait up to 5 s for *v to reach want, then a little longer to catch extra calls. */
static void wait_count(_Atomic int *v, int want)
{
    for (int i = 0; i < 5000 && *v < want; i++) {
        usleep(1000);
    }
    usleep(50 * 1000);
    ck_assert_int_eq(want, *v);
}

/* Records the label of its ref and continues the chain (cbdata is the chain's). */
static void rec_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (pthread_equal(pthread_self(), test_thread)) {
        on_test_thread = true;
    }
    hdlr_thread = pthread_self();
    pthread_mutex_lock(&mx);
    strncat(order, ref < 32 && NULL != labels[ref] ? labels[ref] : "?",
            sizeof order - strlen(order) - 1);
    last_source = *source;
    pthread_mutex_unlock(&mx);
    ncalls++;
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void reg_cb(pmix_status_t status, size_t ref, void *cbdata)
{
    int i = nreg;
    if (pthread_equal(pthread_self(), test_thread)) {
        on_test_thread = true;
    }
    reg_refs[i] = ref;
    reg_status[i] = status;
    nreg = i + 1;
}

static void op_cb(pmix_status_t status, void *cbdata)
{
    if (pthread_equal(pthread_self(), test_thread)) {
        on_test_thread = true;
    }
    op_status = status;
    nops++;
}

static void notify_local(pmix_status_t code, const pmix_info_t *info, size_t ninfo)
{
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_Notify_event(code, NULL, PMIX_RANGE_PROC_LOCAL, info, ninfo, NULL, NULL));
}

/* Blocking registration of rec_hdlr with label and optional info; returns the ref. */
static size_t reg(pmix_status_t *codes, size_t ncodes, pmix_info_t *info, size_t ninfo,
                  const char *label)
{
    pmix_status_t rc =
        PMIx_Register_event_handler(codes, ncodes, info, ninfo, rec_hdlr, NULL, NULL);
    ck_assert_int_ge(rc, 0);
    ck_assert_int_lt(rc, 32);
    labels[rc] = label;
    return (size_t)rc;
}

START_TEST(refs_unique_from_callback)
{
    pmix_status_t code = EV_X;
    nreg = 0;
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(PMIX_SUCCESS,
                         PMIx_Register_event_handler(0 == i % 2 ? &code : NULL, 0 == i % 2 ? 1 : 0,
                                                     NULL, 0, rec_hdlr, reg_cb, NULL));
    }
    wait_count(&nreg, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(PMIX_SUCCESS, reg_status[i]);
        ck_assert_uint_eq((size_t)i, reg_refs[i]); /* Open MPI expects 0, 1, 2, 3 */
    }
    ck_assert(!on_test_thread); /* never inline in the caller */
}
END_TEST

START_TEST(blocking_returns_ref)
{
    pmix_status_t code = EV_X;
    ck_assert_int_eq(0, PMIx_Register_event_handler(&code, 1, NULL, 0, rec_hdlr, NULL, NULL));
    ck_assert_int_eq(1, PMIx_Register_event_handler(NULL, 0, NULL, 0, rec_hdlr, NULL, NULL));
    labels[0] = "a";
    labels[1] = "b";
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 2);
    ck_assert_str_eq("ab", order);
    ck_assert(!on_test_thread);
}
END_TEST

/* Handlers a..f (see order_cases), then one event per case. */
static const struct {
    pmix_status_t code;
    bool non_default;
    const char *want;
} order_cases[] = {
    {EV_X, false, "dbcea"}, /* specific (d prepended), multi-code, default (e prepended) */
    {EV_Y, false, "fcea"},
    {EV_Z, false, "ea"},
    {EV_X, true, "dbc"}, /* PMIX_EVENT_NON_DEFAULT: no default handler */
};

START_TEST(precedence)
{
    pmix_status_t x = EV_X, y = EV_Y, xy[2] = {EV_X, EV_Y};
    pmix_info_t pre, undef_pre, nd;
    bool t = true;
    PMIX_INFO_LOAD(&pre, PMIX_EVENT_HDLR_PREPEND, &t, PMIX_BOOL);
    /* Open MPI passes prepend with no value: PMIX_UNDEF means "present = true" */
    PMIX_INFO_CONSTRUCT(&undef_pre);
    PMIX_LOAD_KEY(undef_pre.key, PMIX_EVENT_HDLR_PREPEND);
    ck_assert_int_eq(PMIX_UNDEF, undef_pre.value.type);
    (void)reg(NULL, 0, NULL, 0, "a");
    (void)reg(&x, 1, NULL, 0, "b");
    (void)reg(xy, 2, NULL, 0, "c");
    (void)reg(&x, 1, &pre, 1, "d");
    (void)reg(NULL, 0, &undef_pre, 1, "e");
    (void)reg(&y, 1, NULL, 0, "f");
    PMIX_INFO_LOAD(&nd, PMIX_EVENT_NON_DEFAULT, &t, PMIX_BOOL);
    notify_local(order_cases[_i].code, &nd, order_cases[_i].non_default ? 1 : 0);
    wait_count(&ncalls, (int)strlen(order_cases[_i].want));
    ck_assert_str_eq(order_cases[_i].want, order);
    PMIX_INFO_DESTRUCT(&pre);
    PMIX_INFO_DESTRUCT(&nd);
}
END_TEST

START_TEST(first_and_last)
{
    pmix_status_t x = EV_X;
    pmix_info_t first, last;
    bool t = true;
    PMIX_INFO_LOAD(&first, PMIX_EVENT_HDLR_FIRST, &t, PMIX_BOOL);
    PMIX_INFO_LOAD(&last, PMIX_EVENT_HDLR_LAST, &t, PMIX_BOOL);
    (void)reg(NULL, 0, &last, 1, "z");
    (void)reg(&x, 1, NULL, 0, "b");
    (void)reg(NULL, 0, &first, 1, "a");
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 3);
    ck_assert_str_eq("abz", order);
    PMIX_INFO_DESTRUCT(&first);
    PMIX_INFO_DESTRUCT(&last);
}
END_TEST

/* "first": reports status (cbdata) with a result "res.key"; then rec_hdlr records "n" */
static void first_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    static pmix_info_t res;
    int v = 7;
    PMIX_INFO_LOAD(&res, "res.key", &v, PMIX_INT);
    ncalls++;
    cbfunc(first_ret, &res, 1, op_cb, NULL, cbdata);
}

static void next_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    for (size_t i = 0; i < nresults; i++) {
        if (PMIX_CHECK_KEY(&results[i], "first") && PMIX_STATUS == results[i].value.type) {
            seen_result = results[i].value.data.status;
        }
        if (PMIX_CHECK_KEY(&results[i], "res.key") && PMIX_INT == results[i].value.type &&
            7 == results[i].value.data.integer) {
            seen_res_key = true;
        }
    }
    rec_hdlr(ref, status, source, info, ninfo, results, nresults, cbfunc, cbdata);
}

static const struct {
    pmix_status_t first_returns;
    int want_calls; /* of both handlers */
} chain_cases[] = {
    {PMIX_EVENT_ACTION_COMPLETE, 1},
    {PMIX_EVENT_NO_ACTION_TAKEN, 2},
    {PMIX_SUCCESS, 2},
    {PMIX_EVENT_PARTIAL_ACTION_TAKEN, 2},
};

START_TEST(chain_stop_and_results)
{
    pmix_status_t x = EV_X, ret = chain_cases[_i].first_returns;
    pmix_info_t name;
    PMIX_INFO_LOAD(&name, PMIX_EVENT_HDLR_NAME, "first", PMIX_STRING);
    nops = 0;
    first_ret = ret;
    ck_assert_int_eq(0, PMIx_Register_event_handler(&x, 1, &name, 1, first_hdlr, NULL, NULL));
    ck_assert_int_eq(1, PMIx_Register_event_handler(NULL, 0, NULL, 0, next_hdlr, NULL, NULL));
    labels[1] = "n";
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, chain_cases[_i].want_calls);
    wait_count(&nops, 1); /* the handler's results were released */
    if (2 == chain_cases[_i].want_calls) {
        ck_assert_int_eq(ret, seen_result);
        ck_assert(seen_res_key);
    }
    PMIX_INFO_DESTRUCT(&name);
}
END_TEST

/* Completes from another thread, later. */
static void *complete_later(void *arg)
{
    void **a = arg;
    usleep(300 * 1000); /* longer than wait_count's settling time */
    ((pmix_event_notification_cbfunc_fn_t)a[0])(PMIX_SUCCESS, NULL, 0, NULL, NULL, a[1]);
    free(a);
    return NULL;
}

static _Atomic pthread_t async_thread;

static void async_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    void **a = malloc(2 * sizeof *a);
    pthread_t t;
    ck_assert_ptr_nonnull(a);
    a[0] = (void *)cbfunc;
    a[1] = cbdata;
    ck_assert_int_eq(0, pthread_create(&t, NULL, complete_later, a));
    async_thread = t;
    pthread_detach(t);
}

START_TEST(completion_from_another_thread)
{
    pmix_status_t x = EV_X;
    pthread_t first_thread;
    (void)reg(&x, 1, NULL, 0, "a");
    ck_assert_int_eq(1, PMIx_Register_event_handler(&x, 1, NULL, 0, async_hdlr, NULL, NULL));
    (void)reg(NULL, 0, NULL, 0, "b");
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 1);
    first_thread = hdlr_thread;
    wait_count(&ncalls, 2);
    ck_assert_str_eq("ab", order);
    /* the chain went back to the progress thread */
    ck_assert(pthread_equal(first_thread, hdlr_thread));
    ck_assert(!pthread_equal(async_thread, hdlr_thread));
}
END_TEST

START_TEST(deregister)
{
    pmix_status_t x = EV_X;
    size_t a = reg(&x, 1, NULL, 0, "a"), b = reg(&x, 1, NULL, 0, "b");
    nops = 0;
    op_status = 1;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Deregister_event_handler(a, op_cb, NULL));
    wait_count(&nops, 1);
    ck_assert_int_eq(PMIX_SUCCESS, op_status);
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 1);
    ck_assert_str_eq("b", order);
    /* again, and an unknown ref */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Deregister_event_handler(a, op_cb, NULL));
    wait_count(&nops, 2);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, op_status);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Deregister_event_handler(4711, NULL, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Deregister_event_handler(b, NULL, NULL));
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 1);
    ck_assert(!on_test_thread);
    /* refs are never reused while the library lives */
    ck_assert_uint_eq(2, reg(&x, 1, NULL, 0, "c"));
}
END_TEST

/* Deregisters itself from inside the handler (a callback calling back into the library). */
static void self_dereg(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    op_status = PMIx_Deregister_event_handler(ref, NULL, NULL);
    rec_hdlr(ref, status, source, info, ninfo, results, nresults, cbfunc, cbdata);
}

START_TEST(deregister_from_handler)
{
    pmix_status_t x = EV_X;
    ck_assert_int_eq(0, PMIx_Register_event_handler(&x, 1, NULL, 0, self_dereg, NULL, NULL));
    labels[0] = "s";
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 1);
    ck_assert_int_eq(PMIX_SUCCESS, op_status);
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 1);
}
END_TEST

/* Registrations and notifications refused for their info. */
static pmix_data_array_t empty_procs = {.type = PMIX_PROC, .size = 0, .array = NULL};
static pmix_data_array_t strings = {.type = PMIX_STRING, .size = 1, .array = (char *[]){"x"}};
static struct {
    pmix_info_t info[2];
    size_t n;
} bad_reg[] =
    {
        /* no event is both job-specific and an environment event */
        {{{.key = WU_EVENT_JOB_LEVEL, .value = {.type = PMIX_BOOL, .data.flag = true}},
          {.key = WU_EVENT_ENVIRO_LEVEL, .value = {.type = PMIX_BOOL, .data.flag = true}}},
         2},
        /* affected processes that name none */
        {{{.key = PMIX_EVENT_AFFECTED_PROC, .value = {.type = PMIX_STRING, .data.string = "x"}}},
         1},
        {{{.key = PMIX_EVENT_AFFECTED_PROCS,
           .value = {.type = PMIX_DATA_ARRAY, .data.darray = &empty_procs}}},
         1},
        {{{.key = PMIX_EVENT_AFFECTED_PROCS,
           .value = {.type = PMIX_DATA_ARRAY, .data.darray = &strings}}},
         1},
},
  bad_notify[] = {
      /* PMIX_RANGE_CUSTOM without processes */
      {{{.key = PMIX_EVENT_TEXT_MESSAGE, .value = {.type = PMIX_STRING, .data.string = "x"}}}, 1},
      {{{.key = PMIX_EVENT_CUSTOM_RANGE,
         .value = {.type = PMIX_DATA_ARRAY, .data.darray = &empty_procs}}},
       1},
      {{{.key = PMIX_EVENT_CUSTOM_RANGE, .value = {.type = PMIX_PROC, .data.proc = NULL}}}, 1},
};

START_TEST(bad_params)
{
    pmix_status_t x = EV_X;
    nreg = 0;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                     PMIx_Register_event_handler(&x, 1, NULL, 0, NULL, reg_cb, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                     PMIx_Register_event_handler(NULL, 2, NULL, 0, rec_hdlr, reg_cb, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                     PMIx_Register_event_handler(&x, 1, NULL, 3, rec_hdlr, reg_cb, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                     PMIx_Notify_event(x, NULL, PMIX_RANGE_PROC_LOCAL, NULL, 2, NULL, NULL));
    for (size_t i = 0; i < sizeof bad_reg / sizeof bad_reg[0]; i++) {
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                         PMIx_Register_event_handler(&x, 1, bad_reg[i].info, bad_reg[i].n, rec_hdlr,
                                                     reg_cb, NULL));
    }
    for (size_t i = 0; i < sizeof bad_notify / sizeof bad_notify[0]; i++) {
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                         PMIx_Notify_event(x, NULL, PMIX_RANGE_CUSTOM, bad_notify[i].info,
                                           bad_notify[i].n, op_cb, NULL));
    }
    wait_count(&nreg, 0); /* no callback for a refused call */
    ck_assert_int_eq(0, nops);
    /* a refused registration takes no ref */
    ck_assert_int_eq(0, PMIx_Register_event_handler(&x, 1, NULL, 0, rec_hdlr, NULL, NULL));
}
END_TEST

START_TEST(not_initialized)
{
    pmix_status_t x = EV_X;
    (void)reg(&x, 1, NULL, 0, "old");
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    ck_assert_int_eq(PMIX_ERR_INIT,
                     PMIx_Register_event_handler(&x, 1, NULL, 0, rec_hdlr, reg_cb, NULL));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Deregister_event_handler(0, op_cb, NULL));
    ck_assert_int_eq(PMIX_ERR_INIT,
                     PMIx_Notify_event(x, NULL, PMIX_RANGE_PROC_LOCAL, NULL, 0, op_cb, NULL));
    /* finalize released every registration: refs start again, the old handler is gone */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0));
    ck_assert_uint_eq(0, reg(&x, 1, NULL, 0, "new"));
    notify_local(EV_X, NULL, 0);
    wait_count(&ncalls, 1);
    ck_assert_str_eq("new", order);
    ck_assert_int_eq(0, nops);
}
END_TEST

/* A singleton is its whole job: every range is delivered here; source NULL is this process. */
static const pmix_data_range_t singleton_ranges[] = {
    PMIX_RANGE_PROC_LOCAL, PMIX_RANGE_LOCAL,  PMIX_RANGE_NAMESPACE, PMIX_RANGE_SESSION,
    PMIX_RANGE_GLOBAL,     PMIX_RANGE_CUSTOM, PMIX_RANGE_RM,
};

START_TEST(singleton_ranges_deliver_locally)
{
    pmix_status_t x = EV_X;
    pmix_info_t info[2];
    /* a custom range names its processes: here this one */
    size_t n = PMIX_RANGE_CUSTOM == singleton_ranges[_i] ? 2 : 1;
    (void)reg(&x, 1, NULL, 0, "a");
    nops = 0;
    op_status = 1;
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_TEXT_MESSAGE, "hello", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_CUSTOM_RANGE, &me, PMIX_PROC);
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_Notify_event(x, NULL, singleton_ranges[_i], info, n, op_cb, NULL));
    wait_count(&nops, 1);
    ck_assert_int_eq(PMIX_SUCCESS, op_status);
    wait_count(&ncalls, 1);
    ck_assert(PMIX_CHECK_PROCID(&me, &last_source));
    /* and the blocking form */
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_Notify_event(x, NULL, singleton_ranges[_i], info, n, NULL, NULL));
    wait_count(&ncalls, 2);
    ck_assert(!on_test_thread);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}
END_TEST

/* The handler finds its info, and its PMIX_EVENT_RETURN_OBJECT appended to it. */
static _Atomic bool info_ok;
static int object_tag;

static void info_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    bool text = false, obj = false;
    for (size_t i = 0; i < ninfo; i++) {
        text = text || (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_TEXT_MESSAGE) &&
                        0 == strcmp("hi", info[i].value.data.string));
        obj = obj || (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_RETURN_OBJECT) &&
                      &object_tag == info[i].value.data.ptr);
    }
    info_ok = text && obj && 2 == ninfo;
    rec_hdlr(ref, status, source, info, ninfo, results, nresults, cbfunc, cbdata);
}

START_TEST(event_info_and_object)
{
    pmix_status_t x = EV_X;
    pmix_info_t reginfo, info;
    PMIX_INFO_LOAD(&reginfo, PMIX_EVENT_RETURN_OBJECT, &object_tag, PMIX_POINTER);
    ck_assert_int_eq(0, PMIx_Register_event_handler(&x, 1, &reginfo, 1, info_hdlr, NULL, NULL));
    PMIX_INFO_LOAD(&info, PMIX_EVENT_TEXT_MESSAGE, "hi", PMIX_STRING);
    notify_local(EV_X, &info, 1);
    wait_count(&ncalls, 1);
    ck_assert(info_ok);
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_DESTRUCT(&reginfo);
}
END_TEST

/* One handler with a filter, one event: is it delivered? A blocking PMIX_RANGE_PROC_LOCAL (or
 * custom, or namespace) notification calls the first handler before it returns. */
enum { F_NONE, F_AFF3, F_AFF_NS, F_JOB, F_ENV };
enum { E_NONE, E_AFF3, E_AFF4, E_AFFS_4_NS, E_AFF_OTHER, E_CUSTOM_ME, E_NAMESPACE };
static const struct {
    int filter, ev;
    bool want;
} target_cases[] = {
    {F_AFF3, E_AFF3, true},         {F_AFF3, E_AFF4, false},      {F_AFF3, E_NONE, false},
    {F_AFF3, E_AFFS_4_NS, true},    {F_AFF3, E_AFF_OTHER, false}, {F_AFF_NS, E_AFF4, true},
    {F_AFF_NS, E_AFF_OTHER, false}, {F_JOB, E_NONE, false},       {F_JOB, E_CUSTOM_ME, true},
    {F_JOB, E_AFF4, true},          {F_JOB, E_AFF_OTHER, false},  {F_JOB, E_NAMESPACE, true},
    {F_ENV, E_NONE, true},          {F_ENV, E_AFF4, false},       {F_ENV, E_NAMESPACE, false},
    {F_ENV, E_CUSTOM_ME, false},    {F_NONE, E_AFF_OTHER, true},  {F_NONE, E_NONE, true},
};

START_TEST(target_filters)
{
    pmix_status_t x = EV_X;
    pmix_proc_t p3, p4, pns, other, pair[2];
    pmix_data_array_t da = {.type = PMIX_PROC, .size = 2, .array = pair};
    pmix_data_array_t da_ns = {.type = PMIX_PROC, .size = 1, .array = &pns};
    pmix_info_t reg_info, ev_info;
    pmix_data_range_t range = PMIX_RANGE_PROC_LOCAL;
    size_t nreg_info = 1, nev = 1;
    bool t = true;

    PMIX_LOAD_PROCID(&p3, me.nspace, 3);
    PMIX_LOAD_PROCID(&p4, me.nspace, 4);
    PMIX_LOAD_PROCID(&pns, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&other, "another-job", 3);
    pair[0] = p4;
    pair[1] = pns;
    switch (target_cases[_i].filter) {
    case F_AFF3:
        PMIX_INFO_LOAD(&reg_info, PMIX_EVENT_AFFECTED_PROC, &p3, PMIX_PROC);
        break;
    case F_AFF_NS:
        PMIX_INFO_LOAD(&reg_info, PMIX_EVENT_AFFECTED_PROCS, &da_ns, PMIX_DATA_ARRAY);
        break;
    case F_JOB:
        PMIX_INFO_LOAD(&reg_info, WU_EVENT_JOB_LEVEL, &t, PMIX_BOOL);
        break;
    case F_ENV:
        PMIX_INFO_LOAD(&reg_info, WU_EVENT_ENVIRO_LEVEL, &t, PMIX_BOOL);
        break;
    default:
        PMIX_INFO_LOAD(&reg_info, PMIX_EVENT_HDLR_NAME, "unfiltered", PMIX_STRING);
    }
    switch (target_cases[_i].ev) {
    case E_AFF3:
        PMIX_INFO_LOAD(&ev_info, PMIX_EVENT_AFFECTED_PROC, &p3, PMIX_PROC);
        break;
    case E_AFF4:
        PMIX_INFO_LOAD(&ev_info, PMIX_EVENT_AFFECTED_PROC, &p4, PMIX_PROC);
        break;
    case E_AFFS_4_NS:
        PMIX_INFO_LOAD(&ev_info, PMIX_EVENT_AFFECTED_PROCS, &da, PMIX_DATA_ARRAY);
        break;
    case E_AFF_OTHER:
        PMIX_INFO_LOAD(&ev_info, PMIX_EVENT_AFFECTED_PROC, &other, PMIX_PROC);
        break;
    case E_CUSTOM_ME:
        PMIX_INFO_LOAD(&ev_info, PMIX_EVENT_CUSTOM_RANGE, &me, PMIX_PROC);
        range = PMIX_RANGE_CUSTOM;
        break;
    case E_NAMESPACE:
        range = PMIX_RANGE_NAMESPACE;
        /* fall through */
    default:
        PMIX_INFO_LOAD(&ev_info, PMIX_EVENT_TEXT_MESSAGE, "no targets", PMIX_STRING);
    }
    ck_assert_int_eq(
        0, PMIx_Register_event_handler(&x, 1, &reg_info, nreg_info, rec_hdlr, NULL, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Notify_event(x, NULL, range, &ev_info, nev, NULL, NULL));
    ck_assert_int_eq(target_cases[_i].want ? 1 : 0, ncalls);
    PMIX_INFO_DESTRUCT(&reg_info);
    PMIX_INFO_DESTRUCT(&ev_info);
}
END_TEST

static Suite *event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("singleton");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, refs_unique_from_callback);
    tcase_add_test(tc, blocking_returns_ref);
    tcase_add_loop_test(tc, precedence, 0, sizeof order_cases / sizeof order_cases[0]);
    tcase_add_test(tc, first_and_last);
    tcase_add_loop_test(tc, chain_stop_and_results, 0, sizeof chain_cases / sizeof chain_cases[0]);
    tcase_add_test(tc, completion_from_another_thread);
    tcase_add_test(tc, deregister);
    tcase_add_test(tc, deregister_from_handler);
    tcase_add_test(tc, bad_params);
    tcase_add_test(tc, not_initialized);
    tcase_add_loop_test(tc, singleton_ranges_deliver_locally, 0,
                        sizeof singleton_ranges / sizeof singleton_ranges[0]);
    tcase_add_test(tc, event_info_and_object);
    tcase_add_loop_test(tc, target_filters, 0, sizeof target_cases / sizeof target_cases[0]);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(event_suite)
