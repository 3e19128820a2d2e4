/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_fork_launch.c -- starting the processes of a job with fork and exec.
 *
 * The launcher is multithreaded, so the child of fork may only make async-signal-safe calls
 * until it execs: everything it needs (program path, argv, env, descriptors) is prepared in the
 * parent. Signals are blocked around fork so that no handler of the parent (libevent's, which
 * writes to a socket shared with the parent) runs in the child; the child then resets every
 * disposition to the default and unblocks everything. Each child joins the job's process group
 * (the first child leads it), so a terminate reaches what the processes started too.
 *
 * Exec failure is reported through a close-on-exec pipe: the child writes errno to it and exits
 * 127 (not found) or 126 (cannot run); a successful exec closes the pipe, which the parent sees
 * as end of file. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2, sched_setaffinity */
#endif
#include "mca/pls/fork/pls_fork.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_path.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* What a child needs, prepared before fork. */
typedef struct {
    const char *path;
    char *const *argv;
    char *const *env;
    const char *cwd;
    pid_t pgid;                                 /* 0: lead a new group */
    int null_fd, in_r, out_w, err_w, errpipe_w; /* in_r: stdin pipe, or -1 for null_fd */
    int keep_fd;                                /* inherited as it is (pls.h), or -1 */
    bool bind;
    cpu_set_t cpus; /* the binding, when bind */
    unsigned maxfd;
    const struct rlimit *nofile; /* the descriptor limit to restore, or NULL */
} child_args_t;

static void child_fail(int fd, int err) WU_NORETURN;
static void child_fail(int fd, int err)
{
    ssize_t n;
    do {
        n = write(fd, &err, sizeof err);
    } while (n < 0 && EINTR == errno);
    _exit(ENOENT == err ? WU_PLS_EXIT_NOT_FOUND : WU_PLS_EXIT_CANNOT_RUN);
}

/* Close every descriptor from lo to hi (inclusive). */
static void close_span(unsigned lo, unsigned hi, unsigned maxfd)
{
    if (lo > hi) {
        return;
    }
#ifdef SYS_close_range
    if (0 == syscall(SYS_close_range, lo, hi, 0)) {
        return;
    }
#endif
    for (unsigned fd = lo; fd <= hi && fd < maxfd; fd++) {
        (void)close((int)fd);
    }
}

/* A Linux cpu list ("0-3,8,10-11") as a cpu set; WU_ERR_BAD_PARAM when malformed or empty. */
static int parse_cpus(const char *list, cpu_set_t *set)
{
    const char *p = list;
    CPU_ZERO(set);
    while ('\0' != *p) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p || lo >= CPU_SETSIZE) {
            return WU_ERR_BAD_PARAM;
        }
        p = end;
        if ('-' == *p) {
            hi = strtoul(p + 1, &end, 10);
            if (end == p + 1 || hi < lo || hi >= CPU_SETSIZE) {
                return WU_ERR_BAD_PARAM;
            }
            p = end;
        }
        for (unsigned long c = lo; c <= hi; c++) {
            CPU_SET(c, set);
        }
        if (',' == *p) {
            p++;
        } else if ('\0' != *p) {
            return WU_ERR_BAD_PARAM;
        }
    }
    return CPU_COUNT(set) > 0 ? WU_SUCCESS : WU_ERR_BAD_PARAM;
}

static void child(const child_args_t *a) WU_NORETURN;
static void child(const child_args_t *a)
{
    struct sigaction dfl;
    sigset_t none;

    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; s++) {
        if (0 != sigaction(s, &dfl, NULL)) {
            /* libc refuses its own signals (32, 33), which an ignoring parent may have left
             * ignored; the kernel accepts an all-zero action (SIG_DFL, no flags, empty mask).
             * SIGKILL and SIGSTOP fail both ways, and need no reset. */
            unsigned long kact[8] = {0};
            (void)syscall(SYS_rt_sigaction, s, kact, NULL, (size_t)(NSIG / 8));
        }
    }
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);

    if (0 != setpgid(0, a->pgid) && 0 != a->pgid) {
        (void)setpgid(0, 0); /* the job's group is gone: lead one of our own */
    }
    if (dup2(a->in_r >= 0 ? a->in_r : a->null_fd, STDIN_FILENO) < 0 ||
        dup2(a->out_w, STDOUT_FILENO) < 0 || dup2(a->err_w, STDERR_FILENO) < 0) {
        child_fail(a->errpipe_w, errno);
    }
    if (a->bind && 0 != sched_setaffinity(0, sizeof a->cpus, &a->cpus)) {
        child_fail(a->errpipe_w, errno);
    }
    if (NULL != a->cwd && 0 != chdir(a->cwd)) {
        child_fail(a->errpipe_w, errno);
    }
    if (NULL != a->nofile) {
        (void)setrlimit(RLIMIT_NOFILE, a->nofile);
    }
    /* every descriptor but 0-2, the close-on-exec error pipe and the one the process keeps */
    if (a->keep_fd > STDERR_FILENO && 0 != fcntl(a->keep_fd, F_SETFD, 0)) {
        child_fail(a->errpipe_w, errno);
    }
    {
        unsigned lo = (unsigned)a->errpipe_w, hi = (unsigned)a->errpipe_w;
        if (a->keep_fd > STDERR_FILENO) {
            lo = a->keep_fd < a->errpipe_w ? (unsigned)a->keep_fd : lo;
            hi = a->keep_fd > a->errpipe_w ? (unsigned)a->keep_fd : hi;
        }
        close_span(3, lo - 1, a->maxfd);
        close_span(lo + 1, hi - 1, a->maxfd);
        close_span(hi + 1, ~0u, a->maxfd);
    }
    execve(a->path, a->argv, a->env);
    child_fail(a->errpipe_w, errno);
}

/* A new close-on-exec descriptor for fd that is not 0, 1 or 2 (fd is closed if it moved). */
static int above_stdio(int fd)
{
    int nfd;
    if (fd < 0 || fd > STDERR_FILENO) {
        return fd;
    }
    nfd = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    close(fd);
    return nfd;
}

static int make_pipe(int p[2])
{
    if (0 != pipe2(p, O_CLOEXEC)) {
        return wu_status_from_errno(errno);
    }
    p[0] = above_stdio(p[0]);
    p[1] = above_stdio(p[1]);
    if (p[0] < 0 || p[1] < 0) {
        int err = errno;
        if (p[0] >= 0) {
            close(p[0]);
        }
        if (p[1] >= 0) {
            close(p[1]);
        }
        return wu_status_from_errno(err);
    }
    return WU_SUCCESS;
}

static char *const *proc_argv(const wu_pls_job_t *job, const wu_pls_proc_t *proc)
{
    return NULL != proc->argv ? proc->argv : job->argv;
}

static const char *proc_cwd(const wu_pls_job_t *job, const wu_pls_proc_t *proc)
{
    return NULL != proc->cwd ? proc->cwd : job->cwd;
}

/* Find proc's program like execvp would, in the PATH of its environment. */
static int resolve_program(wu_pls_job_t *job, const wu_pls_proc_t *proc, char **path)
{
    const char *prog = proc_argv(job, proc)[0], *cwd = proc_cwd(job, proc);
    const char *pathvar = NULL != proc->env ? wu_getenv("PATH", proc->env) : getenv("PATH");
    char *cand = NULL;
    struct stat st;

    job->launch_prog = prog;
    if (NULL != strchr(prog, '/') && '/' != prog[0] && NULL != cwd) {
        cand = wu_path_join(cwd, prog, NULL); /* relative to where it will run */
        if (NULL == cand) {
            return WU_ERR_NOMEM;
        }
        prog = cand;
    }
    *path = wu_path_find_in_path(prog, pathvar);
    if (NULL != *path) {
        free(cand);
        return WU_SUCCESS;
    }
    /* why not: it does not exist, or exists but is no executable file */
    if (NULL != strchr(prog, '/')) {
        job->launch_errno = 0 == stat(prog, &st) ? EACCES : errno;
    } else {
        job->launch_errno = ENOENT;
    }
    free(cand);
    return ENOENT == job->launch_errno || ENOTDIR == job->launch_errno ? WU_ERR_NOT_FOUND
                                                                       : WU_ERR_NO_PERMISSIONS;
}

static void free_paths(char **paths, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        free(paths[i]);
    }
    free(paths);
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (NULL != a && NULL != b && 0 == strcmp(a, b));
}

/* Fork one process; its exec is checked by finish_one. Returns WU_SUCCESS when it was forked
 * (*epfd is then the read end of its error pipe, fp->out.fd / fp->err.fd the read ends of its
 * output pipes), or an error when nothing was forked. */
static int fork_one(wu_pls_job_t *job, fork_proc_t *fp, const child_args_t *tmpl,
                    char *const *paths, pid_t *pgid, int *epfd)
{
    wu_pls_proc_t *proc = fp->proc;
    int out[2] = {-1, -1}, err[2] = {-1, -1}, ep[2] = {-1, -1}, in[2] = {-1, -1}, rc, e = 0;
    sigset_t all, old;
    child_args_t a = *tmpl;
    pid_t pid;

    if (WU_SUCCESS != (rc = make_pipe(out)) || WU_SUCCESS != (rc = make_pipe(err)) ||
        WU_SUCCESS != (rc = make_pipe(ep)) ||
        (proc->want_stdin && WU_SUCCESS != (rc = make_pipe(in)))) {
        goto fail;
    }
    if (NULL != proc->cpus && WU_SUCCESS != (rc = parse_cpus(proc->cpus, &a.cpus))) {
        goto fail;
    }
    a.bind = NULL != proc->cpus;
    a.path = paths[proc->rank];
    a.argv = proc_argv(job, proc);
    a.cwd = proc_cwd(job, proc);
    a.env = NULL != proc->env ? proc->env : environ;
    a.pgid = *pgid;
    a.in_r = in[0];
    a.out_w = out[1];
    a.err_w = job->merge_stderr ? out[1] : err[1];
    a.errpipe_w = ep[1];
    a.keep_fd = NULL == proc->host ? proc->keep_fd : -1;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid = fork();
    if (0 == pid) {
        child(&a);
    }
    e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        rc = wu_status_from_errno(e);
        errno = e;
        goto fail;
    }
    /* from here on the process exists and will be reaped */
    proc->pid = pid;
    ((fork_job_t *)job->pls_data)->nalive++;
    wu_pls_fork_watch_exit(fp);
    if (0 == *pgid) {
        (void)setpgid(pid, pid);
        *pgid = pid;
    } else {
        (void)setpgid(pid, *pgid); /* also done by the child; whoever is first wins */
    }
    close(out[1]);
    close(err[1]);
    close(ep[1]);
    if (in[0] >= 0) {
        close(in[0]);
        (void)fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
        proc->stdin_fd = in[1];
    }
    fp->out.fd = out[0];
    fp->err.fd = err[0];
    *epfd = ep[0];
    return WU_SUCCESS;

fail:
    proc->exec_errno = errno;
    for (int i = 0; i < 2; i++) {
        if (out[i] >= 0) {
            close(out[i]);
        }
        if (err[i] >= 0) {
            close(err[i]);
        }
        if (ep[i] >= 0) {
            close(ep[i]);
        }
        if (in[i] >= 0) {
            close(in[i]);
        }
    }
    return rc;
}

/* Wait for a forked process's exec (end of file on its error pipe) or its exec error, and start
 * reading its output. */
static int finish_one(wu_pls_job_t *job, fork_proc_t *fp, int epfd)
{
    wu_pls_proc_t *proc = fp->proc;
    int e = 0, out = fp->out.fd, err = fp->err.fd, rc;
    ssize_t n;
    do {
        n = read(epfd, &e, sizeof e);
    } while (n < 0 && EINTR == errno);
    close(epfd);
    fp->pgid = getpgid(proc->pid);
    if (fp->pgid < 0) {
        fp->pgid = proc->pid;
    }
    if (n == (ssize_t)sizeof e) {
        proc->state = WU_PLS_PROC_FAILED;
        proc->exec_errno = e;
    } else {
        proc->state = WU_PLS_PROC_RUNNING;
    }
    /* read whatever it writes (also a child that failed: nothing, then end of file) */
    fp->out.fd = fp->err.fd = -1;
    rc = wu_pls_fork_watch(fp, out, err);
    if (WU_PLS_PROC_RUNNING == proc->state) {
        wu_pls_base_proc_started(job, proc);
    }
    return rc;
}

/* Children are forked in batches: all of a batch first, then their execs are awaited, so the
 * execs of a batch overlap instead of running one after the other. */
#define LAUNCH_BATCH 32

/* Each process holds two of our descriptors until it ends: raise our soft limit when a big job
 * needs it (as mpirun does); the processes get the original limit back. Returns the limit to
 * restore in the children (NULL: unchanged) and sets *maxfd to the limit now in force. */
static const struct rlimit *raise_nofile(uint32_t nprocs, struct rlimit *orig, unsigned *maxfd)
{
    const struct rlimit *restore = NULL;
    struct rlimit rl;
    rlim_t need = (rlim_t)nprocs * 2 + 256;
    if (0 != getrlimit(RLIMIT_NOFILE, orig)) {
        return NULL;
    }
    rl = *orig;
    if (RLIM_INFINITY != rl.rlim_cur && rl.rlim_cur < need && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = RLIM_INFINITY != rl.rlim_max && rl.rlim_max < need ? rl.rlim_max : need;
        if (0 == setrlimit(RLIMIT_NOFILE, &rl)) {
            restore = orig;
        }
    }
    if (0 == getrlimit(RLIMIT_NOFILE, &rl) && RLIM_INFINITY != rl.rlim_cur &&
        rl.rlim_cur < (rlim_t)~0u) {
        *maxfd = (unsigned)rl.rlim_cur;
    }
    return restore;
}

int wu_pls_fork_launch(wu_pls_job_t *job)
{
    struct rlimit orig; /* the children restore it */
    fork_job_t *fj = job->pls_data;
    char **paths;
    pid_t pgid = 0;
    unsigned maxfd = 65536;
    int null_fd, rc = WU_SUCCESS, epfd[LAUNCH_BATCH];
    child_args_t tmpl;

    /* every program is found before anything starts: one missing program starts nothing */
    if (NULL == (paths = calloc(job->nprocs, sizeof *paths))) {
        return WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < job->nprocs && WU_SUCCESS == rc; i++) {
        const wu_pls_proc_t *p = &job->procs[i], *q = i > 0 ? &job->procs[i - 1] : NULL;
        if (NULL != q && 0 == strcmp(proc_argv(job, p)[0], proc_argv(job, q)[0]) &&
            same_str(proc_cwd(job, p), proc_cwd(job, q)) &&
            same_str(NULL != p->env ? wu_getenv("PATH", p->env) : NULL,
                     NULL != q->env ? wu_getenv("PATH", q->env) : NULL)) {
            rc = NULL != (paths[i] = strdup(paths[i - 1])) ? WU_SUCCESS : WU_ERR_NOMEM;
        } else {
            rc = resolve_program(job, p, &paths[i]);
        }
    }
    if (WU_SUCCESS != rc) {
        free_paths(paths, job->nprocs);
        return rc;
    }
    null_fd = above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (null_fd < 0) {
        rc = wu_status_from_errno(errno);
        free_paths(paths, job->nprocs);
        return rc;
    }
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.null_fd = null_fd;
    tmpl.in_r = -1;
    tmpl.nofile = raise_nofile(job->nprocs, &orig, &maxfd);
    tmpl.maxfd = maxfd;
    rc = WU_SUCCESS;
    for (uint32_t first = 0; first < job->nprocs && WU_SUCCESS == rc; first += LAUNCH_BATCH) {
        uint32_t n = 0;
        while (n < LAUNCH_BATCH && first + n < job->nprocs && WU_SUCCESS == rc) {
            rc = fork_one(job, &fj->procs[first + n], &tmpl, paths, &pgid, &epfd[n]);
            n += WU_SUCCESS == rc;
        }
        for (uint32_t k = 0; k < n; k++) {
            int r = finish_one(job, &fj->procs[first + k], epfd[k]);
            rc = WU_SUCCESS == rc ? r : rc;
        }
    }
    close(null_fd);
    free_paths(paths, job->nprocs);
    /* A process that could not be forked (no memory, process or descriptor limit) fails like
     * one whose exec failed, and so do the ones after it; the caller decides what to do. */
    for (uint32_t i = 0; i < job->nprocs; i++) {
        wu_pls_proc_t *proc = &job->procs[i];
        if (0 == proc->pid && WU_PLS_PROC_INIT == proc->state) {
            proc->state = WU_PLS_PROC_FAILED;
            if (0 == proc->exec_errno) {
                proc->exec_errno = EAGAIN;
            }
            proc->wait_status = W_EXITCODE(WU_PLS_EXIT_CANNOT_RUN, 0);
            wu_pls_base_proc_ended(job, proc);
        }
    }
    /* children that already ended are reaped now rather than at the next SIGCHLD */
    wu_pls_fork_sweep(job);
    return WU_SUCCESS;
}
