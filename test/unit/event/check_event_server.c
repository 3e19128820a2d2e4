/* SPDX-License-Identifier: BSD-3-Clause */
/* check_event_server.c -- events between real clients (event_prog) and the server hosted by
 * this process (the fixture of test/unit/server/srv_test.c): a client's namespace-wide event
 * reaches the other client, the host's PMIx_Notify_event reaches the clients and the server
 * process's own handlers, and a client whose server drops it hears PMIX_ERR_LOST_CONNECTION. */
#include "opal/util/wu_argv.h"
#include "test/unit/server/srv_test.h"

#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>

/* Event handlers have a fixed signature; most use few of its parameters. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define EV_CODE (PMIX_EXTERNAL_ERR_BASE - 21) /* as event_prog.c */

static int ready[2] = {-1, -1}; /* clients -> host */
static int peer[2] = {-1, -1};  /* rank 1 -> rank 0 */

static void setup(void)
{
    srv_setup();
    register_job(2, 2, getuid());
    ck_assert_int_eq(0, pipe(ready));
    ck_assert_int_eq(0, pipe(peer));
}

static void teardown(void)
{
    close(ready[0]);
    close(ready[1]);
    close(peer[0]);
    close(peer[1]);
    srv_teardown();
}

/* Start event_prog as rank r of NS, running scenario what. */
static pid_t spawn_client(pmix_rank_t r, const char *what)
{
    char prog[PATH_MAX], num[16], **env = wu_argv_copy(environ);
    char *argv[] = {prog, (char *)what, NULL};
    pmix_proc_t p;
    pid_t pid;
    PMIX_LOAD_PROCID(&p, NS, r);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    snprintf(num, sizeof num, "%d", ready[1]);
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("EV_READY_FD", num, true, &env));
    snprintf(num, sizeof num, "%d", 0 == r ? peer[0] : peer[1]);
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("EV_PEER_FD", num, true, &env));
    snprintf(prog, sizeof prog, "%s/test/unit/event/event_prog", WU_TEST_BUILDDIR);
    ck_assert_int_eq(0, posix_spawn(&pid, prog, NULL, NULL, argv, env));
    wu_argv_free(env);
    return pid;
}

/* The client's exit status (event_prog bounds its own life with alarm()). */
static int exit_of(pid_t pid)
{
    int status = -1;
    ck_assert_int_eq(pid, waitpid(pid, &status, 0));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void await_ready(int n)
{
    char c;
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(1, read(ready[0], &c, 1));
    }
}

START_TEST(namespace_event_reaches_peer)
{
    pid_t a = spawn_client(0, "ns"), b = spawn_client(1, "ns");
    ck_assert_int_eq(0, exit_of(a));
    ck_assert_int_eq(0, exit_of(b));
}
END_TEST

static _Atomic int host_calls;
static pmix_proc_t host_source;

static void host_hdlr(size_t ref, pmix_status_t status, const pmix_proc_t *src, pmix_info_t info[],
                      size_t ninfo, pmix_info_t *results, size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    host_source = *src;
    host_calls++;
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* The host notifies from inside the server process; ranges that cover both clients. */
static const pmix_data_range_t host_ranges[] = {PMIX_RANGE_NAMESPACE, PMIX_RANGE_LOCAL,
                                                PMIX_RANGE_CUSTOM};

START_TEST(host_event_reaches_clients)
{
    pmix_status_t code = EV_CODE;
    pmix_info_t info[2];
    pmix_proc_t src, targets[2];
    pmix_data_array_t da = {.type = PMIX_PROC, .size = 2, .array = targets};
    pid_t a, b;
    /* the server process may register handlers as well */
    ck_assert_int_eq(0, PMIx_Register_event_handler(&code, 1, NULL, 0, host_hdlr, NULL, NULL));
    a = spawn_client(0, "server");
    b = spawn_client(1, "server");
    await_ready(2);
    PMIX_LOAD_PROCID(&src, NS, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&targets[0], NS, 0);
    PMIX_LOAD_PROCID(&targets[1], NS, 1);
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_TEXT_MESSAGE, "from-host", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_CUSTOM_RANGE, &da, PMIX_DATA_ARRAY);
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_Notify_event(EV_CODE, &src, host_ranges[_i], info, 2, NULL, NULL));
    ck_assert_int_eq(0, exit_of(a));
    ck_assert_int_eq(0, exit_of(b));
    ck_assert_int_eq(1, host_calls);
    ck_assert(PMIX_CHECK_PROCID(&src, &host_source));
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}
END_TEST

START_TEST(lost_connection_event)
{
    pmix_proc_t p;
    wu_wait_t w;
    pid_t a = spawn_client(0, "lost");
    await_ready(1);
    /* the server drops the client: its connection closes under it */
    PMIX_LOAD_PROCID(&p, NS, 0);
    wu_wait_init(&w);
    PMIx_server_deregister_client(&p, op_done, &w);
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    ck_assert_int_eq(0, exit_of(a));
}
END_TEST

static Suite *event_server_suite(void)
{
    Suite *s = suite_create("event_server");
    TCase *tc = tcase_create("server");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, namespace_event_reaches_peer);
    tcase_add_loop_test(tc, host_event_reaches_clients, 0,
                        sizeof host_ranges / sizeof host_ranges[0]);
    tcase_add_test(tc, lost_connection_event);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(event_server_suite)
