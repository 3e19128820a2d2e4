/* SPDX-License-Identifier: BSD-3-Clause */
/* check_event_server.c -- events between real clients (event_prog) and the server hosted by
 * this process (the fixture of test/unit/server/srv_test.c, whose host has no notify_event
 * upcall): a client's events reach the other client, and those of ranges wider than the node
 * are answered PMIX_ERR_NOT_SUPPORTED (they can go no further), the host's PMIx_Notify_event reaches the clients and the server
 * process's own handlers, a client whose server drops it hears PMIX_ERR_LOST_CONNECTION and
 * one sent garbage PMIX_ERR_COMM_FAILURE; environment events are cached (a ring of
 * server_event_cache_size) for handlers registered later, job-specific ones held for clients
 * not connected yet (at most server_event_hold_max). */
#include "opal/util/wu_argv.h"
#include "pmix/server/wu_server.h"
#include "test/unit/server/srv_test.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>

/* Event handlers have a fixed signature; most use few of its parameters. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define EV_CODE  (PMIX_EXTERNAL_ERR_BASE - 21) /* as event_prog.c */
#define EV_OTHER (PMIX_EXTERNAL_ERR_BASE - 22)

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

/* Start event_prog as rank r of NS, running scenario what (with argument arg, may be NULL). */
static pid_t spawn_arg(pmix_rank_t r, const char *what, const char *arg)
{
    char prog[PATH_MAX], num[16], **env = wu_argv_copy(environ);
    char *argv[] = {prog, (char *)what, (char *)arg, NULL};
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

static pid_t spawn_client(pmix_rank_t r, const char *what)
{
    return spawn_arg(r, what, NULL);
}

/* The client's exit status (event_prog bounds its own life with alarm()). */
static int exit_of(pid_t pid)
{
    int status = -1;
    ck_assert_int_eq(pid, waitpid(pid, &status, 0));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Wait for n clients to say they are ready; a client that failed its checks (they wait 10 s at
 * most) never says so. */
static void await_ready(int n)
{
    char c;
    for (int i = 0; i < n; i++) {
        struct pollfd p = {.fd = ready[0], .events = POLLIN};
        ck_assert_msg(1 == poll(&p, 1, 20 * 1000), "a client did not get ready within 20 s");
        ck_assert_int_eq(1, read(ready[0], &c, 1));
    }
}

/* Without the host's notify_event upcall every range the other client is in reaches it, and
 * the ranges beyond the node are answered PMIX_ERR_NOT_SUPPORTED. */
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

/* Server thread: send client NS:0 a message of the server's own that is no event. */
static void send_garbage(wu_wait_call_t *call)
{
    static const unsigned char junk[] = {0xfe, 0x13, 0x37, 0x00};
    pmix_proc_t p;
    wu_srv_client_t *cl;
    PMIX_LOAD_PROCID(&p, NS, 0);
    cl = wu_srv_client_find(&p);
    wu_wait_call_done(call, NULL != cl && NULL != cl->conn
                                ? wu_ptl_send(cl->conn, 0, 0, junk, sizeof junk)
                                : WU_ERR_NOT_FOUND);
}

START_TEST(comm_failure_event)
{
    pid_t a = spawn_client(0, "comm");
    await_ready(1);
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(wu_srv.pt, send_garbage, NULL, TMO));
    ck_assert_int_eq(0, exit_of(a));
}
END_TEST

/* The host's event of code with text, range, and optionally a custom range of one process of
 * NS (rank; PMIX_RANK_INVALID: none), affected process NS:0, PMIX_EVENT_DO_NOT_CACHE. */
enum { EV_PLAIN = 0, EV_AFFECTS_0 = 1, EV_NO_CACHE = 2 };
static void host_notify(pmix_status_t code, pmix_data_range_t range, const char *text,
                        pmix_rank_t custom, int flags)
{
    pmix_info_t info[3];
    pmix_proc_t target, src, aff;
    size_t n = 0;
    bool t = true;
    PMIX_LOAD_PROCID(&src, NS, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&target, NS, custom);
    PMIX_LOAD_PROCID(&aff, NS, 0);
    PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_TEXT_MESSAGE, text, PMIX_STRING);
    if (PMIX_RANK_INVALID != custom) {
        PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_PROC);
    }
    if (0 != (flags & EV_AFFECTS_0)) {
        PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_AFFECTED_PROC, &aff, PMIX_PROC);
    }
    if (0 != (flags & EV_NO_CACHE)) {
        PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_DO_NOT_CACHE, &t, PMIX_BOOL);
    }
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Notify_event(code, &src, range, info, n, NULL, NULL));
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

static void env_notify(pmix_status_t code, const char *text, int flags)
{
    host_notify(code, PMIX_RANGE_LOCAL, text, PMIX_RANK_INVALID, flags);
}

/* The number of events the server holds, read in its thread. */
static void held_fn(wu_wait_call_t *call)
{
    *(size_t *)call->cbdata = wu_srv.nheld;
    wu_wait_call_done(call, WU_SUCCESS);
}

static size_t nheld(void)
{
    size_t n = SIZE_MAX;
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(wu_srv.pt, held_fn, &n, TMO));
    return n;
}

static void setup_small(void)
{
    /* a ring of 4 cached events, 4 held events at most */
    setenv("PMIX_MCA_server_event_cache_size", "4", 1);
    setenv("PMIX_MCA_server_event_hold_max", "4", 1);
    setup();
}

static void teardown_small(void)
{
    teardown();
    unsetenv("PMIX_MCA_server_event_cache_size");
    unsetenv("PMIX_MCA_server_event_hold_max");
}

/* Environment events before the client registers: the last 4 (of the code registered for) are
 * delivered on registration, oldest first, after its acknowledgement; never twice. */
START_TEST(cache_ring_replayed_on_registration)
{
    pid_t a;
    env_notify(EV_CODE, "env-1", EV_PLAIN); /* pushed out of the ring of 4 */
    env_notify(EV_CODE, "env-2", EV_PLAIN);
    env_notify(EV_OTHER, "o", EV_PLAIN);
    env_notify(EV_CODE, "env-3", EV_PLAIN);
    env_notify(EV_CODE, "env-4", EV_PLAIN);
    env_notify(EV_CODE, "nc", EV_NO_CACHE); /* not cached */
    ck_assert_uint_eq(0, nheld());          /* environment events are not held */
    a = spawn_client(0, "cache");
    await_ready(1);
    env_notify(EV_CODE, "env-5", EV_PLAIN);
    await_ready(1);
    env_notify(EV_CODE, "env-6", EV_PLAIN);
    ck_assert_int_eq(0, exit_of(a));
}
END_TEST

/* Job-specific events before their targets connect: each client gets those aimed at it when it
 * connects (its handler, registered after PMIx_Init, then gets them, and the cached environment
 * event after them); the server forgets each once all its targets have it. */
START_TEST(held_until_connected)
{
    pid_t a, b;
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "j1", 0, EV_PLAIN);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "j2", 1, EV_PLAIN);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "j3", PMIX_RANK_WILDCARD, EV_PLAIN);
    host_notify(EV_CODE, PMIX_RANGE_LOCAL, "j4", PMIX_RANK_INVALID, EV_AFFECTS_0);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "nc", 0, EV_NO_CACHE); /* not held */
    env_notify(EV_CODE, "e", EV_PLAIN);
    ck_assert_uint_eq(4, nheld());
    a = spawn_arg(0, "held", "j1,j3,j4,e");
    await_ready(1);
    ck_assert_uint_eq(3, nheld()); /* j1 had no other target */
    b = spawn_arg(1, "held", "j2,j3,j4,e");
    await_ready(1);
    ck_assert_uint_eq(0, nheld());
    env_notify(EV_CODE, "live", EV_PLAIN);
    ck_assert_int_eq(0, exit_of(a));
    ck_assert_int_eq(0, exit_of(b));
}
END_TEST

/* Past server_event_hold_max the oldest held event is dropped, and a message says so. */
START_TEST(hold_limit)
{
    char path[600], text[4096];
    int fd, saved = dup(2);
    ssize_t n;
    pid_t a;
    snprintf(path, sizeof path, "%s/stderr", tmp);
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_ge(dup2(fd, 2), 0);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "ja", 0, EV_PLAIN);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "jb", 0, EV_PLAIN);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "jc", 0, EV_PLAIN);
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "jd", 0, EV_PLAIN);
    ck_assert_int_eq(0, lseek(fd, 0, SEEK_END)); /* nothing dropped yet */
    host_notify(EV_CODE, PMIX_RANGE_CUSTOM, "je", 0, EV_PLAIN);
    dup2(saved, 2);
    close(saved);
    n = pread(fd, text, sizeof text - 1, 0);
    close(fd);
    unlink(path);
    ck_assert_int_gt(n, 0);
    text[n] = '\0';
    ck_assert_ptr_nonnull(strstr(text, "server_event_hold_max"));
    ck_assert_uint_eq(4, nheld());
    a = spawn_arg(0, "held", "jb,jc,jd,je");
    await_ready(1);
    env_notify(EV_CODE, "live", EV_PLAIN);
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
    tcase_add_test(tc, comm_failure_event);
    suite_add_tcase(s, tc);
    tc = tcase_create("kept");
    tcase_add_checked_fixture(tc, setup_small, teardown_small);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cache_ring_replayed_on_registration);
    tcase_add_test(tc, held_until_connected);
    tcase_add_test(tc, hold_limit);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(event_server_suite)
