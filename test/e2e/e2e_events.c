/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_events.c -- `wrun -n 3 e2e_events targets` and `wrun -n 2 e2e_events cache`: event
 * notification between the ranks of a job, through wrun's server and host. Each handler records
 * the events it gets (their PMIX_EVENT_TEXT_MESSAGE) in order; a check waits for an event that
 * comes last, then compares the whole record, so an event that should not have come is seen.
 * Each code has one handler, which the chain calls as the event arrives: the record is in the
 * order rank 0 notified. Prints "events rank R: ok" when every check passed.
 *
 *   targets  every rank registers a handler per code, with a filter, then rank 0 notifies
 *            events with and without targets. EV_F: only those whose affected processes
 *            include rank 1; EV_A (no filter): a custom range of rank 2 reaches rank 2 alone;
 *            EV_J (job level): only job-specific events about this job; EV_E (environment
 *            level): only events aimed at no process.
 *   cache    rank 0 notifies two environment events before anyone registers for them; after a
 *            fence both ranks register a handler and get them (after the registration's
 *            callback), then a third one as it comes, each once.
 *   nodes    under a host that cannot carry events between nodes (Slurm's mpi/pmix has no
 *            notify_event upcall): every rank registers a handler, then the first rank of each
 *            node notifies a namespace event. Each rank gets the one of its own node's first
 *            rank and no other; the notifier is told PMIX_ERR_NOT_SUPPORTED (the event went no
 *            further than its node) and prints "events rank R: notify NOT_SUPPORTED". */
#include "e2e_util.h"

#include <pthread.h>
#include <stdbool.h>

#define EV_A (PMIX_EXTERNAL_ERR_BASE - 41)
#define EV_F (PMIX_EXTERNAL_ERR_BASE - 42)
#define EV_J (PMIX_EXTERNAL_ERR_BASE - 43)
#define EV_E (PMIX_EXTERNAL_ERR_BASE - 44)
#define EV_C (PMIX_EXTERNAL_ERR_BASE - 45)

/* The job-level and environment-level registration attributes of the PMIx v2/v3 headers
 * (PMIX_EVENT_JOB_LEVEL, PMIX_EVENT_ENVIRO_LEVEL), which the 4.2 headers no longer define. */
#define EV_JOB_LEVEL    "pmix.evjob"
#define EV_ENVIRO_LEVEL "pmix.evenv"

enum { H_ALL, H_AFF1, H_JOB, H_ENV, H_C, NH };
static const char *const hname[NH] = {"all", "aff1", "job", "env", "c"};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static char seen[NH][256];

static void note(int h, const char *item)
{
    pthread_mutex_lock(&lock);
    if (seen[h][0] != '\0') {
        strncat(seen[h], ",", sizeof seen[h] - strlen(seen[h]) - 1);
    }
    strncat(seen[h], item, sizeof seen[h] - strlen(seen[h]) - 1);
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                 size_t ninfo, pmix_info_t *results, size_t nresults,
                 pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const char *text = "?";
    int h = -1;
    (void)ref;
    (void)status;
    (void)source;
    (void)results;
    (void)nresults;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_TEXT_MESSAGE) &&
            info[i].value.type == PMIX_STRING) {
            text = info[i].value.data.string;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_RETURN_OBJECT)) {
            h = *(const int *)info[i].value.data.ptr;
        }
    }
    E2E_CHECK(h >= 0 && h < NH, "a handler without its object");
    note(h, text);
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void reg_cb(pmix_status_t status, size_t ref, void *cbdata)
{
    (void)ref;
    E2E_CHECK(status == PMIX_SUCCESS, "registration callback: %s", PMIx_Error_string(status));
    note(*(const int *)cbdata, "ack");
}

static const int ids[NH] = {H_ALL, H_AFF1, H_JOB, H_ENV, H_C};

/* Register handler h for code with one more info (key NULL: none). Blocking, or with reg_cb
 * when nb. */
static void reg(int h, pmix_status_t code, const char *key, const void *val, pmix_data_type_t t,
                bool nb)
{
    pmix_info_t info[2];
    size_t n = 0;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_RETURN_OBJECT, (void *)&ids[h], PMIX_POINTER);
    if (key != NULL) {
        PMIX_INFO_LOAD(&info[n++], key, val, t);
    }
    rc = PMIx_Register_event_handler(&code, 1, info, n, hdlr, nb ? reg_cb : NULL, (void *)&ids[h]);
    E2E_CHECK(nb ? rc == PMIX_SUCCESS : rc >= 0, "register %s: %s", hname[h],
              PMIx_Error_string(rc));
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

/* Notify code over range with text and one more info (key NULL: none). */
static void notify(pmix_status_t code, pmix_data_range_t range, const char *text, const char *key,
                   const void *val, pmix_data_type_t t)
{
    pmix_info_t info[2];
    size_t n = 0;
    PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_TEXT_MESSAGE, text, PMIX_STRING);
    if (key != NULL) {
        PMIX_INFO_LOAD(&info[n++], key, val, t);
    }
    E2E_RC(PMIx_Notify_event(code, NULL, range, info, n, NULL, NULL), text);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

/* Wait (30 s at most) until handler h's record ends with last; it must then be want. */
static void expect(int h, const char *last, const char *want)
{
    struct timespec ts;
    size_t n = strlen(last);
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 30;
    pthread_mutex_lock(&lock);
    while (strlen(seen[h]) < n || strcmp(seen[h] + strlen(seen[h]) - n, last) != 0) {
        if (pthread_cond_timedwait(&cond, &lock, &ts) != 0) {
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    E2E_CHECK(strcmp(seen[h], want) == 0, "handler %s got \"%s\", expected \"%s\"", hname[h],
              seen[h], want);
}

static void targets(void)
{
    pmix_proc_t p1, p2, pair[2], all, other;
    pmix_data_array_t wild = {.type = PMIX_PROC, .size = 2, .array = pair};
    bool yes = true;
    PMIX_LOAD_PROCID(&p1, e2e_me.nspace, 1);
    PMIX_LOAD_PROCID(&p2, e2e_me.nspace, 2);
    PMIX_LOAD_PROCID(&all, e2e_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&other, "e2e-another-job", 0);
    pair[0] = p2;
    pair[1] = all;
    e2e_step("register");
    reg(H_ALL, EV_A, NULL, NULL, PMIX_UNDEF, false);
    reg(H_AFF1, EV_F, PMIX_EVENT_AFFECTED_PROC, &p1, PMIX_PROC, false);
    reg(H_JOB, EV_J, EV_JOB_LEVEL, &yes, PMIX_BOOL, false);
    reg(H_ENV, EV_E, EV_ENVIRO_LEVEL, &yes, PMIX_BOOL, false);
    e2e_fence(NULL, 0, "fence after registering");
    if (e2e_me.rank == 0) {
        e2e_step("notify");
        notify(EV_F, PMIX_RANGE_NAMESPACE, "f-aff1", PMIX_EVENT_AFFECTED_PROC, &p1, PMIX_PROC);
        notify(EV_F, PMIX_RANGE_NAMESPACE, "f-aff2", PMIX_EVENT_AFFECTED_PROC, &p2, PMIX_PROC);
        notify(EV_F, PMIX_RANGE_NAMESPACE, "f-none", NULL, NULL, PMIX_UNDEF);
        notify(EV_F, PMIX_RANGE_NAMESPACE, "f-wild", PMIX_EVENT_AFFECTED_PROCS, &wild,
               PMIX_DATA_ARRAY);
        notify(EV_F, PMIX_RANGE_NAMESPACE, "f-end", PMIX_EVENT_AFFECTED_PROC, &p1, PMIX_PROC);
        notify(EV_A, PMIX_RANGE_CUSTOM, "a-to2", PMIX_EVENT_CUSTOM_RANGE, &p2, PMIX_PROC);
        notify(EV_A, PMIX_RANGE_NAMESPACE, "a-end", NULL, NULL, PMIX_UNDEF);
        notify(EV_J, PMIX_RANGE_GLOBAL, "j-env", NULL, NULL, PMIX_UNDEF);
        notify(EV_J, PMIX_RANGE_NAMESPACE, "j-ns", NULL, NULL, PMIX_UNDEF);
        notify(EV_J, PMIX_RANGE_GLOBAL, "j-other", PMIX_EVENT_AFFECTED_PROC, &other, PMIX_PROC);
        notify(EV_J, PMIX_RANGE_CUSTOM, "j-end", PMIX_EVENT_CUSTOM_RANGE, &all, PMIX_PROC);
        notify(EV_E, PMIX_RANGE_NAMESPACE, "e-ns", NULL, NULL, PMIX_UNDEF);
        notify(EV_E, PMIX_RANGE_GLOBAL, "e-env", NULL, NULL, PMIX_UNDEF);
        notify(EV_E, PMIX_RANGE_GLOBAL, "e-aff", PMIX_EVENT_AFFECTED_PROC, &p1, PMIX_PROC);
        notify(EV_E, PMIX_RANGE_LOCAL, "e-end", NULL, NULL, PMIX_UNDEF);
    }
    e2e_step("check");
    expect(H_AFF1, "f-end", "f-aff1,f-wild,f-end");
    expect(H_ALL, "a-end", e2e_me.rank == 2 ? "a-to2,a-end" : "a-end");
    expect(H_JOB, "j-end", "j-ns,j-end");
    expect(H_ENV, "e-end", "e-env,e-end");
    e2e_fence(NULL, 0, "fence before finalize");
}

static void cache(void)
{
    if (e2e_me.rank == 0) {
        e2e_step("notify before registration");
        notify(EV_C, PMIX_RANGE_GLOBAL, "c1", NULL, NULL, PMIX_UNDEF);
        notify(EV_C, PMIX_RANGE_GLOBAL, "c2", NULL, NULL, PMIX_UNDEF);
    }
    e2e_fence(NULL, 0, "fence after the first events");
    e2e_step("register late");
    reg(H_C, EV_C, NULL, NULL, PMIX_UNDEF, true);
    expect(H_C, "c2", "ack,c1,c2");
    e2e_fence(NULL, 0, "fence after registering");
    if (e2e_me.rank == 0) {
        e2e_step("notify after registration");
        notify(EV_C, PMIX_RANGE_GLOBAL, "c3", NULL, NULL, PMIX_UNDEF);
    }
    e2e_step("check");
    expect(H_C, "c3", "ack,c1,c2,c3");
    e2e_fence(NULL, 0, "fence before finalize");
}

static void nodes(void)
{
    char *peers = e2e_get_str(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS), text[32];
    unsigned long first = strtoul(peers, NULL, 10);
    pmix_info_t info;
    pmix_status_t rc;
    free(peers);
    e2e_step("register");
    reg(H_ALL, EV_A, NULL, NULL, PMIX_UNDEF, false);
    e2e_fence(NULL, 0, "fence after registering");
    snprintf(text, sizeof text, "ns-%lu", first);
    if (e2e_me.rank == first) {
        e2e_step("notify");
        PMIX_INFO_LOAD(&info, PMIX_EVENT_TEXT_MESSAGE, text, PMIX_STRING);
        rc = PMIx_Notify_event(EV_A, NULL, PMIX_RANGE_NAMESPACE, &info, 1, NULL, NULL);
        PMIX_INFO_DESTRUCT(&info);
        printf("events rank %u: notify %s\n", e2e_me.rank,
               rc == PMIX_ERR_NOT_SUPPORTED ? "NOT_SUPPORTED" : PMIx_Error_string(rc));
    }
    e2e_step("check");
    expect(H_ALL, text, text);
    e2e_fence(NULL, 0, "fence before finalize");
    expect(H_ALL, text, text); /* nothing came from another node meanwhile */
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    if (strcmp(what, "targets") == 0) {
        targets();
    } else if (strcmp(what, "cache") == 0) {
        cache();
    } else if (strcmp(what, "nodes") == 0) {
        nodes();
    } else {
        e2e_fail("unknown scenario '%s'", what);
    }
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("events rank %u: ok\n", e2e_me.rank);
    return 0;
}
