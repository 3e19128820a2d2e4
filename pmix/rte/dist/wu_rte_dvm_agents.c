/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dvm_agents.c -- on the head node (wrun): the launch agents of the first level of the
 * launch tree (the processes of the pls job that starts the daemons: ssh, srun, or the tasks of
 * a launch system's API), until their daemons call back. What an agent writes before is kept
 * and shown once its daemon is in, or made part of the message that says the node could not be
 * started: when the agent ends first, with how it ended, or the launch system's own words
 * (pls's failed callback). Everything runs on the rte progress thread. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "pmix/rte/dist/wu_rte_dvm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The daemon an agent started (the first of its chunk of the launch tree). */
static dvm_node_t *agent_node(wu_pls_job_t *agents, wu_pls_proc_t *proc)
{
    struct rte_dvm *dvm = agents->user;
    return proc->rank < agents->nprocs ? &dvm->d[dvm->tree.starts[proc->rank]] : NULL;
}

/* Most of an agent's output kept before its daemon calls back. */
#define EARLY_MAX 4096

/* What the agent or the daemon writes (ssh's errors, wired's messages before it could reach
 * us): kept until the daemon calls back (then shown), so that an agent that fails before has
 * its message in the one that says so; after that, shown as it comes. */
static bool agent_output(wu_pls_job_t *agents, wu_pls_proc_t *proc, int stream, const char *data,
                         size_t len)
{
    struct rte_dvm *dvm = agents->user;
    dvm_node_t *n = agent_node(agents, proc);
    (void)stream;
    if (NULL != n && !n->hello && !dvm->stopping) {
        size_t k = len < EARLY_MAX - n->nearly ? len : EARLY_MAX - n->nearly;
        char *e = k > 0 ? realloc(n->early, n->nearly + k) : n->early;
        if (NULL != e) {
            memcpy(e + n->nearly, data, k);
            n->early = e;
            n->nearly += k;
        }
        return true;
    }
    if (NULL != n && !n->hello && dvm->stopping) {
        /* a daemon that had not called back when the job ended (another node failed first):
         * what it says now ("cannot reach its parent") only follows from that end */
        return true;
    }
    wu_rte_agent_lines(NULL != n ? dvm->job->map->nodes[n->node].name : "?", data, len);
    return true;
}

/* A node's early agent output as one line, escaped; NULL if there was none. */
static char *early_text(const dvm_node_t *n)
{
    char *raw, *safe;
    size_t len = n->nearly;
    if (NULL == n->early) {
        return NULL;
    }
    while (len > 0 && ('\n' == n->early[len - 1] || '\r' == n->early[len - 1])) {
        len--;
    }
    if (0 == len || NULL == (raw = strndup(n->early, len))) {
        return NULL;
    }
    for (char *c = raw, *o = raw;; c++) {
        if ('\r' != *c) {                 /* ssh ends its lines with CRLF */
            *o++ = '\n' == *c ? ' ' : *c; /* env and ssh split one message over writes */
        }
        if ('\0' == *c) {
            break;
        }
    }
    safe = wu_str_escape_dup(raw, strlen(raw), WU_ESC_KEEP_UTF8);
    free(raw);
    return safe;
}

/* The launch system's words on why an agent (or the task that was to be the daemon) failed:
 * kept for the message of its end, which follows. */
static void agent_failed(wu_pls_job_t *agents, wu_pls_proc_t *proc, const char *why)
{
    dvm_node_t *n = agent_node(agents, proc);
    if (NULL != n && NULL == n->why) {
        n->why = wu_str_escape_dup(why, 512, WU_ESC_KEEP_UTF8);
    }
}

static void agent_exited(wu_pls_job_t *agents, wu_pls_proc_t *proc)
{
    struct rte_dvm *dvm = agents->user;
    dvm_node_t *n = agent_node(agents, proc);
    char why[128], *said, *full = NULL;
    const char *agent;
    if (NULL == n) {
        return;
    }
    /* the agent the rsh component ran: its program, as in "ssh exited with status 255" */
    agent = NULL != proc->argv && NULL != proc->argv[0] ? proc->argv[0] : "the launch agent";
    agent = NULL != strrchr(agent, '/') ? strrchr(agent, '/') + 1 : agent;
    n->agent_ended = true;
    if (n->hello || dvm->stopping) {
        return; /* the daemon called back: its connection tells how it goes */
    }
    if (NULL != n->why) {
        snprintf(why, sizeof why, "%s", n->why); /* the launch system said it */
    } else if (WU_PLS_PROC_FAILED == proc->state) {
        snprintf(why, sizeof why, "%s could not be run: %s", agent, strerror(proc->exec_errno));
    } else if (WIFSIGNALED(proc->wait_status)) {
        snprintf(why, sizeof why, "%s was killed by signal %d", agent, WTERMSIG(proc->wait_status));
    } else {
        snprintf(why, sizeof why, "%s exited with status %d before wired called back", agent,
                 WEXITSTATUS(proc->wait_status));
    }
    said = early_text(n);
    if (NULL == said || WU_SUCCESS != wu_asprintf(&full, "%s, saying: %s", why, said)) {
        full = NULL;
    }
    wu_rte_say("daemon-start-failed", wu_rte_tool, dvm->job->map->nodes[n->node].name,
               NULL != full ? full : why);
    free(full);
    free(said);
    n->lost = true;
    wu_rte_dvm_release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
}

static void agents_done(wu_pls_job_t *agents)
{
    struct rte_dvm *dvm = agents->user;
    wu_wait_release(&dvm->agents_done, WU_SUCCESS);
}

wu_pls_callbacks_t wu_rte_dvm_agent_callbacks(void)
{
    return (wu_pls_callbacks_t){.output = agent_output,
                                .exited = agent_exited,
                                .done = agents_done,
                                .failed = agent_failed};
}
