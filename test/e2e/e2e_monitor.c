/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_monitor.c -- PMIx_Process_monitor under wrun: heartbeat and file monitors, which the
 * server watches. Every rank first registers one handler for PMIX_MONITOR_HEARTBEAT_ALERT and
 * PMIX_MONITOR_FILE_ALERT and fences, then:
 *   beat       rank 1 asks for a heartbeat monitor (id "hb", a beat every 1 s, 2 misses trip
 *              it) and beats every 0.2 s for 3 s: no alert may come. Then it stops beating: the
 *              alert must reach rank 1 and rank 0 (its namespace) within 10 s, naming rank 1
 *              (PMIX_EVENT_AFFECTED_PROC) and "hb" (PMIX_MONITOR_ID), and only once.
 *   file PATH  rank 0 watches PATH (checks every 1 s, 2 misses) and appends to it for 3 s: no
 *              alert; then it stops writing: PMIX_MONITOR_FILE_ALERT within 10 s.
 *   cancel     rank 0: a heartbeat monitor "c" cancelled at once raises nothing in 4 s; a
 *              second cancel of "c" and a cancel of everything find nothing (NOT_FOUND).
 *   bad        rank 0: without PMIX_MONITOR_HEARTBEAT_TIME, with a time of 0, a relative file
 *              path, a path without a check time: PMIX_ERR_BAD_PARAM; an unknown kind of
 *              monitor: PMIX_ERR_NOT_SUPPORTED (wrun's host has no monitor upcall).
 * Then every rank fences again and prints "monitor rank R: ok". */
#include "e2e_util.h"

#include <stdatomic.h>

static atomic_int alerts, file_alerts;
static atomic_uint affected = PMIX_RANK_UNDEF;
static atomic_int id_ok;

static void on_alert(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)ref;
    (void)source;
    (void)results;
    (void)nresults;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && PMIX_PROC == info[i].value.type) {
            atomic_store(&affected, info[i].value.data.proc->rank);
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_MONITOR_ID) && PMIX_STRING == info[i].value.type &&
                   0 == strcmp("hb", info[i].value.data.string)) {
            atomic_store(&id_ok, 1);
        }
    }
    atomic_fetch_add(PMIX_MONITOR_FILE_ALERT == status ? &file_alerts : &alerts, 1);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Ask for a monitor of kind key (value val of type t) with up to two uint32 directives and an
 * id; the request's status. */
static pmix_status_t monitor(const char *key, const void *val, pmix_data_type_t t, const char *k1,
                             uint32_t v1, const char *k2, uint32_t v2, const char *id)
{
    pmix_info_t what, dirs[3];
    size_t n = 0;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&what, key, val, t);
    if (NULL != k1) {
        PMIX_INFO_LOAD(&dirs[n++], k1, &v1, PMIX_UINT32);
    }
    if (NULL != k2) {
        PMIX_INFO_LOAD(&dirs[n++], k2, &v2, PMIX_UINT32);
    }
    if (NULL != id) {
        PMIX_INFO_LOAD(&dirs[n++], PMIX_MONITOR_ID, id, PMIX_STRING);
    }
    rc = PMIx_Process_monitor(&what,
                              0 == strcmp(PMIX_MONITOR_FILE, key) ? PMIX_MONITOR_FILE_ALERT
                                                                  : PMIX_MONITOR_HEARTBEAT_ALERT,
                              dirs, n, NULL, NULL);
    PMIX_INFO_DESTRUCT(&what);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&dirs[i]);
    }
    return rc;
}

static pmix_status_t cancel(const char *id)
{
    pmix_info_t what;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&what, PMIX_MONITOR_CANCEL, id, PMIX_STRING);
    rc = PMIx_Process_monitor(&what, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    PMIX_INFO_DESTRUCT(&what);
    return rc;
}

/* Wait until *counter is at least want, at most secs seconds; false on a timeout. */
static bool await(atomic_int *counter, int want, double secs)
{
    double end = e2e_now() + secs;
    while (atomic_load(counter) < want && e2e_now() < end) {
        usleep(50 * 1000);
    }
    return atomic_load(counter) >= want;
}

static void beat(void)
{
    if (1 == e2e_me.rank) {
        e2e_step("heartbeat monitor");
        E2E_RC(monitor(PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER, PMIX_MONITOR_HEARTBEAT_TIME, 1,
                       PMIX_MONITOR_HEARTBEAT_DROPS, 2, "hb"),
               "a heartbeat monitor");
        for (double end = e2e_now() + 3; e2e_now() < end;) {
            PMIx_Heartbeat();
            usleep(200 * 1000);
        }
        E2E_CHECK(0 == atomic_load(&alerts), "an alert came while heartbeats did");
    }
    if (e2e_me.rank <= 1) {
        e2e_step("the alert");
        E2E_CHECK(await(&alerts, 1, 10), "no heartbeat alert within 10 s of the last beat");
        E2E_CHECK(1 == atomic_load(&affected), "the alert names rank %u, not 1",
                  atomic_load(&affected));
        E2E_CHECK(atomic_load(&id_ok), "the alert does not carry the monitor's id");
        sleep(3); /* the monitor ended: no second alert */
        E2E_CHECK(1 == atomic_load(&alerts), "%d alerts, not one", atomic_load(&alerts));
    }
}

static void file(const char *path)
{
    FILE *f;
    if (0 != e2e_me.rank) {
        return;
    }
    e2e_step("file monitor");
    E2E_CHECK(NULL != (f = fopen(path, "w")), "cannot create %s", path);
    E2E_RC(monitor(PMIX_MONITOR_FILE, path, PMIX_STRING, PMIX_MONITOR_FILE_CHECK_TIME, 1,
                   PMIX_MONITOR_FILE_DROPS, 2, NULL),
           "a file monitor");
    for (double end = e2e_now() + 3; e2e_now() < end;) {
        fputs("still going\n", f);
        fflush(f);
        usleep(200 * 1000);
    }
    fclose(f);
    E2E_CHECK(0 == atomic_load(&file_alerts), "a file alert came while the file grew");
    e2e_step("the file alert");
    E2E_CHECK(await(&file_alerts, 1, 10), "no file alert within 10 s of the last write");
    E2E_CHECK(0 == atomic_load(&alerts), "a heartbeat alert came too");
}

static void cancelled(void)
{
    if (0 != e2e_me.rank) {
        return;
    }
    e2e_step("cancel");
    E2E_RC(monitor(PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER, PMIX_MONITOR_HEARTBEAT_TIME, 1, NULL,
                   0, "c"),
           "a heartbeat monitor");
    E2E_RC(cancel("c"), "its cancel");
    E2E_CHECK(!await(&alerts, 1, 4), "a cancelled monitor raised an alert");
    E2E_RC_IS(cancel("c"), PMIX_ERR_NOT_FOUND, "a second cancel");
    E2E_RC_IS(cancel(""), PMIX_ERR_NOT_FOUND, "a cancel of everything, with nothing left");
}

static void bad(void)
{
    if (0 != e2e_me.rank) {
        return;
    }
    e2e_step("bad requests");
    E2E_RC_IS(monitor(PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER, NULL, 0, NULL, 0, NULL),
              PMIX_ERR_BAD_PARAM, "a heartbeat monitor without a time");
    E2E_RC_IS(monitor(PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER, PMIX_MONITOR_HEARTBEAT_TIME, 0,
                      NULL, 0, NULL),
              PMIX_ERR_BAD_PARAM, "a heartbeat monitor of 0 s");
    E2E_RC_IS(monitor(PMIX_MONITOR_FILE, "relative/path", PMIX_STRING, PMIX_MONITOR_FILE_CHECK_TIME,
                      1, NULL, 0, NULL),
              PMIX_ERR_BAD_PARAM, "a file monitor of a relative path");
    E2E_RC_IS(monitor(PMIX_MONITOR_FILE, "/tmp", PMIX_STRING, NULL, 0, NULL, 0, NULL),
              PMIX_ERR_BAD_PARAM, "a file monitor without a check time");
    E2E_RC_IS(monitor(PMIX_MONITOR_APP_CONTROL, NULL, PMIX_BOOL, NULL, 0, NULL, 0, NULL),
              PMIX_ERR_NOT_SUPPORTED, "a monitor only a host could know");
}

int main(int argc, char **argv)
{
    pmix_status_t codes[] = {PMIX_MONITOR_HEARTBEAT_ALERT, PMIX_MONITOR_FILE_ALERT};
    const char *mode = argc > 1 ? argv[1] : "";

    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    E2E_CHECK(0 <= PMIx_Register_event_handler(codes, 2, NULL, 0, on_alert, NULL, NULL),
              "registering the alert handler failed");
    e2e_fence(NULL, 0, "the first fence");
    if (0 == strcmp(mode, "beat")) {
        beat();
    } else if (0 == strcmp(mode, "file") && argc > 2) {
        file(argv[2]);
    } else if (0 == strcmp(mode, "cancel")) {
        cancelled();
    } else if (0 == strcmp(mode, "bad")) {
        bad();
    } else {
        e2e_fail("usage: e2e_monitor beat | file PATH | cancel | bad");
    }
    e2e_fence(NULL, 0, "the last fence");
    e2e_note("monitor rank %u: ok", e2e_me.rank);
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
