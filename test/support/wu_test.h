/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_test.h -- what every Check suite of Wireup shares: a main that runs one suite.
 *
 * Usage, at the end of a test file:   WU_TEST_MAIN(my_suite)
 * where Suite *my_suite(void) builds the suite. Output is TAP when CK_TAP_LOG_FILE_NAME is set
 * (make check sets it to "-"), otherwise Check's normal report. CK_FORK, CK_RUN_SUITE and
 * CK_RUN_CASE work as Check documents. */
#ifndef WU_TEST_H
#define WU_TEST_H

#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_show_help.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline int wu_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    int failed;
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}

#define WU_TEST_MAIN(suite_fn)          \
    int main(void)                      \
    {                                   \
        return wu_test_run(suite_fn()); \
    }

/* A private directory "<tmpdir>/<name>.XXXXXX" for one test case, written to buf (fails the test
 * if it cannot be made), and its removal, which also fails the test if anything stays behind.
 * Only ever remove what such a call made: never point a test's links or paths at system
 * directories (an rm_tree bug would then delete the machine). */
static inline void wu_test_tmpdir_make(const char *name, char *buf, size_t len)
{
    char *t = wu_path_join(wu_tmpdir(), name, NULL), *full = NULL;
    ck_assert_ptr_nonnull(t);
    ck_assert_int_lt(snprintf(buf, len, "%s.XXXXXX", t), (int)len);
    free(t);
    full = mkdtemp(buf);
    ck_assert_ptr_nonnull(full);
}

static inline void wu_test_tmpdir_remove(const char *buf)
{
    ck_assert_str_ne("", buf);
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(buf));
    ck_assert(!wu_path_exists(buf));
}

/* Capture what wu_show_help prints, in a private unlinked file, with aggregation off so every
 * message is printed. wu_test_help_captured() ends the capture and returns the text (static
 * storage, overwritten by the next call). */
static inline int *wu_test_help_fd(void)
{
    static int fd = -1; /* function-local: no unused-variable warning where it is not used */
    return &fd;
}

static inline void wu_test_help_capture(void)
{
    char tmpl[] = "/tmp/wu_help_XXXXXX";
    *wu_test_help_fd() = mkstemp(tmpl);
    ck_assert_int_ge(*wu_test_help_fd(), 0);
    unlink(tmpl);
    wu_show_help_set_aggregate(false);
    wu_show_help_set_fd(*wu_test_help_fd());
}

static inline const char *wu_test_help_captured(void)
{
    static char buf[8192];
    ssize_t n;
    wu_show_help_set_fd(STDERR_FILENO);
    n = pread(*wu_test_help_fd(), buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(*wu_test_help_fd());
    *wu_test_help_fd() = -1;
    return buf;
}

/* Path of the build tree's test support directory etc. are passed as -D by Makefile.am:
 * WU_TEST_BUILDDIR (abs_top_builddir), WU_TEST_SRCDIR (abs_top_srcdir). */

#endif
