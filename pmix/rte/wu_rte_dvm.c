/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dvm.c -- on the head node (wrun): the daemons of a job's other nodes.
 *
 * Start: wrun listens on TCP (every interface, an ephemeral port), makes a secret token and
 * starts `wired` on every other node of the job map: a pls job of one process per node, each
 * naming its host, which the rsh component runs through the remote agent (ssh by default, the
 * pls_rsh_agent parameter), all from the head (a flat launch).
 * The token goes down the agent's standard input, never on a command line. Each daemon connects
 * back and sends HELLO with the token; once every daemon has done so within
 * rte_daemon_timeout seconds, each gets LAUNCH with the job and its node. An agent that ends
 * before its daemon said HELLO (ssh could not reach the node, wired could not be run) fails the
 * job at once with the agent's own message; a daemon that does not call back in time is named.
 *
 * Running: daemons send their processes' output and ends, which go through the same code as
 * the head node's own processes (wu_rte_job.c decides the job's end); the head sends terminate
 * and signal commands down. Fences and direct-modex requests go to wu_rte_dvm_coll.c. A daemon
 * whose connection ends before it reported its processes' end is a lost node: the job ends,
 * naming it.
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
#include "pmix/rte/wu_rte_dvm_int.h"
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

static int daemon_timeout = 60;
static int radix = 64;
static bool params_registered = false;

static const wu_mca_param_t rte_params[] = {
    WU_PARAM_INT_RANGE("daemon_timeout", &daemon_timeout, 1, 3600, WU_INFO_LVL_4,
                       "Seconds wrun waits for the daemons of the other nodes to call back"),
    WU_PARAM_END};
static const wu_mca_param_t routed_params[] = {
    WU_PARAM_INT_RANGE("radix", &radix, 0, 1000000, WU_INFO_LVL_4,
                       "Daemons each daemon starts in the launch tree (wrun starts as many, each "
                       "starting its share of the rest); 0: wrun starts every daemon itself"),
    WU_PARAM_END};

static void release_once(wu_wait_t *w, bool *flag, int rc)
{
    if (!*flag) {
        *flag = true;
        wu_wait_release(w, rc);
    }
}

/* --- sending --------------------------------------------------------------------------------- */

void wu_rte_dvm_send(wu_ptl_conn_t *c, uint32_t type, wu_dmsg_t *m)
{
    if (NULL != c) {
        (void)wu_ptl_send(c, type, 0, NULL != m ? m->base_ptr : NULL,
                          NULL != m ? m->bytes_used : 0);
    }
    if (NULL != m) {
        PMIX_DATA_BUFFER_DESTRUCT(m);
    }
}

wu_ptl_conn_t *wu_rte_dvm_conn_of(struct rte_dvm *dvm, uint32_t node)
{
    if (node >= dvm->job->map->nnodes || UINT32_MAX == dvm->by_node[node]) {
        return NULL;
    }
    return dvm->d[dvm->by_node[node]].conn;
}

/* --- a node that is gone --------------------------------------------------------------------- */

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
    if (NULL != n->dvm->agents && !n->agent_ended) {
        /* its ssh may hang on a dead link: nothing more can come through it */
        (void)wu_pls_signal_proc(n->dvm->agents, (uint32_t)(n - n->dvm->d), SIGKILL);
    }
    if (NULL != why && !job->status_set) {
        wu_rte_say("node-lost", wu_rte_tool, nd->name, why);
    }
    wu_rte_job_fail(job, 1);
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

/* Send an EVENT message to every daemon but skip's (map node; UINT32_MAX: none). */
static void event_to_daemons(struct rte_dvm *dvm, const char *msg, size_t len, uint32_t skip)
{
    for (uint32_t i = 0; i < dvm->nd; i++) {
        if (dvm->d[i].node != skip && NULL != dvm->d[i].conn) {
            (void)wu_ptl_send(dvm->d[i].conn, WU_DMSG_EVENT, 0, msg, len);
        }
    }
}

static void event_in_rte(void *arg)
{
    event_t *e = arg;
    if (NULL != wu_rte_job && NULL != wu_rte_job->dvm) {
        event_to_daemons(wu_rte_job->dvm, e->msg, e->len, UINT32_MAX);
    }
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

static void event_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

void wu_rte_event_deliver(const char *msg, size_t len)
{
    pmix_data_buffer_t m;
    pmix_byte_object_t bo = {.bytes = (char *)msg, .size = len};
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;

    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
        PMIX_SUCCESS == wu_dmsg_get_event(&m, &status, &source, &range, &info, &ninfo)) {
        /* this node's clients and the server's own handlers; the host is not called back (a
         * callback: the blocking form would wait for the server's thread from ours) */
        (void)PMIx_Notify_event(status, &source, range, info, ninfo, event_done, NULL);
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
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
        wu_rte_dvm_send(wu_rte_dvm_conn_of(job->dvm, job->map->procs[rank].node), WU_DMSG_STDIN,
                        &m);
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
        if (NULL != dvm->d[i].conn && !dvm->d[i].lost) {
            (void)wu_ptl_send(dvm->d[i].conn, WU_DMSG_REPORT_REQ, 0, NULL, 0);
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
        wu_ptl_close(n->conn);
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
        on_exited_msg(n, m);
        break;
    case WU_DMSG_LOCAL_DONE:
        n->local_done = true;
        wu_rte_job_check_done(job);
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
            if (NULL == dn->conn && !dn->lost && !dvm->stopping) {
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
        /* the other nodes, then this one's clients */
        event_to_daemons(dvm, m->base_ptr, m->bytes_used, n->node);
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
    default:
        wu_ptl_close(n->conn); /* a daemon of ours never sends that */
        break;
    }
    free(a);
}

/* Constant-time comparison of the token a peer sent. */
static bool token_ok(const char *mine, const char *theirs)
{
    size_t n = strlen(mine);
    unsigned char diff = 0;
    if (NULL == theirs || strlen(theirs) != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        diff |= (unsigned char)(mine[i] ^ theirs[i]);
    }
    return 0 == diff;
}

/* The first frame of a connection: HELLO from one of our daemons, or the peer is dropped. */
static void on_hello(struct rte_dvm *dvm, wu_ptl_conn_t *c, uint32_t type, wu_dmsg_t *m)
{
    char *version = NULL, *token = NULL, *host = NULL;
    uint32_t node = UINT32_MAX;
    int32_t pid = 0;
    dvm_node_t *n = NULL;
    bool ok = WU_DMSG_HELLO == type && PMIX_SUCCESS == wu_dmsg_get_str(m, &version) &&
              PMIX_SUCCESS == wu_dmsg_get_str(m, &token) &&
              PMIX_SUCCESS == wu_dmsg_get_u32(m, &node) &&
              PMIX_SUCCESS == wu_dmsg_get_str(m, &host) && PMIX_SUCCESS == wu_dmsg_get_i32(m, &pid);
    ok = ok && token_ok(dvm->token, token);
    if (ok && (NULL == version || 0 != strcmp(version, WU_DMSG_VERSION))) {
        char *v = wu_str_escape_dup(NULL != version ? version : "?", 64, 0);
        wu_rte_say("daemon-version", wu_rte_tool, NULL != v ? v : "?", WU_DMSG_VERSION);
        free(v);
        ok = false;
    }
    if (ok && node < dvm->job->map->nnodes && UINT32_MAX != dvm->by_node[node]) {
        n = &dvm->d[dvm->by_node[node]];
    }
    if (!ok || NULL == n || NULL != n->conn || n->lost) {
        wu_ptl_close(c);
    } else {
        wu_ptl_conn_set_trusted(c);
        wu_dmsg_keepalive(wu_ptl_conn_fd(c));
        wu_ptl_conn_retain(c);
        wu_ptl_conn_set_cbdata(c, n);
        n->conn = c;
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
    free(version);
    free(token);
    free(host);
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
    if (NULL == cbdata || NULL == wu_rte_job || NULL == wu_rte_job->dvm) {
        wu_ptl_close(c);
    } else if (cbdata == (void *)wu_rte_job->dvm) {
        on_hello(wu_rte_job->dvm, c, tag, &m); /* not authenticated yet */
    } else {
        on_daemon_msg(cbdata, tag, &m);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

static void on_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    rte_job_t *job = wu_rte_job;
    dvm_node_t *n;
    if (NULL == job || NULL == job->dvm || cbdata == (void *)job->dvm) {
        return; /* a peer that never said HELLO */
    }
    n = cbdata;
    if (n->conn != c) {
        return;
    }
    n->closed = true;
    n->dvm->nclosed++;
    if (!n->dvm->stopping) {
        node_lost(n, WU_PTL_PEER_CLOSED == status ? "its daemon's connection ended"
                                                  : wu_strerror(status));
    }
    if (n->dvm->nclosed == n->dvm->nhello) {
        release_once(&n->dvm->closed, &n->dvm->closed_done, WU_SUCCESS);
    }
}

/* --- the agents (ssh) ------------------------------------------------------------------------ */

/* The daemon an agent started (the first of its chunk of the launch tree). */
static dvm_node_t *agent_node(wu_pls_job_t *agents, wu_pls_proc_t *proc)
{
    struct rte_dvm *dvm = agents->user;
    return proc->rank < agents->nprocs ? &dvm->d[dvm->agent_d[proc->rank]] : NULL;
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
    if (NULL != n && NULL == n->conn && !dvm->stopping) {
        size_t k = len < EARLY_MAX - n->nearly ? len : EARLY_MAX - n->nearly;
        char *e = k > 0 ? realloc(n->early, n->nearly + k) : n->early;
        if (NULL != e) {
            memcpy(e + n->nearly, data, k);
            n->early = e;
            n->nearly += k;
        }
        return true;
    }
    wu_rte_agent_lines(NULL != n ? dvm->job->map->nodes[n->node].name : "?", data, len);
    return true;
}

/* A node's early agent output as one line ("a / b"), escaped; NULL if there was none. */
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
    for (char *c = raw; '\0' != *c; c++) {
        *c = '\n' == *c ? ' ' : *c; /* env and ssh split one message over writes */
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
    if (NULL != n->conn || dvm->stopping) {
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

/* This node's IPv4 addresses but loopback, comma-separated (where daemons may call back; they
 * try the address their ssh connection came from first). */
static char *head_addrs(void)
{
    struct ifaddrs *ifs = NULL;
    char **list = NULL, *joined;
    if (0 == getifaddrs(&ifs)) {
        for (struct ifaddrs *i = ifs; NULL != i; i = i->ifa_next) {
            char buf[INET_ADDRSTRLEN];
            if (NULL == i->ifa_addr || AF_INET != i->ifa_addr->sa_family) {
                continue;
            }
            inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, buf, sizeof buf);
            if (0 != strncmp(buf, "127.", 4)) {
                (void)wu_argv_append(&list, buf);
            }
        }
        freeifaddrs(ifs);
    }
    joined = NULL != list ? wu_argv_join(list, ',') : strdup("-");
    wu_argv_free(list);
    return joined;
}

/* --- start / stop ---------------------------------------------------------------------------- */

static void send_token(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    char line[sizeof dvm->token + 1];
    snprintf(line, sizeof line, "%s\n", dvm->token);
    for (uint32_t i = 0; i < dvm->agents->nprocs; i++) {
        int fd = dvm->agents->procs[i].stdin_fd;
        if (fd >= 0 && (ssize_t)strlen(line) != write(fd, line, strlen(line))) {
            /* the agent is gone already: its exit says why */
        }
        wu_pls_close_stdin(dvm->agents, i);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

static void say_missing(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    char **names = NULL, *list;
    for (uint32_t i = 0; i < dvm->nd; i++) {
        if (NULL == dvm->d[i].conn) {
            (void)wu_argv_append(&names, dvm->job->map->nodes[dvm->d[i].node].name);
        }
    }
    list = wu_argv_join(names, ',');
    wu_rte_say("daemon-timeout", wu_rte_tool, daemon_timeout, NULL != list ? list : "?");
    free(list);
    wu_argv_free(names);
    for (uint32_t i = 0; i < dvm->nd; i++) {
        dvm_node_t *n = &dvm->d[i];
        if (NULL == n->conn && NULL != n->early) { /* what its agent said meanwhile */
            wu_rte_agent_lines(dvm->job->map->nodes[n->node].name, n->early, n->nearly);
        }
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

static void send_launch(wu_wait_call_t *call)
{
    struct rte_dvm *dvm = call->cbdata;
    rte_job_t *job = dvm->job;
    char cwd[4096];
    int rc = WU_SUCCESS;
    if (NULL == getcwd(cwd, sizeof cwd)) {
        snprintf(cwd, sizeof cwd, "/");
    }
    for (uint32_t i = 0; i < dvm->nd && WU_SUCCESS == rc; i++) {
        wu_dmsg_t m;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS !=
            wu_dmsg_put_job(&m, job->nspace, job->app, cwd, job->map, dvm->d[i].node)) {
            PMIX_DATA_BUFFER_DESTRUCT(&m);
            rc = WU_ERR_NOMEM;
            break;
        }
        wu_rte_dvm_send(dvm->d[i].conn, WU_DMSG_LAUNCH, &m);
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

/* The agents of the first level of the launch tree (dvm->agents): one per chunk of the
 * daemons, each starting the chunk's first daemon, which starts the rest of its chunk. */
static int start_tree(struct rte_dvm *dvm, const char *wired, unsigned port, const char *addrs)
{
    rte_job_t *job = dvm->job;
    uint32_t *starts = calloc(dvm->nd, sizeof *starts), *lens = calloc(dvm->nd, sizeof *lens);
    uint32_t *nodes = calloc(dvm->nd, sizeof *nodes), nchunks;
    char **hosts = NULL;
    int rc = NULL != starts && NULL != lens && NULL != nodes ? WU_SUCCESS : WU_ERR_NOMEM;
    for (uint32_t i = 0; i < dvm->nd && WU_SUCCESS == rc; i++) {
        nodes[i] = dvm->d[i].node;
        rc = wu_argv_append(&hosts, job->map->nodes[dvm->d[i].node].name);
    }
    nchunks = WU_SUCCESS == rc ? wu_rte_tree_chunks(dvm->nd, (uint32_t)radix, starts, lens) : 0;
    if (WU_SUCCESS == rc && (NULL == (dvm->agent_d = calloc(nchunks, sizeof *dvm->agent_d)) ||
                             NULL == (dvm->agents = wu_pls_job_new(
                                          "wired", nchunks, (char *const[]){(char *)wired, NULL},
                                          wu_rte_progress())))) {
        rc = WU_ERR_NOMEM;
    }
    if (WU_SUCCESS == rc && NULL != job->app->prefix &&
        NULL == (dvm->agents->prefix = strdup(job->app->prefix))) {
        rc = WU_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < nchunks && WU_SUCCESS == rc; c++) {
        uint32_t first = starts[c];
        char *sub = wu_rte_tree_spec(nodes + first + 1, hosts + first + 1, lens[c] - 1);
        dvm->agent_d[c] = first;
        rc = NULL == sub
                 ? WU_ERR_NOMEM
                 : wu_rte_spawn_proc(&dvm->agents->procs[c], wired, nodes[first], hosts[first],
                                     port, addrs, (uint32_t)radix, sub, job->app->prefix);
        free(sub);
    }
    free(starts);
    free(lens);
    free(nodes);
    wu_argv_free(hosts);
    return rc;
}

int wu_rte_dvm_start(rte_job_t *job)
{
    struct rte_dvm *dvm;
    const wu_ptl_listener_cbs_t cbs = {.recv = on_recv, .closed = on_closed};
    pmix_info_t where;
    unsigned char raw[16];
    const char *uri, *colon;
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
    for (uint32_t k = 0; k < job->map->nnodes; k++) {
        dvm->by_node[k] = UINT32_MAX;
        if (k != job->mynode && job->map->nodes[k].nlocal > 0) {
            dvm->by_node[k] = dvm->nd;
            dvm->d[dvm->nd++] = (dvm_node_t){.dvm = dvm, .node = k};
        }
    }
    if (sizeof raw != getrandom(raw, sizeof raw, 0)) {
        wu_rte_say("daemon-setup", wu_rte_tool, "no random bytes for the daemons' token");
        return WU_ERR_SILENT;
    }
    for (size_t i = 0; i < sizeof raw; i++) {
        snprintf(dvm->token + 2 * i, 3, "%02x", raw[i]);
    }
    PMIx_Info_load(&where, WU_PTL_TCP_ADDR, "0.0.0.0", PMIX_STRING);
    rc = wu_ptl_listen_with(wu_rte_progress(), "tcp", &where, 1, &cbs, dvm, &dvm->listener);
    PMIX_INFO_DESTRUCT(&where);
    if (WU_SUCCESS != rc) {
        wu_rte_say("daemon-setup", wu_rte_tool, "cannot listen on TCP for the daemons (ptl tcp)");
        return WU_ERR_SILENT;
    }
    uri = wu_ptl_listener_uri(dvm->listener);
    colon = NULL != uri ? strrchr(uri, ':') : NULL;
    port = NULL != colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
    wired = wu_rte_wired_path(job->app->prefix);
    addrs = head_addrs();
    rc = NULL != wired && NULL != addrs && 0 != port ? WU_SUCCESS : WU_ERR_NOMEM;
    if (WU_SUCCESS == rc) {
        rc = start_tree(dvm, wired, port, addrs);
    }
    free(wired);
    free(addrs);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    dvm->agents->user = dvm;
    dvm->agents->cb =
        (wu_pls_callbacks_t){.output = agent_output, .exited = agent_exited, .done = agents_done};
    if (WU_SUCCESS != (rc = wu_pls_launch_job(dvm->agents))) {
        wu_rte_say("daemon-start-failed", wu_rte_tool, "(every node)",
                   NULL != dvm->agents->launch_prog ? strerror(dvm->agents->launch_errno)
                                                    : wu_strerror(rc));
        return WU_ERR_SILENT;
    }
    for (uint32_t i = 0; i < dvm->agents->nprocs; i++) {
        wu_rte_watch_pid(dvm->agents->procs[i].pid);
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
    for (uint32_t i = 0; i < dvm->nd; i++) {
        wu_dmsg_t m;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS == wu_dmsg_put_i32(&m, arg)) {
            wu_rte_dvm_send(dvm->d[i].conn, type, &m);
        } else {
            PMIX_DATA_BUFFER_DESTRUCT(&m);
        }
    }
}

void wu_rte_dvm_terminate(rte_job_t *job)
{
    send_all(job->dvm, WU_DMSG_TERMINATE, 0);
}

void wu_rte_dvm_signal(rte_job_t *job, int sig)
{
    send_all(job->dvm, WU_DMSG_SIGNAL, sig);
}

bool wu_rte_dvm_done(const rte_job_t *job)
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
    if (dvm->nclosed == dvm->nhello) {
        release_once(&dvm->closed, &dvm->closed_done, WU_SUCCESS);
    }
    wu_rte_dvm_coll_stop(dvm); /* fences and requests that can no longer complete */
    wu_wait_call_done(call, WU_SUCCESS);
}

/* Seconds the daemons get to clean up and end after SHUTDOWN, and their agents after that. */
#define STOP_WAIT 10.0

void wu_rte_dvm_stop(rte_job_t *job)
{
    struct rte_dvm *dvm = job->dvm;
    (void)wu_progress_shift_wait(wu_rte_progress(), stop_in_rte, dvm, 0);
    (void)wu_wait_for(&dvm->closed, STOP_WAIT);
    wu_ptl_listener_close(dvm->listener); /* closes what is left */
    if (NULL != dvm->agents) {
        if (dvm->agents->launched) {
            (void)wu_wait_for(&dvm->agents_done, STOP_WAIT);
        }
        wu_pls_job_free(dvm->agents); /* kills what is left */
    }
    for (uint32_t i = 0; i < dvm->nd; i++) {
        wu_ptl_conn_release(dvm->d[i].conn);
    }
    wu_wait_destroy(&dvm->ready);
    wu_wait_destroy(&dvm->closed);
    wu_wait_destroy(&dvm->agents_done);
    wu_argv_free(dvm->report);
    for (uint32_t i = 0; i < dvm->nd; i++) {
        free(dvm->d[i].early);
    }
    free(dvm->d);
    free(dvm->agent_d);
    free(dvm->by_node);
    free(dvm);
    job->dvm = NULL;
}
