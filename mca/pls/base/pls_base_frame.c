/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_base_frame.c -- the pls framework declaration, job records and the thread-shifted entry
 * points that call the job's module on its progress thread (the first module, in priority
 * order, that does not pass the launch on). */
#include "mca/pls/pls.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_argv.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

WU_MCA_FRAMEWORK(pls, "Process launch: start, signal and stop the processes of a job",
                 WU_MCA_SELECT_ALL);

int wu_pls_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_pls_framework);
}

void wu_pls_base_close(void)
{
    /* the last close finalizes the modules */
    if (1 == wu_mca_pls_framework.refcount) {
        for (size_t i = 0; i < wu_mca_pls_framework.nactive; i++) {
            const wu_pls_module_t *m = wu_mca_active_module(&wu_mca_pls_framework, i);
            if (NULL != m->finalize) {
                m->finalize();
            }
        }
    }
    wu_mca_framework_close(&wu_mca_pls_framework);
}

const wu_pls_module_t *wu_pls_base_module(void)
{
    if (wu_mca_pls_framework.refcount <= 0) {
        return NULL;
    }
    return wu_mca_active_module(&wu_mca_pls_framework, 0);
}

const char *wu_pls_base_component_name(const wu_pls_job_t *job)
{
    const void *m = NULL != job && job->launched ? job->module : NULL;
    if (wu_mca_pls_framework.refcount <= 0 || 0 == wu_mca_pls_framework.nactive) {
        return NULL;
    }
    for (size_t i = 0; NULL != m && i < wu_mca_pls_framework.nactive; i++) {
        if (wu_mca_active_module(&wu_mca_pls_framework, i) == m) {
            return wu_mca_pls_framework.active[i]->component->name;
        }
    }
    return wu_mca_pls_framework.active[0]->component->name;
}

const wu_pls_module_t *wu_pls_base_next_module(const wu_pls_module_t *m)
{
    for (size_t i = 0; i + 1 < wu_mca_pls_framework.nactive; i++) {
        if (wu_mca_active_module(&wu_mca_pls_framework, i) == m) {
            return wu_mca_active_module(&wu_mca_pls_framework, i + 1);
        }
    }
    return NULL;
}

int wu_pls_base_launch_next(const wu_pls_module_t *m, wu_pls_job_t *job)
{
    int rc = WU_ERR_TAKE_NEXT;
    for (const wu_pls_module_t *n = wu_pls_base_next_module(m); NULL != n && WU_ERR_TAKE_NEXT == rc;
         n = wu_pls_base_next_module(n)) {
        job->runner = n;
        rc = n->launch_job(job);
    }
    if (WU_SUCCESS != rc) {
        job->runner = NULL;
    }
    return WU_ERR_TAKE_NEXT == rc ? WU_ERR_NOT_SUPPORTED : rc;
}

int wu_pls_base_launch_remote(const wu_pls_module_t *m, wu_pls_job_t *job, wu_pls_remote_cmd_fn cmd)
{
    bool remote = false;
    int rc = WU_SUCCESS;

    for (uint32_t i = 0; i < job->nprocs; i++) {
        remote = remote || NULL != job->procs[i].host;
    }
    if (!remote) {
        return WU_ERR_TAKE_NEXT; /* this node's processes are not the component's */
    }
    if (NULL == wu_pls_base_next_module(m)) {
        return WU_ERR_NOT_SUPPORTED; /* nothing to run the commands with */
    }
    for (uint32_t i = 0; i < job->nprocs && WU_SUCCESS == rc; i++) {
        wu_pls_proc_t *p = &job->procs[i];
        char **av = NULL;
        if (NULL == p->host) {
            return WU_ERR_BAD_PARAM; /* a job runs here or elsewhere, not both */
        }
        if (WU_SUCCESS == (rc = cmd(job, p, &av))) {
            wu_argv_free(p->argv);
            p->argv = av;
            free(p->host); /* it is in the command now */
            p->host = NULL;
        }
    }
    if (WU_SUCCESS == rc) {
        /* the job's program, which launch failures name: the command */
        char **jav = wu_argv_copy((char *const[]){job->procs[0].argv[0], NULL});
        rc = NULL != jav ? WU_SUCCESS : WU_ERR_NOMEM;
        if (WU_SUCCESS == rc) {
            wu_argv_free(job->argv);
            job->argv = jav;
        }
    }
    return WU_SUCCESS == rc ? wu_pls_base_launch_next(m, job) : rc;
}

#define RUNNER_OR_FAIL(var)                   \
    const wu_pls_module_t *var = job->runner; \
    if (NULL == var) {                        \
        return WU_ERR_INIT;                   \
    }

int wu_pls_fwd_terminate_job(wu_pls_job_t *job, double timeout)
{
    RUNNER_OR_FAIL(r)
    return r->terminate_job(job, timeout);
}

int wu_pls_fwd_terminate_proc(wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    RUNNER_OR_FAIL(r)
    return r->terminate_proc(job, proc);
}

int wu_pls_fwd_signal_job(wu_pls_job_t *job, int sig)
{
    RUNNER_OR_FAIL(r)
    return r->signal_job(job, sig);
}

int wu_pls_fwd_signal_proc(wu_pls_job_t *job, wu_pls_proc_t *proc, int sig)
{
    RUNNER_OR_FAIL(r)
    return r->signal_proc(job, proc, sig);
}

int wu_pls_fwd_terminate_daemons(wu_pls_job_t *job, double timeout)
{
    return wu_pls_fwd_terminate_job(job, timeout); /* the commands stand for the daemons */
}

int wu_pls_fwd_cancel_operation(void)
{
    return WU_SUCCESS; /* a command's start is not an operation to cancel */
}

void wu_pls_fwd_release_job(wu_pls_job_t *job)
{
    const wu_pls_module_t *r = job->runner;
    if (NULL != r) {
        r->release_job(job);
    }
}

void wu_pls_fwd_hold_output(wu_pls_job_t *job, int stream, bool hold)
{
    const wu_pls_module_t *r = job->runner;
    if (NULL != r && NULL != r->hold_output) {
        r->hold_output(job, stream, hold);
    }
}

int wu_pls_base_allocation(wu_pls_node_t **nodes, uint32_t *n, char **why)
{
    *nodes = NULL;
    *n = 0;
    *why = NULL;
    for (size_t i = 0; wu_mca_pls_framework.refcount > 0 && i < wu_mca_pls_framework.nactive; i++) {
        const wu_pls_module_t *m = wu_mca_active_module(&wu_mca_pls_framework, i);
        if (NULL != m->allocation) {
            return m->allocation(nodes, n, why);
        }
    }
    return WU_ERR_NOT_FOUND;
}

void wu_pls_nodes_free(wu_pls_node_t *nodes, uint32_t n)
{
    for (uint32_t i = 0; NULL != nodes && i < n; i++) {
        free(nodes[i].name);
    }
    free(nodes);
}

bool wu_pls_base_flat(void)
{
    const wu_pls_module_t *m = wu_pls_base_module();
    return NULL != m && m->flat;
}

wu_pls_job_t *wu_pls_job_new(const char *nspace, uint32_t nprocs, char *const argv[],
                             wu_progress_t *progress)
{
    wu_pls_job_t *job;
    if (0 == nprocs || NULL == argv || NULL == argv[0] || '\0' == argv[0][0] || NULL == progress) {
        return NULL;
    }
    if (NULL == (job = calloc(1, sizeof *job))) {
        return NULL;
    }
    job->nspace = strdup(NULL != nspace ? nspace : "");
    job->argv = wu_argv_copy(argv);
    job->procs = calloc(nprocs, sizeof *job->procs);
    if (NULL == job->nspace || NULL == job->argv || NULL == job->procs) {
        free(job->nspace);
        wu_argv_free(job->argv);
        free(job->procs);
        free(job);
        return NULL;
    }
    job->nprocs = nprocs;
    job->progress = progress;
    for (uint32_t i = 0; i < nprocs; i++) {
        job->procs[i].rank = i;
        job->procs[i].stdin_fd = -1;
        job->procs[i].keep_fd = -1;
    }
    return job;
}

/* --- thread shift ---------------------------------------------------------------------------- */

typedef enum {
    OP_LAUNCH,
    OP_TERM_JOB,
    OP_TERM_DAEMONS,
    OP_TERM_PROC,
    OP_SIG_JOB,
    OP_SIG_PROC,
    OP_RELEASE
} op_kind_t;

typedef struct {
    op_kind_t kind;
    wu_pls_job_t *job;
    const wu_pls_module_t *module;
    uint32_t rank;
    int sig;
    double timeout;
} op_t;

/* A daemon job's secret on its processes' standard input, for a module m that does not hand
 * it itself: before the launch every process is given one (ask), after it the secret is
 * written there as a line and the input closed. A process that is gone already (its pipe
 * broken) says why when it ends. */
static void secret_stdin(wu_pls_job_t *job, const wu_pls_module_t *m, bool ask)
{
    size_t len = NULL != job->secret ? strlen(job->secret) : 0;
    for (uint32_t i = 0; NULL != job->secret && !m->hands_secret && i < job->nprocs; i++) {
        wu_pls_proc_t *p = &job->procs[i];
        if (ask) {
            p->want_stdin = true;
            continue;
        }
        if (p->stdin_fd >= 0 && ((ssize_t)len != write(p->stdin_fd, job->secret, len) ||
                                 1 != write(p->stdin_fd, "\n", 1))) {
            /* its end tells */
        }
        wu_pls_close_stdin(job, i);
    }
}

static int run_op(op_t *op)
{
    const wu_pls_module_t *m = op->module;
    wu_pls_job_t *job = op->job;
    switch (op->kind) {
    case OP_LAUNCH: {
        int rc = WU_ERR_NOT_SUPPORTED;
        if (job->launched) {
            return WU_ERR_EXISTS;
        }
        job->launched = true;
        /* the modules in priority order, from m, until one takes the job */
        for (size_t i = 0; i < wu_mca_pls_framework.nactive; i++) {
            const wu_pls_module_t *mi = wu_mca_active_module(&wu_mca_pls_framework, i);
            if (NULL != m && mi != m) {
                continue;
            }
            m = NULL;
            job->module = mi;
            secret_stdin(job, mi, true);
            if (WU_ERR_TAKE_NEXT != (rc = mi->launch_job(job))) {
                if (WU_SUCCESS == rc) {
                    secret_stdin(job, mi, false);
                }
                return rc;
            }
        }
        job->module = NULL;
        return WU_ERR_TAKE_NEXT == rc ? WU_ERR_NOT_SUPPORTED : rc;
    }
    case OP_TERM_JOB:
        return m->terminate_job(job, op->timeout);
    case OP_TERM_DAEMONS:
        return m->terminate_daemons(job, op->timeout);
    case OP_TERM_PROC:
        return m->terminate_proc(job, &job->procs[op->rank]);
    case OP_SIG_JOB:
        return m->signal_job(job, op->sig);
    case OP_SIG_PROC:
        return m->signal_proc(job, &job->procs[op->rank], op->sig);
    case OP_RELEASE:
        m->release_job(job);
        return WU_SUCCESS;
    }
    return WU_ERR_BAD_PARAM;
}

static void shifted_op(wu_wait_call_t *call)
{
    wu_wait_call_done(call, run_op(call->cbdata));
}

/* Run op on the job's progress thread. The wait has no time limit: every module operation
 * finishes on its own (a launch waits only for exec in each child, which ends in exec or
 * _exit); the processes' ends are reported later through callbacks, never waited for here. */
static int do_op(op_t *op)
{
    if (NULL == op->job) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == op->module) {
        op->module = NULL != op->job->module ? op->job->module : wu_pls_base_module();
    }
    if (NULL == op->module) {
        return WU_ERR_INIT;
    }
    if ((OP_TERM_PROC == op->kind || OP_SIG_PROC == op->kind) && op->rank >= op->job->nprocs) {
        return WU_ERR_BAD_PARAM;
    }
    if (OP_LAUNCH != op->kind && OP_RELEASE != op->kind && !op->job->launched) {
        return WU_ERR_INIT;
    }
    if (wu_progress_in_thread(op->job->progress)) {
        return run_op(op);
    }
    return wu_progress_shift_wait(op->job->progress, shifted_op, op, 0);
}

int wu_pls_launch_job(wu_pls_job_t *job)
{
    op_t op = {.kind = OP_LAUNCH, .job = job, .module = wu_pls_base_module()};
    return do_op(&op);
}

int wu_pls_terminate_job(wu_pls_job_t *job, double timeout)
{
    op_t op = {.kind = OP_TERM_JOB, .job = job, .timeout = timeout};
    return do_op(&op);
}

int wu_pls_terminate_daemons(wu_pls_job_t *job, double timeout)
{
    op_t op = {.kind = OP_TERM_DAEMONS, .job = job, .timeout = timeout};
    return do_op(&op);
}

int wu_pls_terminate_proc(wu_pls_job_t *job, uint32_t rank)
{
    op_t op = {.kind = OP_TERM_PROC, .job = job, .rank = rank};
    return do_op(&op);
}

int wu_pls_signal_job(wu_pls_job_t *job, int sig)
{
    op_t op = {.kind = OP_SIG_JOB, .job = job, .sig = sig};
    return do_op(&op);
}

int wu_pls_signal_proc(wu_pls_job_t *job, uint32_t rank, int sig)
{
    op_t op = {.kind = OP_SIG_PROC, .job = job, .rank = rank, .sig = sig};
    return do_op(&op);
}

int wu_pls_cancel_operation(void)
{
    const wu_pls_module_t *m = wu_pls_base_module();
    if (NULL == m) {
        return WU_ERR_INIT;
    }
    return NULL != m->cancel_operation ? m->cancel_operation() : WU_SUCCESS;
}

void wu_pls_close_stdin(wu_pls_job_t *job, uint32_t rank)
{
    if (NULL != job && rank < job->nprocs && job->procs[rank].stdin_fd >= 0) {
        close(job->procs[rank].stdin_fd);
        job->procs[rank].stdin_fd = -1;
    }
}

void wu_pls_hold_output(wu_pls_job_t *job, int stream, bool hold)
{
    const wu_pls_module_t *m = NULL != job ? job->module : NULL;
    if (NULL != m && NULL != m->hold_output) {
        m->hold_output(job, stream, hold);
    }
}

void wu_pls_job_free(wu_pls_job_t *job)
{
    if (NULL == job) {
        return;
    }
    if (job->launched && NULL != job->module) {
        op_t op = {.kind = OP_RELEASE, .job = job};
        (void)do_op(&op);
    }
    for (uint32_t i = 0; i < job->nprocs; i++) {
        wu_argv_free(job->procs[i].env);
        wu_argv_free(job->procs[i].argv);
        wu_argv_free(job->procs[i].remote_env);
        free(job->procs[i].host);
        free(job->procs[i].cwd);
        free(job->procs[i].cpus);
        if (job->procs[i].stdin_fd >= 0) {
            close(job->procs[i].stdin_fd);
        }
    }
    free(job->procs);
    wu_argv_free(job->argv);
    free(job->cwd);
    free(job->prefix);
    free(job->secret);
    free(job->nspace);
    free(job);
}

/* --- for components -------------------------------------------------------------------------- */

void wu_pls_base_proc_started(wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    WU_MCA_VERBOSE(&wu_mca_pls_framework, WU_VERB_TRACE, "pls:base: %s rank %u started, pid %d",
                   job->nspace, proc->rank, (int)proc->pid);
    if (NULL != job->cb.started) {
        job->cb.started(job, proc);
    }
}

void wu_pls_base_proc_failed(wu_pls_job_t *job, wu_pls_proc_t *proc, const char *why)
{
    WU_MCA_VERBOSE(&wu_mca_pls_framework, WU_VERB_TRACE, "pls:base: %s rank %u failed: %s",
                   job->nspace, proc->rank, NULL != why ? why : "?");
    if (NULL != job->cb.failed && NULL != why) {
        job->cb.failed(job, proc, why);
    }
}

void wu_pls_base_proc_ended(wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    WU_MCA_VERBOSE(&wu_mca_pls_framework, WU_VERB_TRACE,
                   "pls:base: %s rank %u ended (state %d, wait status 0x%x)", job->nspace,
                   proc->rank, (int)proc->state, (unsigned)proc->wait_status);
    job->nended++;
    if (NULL != job->cb.exited) {
        job->cb.exited(job, proc);
    }
    if (job->nended == job->nprocs && NULL != job->cb.done) {
        job->cb.done(job);
    }
}
