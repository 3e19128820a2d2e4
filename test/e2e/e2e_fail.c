/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_fail.c -- `wrun -n N e2e_fail MODE DIR`: a job that ends badly. Every rank writes its
 * pid to DIR/pid.<rank> (DIR: the test's private temporary directory) so the script can check
 * that no rank survives the job.
 *   abort  the last rank calls PMIx_Abort(7) while the others wait in a fence
 *   die    the last rank exits with status 3 without PMIx_Finalize while the others wait in a
 *          fence: their fence must fail (no hang)
 *   hang   the last rank sleeps instead of joining the fence (for wrun --timeout)
 *   leave  the last rank calls PMIx_Finalize and exits 0 while the others wait in a fence
 *          (PMIX_TIMEOUT 60 s): their fence must fail (not time out), then they end normally
 *   leave0 the same with a fence without PMIX_TIMEOUT (nothing but the failure ends it)
 *   late   the others fence with PMIX_TIMEOUT 2 s and must get PMIX_ERR_TIMEOUT; the last rank
 *          skips that fence, and then every rank, the last one 5 s late, takes part in a
 *          second fence (PMIX_TIMEOUT 30 s), which must succeed: nothing of the first is left
 *   lost   every rank waits in a Get of a key nobody puts; the script kills wrun (the server):
 *          the Get must fail with PMIX_ERR_LOST_CONNECTION. Rank 0 writes DIR/ready once all
 *          ranks passed a fence; each rank writes its Get's status to DIR/result.<rank>, and
 *          the status its handler for PMIX_ERR_LOST_CONNECTION was called with (0: not within
 *          10 s) to DIR/event.<rank>. */
#include "e2e_util.h"

#include <fcntl.h>
#include <pthread.h>

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;
static pmix_status_t ev_status; /* what the loss handler got; 0 until then */

static void lost_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)ref;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    pthread_mutex_lock(&ev_lock);
    ev_status = status;
    pthread_cond_broadcast(&ev_cond);
    pthread_mutex_unlock(&ev_lock);
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* The status the loss handler got, waiting up to 10 s for it (0: none). */
static pmix_status_t lost_event(void)
{
    struct timespec ts;
    pmix_status_t st;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 10;
    pthread_mutex_lock(&ev_lock);
    while (ev_status == 0 && pthread_cond_timedwait(&ev_cond, &ev_lock, &ts) == 0) {
    }
    st = ev_status;
    pthread_mutex_unlock(&ev_lock);
    return st;
}

static void write_pid(const char *dir, pmix_rank_t r)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/pid.%u", dir, r);
    FILE *f = fopen(path, "w");
    E2E_CHECK(f != NULL, "cannot create %s", path);
    fprintf(f, "%ld\n", (long)getpid());
    E2E_CHECK(fclose(f) == 0, "cannot write %s", path);
}

/* wait in a Get until the server goes away; record the Get's status */
static void lost(const char *dir, uint32_t n)
{
    char path[4096];
    pmix_value_t *v = NULL;
    pmix_proc_t peer;
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;
    e2e_step("register for the loss of the server");
    E2E_CHECK(PMIx_Register_event_handler(&code, 1, NULL, 0, lost_hdlr, NULL, NULL) >= 0,
              "registering for PMIX_ERR_LOST_CONNECTION failed");
    e2e_fence(NULL, 0, "fence: every rank registered");
    if (e2e_me.rank == 0) {
        snprintf(path, sizeof(path), "%s/ready", dir);
        FILE *f = fopen(path, "w");
        E2E_CHECK(f != NULL && fclose(f) == 0, "cannot create %s", path);
    }
    e2e_step("Get waiting for a key nobody puts, until the server dies");
    E2E_CHECK(n > 1, "mode lost needs a peer (at least 2 ranks)");
    PMIX_LOAD_PROCID(&peer, e2e_me.nspace, (e2e_me.rank + 1) % n);
    pmix_status_t rc = PMIx_Get(&peer, "e2e.never", NULL, 0, &v);
    snprintf(path, sizeof(path), "%s/result.%u", dir, e2e_me.rank);
    FILE *f = fopen(path, "w");
    E2E_CHECK(f != NULL, "cannot create %s", path);
    fprintf(f, "%d\n", rc);
    E2E_CHECK(fclose(f) == 0, "cannot write %s", path);
    snprintf(path, sizeof(path), "%s/event.%u", dir, e2e_me.rank);
    f = fopen(path, "w");
    E2E_CHECK(f != NULL, "cannot create %s", path);
    fprintf(f, "%d\n", lost_event());
    E2E_CHECK(fclose(f) == 0, "cannot write %s", path);
    /* wrun is gone: its end of the output pipes too */
    signal(SIGPIPE, SIG_IGN);
    e2e_note("Get returned %s", PMIx_Error_string(rc));
    if (v != NULL) {
        PMIX_VALUE_RELEASE(v);
    }
    /* a call after the loss fails too, at once */
    e2e_step("Fence after the server died");
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    E2E_CHECK(rc != PMIX_SUCCESS, "a Fence succeeded after the server died");
    PMIx_Finalize(NULL, 0);
    exit(0);
}

/* the last rank leaves; the others' fence (PMIX_TIMEOUT secs, 0: none) must fail because of
 * that, not by its timeout */
static void leave(uint32_t n, int secs)
{
    pmix_info_t tmo;
    if (e2e_me.rank == n - 1) {
        usleep(500 * 1000); /* let the others enter the fence */
        e2e_step("PMIx_Finalize instead of the fence");
        E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
        exit(0);
    }
    e2e_step("fence that the last rank leaves instead of joining");
    PMIX_INFO_LOAD(&tmo, PMIX_TIMEOUT, &secs, PMIX_INT);
    pmix_status_t rc = PMIx_Fence(NULL, 0, secs > 0 ? &tmo : NULL, secs > 0 ? 1 : 0);
    E2E_CHECK(PMIX_SUCCESS != rc, "the fence succeeded although rank %u left", n - 1);
    E2E_CHECK(PMIX_ERR_TIMEOUT != rc, "the fence only timed out after %d s", secs);
    e2e_note("fence failed as expected: %s", PMIx_Error_string(rc));
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    exit(0);
}

/* a fence that times out, then one of the same participants that succeeds */
static void late(uint32_t n)
{
    pmix_info_t tmo;
    int secs = 2;
    pmix_status_t rc;
    if (e2e_me.rank < n - 1) {
        e2e_step("fence with PMIX_TIMEOUT 2 s that the last rank skips");
        PMIX_INFO_LOAD(&tmo, PMIX_TIMEOUT, &secs, PMIX_INT);
        rc = PMIx_Fence(NULL, 0, &tmo, 1);
        E2E_CHECK(PMIX_ERR_TIMEOUT == rc, "the first fence gave %s, not PMIX_ERR_TIMEOUT",
                  PMIx_Error_string(rc));
        e2e_note("first fence timed out as expected");
    } else {
        sleep(5);
    }
    e2e_step("second fence, every rank");
    secs = 30;
    PMIX_INFO_LOAD(&tmo, PMIX_TIMEOUT, &secs, PMIX_INT);
    e2e_fence(&tmo, 1, "second PMIx_Fence");
    e2e_note("second fence succeeded");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "abort") != 0 && strcmp(argv[1], "die") != 0 &&
                      strcmp(argv[1], "lost") != 0 && strcmp(argv[1], "hang") != 0 &&
                      strcmp(argv[1], "leave") != 0 && strcmp(argv[1], "leave0") != 0 &&
                      strcmp(argv[1], "late") != 0)) {
        fprintf(stderr, "usage: %s abort|die|hang|lost|leave|leave0|late DIR\n", argv[0]);
        return 2;
    }
    bool do_abort = strcmp(argv[1], "abort") == 0;
    e2e_watchdog_secs = 100;
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    uint32_t n = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    write_pid(argv[2], e2e_me.rank);
    e2e_step("fence: every rank is up");
    e2e_fence(NULL, 0, "first PMIx_Fence");

    if (strcmp(argv[1], "lost") == 0) {
        lost(argv[2], n);
    }
    if (strcmp(argv[1], "leave") == 0 || strcmp(argv[1], "leave0") == 0) {
        leave(n, strcmp(argv[1], "leave") == 0 ? 60 : 0);
    }
    if (strcmp(argv[1], "late") == 0) {
        late(n);
    }
    if (e2e_me.rank == n - 1 && strcmp(argv[1], "hang") == 0) {
        e2e_note("sleeping instead of joining the fence");
        fflush(NULL);
        sleep(90);
        e2e_fail("still alive 90 s after the fence began");
    }
    if (e2e_me.rank == n - 1) {
        usleep(500 * 1000); /* let the others enter the fence */
        if (do_abort) {
            e2e_step("PMIx_Abort");
            e2e_note("calling PMIx_Abort(7)");
            pmix_status_t rc = PMIx_Abort(7, "e2e_fail: deliberate abort", NULL, 0);
            e2e_note("PMIx_Abort returned %s; waiting to be killed", PMIx_Error_string(rc));
            sleep(60);
            e2e_fail("still alive 60 s after PMIx_Abort");
        }
        e2e_note("exiting with status 3 without PMIx_Finalize");
        fflush(NULL);
        _exit(3);
    }

    e2e_step("fence that the last rank never joins");
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (rc == PMIX_SUCCESS) {
        e2e_fail("the fence succeeded although rank %u never joined", n - 1);
    }
    e2e_note("fence failed as expected: %s", PMIx_Error_string(rc));
    if (do_abort) {
        sleep(60); /* the abort kills the job: wait for it */
        e2e_fail("still alive 60 s after the abort");
    }
    return 4;
}
