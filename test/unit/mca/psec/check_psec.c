/* SPDX-License-Identifier: BSD-3-Clause */
/* check_psec.c -- the psec framework: selection, native peer checks on Unix and TCP sockets,
 * the none component and security-mode refusal. */
#include "mca/psec/psec.h"
#include "opal/util/wu_show_help.h"
#include "pmix_common.h"
#include "test/support/wu_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static void setup(void)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    unsetenv("PMIX_MCA_psec");
    unsetenv(WU_PSEC_TOKEN_ENV);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; NULL != (p = strstr(p, needle)); p += strlen(needle)) {
        n++;
    }
    return n;
}

static void open_psec(void)
{
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_open());
}

static void close_psec(void)
{
    wu_psec_base_close();
    wu_mca_base_close();
}

START_TEST(default_selects_native)
{
    const char *tok = NULL;
    ck_assert_ptr_null(wu_psec_base_mode());
    ck_assert_int_eq(WU_ERR_INIT, wu_psec_base_check_mode("native"));
    open_psec();
    ck_assert_str_eq("native", wu_psec_base_mode());
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_server_token(&tok));
    ck_assert_ptr_nonnull(tok);
    ck_assert_uint_eq(64, strlen(tok));
    ck_assert_uint_eq(64, strspn(tok, "0123456789abcdef"));
    close_psec();
}
END_TEST

START_TEST(native_socketpair_own_identity_accepted)
{
    int sv[2];
    wu_psec_peer_t got;
    char *cred = (char *)"x";
    size_t len = 7;
    open_psec();
    ck_assert_int_eq(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_create_cred(sv[1], &cred, &len));
    ck_assert_ptr_null(cred);
    ck_assert_uint_eq(0, len);
    ck_assert_int_eq(WU_SUCCESS,
                     wu_psec_base_validate_peer(sv[0], getuid(), getgid(), NULL, 0, &got));
    ck_assert_uint_eq(getuid(), got.uid);
    ck_assert_uint_eq(getgid(), got.gid);
    ck_assert_int_eq(getpid(), got.pid);
    /* wildcards */
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_validate_peer(sv[0], WU_PSEC_ANY_ID, WU_PSEC_ANY_ID,
                                                            NULL, 0, NULL));
    close(sv[0]);
    close(sv[1]);
    close_psec();
}
END_TEST

/* Expect another uid, another gid, or both: refused, and the message names both sides. */
static const struct {
    int uid_delta, gid_delta;
    bool any_uid;
} mismatches[] = {{1, 0, false}, {0, 1, false}, {7, 3, false}, {0, 1, true}};

START_TEST(native_mismatch_refused_with_message)
{
    int sv[2];
    wu_psec_peer_t got;
    char want[128], conn[128];
    const char *out;
    uid_t wu = mismatches[_i].any_uid ? WU_PSEC_ANY_ID : getuid() + mismatches[_i].uid_delta;
    gid_t wg = getgid() + mismatches[_i].gid_delta;

    open_psec();
    ck_assert_int_eq(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED,
                     wu_psec_base_validate_peer(sv[0], wu, wg, NULL, 0, &got));
    out = wu_test_help_captured();
    ck_assert_uint_eq(getuid(), got.uid);
    ck_assert_int_eq(getpid(), got.pid);
    if (mismatches[_i].any_uid) {
        snprintf(want, sizeof want, "uid any, gid %u", (unsigned)wg);
    } else {
        snprintf(want, sizeof want, "uid %u, gid %u", (unsigned)wu, (unsigned)wg);
    }
    snprintf(conn, sizeof conn, "uid %u, gid %u, pid %d", (unsigned)getuid(), (unsigned)getgid(),
             (int)getpid());
    ck_assert_msg(NULL != strstr(out, want), "no '%s' in: %s", want, out);
    ck_assert_msg(NULL != strstr(out, conn), "no '%s' in: %s", conn, out);
    close(sv[0]);
    close(sv[1]);
    close_psec();
}
END_TEST

START_TEST(native_rejects_non_sockets)
{
    int p[2];
    char *cred = NULL;
    size_t len = 0;
    wu_psec_peer_t got;
    open_psec();
    ck_assert_int_eq(0, pipe(p));
    ck_assert_int_eq(WU_ERR_BAD_PARAM,
                     wu_psec_base_validate_peer(p[0], getuid(), getgid(), NULL, 0, &got));
    ck_assert_int_eq(WU_ERR_BAD_PARAM,
                     wu_psec_base_validate_peer(-1, getuid(), getgid(), NULL, 0, &got));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_psec_base_create_cred(p[1], &cred, &len));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_psec_base_create_cred(-1, &cred, &len));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_psec_base_create_cred(p[1], NULL, &len));
    ck_assert_int_eq(WU_ERR_BAD_PARAM,
                     wu_psec_base_validate_peer(p[0], getuid(), getgid(), NULL, 3, &got));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_psec_base_server_token(NULL));
    close(p[0]);
    close(p[1]);
    close_psec();
}
END_TEST

/* A real listening socket in a private directory; a forked child connects. */
START_TEST(native_listening_socket_forked_child)
{
    char dir[256], path[300];
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int lfd, cfd, status;
    pid_t child;
    wu_psec_peer_t got;
    char byte = 0, conn[128];
    const char *out;

    open_psec();
    wu_test_tmpdir_make("wu_psec", dir, sizeof dir);
    ck_assert_int_lt(snprintf(path, sizeof path, "%s/sock", dir), (int)sizeof sa.sun_path);
    strcpy(sa.sun_path, path);
    lfd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(lfd, 0);
    ck_assert_int_eq(0, bind(lfd, (struct sockaddr *)&sa, sizeof sa));
    ck_assert_int_eq(0, listen(lfd, 1));
    child = fork();
    ck_assert_int_ge(child, 0);
    if (0 == child) {
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        char b = 0;
        if (fd < 0 || 0 != connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
            _exit(2);
        }
        /* wait until the parent has looked at us (EOF or a byte), bounded by the test timeout */
        _exit(read(fd, &b, 1) >= 0 ? 0 : 3);
    }
    cfd = accept(lfd, NULL, NULL);
    ck_assert_int_ge(cfd, 0);
    ck_assert_int_eq(WU_SUCCESS,
                     wu_psec_base_validate_peer(cfd, getuid(), getgid(), NULL, 0, &got));
    ck_assert_int_eq(child, got.pid);
    ck_assert_uint_eq(getuid(), got.uid);
    ck_assert_uint_eq(getgid(), got.gid);
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED,
                     wu_psec_base_validate_peer(cfd, getuid() + 1, getgid(), NULL, 0, &got));
    ck_assert_int_eq(child, got.pid);
    snprintf(conn, sizeof conn, "uid %u, gid %u, pid %d", (unsigned)getuid(), (unsigned)getgid(),
             (int)child);
    out = wu_test_help_captured();
    ck_assert_msg(NULL != strstr(out, conn), "no '%s' in: %s", conn, out);
    ck_assert_int_eq(1, write(cfd, &byte, 1));
    ck_assert_int_eq(child, waitpid(child, &status, 0));
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(0, WEXITSTATUS(status));
    close(cfd);
    close(lfd);
    ck_assert_int_eq(0, unlink(path));
    ck_assert_int_eq(0, rmdir(dir));
    close_psec();
}
END_TEST

/* A connected TCP loopback pair: *server is the accepted end, *client the connecting one. */
static void tcp_pair(int *server, int *client)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t sl = sizeof sa;
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(lfd, 0);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(0, bind(lfd, (struct sockaddr *)&sa, sizeof sa));
    ck_assert_int_eq(0, listen(lfd, 1));
    ck_assert_int_eq(0, getsockname(lfd, (struct sockaddr *)&sa, &sl));
    *client = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(*client, 0);
    ck_assert_int_eq(0, connect(*client, (struct sockaddr *)&sa, sizeof sa));
    *server = accept(lfd, NULL, NULL);
    ck_assert_int_ge(*server, 0);
    close(lfd);
}

START_TEST(native_tcp_token)
{
    int s, c;
    const char *tok = NULL;
    char *cred = NULL;
    size_t len = 0;
    wu_psec_peer_t got;
    const char *out;
    char wrong[80];

    open_psec();
    tcp_pair(&s, &c);
    /* a client without the token cannot make a credential */
    wu_test_help_capture();
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_psec_base_create_cred(c, &cred, &len));
    ck_assert_ptr_null(cred);
    out = wu_test_help_captured();
    ck_assert_ptr_nonnull(strstr(out, WU_PSEC_TOKEN_ENV));
    /* the server hands out its token; the client sends it back */
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_server_token(&tok));
    setenv(WU_PSEC_TOKEN_ENV, tok, 1);
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_create_cred(c, &cred, &len));
    ck_assert_str_eq(tok, cred);
    ck_assert_uint_eq(strlen(tok), len);
    ck_assert_int_eq(WU_SUCCESS,
                     wu_psec_base_validate_peer(s, getuid(), getgid(), cred, len, &got));
    ck_assert_int_eq(-1, (int)got.uid);
    ck_assert_int_eq(-1, got.pid);
    /* wrong, truncated, longer and missing credentials are refused */
    snprintf(wrong, sizeof wrong, "%s", tok);
    wrong[10] ^= 1;
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED,
                     wu_psec_base_validate_peer(s, getuid(), getgid(), wrong, len, &got));
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED,
                     wu_psec_base_validate_peer(s, getuid(), getgid(), cred, len - 1, &got));
    snprintf(wrong, sizeof wrong, "%sX", tok);
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED,
                     wu_psec_base_validate_peer(s, getuid(), getgid(), wrong, strlen(wrong), &got));
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED,
                     wu_psec_base_validate_peer(s, getuid(), getgid(), NULL, 0, &got));
    out = wu_test_help_captured();
    ck_assert_int_eq(4, count_of(out, "127.0.0.1 port"));
    ck_assert_int_eq(1, count_of(out, "sent no credential"));
    free(cred);
    close(s);
    close(c);
    close_psec();
}
END_TEST

START_TEST(none_named_selected_and_warns_once)
{
    int sv[2];
    const char *out, *tok = "x";
    char *cred = NULL;
    size_t len = 1;
    setenv("PMIX_MCA_psec", "none", 1);
    wu_test_help_capture();
    open_psec();
    ck_assert_str_eq("none", wu_psec_base_mode());
    ck_assert_int_eq(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    ck_assert_int_eq(WU_SUCCESS,
                     wu_psec_base_validate_peer(sv[0], getuid() + 1, getgid() + 1, NULL, 0, NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_create_cred(sv[1], &cred, &len));
    ck_assert_ptr_null(cred);
    ck_assert_uint_eq(0, len);
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_server_token(&tok));
    ck_assert_ptr_null(tok);
    close_psec();
    open_psec(); /* a second open in the same process does not warn again */
    ck_assert_str_eq("none", wu_psec_base_mode());
    close_psec();
    out = wu_test_help_captured();
    ck_assert_int_eq(1, count_of(out, "connection security is off"));
    close(sv[0]);
    close(sv[1]);
}
END_TEST

START_TEST(none_never_implicit)
{
    const char *out;
    setenv("PMIX_MCA_psec", "^native", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    wu_test_help_capture();
    ck_assert_int_ne(WU_SUCCESS, wu_psec_base_open());
    out = wu_test_help_captured();
    ck_assert_ptr_null(wu_psec_base_mode());
    ck_assert_ptr_nonnull(strstr(out, "psec"));
    ck_assert_ptr_nonnull(strstr(out, "none"));
    ck_assert_ptr_null(strstr(out, "connection security is off"));
    ck_assert_int_eq(WU_ERR_INIT, wu_psec_base_validate_peer(0, 0, 0, NULL, 0, NULL));
    wu_psec_base_close();
    wu_mca_base_close();
}
END_TEST

static const struct {
    const char *requested;
    int want;
} modes[] = {
    {"native", WU_SUCCESS},
    {NULL, WU_SUCCESS},
    {"", WU_SUCCESS},
    {"none", PMIX_ERR_INVALID_CRED},
    {"munge", PMIX_ERR_INVALID_CRED},
    {"nativeX", PMIX_ERR_INVALID_CRED},
};

START_TEST(mode_mismatch_refused)
{
    const char *out;
    open_psec();
    wu_test_help_capture();
    ck_assert_int_eq(modes[_i].want, wu_psec_base_check_mode(modes[_i].requested));
    out = wu_test_help_captured();
    if (WU_SUCCESS == modes[_i].want) {
        ck_assert_str_eq("", out);
    } else {
        char both[128];
        snprintf(both, sizeof both, "mode \"%s\",\nbut the server runs the mode \"native\"",
                 modes[_i].requested);
        ck_assert_msg(NULL != strstr(out, both), "no '%s' in: %s", both, out);
    }
    close_psec();
}
END_TEST

/* Credentials under keys derived from a secret the servers of a job share: what one issued the
 * others (the same secret) validate; a different secret or the random keys do not. */
START_TEST(native_shared_cred_secret)
{
    unsigned char secret[16], other[16];
    wu_psec_id_t who = {.uid = getuid(), .gid = getgid(), .rank = 3}, got;
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    for (int i = 0; i < 16; i++) {
        secret[i] = (unsigned char)i;
        other[i] = (unsigned char)(i + 1);
    }
    snprintf(who.nspace, sizeof who.nspace, "ns.cred");
    ck_assert_int_eq(WU_ERR_INIT, wu_psec_base_set_cred_secret(secret, sizeof secret));
    open_psec();
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_issue_cred(&who, &a, &na)); /* random keys */
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_psec_base_set_cred_secret(secret, 8));
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_set_cred_secret(secret, sizeof secret));
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED, wu_psec_base_check_cred(a, na, &got));
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_issue_cred(&who, &b, &nb));
    /* another server of the job: the same secret, the same keys */
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_set_cred_secret(secret, sizeof secret));
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_check_cred(b, nb, &got));
    ck_assert_uint_eq(3, got.rank);
    ck_assert_str_eq("ns.cred", got.nspace);
    /* a server of another job */
    ck_assert_int_eq(WU_SUCCESS, wu_psec_base_set_cred_secret(other, sizeof other));
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED, wu_psec_base_check_cred(b, nb, &got));
    free(a);
    free(b);
    close_psec();
}
END_TEST

static Suite *psec_suite(void)
{
    Suite *s = suite_create("psec");
    TCase *tc = tcase_create("psec");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, default_selects_native);
    tcase_add_test(tc, native_socketpair_own_identity_accepted);
    tcase_add_loop_test(tc, native_mismatch_refused_with_message, 0, WU_NELEMS(mismatches));
    tcase_add_test(tc, native_rejects_non_sockets);
    tcase_add_test(tc, native_listening_socket_forked_child);
    tcase_add_test(tc, native_tcp_token);
    tcase_add_test(tc, native_shared_cred_secret);
    tcase_add_test(tc, none_named_selected_and_warns_once);
    tcase_add_test(tc, none_never_implicit);
    tcase_add_loop_test(tc, mode_mismatch_refused, 0, WU_NELEMS(modes));
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(psec_suite)
