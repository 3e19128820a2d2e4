/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_rsh.c -- pls component that starts the processes of a job on other nodes through a remote
 * agent (ssh by default, the pls_rsh_agent parameter): it takes the jobs whose processes name a
 * host, turns each into the agent's command line
 *     AGENT [ssh options] HOST 'exec env [PATH=... LD_LIBRARY_PATH=...] NAME=value... PROGRAM ARGS'
 * and lets the next module in priority order (fork) run those agents here. Every other
 * operation (signals, termination, output, release) is that module's on the agents
 * (wu_pls_fwd_*): ending an agent ends the connection to what it started. The remote command
 * is for a POSIX shell (the login shell of the remote account). */
#include "mca/base/wu_mca_param.h"
#include "mca/pls/pls.h"
#include "opal/util/wu_argv.h"

#include <stdlib.h>
#include <string.h>

static char *agent = "ssh";

static const wu_pls_module_t rsh_module;

/* s in single quotes for a POSIX shell (malloc'ed; NULL: out of memory). */
static char *sh_word(const char *s)
{
    size_t n = 3;
    char *out, *p;
    for (const char *q = s; '\0' != *q; q++) {
        n += '\'' == *q ? 4 : 1;
    }
    if (NULL == (out = p = malloc(n))) {
        return NULL;
    }
    *p++ = '\'';
    for (const char *q = s; '\0' != *q; q++) {
        if ('\'' == *q) {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else {
            *p++ = *q;
        }
    }
    *p++ = '\'';
    *p = '\0';
    return out;
}

/* Append a space and s, quoted, to *cmd. */
static int sh_quote(char **cmd, const char *s)
{
    char *w = sh_word(s), *out = NULL;
    int rc = NULL == w ? WU_ERR_NOMEM : wu_asprintf(&out, "%s %s", *cmd, w);
    free(w);
    if (WU_SUCCESS == rc) {
        free(*cmd);
        *cmd = out;
    }
    return rc;
}

/* The prefix's bin and lib directories first in PATH and LD_LIBRARY_PATH, ahead of what the
 * node's shell has (expanded there). The lib directory is named as this build's (lib, lib64). */
static int prefix_paths(char **cmd, const char *prefix)
{
    const char *lib = strrchr(WU_LIBDIR, '/');
    char *bin = NULL, *libp = NULL, *qb = NULL, *ql = NULL, *out = NULL;
    int rc = wu_asprintf(&bin, "%s/bin", prefix);
    rc = WU_SUCCESS == rc ? wu_asprintf(&libp, "%s/%s", prefix, NULL != lib ? lib + 1 : "lib") : rc;
    if (WU_SUCCESS == rc && (NULL == (qb = sh_word(bin)) || NULL == (ql = sh_word(libp)))) {
        rc = WU_ERR_NOMEM;
    }
    if (WU_SUCCESS == rc) {
        rc = wu_asprintf(&out,
                         "%s PATH=%s\"${PATH:+:$PATH}\" "
                         "LD_LIBRARY_PATH=%s\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
                         *cmd, qb, ql);
    }
    if (WU_SUCCESS == rc) {
        free(*cmd);
        *cmd = out;
    }
    free(bin);
    free(libp);
    free(qb);
    free(ql);
    return rc;
}

/* The agent's command line for proc: agent [options] [--] host 'exec env ... program args'. */
static int agent_argv(const wu_pls_job_t *job, const wu_pls_proc_t *proc, char ***argv)
{
    char **av = wu_argv_split(agent, ' '), *const *prog =
                                               NULL != proc->argv ? proc->argv : job->argv;
    char *cmd = strdup("exec env");
    const char *base = "";
    int rc = NULL == av || NULL == av[0] || NULL == cmd ? WU_ERR_NOMEM : WU_SUCCESS;

    if (WU_SUCCESS == rc) {
        base = strrchr(av[0], '/');
        base = NULL != base ? base + 1 : av[0];
        if (0 == strcmp(base, "ssh")) {
            /* no X11, never prompt (a prompt would wait forever), fail fast on a dead node */
            rc = wu_argv_append(&av, "-x");
            rc = WU_SUCCESS == rc ? wu_argv_append(&av, "-o") : rc;
            rc = WU_SUCCESS == rc ? wu_argv_append(&av, "BatchMode=yes") : rc;
            rc = WU_SUCCESS == rc ? wu_argv_append(&av, "-o") : rc;
            rc = WU_SUCCESS == rc ? wu_argv_append(&av, "ConnectTimeout=10") : rc;
        }
    }
    /* ssh and rsh take "--" as the end of their options: a host can never be read as one */
    if (WU_SUCCESS == rc && (0 == strcmp(base, "ssh") || 0 == strcmp(base, "rsh"))) {
        rc = wu_argv_append(&av, "--");
    }
    rc = WU_SUCCESS == rc ? wu_argv_append(&av, proc->host) : rc;
    if (WU_SUCCESS == rc && NULL != job->prefix) {
        rc = prefix_paths(&cmd, job->prefix);
    }
    for (char **e = proc->remote_env; NULL != e && NULL != *e && WU_SUCCESS == rc; e++) {
        rc = sh_quote(&cmd, *e);
    }
    for (char *const *a = prog; NULL != a && NULL != *a && WU_SUCCESS == rc; a++) {
        rc = sh_quote(&cmd, *a);
    }
    rc = WU_SUCCESS == rc ? wu_argv_append(&av, cmd) : rc;
    free(cmd);
    if (WU_SUCCESS != rc) {
        wu_argv_free(av);
        return rc;
    }
    *argv = av;
    return WU_SUCCESS;
}

static int rsh_launch_job(wu_pls_job_t *job)
{
    return wu_pls_base_launch_remote(&rsh_module, job, agent_argv);
}

static const wu_pls_module_t rsh_module = {
    .launch_job = rsh_launch_job,
    WU_PLS_FWD_OPS,
};

static const wu_mca_param_t rsh_params[] = {
    WU_PARAM_STRING("agent", &agent, WU_INFO_LVL_2,
                    "Command (and options) that starts a program on another node: ssh (default) "
                    "or rsh, or any command taking the host name then the remote command"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pls, rsh, .priority = 20, .params = rsh_params,
                 .description = "Starts the processes of other nodes through ssh (or another "
                                "remote agent), run here by the next component",
                 .module = &rsh_module);
