/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_iof.c -- forwarding the job's output to the launcher's stdout and stderr.
 *
 * Output arrives in arbitrary pieces per process and stream. Complete lines go out at once; a
 * partial line waits for its newline (or the end of the stream, or LINE_MAX_HOLD bytes), so
 * lines of different ranks never mix. With tagging, every line starts with ORTE's tag
 * "[1,<rank>]<stdout>:" (no trailing space), and a last line without a newline gets one;
 * --timestamp-output puts the time before it. --output-filename sends each rank's streams to
 * files of their own instead (written directly: a regular file does not block).
 *
 * The launcher's stdout and stderr are "sinks", written from the rte progress thread without
 * ever blocking it (a reader that stops reading, as in `wrun ... | sleep 100`, must not freeze
 * interrupts, reaping or --timeout). Each sink has a queue: what the fd does not take now waits
 * there, and a write event sends it when the fd is writable again. Pieces enter the queue
 * whole and leave it in order, so lines stay whole. When stdout and stderr are the same file
 * (2>&1) they share one sink, which keeps their order. How a sink writes without blocking
 * depends on what the fd is (sink_open):
 *   - a pipe, FIFO or terminal: through a description of our own, opened non-blocking through
 *     /proc/self/fd. O_NONBLOCK is never set on the fd we were given: that description is
 *     shared with the shell and the other programs of the pipeline, which would then see
 *     EAGAIN themselves;
 *   - one that is non-blocking already (whoever shares it chose so): as it is;
 *   - a socket: send(2) with MSG_DONTWAIT, which affects that call only;
 *   - a regular file or a device other than a terminal (/dev/null), which epoll cannot
 *     watch: plain writes, which do not wait for a reader;
 *   - otherwise (no /proc): the fd as it is, written only when poll(2) says it is writable and
 *     then at most PIPE_BUF bytes, which a pipe with room takes without blocking.
 *
 * The queue is bounded: above QUEUE_HIGH bytes the job's pipes of that sink's streams are no
 * longer read (pls holds them), so the processes wait in their own writes, and reading resumes
 * below QUEUE_LOW. At the end of the job what is queued is flushed for as long as the reader
 * takes some of it within DRAIN_STALL seconds (HURRY_STALL when the job was interrupted or timed
 * out; at once when the launcher is interrupted during the flush); the rest is dropped, said so,
 * and the fd is pointed at /dev/null, so that no later message of the launcher blocks on it.
 *
 * The launcher's own one-line messages written on the rte thread (wu_rte_say) go through the
 * stderr sink too, behind the output queued there. Those of other threads (set-up errors, the
 * --timeout report) are still written directly; they come while no output is queued, or from
 * the main thread, which a stuck stderr may delay but which blocks no event.
 *
 * When the launcher's own stdout or stderr is gone (EPIPE), that stream's output is dropped and
 * the processes' pipes for it are closed, so that they get EPIPE/SIGPIPE as in a shell pipeline
 * (`wrun -n 2 yes | head` ends). */
#include "opal/util/wu_argv.h"
#include "pmix/rte/job/wu_rte_job.h"

#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_HOLD 65536

/* Queue bounds per sink. 4 MiB is far more than a terminal or a pipe reader needs to run at
 * full speed, and small enough that a stopped reader costs little memory; the processes' own
 * pipes (64 KiB each) hold the rest. Reading resumes once a MiB is left, so that holding and
 * resuming do not alternate at every write. */
#define QUEUE_HIGH ((size_t)4 << 20)
#define QUEUE_LOW  ((size_t)1 << 20)
/* Messages (the launcher's own, and what the processes log through PMIx_Log) have no pipe to
 * hold: past this much pending output they are dropped and counted, rather than the queue
 * growing without bound or a thread blocking on a reader that does not read. */
#define QUEUE_MSG_MAX ((size_t)8 << 20)
/* End of the job: seconds the reader may go without taking any byte before the rest is dropped
 * (long enough for a slow consumer, short enough that a stopped one does not keep the launcher
 * for long), and the same when the job was interrupted or timed out (the user wants it to end).
 * FLUSH_TICK is how often that is checked. */
#define DRAIN_STALL 10.0
#define HURRY_STALL 0.25
#define FLUSH_TICK  0.05

typedef enum {
    SINK_PLAIN,  /* blocking writes: a regular file, or what epoll cannot watch */
    SINK_OWN,    /* our own non-blocking description of the fd */
    SINK_SOCKET, /* send with MSG_DONTWAIT */
    SINK_POLLED, /* blocking fd: poll first, then at most PIPE_BUF bytes */
} sink_how_t;

typedef struct sink {
    bool open;
    sink_how_t how;
    int fd;       /* written to */
    int own;      /* fd when we opened it (closed with the sink), else -1 */
    rte_line_t q; /* pending bytes: q.buf[off..q.len) */
    size_t off;
    struct event *wev; /* in the loop while bytes are pending */
    bool held;         /* the job's pipes of this sink's streams are held */
    bool dropped;      /* given up at the end of the job */
    double moved;      /* when a byte last went out (or the flush began) */
} sink_t;

static sink_t sinks[2];
static sink_t *sink_of[3];       /* [STDOUT_FILENO], [STDERR_FILENO] */
static bool broken[3];           /* EPIPE seen on fd 1 or 2: for good */
static bool sinks_tried;         /* sinks_open ran for this job */
static wu_wait_call_t *flushing; /* the end-of-job flush, waiting for the queues */
static wu_timer_t *flush_timer;
static double flush_stall; /* the stall limit of this flush */
static bool give_up;       /* the launcher was interrupted during the flush */
static size_t msg_lost;    /* bytes of messages dropped at QUEUE_MSG_MAX, said at the end */

static void on_writable(evutil_socket_t fd, short what, void *arg);
static void flush_check(void);

/* --- sinks ----------------------------------------------------------------------------------- */

static size_t pending(const sink_t *k)
{
    return k->q.len - k->off;
}

/* Stop or resume reading the job's pipes of every stream that goes to k. */
static void hold_streams(sink_t *k, bool hold)
{
    rte_job_t *job = wu_rte_job;
    if (k->held == hold) {
        return;
    }
    k->held = hold;
    if (NULL == job || NULL == job->pls) {
        return;
    }
    if (sink_of[STDOUT_FILENO] == k) {
        wu_pls_hold_output(job->pls, WU_PLS_STDOUT, hold);
    }
    if (sink_of[STDERR_FILENO] == k) {
        wu_pls_hold_output(job->pls, WU_PLS_STDERR, hold);
    }
}

/* The fd is gone (EPIPE or another write error): drop its output for good. Reading resumes,
 * so that the processes' next output closes their pipes (wu_rte_iof_output returns false). */
static void sink_broken(sink_t *k)
{
    for (int s = STDOUT_FILENO; s <= STDERR_FILENO; s++) {
        if (sink_of[s] == k) {
            broken[s] = true;
        }
    }
    k->off = k->q.len = 0;
    if (NULL != k->wev) {
        event_del(k->wev);
    }
    hold_streams(k, false);
}

static bool is_broken(const sink_t *k)
{
    for (int s = STDOUT_FILENO; s <= STDERR_FILENO; s++) {
        if (sink_of[s] == k && broken[s]) {
            return true;
        }
    }
    return false;
}

/* Write what k's fd takes now without blocking. Returns the bytes written, or -1 when the fd
 * is gone. */
static ssize_t try_write(sink_t *k, const char *p, size_t len)
{
    size_t done = 0;
    while (done < len) {
        size_t n = len - done;
        ssize_t w;
        if (SINK_POLLED == k->how) {
            struct pollfd pfd = {.fd = k->fd, .events = POLLOUT};
            if (1 != poll(&pfd, 1, 0) || !(pfd.revents & (POLLOUT | POLLERR | POLLHUP))) {
                break;
            }
            n = n > PIPE_BUF ? PIPE_BUF : n;
        }
        if (SINK_SOCKET == k->how) {
            w = send(k->fd, p + done, n, MSG_DONTWAIT | MSG_NOSIGNAL);
        } else {
            w = write(k->fd, p + done, n);
        }
        if (w < 0 && EINTR == errno) {
            continue;
        }
        if (w < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            break;
        }
        if (w <= 0) {
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

/* Add len bytes at the end of l. */
static int append(rte_line_t *l, const char *data, size_t len)
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

/* Keep len bytes at the end of k's queue. */
static bool enqueue(sink_t *k, const char *p, size_t len)
{
    if (k->off > 0 && k->q.len + len > k->q.cap) {
        memmove(k->q.buf, k->q.buf + k->off, pending(k));
        k->q.len -= k->off;
        k->off = 0;
    }
    return WU_SUCCESS == append(&k->q, p, len);
}

/* Send p to k: now as far as the fd takes it, the rest through the queue. */
static void sink_put(sink_t *k, const char *p, size_t len)
{
    ssize_t n = 0;
    if (is_broken(k) || k->dropped) {
        return;
    }
    if (0 == pending(k)) {
        if ((n = try_write(k, p, len)) < 0) {
            sink_broken(k);
            return;
        }
        if (n > 0) {
            k->moved = wu_time_now();
        }
    }
    if ((size_t)n == len) {
        return;
    }
    if (NULL == k->wev || !enqueue(k, p + n, len - (size_t)n)) {
        return; /* out of memory: this piece is lost rather than the launcher blocked */
    }
    (void)event_add(k->wev, NULL);
    if (pending(k) > QUEUE_HIGH) {
        hold_streams(k, true);
    }
}

static void on_writable(evutil_socket_t fd, short what, void *arg)
{
    sink_t *k = arg;
    ssize_t n;
    (void)fd;
    (void)what;
    if ((n = try_write(k, k->q.buf + k->off, pending(k))) < 0) {
        sink_broken(k);
    } else {
        if (n > 0) {
            k->moved = wu_time_now();
        }
        k->off += (size_t)n;
        if (0 == pending(k)) {
            k->off = k->q.len = 0;
            event_del(k->wev);
        }
        if (pending(k) < QUEUE_LOW) {
            hold_streams(k, false);
        }
    }
    if (NULL != flushing && 0 == pending(k)) {
        flush_check();
    }
}

/* Our own non-blocking description of fd (a pipe, FIFO or terminal), or -1. */
static int reopen_nonblocking(int fd, const struct stat *st)
{
    char path[64];
    struct stat st2;
    int own;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    own = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (own >= 0 && (0 != fstat(own, &st2) || st2.st_dev != st->st_dev ||
                     st2.st_ino != st->st_ino || st2.st_rdev != st->st_rdev)) {
        close(own); /* not the same file after all */
        own = -1;
    }
    return own;
}

/* Make k the sink of the launcher's fd std (see the file comment for the kinds). */
static void sink_open(sink_t *k, int std, const struct stat *st)
{
    struct event_base *base = wu_progress_base(wu_rte_progress());
    int fl = fcntl(std, F_GETFL);
    *k = (sink_t){.open = true, .how = SINK_PLAIN, .fd = std, .own = -1};
    if (!wu_rte_pollable(std)) {
        return; /* a regular file, /dev/null: writes do not wait for a reader */
    }
    if (S_ISSOCK(st->st_mode)) {
        k->how = SINK_SOCKET;
    } else if (fl >= 0 && (fl & O_NONBLOCK)) {
        k->how = SINK_OWN; /* non-blocking already, by whoever shares it */
    } else if ((S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode)) &&
               (k->own = reopen_nonblocking(std, st)) >= 0) {
        k->how = SINK_OWN;
        k->fd = k->own;
    } else {
        k->how = SINK_POLLED;
    }
    /* a write event that cannot be added: plain writes */
    k->wev = NULL != base ? event_new(base, k->fd, EV_WRITE | EV_PERSIST, on_writable, k) : NULL;
    if (NULL == k->wev || 0 != event_add(k->wev, NULL)) {
        if (NULL != k->wev) {
            event_free(k->wev);
            k->wev = NULL;
        }
        if (k->own >= 0) {
            close(k->own);
        }
        *k = (sink_t){.open = true, .how = SINK_PLAIN, .fd = std, .own = -1};
        return;
    }
    event_del(k->wev);
}

/* Set up the sinks of this job's output (rte thread, once per job; see wu_rte_iof_flush). */
static void sinks_open(void)
{
    struct stat st[3];
    bool ok[3];
    if (sinks_tried) {
        return;
    }
    sinks_tried = true;
    for (int s = STDOUT_FILENO; s <= STDERR_FILENO; s++) {
        ok[s] = 0 == fstat(s, &st[s]);
        sink_of[s] = NULL;
        if (!ok[s]) {
            broken[s] = true; /* closed: nothing can be written to it */
        }
    }
    if (ok[STDOUT_FILENO]) {
        sink_open(&sinks[0], STDOUT_FILENO, &st[STDOUT_FILENO]);
        sink_of[STDOUT_FILENO] = &sinks[0];
    }
    if (ok[STDERR_FILENO]) {
        if (ok[STDOUT_FILENO] && st[1].st_dev == st[2].st_dev && st[1].st_ino == st[2].st_ino &&
            st[1].st_rdev == st[2].st_rdev) {
            sink_of[STDERR_FILENO] = &sinks[0]; /* 2>&1: one queue keeps their order */
        } else {
            sink_open(&sinks[1], STDERR_FILENO, &st[STDERR_FILENO]);
            sink_of[STDERR_FILENO] = &sinks[1];
        }
    }
}

static void sinks_close(void)
{
    for (int i = 0; i < 2; i++) {
        sink_t *k = &sinks[i];
        if (NULL != k->wev) {
            event_del(k->wev);
            event_free(k->wev);
        }
        if (k->own >= 0 && k->open) {
            close(k->own);
        }
        free(k->q.buf);
        sinks[i] = (sink_t){.own = -1};
    }
    sink_of[STDOUT_FILENO] = sink_of[STDERR_FILENO] = NULL;
    sinks_tried = false;
}

/* --- the end of the job ---------------------------------------------------------------------- */

static void flush_tick(void *arg)
{
    (void)arg;
    flush_check();
}

/* Give up on k's queue: say so (where that cannot block) and make later writes to its fds
 * harmless. */
static void sink_drop(sink_t *k)
{
    size_t lost = pending(k);
    double idle = wu_time_now() - k->moved;
    bool out = sink_of[STDOUT_FILENO] == k, err = sink_of[STDERR_FILENO] == k;
    int devnull;
    k->dropped = true;
    k->off = k->q.len = 0;
    if (NULL != k->wev) {
        event_del(k->wev);
    }
    /* the launcher's later messages would block on these fds: they go nowhere instead */
    for (int s = STDOUT_FILENO; s <= STDERR_FILENO; s++) {
        if (sink_of[s] == k && (devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) >= 0) {
            (void)dup2(devnull, s);
            close(devnull);
        }
    }
    /* through the stderr sink, unless that is the one dropped */
    wu_rte_say("output-dropped", wu_rte_tool, lost,
               out && err ? "stdout and stderr"
               : out      ? "stdout"
                          : "stderr",
               idle);
}

/* The end-of-job flush: done once every queue is empty; a queue whose reader has not taken a
 * byte for flush_stall seconds (or when the launcher was interrupted) is dropped. */
static void flush_check(void)
{
    double now = wu_time_now();
    bool left = false;
    if (NULL != flush_timer) {
        wu_progress_timer_cancel(flush_timer);
        flush_timer = NULL;
    }
    if (NULL == flushing) {
        return;
    }
    /* stdout first, so that its drop message can still go to stderr */
    for (int i = 0; i < 2; i++) {
        sink_t *k = &sinks[i];
        if (k->open && pending(k) > 0 && (give_up || now - k->moved >= flush_stall)) {
            sink_drop(k);
        }
        left = left || (k->open && pending(k) > 0);
    }
    if (left) {
        flush_timer = wu_progress_timer(wu_rte_progress(), FLUSH_TICK, flush_tick, NULL);
        if (NULL != flush_timer) {
            return;
        }
    }
    if (msg_lost > 0) {
        size_t lost = msg_lost;
        msg_lost = 0;
        wu_rte_say("messages-dropped", wu_rte_tool, lost, (size_t)(QUEUE_MSG_MAX >> 20));
    }
    sinks_close();
    wu_wait_call_done(flushing, WU_SUCCESS);
    flushing = NULL;
    give_up = false;
}

void wu_rte_iof_interrupt(void)
{
    if (NULL != flushing) {
        give_up = true;
        flush_check();
    }
}

/* --- lines ----------------------------------------------------------------------------------- */

/* Write to one of the --output-filename files. */
static void write_file(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            return; /* a full disk: the rest of this piece is lost */
        }
        p += n;
        len -= (size_t)n;
    }
}

/* Send text of rank's stream where it goes: its file, or our stdout/stderr. */
static void put(rte_job_t *job, uint32_t rank, int stream, const char *text, size_t len)
{
    int f = job->procs[rank].outfd[stream - 1];
    int std = WU_PLS_STDOUT == stream ? STDOUT_FILENO : STDERR_FILENO;
    if (f >= 0) {
        write_file(f, text, len);
        return;
    }
    sinks_open();
    if (NULL != sink_of[std]) {
        sink_put(sink_of[std], text, len);
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

/* Send text (complete lines, or a final piece), prefixed line by line if asked. */
static void emit(rte_job_t *job, uint32_t rank, int stream, const char *text, size_t len)
{
    char tag[128];
    size_t taglen;
    char *buf, *q;
    size_t nlines = 0;

    if (0 == len) {
        return;
    }
    taglen = line_prefix(job, rank, stream, tag, sizeof tag);
    if (0 == taglen) {
        put(job, rank, stream, text, len);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        nlines += '\n' == text[i];
    }
    nlines += '\n' != text[len - 1];
    if (NULL == (buf = malloc(len + nlines * taglen))) {
        put(job, rank, stream, text, len); /* unprefixed rather than lost */
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
    put(job, rank, stream, buf, (size_t)(q - buf));
    free(buf);
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
            WU_SUCCESS == append(l, "\n", 1)) {
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
        if (WU_SUCCESS != append(l, data, len)) {
            flush_line(job, rank, stream); /* could not hold it: out it goes */
            emit(job, rank, stream, data, len);
        } else if (l->len >= LINE_MAX_HOLD) {
            flush_line(job, rank, stream);
        }
        return !*gone;
    }
    if (l->len > 0) {
        size_t n = (size_t)(last - data) + 1;
        if (WU_SUCCESS == append(l, data, n)) {
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
        if (WU_SUCCESS != append(l, last + 1, rest)) {
            emit(job, rank, stream, last + 1, rest);
        }
    }
    return !*gone;
}

bool wu_rte_iof_message(int fd, const char *text, size_t len)
{
    rte_job_t *job = wu_rte_job;
    if (STDOUT_FILENO != fd && STDERR_FILENO != fd) {
        return false;
    }
    if (NULL != job || NULL != flushing) {
        sinks_open();
    }
    if (!sinks_tried || NULL == sink_of[fd]) {
        return false;
    }
    if (pending(sink_of[fd]) + len > QUEUE_MSG_MAX) {
        msg_lost += len;
        return true;
    }
    sink_put(sink_of[fd], text, len);
    return true;
}

/* Write out what is left of the job's partial lines, and close its output files. */
static void close_lines(rte_job_t *job)
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

/* The partial lines, the files, then the queues (rte thread; completes call when done). */
static void flush_in_rte(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    double now = wu_time_now();
    close_lines(job);
    flush_stall = 0 != job->forwarded_sig || (job->status_set && WU_RTE_EXIT_TIMEOUT == job->status)
                      ? HURRY_STALL
                      : DRAIN_STALL;
    for (int i = 0; i < 2; i++) {
        sinks[i].moved = now;
        sinks[i].held = false; /* the job's pipes are closed */
    }
    flushing = call;
    give_up = false;
    flush_check();
}

void wu_rte_iof_flush(rte_job_t *job)
{
    if (WU_SUCCESS != wu_progress_shift_wait(wu_rte_progress(), flush_in_rte, job, 0)) {
        /* no progress thread to write with: release what the lines hold */
        for (uint32_t r = 0; r < job->np; r++) {
            for (int s = 0; s < 2; s++) {
                free(job->procs[r].line[s].buf);
                job->procs[r].line[s] = (rte_line_t){0};
                if (job->procs[r].outfd[s] >= 0) {
                    close(job->procs[r].outfd[s]);
                    job->procs[r].outfd[s] = -1;
                }
            }
        }
    }
}

static void flush_lines_in_rte(wu_wait_call_t *call)
{
    close_lines(call->cbdata);
    wu_wait_call_done(call, WU_SUCCESS);
}

void wu_rte_iof_flush_lines(rte_job_t *job)
{
    (void)wu_progress_shift_wait(wu_rte_progress(), flush_lines_in_rte, job, 0);
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
