/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_jobctl.c -- PMIx_Job_control's signal, kill and terminate under wrun. Every rank fences
 * once first (all started), then:
 *   kill REQ VICTIM  rank REQ kills rank VICTIM (PMIX_JOB_CTRL_KILL); the victim would sleep
 *                    30 s and exit 3; the others fence among themselves (the job goes on) and
 *                    print "jobctl rank R: ok".
 *   signal           rank 0 sends SIGUSR1 to every rank (PMIX_RANK_WILDCARD, itself included);
 *                    each waits for it, prints "jobctl rank R: ok", and all fence.
 *   signal-die       rank 0 sends SIGTERM to rank 1 with PMIX_JOB_CTRL_SIGNAL (no handler: it
 *                    dies, which fails the job) and waits to be terminated with it.
 *   terminate        the last rank asks to terminate its whole job (no targets,
 *                    PMIX_JOB_CTRL_TERMINATE); every rank waits to be ended.
 *   bad              rank 0: a rank the job does not have, another namespace, signals 0 and
 *                    999, an unknown required directive are refused; informational directives
 *                    (PMIX_JOB_CTRL_PREEMPTIBLE) succeed and do nothing, also with _nb; then
 *                    everybody fences and prints "jobctl rank R: ok". */
#include "e2e_util.h"

#include <pthread.h>
#include <signal.h>

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
    (void)sig;
    got_usr1 = 1;
}

static pmix_status_t control(pmix_rank_t target, const char *key, const void *val,
                             pmix_data_type_t type)
{
    pmix_proc_t p;
    pmix_info_t d;
    pmix_status_t rc;
    PMIX_LOAD_PROCID(&p, e2e_me.nspace, target);
    PMIX_INFO_LOAD(&d, key, val, type);
    rc = PMIx_Job_control(PMIX_RANK_UNDEF == target ? NULL : &p, PMIX_RANK_UNDEF == target ? 0 : 1,
                          &d, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&d);
    return rc;
}

/* A fence of every rank but skip. */
static void fence_without(uint32_t size, pmix_rank_t skip)
{
    pmix_proc_t *procs;
    size_t n = 0;
    PMIX_PROC_CREATE(procs, size);
    E2E_CHECK(NULL != procs, "out of memory");
    for (uint32_t r = 0; r < size; r++) {
        if (r != skip) {
            PMIX_LOAD_PROCID(&procs[n], e2e_me.nspace, r); /* the macro uses its argument twice */
            n++;
        }
    }
    E2E_RC(PMIx_Fence(procs, n, NULL, 0), "the survivors' fence");
    PMIX_PROC_FREE(procs, size);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int nb_done;
static pmix_status_t nb_status;

static void nb_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                  pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)info;
    (void)ninfo;
    (void)cbdata;
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    pthread_mutex_lock(&lock);
    nb_status = status;
    nb_done = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
}

static void bad(void)
{
    pmix_proc_t other;
    pmix_info_t d[2];
    int zero = 0, huge = 999, usr1 = SIGUSR1;
    bool yes = true;
    E2E_RC_IS(control(e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE),
                      PMIX_JOB_CTRL_SIGNAL, &usr1, PMIX_INT),
              PMIX_ERR_NOT_FOUND, "a rank the job does not have");
    E2E_RC_IS(control(0, PMIX_JOB_CTRL_SIGNAL, &zero, PMIX_INT), PMIX_ERR_BAD_PARAM, "signal 0");
    E2E_RC_IS(control(0, PMIX_JOB_CTRL_SIGNAL, &huge, PMIX_INT), PMIX_ERR_BAD_PARAM, "signal 999");
    PMIX_LOAD_PROCID(&other, "e2e-no-such-job", 0);
    PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
    E2E_RC_IS(PMIx_Job_control(&other, 1, d, 1, NULL, NULL), PMIX_ERR_NOT_FOUND,
              "another namespace");
    PMIX_INFO_DESTRUCT(&d[0]);
    PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_PROVISION, &yes, PMIX_BOOL);
    PMIX_INFO_REQUIRED(&d[0]);
    E2E_RC_IS(PMIx_Job_control(NULL, 0, d, 1, NULL, NULL), PMIX_ERR_NOT_SUPPORTED,
              "a required directive wrun does not carry out");
    PMIX_INFO_DESTRUCT(&d[0]);
    PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_PREEMPTIBLE, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&d[1], PMIX_JOB_CTRL_CHECKPOINT_SIGNAL, &usr1, PMIX_INT);
    E2E_RC(PMIx_Job_control(NULL, 0, d, 2, NULL, NULL), "informational directives");
    E2E_RC(PMIx_Job_control_nb(NULL, 0, d, 2, nb_cb, NULL), "informational directives (_nb)");
    pthread_mutex_lock(&lock);
    while (!nb_done) {
        pthread_cond_wait(&cond, &lock); /* the watchdog bounds it */
    }
    pthread_mutex_unlock(&lock);
    E2E_RC(nb_status, "informational directives (_nb callback)");
    PMIX_INFO_DESTRUCT(&d[0]);
    PMIX_INFO_DESTRUCT(&d[1]);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    uint32_t size;
    bool yes = true;
    int sig;

    signal(SIGUSR1, on_usr1);
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    size = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    e2e_step("everybody started");
    e2e_fence(NULL, 0, "the first fence");

    if (0 == strcmp(mode, "kill") && argc == 4) {
        pmix_rank_t req = (pmix_rank_t)atoi(argv[2]), victim = (pmix_rank_t)atoi(argv[3]);
        if (e2e_me.rank == victim) {
            sleep(30);
            e2e_fail("still alive 30 s after rank %u was to kill it", req);
        }
        if (e2e_me.rank == req) {
            e2e_step("kill");
            E2E_RC(control(victim, PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL), "Job_control(KILL)");
        }
        e2e_step("the survivors' fence");
        fence_without(size, victim);
    } else if (0 == strcmp(mode, "signal")) {
        if (0 == e2e_me.rank) {
            e2e_step("signal");
            sig = SIGUSR1;
            E2E_RC(control(PMIX_RANK_WILDCARD, PMIX_JOB_CTRL_SIGNAL, &sig, PMIX_INT),
                   "Job_control(SIGNAL SIGUSR1)");
        }
        e2e_step("wait for SIGUSR1");
        while (!got_usr1) {
            usleep(1000); /* the watchdog bounds it */
        }
        e2e_fence(NULL, 0, "the last fence");
    } else if (0 == strcmp(mode, "signal-die")) {
        if (0 == e2e_me.rank) {
            e2e_step("signal");
            sig = SIGTERM;
            E2E_RC(control(1, PMIX_JOB_CTRL_SIGNAL, &sig, PMIX_INT), "Job_control(SIGNAL SIGTERM)");
        }
        e2e_step("wait to be terminated");
        sleep(30);
        e2e_fail("not terminated 30 s after rank 1 died of a signal");
    } else if (0 == strcmp(mode, "terminate")) {
        if (size - 1 == e2e_me.rank) {
            e2e_step("terminate");
            (void)control(PMIX_RANK_UNDEF, PMIX_JOB_CTRL_TERMINATE, &yes, PMIX_BOOL);
        }
        e2e_step("wait to be terminated");
        sleep(30);
        e2e_fail("not terminated 30 s after the request");
    } else if (0 == strcmp(mode, "bad")) {
        if (0 == e2e_me.rank) {
            e2e_step("refusals");
            bad();
        }
        e2e_fence(NULL, 0, "the last fence");
    } else {
        e2e_fail("usage: e2e_jobctl kill REQ VICTIM | signal | signal-die | terminate | bad");
    }
    printf("jobctl rank %u: ok\n", e2e_me.rank);
    fflush(stdout);
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
