/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_rmapi.c -- an example pls component that starts the processes of other nodes the way a
 * resource manager's task API does (PBS's tm_spawn, LSF's blaunch, Flux's exec service): the
 * manager runs the program on the node with the environment it is given and no standard input,
 * and tells why when it cannot. docs/contributing.md walks through it; test/e2e/pls_rmapi.sh
 * builds it against the installed headers and runs wrun's daemons through it.
 *
 * The "manager" here is a command, the parameter pls_rmapi_command (for example "ssh -x" or the
 * test lab's "lab.sh on"), that takes a host and a program and runs the program there with the
 * caller's environment. A real component would call its manager's library instead of building a
 * command line, and would report a task's end from the manager's notice (tm_obit) with
 * wu_pls_base_proc_ended; this one lets the next component (fork) run the command and report
 * its end. What it shows:
 *  - hands_secret: a daemon job's secret goes into each task's environment as WU_DAEMON_SECRET
 *    (wired reads it there), never on a command line, since the tasks have no standard input;
 *  - failures in words: hosts the manager refuses (the parameter pls_rmapi_refuse, a comma list,
 *    stands for nodes outside the allocation) are reported with wu_pls_base_proc_failed before
 *    their end, and wrun names the node with those words. */
#include "mca/base/wu_mca_param.h"
#include "mca/pls/pls.h"
#include "opal/util/wu_argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static char *command = "";
static char *refuse = "";

static const wu_pls_module_t rmapi_module;

/* Does the manager refuse host? */
static bool refused(const char *host)
{
    char **list = wu_argv_split(refuse, ',');
    bool found = false;
    for (char **h = list; NULL != h && NULL != *h && !found; h++) {
        found = 0 == strcmp(*h, host);
    }
    wu_argv_free(list);
    return found;
}

/* The manager's command for proc: COMMAND HOST PROGRAM ARGS (a refused host's task is a
 * command that fails at once: the manager's refusal). */
static int task_argv(const wu_pls_job_t *job, const wu_pls_proc_t *proc, char ***argv)
{
    char *const *prog = NULL != proc->argv ? proc->argv : job->argv;
    char **av;
    int rc = WU_SUCCESS;
    if (refused(proc->host)) {
        av = wu_argv_copy((char *const[]){"/bin/false", NULL});
        *argv = av;
        return NULL != av ? WU_SUCCESS : WU_ERR_NOMEM;
    }
    av = wu_argv_split(command, ' ');
    rc = NULL != av ? wu_argv_append(&av, proc->host) : WU_ERR_NOMEM;
    for (char *const *a = prog; NULL != a && NULL != *a && WU_SUCCESS == rc; a++) {
        rc = wu_argv_append(&av, *a);
    }
    if (WU_SUCCESS != rc) {
        wu_argv_free(av);
        return rc;
    }
    *argv = av;
    return WU_SUCCESS;
}

/* The environment the manager gives proc's task: ours, the variables the caller wants set
 * there, and the daemons' secret. */
static int task_env(const wu_pls_job_t *job, wu_pls_proc_t *proc)
{
    char **env = wu_argv_copy(NULL != proc->env ? proc->env : environ);
    int rc = NULL != env ? WU_SUCCESS : WU_ERR_NOMEM;
    for (char **e = proc->remote_env; NULL != e && NULL != *e && WU_SUCCESS == rc; e++) {
        char *eq = strchr(*e, '=');
        if (NULL != eq) {
            *eq = '\0';
            rc = wu_setenv(*e, eq + 1, true, &env);
            *eq = '=';
        }
    }
    if (WU_SUCCESS == rc && NULL != job->secret) {
        rc = wu_setenv(WU_PLS_SECRET_ENV, job->secret, true, &env);
    }
    if (WU_SUCCESS != rc) {
        wu_argv_free(env);
        return rc;
    }
    wu_argv_free(proc->env);
    proc->env = env;
    return WU_SUCCESS;
}

static int rmapi_launch_job(wu_pls_job_t *job)
{
    int rc = WU_SUCCESS;
    if ('\0' == command[0]) {
        return WU_ERR_TAKE_NEXT; /* no manager to ask */
    }
    for (uint32_t i = 0; i < job->nprocs; i++) {
        if (NULL == job->procs[i].host) {
            return WU_ERR_TAKE_NEXT; /* this node's processes are fork's */
        }
    }
    for (uint32_t i = 0; i < job->nprocs && WU_SUCCESS == rc; i++) {
        if (refused(job->procs[i].host)) {
            /* the manager's words come before the task's end (which may come at once) */
            wu_pls_base_proc_failed(job, &job->procs[i],
                                    "the resource manager refused the node (not in this "
                                    "allocation)");
        }
        rc = task_env(job, &job->procs[i]);
    }
    return WU_SUCCESS == rc ? wu_pls_base_launch_remote(&rmapi_module, job, task_argv) : rc;
}

static const wu_pls_module_t rmapi_module = {
    .launch_job = rmapi_launch_job,
    .hands_secret = true,
    WU_PLS_FWD_OPS,
};

static const wu_mca_param_t rmapi_params[] = {
    WU_PARAM_STRING("command", &command, WU_INFO_LVL_4,
                    "The resource manager's task launcher: a command taking a host and a "
                    "program (empty: this component starts nothing)"),
    WU_PARAM_STRING("refuse", &refuse, WU_INFO_LVL_9,
                    "Hosts the resource manager refuses, comma-separated (for tests)"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pls, rmapi, .priority = 40, .params = rmapi_params,
                 .description = "Example: starts the processes of other nodes through a "
                                "resource manager's task launcher",
                 .module = &rmapi_module);
