/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_job.c -- running one job: set-up, launch through pls, the processes' ends and how
 * they decide the job's exit status (rules in wu_rte.h), interrupts, and the runtime's own
 * init and finalize. */
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_session_dir.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_regex.h"
#include "pmix/server/wu_server_host.h"
#include "pmix/rte/job/wu_rte_job_int.h"
#include "pmix.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

rte_job_t *wu_rte_job = NULL;

static unsigned job_counter = 0;
static int (*remote_start)(rte_job_t *job) = NULL;

void wu_rte_job_set_remote_start(int (*start)(rte_job_t *job))
{
    remote_start = start;
}

/* --- timeout --------------------------------------------------------------------------------- */

static void running_ranks(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    size_t n = 0;
    for (uint32_t r = 0; r < job->np; r++) {
        if (!job->procs[r].exited) {
            job->scratch[n++] = r;
        }
    }
    wu_wait_call_done(call, (int)n);
}

typedef struct {
    rte_job_t *job;
    char ***lines;
} blocked_report_t;

static void blocked_in_rte(wu_wait_call_t *call)
{
    blocked_report_t *r = call->cbdata;
    wu_rte_job_blocked(r->job, r->lines);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* What this node's processes wait for in the services (from the main thread: shifted into the
 * rte thread, where their state lives). */
static void blocked_report(rte_job_t *job, char ***lines)
{
    blocked_report_t r = {.job = job, .lines = lines};
    (void)wu_progress_shift_wait(wu_rte_progress(), blocked_in_rte, &r, 0);
}

/* --timeout ran out (launcher's main thread): the message telling the user which ranks still
 * run and what the server sees them blocked in (malloc'd; NULL when out of memory). */
static char *report_timeout(rte_job_t *job)
{
    char *text;
    char **lines = NULL, *running = NULL, *blocked = NULL;
    int n = wu_progress_shift_wait(wu_rte_progress(), running_ranks, job, 0);
    if (n < 0 || PMIX_SUCCESS != wu_regex_ranks_compress(job->scratch, (size_t)n, &running)) {
        running = NULL;
    }
    (void)wu_server_blocked_report(job->nspace, job->np, &lines);
    blocked_report(job, &lines); /* and in the services (PMI) */
    if (NULL != job->role && NULL != job->role->report) {
        job->role->report(job, &lines); /* the other nodes' servers */
    }
    if (NULL != lines) {
        for (char **l = lines; NULL != *l; l++) {
            char *t = NULL;
            if (WU_SUCCESS == wu_asprintf(&t, "%s  %s\n", NULL != blocked ? blocked : "", *l)) {
                free(blocked);
                blocked = t;
            }
        }
    }
    text = wu_show_help_string(
        "help-wu-rte.txt", "timeout", true, wu_rte_tool, job->app->timeout,
        NULL != running ? running : "?",
        NULL != blocked ? blocked : "  (none is blocked in a PMIx or PMI call the server sees)\n");
    wu_argv_free(lines);
    free(running);
    free(blocked);
    return text;
}

typedef struct {
    rte_job_t *job;
    char *report; /* report_timeout's */
} timeout_arg_t;

/* The report goes out on the rte thread, behind queued output: a stderr nobody reads (2>&1
 * into a stopped reader) must not keep the job from being terminated. */
static void timeout_in_rte(wu_wait_call_t *call)
{
    timeout_arg_t *t = call->cbdata;
    if (NULL != t->report) {
        wu_rte_write_text(STDERR_FILENO, t->report, strlen(t->report));
    }
    wu_rte_job_fail(t->job, WU_RTE_EXIT_TIMEOUT);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* --- set-up ---------------------------------------------------------------------------------- */

/* Contact variables of an enclosing job must not leak into ours. */
static const char *const stale_vars[] = {
    "PMIX_NAMESPACE",     "PMIX_RANK",          WU_PROTO_URI_ENV,     "WU_PSEC_TOKEN",
    "PMIX_SECURITY_MODE", "PMIX_SERVER_TMPDIR", "PMIX_HOSTNAME",      "PMIX_VERSION",
    "PMIX_SERVER_URI",    "PMIX_SERVER_URI2",   "PMIX_SERVER_URI21",  "PMIX_SERVER_URI3",
    "PMIX_SERVER_URI4",   "PMIX_SERVER_URI41",  "PMIX_SYSTEM_TMPDIR", NULL};

/* Put dir first in the LD_LIBRARY_PATH of env (once: an entry already first stays). */
static int prepend_lib_path(const char *dir, char ***env)
{
    const char *old = wu_getenv("LD_LIBRARY_PATH", *env);
    char *val = NULL;
    size_t n = strlen(dir);
    int rc;
    if (NULL != old && 0 == strncmp(old, dir, n) && (':' == old[n] || '\0' == old[n])) {
        return WU_SUCCESS;
    }
    if (NULL == old || '\0' == old[0]) {
        return wu_setenv("LD_LIBRARY_PATH", dir, true, env);
    }
    if (WU_SUCCESS != (rc = wu_asprintf(&val, "%s:%s", dir, old))) {
        return rc;
    }
    rc = wu_setenv("LD_LIBRARY_PATH", val, true, env);
    free(val);
    return rc;
}

/* Set every "NAME=value" of kvs in *env. */
static int set_all(char **kvs, char ***env)
{
    int rc = WU_SUCCESS;
    for (char **kv = kvs; NULL != kv && NULL != *kv && WU_SUCCESS == rc; kv++) {
        char *eq = strchr(*kv, '='), *name;
        if (NULL == eq || NULL == (name = strndup(*kv, (size_t)(eq - *kv)))) {
            return NULL == eq ? WU_ERR_BAD_PARAM : WU_ERR_NOMEM;
        }
        rc = wu_setenv(name, eq + 1, true, env);
        free(name);
    }
    return rc;
}

static int proc_env(rte_job_t *job, const wu_rte_spec_t *app, uint32_t rank, char ***env)
{
    char **e = wu_argv_copy(environ);
    int rc = WU_SUCCESS;
    const wu_rte_ctx_t *ctx = &app->ctx[job->procs[rank].ctx];
    const wu_rte_jm_proc_t *where = &job->map->procs[rank];
    int32_t lidx = job->procs[rank].lidx;
    wu_pmdl_proc_t mp = {.nspace = job->nspace,
                         .argv = ctx->argv,
                         .rank = rank,
                         .job_size = job->np,
                         .univ_size = job->np,
                         .local_rank = where->local_rank,
                         .local_size = job->map->nodes[where->node].nlocal,
                         .node_rank = where->node_rank,
                         .app_num = job->procs[rank].ctx,
                         .num_apps = app->nctx,
                         .app_sizes = job->ctx_size,
                         .app_firsts = job->ctx_first,
                         .oversubscribed = NULL != job->place && job->place->oversubscribed,
                         .bound = job->bind_for_real && NULL != job->pls->procs[lidx].cpus,
                         .spawned = job->spawned,
                         .pmi_fd = -1};
    if (NULL == e && NULL != environ && NULL != environ[0]) {
        return WU_ERR_NOMEM;
    }
    for (const char *const *v = stale_vars; NULL != *v; v++) {
        (void)wu_unsetenv(*v, &e);
    }
    if (!app->keep_lib_path && NULL != wu_rte_libdir()) {
        rc = prepend_lib_path(wu_rte_libdir(), &e);
    }
    /* the services' part (a PMI connection when a model wants one: MPICH's simple PMI) */
    if (WU_SUCCESS == rc) {
        rc = wu_rte_job_tell_proc_setup(job, (uint32_t)lidx, &mp);
    }
    /* the model's variables come before the user's -x and --mca, which may override them */
    if (WU_SUCCESS == rc) {
        rc = wu_pmdl_base_setup_env(&mp, &e);
    }
    if (WU_SUCCESS == rc) {
        rc = set_all(app->env_set, &e);
    }
    if (WU_SUCCESS == rc) {
        rc = set_all(ctx->env_set, &e);
    }
    if (WU_SUCCESS == rc) {
        rc = wu_rte_setup_fork(job, rank, &e);
    }
    if (WU_SUCCESS != rc) {
        wu_argv_free(e);
        return rc;
    }
    *env = e;
    return WU_SUCCESS;
}

static void forget_job(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    wu_rte_job_tell_ended(job);
    if (!job->child) {
        wu_rte_job = NULL;
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

/* After the launch: the head node forwards its stdin (to its own ranks and those of other
 * nodes), wired writes what the head sends to its ranks. */
static void stdin_start(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    if (NULL != job->role && NULL != job->role->launched) {
        job->role->launched(job); /* other nodes learn our ranks' pids (their proc tables) */
    }
    if (NULL != job->role && job->role->stdin_from_head) {
        wu_wait_call_done(call, WU_SUCCESS);
        return;
    }
    wu_wait_call_done(call, wu_rte_stdin_start(job));
}

static void stdin_stop(wu_wait_call_t *call)
{
    wu_rte_stdin_stop(call->cbdata);
    wu_wait_call_done(call, WU_SUCCESS);
}

static void released(wu_wait_call_t *call)
{
    wu_rte_job_tell_released(call->cbdata);
    wu_wait_call_done(call, WU_SUCCESS);
}

static void free_job(rte_job_t *job)
{
    if (!job->child) {
        (void)wu_progress_shift_wait(wu_rte_progress(), stdin_stop, job,
                                     0); /* before the pipes close */
    }
    if (NULL != job->pls) {
        wu_pls_job_free(job->pls); /* kills and reaps whatever still runs */
        job->pls = NULL;
    }
    (void)wu_progress_shift_wait(wu_rte_progress(), released, job, 0);
    if (NULL != job->role && NULL != job->role->stop) {
        job->role->stop(job); /* the other nodes' daemons end, and their processes with them */
    }
    wu_rte_job_tell_finishing(job); /* (the launcher's job: its children end first) */
    if (job->child) {
        /* a child: its lines and files (the launcher's output queues go on) */
        (void)wu_progress_shift_wait(wu_rte_progress(), forget_job, job, 0);
        wu_rte_iof_flush_lines(job);
    } else {
        wu_rte_watch_forget(); /* every process this launcher started is reaped */
        (void)wu_progress_shift_wait(wu_rte_progress(), forget_job, job, 0);
        wu_rte_iof_flush(job);
        wu_rte_job_tell_output_done(job);
    }
    if (NULL != job->map && UINT32_MAX != job->mynode) {
        wu_rte_deregister_job(job);
    }
    wu_wait_destroy(&job->done);
    wu_rte_place_free(job);
    free(job->ctx_first);
    free(job->ctx_size);
    free(job->scratch);
    free(job->lranks);
    free(job->procs);
    free(job);
}

/* Check what to run before anything is made; *np is the job's size. Errors are reported. */
int wu_rte_spec_check(const wu_rte_spec_t *app, uint32_t *np)
{
    *np = 0;
    if (NULL == wu_rte_progress() || NULL == app || 0 == app->nctx || NULL == app->ctx) {
        return WU_ERR_BAD_PARAM;
    }
    for (uint32_t c = 0; c < app->nctx; c++) {
        const wu_rte_ctx_t *ctx = &app->ctx[c];
        if (0 == ctx->np || NULL == ctx->argv || NULL == ctx->argv[0] ||
            ctx->np > UINT16_MAX - *np) { /* local ranks are 16-bit */
            return WU_ERR_BAD_PARAM;
        }
        if (NULL != ctx->cwd && !wu_path_is_dir(ctx->cwd)) {
            wu_rte_say("bad-wdir", wu_rte_tool, ctx->cwd);
            return WU_ERR_SILENT;
        }
        *np += ctx->np;
    }
    if (app->stdin_target >= 0 && (uint32_t)app->stdin_target >= *np) {
        wu_rte_say("bad-stdin-rank", wu_rte_tool, app->stdin_target, *np);
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}

/* The job record: its processes numbered through the contexts, and its namespace (nspace, or
 * a new one when NULL). */
static rte_job_t *job_new(const wu_rte_spec_t *app, uint32_t np, const char *nspace);

rte_job_t *wu_rte_job_new(const wu_rte_spec_t *app, uint32_t np)
{
    return job_new(app, np, NULL);
}

void wu_rte_job_discard(rte_job_t *job)
{
    wu_wait_destroy(&job->done);
    free(job->ctx_first);
    free(job->ctx_size);
    free(job->scratch);
    free(job->procs);
    free(job);
}

static rte_job_t *job_new(const wu_rte_spec_t *app, uint32_t np, const char *nspace)
{
    rte_job_t *job;
    if (NULL == (job = calloc(1, sizeof *job)) ||
        NULL == (job->procs = calloc(np, sizeof *job->procs)) ||
        NULL == (job->scratch = calloc(np, sizeof *job->scratch)) ||
        NULL == (job->ctx_first = calloc(app->nctx, sizeof *job->ctx_first)) ||
        NULL == (job->ctx_size = calloc(app->nctx, sizeof *job->ctx_size))) {
        if (NULL != job) {
            free(job->procs);
            free(job->scratch);
            free(job->ctx_first);
        }
        free(job);
        return NULL;
    }
    wu_wait_init(&job->done);
    job->np = np;
    job->app = app;
    job->jobnum = ++job_counter;
    job->mynode = UINT32_MAX;
    for (uint32_t c = 0, r = 0; c < app->nctx; c++) {
        job->ctx_first[c] = r;
        job->ctx_size[c] = app->ctx[c].np;
        for (uint32_t k = 0; k < app->ctx[c].np; k++, r++) {
            job->procs[r].rank = r;
            job->procs[r].ctx = c;
            job->procs[r].ctx_rank = k;
            job->procs[r].lidx = -1;
            job->procs[r].outfd[0] = job->procs[r].outfd[1] = -1;
        }
    }
    if (NULL != nspace) {
        snprintf(job->nspace, sizeof job->nspace, "%s", nspace);
    } else {
        snprintf(job->nspace, sizeof job->nspace, "%s.%.64s.%d.%u", wu_rte_tool, wu_rte_hostname,
                 (int)getpid(), job->jobnum);
    }
    return job;
}

/* The pls job of this node's processes: each one's program, directory and binding, and our
 * callbacks. No pls job when this node runs none of the job's processes. */
static int pls_prepare(rte_job_t *job)
{
    const wu_rte_spec_t *app = job->app;
    const wu_rte_jm_node_t *me;
    uint32_t first;

    if (UINT32_MAX == job->mynode || 0 == job->map->nodes[job->mynode].nlocal) {
        job->local_done = true;
        return WU_SUCCESS;
    }
    me = &job->map->nodes[job->mynode];
    job->nlocal = me->nlocal;
    if (NULL == (job->lranks = calloc(me->nlocal, sizeof *job->lranks))) {
        return WU_ERR_NOMEM;
    }
    first = me->ranks[0];
    job->pls = wu_pls_job_new(job->nspace, me->nlocal, app->ctx[job->procs[first].ctx].argv,
                              wu_rte_progress());
    if (NULL == job->pls) {
        return WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < me->nlocal; i++) {
        uint32_t r = me->ranks[i];
        const wu_rte_ctx_t *ctx = &app->ctx[job->procs[r].ctx];
        wu_pls_proc_t *pp = &job->pls->procs[i];
        job->lranks[i] = r;
        job->procs[r].lidx = (int32_t)i;
        if (NULL == (pp->argv = wu_argv_copy(ctx->argv)) ||
            (NULL != ctx->cwd && NULL == (pp->cwd = strdup(ctx->cwd)))) {
            return WU_ERR_NOMEM;
        }
        pp->want_stdin =
            WU_RTE_STDIN_ALL == app->stdin_target || (int64_t)r == (int64_t)app->stdin_target;
        if (job->bind_for_real && NULL != job->place &&
            WU_SUCCESS !=
                wu_rte_map_cpulist(job->place, job->map->procs[r].local_rank, &pp->cpus)) {
            return WU_ERR_NOMEM;
        }
    }
    job->pls->user = job;
    job->pls->merge_stderr = app->merge_stderr;
    job->pls->cb = (wu_pls_callbacks_t){
        .output = wu_rte_job_on_output, .exited = wu_rte_job_on_exited, .done = wu_rte_job_on_done};
    return WU_SUCCESS;
}

static void registered_in_rte(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    job->registered = true;
    if (NULL != job->role && NULL != job->role->registered) {
        job->role->registered(job);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Map (unless the map came with the job), this node's pls job, output files, the daemons of
 * the other nodes, the registration with the server, each local process's environment. */
static int job_setup(rte_job_t *job)
{
    int rc;
    if (WU_SUCCESS != (rc = wu_rte_place_job(job)) || WU_SUCCESS != (rc = pls_prepare(job)) ||
        (NULL != job->app->output_dir && WU_SUCCESS != (rc = wu_rte_iof_open_files(job)))) {
        return rc;
    }
    if (!job->child) {
        wu_rte_job = job; /* published to the rte thread by the shifts below */
    }
    if (NULL == job->role && wu_rte_job_remote(job) &&
        (NULL == remote_start || WU_SUCCESS != (rc = remote_start(job)))) {
        return NULL == remote_start ? WU_ERR_NOT_SUPPORTED : rc; /* (sets job->role) */
    }
    if (UINT32_MAX == job->mynode) {
        return WU_SUCCESS; /* nothing runs here: nothing to register */
    }
    if (WU_SUCCESS != (rc = wu_rte_register_job(job))) {
        return rc;
    }
    (void)wu_progress_shift_wait(wu_rte_progress(), registered_in_rte, job, 0);
    if (WU_SUCCESS != (rc = wu_rte_job_tell_setup(job))) {
        return rc;
    }
    for (uint32_t i = 0; i < job->nlocal; i++) {
        if (WU_SUCCESS != (rc = proc_env(job, job->app, job->lranks[i], &job->pls->procs[i].env))) {
            return rc;
        }
    }
    return WU_SUCCESS;
}

static void terminate_if_ending(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    if (job->terminating ||
        (NULL != job->role && NULL != job->role->terminating && job->role->terminating(job))) {
        job->terminating = true;
        (void)wu_pls_terminate_job(job->pls, 0);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

static void launched(wu_wait_call_t *call)
{
    wu_rte_job_tell_launched(call->cbdata);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Start this node's processes; a program that cannot be run is reported with its exit
 * status. */
static int job_launch(rte_job_t *job, int *status)
{
    int rc;
    if (NULL == job->pls) {
        return WU_SUCCESS;
    }
    rc = wu_pls_launch_job(job->pls);
    (void)wu_progress_shift_wait(wu_rte_progress(), launched, job, 0); /* e.g. PMI is served */
    if (WU_SUCCESS == rc) {
        for (uint32_t i = 0; i < job->nlocal; i++) {
            wu_rte_watch_pid(job->pls->procs[i].pid);
        }
        /* the job may have failed on another node while these were being started */
        (void)wu_progress_shift_wait(wu_rte_progress(), terminate_if_ending, job, 0);
        wu_rte_place_report(job);
    } else if ((WU_ERR_NOT_FOUND == rc || WU_ERR_NO_PERMISSIONS == rc) && NULL != job->role &&
               NULL != job->role->launch_failed) {
        job->role->launch_failed(job, job->pls->launch_errno);
        rc = WU_SUCCESS; /* the head node says it, for every node alike */
    } else if (WU_ERR_NOT_FOUND == rc || WU_ERR_NO_PERMISSIONS == rc) {
        char why[256];
        wu_rte_say("exec-failed", wu_rte_tool, job->pls->launch_prog,
                   wu_rte_rank_host(job, job->lranks[0]),
                   wu_rte_exec_reason(job->pls->launch_errno, why, sizeof why));
        *status = wu_rte_exec_status(job->pls->launch_errno);
        rc = WU_ERR_SILENT;
    }
    return rc;
}

static void check_done_in_rte(wu_wait_call_t *call)
{
    wu_rte_job_check_done(call->cbdata);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* The job runs as long as its processes do, or until --timeout (a terminate ends them within
 * the grace period; wrun's signals get here through wu_rte_interrupt). */
static void job_wait(rte_job_t *job)
{
    /* a job without processes here is done when the daemons say so */
    (void)wu_progress_shift_wait(wu_rte_progress(), check_done_in_rte, job, 0);
    /* a signal that arrived during set-up */
    if (0 != wu_rte_job_pending_interrupt()) {
        wu_rte_interrupt(wu_rte_job_pending_interrupt());
    }
    if (job->app->timeout > 0 && WU_ERR_TIMEOUT == wu_wait_for(&job->done, job->app->timeout)) {
        timeout_arg_t t = {.job = job, .report = report_timeout(job)};
        (void)wu_progress_shift_wait(wu_rte_progress(), timeout_in_rte, &t, 0);
        free(t.report);
    }
    (void)wu_wait_for(&job->done, 0);
}

/* Run job (made by job_new) to its end. */
static int run_job(rte_job_t *job, int *status)
{
    const wu_rte_spec_t *app = job->app;
    int rc;

    if (WU_SUCCESS != (rc = job_setup(job))) {
        goto fail;
    }
    if (0 != wu_rte_job_pending_interrupt()) {
        *status = 128 + wu_rte_job_pending_interrupt(); /* interrupted before the start */
        free_job(job);
        return WU_ERR_SILENT;
    }
    if (WU_SUCCESS != (rc = job_launch(job, status))) {
        goto fail;
    }
    /* not fatal: the processes then read end of file */
    (void)wu_progress_shift_wait(wu_rte_progress(), stdin_start, job, 0);
    job_wait(job);
    *status = job->status_set ? job->status : 0;
    free_job(job);
    return WU_SUCCESS;

fail:
    if (WU_ERR_SILENT != rc) {
        wu_show_help("help-wu-rte.txt", "launch-failed", true, wu_rte_tool, app->ctx[0].argv[0],
                     wu_strerror(rc));
        rc = WU_ERR_SILENT;
    }
    free_job(job);
    return rc;
}

/* Has every rank of another node been started (its pid came) or ended? *rc: WU_ERR_NOT_FOUND
 * when a program could not be run there. */
static bool remote_all_seen(const rte_job_t *job, int *rc)
{
    bool all = true;
    *rc = WU_SUCCESS;
    for (uint32_t r = 0; r < job->np; r++) {
        const rte_proc_t *rp = &job->procs[r];
        if (rp->exited && 0 != rp->exec_errno) {
            *rc = WU_ERR_NOT_FOUND;
        }
        all = all && (rp->lidx >= 0 || rp->exited || rp->pid > 0);
    }
    return all;
}

void wu_rte_job_started_check(rte_job_t *job)
{
    int rc;
    if (NULL != job->start_call && (remote_all_seen(job, &rc) || job->terminating)) {
        wu_wait_call_t *call = job->start_call;
        job->start_call = NULL;
        wu_wait_call_done(call, rc);
    }
}

/* rte thread: wait (the call stays pending) until wu_rte_job_started_check completes it. */
static void remote_wait(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    job->start_call = call;
    wu_rte_job_started_check(job);
}

/* rte thread: stop waiting for the remote start (the wait timed out); what is known so far. */
static void remote_forget(wu_wait_call_t *call)
{
    rte_job_t *job = call->cbdata;
    int rc;
    (void)remote_all_seen(job, &rc);
    if (NULL != job->start_call) {
        wu_wait_call_done(job->start_call, rc);
        job->start_call = NULL;
    }
    wu_wait_call_done(call, rc);
}

/* A spawned job with daemons: its requester learns how the start went once every node said
 * (bounded by the daemons' own time to call back: a node that never answers is lost first,
 * and by REMOTE_START_LIMIT seconds). */
#define REMOTE_START_LIMIT 60.0
static int remote_started(rte_job_t *job)
{
    int rc = wu_progress_shift_wait(wu_rte_progress(), remote_wait, job, REMOTE_START_LIMIT);
    if (WU_ERR_TIMEOUT == rc) {
        rc = wu_progress_shift_wait(wu_rte_progress(), remote_forget, job, 0);
    }
    return rc;
}

int wu_rte_run_child(rte_job_t *job, void (*launched)(rte_job_t *job, int rc, void *arg), void *arg)
{
    int status = 1, rc = job_setup(job);
    if (WU_SUCCESS == rc) {
        rc = job_launch(job, &status);
    }
    if (WU_SUCCESS == rc && NULL != job->role && NULL != job->role->remote_done) {
        rc = remote_started(job); /* (the head of a job across nodes) */
    }
    launched(job, rc, arg);
    if (WU_SUCCESS == rc) {
        job_wait(job);
        status = job->status_set ? job->status : 0;
    }
    free_job(job);
    return status;
}

int wu_rte_run(const wu_rte_spec_t *app, int *status)
{
    rte_job_t *job;
    uint32_t np;
    int rc;

    *status = 1;
    if (WU_SUCCESS != (rc = wu_rte_spec_check(app, &np))) {
        return rc;
    }
    if (NULL == (job = job_new(app, np, NULL))) {
        return WU_ERR_NOMEM;
    }
    return run_job(job, status);
}

int wu_rte_run_daemon_job(const wu_rte_spec_t *app, const char *nspace, wu_rte_jobmap_t *map,
                          uint32_t mynode, const pmix_proc_t *parent, const rte_role_t *role,
                          struct rte_daemon *daemon, int *status)
{
    rte_job_t *job;
    uint32_t np = 0;

    *status = 1;
    for (uint32_t c = 0; NULL != app && c < app->nctx; c++) {
        np += app->ctx[c].np;
    }
    if (NULL == wu_rte_progress() || NULL == app || 0 == np || NULL == map || np != map->np ||
        mynode >= map->nnodes) {
        wu_rte_jobmap_free(map);
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_new(app, np, nspace))) {
        wu_rte_jobmap_free(map);
        return WU_ERR_NOMEM;
    }
    job->map = map;
    job->mynode = mynode;
    job->role = role;
    job->daemon = daemon;
    if (NULL != parent && '\0' != parent->nspace[0]) {
        job->spawned = true;
        job->parent = *parent;
    }
    return run_job(job, status);
}
