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
 * Running: daemons send their processes' output and ends (wu_rte_dvm_msg.c), which go through
 * the same code as the head node's own processes (the job core decides the job's end); the head
 * sends terminate and signal commands down. Fences and direct-modex requests go to
 * wu_rte_dvm_coll.c. A daemon
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

/* The head's side of the job (rte_role_t), at the end of this file. */
static const rte_role_t head_role;
static void wu_rte_dvm_terminate(rte_job_t *job);

/* The daemons of every job that has some (rte thread): the launcher's and its children's,
 * newest first (the list made with the first). */
typedef struct {
    wu_list_item_t super;
    struct rte_dvm *dvm;
} dvm_ref_t;

static WU_CLASS_INSTANCE(dvm_ref_t, wu_list_item_t, NULL, NULL);

static wu_list_t *dvms;

/* Iterate over every job's daemons: FOR_DVMS(ref) { ref->dvm ... } */
#define FOR_DVMS(ref)                                                               \
    for (ref = NULL != dvms ? (dvm_ref_t *)wu_list_first(dvms) : NULL; NULL != ref; \
         ref = (dvm_ref_t *)wu_list_next(dvms, &ref->super))
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

void wu_rte_dvm_release_once(wu_wait_t *w, bool *flag, int rc)
{
    if (!*flag) {
        *flag = true;
        wu_wait_release(w, rc);
    }
}

/* --- the list -------------------------------------------------------------------------------- */

bool wu_rte_dvm_live(const struct rte_dvm *dvm)
{
    const dvm_ref_t *ref;
    FOR_DVMS(ref)
    {
        if (ref->dvm == dvm) {
            return true;
        }
    }
    return false;
}

/* The daemon cbdata names, if it is a node of a running job's daemons. */
dvm_node_t *wu_rte_dvm_live_node(void *cbdata)
{
    uintptr_t p = (uintptr_t)cbdata;
    const dvm_ref_t *ref;
    FOR_DVMS(ref)
    {
        const struct rte_dvm *v = ref->dvm;
        if (v->nd > 0 && p >= (uintptr_t)v->d && p < (uintptr_t)(v->d + v->nd)) {
            return &v->d[(p - (uintptr_t)v->d) / sizeof *v->d];
        }
    }
    return NULL;
}

static void link_dvm(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    dvm_ref_t *ref = NULL;
    if ((NULL == dvms && NULL == (dvms = WU_NEW(wu_list_t))) || NULL == (ref = WU_NEW(dvm_ref_t))) {
        wu_wait_call_done(call, WU_ERR_NOMEM);
        return;
    }
    ref->dvm = dvm;
    wu_list_prepend(dvms, &ref->super);
    wu_wait_call_done(call, WU_SUCCESS);
}

static void unlink_dvm(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    dvm_ref_t *ref;
    wu_rte_beat_stop(dvm->beat);
    dvm->beat = NULL;
    if (NULL != dvm->launch_timer) {
        (void)wu_progress_timer_cancel(dvm->launch_timer);
        dvm->launch_timer = NULL;
    }
    FOR_DVMS(ref)
    {
        if (ref->dvm == dvm) {
            wu_list_remove(dvms, &ref->super);
            WU_RELEASE(ref);
            break;
        }
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

/* --- sending --------------------------------------------------------------------------------- */

/* The daemon of map node `node`, or NULL (the head's own node, or none). */
dvm_node_t *wu_rte_dvm_node_of(const struct rte_dvm *dvm, uint32_t node)
{
    if (node >= dvm->job->map->nnodes || UINT32_MAX == dvm->by_node[node]) {
        return NULL;
    }
    return &dvm->d[dvm->by_node[node]];
}

bool wu_rte_dvm_reachable(const struct rte_dvm *dvm, uint32_t node)
{
    const dvm_node_t *n = wu_rte_dvm_node_of(dvm, node);
    return NULL != n && n->hello && !n->closed && NULL != dvm->d[n->via].conn &&
           !dvm->d[n->via].closed;
}

void wu_rte_dvm_send_to(struct rte_dvm *dvm, uint32_t node, uint32_t type, wu_dmsg_t *m)
{
    const dvm_node_t *n = wu_rte_dvm_node_of(dvm, node);
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
void wu_rte_dvm_send_everyone(struct rte_dvm *dvm, uint32_t skip, uint32_t type, const void *p,
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
void wu_rte_dvm_bad_peer(dvm_node_t *n)
{
    wu_ptl_close(n->dvm->d[n->via].conn);
}

/* --- a node that is gone --------------------------------------------------------------------- */

/* Nodes lost after the first are named together when the daemons stop: at most this many. */
#define LOST_NAMES_MAX 16

/* n's daemon is lost (why: for the message, NULL when already said): its processes count as
 * ended, and the job ends with a failure. */
void wu_rte_dvm_node_lost(dvm_node_t *n, const char *why)
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
void wu_rte_dvm_node_done(dvm_node_t *n)
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

/* An event to every daemon of every job but skip's (map node of from; WU_DMSG_ALL: none). */
void wu_rte_dvm_event_everyone(struct rte_dvm *from, uint32_t skip, const char *msg, size_t len)
{
    const dvm_ref_t *ref;
    FOR_DVMS(ref)
    {
        struct rte_dvm *v = ref->dvm;
        wu_rte_dvm_send_everyone(v, v == from ? skip : WU_DMSG_ALL, WU_DMSG_EVENT, msg, len);
    }
}

/* --- start / stop ---------------------------------------------------------------------------- */

/* The agents run (pls gave them the token): the heartbeats of the daemons that will call back. */
static void start_beats(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    dvm->beat = wu_rte_beat_start(wu_rte_progress(), wu_rte_dvm_beat_tick, dvm);
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
        wu_rte_dvm_send_everyone(job->dvm, WU_DMSG_ALL, WU_DMSG_PIDS, m.base_ptr, m.bytes_used);
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
            wu_rte_dvm_node_lost(&dvm->d[i], NULL); /* said */
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
    const wu_rte_tree_args_t ta = {.secret = dvm->token,
                                   .wired = wired,
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
    const wu_ptl_listener_cbs_t cbs = {.recv = wu_rte_dvm_on_recv, .closed = wu_rte_dvm_on_closed};
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
    if (WU_SUCCESS != wu_progress_shift_wait(wu_rte_progress(), link_dvm, dvm, 0)) {
        return WU_ERR_NOMEM; /* (before any callback could need it) */
    }
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
    dvm->tree.agents->cb = wu_rte_dvm_agent_callbacks();
    if (WU_SUCCESS != (rc = wu_pls_launch_job(dvm->tree.agents))) {
        wu_rte_say("daemon-start-failed", wu_rte_tool, "(every node)",
                   NULL != dvm->tree.agents->launch_prog ? strerror(dvm->tree.agents->launch_errno)
                                                         : wu_strerror(rc));
        return WU_ERR_SILENT;
    }
    for (uint32_t i = 0; i < dvm->tree.agents->nprocs; i++) {
        wu_rte_watch_pid(dvm->tree.agents->procs[i].pid);
    }
    (void)wu_progress_shift_wait(wu_rte_progress(), start_beats, dvm, 0);
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
        wu_rte_dvm_send_everyone(dvm, WU_DMSG_ALL, type, m.base_ptr, m.bytes_used);
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
    wu_rte_dvm_send_everyone(job->dvm, WU_DMSG_ALL, WU_DMSG_JOBCTL, msg, len);
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
        wu_rte_dvm_release_once(&dvm->closed, &dvm->closed_done, WU_SUCCESS);
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
        free(dvm->d[i].why);
        free(dvm->d[i].host);
    }
    wu_dmsg_pending_free(&dvm->dmx); /* failed at stop (wu_rte_dvm_coll_stop) */
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
