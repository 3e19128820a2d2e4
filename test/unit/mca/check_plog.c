/* SPDX-License-Identifier: BSD-3-Clause */
/* check_plog.c -- the plog framework end to end: selection, channel routing, stdfd output. */
#include "mca/plog/plog.h"
#include "test/support/wu_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(plog_suite)
