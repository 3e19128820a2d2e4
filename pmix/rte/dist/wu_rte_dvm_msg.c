/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dvm_msg.c -- on the head node (wrun): the messages of the daemons of a job, and the
 * requests that go to them and wait for their answers (standard input's acknowledgements, the
 * --timeout report). A first-level daemon's first frame must be HELLO with the token; after it,
 * each message type goes to its handler in the table below (the distributed layer's own), or to
 * the service that registered it (wu_dmsg_handle); any other is what no daemon of ours sends,
 * and that daemon is dropped. FWD_UP carries the messages of deeper daemons, checked to come
 * from the relay's own branch. Everything runs on the rte progress thread but
 * wu_rte_dvm_report (the launcher's main thread), which shifts into it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "pmix/rte/dist/wu_rte_dvm_int.h"
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- events from this node's server ----------------------------------------------------------- */

typedef struct {
    char *msg;
    size_t len;
} event_t;

static void event_in_rte(void *arg)
{
    event_t *e = arg;
    wu_rte_dvm_event_everyone(NULL, WU_DMSG_ALL, e->msg, e->len);
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

void wu_rte_dvm_stdin(rte_job_t *job, uint32_t rank, const char *data, size_t len)
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

void wu_rte_dvm_report(rte_job_t *job, char ***lines)
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
        wu_rte_dvm_bad_peer(n);
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

/* The handlers of the distributed layer's own messages from a daemon (n, after its HELLO). */
typedef void (*head_msg_fn)(dvm_node_t *n, wu_dmsg_t *m);

static void on_output(dvm_node_t *n, wu_dmsg_t *m)
{
    rte_job_t *job = n->dvm->job;
    uint32_t rank = 0, stream = 0;
    char *data = NULL;
    size_t len = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &rank) && PMIX_SUCCESS == wu_dmsg_get_u32(m, &stream) &&
        PMIX_SUCCESS == wu_dmsg_get_bytes(m, &data, &len) && rank < job->np &&
        job->map->procs[rank].node == n->node) {
        (void)wu_rte_iof_output(job, rank, (int)stream, data, len);
    }
    free(data);
}

static void on_exited(dvm_node_t *n, wu_dmsg_t *m)
{
    n->started = true; /* or could not start, which it says */
    on_exited_msg(n, m);
}

static void on_local_done(dvm_node_t *n, wu_dmsg_t *m)
{
    (void)m;
    wu_rte_dvm_node_done(n);
}

static void on_fence(dvm_node_t *n, wu_dmsg_t *m)
{
    wu_rte_dvm_on_fence(n->dvm, n->node, m);
}

static void on_dmodex_req(dvm_node_t *n, wu_dmsg_t *m)
{
    wu_rte_dvm_on_dmodex_req(n->dvm, n->node, m); /* the origin is the sender */
}

static void on_dmodex_rep(dvm_node_t *n, wu_dmsg_t *m)
{
    wu_rte_dvm_on_dmodex_rep(n->dvm, m);
}

static void on_rpc(dvm_node_t *n, wu_dmsg_t *m)
{
    wu_rte_rpc_serve(n->dvm, n->node, m); /* the origin is the sender */
}

static void on_abort(dvm_node_t *n, wu_dmsg_t *m)
{
    uint32_t rank = 0;
    int32_t status = 0;
    char *msg = NULL;
    pmix_proc_t proc;
    if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &rank) && PMIX_SUCCESS == wu_dmsg_get_i32(m, &status) &&
        PMIX_SUCCESS == wu_dmsg_get_str(m, &msg)) {
        PMIX_LOAD_PROCID(&proc, n->dvm->job->nspace, rank);
        wu_rte_job_abort(&proc, status, msg);
    }
    free(msg);
}

/* A relay could not start the daemon of a node of its branch: why. */
static void on_spawn_failed(dvm_node_t *n, wu_dmsg_t *m)
{
    struct rte_dvm *dvm = n->dvm;
    uint32_t node = 0;
    char *why = NULL;
    if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &node) && PMIX_SUCCESS == wu_dmsg_get_str(m, &why) &&
        NULL != why && node < dvm->job->map->nnodes && UINT32_MAX != dvm->by_node[node]) {
        dvm_node_t *dn = &dvm->d[dvm->by_node[node]];
        if (!dn->hello && !dn->lost && !dvm->stopping) {
            wu_rte_say("daemon-start-failed", wu_rte_tool, dvm->job->map->nodes[node].name, why);
            dn->lost = true;
            wu_rte_dvm_release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
        }
    }
    free(why);
}

static void on_notice(dvm_node_t *n, wu_dmsg_t *m)
{
    char *text = NULL;
    (void)n;
    if (PMIX_SUCCESS == wu_dmsg_get_str(m, &text) && NULL != text) {
        wu_rte_write_text(STDERR_FILENO, text, strlen(text));
    }
    free(text);
}

static void on_stdin_ack(dvm_node_t *n, wu_dmsg_t *m)
{
    rte_job_t *job = n->dvm->job;
    uint32_t rank = 0;
    uint64_t bytes = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_u32(m, &rank) && PMIX_SUCCESS == wu_dmsg_get_u64(m, &bytes) &&
        rank < job->np && job->map->procs[rank].node == n->node) {
        wu_rte_stdin_acked(job, rank, (size_t)bytes);
    }
}

static void on_event(dvm_node_t *n, wu_dmsg_t *m)
{
    /* the other nodes (of every job), then this one's clients */
    wu_rte_dvm_event_everyone(n->dvm, n->node, m->base_ptr, m->bytes_used);
    wu_rte_event_deliver(m->base_ptr, m->bytes_used);
}

static void on_failed(dvm_node_t *n, wu_dmsg_t *m)
{
    rte_job_t *job = n->dvm->job;
    char *why = NULL;
    if (PMIX_SUCCESS == wu_dmsg_get_str(m, &why) && !job->status_set) {
        char *safe = wu_str_escape_dup(NULL != why ? why : "?", 4096, 0);
        wu_rte_say("daemon-failed", wu_rte_tool, job->map->nodes[n->node].name,
                   NULL != safe ? safe : "?");
        free(safe);
    }
    free(why);
    wu_rte_dvm_node_lost(n, NULL);
}

static void on_pids(dvm_node_t *n, wu_dmsg_t *m)
{
    rte_job_t *job = n->dvm->job;
    n->started = true;
    if (wu_rte_pids_apply(m, job->nspace, job, n->node)) { /* and on to the other nodes */
        wu_rte_dvm_send_everyone(n->dvm, n->node, WU_DMSG_PIDS, m->base_ptr, m->bytes_used);
        wu_rte_job_started_check(job);
    } else {
        wu_rte_dvm_bad_peer(n);
    }
}

static void on_fence_agg(dvm_node_t *n, wu_dmsg_t *m)
{
    if (&n->dvm->d[n->via] != n || !fence_agg(n, m)) {
        wu_rte_dvm_bad_peer(n); /* only a first-level relay sends it, for its branch */
    }
}

static void on_fwd_up_msg(dvm_node_t *n, wu_dmsg_t *m)
{
    if (&n->dvm->d[n->via] == n) {
        on_fwd_up(n, m);
    } else {
        wu_rte_dvm_bad_peer(n); /* wrapped twice */
    }
}

static const head_msg_fn head_msgs[WU_DMSG_TYPES_MAX] = {
    [WU_DMSG_OUTPUT] = on_output,
    [WU_DMSG_EXITED] = on_exited,
    [WU_DMSG_LOCAL_DONE] = on_local_done,
    [WU_DMSG_FENCE] = on_fence,
    [WU_DMSG_DMODEX_REQ] = on_dmodex_req,
    [WU_DMSG_DMODEX_REP] = on_dmodex_rep,
    [WU_DMSG_RPC] = on_rpc,
    [WU_DMSG_ABORT] = on_abort,
    [WU_DMSG_REPORT] = on_report,
    [WU_DMSG_SPAWN_FAILED] = on_spawn_failed,
    [WU_DMSG_NOTICE] = on_notice,
    [WU_DMSG_STDIN_ACK] = on_stdin_ack,
    [WU_DMSG_EVENT] = on_event,
    [WU_DMSG_FAILED] = on_failed,
    [WU_DMSG_PIDS] = on_pids,
    [WU_DMSG_FENCE_AGG] = on_fence_agg,
    [WU_DMSG_FWD_UP] = on_fwd_up_msg,
};

/* A message of n's daemon (after its HELLO): to its handler here or to a service's. */
static void on_daemon_msg(dvm_node_t *n, uint32_t type, wu_dmsg_t *m)
{
    wu_dmsg_at_head_fn svc = wu_dmsg_at_head(type);
    if (type < WU_DMSG_TYPES_MAX && NULL != head_msgs[type]) {
        head_msgs[type](n, m);
    } else if (NULL == svc || !svc(n->dvm->job, n->node, m)) {
        wu_rte_dvm_bad_peer(n); /* a daemon of ours never sends that */
    }
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
    if (ok && NULL != (n = wu_rte_dvm_node_of(dvm, node)) && (n->hello || n->lost)) {
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
        wu_rte_dvm_release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
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
        wu_rte_dvm_release_once(&dvm->ready, &dvm->ready_done, WU_SUCCESS);
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
            wu_rte_dvm_release_once(&dvm->ready, &dvm->ready_done, WU_ERR_SILENT);
        }
    } else {
        n->closed = true;
        if (!dvm->stopping) {
            wu_rte_dvm_node_lost(n, NULL != safe ? safe : "?");
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
        n = wu_rte_dvm_node_of(dvm, origin);
    }
    bo = (pmix_byte_object_t){.bytes = p, .size = len};
    PMIX_DATA_BUFFER_CONSTRUCT(&inner);
    if (NULL == n || n == relay || &dvm->d[n->via] != relay ||
        (len > 0 && PMIX_SUCCESS != PMIx_Data_embed(&inner, &bo))) {
        wu_rte_dvm_bad_peer(relay);
    } else if (WU_DMSG_HELLO == type) {
        if (hello_node(dvm, &inner) == n) {
            hello_accepted(n);
        } else {
            wu_rte_dvm_bad_peer(relay);
        }
    } else if (WU_DMSG_GONE == type) {
        on_gone(n, &inner);
    } else if (n->hello && !n->closed && WU_DMSG_FWD_UP != type) {
        on_daemon_msg(n, type, &inner);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&inner);
    free(p);
}

void wu_rte_dvm_on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload,
                        size_t len, void *cbdata)
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
    } else if (NULL != wu_rte_dvm_live_node(cbdata)) {
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

void wu_rte_dvm_on_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    dvm_node_t *n = wu_rte_dvm_live_node(cbdata);
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
        wu_rte_dvm_node_lost(n, WU_PTL_PEER_CLOSED == status
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
                    wu_rte_dvm_release_once(&n->dvm->ready, &n->dvm->ready_done, WU_ERR_SILENT);
                } else {
                    wu_rte_dvm_node_lost(k, why);
                }
            }
        }
    }
    if (n->dvm->nclosed == n->dvm->nconn) {
        wu_rte_dvm_release_once(&n->dvm->closed, &n->dvm->closed_done, WU_SUCCESS);
    }
}

/* Every heartbeat interval: a BEAT to each first-level daemon; one from which nothing came for
 * too long stopped answering (a stopped process: its kernel still acknowledges) and is lost with
 * the daemons it relays for, as if its connection had ended. */
void wu_rte_dvm_beat_tick(void *arg, double now, bool judge)
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
            wu_rte_dvm_node_lost(n, wu_rte_beat_why(&n->beat, why, sizeof why));
            wu_ptl_close(n->conn); /* on_closed: the daemons below it are lost too */
        }
    }
}
