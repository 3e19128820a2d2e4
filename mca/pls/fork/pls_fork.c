/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_fork.c -- pls component that runs a job's processes as children of the calling process
 * (one node, no daemons): the module ops, output pipes, reaping and termination.
 *
 * Everything runs on the job's progress thread. Children are reaped by pid with
 * waitpid(pid, WNOHANG) -- never waitpid(-1), which would steal other code's children -- when
 * SIGCHLD arrives (a libevent signal event) and, as a safety net should another event base in
 * the process take SIGCHLD over, on a periodic sweep while any child runs. Where the kernel has
 * pidfds, each child also has one in the event loop, and the SIGCHLD sweep leaves those children
 * to it: epoll reports pidfds in the order the processes ended, so when one process's death
 * makes others fail at once (a peer dies in a fence), the first to end is reported first,
 * whereas a sweep would report them in rank order. A reaped process's pipes are drained before
 * its end is reported, so its output always comes first. */
#include "mca/pls/fork/pls_fork.h"

#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int wu_pls_fork_term_grace = 1;

#define POLL_INTERVAL 0.5 /* seconds between safety sweeps */
#define READ_CHUNK    65536

static void close_stream(fork_stream_t *s)
{
    if (NULL != s->ev) {
        event_del(s->ev);
        event_free(s->ev);
        s->ev = NULL;
    }
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
}

/* Read what is there; report end of file (len 0) and close the pipe at EOF or on an error. A
 * held stream is read only when its process has ended (ended), so that its output comes before
 * its end. */
static void drain(fork_stream_t *s, bool ended)
{
    char buf[READ_CHUNK];
    wu_pls_job_t *job = s->fp->job;
    for (int i = 0; i < 64 && s->fd >= 0 && (ended || !s->held); i++) {
        ssize_t n = read(s->fd, buf, sizeof buf);
        if (n > 0) {
            if (NULL != job->cb.output &&
                !job->cb.output(job, s->fp->proc, s->stream, buf, (size_t)n)) {
                close_stream(s); /* the caller wants no more */
                return;
            }
            continue;
        }
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            return;
        }
        close_stream(s);
        if (NULL != job->cb.output) {
            (void)job->cb.output(job, s->fp->proc, s->stream, buf, 0);
        }
    }
}

static void stream_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    drain(arg, false);
}

int wu_pls_fork_watch(fork_proc_t *fp, int out_fd, int err_fd)
{
    struct event_base *base = wu_progress_base(fp->job->progress);
    fork_stream_t *ss[2] = {&fp->out, &fp->err};
    int fds[2] = {out_fd, err_fd};
    int rc = WU_SUCCESS;
    for (int i = 0; i < 2; i++) {
        fork_stream_t *s = ss[i];
        s->fp = fp;
        s->stream = 0 == i ? WU_PLS_STDOUT : WU_PLS_STDERR;
        s->fd = fds[i];
        if (0 != evutil_make_socket_nonblocking(s->fd) ||
            NULL == (s->ev = event_new(base, s->fd, EV_READ | EV_PERSIST, stream_cb, s)) ||
            (!s->held && 0 != event_add(s->ev, NULL))) {
            close_stream(s); /* its output is lost; the process itself is still tracked */
            rc = WU_ERR_OUT_OF_RESOURCE;
        }
    }
    return rc;
}

/* --- reaping --------------------------------------------------------------------------------- */

static void unwatch_exit(fork_proc_t *fp)
{
    if (NULL != fp->exit_ev) {
        event_del(fp->exit_ev);
        event_free(fp->exit_ev);
        fp->exit_ev = NULL;
    }
    if (fp->pidfd >= 0) {
        close(fp->pidfd);
        fp->pidfd = -1;
    }
}

static void reaped(wu_pls_job_t *job, fork_proc_t *fp, int status)
{
    fork_job_t *fj = job->pls_data;
    wu_pls_proc_t *proc = fp->proc;
    unwatch_exit(fp);
    fp->reaped = true;
    fj->nalive--;
    proc->wait_status = status;
    if (WU_PLS_PROC_FAILED != proc->state) {
        proc->state = WU_PLS_PROC_EXITED;
    }
    /* Its writes are all in the pipes now. A pipe still open after the drain is held by
     * something it started; that output keeps coming and is still delivered. */
    drain(&fp->out, true);
    drain(&fp->err, true);
    wu_pls_base_proc_ended(job, proc);
}

/* Reap fp if it has ended. */
static void try_reap(wu_pls_job_t *job, fork_proc_t *fp)
{
    int status = 0;
    pid_t r;
    do {
        r = waitpid(fp->proc->pid, &status, WNOHANG);
    } while (r < 0 && EINTR == errno);
    if (r == fp->proc->pid) {
        reaped(job, fp, status);
    } else if (r < 0) {
        /* ECHILD: someone else reaped it (SIGCHLD ignored, or waitpid(-1) elsewhere).
             * Its status is lost: report it as a failure rather than wait forever. */
        WU_MCA_VERBOSE(&wu_mca_pls_framework, WU_VERB_WARN,
                       "pls:fork: %s rank %u (pid %d) was reaped by someone else", job->nspace,
                       fp->proc->rank, (int)fp->proc->pid);
        reaped(job, fp, W_EXITCODE(255, 0));
    }
}

/* Reap every ended child; with pidfds_too false, only those without a pidfd watch. */
static void sweep(wu_pls_job_t *job, bool pidfds_too)
{
    fork_job_t *fj = job->pls_data;
    for (uint32_t i = 0; i < job->nprocs && NULL != fj && fj->nalive > 0; i++) {
        fork_proc_t *fp = &fj->procs[i];
        if (0 == fp->proc->pid || fp->reaped || (NULL != fp->exit_ev && !pidfds_too)) {
            continue;
        }
        try_reap(job, fp);
    }
}

void wu_pls_fork_sweep(wu_pls_job_t *job)
{
    sweep(job, true);
}

static void exit_cb(evutil_socket_t fd, short what, void *arg)
{
    fork_proc_t *fp = arg;
    (void)fd;
    (void)what;
    if (!fp->reaped) {
        try_reap(fp->job, fp);
    }
}

void wu_pls_fork_watch_exit(fork_proc_t *fp)
{
#ifdef SYS_pidfd_open
    struct event_base *base = wu_progress_base(fp->job->progress);
    fp->pidfd = (int)syscall(SYS_pidfd_open, fp->proc->pid, 0);
    if (fp->pidfd < 0) {
        return; /* an older kernel: SIGCHLD and the sweep do the work */
    }
    fp->exit_ev = event_new(base, fp->pidfd, EV_READ | EV_PERSIST, exit_cb, fp);
    if (NULL == fp->exit_ev || 0 != event_add(fp->exit_ev, NULL)) {
        unwatch_exit(fp);
    }
#else
    (void)fp;
#endif
}

static void sigchld_cb(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    sweep(arg, false); /* children with a pidfd are reaped in the order they ended */
}

static void poll_cb(void *arg)
{
    wu_pls_job_t *job = arg;
    fork_job_t *fj = job->pls_data;
    wu_progress_timer_cancel(fj->poll); /* fired: only releases the handle */
    fj->poll = NULL;
    sweep(job, false); /* a pidfd never misses an end */
    if (fj->nalive > 0) {
        fj->poll = wu_progress_timer(job->progress, POLL_INTERVAL, poll_cb, job);
    }
}

/* --- module ops ------------------------------------------------------------------------------ */

static int fork_launch_job(wu_pls_job_t *job)
{
    struct event_base *base = wu_progress_base(job->progress);
    fork_job_t *fj;
    int rc;

    if (NULL == base || NULL != job->pls_data) {
        return WU_ERR_BAD_PARAM;
    }
    for (uint32_t i = 0; i < job->nprocs; i++) {
        if (NULL != job->procs[i].host) {
            return WU_ERR_TAKE_NEXT; /* another node's process: a remote agent's (rsh) */
        }
    }
    if (NULL == (fj = calloc(1, sizeof *fj)) ||
        NULL == (fj->procs = calloc(job->nprocs, sizeof *fj->procs))) {
        free(fj);
        return WU_ERR_NOMEM;
    }
    job->pls_data = fj;
    for (uint32_t i = 0; i < job->nprocs; i++) {
        fj->procs[i] = (fork_proc_t){.job = job, .proc = &job->procs[i]};
        fj->procs[i].out.fd = fj->procs[i].err.fd = fj->procs[i].pidfd = -1;
        job->procs[i].pls_data = &fj->procs[i];
    }
    /* SIGCHLD is watched before the first fork, so no end goes unnoticed */
    fj->sigchld = evsignal_new(base, SIGCHLD, sigchld_cb, job);
    if (NULL == fj->sigchld || 0 != event_add(fj->sigchld, NULL)) {
        return WU_ERR_OUT_OF_RESOURCE; /* release_job frees fj */
    }
    rc = wu_pls_fork_launch(job);
    if (WU_SUCCESS == rc && fj->nalive > 0) {
        fj->poll = wu_progress_timer(job->progress, POLL_INTERVAL, poll_cb, job);
    }
    return rc;
}

static bool valid_signal(int sig)
{
    return sig >= 0 && sig < NSIG;
}

/* Signal every running process's group once. */
static int signal_groups(wu_pls_job_t *job, int sig)
{
    fork_job_t *fj = job->pls_data;
    for (uint32_t i = 0; NULL != fj && i < job->nprocs; i++) {
        fork_proc_t *fp = &fj->procs[i];
        bool seen = false;
        if (0 == fp->proc->pid || fp->reaped) {
            continue;
        }
        for (uint32_t j = 0; j < i && !seen; j++) {
            seen = 0 != fj->procs[j].proc->pid && !fj->procs[j].reaped &&
                   fj->procs[j].pgid == fp->pgid;
        }
        if (!seen && fp->pgid > 1) {
            /* the group exists: one of its members is our unreaped child */
            (void)kill(-fp->pgid, sig);
        }
        /* and the process itself if it left the group (once only: a program may count its
         * signals) */
        if (fp->pgid <= 1 || getpgid(fp->proc->pid) != fp->pgid) {
            (void)kill(fp->proc->pid, sig);
        }
    }
    return WU_SUCCESS;
}

static int fork_signal_job(wu_pls_job_t *job, int sig)
{
    if (!valid_signal(sig)) {
        return WU_ERR_BAD_PARAM;
    }
    return signal_groups(job, sig);
}

static int fork_signal_proc(wu_pls_job_t *job, wu_pls_proc_t *proc, int sig)
{
    fork_proc_t *fp = proc->pls_data;
    (void)job;
    if (!valid_signal(sig)) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == fp || 0 == proc->pid || fp->reaped) {
        return WU_ERR_NOT_FOUND;
    }
    return 0 == kill(proc->pid, sig) ? WU_SUCCESS : wu_status_from_errno(errno);
}

static void grace_cb(void *arg)
{
    wu_pls_job_t *job = arg;
    fork_job_t *fj = job->pls_data;
    wu_progress_timer_cancel(fj->grace);
    fj->grace = NULL;
    if (fj->kill_all) {
        signal_groups(job, SIGKILL);
    }
    for (uint32_t i = 0; i < job->nprocs; i++) {
        fork_proc_t *fp = &fj->procs[i];
        if (fp->kill_asked && 0 != fp->proc->pid && !fp->reaped) {
            (void)kill(fp->proc->pid, SIGKILL);
        }
    }
}

static void arm_grace(wu_pls_job_t *job, double timeout)
{
    fork_job_t *fj = job->pls_data;
    if (NULL != fj->grace) {
        return; /* one is pending; the earlier deadline stands */
    }
    if (timeout <= 0) {
        timeout = wu_pls_fork_term_grace;
    }
    fj->grace = wu_progress_timer(job->progress, timeout, grace_cb, job);
    if (NULL == fj->grace) {
        grace_cb(job); /* cannot wait: kill now */
    }
}

static int fork_terminate_job(wu_pls_job_t *job, double timeout)
{
    fork_job_t *fj = job->pls_data;
    job->terminating = true;
    if (NULL == fj || 0 == fj->nalive) {
        return WU_SUCCESS;
    }
    fj->kill_all = true;
    signal_groups(job, SIGTERM);
    signal_groups(job, SIGCONT); /* a stopped process must run to act on SIGTERM */
    arm_grace(job, timeout);
    return WU_SUCCESS;
}

static int fork_terminate_proc(wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    fork_proc_t *fp = proc->pls_data;
    if (NULL == fp || 0 == proc->pid || fp->reaped) {
        return WU_SUCCESS; /* nothing runs */
    }
    fp->kill_asked = true;
    (void)kill(proc->pid, SIGTERM);
    (void)kill(proc->pid, SIGCONT);
    arm_grace(job, 0);
    return WU_SUCCESS;
}

static int fork_terminate_daemons(wu_pls_job_t *job, double timeout)
{
    (void)job;
    (void)timeout;
    return WU_SUCCESS; /* no daemons */
}

static int fork_cancel_operation(void)
{
    return WU_SUCCESS; /* every operation completes before it returns */
}

static void fork_release_job(wu_pls_job_t *job)
{
    fork_job_t *fj = job->pls_data;
    if (NULL == fj) {
        return;
    }
    /* whatever still runs is killed and reaped, blocking: SIGKILL cannot be refused */
    for (uint32_t i = 0; i < job->nprocs; i++) {
        fork_proc_t *fp = &fj->procs[i];
        if (0 != fp->proc->pid && !fp->reaped) {
            int status = 0;
            pid_t r;
            if (fp->pgid > 1) { /* never kill(-1): that is every process we may signal */
                (void)kill(-fp->pgid, SIGKILL);
            }
            (void)kill(fp->proc->pid, SIGKILL);
            do {
                r = waitpid(fp->proc->pid, &status, 0);
            } while (r < 0 && EINTR == errno);
            fp->reaped = true;
            fp->proc->wait_status = status;
            fp->proc->state = WU_PLS_PROC_EXITED;
        }
        unwatch_exit(fp);
        close_stream(&fp->out);
        close_stream(&fp->err);
        fp->proc->pls_data = NULL;
    }
    wu_progress_timer_cancel(fj->poll);
    wu_progress_timer_cancel(fj->grace);
    if (NULL != fj->sigchld) {
        event_del(fj->sigchld);
        event_free(fj->sigchld);
    }
    free(fj->procs);
    free(fj);
    job->pls_data = NULL;
}

static void fork_hold_output(wu_pls_job_t *job, int stream, bool hold)
{
    fork_job_t *fj = job->pls_data;
    for (uint32_t i = 0; NULL != fj && i < job->nprocs; i++) {
        fork_stream_t *s = WU_PLS_STDOUT == stream ? &fj->procs[i].out : &fj->procs[i].err;
        if (s->held == hold) {
            continue;
        }
        s->held = hold;
        if (NULL != s->ev) {
            if (hold) {
                event_del(s->ev);
            } else {
                (void)event_add(s->ev, NULL);
            }
        }
    }
}

static void fork_finalize(void)
{
}

static const wu_pls_module_t fork_module = {
    .launch_job = fork_launch_job,
    .terminate_job = fork_terminate_job,
    .terminate_daemons = fork_terminate_daemons,
    .terminate_proc = fork_terminate_proc,
    .signal_job = fork_signal_job,
    .signal_proc = fork_signal_proc,
    .cancel_operation = fork_cancel_operation,
    .release_job = fork_release_job,
    .hold_output = fork_hold_output,
    .finalize = fork_finalize,
};

static const wu_mca_param_t fork_params[] = {
    WU_PARAM_INT_RANGE("term_grace", &wu_pls_fork_term_grace, 0, 3600, WU_INFO_LVL_4,
                       "Seconds between SIGTERM and SIGKILL when a job is terminated"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pls, fork, .priority = 10, .params = fork_params,
                 .description = "Starts the processes of a job as children (one node)",
                 .module = &fork_module);
