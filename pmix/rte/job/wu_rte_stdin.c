/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_stdin.c -- the launcher's standard input, forwarded to the processes --stdin names
 * (rank 0 by default, all, or none).
 *
 * Runs on the rte progress thread. What is read from fd 0 is written to every target's stdin
 * pipe (non-blocking). A target that cannot take it all keeps the rest in a buffer and gets a
 * write event; while any buffer is not empty, reading pauses, so a slow reader holds back the
 * input rather than making the launcher buffer it without bound. At end of file each target's
 * pipe is closed once its buffer is written. A target whose pipe breaks (it exited or closed its
 * stdin) is dropped; the others go on. A regular file on fd 0 cannot be watched with epoll, so
 * it is read in turns of the event loop instead.
 *
 * A target on another node (multi-node jobs, on the head node) gets the input in STDIN messages
 * to its daemon, which writes it to the rank's pipe and acknowledges what it wrote; while more
 * than REMOTE_WINDOW bytes are unacknowledged, reading pauses the same way. End of file is an
 * empty STDIN message. */
#include "pmix/rte/job/wu_rte_job.h"

#include <errno.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 65536
/* Bytes a remote target may have unacknowledged before reading pauses. */
#define REMOTE_WINDOW (1024 * 1024)

typedef struct {
    rte_job_t *job;
    uint32_t rank; /* its index among this node's processes (a local target) */
    char *buf;     /* not yet written */
    size_t len;
    struct event *wev;
    bool remote;     /* on another node: rank is its rank in the job */
    bool gone;       /* remote: end of file sent */
    size_t inflight; /* remote: bytes sent and not yet acknowledged */
} target_t;

struct rte_stdin {
    struct event *rev;
    bool is_file; /* rev is never added: it is activated by hand */
    bool eof, paused;
    target_t *t;
    uint32_t nt;
};

static void drop(target_t *t)
{
    if (t->remote) {
        if (!t->gone) {
            t->gone = true;
            t->job->role->stdin_to(t->job, t->rank, NULL, 0); /* end of file */
        }
        return;
    }
    if (NULL != t->wev) {
        event_free(t->wev);
        t->wev = NULL;
    }
    free(t->buf);
    t->buf = NULL;
    t->len = 0;
    wu_pls_close_stdin(t->job->pls, t->rank);
}

static bool pending(const rte_stdin_t *s)
{
    for (uint32_t i = 0; i < s->nt; i++) {
        if (s->t[i].len > 0 || (s->t[i].remote && s->t[i].inflight > REMOTE_WINDOW)) {
            return true;
        }
    }
    return false;
}

static void resume(rte_stdin_t *s)
{
    if (!s->paused || s->eof) {
        return;
    }
    s->paused = false;
    if (s->is_file) {
        event_active(s->rev, EV_READ, 0);
    } else {
        (void)event_add(s->rev, NULL);
    }
}

/* Write what t holds plus data; keep what the pipe does not take. false: t was dropped. */
static bool push(target_t *t, const char *data, size_t len)
{
    int fd;
    size_t off = 0;
    if (t->remote) {
        if (!t->gone) {
            t->job->role->stdin_to(t->job, t->rank, data, len);
            t->inflight += len;
        }
        return !t->gone;
    }
    fd = t->job->pls->procs[t->rank].stdin_fd;
    if (fd < 0) {
        return false;
    }
    while (0 == t->len && off < len) {
        ssize_t n = write(fd, data + off, len - off);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            break;
        }
        if (n < 0) {
            drop(t); /* EPIPE: it does not read its stdin any more */
            return false;
        }
        off += (size_t)n;
    }
    if (off < len) {
        char *b = realloc(t->buf, t->len + len - off);
        if (NULL == b) {
            drop(t);
            return false;
        }
        memcpy(b + t->len, data + off, len - off);
        t->buf = b;
        t->len += len - off;
        (void)event_add(t->wev, NULL);
    }
    return true;
}

static void on_writable(evutil_socket_t fd, short what, void *arg)
{
    target_t *t = arg;
    rte_stdin_t *s = t->job->stdin_fwd;
    char *held = t->buf;
    size_t n = t->len;
    (void)fd;
    (void)what;
    t->buf = NULL;
    t->len = 0;
    if (push(t, held, n) && 0 == t->len) {
        event_del(t->wev);
        if (s->eof) {
            drop(t);
        }
    }
    free(held);
    if (!pending(s)) {
        resume(s);
    }
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
    rte_stdin_t *s = arg;
    char buf[CHUNK];
    ssize_t n;
    (void)what;
    do {
        n = read(fd, buf, sizeof buf);
    } while (n < 0 && EINTR == errno);
    if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
        return;
    }
    if (n <= 0) { /* end of file, or an error that ends the input the same way */
        s->eof = true;
        if (!s->is_file) {
            event_del(s->rev);
        }
        for (uint32_t i = 0; i < s->nt; i++) {
            if (0 == s->t[i].len) {
                drop(&s->t[i]);
            }
        }
        return;
    }
    for (uint32_t i = 0; i < s->nt; i++) {
        (void)push(&s->t[i], buf, (size_t)n);
    }
    if (pending(s)) {
        s->paused = true;
        if (!s->is_file) {
            event_del(s->rev);
        }
    } else if (s->is_file) {
        event_active(s->rev, EV_READ, 0); /* the next piece, in the next turn of the loop */
    }
}

/* Can epoll watch fd? Pipes, sockets and terminals: yes; regular files and devices such as
 * /dev/null: no (they never block, so they are read in turns instead). */
bool wu_rte_pollable(int fd)
{
    struct stat st;
    if (0 != fstat(fd, &st)) {
        return false;
    }
    return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || (S_ISCHR(st.st_mode) && isatty(fd));
}

/* Does rank on another node read our stdin? */
static bool remote_target(const rte_job_t *job, uint32_t rank)
{
    int target = job->app->stdin_target;
    return NULL != job->role && NULL != job->role->stdin_to &&
           job->map->procs[rank].node != job->mynode &&
           (WU_RTE_STDIN_ALL == target || (int64_t)rank == (int64_t)target);
}

void wu_rte_stdin_acked(rte_job_t *job, uint32_t rank, size_t n)
{
    rte_stdin_t *s = job->stdin_fwd;
    for (uint32_t i = 0; NULL != s && i < s->nt; i++) {
        target_t *t = &s->t[i];
        if (t->remote && t->rank == rank) {
            t->inflight -= n < t->inflight ? n : t->inflight;
            if (!pending(s)) {
                resume(s);
            }
            return;
        }
    }
}

int wu_rte_stdin_start(rte_job_t *job)
{
    struct event_base *base = wu_progress_base(wu_rte_progress());
    rte_stdin_t *s;
    uint32_t nt = 0;

    for (uint32_t r = 0; NULL != job->pls && r < job->nlocal; r++) {
        nt += job->pls->procs[r].stdin_fd >= 0;
    }
    for (uint32_t r = 0; r < job->np; r++) {
        nt += remote_target(job, r) ? 1 : 0;
    }
    if (0 == nt) {
        return WU_SUCCESS;
    }
    if (NULL == (s = calloc(1, sizeof *s)) || NULL == (s->t = calloc(nt, sizeof *s->t))) {
        free(s);
        return WU_ERR_NOMEM;
    }
    job->stdin_fwd = s;
    for (uint32_t r = 0; r < job->np; r++) {
        if (remote_target(job, r)) {
            s->t[s->nt++] = (target_t){.job = job, .rank = r, .remote = true};
        }
    }
    for (uint32_t r = 0; NULL != job->pls && r < job->nlocal; r++) { /* r: a local index */
        if (job->pls->procs[r].stdin_fd >= 0) {
            target_t *t = &s->t[s->nt++];
            t->job = job;
            t->rank = r;
            t->wev =
                event_new(base, job->pls->procs[r].stdin_fd, EV_WRITE | EV_PERSIST, on_writable, t);
            if (NULL == t->wev) {
                return WU_ERR_NOMEM;
            }
        }
    }
    s->rev = event_new(base, STDIN_FILENO, EV_READ | EV_PERSIST, on_readable, s);
    if (NULL == s->rev) {
        return WU_ERR_NOMEM;
    }
    if (!wu_rte_pollable(STDIN_FILENO) || 0 != event_add(s->rev, NULL)) {
        s->is_file = true;
        event_active(s->rev, EV_READ, 0);
    }
    return WU_SUCCESS;
}

void wu_rte_stdin_stop(rte_job_t *job)
{
    rte_stdin_t *s = job->stdin_fwd;
    if (NULL != job->role && NULL != job->role->stdin_stop) {
        job->role->stdin_stop(job);
    }
    if (NULL == s) {
        return;
    }
    for (uint32_t i = 0; i < s->nt; i++) {
        if (NULL != s->t[i].wev) {
            event_free(s->t[i].wev);
        }
        free(s->t[i].buf);
    }
    if (NULL != s->rev) {
        event_free(s->rev);
    }
    free(s->t);
    free(s);
    job->stdin_fwd = NULL;
}
