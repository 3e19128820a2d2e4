/* SPDX-License-Identifier: BSD-3-Clause */
/* check_ptl_foreign.c -- wu_ptl_connect_foreign: a client's connect to an OpenPMIx server
 * (docs/openpmix-wire.md 2.1-2.3, 3), against a raw TCP peer playing the server. The handshake
 * as it goes on the wire (8 bytes 0xff, the length in host order, 4 zero bytes, the body);
 * after the bare answer (status, index) both directions use OpenPMIx's 16-byte header, the
 * client's carrying the index; a server that closes, answers an error status, or stays silent
 * fails the connect (no descriptor left behind), within the timeout. */
#include "mca/ptl/ptl.h"
#include "test/support/wu_test.h"
#include "test/support/wu_test_io.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HELLO "native\0body of the handshake"

static wu_progress_t *pt;
static int lfd = -1;
static char uri[64];

/* What the fake server does after reading the handshake. */
typedef enum { ANSWER, CLOSE, REFUSE, SILENT } act_t;

typedef struct {
    act_t act;
    int s;                 /* the accepted socket (left open for the test) */
    unsigned char hdr[16]; /* the handshake's header as received */
    char body[64];
    size_t blen;
    unsigned char fhdr[16]; /* the client's first frame after the handshake */
    char fbody[16];
} srv_t;

static int read_n(int s, void *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = recv(s, (char *)p + got, n - got, 0);
        if (r <= 0) {
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

static void *server(void *arg)
{
    srv_t *v = arg;
    uint32_t len;
    v->s = accept(lfd, NULL, NULL);
    if (v->s < 0 || 0 != read_n(v->s, v->hdr, 16)) {
        return NULL;
    }
    memcpy(&len, v->hdr + 8, 4); /* host order */
    if (len > sizeof v->body || 0 != read_n(v->s, v->body, len)) {
        return NULL;
    }
    v->blen = len;
    if (CLOSE == v->act) {
        close(v->s);
        v->s = -1;
    } else if (REFUSE == v->act) {
        uint32_t a[2] = {htonl((uint32_t)-14), htonl(0)}; /* PMIX_ERR_READY_FOR_HANDSHAKE */
        (void)!write(v->s, a, sizeof a);
    } else if (ANSWER == v->act) {
        /* the answer, then at once a frame of the server's own (tag 0: an event) */
        unsigned char out[8 + 16 + 2];
        uint32_t a[2] = {htonl(0), htonl(7)}, h[4] = {0, htonl(0), htonl(2), 0};
        memcpy(out, a, 8);
        memcpy(out + 8, h, 16);
        memcpy(out + 24, "hi", 2);
        (void)!write(v->s, out, sizeof out);
        if (0 == read_n(v->s, v->fhdr, 16)) {
            memcpy(&len, v->fhdr + 8, 4);
            if (ntohl(len) <= sizeof v->fbody) {
                (void)read_n(v->s, v->fbody, ntohl(len));
            }
        }
    }
    return NULL;
}

static struct {
    pthread_mutex_t lock;
    int n;
    uint32_t tag;
    uint16_t flags;
    char payload[8];
} got = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void cli_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *p, size_t len,
                     void *cbdata)
{
    (void)c;
    (void)cbdata;
    pthread_mutex_lock(&got.lock);
    got.n++;
    got.tag = tag;
    got.flags = flags;
    memcpy(got.payload, p, len < sizeof got.payload ? len : sizeof got.payload - 1);
    pthread_mutex_unlock(&got.lock);
}

static void setup(void)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t slen = sizeof sa;
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_base_open());
    pt = wu_progress_start("ptl-foreign");
    ck_assert_ptr_nonnull(pt);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_eq(0, bind(lfd, (struct sockaddr *)&sa, sizeof sa));
    ck_assert_int_eq(0, listen(lfd, 4));
    ck_assert_int_eq(0, getsockname(lfd, (struct sockaddr *)&sa, &slen));
    snprintf(uri, sizeof uri, "tcp4://127.0.0.1:%u", (unsigned)ntohs(sa.sin_port));
    got.n = 0;
}

static void teardown(void)
{
    close(lfd);
    wu_progress_stop(pt);
    wu_ptl_base_close();
    wu_mca_base_close();
}

START_TEST(test_foreign_handshake_and_frames)
{
    srv_t v = {.act = ANSWER};
    pthread_t th;
    wu_ptl_conn_t *c = NULL;
    int32_t status = 1;
    uint32_t w;
    ck_assert_int_eq(0, pthread_create(&th, NULL, server, &v));
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_connect_foreign(pt, uri, HELLO, sizeof HELLO, 10.0,
                                                        cli_recv, NULL, NULL, &status, &c));
    ck_assert_int_eq(0, status);
    /* the handshake: 8 x 0xff, the length in this host's order, 4 zero bytes, then the body */
    for (int i = 0; i < 8; i++) {
        ck_assert_uint_eq(0xff, v.hdr[i]);
    }
    memcpy(&w, v.hdr + 8, 4);
    ck_assert_uint_eq(sizeof HELLO, w);
    memcpy(&w, v.hdr + 12, 4);
    ck_assert_uint_eq(0, w);
    ck_assert_uint_eq(sizeof HELLO, v.blen);
    ck_assert_int_eq(0, memcmp(HELLO, v.body, sizeof HELLO));
    /* the server's frame that followed its answer at once is delivered, as OpenPMIx's */
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&got.lock);
        bool done = got.n > 0;
        pthread_mutex_unlock(&got.lock);
        if (done) {
            break;
        }
        usleep(5000);
    }
    pthread_mutex_lock(&got.lock);
    ck_assert_int_eq(1, got.n);
    ck_assert_uint_eq(0, got.tag);
    ck_assert(0 != (got.flags & WU_PTL_FLAG_FOREIGN));
    ck_assert_str_eq("hi", got.payload);
    pthread_mutex_unlock(&got.lock);
    /* the client's frame: the index it was given, tag and length in network order */
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_send(c, 101, 0, "abc", 3));
    pthread_join(th, NULL);
    memcpy(&w, v.fhdr, 4);
    ck_assert_uint_eq(7, ntohl(w));
    memcpy(&w, v.fhdr + 4, 4);
    ck_assert_uint_eq(101, ntohl(w));
    memcpy(&w, v.fhdr + 8, 4);
    ck_assert_uint_eq(3, ntohl(w));
    ck_assert_int_eq(0, memcmp("abc", v.fbody, 3));
    wu_ptl_close(c);
    wu_ptl_conn_release(c);
    close(v.s);
}
END_TEST

/* Failures: closed without an answer, an error status, silence past the timeout. */
static const struct {
    act_t act;
    int rc;
    int32_t status;
} fails[] = {
    {CLOSE, WU_ERR_NO_PERMISSIONS, 0},
    {REFUSE, WU_ERR_NO_PERMISSIONS, -14},
    {SILENT, WU_ERR_TIMEOUT, 0},
};

START_TEST(test_foreign_refused)
{
    srv_t v = {.act = fails[_i].act, .s = -1};
    pthread_t th;
    wu_ptl_conn_t *c = NULL;
    int32_t status = 1;
    int fds = wu_test_count_fds();
    ck_assert_int_eq(0, pthread_create(&th, NULL, server, &v));
    ck_assert_int_eq(fails[_i].rc, wu_ptl_connect_foreign(pt, uri, HELLO, sizeof HELLO, 0.5,
                                                          cli_recv, NULL, NULL, &status, &c));
    ck_assert_ptr_null(c);
    ck_assert_int_eq(fails[_i].status, status);
    pthread_join(th, NULL);
    if (v.s >= 0) {
        close(v.s);
    }
    ck_assert_int_eq(fds, wu_test_count_fds());
}
END_TEST

START_TEST(test_foreign_bad_args)
{
    wu_ptl_conn_t *c = NULL;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_ptl_connect_foreign(pt, uri, HELLO, 0, 1.0, cli_recv,
                                                              NULL, NULL, NULL, &c));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_ptl_connect_foreign(pt, uri, HELLO, sizeof HELLO, 0,
                                                              cli_recv, NULL, NULL, NULL, &c));
    ck_assert_int_eq(WU_ERR_NOT_SUPPORTED,
                     wu_ptl_connect_foreign(pt, "nope://x", HELLO, sizeof HELLO, 1.0, cli_recv,
                                            NULL, NULL, NULL, &c));
    ck_assert_ptr_null(c);
}
END_TEST

static Suite *ptl_foreign_suite(void)
{
    Suite *s = suite_create("ptl_foreign");
    TCase *tc = tcase_create("connect");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_foreign_handshake_and_frames);
    tcase_add_loop_test(tc, test_foreign_refused, 0, sizeof fails / sizeof fails[0]);
    tcase_add_test(tc, test_foreign_bad_args);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(ptl_foreign_suite)
