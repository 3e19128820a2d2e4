/* SPDX-License-Identifier: BSD-3-Clause */
/* check_plog.c -- the plog framework end to end: selection, channel routing, stdfd output, the
 * key-to-channel table and whole PMIx_Log requests (with two test-only modules that record what
 * reaches them), and syslog delivery to a private socket. */
#include "mca/plog/base/plog_base.h"
#include "test/support/wu_test.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

static int capture_fd = -1, saved_fd = -1, target_fd;

/* Send target (1 or 2) to an unlinked temporary file until read_capture(). */
static void capture(int target)
{
    char tmpl[] = "/tmp/wu_plog_XXXXXX";
    capture_fd = mkstemp(tmpl);
    ck_assert_int_ge(capture_fd, 0);
    unlink(tmpl);
    fflush(NULL);
    saved_fd = dup(target);
    target_fd = target;
    dup2(capture_fd, target);
}

static const char *read_capture(void)
{
    static char buf[4096];
    ssize_t n;
    dup2(saved_fd, target_fd);
    close(saved_fd);
    n = pread(capture_fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(capture_fd);
    return buf;
}

static void setup(void)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
}

static void open_plog(void)
{
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_open());
}

static void close_plog(void)
{
    wu_plog_base_close();
    wu_mca_base_close();
}

static const struct {
    const char *channel;
    int fd;
    const char *source, *message, *want;
} routes[] = {
    {"stdout", 1, "job1:0", "hello", "[job1:0] hello\n"},
    {"stderr", 2, "job1:3", "trouble\n", "[job1:3] trouble\n"},
    {"stderr", 2, NULL, "no source", "no source\n"},
    {"stdout", 1, "j:1", "", "[j:1] \n"},
};

START_TEST(stdfd_routes_and_formats)
{
    wu_plog_entry_t e = {.channel = routes[_i].channel,
                         .message = routes[_i].message,
                         .source = routes[_i].source,
                         .severity = -1};
    open_plog();
    capture(routes[_i].fd);
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_log(&e));
    ck_assert_str_eq(routes[_i].want, read_capture());
    close_plog();
}
END_TEST

START_TEST(stdfd_parameters_apply)
{
    const char *out;
    wu_plog_entry_t e = {.channel = "stdout",
                         .message = "m",
                         .source = "s:0",
                         .severity = -1,
                         .timestamp = 86400 * 365};
    setenv("PMIX_MCA_plog_stdfd_with_source", "no", 1);
    setenv("PMIX_MCA_plog_stdfd_with_time", "yes", 1);
    setenv("TZ", "UTC", 1);
    open_plog();
    capture(1);
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_log(&e));
    out = read_capture();
    ck_assert_str_eq("1971-01-01 00:00:00 m\n", out);
    close_plog();
}
END_TEST

START_TEST(unknown_channel_not_supported)
{
    wu_plog_entry_t e = {.channel = "carrier-pigeon", .message = "m", .severity = -1};
    open_plog();
    ck_assert_int_eq(WU_ERR_NOT_SUPPORTED, wu_plog_base_log(&e));
    ck_assert(!wu_plog_base_has_channel("carrier-pigeon"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_plog_base_log(NULL));
    e.message = NULL;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_plog_base_log(&e));
    close_plog();
}
END_TEST

START_TEST(excluded_component_serves_nothing)
{
    wu_plog_entry_t e = {.channel = "stdout", .message = "m", .severity = -1};
    setenv("PMIX_MCA_plog", "^stdfd", 1);
    open_plog();
    ck_assert(!wu_plog_base_has_channel("stdout"));
    ck_assert_int_eq(WU_ERR_NOT_SUPPORTED, wu_plog_base_log(&e));
    close_plog();
}
END_TEST

START_TEST(syslog_serves_its_channel)
{
    wu_plog_entry_t e = {.channel = "syslog", .message = "wireup plog unit test", .severity = 7};
    setenv("PMIX_MCA_plog", "syslog", 1);
    open_plog();
    ck_assert(wu_plog_base_has_channel("syslog"));
    ck_assert(!wu_plog_base_has_channel("stdout"));
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_log(&e));
    close_plog();
}
END_TEST

/* ---- the key-to-channel table ------------------------------------------------------------ */

static const struct {
    const char *key, *channel;
} keys[] = {
    {PMIX_LOG_STDERR, "stderr"},
    {PMIX_LOG_STDOUT, "stdout"},
    {PMIX_LOG_SYSLOG, "syslog"},
    {PMIX_LOG_LOCAL_SYSLOG, "syslog"},
    {PMIX_LOG_GLOBAL_SYSLOG, "syslog"},
    {PMIX_LOG_MSG, "stderr"},
    {PMIX_LOG_EMAIL, "email"},
    {PMIX_LOG_EMAIL_ADDR, NULL}, /* a field of an email, not a channel */
    {PMIX_LOG_ONCE, NULL},       /* a directive */
    {"carrier.pigeon", NULL},
    {NULL, NULL},
};

START_TEST(keys_map_to_channels)
{
    const char *got = wu_plog_base_channel(keys[_i].key);
    if (NULL == keys[_i].channel) {
        ck_assert_ptr_null(got);
    } else {
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(keys[_i].channel, got);
    }
}
END_TEST

/* ---- two recording modules: "first" (priority 50) and "second" (40) ------------------------ */

typedef struct {
    char who, channel[16], message[64], source[64];
    int severity;
    time_t timestamp;
} rec_t;
static rec_t recs[16];
static int nrecs;

/* "pass..." is passed on, "fail..." fails, the rest is recorded. */
static int record(char who, const wu_plog_entry_t *e)
{
    rec_t *r = &recs[nrecs];
    if (0 == strncmp(e->message, "pass", 4) && 'f' == who) {
        return WU_ERR_TAKE_NEXT;
    }
    if (0 == strncmp(e->message, "fail", 4)) {
        return WU_ERR_SYS;
    }
    ck_assert_int_lt(nrecs, (int)WU_NELEMS(recs));
    r->who = who;
    snprintf(r->channel, sizeof r->channel, "%s", e->channel);
    snprintf(r->message, sizeof r->message, "%s", e->message);
    snprintf(r->source, sizeof r->source, "%s", NULL != e->source ? e->source : "-");
    r->severity = e->severity;
    r->timestamp = e->timestamp;
    nrecs++;
    return WU_SUCCESS;
}

static int first_log(const wu_plog_entry_t *e)
{
    return record('f', e);
}

static int second_log(const wu_plog_entry_t *e)
{
    return record('s', e);
}

static const wu_plog_module_t first_module = {
    .channels = (const char *const[]){"stderr", "stdout", "syslog", NULL}, .log = first_log};
static const wu_plog_module_t second_module = {.channels = (const char *const[]){"stderr", NULL},
                                               .log = second_log};
static const wu_mca_component_t first_comp = {.abi = WU_MCA_ABI,
                                              .framework = "plog",
                                              .name = "first",
                                              .fw_version = WU_plog_VERSION,
                                              .priority = 50,
                                              .module = &first_module};
static const wu_mca_component_t second_comp = {.abi = WU_MCA_ABI,
                                               .framework = "plog",
                                               .name = "second",
                                               .fw_version = WU_plog_VERSION,
                                               .priority = 40,
                                               .module = &second_module};

static void open_with_recorders(void)
{
    nrecs = 0;
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS,
                     wu_mca_framework_add_component(&wu_mca_plog_framework, &first_comp));
    ck_assert_int_eq(WU_SUCCESS,
                     wu_mca_framework_add_component(&wu_mca_plog_framework, &second_comp));
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_open());
}

/* Modules are tried in priority order; a decline goes to the next one serving the channel, an
 * error does not. */
START_TEST(routing_priority_and_decline)
{
    wu_plog_entry_t e = {.channel = "stderr", .message = "keep", .severity = -1};
    open_with_recorders();
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_log(&e));
    e.message = "pass to second";
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_log(&e));
    ck_assert_int_eq(2, nrecs);
    ck_assert_int_eq('f', recs[0].who);
    ck_assert_int_eq('s', recs[1].who);
    ck_assert_str_eq("pass to second", recs[1].message);
    /* stdout: declined by first, second does not serve it, stdfd (priority 10) writes it */
    e.channel = "stdout";
    e.message = "pass to stdfd";
    capture(1);
    ck_assert_int_eq(WU_SUCCESS, wu_plog_base_log(&e));
    ck_assert_str_eq("pass to stdfd\n", read_capture());
    ck_assert_int_eq(2, nrecs);
    /* an error is final */
    e.channel = "stderr";
    e.message = "fail";
    ck_assert_int_eq(WU_ERR_SYS, wu_plog_base_log(&e));
    ck_assert_int_eq(2, nrecs);
    close_plog();
}
END_TEST

static pmix_status_t request(const pmix_info_t *data, size_t n, const pmix_info_t *dirs,
                             size_t ndirs, wu_plog_render_fn_t render)
{
    pmix_proc_t me;
    PMIX_LOAD_PROCID(&me, "job7", 3);
    return wu_plog_base_log_request(&me, data, n, dirs, ndirs, render, NULL);
}

/* Each item goes to its key's channel with the sender; items nobody can take make the request
 * partial, or NOT_SUPPORTED when none is logged. */
START_TEST(request_routes_each_item)
{
    pmix_info_t d[4];
    open_with_recorders();
    PMIX_INFO_LOAD(&d[0], PMIX_LOG_STDERR, "to stderr", PMIX_STRING);
    PMIX_INFO_LOAD(&d[1], PMIX_LOG_GLOBAL_SYSLOG, "to syslog", PMIX_STRING);
    PMIX_INFO_LOAD(&d[2], PMIX_LOG_EMAIL, "nobody mails", PMIX_STRING);
    PMIX_INFO_LOAD(&d[3], "carrier.pigeon", "no such channel", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, request(d, 2, NULL, 0, NULL));
    ck_assert_int_eq(2, nrecs);
    ck_assert_str_eq("stderr", recs[0].channel);
    ck_assert_str_eq("to stderr", recs[0].message);
    ck_assert_str_eq("job7:3", recs[0].source);
    ck_assert_int_eq(-1, recs[0].severity);
    ck_assert_str_eq("syslog", recs[1].channel);
    ck_assert_int_eq(PMIX_ERR_PARTIAL_SUCCESS, request(d, 4, NULL, 0, NULL));
    ck_assert_int_eq(4, nrecs);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, request(&d[2], 2, NULL, 0, NULL));
    ck_assert_int_eq(4, nrecs);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, request(NULL, 0, NULL, 0, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, request(d, 1, NULL, 1, NULL));
    for (int i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&d[i]);
    }
    close_plog();
}
END_TEST

/* PMIX_LOG_ONCE: the first channel that works, only; _SOURCE, _SYSLOG_PRI and _TIMESTAMP. */
START_TEST(request_directives)
{
    pmix_info_t d[3], dirs[4];
    pmix_proc_t other;
    bool t = true;
    int pri = LOG_ERR;
    time_t when = 1234567;
    open_with_recorders();
    PMIX_LOAD_PROCID(&other, "other", 9);
    PMIX_INFO_LOAD(&d[0], PMIX_LOG_EMAIL, "nobody mails", PMIX_STRING);
    PMIX_INFO_LOAD(&d[1], PMIX_LOG_SYSLOG, "once", PMIX_STRING);
    PMIX_INFO_LOAD(&d[2], PMIX_LOG_STDERR, "not twice", PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[0], PMIX_LOG_ONCE, &t, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[1], PMIX_LOG_SOURCE, &other, PMIX_PROC);
    PMIX_INFO_LOAD(&dirs[2], PMIX_LOG_SYSLOG_PRI, &pri, PMIX_INT);
    PMIX_INFO_LOAD(&dirs[3], PMIX_LOG_TIMESTAMP, &when, PMIX_TIME);
    ck_assert_int_eq(PMIX_SUCCESS, request(d, 3, dirs, 4, NULL));
    ck_assert_int_eq(1, nrecs);
    ck_assert_str_eq("once", recs[0].message);
    ck_assert_str_eq("other:9", recs[0].source);
    ck_assert_int_eq(LOG_ERR, recs[0].severity);
    ck_assert_int_eq(1234567, (long)recs[0].timestamp);
    /* without ONCE, both channels */
    ck_assert_int_eq(PMIX_ERR_PARTIAL_SUCCESS, request(d, 3, &dirs[1], 3, NULL));
    ck_assert_int_eq(3, nrecs);
    /* GENERATE_TIMESTAMP stamps now */
    PMIX_INFO_DESTRUCT(&dirs[3]);
    PMIX_INFO_LOAD(&dirs[3], PMIX_LOG_GENERATE_TIMESTAMP, &t, PMIX_BOOL);
    ck_assert_int_eq(PMIX_SUCCESS, request(&d[2], 1, &dirs[3], 1, NULL));
    ck_assert_int_ge((long)recs[3].timestamp, (long)time(NULL) - 60);
    ck_assert_str_eq("job7:3", recs[3].source);
    for (int i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&dirs[i]);
        if (i < 3) {
            PMIX_INFO_DESTRUCT(&d[i]);
        }
    }
    close_plog();
}
END_TEST

/* Non-string values only through a renderer: its text goes out without a source; a NULL text
 * counts as logged and writes nothing. */
static int render_bytes(const pmix_info_t *item, const char **text, void *ctx)
{
    (void)ctx;
    if (PMIX_BYTE_OBJECT != item->value.type) {
        return WU_ERR_NOT_SUPPORTED;
    }
    *text = 0 == item->value.data.bo.size ? NULL : item->value.data.bo.bytes;
    return WU_SUCCESS;
}

START_TEST(request_renders_other_values)
{
    pmix_info_t d;
    pmix_byte_object_t bo = {.bytes = "rendered", .size = 9};
    open_with_recorders();
    PMIX_INFO_LOAD(&d, PMIX_LOG_MSG, &bo, PMIX_BYTE_OBJECT);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, request(&d, 1, NULL, 0, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, request(&d, 1, NULL, 0, render_bytes));
    ck_assert_int_eq(1, nrecs);
    ck_assert_str_eq("stderr", recs[0].channel);
    ck_assert_str_eq("rendered", recs[0].message);
    ck_assert_str_eq("-", recs[0].source);
    PMIX_INFO_DESTRUCT(&d);
    bo.size = 0;
    PMIX_INFO_LOAD(&d, PMIX_LOG_MSG, &bo, PMIX_BYTE_OBJECT);
    ck_assert_int_eq(PMIX_SUCCESS, request(&d, 1, NULL, 0, render_bytes));
    ck_assert_int_eq(1, nrecs);
    PMIX_INFO_DESTRUCT(&d);
    close_plog();
}
END_TEST

/* plog_syslog_socket: the message arrives, in the syslog format, at a private socket. */
START_TEST(syslog_reaches_its_socket)
{
    char dir[512], path[600], buf[512], want[128];
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    struct pollfd p;
    pmix_info_t d, dir_pri;
    int pri = LOG_WARNING, s;
    ssize_t n;

    wu_test_tmpdir_make("check_plog", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/log", dir);
    ck_assert_uint_lt(strlen(path), sizeof sa.sun_path);
    strcpy(sa.sun_path, path);
    s = socket(AF_UNIX, SOCK_DGRAM, 0);
    ck_assert_int_eq(0, bind(s, (struct sockaddr *)&sa, sizeof sa));
    setenv("PMIX_MCA_plog", "syslog", 1);
    setenv("PMIX_MCA_plog_syslog_socket", path, 1);
    setenv("PMIX_MCA_plog_syslog_facility", "local3", 1);
    open_plog();
    PMIX_INFO_LOAD(&d, PMIX_LOG_SYSLOG, "to the socket", PMIX_STRING);
    PMIX_INFO_LOAD(&dir_pri, PMIX_LOG_SYSLOG_PRI, &pri, PMIX_INT);
    ck_assert_int_eq(PMIX_SUCCESS, request(&d, 1, &dir_pri, 1, NULL));
    p.fd = s;
    p.events = POLLIN;
    ck_assert_int_eq(1, poll(&p, 1, 10000));
    n = recv(s, buf, sizeof buf - 1, 0);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    /* local3 (19 << 3) | warning (4) = 156 */
    ck_assert_msg(0 == strncmp(buf, "<156>", 5), "got %s", buf);
    snprintf(want, sizeof want, " wireup[%d]: [job7:3] to the socket", (int)getpid());
    ck_assert_msg(NULL != strstr(buf, want), "got %s", buf);
    /* nobody listening any more: the request fails instead of vanishing */
    close(s);
    unlink(path);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, request(&d, 1, NULL, 0, NULL));
    PMIX_INFO_DESTRUCT(&d);
    PMIX_INFO_DESTRUCT(&dir_pri);
    close_plog();
    wu_test_tmpdir_remove(dir);
}
END_TEST

static Suite *plog_suite(void)
{
    Suite *s = suite_create("plog");
    TCase *tc = tcase_create("plog");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, stdfd_routes_and_formats, 0, (int)WU_NELEMS(routes));
    tcase_add_test(tc, stdfd_parameters_apply);
    tcase_add_test(tc, unknown_channel_not_supported);
    tcase_add_test(tc, excluded_component_serves_nothing);
    tcase_add_test(tc, syslog_serves_its_channel);
    tcase_add_loop_test(tc, keys_map_to_channels, 0, (int)WU_NELEMS(keys));
    tcase_add_test(tc, routing_priority_and_decline);
    tcase_add_test(tc, request_routes_each_item);
    tcase_add_test(tc, request_directives);
    tcase_add_test(tc, request_renders_other_values);
    tcase_add_test(tc, syslog_reaches_its_socket);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(plog_suite)
