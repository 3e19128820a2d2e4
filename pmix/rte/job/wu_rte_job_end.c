/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_job_end.c -- how a job ends: its processes' ends and the exit rules that decide the
 * job's status (wu_rte.h), failing and terminating the job on every node, the launcher's
 * signals (wu_rte_interrupt), and the observers that hear of ends (wu_rte_job_observe). */
#include "pmix/rte/job/wu_rte_job_int.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_time.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static atomic_int pending_interrupt = 0; /* a signal that came before the job started */
static const rte_job_observer_t *observers[WU_RTE_OBSERVERS_MAX];
static size_t nobservers = 0;

/* Call member of every observer that has one, in the order they were added, with the
 * arguments that follow. */
#define TELL(member, ...)                            \
    do {                                             \
        for (size_t i_ = 0; i_ < nobservers; i_++) { \
            if (NULL != observers[i_]->member) {     \
                observers[i_]->member(__VA_ARGS__);  \
            }                                        \
        }                                            \
    } while (0)

int wu_rte_job_observe(const rte_job_observer_t *obs)
{
    if (nobservers == WU_RTE_OBSERVERS_MAX) {
        return WU_ERR_OUT_OF_RESOURCE;
    }
    observers[nobservers++] = obs;
    return WU_SUCCESS;
}

/* --- the job's end --------------------------------------------------------------------------- */

/* Terminate the job's processes on every node (once). */
static void terminate_all(rte_job_t *job)
{
    if (job->terminating) {
        return;
    }
    job->terminating = true;
    if (NULL != job->pls) {
        (void)wu_pls_terminate_job(job->pls, 0);
    }
    if (NULL != job->role && NULL != job->role->terminate) {
        job->role->terminate(job);
    }
    wu_rte_job_started_check(job); /* nobody waits for a start any more */
}

/* Deliver sig to the job's processes on every node. */
static void signal_all(rte_job_t *job, int sig)
{
    if (NULL != job->pls) {
        (void)wu_pls_signal_job(job->pls, sig);
    }
    if (NULL != job->role && NULL != job->role->signal) {
        job->role->signal(job, sig);
    }
}

const char *wu_rte_rank_host(const rte_job_t *job, uint32_t rank)
{
    if (NULL == job->map || rank >= job->np) {
        return wu_rte_hostname;
    }
    return job->map->nodes[job->map->procs[rank].node].name;
}

void wu_rte_job_fail(rte_job_t *job, int status)
{
    bool first = !job->terminating;
    if (!job->status_set) {
        job->status_set = true;
        job->status = status;
    }
    terminate_all(job);
    if (!first) {
        return; /* what it ends was ended the first time */
    }
    TELL(job_failed, job, status);
}

static rte_job_t *(*find_other)(const char *nspace) = NULL;

void wu_rte_job_set_finder(rte_job_t *(*find)(const char *nspace))
{
    find_other = find;
}

rte_job_t *wu_rte_job_find(const char *nspace)
{
    if (NULL != wu_rte_job && PMIX_CHECK_NSPACE(wu_rte_job->nspace, nspace)) {
        return wu_rte_job;
    }
    return NULL != find_other ? find_other(nspace) : NULL;
}

int wu_rte_exec_status(int err)
{
    return ENOENT == err || ENOTDIR == err ? WU_PLS_EXIT_NOT_FOUND : WU_PLS_EXIT_CANNOT_RUN;
}

/* Why an exec failed, for exec-failed: strerror, and for E2BIG the limits that were passed. */
const char *wu_rte_exec_reason(int err, char *buf, size_t len)
{
    if (E2BIG == err) {
        snprintf(buf, len,
                 "%s (execve takes at most %ld bytes of arguments and environment together, "
                 "and at most %d in one of them)",
                 strerror(err), sysconf(_SC_ARG_MAX), WU_EXEC_STRING_MAX);
        return buf;
    }
    return strerror(err);
}

bool wu_rte_job_on_output(wu_pls_job_t *pls, wu_pls_proc_t *proc, int stream, const char *data,
                          size_t len)
{
    rte_job_t *job = pls->user;
    uint32_t rank = job->lranks[proc->rank];
    if (NULL != job->role && NULL != job->role->output) {
        job->role->output(job, rank, stream, data, len);
        return true;
    }
    return wu_rte_iof_output(job, rank, stream, data, len);
}

/* The program rank runs (for messages). */
static const char *rank_prog(const rte_job_t *job, uint32_t rank)
{
    return job->app->ctx[job->procs[rank].ctx].argv[0];
}

/* The exit status a process's end gives the job, or -1 when its end is no failure. With say,
 * also tell the user why. */
static int proc_failure(rte_job_t *job, const rte_proc_t *rp, bool say)
{
    int st = rp->wait_status;
    const char *host = wu_rte_rank_host(job, rp->rank);
    if (rp->ordered_end) {
        return -1; /* ended at a PMIx_Job_control request (wu_rte_jobctl.c) */
    }
    if (WU_PLS_PROC_FAILED == rp->state) {
        if (say) {
            char why[256];
            wu_rte_say("exec-failed", wu_rte_tool, rank_prog(job, rp->rank), host,
                       wu_rte_exec_reason(rp->exec_errno, why, sizeof why));
        }
        return wu_rte_exec_status(rp->exec_errno);
    }
    if (WIFSIGNALED(st)) {
        /* a death by the signal the user sent us needs no explanation */
        if (say && WTERMSIG(st) != job->forwarded_sig) {
            wu_rte_say("proc-signaled", wu_rte_tool, rp->rank, (int)rp->pid, host, WTERMSIG(st),
                       strsignal(WTERMSIG(st)));
        }
        return 128 + WTERMSIG(st);
    }
    if (WIFEXITED(st) && 0 != WEXITSTATUS(st)) {
        if (say) {
            wu_rte_say("proc-exited", wu_rte_tool, rp->rank, (int)rp->pid, host, WEXITSTATUS(st));
        }
        return WEXITSTATUS(st);
    }
    if (atomic_load(&rp->connected) && !atomic_load(&rp->finalized)) {
        if (say) {
            wu_rte_say("no-finalize", wu_rte_tool, rp->rank, (int)rp->pid, host);
        }
        return WU_RTE_EXIT_NO_FINALIZE;
    }
    return -1;
}

/* The job's status is rank's failure. */
static void decide(rte_job_t *job, uint32_t rank)
{
    wu_rte_job_fail(job, proc_failure(job, &job->procs[rank], true));
}

/* The process, not reaped yet, whose PMIx connection ended unfinalized before rank's did (or at
 * all, when rank's did not): it failed first. NULL when there is none. */
static rte_proc_t *failed_earlier(rte_job_t *job, uint32_t rank)
{
    unsigned mine = atomic_load(&job->procs[rank].lost_seq), best = 0;
    rte_proc_t *found = NULL;
    for (uint32_t r = 0; r < job->np; r++) {
        unsigned seq = atomic_load(&job->procs[r].lost_seq);
        if (r != rank && !job->procs[r].exited && !job->procs[r].ordered_end && 0 != seq &&
            (0 == mine || seq < mine) && (0 == best || seq < best)) {
            best = seq;
            found = &job->procs[r];
        }
    }
    return found;
}

void wu_rte_proc_ended(rte_job_t *job, rte_proc_t *rp)
{
    rte_proc_t *first;
    bool terminated_by_us;
    pmix_proc_t proc;

    rp->exited = true;
    if (NULL != job->role && NULL != job->role->proc_ended) {
        job->role->proc_ended(job, rp->rank);
    }
    wu_rte_job_started_check(job); /* an end counts as a start for spawn's answer */
    PMIX_LOAD_PROCID(&proc, job->nspace, rp->rank);
    TELL(proc_ended, &proc);
    if (job->status_set) {
        return; /* the job is ending already; later ends do not change its status */
    }
    if (WU_PLS_PROC_FAILED == rp->state && proc_failure(job, rp, false) >= 0) {
        /* a process that could not be started failed first, whatever ended meanwhile (a peer
         * whose fence it left failing): its failure decides, also over a pending one */
        decide(job, rp->rank);
        return;
    }
    if (job->have_pending && rp->rank == job->wait_rank) {
        /* the process that failed first has ended: its failure decides, unless it is only
         * the terminate that the pending failure started */
        terminated_by_us =
            WU_PLS_PROC_EXITED == rp->state && WIFSIGNALED(rp->wait_status) &&
            (SIGTERM == WTERMSIG(rp->wait_status) || SIGKILL == WTERMSIG(rp->wait_status));
        decide(job, !terminated_by_us && proc_failure(job, rp, false) >= 0 ? rp->rank
                                                                           : job->pending_rank);
        return;
    }
    if (proc_failure(job, rp, false) < 0) {
        return;
    }
    if (!job->have_pending && NULL != (first = failed_earlier(job, rp->rank))) {
        /* A peer lost its connection first: this failure is likely its consequence (a fence
         * failed). End the job now, but let the peer's end give the status. */
        job->have_pending = true;
        job->pending_rank = rp->rank;
        job->wait_rank = first->rank;
        terminate_all(job);
        return;
    }
    if (!job->have_pending) {
        decide(job, rp->rank);
    }
}

void wu_rte_job_on_exited(wu_pls_job_t *pls, wu_pls_proc_t *proc)
{
    rte_job_t *job = pls->user;
    rte_proc_t *rp = &job->procs[job->lranks[proc->rank]];

    TELL(local_exited, job, proc->rank);
    rp->state = proc->state;
    rp->wait_status = proc->wait_status;
    rp->exec_errno = proc->exec_errno;
    rp->pid = proc->pid;
    if (NULL != job->role && NULL != job->role->exited) {
        rp->exited = true;
        job->role->exited(job, rp); /* (a daemon: the head decides what its end means) */
        return;
    }
    wu_rte_proc_ended(job, rp);
}

void wu_rte_job_check_done(rte_job_t *job)
{
    if (!job->local_done || job->done_released ||
        (NULL != job->role && NULL != job->role->remote_done && !job->role->remote_done(job))) {
        return;
    }
    if (!job->status_set && job->have_pending) {
        decide(job, job->pending_rank); /* the earlier process never ended as a failure */
    }
    job->done_released = true;
    wu_wait_release(&job->done, WU_SUCCESS);
}

void wu_rte_job_on_done(wu_pls_job_t *pls)
{
    rte_job_t *job = pls->user;
    job->local_done = true;
    if (NULL != job->role && NULL != job->role->local_done) {
        job->role->local_done(job);
        return;
    }
    wu_rte_job_check_done(job);
}

/* --- interrupts ------------------------------------------------------------------------------ */

/* Seconds within which a second SIGINT (SIGTERM, SIGHUP) ends the job instead of being
 * forwarded again. */
#define SECOND_SIGNAL_WINDOW 5.0

static void interrupt_in_rte(void *arg)
{
    int sig = (int)(intptr_t)arg;
    rte_job_t *job = wu_rte_job;
    double now = wu_time_now();
    if (NULL == job || (NULL == job->pls && (NULL == job->role || NULL == job->role->signal))) {
        if (SIGINT == sig || SIGTERM == sig || SIGHUP == sig) {
            atomic_store(&pending_interrupt, sig);
            wu_rte_iof_interrupt(); /* the job is over: stop waiting for a stuck reader */
        }
        return;
    }
    TELL(job_signalled, job, sig);
    switch (sig) {
    case SIGUSR1:
    case SIGUSR2:
        signal_all(job, sig);
        return;
    case SIGTSTP: /* the job is in process groups of its own: the terminal does not stop it */
        wu_rte_say("suspended", wu_rte_tool);
        signal_all(job, SIGSTOP);
        (void)kill(getpid(), SIGSTOP); /* and we stop as a shell expects; SIGCONT resumes */
        return;
    case SIGCONT:
        signal_all(job, SIGCONT);
        return;
    default:
        break;
    }
    if (job->terminating) {
        signal_all(job, SIGKILL); /* already ending: now at once */
    } else if (0 != job->forwarded_sig && now - job->forwarded_at < SECOND_SIGNAL_WINDOW) {
        wu_rte_say("interrupted", wu_rte_tool, strsignal(sig));
        wu_rte_job_fail(job, 128 + sig);
    } else {
        wu_rte_say("forwarding", wu_rte_tool, strsignal(sig), SECOND_SIGNAL_WINDOW);
        job->forwarded_sig = sig;
        job->forwarded_at = now;
        signal_all(job, sig);
    }
}

void wu_rte_interrupt(int sig)
{
    if (NULL == wu_rte_progress() ||
        WU_SUCCESS !=
            wu_progress_shift(wu_rte_progress(), interrupt_in_rte, (void *)(intptr_t)sig)) {
        atomic_store(&pending_interrupt, sig);
    }
}

int wu_rte_job_pending_interrupt(void)
{
    return atomic_load(&pending_interrupt);
}

void wu_rte_job_tell_finishing(rte_job_t *job)
{
    TELL(job_finishing, job);
}

void wu_rte_job_tell_output_done(rte_job_t *job)
{
    TELL(job_output_done, job);
}

void wu_rte_job_tell_ended(rte_job_t *job)
{
    TELL(job_ended, job);
}

int wu_rte_job_tell_setup(rte_job_t *job)
{
    int rc = WU_SUCCESS;
    for (size_t i = 0; WU_SUCCESS == rc && i < nobservers; i++) {
        if (NULL != observers[i]->job_setup) {
            rc = observers[i]->job_setup(job);
        }
    }
    return rc;
}

int wu_rte_job_tell_proc_setup(rte_job_t *job, uint32_t lidx, struct wu_pmdl_proc *mp)
{
    int rc = WU_SUCCESS;
    for (size_t i = 0; WU_SUCCESS == rc && i < nobservers; i++) {
        if (NULL != observers[i]->proc_setup) {
            rc = observers[i]->proc_setup(job, lidx, mp);
        }
    }
    return rc;
}

void wu_rte_job_tell_launched(rte_job_t *job)
{
    TELL(job_launched, job);
}

void wu_rte_job_tell_released(rte_job_t *job)
{
    TELL(job_released, job);
}

void wu_rte_job_blocked(rte_job_t *job, char ***lines)
{
    TELL(job_blocked, job, lines);
}

/* --- PMIx_Abort and lost connections -------------------------------------------------------- */

/* Longest PMIx_Abort message shown (bytes); a longer one is cut with "...". */
#define ABORT_MSG_MAX 16384

static rte_proc_t *find_proc(const pmix_proc_t *p)
{
    rte_job_t *job = wu_rte_job_find(p->nspace);
    if (NULL == job || p->rank >= job->np) {
        return NULL;
    }
    return &job->procs[p->rank];
}

void wu_rte_job_abort(const pmix_proc_t *proc, int status, const char *umsg)
{
    rte_proc_t *p = find_proc(proc);
    char *msg;
    int st;

    /* the message is the user's (lines and UTF-8 kept), but no terminal control gets
     * through; out of memory, it is left out */
    msg = NULL != umsg ? wu_str_escape_dup(umsg, ABORT_MSG_MAX, WU_ESC_KEEP_NL | WU_ESC_KEEP_UTF8)
                       : NULL;
    wu_rte_say("abort", wu_rte_tool, proc->rank, proc->nspace, status,
               NULL != msg && '\0' != msg[0] ? ": " : "", NULL != msg ? msg : "");
    free(msg);
    /* the exit status keeps the low 8 bits, but a non-zero status never becomes 0 */
    st = status & 0xff;
    if (0 == st && 0 != status) {
        st = 1;
    }
    if (NULL != p) {
        wu_rte_job_fail(wu_rte_job_find(proc->nspace), st);
    }
}

/* The server saw p's connection end without PMIx_Finalize (server thread): remember in which
 * order, so that the process that died first is the one whose status the job gets. */
void wu_rte_proc_lost(rte_proc_t *p)
{
    static atomic_uint seq = 0;
    atomic_store(&p->lost_seq, atomic_fetch_add(&seq, 1) + 1);
}
