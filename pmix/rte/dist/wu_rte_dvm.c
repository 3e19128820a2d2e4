/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dvm.c -- on the head node (wrun): the daemons of a job's other nodes.
 *
 * Start: wrun listens on TCP (every interface, an ephemeral port), makes a secret token and
 starts `wired` on the other nodes of the job map along the launch tree (wu_rte_spawn.c): a
 * pls job of one process per chunk of the daemons, each naming its host, which the rsh component
 * runs through the remote agent (ssh by default, the pls_rsh_agent parameter). The daemon it
 * starts starts the rest of its chunk the same way and relays their messages (wu_rte_relay.c):
 * only the first level connects here; messages of deeper daemons come in FWD_UP and go down in
 * FWD_DOWN, and a message for every daemon goes once to each first-level daemon.
 * The token goes down the agent's standard input, never on a command line. Each daemon connects
 * to its parent and sends HELLO with the token; once every daemon has done so within
 * rte_daemon_timeout seconds, each gets LAUNCH with the job and its node. An agent that ends
 * before its daemon said HELLO (ssh could not reach the node, wired could not be run) fails the
 * job at once with the agent's own message; a daemon that does not call back in time is named.
 *
 * Running: daemons send their processes' output and ends, which go through the same code as
 * the head node's own processes (wu_rte_job.c decides the job's end); the head sends terminate
 * and signal commands down. Fences and direct-modex requests go to wu_rte_dvm_coll.c. A daemon
 * whose connection ends before it reported its processes' end is a lost node: the job ends,
 * naming it; so are the daemons it relayed for, and the chunk of one a relay reports GONE. A
 * first-level daemon from which nothing came for rte_base_heartbeat_misses heartbeat intervals
 * (wu_rte_beat.c: each side sends BEAT every interval) stopped answering and is lost the same way.
 *
 * Stop: SHUTDOWN to every daemon, a bounded wait for their connections and agents to end, then
 * whatever agent is left is killed. Everything here runs on the rte progress thread except
 * wu_rte_dvm_start and wu_rte_dvm_stop (the launcher's main thread) and the two server upcalls
 * (the server's thread), which shift into it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mca/base/wu_mca_param.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_show_help.h"
#include "pmix/rte/dist/wu_rte_dvm_int.h"
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix/server/wu_server_host.h"
#include "pmix.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

extern char **environ;

/* The daemons of every job that has some (rte thread): the launcher's and its children's. */
/* The head's side of the job (rte_role_t), at the end of this file. */
static const rte_role_t head_role;
static void wu_rte_dvm_terminate(rte_job_t *job);

static struct rte_dvm *dvms;
/* The secret every daemon of this launcher presents, made with the first: the servers of every
 * job derive their credential keys from it, so that credentials pass between the jobs. */
static unsigned char session_raw[16];
static char session_token[33];

static int daemon_timeout = 60;
static int launch_timeout = 60;
static int radix = 64;
static bool params_registered = false;

static const wu_mca_param_t rte_params[] = {
    WU_PARAM_INT_RANGE("daemon_timeout", &daemon_timeout, 1, 3600, WU_INFO_LVL_4,
                       "Seconds wrun waits for the daemons of the other nodes to call back"),
    WU_PARAM_INT_RANGE("launch_timeout", &launch_timeout, 0, 86400, WU_INFO_LVL_4,
                       "Seconds each daemon has, once it got the job, to start its processes "
                       "(or report that they could not start); a node that has not is lost. 0: "
                       "no limit"),
    WU_PARAM_END};
static const wu_mca_param_t routed_params[] = {
    WU_PARAM_INT_RANGE("radix", &radix, 0, 1000000, WU_INFO_LVL_4,
                       "Daemons each daemon starts in the launch tree (wrun starts as many, each "
                       "starting its share of the rest); 0: wrun starts every daemon itself (as "
                       "always inside a Slurm allocation)"),
    WU_PARAM_END};

static void release_once(wu_wait_t *w, bool *flag, int rc)
{
    if (!*flag) {
        *flag = true;
        wu_wait_release(w, rc);
    }
}

/* --- the list -------------------------------------------------------------------------------- */

bool wu_rte_dvm_live(const struct rte_dvm *dvm)
{
    for (const struct rte_dvm *v = dvms; NULL != v; v = v->next) {
        if (v == dvm) {
            return true;
        }
    }
    return false;
}

/* The daemon cbdata names, if it is a node of a running job's daemons. */
static dvm_node_t *live_node(void *cbdata)
{
    uintptr_t p = (uintptr_t)cbdata;
    for (struct rte_dvm *v = dvms; NULL != v; v = v->next) {
        if (v->nd > 0 && p >= (uintptr_t)v->d && p < (uintptr_t)(v->d + v->nd)) {
            return &v->d[(p - (uintptr_t)v->d) / sizeof *v->d];
        }
    }
    return NULL;
}

static void link_dvm(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    dvm->next = dvms;
    dvms = dvm;
    wu_wait_call_done(call, WU_SUCCESS);
}

static void unlink_dvm(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    wu_rte_beat_stop(dvm->beat);
    dvm->beat = NULL;
    if (NULL != dvm->launch_timer) {
        (void)wu_progress_timer_cancel(dvm->launch_timer);
        dvm->launch_timer = NULL;
    }
    for (struct rte_dvm **p = &dvms; NULL != *p; p = &(*p)->next) {
        if (*p == call->cbdata) {
            *p = (*p)->next;
            break;
        }
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

/* --- sending --------------------------------------------------------------------------------- */

/* The daemon of map node `node`, or NULL (the head's own node, or none). */
static dvm_node_t *node_of(const struct rte_dvm *dvm, uint32_t node)
{
    if (node >= dvm->job->map->nnodes || UINT32_MAX == dvm->by_node[node]) {
        return NULL;
    }
    return &dvm->d[dvm->by_node[node]];
}

bool wu_rte_dvm_reachable(const struct rte_dvm *dvm, uint32_t node)
{
    const dvm_node_t *n = node_of(dvm, node);
    return NULL != n && n->hello && !n->closed && NULL != dvm->d[n->via].conn &&
           !dvm->d[n->via].closed;
}

void wu_rte_dvm_send_to(struct rte_dvm *dvm, uint32_t node, uint32_t type, wu_dmsg_t *m)
{
    const dvm_node_t *n = node_of(dvm, node);
    const void *p = NULL != m ? m->base_ptr : NULL;
    size_t len = NULL != m ? m->bytes_used : 0;
    if (wu_rte_dvm_reachable(dvm, node)) {
        wu_ptl_conn_t *c = dvm->d[n->via].conn;
        if (&dvm->d[n->via] == n) {
            (void)wu_ptl_send(c, type, 0, p, len);
        } else { /* through the relays above it */
            wu_dmsg_t env;
            PMIX_DATA_BUFFER_CONSTRUCT(&env);
            if (PMIX_SUCCESS == wu_dmsg_put_fwd(&env, node, WU_DMSG_ALL, type, p, len)) {
                (void)wu_ptl_send(c, WU_DMSG_FWD_DOWN, 0, env.base_ptr, env.bytes_used);
            }
            PMIX_DATA_BUFFER_DESTRUCT(&env);
        }
    }
    if (NULL != m) {
        PMIX_DATA_BUFFER_DESTRUCT(m);
    }
}

void wu_rte_dvm_send_many(struct rte_dvm *dvm, const bool *to, uint32_t type, wu_dmsg_t *m)
{
    wu_dmsg_t env;
    PMIX_DATA_BUFFER_CONSTRUCT(&env);
    if (PMIX_SUCCESS !=
        wu_dmsg_put_fwd(&env, WU_DMSG_ALL, WU_DMSG_ALL, type, m->base_ptr, m->bytes_used)) {
        PMIX_DATA_BUFFER_DESTRUCT(&env);
        PMIX_DATA_BUFFER_DESTRUCT(m);
        return;
    }
    for (uint32_t v = 0; v < dvm->nd; v++) {
        dvm_node_t *relay = &dvm->d[v];
        uint32_t n = 0;
        bool below = false;
        if (relay->via != v || NULL == relay->conn || relay->closed) {
            continue;
        }
        for (uint32_t i = 0; i < dvm->nd; i++) {
            if (dvm->d[i].via == v && to[dvm->d[i].node]) {
                n++;
                below = below || i != v;
            }
        }
        if (below) {
            (void)wu_ptl_send(relay->conn, WU_DMSG_FWD_DOWN, 0, env.base_ptr, env.bytes_used);
        } else if (1 == n) {
            (void)wu_ptl_send(relay->conn, type, 0, m->base_ptr, m->bytes_used);
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&env);
    PMIX_DATA_BUFFER_DESTRUCT(m);
}

/* A message to every daemon but skip's (map node; WU_DMSG_ALL: none): one FWD_DOWN to each
 * first-level daemon, which handles it and passes it down its subtree. */
static void send_everyone(struct rte_dvm *dvm, uint32_t skip, uint32_t type, const void *p,
                          size_t len)
{
    wu_dmsg_t env;
    PMIX_DATA_BUFFER_CONSTRUCT(&env);
    if (PMIX_SUCCESS == wu_dmsg_put_fwd(&env, WU_DMSG_ALL, skip, type, p, len)) {
        for (uint32_t i = 0; i < dvm->nd; i++) {
            if (dvm->d[i].via == i && NULL != dvm->d[i].conn && !dvm->d[i].closed) {
                (void)wu_ptl_send(dvm->d[i].conn, WU_DMSG_FWD_DOWN, 0, env.base_ptr,
                                  env.bytes_used);
            }
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&env);
}

/* A daemon sent what no daemon of ours sends: its connection (its relay's, deeper in the
 * tree) is closed, which ends the job naming the node. */
static void bad_peer(dvm_node_t *n)
{
    wu_ptl_close(n->dvm->d[n->via].conn);
}

/* --- a node that is gone --------------------------------------------------------------------- */

/* Nodes lost after the first are named together when the daemons stop: at most this many. */
#define LOST_NAMES_MAX 16

/* n's daemon is lost (why: for the message, NULL when already said): its processes count as
 * ended, and the job ends with a failure. */
static void node_lost(dvm_node_t *n, const char *why)
{
    rte_job_t *job = n->dvm->job;
    const wu_rte_jm_node_t *nd = &job->map->nodes[n->node];
    if (n->lost || n->local_done) {
        return;
    }
    n->lost = true;
    if (NULL != n->dvm->tree.agents && !n->agent_ended && &n->dvm->d[n->via] == n) {
        /* its ssh may hang on a dead link: nothing more can come through it */
        uint32_t c = wu_rte_tree_chunk_of(&n->dvm->tree, n->node);
        (void)wu_pls_signal_proc(n->dvm->tree.agents, c, SIGKILL);
    }
    if (NULL != why && !job->status_set) {
        wu_rte_say("node-lost", wu_rte_tool, nd->name, why);
    } else if (NULL != why && n->dvm->nlost_too++ < LOST_NAMES_MAX) {
        (void)wu_argv_append(&n->dvm->lost_too, nd->name); /* said once the job is over */
    }
    wu_rte_job_fail(job, 1);
    for (uint32_t i = 0; i < nd->nlocal; i++) {
        job->procs[nd->ranks[i]].exited = true;
    }
    wu_rte_job_check_done(job);
}

/* n's daemon reports that every process it was to run has ended: those it did not report
 * never started (the job ended before they could) and are accounted for as ended. */
static void node_done(dvm_node_t *n)
{
    rte_job_t *job = n->dvm->job;
    const wu_rte_jm_node_t *nd = &job->map->nodes[n->node];
    n->local_done = true;
    for (uint32_t i = 0; i < nd->nlocal; i++) {
        job->procs[nd->ranks[i]].exited = true;
    }
    wu_rte_job_check_done(job);
}

/* --- events ---------------------------------------------------------------------------------- */

typedef struct {
    char *msg;
    size_t len;
} event_t;

/* An event to every daemon of every job but skip's (map node of from; WU_DMSG_ALL: none). */
static void event_everyone(struct rte_dvm *from, uint32_t skip, const char *msg, size_t len)
{
    for (struct rte_dvm *v = dvms; NULL != v; v = v->next) {
        send_everyone(v, v == from ? skip : WU_DMSG_ALL, WU_DMSG_EVENT, msg, len);
    }
}

static void event_in_rte(void *arg)
{
    event_t *e = arg;
    event_everyone(NULL, WU_DMSG_ALL, e->msg, e->len);
    free(e->msg);
    free(e);
}

pmix_status_t wu_rte_dvm_event(const char *msg, size_t len)
{
    event_t *e = calloc(1, sizeof *e);
    if (NULL == e || NULL == (e->msg = malloc(len > 0 ? len : 1))) {
        free(e);
        return PMIX_ERR_NOMEM;
    }
    memcpy(e->msg, msg, len);
    e->len = len;
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), event_in_rte, e)) {
        free(e->msg);
        free(e);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

/* --- standard input ------------------------------------------------------------------------- */

static void wu_rte_dvm_stdin(rte_job_t *job, uint32_t rank, const char *data, size_t len)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, rank);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, data, len) : rc;
    if (PMIX_SUCCESS == rc) {
        wu_rte_dvm_send_to(job->dvm, job->map->procs[rank].node, WU_DMSG_STDIN, &m);
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
}

/* --- the --timeout report ----------------------------------------------------------------------- */

static void report_ask(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    dvm->nreport = 0;
    dvm->report_want = 0;
    for (uint32_t i = 0; i < dvm->nd; i++) {
        if (wu_rte_dvm_reachable(dvm, dvm->d[i].node) && !dvm->d[i].lost) {
            wu_rte_dvm_send_to(dvm, dvm->d[i].node, WU_DMSG_REPORT_REQ, NULL);
            dvm->report_want++;
        }
    }
    if (0 == dvm->report_want) {
        wu_wait_release(&dvm->report_wait, WU_SUCCESS);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

typedef struct {
    struct rte_dvm *dvm;
    char ***lines;
} report_take_t;

static void report_take(wu_wait_call_t *call)
{
    report_take_t *t = call->cbdata;
    for (char **l = t->dvm->report; NULL != l && NULL != *l; l++) {
        (void)wu_argv_append(t->lines, *l);
    }
    wu_argv_free(t->dvm->report);
    t->dvm->report = NULL;
    t->dvm->report_want = 0; /* later answers are dropped */
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Seconds the --timeout report waits for the daemons' lines. */
#define REPORT_WAIT 5.0

static void wu_rte_dvm_report(rte_job_t *job, char ***lines)
{
    struct rte_dvm *dvm = job->dvm;
    report_take_t t = {.dvm = dvm, .lines = lines};
    /* every node's lines are named, this one's too */
    for (char **l = *lines; NULL != l && NULL != *l; l++) {
        char *named = NULL;
        if (WU_SUCCESS == wu_asprintf(&named, "%s: %s", wu_rte_hostname, *l)) {
            free(*l);
            *l = named;
        }
    }
    wu_wait_init(&dvm->report_wait);
    (void)wu_progress_shift_wait(wu_rte_progress(), report_ask, dvm, 0);
    (void)wu_wait_for(&dvm->report_wait, REPORT_WAIT);
    (void)wu_progress_shift_wait(wu_rte_progress(), report_take, &t, 0);
    wu_wait_destroy(&dvm->report_wait);
}

static void on_report(dvm_node_t *n, wu_dmsg_t *m)
{
    struct rte_dvm *dvm = n->dvm;
    char **got = NULL;
    if (0 == dvm->report_want || PMIX_SUCCESS != wu_dmsg_get_argv(m, &got)) {
        wu_argv_free(got);
        return;
    }
    for (char **l = got; NULL != l && NULL != *l; l++) {
        char *line = NULL, *safe = wu_str_escape_dup(*l, 1024, WU_ESC_KEEP_UTF8);
        if (NULL != safe &&
            WU_SUCCESS == wu_asprintf(&line, "%s: %s", dvm->job->map->nodes[n->node].name, safe)) {
            (void)wu_argv_append(&dvm->report, line);
        }
        free(line);
        free(safe);
    }
    wu_argv_free(got);
    if (++dvm->nreport == dvm->report_want) {
        wu_wait_release(&dvm->report_wait, WU_SUCCESS);
    }
}

/* --- messages from daemons ------------------------------------------------------------------- */

static void on_exited_msg(dvm_node_t *n, wu_dmsg_t *m)
{
    rte_job_t *job = n->dvm->job;
    uint32_t rank = 0, state = 0, flags = 0;
    int32_t ws = 0, err = 0, pid = 0;
    rte_proc_t *rp;
    if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &rank) || PMIX_SUCCESS != wu_dmsg_get_u32(m, &state) ||
        PMIX_SUCCESS != wu_dmsg_get_i32(m, &ws) || PMIX_SUCCESS != wu_dmsg_get_i32(m, &err) ||
        PMIX_SUCCESS != wu_dmsg_get_i32(m, &pid) || PMIX_SUCCESS != wu_dmsg_get_u32(m, &flags) ||
        rank >= job->np || job->map->procs[rank].node != n->node ||
        (WU_PLS_PROC_FAILED != state && WU_PLS_PROC_EXITED != state)) {
        bad_peer(n);
        return;
    }
    rp = &job->procs[rank];
    if (rp->exited) {
        return;
    }
    rp->state = (wu_pls_proc_state_t)state;
    rp->wait_status = ws;
    rp->exec_errno = err;
    rp->pid = (pid_t)pid;
    atomic_store(&rp->connected, 0 != (flags & 1u));
    atomic_store(&rp->finalized, 0 != (flags & 2u));
    wu_rte_proc_ended(job, rp);
}

static void on_fwd_up(dvm_node_t *relay, wu_dmsg_t *m);

/* FENCE_AGG of relay: contributions of its branch. */
static bool fence_agg(dvm_node_t *relay, wu_dmsg_t *m)
{
    struct rte_dvm *dvm = relay->dvm;
    bool *branch = calloc(dvm->job->map->nnodes, sizeof *branch), ok;
    if (NULL == branch) {
        return true; /* not its fault: the fence is lost with the job */
    }
    for (uint32_t i = 0; i < dvm->nd; i++) {
        branch[dvm->d[i].node] = &dvm->d[dvm->d[i].via] == relay;
    }
    ok = wu_rte_dvm_on_fence_agg(dvm, branch, m);
    free(branch);
    return ok;
}

static void on_daemon_msg(dvm_node_t *n, uint32_t type, wu_dmsg_t *m)
{
    struct rte_dvm *dvm = n->dvm;
    rte_job_t *job = dvm->job;
    char *a = NULL;
    size_t na = 0;
    uint32_t u1 = 0, u2 = 0;
    int32_t i1 = 0;
    uint64_t id = 0;
    pmix_proc_t proc;

    switch (type) {
    case WU_DMSG_OUTPUT:
        if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &u1) && PMIX_SUCCESS == wu_dmsg_get_u32(m, &u2) &&
            PMIX_SUCCESS == wu_dmsg_get_bytes(m, &a, &na) && u1 < job->np &&
            job->map->procs[u1].node == n->node) {
            (void)wu_rte_iof_output(job, u1, (int)u2, a, na);
        }
        break;
    case WU_DMSG_EXITED:
        n->started = true; /* or could not start, which it says */
        on_exited_msg(n, m);
        break;
    case WU_DMSG_LOCAL_DONE:
        node_done(n);
        break;
    case WU_DMSG_FENCE:
        wu_rte_dvm_on_fence(dvm, n->node, m);
        break;
    case WU_DMSG_DMODEX_REQ:
        wu_rte_dvm_on_dmodex_req(dvm, n->node, m); /* the origin is the sender */
        break;
    case WU_DMSG_DMODEX_REP:
        wu_rte_dvm_on_dmodex_rep(dvm, m);
        break;
    case WU_DMSG_RPC:
        wu_rte_rpc_serve(dvm, n->node, m); /* the origin is the sender */
        break;
    case WU_DMSG_ABORT:
        if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &u1) && PMIX_SUCCESS == wu_dmsg_get_i32(m, &i1) &&
            PMIX_SUCCESS == wu_dmsg_get_str(m, &a)) {
            PMIX_LOAD_PROCID(&proc, job->nspace, u1);
            wu_rte_job_abort(&proc, i1, a);
        }
        break;
    case WU_DMSG_REPORT:
        on_report(n, m);
        break;
    case WU_DMSG_SPAWN_FAILED:
        if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &u1) && PMIX_SUCCESS == wu_dmsg_get_str(m, &a) &&
            NULL != a && u1 < job->map->nnodes && UINT32_MAX != dvm->by_node[u1]) {
            dvm_node_t *dn = &dvm->d[dvm->by_node[u1]];
            if (!dn->hello && !dn->lost && !dvm->stopping) {
                wu_rte_say("daemon-start-failed", wu_rte_tool, job->map->nodes[u1].name, a);
                dn->lost = true;
                release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
            }
        }
        break;
    case WU_DMSG_NOTICE:
        if (PMIX_SUCCESS == wu_dmsg_get_str(m, &a) && NULL != a) {
            wu_rte_write_text(STDERR_FILENO, a, strlen(a));
        }
        break;
    case WU_DMSG_STDIN_ACK:
        if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &u1) && PMIX_SUCCESS == wu_dmsg_get_u64(m, &id) &&
            u1 < job->np && job->map->procs[u1].node == n->node) {
            wu_rte_stdin_acked(job, u1, (size_t)id);
        }
        break;
    case WU_DMSG_EVENT:
        /* the other nodes (of every job), then this one's clients */
        event_everyone(dvm, n->node, m->base_ptr, m->bytes_used);
        wu_rte_event_deliver(m->base_ptr, m->bytes_used);
        break;
    case WU_DMSG_FAILED:
        if (PMIX_SUCCESS == wu_dmsg_get_str(m, &a) && !job->status_set) {
            char *safe = wu_str_escape_dup(NULL != a ? a : "?", 4096, 0);
            wu_rte_say("daemon-failed", wu_rte_tool, job->map->nodes[n->node].name,
                       NULL != safe ? safe : "?");
            free(safe);
        }
        node_lost(n, NULL);
        break;
    case WU_DMSG_PIDS:
        n->started = true;
        if (wu_rte_pids_apply(m, job->nspace, job, n->node)) { /* and on to the other nodes */
            send_everyone(dvm, n->node, WU_DMSG_PIDS, m->base_ptr, m->bytes_used);
            wu_rte_job_started_check(job);
        } else {
            bad_peer(n);
        }
        break;
    case WU_DMSG_FENCE_AGG:
        if (&dvm->d[n->via] != n || !fence_agg(n, m)) {
            bad_peer(n); /* only a first-level relay sends it, for its branch */
        }
        break;
    case WU_DMSG_FWD_UP:
        if (&dvm->d[n->via] == n) {
            on_fwd_up(n, m);
        } else {
            bad_peer(n); /* wrapped twice */
        }
        break;
    default:
        if (NULL == wu_dmsg_at_head(type) || !wu_dmsg_at_head(type)(job, n->node, m)) {
            bad_peer(n); /* a daemon of ours never sends that */
        }
        break;
    }
    free(a);
}

/* HELLO (m) from a daemon: its token and version (a wrong version is said), and the node it
 * names, which must be one of ours not connected yet; NULL: refused. */
static dvm_node_t *hello_node(struct rte_dvm *dvm, wu_dmsg_t *m)
{
    char *version = NULL, *token = NULL, *host = NULL;
    uint32_t node = UINT32_MAX;
    int32_t pid = 0;
    dvm_node_t *n = NULL;
    bool ok = PMIX_SUCCESS == wu_dmsg_get_hello(m, &version, &token, &node, &host, &pid) &&
              wu_dmsg_token_ok(dvm->token, token);
    if (ok && (NULL == version || 0 != strcmp(version, WU_DMSG_VERSION))) {
        char *v = wu_str_escape_dup(NULL != version ? version : "?", 64, 0);
        wu_rte_say("daemon-version", wu_rte_tool, NULL != v ? v : "?", WU_DMSG_VERSION);
        free(v);
        ok = false;
    }
    if (ok && NULL != (n = node_of(dvm, node)) && (n->hello || n->lost)) {
        n = NULL;
    }
    if (ok && NULL != n && NULL == n->host) {
        n->host = wu_str_escape_dup(NULL != host ? host : "?", 255, 0);
    }
    free(version);
    free(token);
    free(host);
    return ok ? n : NULL;
}

/* The node whose daemon runs on the same host as n's (the host names they report are the
 * same; the head's own when it runs ranks), or NULL: one node given under two names (a name
 * and an address, say) would get two daemons that each take the node for their own. */
static const char *same_host(const dvm_node_t *n)
{
    const rte_job_t *job = n->dvm->job;
    if (NULL == n->host) {
        return NULL;
    }
    if (UINT32_MAX != job->mynode && 0 == strcmp(n->host, wu_rte_hostname)) {
        return job->map->nodes[job->mynode].name;
    }
    for (uint32_t i = 0; i < n->dvm->nd; i++) {
        const dvm_node_t *k = &n->dvm->d[i];
        if (k != n && k->hello && NULL != k->host && 0 == strcmp(k->host, n->host)) {
            return job->map->nodes[k->node].name;
        }
    }
    return NULL;
}

/* n's daemon is in. */
static void hello_accepted(dvm_node_t *n)
{
    struct rte_dvm *dvm = n->dvm;
    const char *twin = same_host(n);
    n->hello = true;
    if (NULL != twin) {
        wu_rte_say("node-twice", wu_rte_tool, twin, dvm->job->map->nodes[n->node].name, n->host);
        n->lost = true;
        release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
        return;
    }
    if (NULL != n->early) {
        /* what the agent wrote before (ssh's warnings): shown now that it worked */
        wu_rte_agent_lines(dvm->job->map->nodes[n->node].name, n->early, n->nearly);
        free(n->early);
        n->early = NULL;
        n->nearly = 0;
    }
    if (++dvm->nhello == dvm->nd) {
        release_once(&dvm->ready, &dvm->ready_done, WU_SUCCESS);
    }
}

/* The first frame of a connection: HELLO from one of our first-level daemons, or the peer is
 * dropped. */
static void on_hello(struct rte_dvm *dvm, wu_ptl_conn_t *c, uint32_t type, wu_dmsg_t *m)
{
    dvm_node_t *n = WU_DMSG_HELLO == type ? hello_node(dvm, m) : NULL;
    if (NULL == n || &dvm->d[n->via] != n) {
        wu_ptl_close(c);
        return;
    }
    wu_ptl_conn_set_trusted(c);
    wu_dmsg_keepalive(wu_ptl_conn_fd(c));
    wu_ptl_conn_retain(c);
    wu_ptl_conn_set_cbdata(c, n);
    n->conn = c;
    wu_rte_beat_heard(&n->beat, wu_ptl_conn_rx_bytes(c));
    dvm->nconn++;
    hello_accepted(n);
}

/* A relay lost the daemon of n (or the one that was to start it): why. */
static void on_gone(dvm_node_t *n, wu_dmsg_t *m)
{
    struct rte_dvm *dvm = n->dvm;
    char *why = NULL, *safe;
    if (PMIX_SUCCESS != wu_dmsg_get_str(m, &why) || NULL == why) {
        free(why);
        return;
    }
    safe = wu_str_escape_dup(why, 512, WU_ESC_KEEP_UTF8);
    if (!n->hello) {
        if (!n->lost && !dvm->stopping) {
            wu_rte_say("daemon-start-failed", wu_rte_tool, dvm->job->map->nodes[n->node].name,
                       NULL != safe ? safe : "?");
            n->lost = true;
            release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
        }
    } else {
        n->closed = true;
        if (!dvm->stopping) {
            node_lost(n, NULL != safe ? safe : "?");
        }
    }
    free(safe);
    free(why);
}

/* FWD_UP from a first-level daemon: a message of a daemon of its subtree. */
static void on_fwd_up(dvm_node_t *relay, wu_dmsg_t *m)
{
    struct rte_dvm *dvm = relay->dvm;
    uint32_t origin = 0, skip = 0, type = 0;
    char *p = NULL;
    size_t len = 0;
    dvm_node_t *n = NULL;
    wu_dmsg_t inner;
    pmix_byte_object_t bo;
    if (PMIX_SUCCESS == wu_dmsg_get_fwd(m, &origin, &skip, &type, &p, &len)) {
        n = node_of(dvm, origin);
    }
    bo = (pmix_byte_object_t){.bytes = p, .size = len};
    PMIX_DATA_BUFFER_CONSTRUCT(&inner);
    if (NULL == n || n == relay || &dvm->d[n->via] != relay ||
        (len > 0 && PMIX_SUCCESS != PMIx_Data_embed(&inner, &bo))) {
        bad_peer(relay);
    } else if (WU_DMSG_HELLO == type) {
        if (hello_node(dvm, &inner) == n) {
            hello_accepted(n);
        } else {
            bad_peer(relay);
        }
    } else if (WU_DMSG_GONE == type) {
        on_gone(n, &inner);
    } else if (n->hello && !n->closed && WU_DMSG_FWD_UP != type) {
        on_daemon_msg(n, type, &inner);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&inner);
    free(p);
}

static void on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload, size_t len,
                    void *cbdata)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
    (void)flags;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (len > 0 && PMIX_SUCCESS != PMIx_Data_embed(&m, &bo)) {
        wu_ptl_close(c);
        return;
    }
    if (wu_rte_dvm_live(cbdata)) {
        on_hello(cbdata, c, tag, &m); /* not authenticated yet */
    } else if (NULL != live_node(cbdata)) {
        /* any message is a sign of life; BEAT has nothing else to say */
        wu_rte_beat_heard(&((dvm_node_t *)cbdata)->beat, wu_ptl_conn_rx_bytes(c));
        if (WU_DMSG_BEAT != tag) {
            on_daemon_msg(cbdata, tag, &m);
        }
    } else {
        wu_ptl_close(c);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

static void on_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    dvm_node_t *n = live_node(cbdata);
    if (NULL == n) {
        return; /* a peer that never said HELLO, or the daemons are gone */
    }
    if (n->conn != c) {
        return;
    }
    n->closed = true;
    n->dvm->nclosed++;
    if (!n->dvm->stopping) {
        char why[256];
        node_lost(n, WU_PTL_PEER_CLOSED == status
                         ? "its daemon's connection ended"
                         : wu_ptl_closed_reason(c, status, why, sizeof why));
    }
    /* the daemons it relayed for are unreachable now: lost */
    for (uint32_t i = 0; i < n->dvm->nd; i++) {
        dvm_node_t *k = &n->dvm->d[i];
        if (k != n && &n->dvm->d[k->via] == n && !k->closed) {
            k->closed = true;
            if (!n->dvm->stopping) {
                char why[300];
                snprintf(why, sizeof why, "the daemon of %s, which relayed its messages, was lost",
                         n->dvm->job->map->nodes[n->node].name);
                if (!k->hello) { /* it never called */
                    k->lost = true;
                    release_once(&n->dvm->ready, &n->dvm->ready_done, WU_ERR_SILENT);
                } else {
                    node_lost(k, why);
                }
            }
        }
    }
    if (n->dvm->nclosed == n->dvm->nconn) {
        release_once(&n->dvm->closed, &n->dvm->closed_done, WU_SUCCESS);
    }
}

/* Every heartbeat interval: a BEAT to each first-level daemon; one from which nothing came for
 * too long stopped answering (a stopped process: its kernel still acknowledges) and is lost with
 * the daemons it relays for, as if its connection had ended. */
static void beat_tick(void *arg, double now, bool judge)
{
    struct rte_dvm *dvm = arg;
    for (uint32_t i = 0; i < dvm->nd; i++) {
        dvm_node_t *n = &dvm->d[i];
        char why[96];
        if (n->via != i || NULL == n->conn || n->closed) {
            continue;
        }
        wu_rte_beat_send(n->conn);
        if (judge && !dvm->stopping &&
            wu_rte_beat_lost(&n->beat, wu_ptl_conn_rx_bytes(n->conn), now, wu_rte_beat_limit())) {
            node_lost(n, wu_rte_beat_why(&n->beat, why, sizeof why));
            wu_ptl_close(n->conn); /* on_closed: the daemons below it are lost too */
        }
    }
}

/* --- the agents (ssh) ------------------------------------------------------------------------ */

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
    if (WU_PLS_PROC_FAILED == proc->state) {
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
    release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
}

static void agents_done(wu_pls_job_t *agents)
{
    struct rte_dvm *dvm = agents->user;
    wu_wait_release(&dvm->agents_done, WU_SUCCESS);
}

/* --- start / stop ---------------------------------------------------------------------------- */

static void send_token(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    wu_rte_tree_token(&dvm->tree, dvm->token);
    /* the tree is made: the heartbeats of the daemons that will call back */
    dvm->beat = wu_rte_beat_start(wu_rte_progress(), beat_tick, dvm);
    wu_wait_call_done(call, WU_SUCCESS);
}

static void say_missing(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    char **names = NULL, *list;
    for (uint32_t i = 0; i < dvm->nd; i++) {
        if (!dvm->d[i].hello) {
            (void)wu_argv_append(&names, dvm->job->map->nodes[dvm->d[i].node].name);
        }
    }
    list = wu_argv_join(names, ',');
    wu_rte_say("daemon-timeout", wu_rte_tool, daemon_timeout, NULL != list ? list : "?");
    free(list);
    wu_argv_free(names);
    for (uint32_t i = 0; i < dvm->nd; i++) {
        dvm_node_t *n = &dvm->d[i];
        if (!n->hello && NULL != n->early) { /* what its agent said meanwhile */
            wu_rte_agent_lines(dvm->job->map->nodes[n->node].name, n->early, n->nearly);
        }
    }
    /* the launch is given up: what the late agents say or how they end only follows from that,
     * and the agents of the chunks whose first daemon never called back are killed now, so
     * that stopping need not wait for them (a hanging ssh) */
    dvm->stopping = true;
    for (uint32_t c = 0; NULL != dvm->tree.agents && c < dvm->tree.nchunks; c++) {
        if (!dvm->d[dvm->tree.starts[c]].hello) {
            (void)wu_pls_signal_proc(dvm->tree.agents, c, SIGKILL);
        }
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

static void wu_rte_dvm_pids(rte_job_t *job)
{
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == wu_rte_pids_local(job, &m)) {
        send_everyone(job->dvm, WU_DMSG_ALL, WU_DMSG_PIDS, m.base_ptr, m.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

/* rte_base_launch_timeout after LAUNCH: the daemons that have not started their processes
 * (nor said that they could not) are lost, named together with the stage. */
static void launch_expired(void *arg)
{
    struct rte_dvm *dvm = arg;
    char **names = NULL, *list;
    (void)wu_progress_timer_cancel(dvm->launch_timer); /* fired: only releases the handle */
    dvm->launch_timer = NULL;
    if (dvm->stopping || dvm->job->status_set) {
        return; /* the job is ending already */
    }
    for (uint32_t i = 0; i < dvm->nd; i++) {
        const dvm_node_t *n = &dvm->d[i];
        if (!n->started && !n->lost && !n->local_done) {
            (void)wu_argv_append(&names, dvm->job->map->nodes[n->node].name);
        }
    }
    if (NULL == names) {
        return;
    }
    list = wu_argv_join(names, ',');
    wu_rte_say("launch-timeout", wu_rte_tool, launch_timeout, NULL != list ? list : "?");
    free(list);
    wu_argv_free(names);
    for (uint32_t i = 0; i < dvm->nd; i++) {
        if (!dvm->d[i].started) {
            node_lost(&dvm->d[i], NULL); /* said */
        }
    }
}

static void send_launch(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    rte_job_t *job = dvm->job;
    wu_rte_spec_t app;
    char cwd[4096];
    int rc = WU_SUCCESS;
    wu_rte_pids_start(job->nspace, job->np); /* before any daemon can send its pids */
    if (NULL == getcwd(cwd, sizeof cwd)) {
        snprintf(cwd, sizeof cwd, "/");
    }
    /* the variables left off the daemons' command line come first in the job's variables
     * (wrun's -x ones win), so every rank of every node gets them */
    app = *job->app;
    if (NULL != dvm->env_later) {
        app.env_set = wu_argv_copy(dvm->env_later);
        for (char **e = job->app->env_set; NULL != e && NULL != *e && NULL != app.env_set; e++) {
            if (WU_SUCCESS != wu_argv_append(&app.env_set, *e)) {
                wu_argv_free(app.env_set);
                app.env_set = NULL;
            }
        }
        rc = NULL != app.env_set ? WU_SUCCESS : WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < dvm->nd && WU_SUCCESS == rc; i++) {
        wu_dmsg_t m;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS != wu_dmsg_put_job(&m, job->nspace, &app, cwd, job->map, dvm->d[i].node,
                                            job->spawned ? &job->parent : NULL)) {
            PMIX_DATA_BUFFER_DESTRUCT(&m);
            rc = WU_ERR_NOMEM;
            break;
        }
        wu_rte_dvm_send_to(dvm, dvm->d[i].node, WU_DMSG_LAUNCH, &m);
    }
    if (NULL != dvm->env_later) {
        wu_argv_free(app.env_set);
    }
    if (WU_SUCCESS == rc && launch_timeout > 0) {
        dvm->launch_timer =
            wu_progress_timer(wu_rte_progress(), (double)launch_timeout, launch_expired, dvm);
    }
    if (WU_SUCCESS == rc && job->terminating) {
        /* ended while its daemons started (a spawned job whose parent ended): the TERMINATE
         * sent then reached none of them; this one follows the LAUNCH on each connection */
        wu_rte_dvm_terminate(job);
    }
    wu_wait_call_done(call, rc);
}

static int register_params(void)
{
    int rc = WU_SUCCESS;
    if (!params_registered) {
        rc = wu_mca_param_register_table("rte", "base", rte_params);
        rc = WU_SUCCESS == rc ? wu_mca_param_register_table("routed", NULL, routed_params) : rc;
        params_registered = WU_SUCCESS == rc;
    }
    return rc;
}

/* The launch tree (dvm->tree): the first level's agents, one per chunk of the daemons, each
 * starting the chunk's first daemon, which starts the rest of its chunk and relays for them. */
static int start_tree(struct rte_dvm *dvm, const char *wired, unsigned port, const char *addrs)
{
    rte_job_t *job = dvm->job;
    uint32_t *nodes = calloc(dvm->nd, sizeof *nodes);
    char **hosts = NULL;
    const wu_rte_tree_args_t ta = {.wired = wired,
                                   .port = port,
                                   .addrs = addrs,
                                   .radix = wu_pls_base_flat() ? 0 : (uint32_t)radix,
                                   .prefix = job->app->prefix};
    int rc = NULL != nodes ? WU_SUCCESS : WU_ERR_NOMEM;
    for (uint32_t i = 0; i < dvm->nd && WU_SUCCESS == rc; i++) {
        nodes[i] = dvm->d[i].node;
        rc = wu_argv_append(&hosts, job->map->nodes[dvm->d[i].node].name);
    }
    if (WU_SUCCESS == rc) {
        rc = wu_rte_tree_make(&dvm->tree, nodes, hosts, dvm->nd, &ta);
    }
    for (uint32_t c = 0; c < dvm->tree.nchunks && WU_SUCCESS == rc; c++) {
        for (uint32_t i = dvm->tree.starts[c]; i < dvm->tree.starts[c] + dvm->tree.lens[c]; i++) {
            dvm->d[i].via = dvm->tree.starts[c]; /* d is in the tree's order */
        }
    }
    free(nodes);
    wu_argv_free(hosts);
    return rc;
}

int wu_rte_dvm_start(rte_job_t *job)
{
    struct rte_dvm *dvm;
    const wu_ptl_listener_cbs_t cbs = {.recv = on_recv, .closed = on_closed};
    char *wired = NULL, *addrs = NULL;
    unsigned port;
    int rc;

    (void)register_params();
    if (NULL == (dvm = calloc(1, sizeof *dvm)) ||
        NULL == (dvm->by_node = malloc(job->map->nnodes * sizeof *dvm->by_node)) ||
        NULL == (dvm->d = calloc(job->map->nnodes, sizeof *dvm->d))) {
        if (NULL != dvm) {
            free(dvm->by_node);
        }
        free(dvm);
        return WU_ERR_NOMEM;
    }
    dvm->job = job;
    wu_wait_init(&dvm->ready);
    wu_wait_init(&dvm->closed);
    wu_wait_init(&dvm->agents_done);
    job->dvm = dvm;
    job->role = &head_role;
    if (WU_SUCCESS != wu_rte_dvm_coll_init(dvm)) {
        return WU_ERR_NOMEM;
    }
    for (uint32_t k = 0; k < job->map->nnodes; k++) {
        dvm->by_node[k] = UINT32_MAX;
        if (k != job->mynode && job->map->nodes[k].nlocal > 0) {
            dvm->by_node[k] = dvm->nd;
            dvm->d[dvm->nd++] = (dvm_node_t){.dvm = dvm, .node = k};
        }
    }
    if ('\0' == session_token[0]) {
        if (sizeof session_raw != getrandom(session_raw, sizeof session_raw, 0)) {
            wu_rte_say("daemon-setup", wu_rte_tool, "no random bytes for the daemons' token");
            return WU_ERR_SILENT;
        }
        for (size_t i = 0; i < sizeof session_raw; i++) {
            snprintf(session_token + 2 * i, 3, "%02x", session_raw[i]);
        }
        /* every server derives its credential keys from the token (wired: the same) */
        (void)wu_server_set_cred_secret(session_raw, sizeof session_raw);
    }
    memcpy(dvm->token, session_token, sizeof dvm->token);
    (void)wu_progress_shift_wait(wu_rte_progress(), link_dvm, dvm, 0); /* before any callback */
    if (WU_SUCCESS != wu_rte_listen_tcp(wu_rte_progress(), &cbs, dvm, &dvm->listener, &port)) {
        wu_rte_say("daemon-setup", wu_rte_tool, "cannot listen on TCP for the daemons (ptl tcp)");
        return WU_ERR_SILENT;
    }
    {
        /* what cannot go on the agents' command line: WU_* variables go in LAUNCH, the others
         * are needed before wired can receive anything */
        char **cmdline = NULL, *toobig = NULL;
        rc = wu_rte_spawn_env(&cmdline, &dvm->env_later, &toobig);
        wu_argv_free(cmdline);
        if (NULL != toobig) {
            wu_rte_say("daemon-env-too-big", wu_rte_tool, toobig, WU_RTE_ENV_ARG_MAX_START,
                       WU_RTE_ENV_CMD_MAX);
            free(toobig);
            return WU_ERR_SILENT;
        }
        if (WU_SUCCESS != rc) {
            return rc;
        }
    }
    wired = wu_rte_wired_path(job->app->prefix);
    addrs = wu_rte_node_addrs();
    rc = NULL != wired && NULL != addrs ? WU_SUCCESS : WU_ERR_NOMEM;
    if (WU_SUCCESS == rc) {
        rc = start_tree(dvm, wired, port, addrs);
    }
    free(wired);
    free(addrs);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    dvm->tree.agents->user = dvm;
    dvm->tree.agents->cb =
        (wu_pls_callbacks_t){.output = agent_output, .exited = agent_exited, .done = agents_done};
    if (WU_SUCCESS != (rc = wu_pls_launch_job(dvm->tree.agents))) {
        wu_rte_say("daemon-start-failed", wu_rte_tool, "(every node)",
                   NULL != dvm->tree.agents->launch_prog ? strerror(dvm->tree.agents->launch_errno)
                                                         : wu_strerror(rc));
        return WU_ERR_SILENT;
    }
    for (uint32_t i = 0; i < dvm->tree.agents->nprocs; i++) {
        wu_rte_watch_pid(dvm->tree.agents->procs[i].pid);
    }
    (void)wu_progress_shift_wait(wu_rte_progress(), send_token, dvm, 0);
    rc = wu_wait_for(&dvm->ready, (double)daemon_timeout);
    if (WU_ERR_TIMEOUT == rc) {
        (void)wu_progress_shift_wait(wu_rte_progress(), say_missing, dvm, 0);
        return WU_ERR_SILENT;
    }
    if (WU_SUCCESS != rc) {
        return WU_ERR_SILENT; /* said by agent_exited */
    }
    return wu_progress_shift_wait(wu_rte_progress(), send_launch, dvm, 0);
}

static void send_all(struct rte_dvm *dvm, uint32_t type, int32_t arg)
{
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == wu_dmsg_put_i32(&m, arg)) {
        send_everyone(dvm, WU_DMSG_ALL, type, m.base_ptr, m.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

static void wu_rte_dvm_terminate(rte_job_t *job)
{
    send_all(job->dvm, WU_DMSG_TERMINATE, 0);
}

static void wu_rte_dvm_signal(rte_job_t *job, int sig)
{
    send_all(job->dvm, WU_DMSG_SIGNAL, sig);
}

void wu_rte_dvm_jobctl(rte_job_t *job, const char *msg, size_t len)
{
    send_everyone(job->dvm, WU_DMSG_ALL, WU_DMSG_JOBCTL, msg, len);
}

static bool wu_rte_dvm_done(const rte_job_t *job)
{
    const struct rte_dvm *dvm = job->dvm;
    for (uint32_t i = 0; i < dvm->nd; i++) {
        if (!dvm->d[i].local_done && !dvm->d[i].lost) {
            return false;
        }
    }
    return true;
}

static void stop_in_rte(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    dvm->stopping = true;
    send_all(dvm, WU_DMSG_SHUTDOWN, 0);
    if (dvm->nclosed == dvm->nconn) {
        release_once(&dvm->closed, &dvm->closed_done, WU_SUCCESS);
    }
    wu_rte_dvm_coll_stop(dvm); /* fences and requests that can no longer complete */
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Seconds the daemons get to clean up and end after SHUTDOWN, and their agents after that. */
#define STOP_WAIT 10.0

static void wu_rte_dvm_stop(rte_job_t *job)
{
    struct rte_dvm *dvm = job->dvm;
    (void)wu_progress_shift_wait(wu_rte_progress(), stop_in_rte, dvm, 0);
    (void)wu_wait_for(&dvm->closed, STOP_WAIT);
    wu_ptl_listener_close(dvm->listener); /* closes what is left */
    if (NULL != dvm->tree.agents && dvm->tree.agents->launched) {
        (void)wu_wait_for(&dvm->agents_done, STOP_WAIT);
    }
    wu_rte_tree_free(&dvm->tree); /* kills what is left of the agents */
    (void)wu_progress_shift_wait(wu_rte_progress(), unlink_dvm, dvm, 0);
    if (dvm->nlost_too > 0) { /* the rte thread is done with dvm */
        char *list = wu_argv_join(dvm->lost_too, ','), more[64] = "";
        if (dvm->nlost_too > LOST_NAMES_MAX) {
            snprintf(more, sizeof more, " and %u more", dvm->nlost_too - LOST_NAMES_MAX);
        }
        wu_rte_say("nodes-lost-too", wu_rte_tool, NULL != list ? list : "?", more);
        free(list);
    }
    wu_argv_free(dvm->lost_too);
    for (uint32_t i = 0; i < dvm->nd; i++) {
        wu_ptl_conn_release(dvm->d[i].conn);
    }
    wu_wait_destroy(&dvm->ready);
    wu_wait_destroy(&dvm->closed);
    wu_wait_destroy(&dvm->agents_done);
    wu_argv_free(dvm->report);
    wu_argv_free(dvm->env_later);
    for (uint32_t i = 0; i < dvm->nd; i++) {
        free(dvm->d[i].early);
        free(dvm->d[i].host);
    }
    free(dvm->d);
    free(dvm->by_node);
    free(dvm);
    job->dvm = NULL;
    job->role = NULL;
}

/* The head node's side of a job across nodes (wu_rte_internal.h). */
static const rte_role_t head_role = {
    .registered = wu_rte_dvm_registered,
    .launched = wu_rte_dvm_pids,
    .proc_ended = wu_rte_dvm_proc_ended,
    .remote_done = wu_rte_dvm_done,
    .terminate = wu_rte_dvm_terminate,
    .signal = wu_rte_dvm_signal,
    .report = wu_rte_dvm_report,
    .stop = wu_rte_dvm_stop,
    .stdin_to = wu_rte_dvm_stdin,
};
