/* SPDX-License-Identifier: BSD-3-Clause */
/* check_ptl_await.c -- wu_ptl_conn_await: a connection made by wu_ptl_connect read by the thread
 * that waits for its reply (issue 13). Against a raw peer that replies as each test needs: the
 * reply delivered in the waiting thread; other frames left to the progress thread and every
 * frame delivered once, in order; a descriptor passed with the reply; the peer leaving,
 * stalling or sending garbage, and a local close, while a thread waits (one closed callback,
 * nothing leaked); the calls it declines. */
#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "test/support/wu_test.h"
#include "test/support/wu_test_io.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define TMO       10.0
#define REPLY     0x0001u /* the test's reply flag */
#define ROUNDS    40
#define MAXFRAMES 256

static wu_progress_t *pt;
static char dir[256], path[300], uri[320];
static int lfd = -1;

/* ---- the client side: records each delivery ---------------------------------------------- */
typedef struct {
    pthread_mutex_t lock;
    uint32_t tags[MAXFRAMES]; /* in delivery order */
    bool here[MAXFRAMES];     /* delivered in the thread that awaited */
    int n;
    uint32_t want; /* the reply awaited now */
    bool got_want, closed;
    int closed_status, nclosed;
    pthread_t waiter;
    char fdtext[8]; /* what the descriptor passed with a reply held */
    wu_ptl_conn_t *conn;
} cli_t;
static cli_t cli;

static void cli_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *p, size_t len,
                     void *cbdata)
{
    int fd = wu_ptl_conn_take_fd(c);
    (void)flags;
    (void)p;
    (void)len;
    (void)cbdata;
    if (fd >= 0) {
        ssize_t r = read(fd, cli.fdtext, sizeof cli.fdtext - 1);
        cli.fdtext[r > 0 ? r : 0] = '\0';
        close(fd);
    }
    pthread_mutex_lock(&cli.lock);
    ck_assert_int_lt(cli.n, MAXFRAMES);
    cli.here[cli.n] = pthread_equal(pthread_self(), cli.waiter);
    cli.tags[cli.n++] = tag;
    if (tag == cli.want && 0 != (flags & REPLY)) {
        cli.got_want = true;
    }
    pthread_mutex_unlock(&cli.lock);
}

static void cli_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    (void)c;
    (void)cbdata;
    pthread_mutex_lock(&cli.lock);
    cli.closed = true;
    cli.closed_status = status;
    cli.nclosed++;
    pthread_mutex_unlock(&cli.lock);
}

static bool mine(uint32_t tag, uint16_t flags, void *arg)
{
    bool m;
    (void)arg;
    pthread_mutex_lock(&cli.lock);
    m = 0 != (flags & REPLY) && tag == cli.want;
    pthread_mutex_unlock(&cli.lock);
    return m;
}

static bool done(void *arg)
{
    bool d;
    (void)arg;
    pthread_mutex_lock(&cli.lock);
    d = cli.got_want || cli.closed;
    pthread_mutex_unlock(&cli.lock);
    return d;
}

/* The reply to wait for next: set before the request goes (the reply may come at once). */
static void expect_reply(uint32_t want)
{
    pthread_mutex_lock(&cli.lock);
    cli.want = want;
    cli.got_want = false;
    pthread_mutex_unlock(&cli.lock);
}

/* Await the reply expected, then (if the progress thread took over) poll until done. */
static int await_reply(void)
{
    int rc = wu_ptl_conn_await(cli.conn, mine, done, NULL);
    ck_assert(WU_SUCCESS == rc || WU_ERR_TAKE_NEXT == rc);
    for (int i = 0; i < (int)(TMO * 1000) && !done(NULL); i++) {
        usleep(1000);
    }
    ck_assert(done(NULL));
    return rc;
}

/* ---- the raw peer ------------------------------------------------------------------------- */

static void fill_hdr(unsigned char *h, uint32_t tag, uint16_t flags, uint32_t len)
{
    uint16_t f = htons(flags);
    uint32_t t = htonl(tag), l = htonl(len);
    h[0] = WU_PTL_WIRE_MAGIC;
    h[1] = WU_PTL_WIRE_VERSION;
    memcpy(h + 2, &f, 2);
    memcpy(h + 4, &t, 4);
    memcpy(h + 8, &l, 4);
}

/* A frame of len bytes to the client; with a descriptor (a pipe holding "fd!") if pass_fd. */
static void peer_send(int s, uint32_t tag, uint16_t flags, uint32_t len, bool pass_fd)
{
    unsigned char *buf = calloc(1, WU_PTL_HDR_SIZE + len);
    fill_hdr(buf, tag, (uint16_t)(flags | (pass_fd ? WU_PTL_FLAG_FD : 0)), len);
    if (pass_fd) {
        int p[2];
        union {
            struct cmsghdr align;
            char b[CMSG_SPACE(sizeof(int))];
        } ctl;
        struct iovec iov = {buf, WU_PTL_HDR_SIZE + len};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
        struct cmsghdr *cm;
        ck_assert_int_eq(0, pipe(p));
        ck_assert_int_eq(3, write(p[1], "fd!", 3));
        close(p[1]);
        memset(&ctl, 0, sizeof ctl);
        m.msg_control = ctl.b;
        m.msg_controllen = sizeof ctl.b;
        cm = CMSG_FIRSTHDR(&m);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &p[0], sizeof(int));
        ck_assert_int_eq((ssize_t)iov.iov_len, sendmsg(s, &m, MSG_NOSIGNAL));
        close(p[0]);
    } else {
        wu_test_write_all(s, buf, WU_PTL_HDR_SIZE + len);
    }
    free(buf);
}

/* Read one whole frame from the client; its tag. */
static uint32_t peer_recv(int s)
{
    unsigned char h[WU_PTL_HDR_SIZE], *p;
    uint32_t tag, len;
    wu_test_read_all(s, h, sizeof h);
    memcpy(&tag, h + 4, 4);
    memcpy(&len, h + 8, 4);
    len = ntohl(len);
    p = malloc(len > 0 ? len : 1);
    wu_test_read_all(s, p, len);
    free(p);
    return ntohl(tag);
}

/* What the peer thread does for each request: */
typedef enum {
    P_REPLY,       /* wait 20 ms, reply */
    P_EVENT_FIRST, /* an unrelated frame, then the reply */
    P_FD,          /* reply with a descriptor */
    P_CLOSE,       /* close the connection */
    P_STALL,       /* half a reply, then nothing (until the client goes) */
    P_GARBAGE      /* a bad header */
} peer_act_t;

typedef struct {
    int s;
    peer_act_t act;
    int rounds;
} peer_t;

static void *peer_main(void *arg)
{
    peer_t *p = arg;
    for (int i = 0; i < p->rounds; i++) {
        uint32_t tag = peer_recv(p->s);
        switch (p->act) {
        case P_REPLY:
            usleep(20 * 1000); /* let the client be waiting in its own read by then */
            peer_send(p->s, tag, REPLY, 100, false);
            break;
        case P_EVENT_FIRST:
            if (0 == i % 2) {
                usleep(20 * 1000); /* every other round, the waiter reads the event */
            }
            peer_send(p->s, 1000 + tag, 0, 10, false);
            peer_send(p->s, tag, REPLY, 10, false);
            break;
        case P_FD:
            usleep(20 * 1000);
            peer_send(p->s, tag, REPLY, 4, true);
            break;
        case P_CLOSE:
            usleep(20 * 1000);
            shutdown(p->s, SHUT_RDWR); /* the client sees the end; the test closes p->s */
            return NULL;
        case P_STALL: {
            unsigned char h[WU_PTL_HDR_SIZE + 3] = {0};
            char b;
            fill_hdr(h, tag, REPLY, 100);
            wu_test_write_all(p->s, h, sizeof h);
            (void)read(p->s, &b, 1); /* until the client drops the connection */
            break;
        }
        case P_GARBAGE:
            usleep(20 * 1000);
            wu_test_write_all(p->s, "garbage-garbage", 15);
            break;
        }
    }
    return NULL;
}

/* Connect the client and accept its socket. */
static int connect_client(void)
{
    int s;
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_connect(pt, uri, cli_recv, cli_closed, NULL, &cli.conn));
    s = accept(lfd, NULL, NULL);
    ck_assert_int_ge(s, 0);
    return s;
}

static void client_send(uint32_t tag)
{
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_send(cli.conn, tag, 0, "request", 7));
}

/* Close the client (if still open), wait for its one closed callback, release it. */
static void client_end(void)
{
    wu_ptl_close(cli.conn);
    for (int i = 0; i < (int)(TMO * 1000) && !done(NULL); i++) {
        usleep(1000);
    }
    wu_ptl_conn_release(cli.conn);
    cli.conn = NULL;
    wu_test_sync_pt(
        pt); /* the teardown, and a second closed callback if there were one, are over */
    pthread_mutex_lock(&cli.lock);
    ck_assert(cli.closed);
    ck_assert_int_eq(1, cli.nclosed);
    pthread_mutex_unlock(&cli.lock);
}

static void setup(void)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_base_open());
    pt = wu_progress_start("ptl-await");
    ck_assert_ptr_nonnull(pt);
    wu_test_tmpdir_make("ptl_await", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/s", dir);
    snprintf(uri, sizeof uri, "usock:%s", path);
    memcpy(sa.sun_path, path, strlen(path) + 1);
    lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_eq(0, bind(lfd, (struct sockaddr *)&sa, sizeof sa));
    ck_assert_int_eq(0, listen(lfd, 4));
    memset(&cli, 0, sizeof cli);
    pthread_mutex_init(&cli.lock, NULL);
    cli.waiter = pthread_self();
}

static void teardown(void)
{
    close(lfd);
    unlink(path);
    wu_test_tmpdir_remove(dir);
    wu_progress_stop(pt);
    pthread_mutex_destroy(&cli.lock);
    wu_ptl_base_close();
    wu_mca_base_close();
}

/* Run rounds requests against a peer doing act; returns how many awaits returned WU_SUCCESS. */
static int run_peer(peer_act_t act, int rounds, pthread_t *th, peer_t *p)
{
    int ok = 0;
    p->s = connect_client();
    p->act = act;
    p->rounds = rounds;
    ck_assert_int_eq(0, pthread_create(th, NULL, peer_main, p));
    for (int i = 0; i < rounds; i++) {
        expect_reply((uint32_t)(i + 1));
        client_send((uint32_t)(i + 1));
        ok += WU_SUCCESS == await_reply();
        if (cli.closed) {
            break;
        }
    }
    return ok;
}

/* ---- tests -------------------------------------------------------------------------------- */

START_TEST(test_await_here)
{
    pthread_t th;
    peer_t p;
    int fds = wu_test_count_fds(), ok = run_peer(P_REPLY, ROUNDS, &th, &p), here = 0;
    pthread_join(th, NULL);
    ck_assert_int_eq(ROUNDS, cli.n);
    for (int i = 0; i < cli.n; i++) {
        ck_assert_uint_eq((uint32_t)(i + 1), cli.tags[i]); /* each reply once, in order */
        here += cli.here[i];
    }
    /* The peer answers 20 ms after the request: the waiter reads nearly every reply itself */
    ck_assert_int_ge(here, ROUNDS / 2);
    ck_assert_int_ge(ok, here);
    client_end();
    close(p.s);
    ck_assert_int_eq(fds, wu_test_count_fds()); /* socket and epoll set closed */
}
END_TEST

START_TEST(test_await_other_frames_first)
{
    pthread_t th;
    peer_t p;
    int k = 0;
    (void)run_peer(P_EVENT_FIRST, ROUNDS, &th, &p);
    pthread_join(th, NULL);
    ck_assert_int_eq(2 * ROUNDS, cli.n);
    for (int i = 1; i <= ROUNDS; i++) {
        /* the unrelated frame, then the reply, in the order sent; the unrelated one always on
         * the progress thread */
        ck_assert_uint_eq(1000u + (uint32_t)i, cli.tags[k]);
        ck_assert(!cli.here[k++]);
        ck_assert_uint_eq((uint32_t)i, cli.tags[k++]);
    }
    client_end();
    close(p.s);
}
END_TEST

START_TEST(test_await_fd)
{
    pthread_t th;
    peer_t p;
    (void)run_peer(P_FD, 1, &th, &p);
    pthread_join(th, NULL);
    ck_assert_int_eq(1, cli.n);
    ck_assert_str_eq("fd!", cli.fdtext);
    client_end();
    close(p.s);
}
END_TEST

/* The peer closes, stalls or sends garbage while the client waits: the connection ends once,
 * with the status it would have without a waiting thread, and nothing is left open. */
static const struct {
    peer_act_t act;
    int status;
} ends[] = {
    {P_CLOSE, WU_PTL_PEER_CLOSED},
    {P_STALL, WU_ERR_TIMEOUT},
    {P_GARBAGE, WU_ERR_BAD_FORMAT},
};

START_TEST(test_await_peer_ends)
{
    pthread_t th;
    peer_t p;
    int fds;
    if (P_STALL == ends[_i].act) {
        wu_ptl_base_close();
        wu_mca_base_close();
        setenv("PMIX_MCA_ptl_base_frame_timeout", "1", 1);
        ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
        ck_assert_int_eq(WU_SUCCESS, wu_ptl_base_open());
    }
    fds = wu_test_count_fds();
    ck_assert_int_eq(0, run_peer(ends[_i].act, 1, &th, &p));
    pthread_mutex_lock(&cli.lock);
    ck_assert(cli.closed);
    ck_assert_int_eq(ends[_i].status, cli.closed_status);
    ck_assert_int_eq(0, cli.n);
    pthread_mutex_unlock(&cli.lock);
    pthread_join(th, NULL); /* a stalled peer saw the client drop the connection */
    close(p.s);
    client_end();
    ck_assert_int_eq(fds, wu_test_count_fds());
    unsetenv("PMIX_MCA_ptl_base_frame_timeout");
}
END_TEST

static void *close_later(void *arg)
{
    usleep(50 * 1000);
    wu_ptl_close(arg);
    return NULL;
}

START_TEST(test_await_local_close)
{
    pthread_t th;
    int s, fds = wu_test_count_fds();
    s = connect_client();
    expect_reply(1);
    client_send(1);
    ck_assert_int_eq(0, pthread_create(&th, NULL, close_later, cli.conn));
    (void)await_reply(); /* no reply comes: the close ends the wait */
    pthread_join(th, NULL);
    ck_assert_int_eq(WU_SUCCESS, cli.closed_status);
    client_end();
    close(s);
    ck_assert_int_eq(fds, wu_test_count_fds());
}
END_TEST

static void await_in_pt(wu_wait_call_t *call)
{
    wu_wait_call_done(call, wu_ptl_conn_await(call->cbdata, mine, done, NULL));
}

/* It declines on the progress thread and with bad arguments. */
START_TEST(test_await_declines)
{
    int s = connect_client();
    ck_assert_int_eq(WU_ERR_TAKE_NEXT, wu_ptl_conn_await(NULL, mine, done, NULL));
    ck_assert_int_eq(WU_ERR_TAKE_NEXT, wu_ptl_conn_await(cli.conn, NULL, done, NULL));
    ck_assert_int_eq(WU_ERR_TAKE_NEXT, wu_ptl_conn_await(cli.conn, mine, NULL, NULL));
    ck_assert_int_eq(WU_ERR_TAKE_NEXT, wu_progress_shift_wait(pt, await_in_pt, cli.conn, TMO));
    client_end();
    close(s);
}
END_TEST

static Suite *ptl_await_suite(void)
{
    Suite *s = suite_create("ptl_await");
    TCase *tc = tcase_create("await");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_await_here);
    tcase_add_test(tc, test_await_other_frames_first);
    tcase_add_test(tc, test_await_fd);
    tcase_add_loop_test(tc, test_await_peer_ends, 0, sizeof ends / sizeof ends[0]);
    tcase_add_test(tc, test_await_local_close);
    tcase_add_test(tc, test_await_declines);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(ptl_await_suite)
