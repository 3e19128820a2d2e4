/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_iof.c -- forwarding the job's output to the launcher's stdout and stderr.
 *
 * Output arrives in arbitrary pieces per process and stream. Complete lines are written at
 * once, each piece with one write(2); a partial line waits for its newline (or the end of the
 * stream, or LINE_MAX_HOLD bytes), so lines of different ranks never mix. With tagging, every
 * line starts with ORTE's tag "[1,<rank>]<stdout>:" (no trailing space), and a last line
 * without a newline gets one; --timestamp-output puts the time before it. --output-filename
 * sends each rank's streams to files of their own instead. When the launcher's own stdout or stderr is gone (EPIPE), that
 * stream's output is dropped and the processes' pipes for it are closed, so that they get
 * EPIPE/SIGPIPE as in a shell pipeline (`wrun -n 2 yes | head` ends). */
#include "opal/util/wu_argv.h"
#include "pmix/rte/wu_rte_internal.h"

#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MAX_HOLD 65536

static bool broken[3]; /* EPIPE seen on fd 1 or 2 */

static void write_fd(int fd, const char *p, size_t len)
{
    while (len > 0 && (fd > STDERR_FILENO || !broken[fd])) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (EINTR == errno) {
                continue;
            }
            if (fd <= STDERR_FILENO) {
                broken[fd] = true; /* EPIPE and other write errors: drop the rest */
            }
            return;
        }
        p += n;
        len -= (size_t)n;
    }
}

/* The prefix of a line: the time when asked (ctime(3) without its newline, as ORTE), then the
 * tag "[<job>,<rank>]<stream>:" or, with a time but no tag, "<stream>:". Empty when neither. */
static size_t line_prefix(const rte_job_t *job, uint32_t rank, int stream, char *buf, size_t len)
{
    const char *sname = WU_PLS_STDOUT == stream ? "stdout" : "stderr";
    char when[64] = "";
    int n;
    if (!job->app->tag_output && !job->app->timestamp_output) {
        return 0;
    }
    if (job->app->timestamp_output) {
        time_t now = time(NULL);
        struct tm tm;
        if (NULL != localtime_r(&now, &tm)) {
            strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
        }
    }
    if (job->app->tag_output) {
        n = snprintf(buf, len, "%s[%u,%u]<%s>:", when, job->jobnum, rank, sname);
    } else {
        n = snprintf(buf, len, "%s<%s>:", when, sname);
    }
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* Where a stream of rank goes: its --output-filename file, else our stdout or stderr. */
static int out_fd(const rte_job_t *job, uint32_t rank, int stream)
{
    int f = job->procs[rank].outfd[stream - 1];
    if (f >= 0) {
        return f;
    }
    return WU_PLS_STDOUT == stream ? STDOUT_FILENO : STDERR_FILENO;
}

/* Write text (complete lines, or a final piece), prefixed line by line if asked. */
static void emit(rte_job_t *job, uint32_t rank, int stream, const char *text, size_t len)
{
    int fd = out_fd(job, rank, stream);
    char tag[128];
    size_t taglen;
    char *buf, *q;
    size_t nlines = 0;

    if (0 == len) {
        return;
    }
    taglen = line_prefix(job, rank, stream, tag, sizeof tag);
    if (0 == taglen) {
        write_fd(fd, text, len);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        nlines += '\n' == text[i];
    }
    nlines += '\n' != text[len - 1];
    if (NULL == (buf = malloc(len + nlines * taglen))) {
        write_fd(fd, text, len); /* unprefixed rather than lost */
        return;
    }
    q = buf;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = NULL != nl ? (size_t)(nl - (text + i)) + 1 : len - i;
        memcpy(q, tag, taglen);
        q += taglen;
        memcpy(q, text + i, n);
        q += n;
        i += n;
    }
    write_fd(fd, buf, (size_t)(q - buf));
    free(buf);
}

static int hold(rte_line_t *l, const char *data, size_t len)
{
    if (l->len + len > l->cap) {
        size_t cap = l->cap ? l->cap : 256;
        char *b;
        while (cap < l->len + len) {
            cap *= 2;
        }
        if (NULL == (b = realloc(l->buf, cap))) {
            return WU_ERR_NOMEM;
        }
        l->buf = b;
        l->cap = cap;
    }
    memcpy(l->buf + l->len, data, len);
    l->len += len;
    return WU_SUCCESS;
}

static void flush_line(rte_job_t *job, uint32_t rank, int stream)
{
    rte_line_t *l = &job->procs[rank].line[stream - 1];
    emit(job, rank, stream, l->buf, l->len);
    l->len = 0;
}

bool wu_rte_iof_output(rte_job_t *job, uint32_t rank, int stream, const char *data, size_t len)
{
    rte_line_t *l;
    const char *last;
    bool *gone, never = false;

    if (NULL == job || rank >= job->np || (WU_PLS_STDOUT != stream && WU_PLS_STDERR != stream)) {
        return true;
    }
    gone = job->procs[rank].outfd[stream - 1] >= 0
               ? &never
               : &broken[WU_PLS_STDOUT == stream ? STDOUT_FILENO : STDERR_FILENO];
    l = &job->procs[rank].line[stream - 1];
    if (0 == len) {
        /* end of the stream: what is left goes out as it is; tagged output stays line by line */
        if ((job->app->tag_output || job->app->timestamp_output) && l->len > 0 &&
            WU_SUCCESS == hold(l, "\n", 1)) {
            flush_line(job, rank, stream);
        }
        flush_line(job, rank, stream);
        return !*gone;
    }
    /* the complete lines: held part + data up to its last newline */
    last = NULL;
    for (size_t i = len; i > 0; i--) {
        if ('\n' == data[i - 1]) {
            last = data + i - 1;
            break;
        }
    }
    if (NULL == last) {
        if (WU_SUCCESS != hold(l, data, len)) {
            flush_line(job, rank, stream); /* could not hold it: out it goes */
            emit(job, rank, stream, data, len);
        } else if (l->len >= LINE_MAX_HOLD) {
            flush_line(job, rank, stream);
        }
        return !*gone;
    }
    if (l->len > 0) {
        size_t n = (size_t)(last - data) + 1;
        if (WU_SUCCESS == hold(l, data, n)) {
            flush_line(job, rank, stream);
        } else {
            flush_line(job, rank, stream);
            emit(job, rank, stream, data, n);
        }
    } else {
        emit(job, rank, stream, data, (size_t)(last - data) + 1);
    }
    /* the rest starts a new partial line */
    if (last + 1 < data + len) {
        size_t rest = (size_t)(data + len - (last + 1));
        if (WU_SUCCESS != hold(l, last + 1, rest)) {
            emit(job, rank, stream, last + 1, rest);
        }
    }
    return !*gone;
}

void wu_rte_iof_flush(rte_job_t *job)
{
    for (uint32_t r = 0; r < job->np; r++) {
        for (int s = WU_PLS_STDOUT; s <= WU_PLS_STDERR; s++) {
            flush_line(job, r, s);
            free(job->procs[r].line[s - 1].buf);
            job->procs[r].line[s - 1] = (rte_line_t){0};
            if (job->procs[r].outfd[s - 1] >= 0) {
                close(job->procs[r].outfd[s - 1]);
                job->procs[r].outfd[s - 1] = -1;
            }
        }
    }
}

int wu_rte_iof_open_files(rte_job_t *job)
{
    static const char *const names[2] = {"stdout", "stderr"};
    char *dir = NULL, *path = NULL;
    int rc = WU_SUCCESS;
    for (uint32_t r = 0; r < job->np && WU_SUCCESS == rc; r++) {
        rc = wu_asprintf(&dir, "%s/%u/rank.%u", job->app->output_dir, job->jobnum, r);
        if (WU_SUCCESS == rc && WU_SUCCESS != (rc = wu_path_mkdir_p(dir, 0755))) {
            wu_rte_say("output-dir-failed", wu_rte_tool, dir, wu_strerror(rc));
        }
        for (int s = 0; s < 2 && WU_SUCCESS == rc; s++) {
            if (1 == s && job->app->merge_stderr) {
                break; /* stderr comes through the stdout pipe */
            }
            if (WU_SUCCESS != (rc = wu_asprintf(&path, "%s/%s", dir, names[s]))) {
                break;
            }
            job->procs[r].outfd[s] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (job->procs[r].outfd[s] < 0) {
                rc = wu_status_from_errno(errno);
                wu_rte_say("output-dir-failed", wu_rte_tool, path, strerror(errno));
            }
            free(path);
            path = NULL;
        }
        free(dir);
        dir = NULL;
    }
    return WU_SUCCESS == rc ? WU_SUCCESS : WU_ERR_SILENT;
}
