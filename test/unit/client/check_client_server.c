/* SPDX-License-Identifier: BSD-3-Clause */
/* check_client_server.c -- the PMIx client against the real server. Each test makes this process
 * a PMIx server host (PMIx_server_init, a job of two processes registered with both clients),
 * forks the clients, which exec client_prog with the environment of PMIx_server_setup_fork, and
 * checks their exit statuses. A process is never client and server at once: the clients are
 * separate programs. */
#include "test/support/wu_test.h"
#include "test/unit/client/ctest_model.h"

#include "pmix.h"
#include "pmix_server.h"

#include <stdatomic.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char tmpdir[PATH_MAX];
static pmix_nspace_t nspace;
static _Atomic int aborted = -1;

static pmix_status_t finalized_up(const pmix_proc_t *proc, void *server_object,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)server_object;
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t abort_up(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)server_object;
    (void)msg;
    (void)procs;
    (void)nprocs;
    aborted = status;
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

/* What the host heard of the programming models its clients declared, by rank. */
static _Atomic int connected_model[2], event_model[2];

static bool declares(const pmix_info_t *info, size_t ninfo, const char *model)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_PROGRAMMING_MODEL) && PMIX_STRING == info[i].value.type &&
            0 == strcmp(model, info[i].value.data.string)) {
            return true;
        }
    }
    return false;
}

static pmix_status_t connected2_up(const pmix_proc_t *proc, void *server_object, pmix_info_t info[],
                                   size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    if (proc->rank < 2 && declares(info, ninfo, "ctest")) {
        connected_model[proc->rank]++;
    }
    return PMIX_OPERATION_SUCCEEDED;
}

static void model_hdlr(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    if (PMIX_MODEL_DECLARED == status && source->rank < 2 &&
        PMIX_CHECK_NSPACE(source->nspace, nspace) && declares(info, ninfo, "ctest")) {
        event_model[source->rank]++;
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}
/* The host's data service takes a publish only with the publisher's user and group ids, which
 * the server must add; it has no lookup or unpublish. */
static pmix_status_t publish_up(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    bool uid = false, gid = false;
    (void)proc;
    for (size_t i = 0; i < ninfo; i++) {
        uid = uid || (PMIX_CHECK_KEY(&info[i], PMIX_USERID) &&
                      info[i].value.data.uint32 == (uint32_t)getuid());
        gid = gid || (PMIX_CHECK_KEY(&info[i], PMIX_GRPID) &&
                      info[i].value.data.uint32 == (uint32_t)getgid());
    }
    if (NULL != cbfunc) {
        cbfunc(uid && gid ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM, cbdata);
    }
    return PMIX_SUCCESS;
}

static pmix_server_module_t module = {.client_finalized = finalized_up,
                                      .abort = abort_up,
                                      .client_connected2 = connected2_up,
                                      .publish = publish_up};

static void op_done(pmix_status_t status, void *cbdata)
{
    _Atomic int *out = cbdata;
    *out = status;
}

static void wait_op(_Atomic int *st)
{
    for (int i = 0; i < 10000 && 1 == *st; i++) {
        usleep(1000);
    }
    ck_assert_int_eq(PMIX_SUCCESS, *st);
}

static void load_u32(pmix_info_t *i, const char *key, uint32_t v)
{
    PMIX_INFO_LOAD(i, key, &v, PMIX_UINT32);
}

static void load_u16(pmix_info_t *i, const char *key, uint16_t v)
{
    PMIX_INFO_LOAD(i, key, &v, PMIX_UINT16);
}

static void register_job(void)
{
    pmix_info_t info[6], rank[2][4], node[3];
    pmix_data_array_t dr[2], dn;
    char host[256];
    _Atomic int st = 1;
    gethostname(host, sizeof host);
    load_u32(&info[0], PMIX_JOB_SIZE, 2);
    load_u32(&info[1], PMIX_LOCAL_SIZE, 2);
    PMIX_INFO_LOAD(&info[2], PMIX_LOCAL_PEERS, "0,1", PMIX_STRING);
    for (int r = 0; r < 2; r++) {
        pmix_rank_t rk = (pmix_rank_t)r;
        PMIX_INFO_LOAD(&rank[r][0], PMIX_RANK, &rk, PMIX_PROC_RANK);
        load_u16(&rank[r][1], PMIX_LOCAL_RANK, (uint16_t)r);
        load_u16(&rank[r][2], PMIX_NODE_RANK, (uint16_t)r);
        PMIX_INFO_LOAD(&rank[r][3], PMIX_HOSTNAME, host, PMIX_STRING);
        dr[r].type = PMIX_INFO;
        dr[r].size = 4;
        dr[r].array = rank[r];
        PMIX_INFO_LOAD(&info[3 + r], PMIX_PROC_DATA, &dr[r], PMIX_DATA_ARRAY);
    }
    PMIX_INFO_LOAD(&node[0], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIX_INFO_LOAD(&node[1], PMIX_LOCAL_PEERS, "0,1", PMIX_STRING);
    load_u32(&node[2], PMIX_LOCAL_SIZE, 2);
    dn.type = PMIX_INFO;
    dn.size = 3;
    dn.array = node;
    PMIX_INFO_LOAD(&info[5], PMIX_NODE_INFO_ARRAY, &dn, PMIX_DATA_ARRAY);
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_server_register_nspace(nspace, 2, info, 6, op_done, (void *)&st));
    wait_op(&st);
    for (int i = 0; i < 6; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < 4; i++) {
            PMIX_INFO_DESTRUCT(&rank[r][i]);
        }
    }
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&node[i]);
    }
}

static void server_start(void)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&module, &info, 1));
    PMIX_INFO_DESTRUCT(&info);
    snprintf(nspace, sizeof nspace, "ctest.%ld", (long)getpid());
    register_job();
}

/* A second namespace without local processes, described by node and proc maps only. */
static void register_other(void)
{
    pmix_info_t info[4];
    pmix_nspace_t other;
    char host[256], list[600], *nmap = NULL, *pmap = NULL;
    _Atomic int st = 1;
    gethostname(host, sizeof host);
    snprintf(list, sizeof list, "hostA,%s", host);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_generate_regex(list, &nmap));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_generate_ppn("0,1;2", &pmap));
    snprintf(other, sizeof other, "%.200s.other", nspace);
    load_u32(&info[0], PMIX_JOB_SIZE, 3);
    load_u32(&info[1], PMIX_UNIV_SIZE, 5);
    PMIX_INFO_LOAD(&info[2], PMIX_NODE_MAP, nmap, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_PROC_MAP, pmap, PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_server_register_nspace(other, 0, info, 4, op_done, (void *)&st));
    wait_op(&st);
    for (int i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    free(nmap);
    free(pmap);
    setenv("CTEST_OTHER_NSPACE", other, 1);
    setenv("CTEST_DIR", tmpdir, 1);
}

static void setup(void)
{
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    unsetenv("WU_PMIX_SERVER_URI");
    wu_test_tmpdir_make("wu_client_srv", tmpdir, sizeof tmpdir);
    server_start();
}

static void teardown(void)
{
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    wu_test_tmpdir_remove(tmpdir);
}

/* Register rank r, fork it and exec client_prog with scenario what; the child's pid. */
static pid_t start_client(int r, const char *what, int keep_fd)
{
    pmix_proc_t p;
    char **env = NULL, prog[PATH_MAX];
    _Atomic int st = 1;
    pmix_status_t arc;
    pid_t pid;
    PMIX_LOAD_PROCID(&p, nspace, (pmix_rank_t)r);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_register_client(&p, getuid(), getgid(), NULL,
                                                               op_done, (void *)&st));
    wait_op(&st);
    for (char **e = environ; NULL != *e; e++) {
        PMIX_ARGV_APPEND(arc, env, *e);
        ck_assert_int_eq(PMIX_SUCCESS, arc);
    }
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    snprintf(prog, sizeof prog, "%s/test/unit/client/client_prog", WU_TEST_BUILDDIR);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (0 == pid) {
        char *argv[] = {prog, (char *)what, NULL};
        for (int fd = 3; fd < 1024; fd++) {
            if (fd != keep_fd) {
                close(fd);
            }
        }
        execve(prog, argv, env);
        _exit(127);
    }
    PMIX_ARGV_FREE(env);
    return pid;
}

/* Wait for pid up to secs seconds (then kill it); its exit status, or -1. */
static int reap(pid_t pid, int secs)
{
    int status;
    for (int i = 0; i < secs * 100; i++) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        usleep(10 * 1000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

static const char *const pair_scenarios[] = {"exchange", "dmodex", "timeout",
                                             "misc",     "model",  "pubsub"};

START_TEST(pair)
{
    bool misc = 0 == strcmp("misc", pair_scenarios[_i]);
    bool model = 0 == strcmp("model", pair_scenarios[_i]);
    pmix_status_t code = PMIX_MODEL_DECLARED;
    char path[PATH_MAX + 16];
    _Atomic int st = 1;
    pid_t a, b;
    int fds[2] = {-1, -1};
    char num[16];
    if (misc) {
        register_other();
    }
    if (model) {
        /* this process's handlers: one for the clients' declarations, a default one */
        ck_assert_int_eq(0, ctest_register(&code, model_hdlr));
        ck_assert_int_eq(0, ctest_register(NULL, ctest_default_hdlr));
    }
    /* a pipe from rank 0 to rank 1 for scenarios that need an order ("timeout") */
    ck_assert_int_eq(0, pipe(fds));
    snprintf(num, sizeof num, "%d", fds[1]);
    setenv("CTEST_READY_FD", num, 1);
    a = start_client(0, pair_scenarios[_i], fds[1]);
    snprintf(num, sizeof num, "%d", fds[0]);
    setenv("CTEST_READY_FD", num, 1);
    b = start_client(1, pair_scenarios[_i], fds[0]);
    close(fds[0]);
    close(fds[1]);
    ck_assert_int_eq(0, reap(a, 30));
    ck_assert_int_eq(0, reap(b, 30));
    if (model) {
        /* each client's first PMIx_Init declared "ctest": the host's upcall and this process's
         * handler heard it once per client (its second declaration stays in the client), the
         * default handler never */
        for (int r = 0; r < 2; r++) {
            ck_assert_int_eq(1, connected_model[r]);
            for (int i = 0; i < 5000 && 0 == event_model[r]; i++) {
                usleep(1000);
            }
            ck_assert_int_eq(1, event_model[r]);
        }
        ck_assert_int_eq(0, ctest_default_saw_model);
    }
    if (misc) {
        ck_assert_int_eq(7, aborted); /* the host heard the abort */
        snprintf(path, sizeof path, "%s/cleanme", tmpdir);
        ck_assert(wu_path_exists(path));
        PMIx_server_deregister_nspace(nspace, op_done, (void *)&st);
        wait_op(&st);
        ck_assert(!wu_path_exists(path)); /* the server removed what the client registered */
    }
}
END_TEST

/* The server process dies (SIGKILL) while its client waits in a fence: the client's fence fails
 * with PMIX_ERR_LOST_CONNECTION, later server requests with PMIX_ERR_UNREACH, local data stays,
 * and its Finalize succeeds. The host runs in a child of this process, which adopts the client
 * (child subreaper) once the host is gone. */
START_TEST(server_killed)
{
    int ready[2], info[2];
    pid_t host, client = -1;
    ck_assert_int_eq(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    unsetenv("WU_PMIX_SERVER_URI");
    wu_test_tmpdir_make("wu_client_kill", tmpdir, sizeof tmpdir);
    ck_assert_int_eq(0, pipe(ready));
    ck_assert_int_eq(0, pipe(info));
    host = fork();
    ck_assert_int_ge(host, 0);
    if (0 == host) {
        struct pollfd pfd = {.fd = ready[0], .events = POLLIN};
        char num[16], c;
        pid_t pid;
        close(info[0]);
        server_start();
        snprintf(num, sizeof num, "%d", ready[1]);
        setenv("CTEST_READY_FD", num, 1);
        pid = start_client(0, "lost", ready[1]);
        close(ready[1]);
        if (sizeof pid != write(info[1], &pid, sizeof pid) || 1 != poll(&pfd, 1, 20000) ||
            1 != read(ready[0], &c, 1)) {
            _exit(3);
        }
        kill(getpid(), SIGKILL);
        _exit(4);
    }
    close(ready[0]);
    close(ready[1]);
    close(info[1]);
    ck_assert_int_eq(sizeof client, read(info[0], &client, sizeof client));
    close(info[0]);
    ck_assert_int_eq(128 + SIGKILL, reap(host, 30));
    ck_assert_int_eq(0, reap(client, 30));
    wu_test_tmpdir_remove(tmpdir);
}
END_TEST

static Suite *client_server_suite(void)
{
    Suite *s = suite_create("client_server");
    TCase *tc = tcase_create("server");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, pair, 0, sizeof pair_scenarios / sizeof pair_scenarios[0]);
    suite_add_tcase(s, tc);
    tc = tcase_create("killed");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, server_killed);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(client_server_suite)
