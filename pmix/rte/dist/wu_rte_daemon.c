/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_daemon.c -- the daemon side (wired) of a multi-node job: the link to the head node.
 *
 * wired connects to its parent in the launch tree: wrun's TCP port, or that of the wired that
 * started it, which relays between it and wrun (first the address its ssh connection came from,
 * then the addresses listed on its command line). It says HELLO with the token it read on its
 * standard input, and waits for LAUNCH. Messages for the daemons it started itself come in
 * FWD_DOWN and go on through wu_rte_relay.c, which also sends their messages up. It then runs the job's processes of its node with the same code as wrun
 * (wu_rte_run_daemon_job): the PMIx server registers the whole job map, pls/fork starts the
 * node's processes. Their output and their ends go up to wrun, which decides the job's end;
 * TERMINATE and SIGNAL come down. The server's upcalls that need other nodes go up too: a
 * fence's data (FENCE, answered by FENCE_DONE with every node's data), a direct-modex request
 * (DMODEX_REQ, answered by DMODEX_REP), PMIx_Abort. Requests of other nodes about this node's
 * procs come down as DMODEX_REQ and are answered by this node's server.
 *
 * When its processes have all ended the daemon says LOCAL_DONE and keeps the job (other nodes may
 * still ask for the data of its ended processes) until SHUTDOWN, then removes it (registration,
 * session directory) and exits. If its parent's connection ends first (wrun, or the relay
 * between them, is gone), the daemon terminates its processes at once (SIGTERM, then SIGKILL after pls's grace period),
 * cleans up and exits: nothing is left behind when wrun dies. So it does when its parent stopped
 * answering: parent and daemon send each other BEAT every heartbeat interval, and a parent from
 * which nothing came for rte_base_heartbeat_misses intervals is taken for gone (wu_rte_beat.c).
 * The messages from the head are wu_rte_daemon_msg.c's. Messages and pending requests live on
 * the rte progress thread; upcalls shift into it. */
#include "mca/ptl/ptl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix/rte/dist/wu_rte_daemon_int.h"
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix/server/wu_server_host.h"
#include "pmix.h"

#include <errno.h>
#include <pthread.h>
#include <event2/event.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct rte_daemon *the_daemon = NULL;

struct rte_daemon *wu_rte_daemon_self(void)
{
    return the_daemon;
}

void wu_rte_daemon_release_once(wu_wait_t *w, bool *flag)
{
    if (!*flag) {
        *flag = true;
        wu_wait_release(w, WU_SUCCESS);
    }
}

void wu_rte_daemon_send_msg(struct rte_daemon *d, uint32_t type, wu_dmsg_t *m, pmix_status_t packed)
{
    if (PMIX_SUCCESS == packed && NULL != d->conn && !d->head_lost) {
        (void)wu_ptl_send(d->conn, type, 0, m->base_ptr, m->bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(m);
}

uint32_t wu_rte_daemon_node(void)
{
    return NULL != the_daemon ? the_daemon->node : UINT32_MAX;
}

const char *wu_rte_daemon_nspace(void)
{
    return NULL != the_daemon ? the_daemon->nspace : NULL;
}

pmix_status_t wu_rte_daemon_send(uint32_t type, pmix_data_buffer_t *m)
{
    struct rte_daemon *d = the_daemon;
    pmix_status_t rc = PMIX_ERR_UNREACH;
    if (NULL != d && NULL != d->conn && !d->head_lost) {
        rc = WU_SUCCESS == wu_ptl_send(d->conn, type, 0, m->base_ptr, m->bytes_used)
                 ? PMIX_SUCCESS
                 : PMIX_ERR_UNREACH;
    }
    PMIX_DATA_BUFFER_DESTRUCT(m);
    return rc;
}

/* --- output and ends of this node's processes (rte thread) ----------------------------------- */

static void wu_rte_daemon_output(rte_job_t *job, uint32_t rank, int stream, const char *data,
                                 size_t len)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, rank);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, (uint32_t)stream) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, data, len) : rc;
    wu_rte_daemon_send_msg(job->daemon, WU_DMSG_OUTPUT, &m, rc);
}

static void notice_in_rte(void *arg)
{
    struct rte_daemon *d = the_daemon;
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (NULL != d) {
        wu_rte_daemon_send_msg(d, WU_DMSG_NOTICE, &m, wu_dmsg_put_str(&m, arg));
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
    free(arg);
}

static void wu_rte_daemon_notice(const char *text)
{
    char *copy = strdup(text);
    if (NULL != copy && WU_SUCCESS != wu_progress_shift(wu_rte_progress(), notice_in_rte, copy)) {
        free(copy);
    }
}

static void wu_rte_daemon_pids(rte_job_t *job)
{
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    wu_rte_daemon_send_msg(job->daemon, WU_DMSG_PIDS, &m, wu_rte_pids_local(job, &m));
}

static void wu_rte_daemon_exited(rte_job_t *job, rte_proc_t *rp)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    uint32_t flags =
        (atomic_load(&rp->connected) ? 1u : 0u) | (atomic_load(&rp->finalized) ? 2u : 0u);
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, rp->rank);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, (uint32_t)rp->state) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, rp->wait_status) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, rp->exec_errno) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, (int32_t)rp->pid) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, flags) : rc;
    wu_rte_daemon_send_msg(job->daemon, WU_DMSG_EXITED, &m, rc);
}

/* The job ends here once its processes have ended and the head says the job is over (or is
 * gone): until then the server keeps the job, so other nodes' requests for the data of this
 * node's ended processes are still answered. */
void wu_rte_daemon_release_job(rte_job_t *job)
{
    if (job->local_done && job->daemon->shutdown && !job->done_released) {
        job->done_released = true;
        wu_wait_release(&job->done, WU_SUCCESS);
    }
}

static void wu_rte_daemon_local_done(rte_job_t *job)
{
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    wu_rte_daemon_send_msg(job->daemon, WU_DMSG_LOCAL_DONE, &m, PMIX_SUCCESS);
    wu_rte_daemon_release_job(job);
}

/* The program could not be started at all (main thread): every local rank failed with err. */
static void wu_rte_daemon_launch_failed(rte_job_t *job, int err)
{
    for (uint32_t i = 0; i < job->nlocal; i++) {
        rte_proc_t *rp = &job->procs[job->lranks[i]];
        rp->state = WU_PLS_PROC_FAILED;
        rp->exec_errno = err;
        wu_rte_daemon_exited(job, rp);
    }
    job->local_done = true;
    wu_rte_daemon_local_done(job);
}

/* --- upcalls of this node's server ----------------------------------------------------------- */

static void fence_in_rte(void *arg)
{
    wu_dmsg_fence_t *f = arg;
    struct rte_daemon *d = the_daemon;
    wu_dmsg_pending_t *p = NULL;
    wu_dmsg_t m;
    pmix_status_t rc;
    /* in order: the first pending fence of a set is answered first */
    if (NULL == d || d->head_lost ||
        NULL == (p = wu_dmsg_pending_add(&d->fences, f->cb, f->cbdata))) {
        f->cb(NULL == d || d->head_lost ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_NOMEM, NULL, 0,
              f->cbdata, NULL, NULL);
    } else {
        p->sig = f->sig;
        p->siglen = f->siglen;
        f->sig = NULL;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = wu_dmsg_put_bytes(&m, p->sig, p->siglen);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, f->data, f->ndata) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, f->timeout) : rc;
        wu_rte_daemon_send_msg(d, WU_DMSG_FENCE, &m, rc);
    }
    wu_dmsg_fence_free(f);
}

pmix_status_t wu_rte_daemon_fence(const pmix_proc_t procs[], size_t nprocs, const char *data,
                                  size_t ndata, int timeout, pmix_modex_cbfunc_t cbfunc,
                                  void *cbdata)
{
    return wu_dmsg_fence_shift(fence_in_rte, procs, nprocs, data, ndata, timeout, cbfunc, cbdata);
}

static void dmodex_in_rte(void *arg)
{
    wu_dmsg_dmodex_t *u = arg;
    struct rte_daemon *d = the_daemon;
    wu_dmsg_pending_t *p = NULL;
    wu_dmsg_t m;
    pmix_status_t rc;
    if (NULL == d || d->head_lost || NULL == (p = wu_dmsg_pending_add(&d->dmx, u->cb, u->cbdata))) {
        u->cb(NULL == d || d->head_lost ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_NOMEM, NULL, 0,
              u->cbdata, NULL, NULL);
    } else {
        p->id = ++d->next_id;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = wu_dmsg_put_u32(&m, d->map_node);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(&m, p->id) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_proc(&m, &u->proc) : rc;
        wu_rte_daemon_send_msg(d, WU_DMSG_DMODEX_REQ, &m, rc);
    }
    free(u);
}

pmix_status_t wu_rte_daemon_dmodex(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                                   void *cbdata)
{
    return wu_dmsg_dmodex_shift(dmodex_in_rte, proc, cbfunc, cbdata);
}

pmix_status_t wu_rte_daemon_abort(const pmix_proc_t *proc, int status, const char *msg)
{
    struct rte_daemon *d = the_daemon;
    wu_dmsg_t m;
    pmix_status_t rc;
    if (NULL == d) {
        return PMIX_ERR_INIT;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, proc->rank);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, status) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_str(&m, msg) : rc;
    wu_rte_daemon_send_msg(d, WU_DMSG_ABORT, &m, rc); /* wu_ptl_send is safe from any thread */
    return rc;
}

pmix_status_t wu_rte_daemon_up(uint32_t type, const char *msg, size_t len)
{
    struct rte_daemon *d = the_daemon;
    if (NULL == d || NULL == d->conn || d->head_lost) {
        return PMIX_ERR_UNREACH;
    }
    return WU_SUCCESS == wu_ptl_send(d->conn, type, 0, msg, len) ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
}

pmix_status_t wu_rte_daemon_event(const char *msg, size_t len)
{
    return wu_rte_daemon_up(WU_DMSG_EVENT, msg, len);
}

/* --- the daemon's life ----------------------------------------------------------------------- */

/* Fault injection for the tests of rte_base_launch_timeout: with WU_TEST_LAUNCH_STALL=NODE:S in
 * its environment, the daemon of map node NODE (its name) waits S seconds (or until the job's
 * end) before it sets the job up, as one whose file system hangs would. */
static void test_stall(struct rte_daemon *d)
{
    const char *v = getenv("WU_TEST_LAUNCH_STALL"), *colon;
    if (NULL == v || NULL == d->map || NULL == (colon = strrchr(v, ':')) ||
        (size_t)(colon - v) != strlen(d->map->nodes[d->map_node].name) ||
        0 != strncmp(v, d->map->nodes[d->map_node].name, (size_t)(colon - v))) {
        return;
    }
    (void)wu_wait_for(&d->end, atof(colon + 1));
}

/* rte thread: is the job still to be run here (1) or did TERMINATE come before it started (0)?
 * The head sends TERMINATE right behind LAUNCH when the job failed elsewhere meanwhile: none of
 * this node's processes will start then, and the head hears so at once (LOCAL_DONE) instead of
 * waiting for processes that never run. A TERMINATE after this answer reaches the job once its
 * processes are started (terminate_if_ending in wu_rte_job.c). */
static void still_wanted(wu_wait_call_t *call)
{
    struct rte_daemon *d = call->cbdata;
    wu_dmsg_t m;
    if (d->terminate) {
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        wu_rte_daemon_send_msg(d, WU_DMSG_LOCAL_DONE, &m, PMIX_SUCCESS);
    }
    wu_wait_call_done(call, d->terminate ? 0 : 1);
}

/* Connect to wrun: the address of our ssh client first, then those wrun listed. */
static int connect_head(struct rte_daemon *d, unsigned port, const char *addrs)
{
    char **cands = NULL, *uri = NULL;
    const char *sshc = getenv("SSH_CONNECTION");
    int rc = WU_ERR_NOT_FOUND;
    if (NULL != sshc) {
        char **f = wu_argv_split(sshc, ' ');
        if (NULL != f && NULL != f[0]) {
            (void)wu_argv_append(&cands, f[0]);
        }
        wu_argv_free(f);
    }
    if (NULL != addrs) {
        char **f = wu_argv_split(addrs, ',');
        for (char **a = f; NULL != a && NULL != *a; a++) {
            (void)wu_argv_append(&cands, *a);
        }
        wu_argv_free(f);
    }
    for (char **a = cands; NULL != a && NULL != *a && WU_SUCCESS != rc; a++) {
        free(uri);
        uri = NULL;
        if (WU_SUCCESS == wu_asprintf(&uri, "tcp4://%s:%u", *a, port)) {
            rc = wu_ptl_connect(wu_rte_progress(), uri, wu_rte_daemon_on_recv,
                                wu_rte_daemon_on_closed, d, &d->conn);
        }
        if (WU_SUCCESS == rc) {
            wu_dmsg_keepalive(wu_ptl_conn_fd(d->conn));
            wu_rte_beat_heard(&d->beat, 0);
        }
    }
    free(uri);
    wu_argv_free(cands);
    return rc;
}

/* Seconds wired waits for wrun's LAUNCH after HELLO. */
#define LAUNCH_WAIT 120.0

/* --- the daemons of this one's subtree of the launch tree --------------------------------- */

static bool sub_output(wu_pls_job_t *agents, wu_pls_proc_t *proc, int stream, const char *data,
                       size_t len)
{
    struct rte_daemon *d = agents->user;
    (void)stream;
    /* our stderr goes to wrun through our own agent */
    wu_rte_agent_lines(d->tree.hosts[d->tree.starts[proc->rank]], data, len);
    return true;
}

/* SPAWN_FAILED for map node `node`: why. */
static void spawn_failed(struct rte_daemon *d, uint32_t node, const char *why)
{
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    wu_rte_daemon_send_msg(d, WU_DMSG_SPAWN_FAILED, &m,
                           PMIX_SUCCESS == wu_dmsg_put_u32(&m, node) ? wu_dmsg_put_str(&m, why)
                                                                     : PMIX_ERR_NOMEM);
}

/* An agent ended before its daemon called us: wrun is told, for the daemon and for the rest of
 * its chunk, which it would have started. (After that, the daemon's connection tells.) */
static void sub_exited(wu_pls_job_t *agents, wu_pls_proc_t *proc)
{
    struct rte_daemon *d = agents->user;
    const wu_rte_tree_t *t = &d->tree;
    uint32_t c = proc->rank;
    char why[160];
    if (d->shutdown || d->head_lost || wu_rte_relay_connected(d->relay, c)) {
        return;
    }
    if (WU_PLS_PROC_FAILED == proc->state) {
        snprintf(why, sizeof why, "its launch agent could not be run on node %u: %s", d->node,
                 strerror(proc->exec_errno)); /* node: the map index of the node that tried */
    } else if (WIFSIGNALED(proc->wait_status)) {
        snprintf(why, sizeof why, "its launch agent on node %u was killed by signal %d", d->node,
                 WTERMSIG(proc->wait_status));
    } else {
        snprintf(why, sizeof why,
                 "its launch agent on node %u exited with status %d (its messages above)", d->node,
                 WEXITSTATUS(proc->wait_status));
    }
    spawn_failed(d, wu_rte_tree_first(t, c), why);
    snprintf(why, sizeof why, "the daemon of %s, which was to start it, could not be started",
             t->hosts[t->starts[c]]);
    for (uint32_t i = t->starts[c] + 1; i < t->starts[c] + t->lens[c]; i++) {
        spawn_failed(d, t->nodes[i], why);
    }
}

static void sub_done(wu_pls_job_t *agents)
{
    struct rte_daemon *d = agents->user;
    wu_wait_release(&d->agents_done, WU_SUCCESS);
}

/* The launch system's words on why an agent failed: wrun is told at once, for the daemon and
 * the rest of its chunk (the agent's end, which follows, then finds them told). */
static void sub_failed(wu_pls_job_t *agents, wu_pls_proc_t *proc, const char *why)
{
    struct rte_daemon *d = agents->user;
    const wu_rte_tree_t *t = &d->tree;
    uint32_t c = proc->rank;
    char more[160];
    if (d->shutdown || d->head_lost || c >= t->nchunks || wu_rte_relay_connected(d->relay, c)) {
        return;
    }
    spawn_failed(d, wu_rte_tree_first(t, c), why);
    snprintf(more, sizeof more, "the daemon of %s, which was to start it, could not be started",
             t->hosts[t->starts[c]]);
    for (uint32_t i = t->starts[c] + 1; i < t->starts[c] + t->lens[c]; i++) {
        spawn_failed(d, t->nodes[i], more);
    }
}

/* Our children's messages go up as they come (rte thread). */
static void relay_up(uint32_t type, const void *payload, size_t len, void *arg)
{
    struct rte_daemon *d = arg;
    if (NULL != d->conn && !d->head_lost) {
        (void)wu_ptl_send(d->conn, type, 0, payload, len);
    }
}

/* Start the daemons of args->spawn (our subtree), in chunks of the launch tree; they connect to
 * our relay. */
static int start_subtree(struct rte_daemon *d, const wu_rte_daemon_args_t *args)
{
    uint32_t *nodes = NULL, n = 0;
    char **hosts = NULL, *wired = NULL, *addrs = NULL;
    unsigned port = 0;
    int rc = wu_rte_tree_parse(args->spawn, &nodes, &hosts, &n);
    if (WU_SUCCESS == rc && 0 == n) {
        goto out;
    }
    if (WU_SUCCESS == rc && (NULL == (wired = wu_rte_wired_path(args->prefix)) ||
                             NULL == (addrs = wu_rte_node_addrs()))) {
        rc = WU_ERR_NOMEM;
    }
    if (WU_SUCCESS == rc) {
        rc = wu_rte_relay_open(wu_rte_progress(), args->token, relay_up, d, &d->relay, &port);
    }
    if (WU_SUCCESS == rc) {
        const wu_rte_tree_args_t ta = {.secret = args->token,
                                       .wired = wired,
                                       .port = port,
                                       .addrs = addrs,
                                       .radix = args->radix,
                                       .prefix = args->prefix};
        rc = wu_rte_tree_make(&d->tree, nodes, hosts, n, &ta);
    }
    if (WU_SUCCESS == rc) {
        rc = wu_rte_relay_set_tree(d->relay, &d->tree);
    }
    if (WU_SUCCESS == rc) {
        d->tree.agents->user = d;
        d->tree.agents->cb = (wu_pls_callbacks_t){
            .output = sub_output, .exited = sub_exited, .done = sub_done, .failed = sub_failed};
        rc = wu_pls_launch_job(d->tree.agents);
    }
    if (WU_SUCCESS == rc) {
        for (uint32_t i = 0; i < d->tree.agents->nprocs; i++) {
            wu_rte_watch_pid(d->tree.agents->procs[i].pid); /* pls gave them the token */
        }
    }
out:
    free(nodes);
    wu_argv_free(hosts);
    free(wired);
    free(addrs);
    return rc;
}

/* Report a subtree that could not be started (every daemon of it, so wrun need not wait). */
static void subtree_failed(struct rte_daemon *d, const char *spec, int rc)
{
    uint32_t *nodes = NULL, n = 0;
    char **hosts = NULL, why[160];
    snprintf(why, sizeof why,
             "node %u could not start the daemons of its part of the launch tree: %s", d->node,
             wu_strerror(rc));
    if (WU_SUCCESS == wu_rte_tree_parse(spec, &nodes, &hosts, &n)) {
        for (uint32_t i = 0; i < n; i++) {
            wu_dmsg_t m;
            PMIX_DATA_BUFFER_CONSTRUCT(&m);
            wu_rte_daemon_send_msg(d, WU_DMSG_SPAWN_FAILED, &m,
                                   PMIX_SUCCESS == wu_dmsg_put_u32(&m, nodes[i])
                                       ? wu_dmsg_put_str(&m, why)
                                       : PMIX_ERR_NOMEM);
        }
    }
    free(nodes);
    wu_argv_free(hosts);
}

/* The job's token (hex) is the secret of the servers' credential keys, as at the head. */
static void set_cred_secret(const char *token)
{
    unsigned char raw[16];
    size_t n = 0;
    for (; NULL != token && n < sizeof raw && '\0' != token[2 * n] && '\0' != token[2 * n + 1];
         n++) {
        unsigned v;
        if (1 != sscanf(token + 2 * n, "%2x", &v)) {
            return; /* not the head's: HELLO is refused anyway */
        }
        raw[n] = (unsigned char)v;
    }
    if (n == sizeof raw) {
        (void)wu_server_set_cred_secret(raw, sizeof raw);
    }
}

/* --- this node's side of the job (wu_rte_internal.h's rte_role_t) --------------------------- */

static void daemon_launched(rte_job_t *job)
{
    wu_rte_daemon_pids(job);
    wu_rte_daemon_stdin_launched(job);
}

static const rte_role_t daemon_role = {
    .registered = wu_rte_daemon_registered,
    .launched = daemon_launched,
    .stdin_from_head = true,
    .launch_failed = wu_rte_daemon_launch_failed,
    .terminating = wu_rte_daemon_terminating,
    .output = wu_rte_daemon_output,
    .exited = wu_rte_daemon_exited,
    .local_done = wu_rte_daemon_local_done,
    .stdin_stop = wu_rte_daemon_stdin_stop,
    .notice = wu_rte_daemon_notice,
};

int wu_rte_daemon_main(const wu_rte_daemon_args_t *args)
{
    uint32_t node = args->node;
    unsigned port = args->port;
    const char *addrs = args->addrs, *token = args->token;
    struct rte_daemon *d = calloc(1, sizeof *d);
    wu_dmsg_t m;
    pmix_status_t prc;
    int status = 1, rc;
    char host[256] = "";

    if (NULL == d) {
        return 1;
    }
    d->node = node;
    wu_rte_daemon_mode = true;
    set_cred_secret(token);
    wu_wait_init(&d->agents_done);
    wu_wait_init(&d->launched);
    wu_wait_init(&d->end);
    wu_wait_init(&d->closed);
    wu_rte_daemon_msg_init(d);
    the_daemon = d;
    if (WU_SUCCESS != connect_head(d, port, addrs)) {
        fprintf(stderr,
                "wired: cannot reach its parent in the launch tree (wrun, or the wired that "
                "started it) on port %u (tried the ssh client's address and %s)\n",
                port, NULL != addrs ? addrs : "none");
        goto out;
    }
    (void)gethostname(host, sizeof host - 1);
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    prc = wu_dmsg_put_str(&m, WU_DMSG_VERSION);
    prc = PMIX_SUCCESS == prc ? wu_dmsg_put_str(&m, token) : prc;
    prc = PMIX_SUCCESS == prc ? wu_dmsg_put_u32(&m, node) : prc;
    prc = PMIX_SUCCESS == prc ? wu_dmsg_put_str(&m, host) : prc;
    prc = PMIX_SUCCESS == prc ? wu_dmsg_put_i32(&m, (int32_t)getpid()) : prc;
    wu_rte_daemon_send_msg(d, WU_DMSG_HELLO, &m, prc);
    d->ticker = wu_rte_beat_start(wu_rte_progress(), wu_rte_daemon_beat_tick, d);
    if (NULL != args->spawn && WU_SUCCESS != (rc = start_subtree(d, args))) {
        subtree_failed(d, args->spawn, rc);
    }
    if (WU_ERR_TIMEOUT == wu_wait_for(&d->launched, LAUNCH_WAIT)) {
        fprintf(stderr, "wired: no job from wrun within %.0f seconds\n", LAUNCH_WAIT);
        goto out;
    }
    if (d->head_lost || NULL == d->app) {
        goto out;
    }
    if (d->map_node != node) {
        fprintf(stderr, "wired: wrun sent the job of node %u to node %u\n", d->map_node, node);
        goto out;
    }
    test_stall(d);
    if (1 == wu_progress_shift_wait(wu_rte_progress(), still_wanted, d, 0)) {
        wu_rte_spec_t *app = d->app;
        wu_rte_jobmap_t *map = d->map;
        d->map = NULL; /* taken by the job */
        rc = wu_rte_run_daemon_job(app, d->nspace, map, d->map_node, &d->parent, &daemon_role, d,
                                   &status);
        if (WU_SUCCESS != rc && WU_ERR_SILENT != rc) {
            fprintf(stderr, "wired: the job could not be run: %s\n", wu_strerror(rc));
        }
        if (WU_SUCCESS != rc) {
            PMIX_DATA_BUFFER_CONSTRUCT(&m);
            wu_rte_daemon_send_msg(d, WU_DMSG_FAILED, &m,
                                   wu_dmsg_put_str(&m, "the job could not be set up "
                                                       "(wired's messages say why)"));
        }
    }
    /* the head says when the job is over everywhere (or goes away) */
    (void)wu_wait_for(&d->end, 0);
    status = d->head_lost ? 1 : 0;
out:
    wu_rte_beat_stop(d->ticker);
    d->ticker = NULL;
    /* the daemons we started close first (after their cleanup), unless we lost our parent */
    wu_rte_relay_close(d->relay, d->head_lost ? 0.0 : 10.0);
    d->relay = NULL;
    if (NULL != d->conn) {
        d->end_done = true; /* our own close: nothing to say */
        wu_ptl_close(d->conn);
        (void)wu_wait_for(&d->closed, 10.0);
        wu_ptl_conn_release(d->conn);
    }
    wu_rte_daemon_reports_wait(10.0); /* a --timeout report still being made (seconds at most) */
    if (NULL != d->tree.agents && d->tree.agents->launched) {
        /* the daemons we started end on wrun's word (or on losing us): their agents with them;
         * what is left after a while is killed (by wu_rte_tree_free) */
        (void)wu_wait_for(&d->agents_done, d->head_lost ? 2.0 : 10.0);
    }
    wu_rte_tree_free(&d->tree);
    wu_wait_destroy(&d->agents_done);
    the_daemon = NULL;
    wu_rte_daemon_msg_fini(d); /* input and requests still held */
    free(d->nspace);
    wu_dmsg_free_app(d->app);
    wu_rte_jobmap_free(d->map);
    wu_wait_destroy(&d->launched);
    wu_wait_destroy(&d->end);
    wu_wait_destroy(&d->closed);
    free(d);
    return status;
}
