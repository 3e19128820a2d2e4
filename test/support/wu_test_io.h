/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_test_io.h -- helpers of the suites that talk to sockets and progress threads: write or read
 * exactly n bytes, count this process's open descriptors, and wait until a progress thread has
 * run everything shifted into it so far. */
#ifndef WU_TEST_IO_H
#define WU_TEST_IO_H

#include "opal/event/wu_wait.h"

#include <check.h>
#include <dirent.h>
#include <sys/socket.h>
#include <unistd.h>

/* Write all of n bytes to socket s, or fail the test. */
static inline void wu_test_write_all(int s, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t w = send(s, p, n, MSG_NOSIGNAL);
        ck_assert_int_gt(w, 0);
        p += w;
        n -= (size_t)w;
    }
}

/* Read exactly n bytes from s, or fail the test (also at the end of the stream). */
static inline void wu_test_read_all(int s, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t r = read(s, p, n);
        ck_assert_int_gt(r, 0);
        p += r;
        n -= (size_t)r;
    }
}

/* Open descriptors of this process (the directory listing's own included, and "." and ".."):
 * compare two counts, never one with a number. */
static inline int wu_test_count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    ck_assert_ptr_nonnull(d);
    while (NULL != readdir(d)) {
        n++;
    }
    closedir(d);
    return n;
}

static inline void wu_test_noop_call(wu_wait_call_t *call)
{
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Shifts run in order: once this returns, everything shifted into pt before it has run. */
static inline void wu_test_sync_pt(wu_progress_t *pt)
{
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, wu_test_noop_call, NULL, 10.0));
}

#endif
