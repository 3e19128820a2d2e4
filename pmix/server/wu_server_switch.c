/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_switch.c -- the message switchyard: one table of commands, each with one handler,
 * fed by the ptl listener's receive callback; the CONNECT handshake and FINALIZE; what happens
 * when a connection ends.
 *
 * Handler contract: a handler gets the peer, the request tag and the payload positioned after
 * the command byte. It returns PMIX_SUCCESS when it has answered or will answer later (it then
 * owns the reply), or an error status that the switchyard sends back as the whole reply. A
 * handler checks that it consumed the whole payload (trailing bytes are PMIX_ERR_BAD_PARAM). */
#include "mca/psec/psec.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/server/wu_server.h"
#include "pmix/server/wu_server_host.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

int wu_srv_connect_wait = 30;

/* A CONNECT waiting for its namespace or client registration. */
struct wu_srv_pconn {
    wu_srv_pconn_t *next;
    wu_ptl_conn_t *conn; /* one reference */
    uint32_t tag;
    pmix_proc_t proc;
    pid_t pid;
    uint32_t caps;
    char *cred;
    size_t ncred;
    pmix_info_t *model; /* PMIX_MODEL_DECLARED's infos, or NULL */
    size_t nmodel;
    wu_timer_t *timer;
};

static int cmd_connect(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
static int cmd_finalize(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);

typedef int (*cmd_fn_t)(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);
static const struct {
    uint8_t cmd;
    const char *name;
    cmd_fn_t fn;
} cmds[] = {
    {WU_CMD_CONNECT, "connect", cmd_connect},
    {WU_CMD_FINALIZE, "finalize", cmd_finalize},
    {WU_CMD_ABORT, "abort", wu_srv_cmd_abort},
    {WU_CMD_COMMIT, "commit", wu_srv_cmd_commit},
    {WU_CMD_FENCE, "fence", wu_srv_cmd_fence},
    {WU_CMD_GET, "get", wu_srv_cmd_get},
    {WU_CMD_JOB_CONTROL, "job-control", wu_srv_cmd_job_control},
    {WU_CMD_QUERY, "query", wu_srv_cmd_query},
    {WU_CMD_LOG, "log", wu_srv_cmd_log},
    {WU_CMD_NOTIFY, "notify", wu_srv_cmd_notify},
    {WU_CMD_PUBLISH, "publish", wu_srv_cmd_publish},
    {WU_CMD_LOOKUP, "lookup", wu_srv_cmd_lookup},
    {WU_CMD_UNPUBLISH, "unpublish", wu_srv_cmd_unpublish},
    {WU_CMD_CONNECT_PROCS, "connect-procs", wu_srv_cmd_connect_procs},
    {WU_CMD_DISCONNECT_PROCS, "disconnect-procs", wu_srv_cmd_disconnect_procs},
    {WU_CMD_REGISTER_EVENTS, "register-events", wu_srv_cmd_register_events},
    {WU_CMD_SPAWN, "spawn", wu_srv_cmd_spawn},
    {WU_CMD_GET_CRED, "get-credential", wu_srv_cmd_get_cred},
    {WU_CMD_VALIDATE_CRED, "validate-credential", wu_srv_cmd_validate_cred},
    {WU_CMD_GROUP_CONSTRUCT, "group-construct", wu_srv_cmd_group_construct},
    {WU_CMD_GROUP_DESTRUCT, "group-destruct", wu_srv_cmd_group_destruct},
    {WU_CMD_MONITOR, "monitor", wu_srv_cmd_monitor},
};

/* ---- connections ----------------------------------------------------------------------------- */

static int srv_accept(wu_ptl_listener_t *l, wu_ptl_conn_t *c, void *cbdata)
{
    wu_srv_peer_t *peer = calloc(1, sizeof *peer);
    (void)l;
    (void)cbdata;
    if (NULL == peer || wu_srv.stopping) {
        free(peer);
        return PMIX_ERR_NOMEM;
    }
    peer->conn = c;
    wu_ptl_conn_set_cbdata(c, peer);
    return PMIX_SUCCESS;
}

static void pconn_free(wu_srv_pconn_t *pc)
{
    wu_progress_timer_cancel(pc->timer);
    wu_ptl_conn_release(pc->conn);
    free(pc->cred);
    if (NULL != pc->model) {
        PMIX_INFO_FREE(pc->model, pc->nmodel);
    }
    free(pc);
}

static void pconn_remove(wu_srv_pconn_t *pc)
{
    for (wu_srv_pconn_t **pp = &wu_srv.pconns; NULL != *pp; pp = &(*pp)->next) {
        if (*pp == pc) {
            *pp = pc->next;
            return;
        }
    }
}

static wu_server_lost_fn_t lost_hook = NULL;

static wu_server_pid_fn_t pid_hook = NULL;

void wu_server_set_pid_hook(wu_server_pid_fn_t fn)
{
    pid_hook = fn;
}

pid_t wu_srv_host_pid(const char *nspace, pmix_rank_t rank)
{
    return NULL != pid_hook ? pid_hook(nspace, rank) : 0;
}

wu_server_connect_fn_t wu_srv_connect_hook = NULL;

void wu_server_set_connect_hook(wu_server_connect_fn_t fn)
{
    wu_srv_connect_hook = fn;
}

void wu_server_set_lost_hook(wu_server_lost_fn_t fn)
{
    lost_hook = fn;
}

const char *wu_server_session_dir(void)
{
    return wu_srv.session_dir;
}

typedef struct {
    const char *nspace;
    uint32_t size;
    char **lines;
} blocked_t;

static void blocked_fn(wu_wait_call_t *call)
{
    blocked_t *b = call->cbdata;
    int rc = wu_srv_fence_report(b->nspace, b->size, &b->lines);
    if (WU_SUCCESS == rc) {
        rc = wu_srv_get_report(b->nspace, &b->lines);
    }
    wu_wait_call_done(call, rc);
}

int wu_server_blocked_report(const char *nspace, uint32_t size, char ***lines)
{
    blocked_t b = {.nspace = nspace, .size = size, .lines = NULL};
    int rc;
    if (NULL == nspace || NULL == lines) {
        return WU_ERR_BAD_PARAM;
    }
    if (!wu_srv.initialized || NULL == wu_srv.pt) {
        return WU_ERR_NOT_FOUND;
    }
    /* no time limit: b lives on this stack, so the call must be over before we return (the
     * server thread answers at once unless it is stopping) */
    rc = wu_progress_shift_wait(wu_srv.pt, blocked_fn, &b, 0);
    for (char **l = b.lines; NULL != l && NULL != *l && WU_SUCCESS == rc; l++) {
        rc = wu_argv_append(lines, *l);
    }
    wu_argv_free(b.lines);
    return rc;
}

static void srv_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    wu_srv_peer_t *peer = cbdata;
    wu_srv_client_t *cl;
    char who[PMIX_MAX_NSLEN + 16];

    wu_ptl_conn_set_cbdata(c, NULL);
    if (NULL == peer) {
        return;
    }
    /* CONNECTs of this connection still waiting for a registration */
    for (wu_srv_pconn_t **pp = &wu_srv.pconns; NULL != *pp;) {
        wu_srv_pconn_t *pc = *pp;
        if (pc->conn == c) {
            *pp = pc->next;
            pconn_free(pc);
        } else {
            pp = &pc->next;
        }
    }
    wu_srv_get_drop_conn(c);
    wu_srv_opmix_free(peer);
    cl = peer->has_proc ? wu_srv_client_find(&peer->proc) : NULL;
    if (NULL != cl && cl->conn == c) {
        wu_ptl_conn_release(cl->conn);
        cl->conn = NULL;
        if (WU_SRV_CL_CONNECTED == cl->state) {
            /* gone without PMIx_Finalize: its job must learn it */
            cl->state = WU_SRV_CL_TERMINATED;
            wu_output_verbose(WU_VERB_INFO, wu_srv.out,
                              "server: client %s disconnected without finalizing (%s)",
                              wu_srv_proc_str(&cl->proc, who, sizeof who), wu_strerror(status));
            if (NULL != lost_hook) {
                lost_hook(&cl->proc, cl->server_object);
            }
            if (!wu_srv.stopping) {
                wu_srv_fence_proc_gone(&cl->proc, true);
                wu_srv_data_gone(&cl->proc, WU_PROTO_ERR_TERMINATED);
                wu_srv_monitor_forget(&cl->proc);
            }
        } else if (WU_SRV_CL_CONNECTING == cl->state) {
            cl->state = WU_SRV_CL_REGISTERED;
        }
    }
    free(peer);
}

static void srv_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload,
                     size_t len, void *cbdata)
{
    wu_srv_peer_t *peer = cbdata;
    wu_buffer_t b;
    uint8_t cmd = 0;
    int32_t one = 1;

    if (NULL == peer || wu_srv.stopping) {
        return;
    }
    if (0 != (flags & WU_PTL_FLAG_FOREIGN)) {
        wu_srv_opmix_recv(peer, tag, flags, payload, len);
        return;
    }
    /* a read-only view of the payload: the buffer never frees or grows it */
    wu_buffer_construct(&b);
    b.base = (char *)payload;
    b.used = b.cap = len;
    if (0 != (flags & WU_PROTO_FLAG_REPLY) || 0 == tag ||
        PMIX_SUCCESS != wu_unpack(&b, &cmd, &one, PMIX_UINT8)) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: dropping a peer that sent an unreadable message");
        wu_ptl_close(c);
        return;
    }
    if (!peer->connected && WU_CMD_CONNECT != cmd) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: dropping a peer whose first message is %s, not connect",
                          wu_proto_cmd_name(cmd));
        wu_ptl_close(c);
        return;
    }
    wu_srv_dispatch(peer, tag, cmd, &b);
}

void wu_srv_dispatch(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd, wu_buffer_t *b)
{
    int rc = PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (cmds[i].cmd == cmd) {
            wu_output_verbose(WU_VERB_TRACE, wu_srv.out, "server: %s request (tag %u, %zu bytes)",
                              cmds[i].name, tag, b->used);
            rc = cmds[i].fn(peer, tag, b);
            break;
        }
    }
    if (PMIX_SUCCESS != rc) {
        wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: %s request (tag %u) failed: %s",
                          wu_proto_cmd_name(cmd), tag, PMIx_Error_string(rc));
        wu_srv_reply(peer->conn, tag, rc, NULL);
    }
}

const wu_ptl_listener_cbs_t wu_srv_listener_cbs = {srv_accept, srv_recv, srv_closed};

/* ---- CONNECT --------------------------------------------------------------------------------- */

/* The registration packed for a CONNECT reply; without the PMIX_PROC_DATA arrays when they go
 * as the namespace's job segment. */
static pmix_status_t pack_registration(wu_buffer_t *body, const wu_srv_nspace_t *ns, bool seg)
{
    pmix_info_t *some;
    size_t n = 0;
    pmix_status_t rc;
    if (!seg || 0 == ns->ninfo) {
        return wu_proto_pack_list(body, ns->info, ns->ninfo, PMIX_INFO);
    }
    if (NULL == (some = malloc(ns->ninfo * sizeof *some))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ns->ninfo; i++) {
        if (0 != strncmp(ns->info[i].key, PMIX_PROC_DATA, PMIX_MAX_KEYLEN)) {
            some[n++] = ns->info[i]; /* a shallow copy, only packed */
        }
    }
    rc = wu_proto_pack_list(body, some, n, PMIX_INFO);
    free(some);
    return rc;
}

/* Send the CONNECT reply with the job segment's descriptor; false if it could not go. */
static bool reply_with_segment(const wu_srv_op_t *op, const wu_srv_nspace_t *ns,
                               const wu_buffer_t *body)
{
    struct iovec iov = {.iov_base = body->base, .iov_len = body->used};
    wu_ptl_shared_t *payload = wu_srv_reply_payload(PMIX_SUCCESS, &iov, 1);
    bool sent = NULL != payload &&
                WU_SUCCESS == wu_ptl_send_shared_fd(op->conn, op->tag, WU_PROTO_FLAG_REPLY, payload,
                                                    ns->jobseg);
    wu_ptl_shared_release(payload);
    return sent;
}

/* The CONNECT reply's body: the registration (whole, or without what the job segment holds),
 * the number of local procs, the server's identity. */
static pmix_status_t connect_body(wu_buffer_t *body, const wu_srv_nspace_t *ns, bool seg)
{
    uint32_t nlocal = ns->nlocalprocs < 0 ? (uint32_t)wu_srv_nspace_nclients(ns->name)
                                          : (uint32_t)ns->nlocalprocs;
    pmix_status_t rc = pack_registration(body, ns, seg);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(body, &nlocal, 1, PMIX_UINT32);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(body, &wu_srv.me, 1, PMIX_PROC);
    }
    return rc;
}

static void connect_done(wu_srv_op_t *op)
{
    wu_srv_peer_t *peer = wu_ptl_conn_get_cbdata(op->conn);
    wu_srv_client_t *cl = wu_srv_client_find(&op->proc);
    wu_srv_nspace_t *ns = wu_srv_nspace_find(op->proc.nspace);
    wu_buffer_t body;
    bool seg;
    int rc;

    if (NULL == peer || NULL == cl || cl->conn != op->conn) {
        return; /* the connection or the registration went away meanwhile */
    }
    if (PMIX_SUCCESS != op->status || NULL == ns || !ns->registered) {
        cl->state = WU_SRV_CL_REGISTERED;
        wu_ptl_conn_release(cl->conn);
        cl->conn = NULL;
        peer->has_proc = false;
        wu_srv_reply_close(op->conn, op->tag,
                           PMIX_SUCCESS == op->status ? PMIX_ERR_NOT_FOUND : op->status);
        return;
    }
    wu_buffer_construct(&body);
    seg = ns->jobseg >= 0 && 0 != (cl->caps & WU_PROTO_CAP_JOB_SEGMENT);
    rc = connect_body(&body, ns, seg);
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&body);
        cl->state = WU_SRV_CL_REGISTERED;
        wu_ptl_conn_release(cl->conn);
        cl->conn = NULL;
        peer->has_proc = false;
        wu_srv_reply_close(op->conn, op->tag, rc);
        return;
    }
    cl->state = WU_SRV_CL_CONNECTED;
    peer->connected = true;
    wu_ptl_conn_set_trusted(op->conn); /* authenticated: its next messages may be large */
    if (NULL != peer->ox) {
        wu_srv_opmix_connected(peer); /* its own answer; it asks for its job's data next */
        seg = true;
    } else if (seg && !reply_with_segment(op, ns, &body)) {
        body.used = 0; /* the descriptor could not go: everything by the socket then */
        seg = false;
        if (PMIX_SUCCESS != (rc = connect_body(&body, ns, false))) {
            wu_srv_reply(op->conn, op->tag, rc, NULL);
            wu_buffer_destruct(&body);
            return;
        }
    }
    if (!seg) {
        wu_srv_reply(op->conn, op->tag, PMIX_SUCCESS, &body);
    }
    wu_buffer_destruct(&body);
    if (NULL != op->info) {
        /* the client declared its programming model: this process's handlers for
         * PMIX_MODEL_DECLARED hear of it (a host that registered one) */
        (void)wu_event_deliver(PMIX_MODEL_DECLARED, &op->proc, PMIX_RANGE_PROC_LOCAL, op->info,
                               op->ninfo, 0, NULL, NULL);
    }
    wu_srv_event_connected(cl); /* after the reply: the events held for it */
}

/* Check and accept a CONNECT whose client and namespace are registered; model (nmodel infos,
 * NULL: none) is the event of its programming model, which the operation takes. */
static void connect_proceed(wu_ptl_conn_t *conn, uint32_t tag, const pmix_proc_t *proc, pid_t pid,
                            uint32_t caps, const char *cred, size_t ncred, pmix_info_t **model,
                            size_t nmodel)
{
    wu_srv_peer_t *peer = wu_ptl_conn_get_cbdata(conn);
    wu_srv_client_t *cl = wu_srv_client_find(proc);
    wu_psec_peer_t got = {(uid_t)-1, (gid_t)-1, (pid_t)-1};
    char who[PMIX_MAX_NSLEN + 16];
    wu_srv_op_t *op;
    int rc;

    if (NULL == peer || NULL == cl) {
        wu_srv_reply_close(conn, tag, PMIX_ERR_NOT_FOUND);
        return;
    }
    wu_srv_proc_str(proc, who, sizeof who);
    rc = NULL != peer->ox ? wu_srv_opmix_validate(conn, cl->uid, cl->gid, cred, ncred, &got)
                          : wu_psec_base_validate_peer(wu_ptl_conn_fd(conn), cl->uid, cl->gid, cred,
                                                       ncred, &got);
    if (PMIX_SUCCESS != rc) {
        wu_show_help(WU_SRV_HELP, "connect-refused", true, who, (int)pid, (int)got.pid,
                     (int)got.uid, (int)got.gid, (unsigned)cl->uid, (unsigned)cl->gid,
                     PMIx_Error_string(rc));
        wu_srv_reply_close(conn, tag, PMIX_ERR_INVALID_CRED);
        return;
    }
    if (WU_SRV_CL_CONNECTING == cl->state || WU_SRV_CL_CONNECTED == cl->state) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out, "server: %s is already connected", who);
        wu_srv_reply_close(conn, tag, PMIX_ERR_EXISTS);
        return;
    }
    cl->state = WU_SRV_CL_CONNECTING;
    cl->pid = (pid_t)-1 != got.pid ? got.pid : pid;
    cl->caps = caps;
    wu_ptl_conn_retain(conn);
    wu_ptl_conn_release(cl->conn);
    cl->conn = conn;
    peer->has_proc = true;
    peer->proc = *proc;
    if (NULL == (op = wu_srv_op_new(connect_done, conn, tag))) {
        cl->state = WU_SRV_CL_REGISTERED;
        wu_srv_reply_close(conn, tag, PMIX_ERR_NOMEM);
        return;
    }
    op->proc = *proc;
    op->info = *model;
    op->ninfo = nmodel;
    *model = NULL;
    wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: %s connecting (pid %d)", who,
                      (int)cl->pid);
    /* As OpenPMIx 4.2 does, the host gets no callback to call: PMIX_SUCCESS and
     * PMIX_OPERATION_SUCCEEDED both accept the client at once (Slurm returns PMIX_SUCCESS and
     * never calls back), any other status refuses it. */
    if (NULL != wu_srv.host.client_connected2) {
        /* the host is told the model too (the event's infos but its PMIX_EVENT_NON_DEFAULT) */
        rc = wu_srv.host.client_connected2(&op->proc, cl->server_object, op->info,
                                           op->ninfo > 0 ? op->ninfo - 1 : 0, NULL, NULL);
    } else if (NULL != wu_srv.host.client_connected) {
        rc = wu_srv.host.client_connected(&op->proc, cl->server_object, NULL, NULL);
    } else {
        rc = PMIX_OPERATION_SUCCEEDED;
    }
    wu_srv_op_started(op, PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc);
}

static void pconn_timeout(void *arg)
{
    wu_srv_pconn_t *pc = arg;
    char who[PMIX_MAX_NSLEN + 16];
    pconn_remove(pc);
    wu_show_help(WU_SRV_HELP, "connect-unregistered", true,
                 wu_srv_proc_str(&pc->proc, who, sizeof who), wu_srv_connect_wait);
    wu_srv_reply_close(pc->conn, pc->tag, PMIX_ERR_NOT_FOUND);
    pconn_free(pc);
}

/* Is proc's registration complete (client known, namespace registered)? Or hopeless? */
static int connect_ready(const pmix_proc_t *proc)
{
    wu_srv_nspace_t *ns = wu_srv_nspace_find(proc->nspace);
    wu_srv_client_t *cl = wu_srv_client_find(proc);
    if (NULL != cl && NULL != ns && ns->registered) {
        return PMIX_SUCCESS;
    }
    if (NULL == cl && NULL != ns && ns->registered) {
        return PMIX_ERR_NOT_FOUND;
    }
    return PMIX_ERR_WOULD_BLOCK;
}

void wu_srv_pconn_retry(void)
{
    for (wu_srv_pconn_t **pp = &wu_srv.pconns; NULL != *pp;) {
        wu_srv_pconn_t *pc = *pp;
        int rc = connect_ready(&pc->proc);
        if (PMIX_ERR_WOULD_BLOCK == rc) {
            pp = &pc->next;
            continue;
        }
        *pp = pc->next;
        if (PMIX_SUCCESS == rc) {
            connect_proceed(pc->conn, pc->tag, &pc->proc, pc->pid, pc->caps, pc->cred, pc->ncred,
                            &pc->model, pc->nmodel);
        } else {
            wu_srv_reply_close(pc->conn, pc->tag, rc);
        }
        pconn_free(pc);
    }
}

void wu_srv_pconn_fail_all(pmix_status_t status)
{
    while (NULL != wu_srv.pconns) {
        wu_srv_pconn_t *pc = wu_srv.pconns;
        wu_srv.pconns = pc->next;
        wu_srv_reply_close(pc->conn, pc->tag, status);
        pconn_free(pc);
    }
}

void wu_srv_connect_begin(wu_srv_peer_t *peer, uint32_t tag, const pmix_proc_t *proc, pid_t pid,
                          uint32_t caps, const char *cred, size_t ncred, pmix_info_t **model,
                          size_t nmodel)
{
    int rc = connect_ready(proc);
    wu_srv_pconn_t *pc;
    char who[PMIX_MAX_NSLEN + 16];
    if (PMIX_SUCCESS == rc) {
        connect_proceed(peer->conn, tag, proc, pid, caps, cred, ncred, model, nmodel);
        return;
    }
    if (PMIX_ERR_WOULD_BLOCK != rc) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: refusing %s: not registered with this server",
                          wu_srv_proc_str(proc, who, sizeof who));
        wu_srv_reply_close(peer->conn, tag, rc);
        return;
    }
    if (NULL == (pc = calloc(1, sizeof *pc)) || (ncred > 0 && NULL == (pc->cred = malloc(ncred)))) {
        free(pc);
        wu_srv_reply_close(peer->conn, tag, PMIX_ERR_NOMEM);
        return;
    }
    pc->conn = peer->conn;
    wu_ptl_conn_retain(pc->conn);
    pc->tag = tag;
    pc->proc = *proc;
    pc->pid = pid;
    pc->caps = caps;
    if (ncred > 0) {
        memcpy(pc->cred, cred, ncred);
    }
    pc->ncred = ncred;
    pc->model = *model;
    pc->nmodel = nmodel;
    *model = NULL;
    pc->timer = wu_progress_timer(wu_srv.pt, wu_srv_connect_wait, pconn_timeout, pc);
    if (NULL == pc->timer) {
        pconn_free(pc);
        wu_srv_reply_close(peer->conn, tag, PMIX_ERR_NOMEM);
        return;
    }
    pc->next = wu_srv.pconns;
    wu_srv.pconns = pc;
}

/* CONNECT, in an order that says nothing about what a peer sent before it has shown who it is:
 * (1) the request must parse; (2) the credential must satisfy psec without knowing the proc
 * yet (TCP: the server's token; Unix sockets: the kernel knows the peer, and the session
 * directory's mode keeps other users out); (3) only then are the protocol version and the psec
 * mode compared, and a mismatch reported with the peer's strings escaped and bounded; (4) the
 * proc's registration, waited for if need be, and its registered uid and gid checked in
 * connect_proceed. A peer refused in (1) or (2) gets a bare status and costs one verbose
 * line (plus psec's own refusal message, which shows nothing the peer sent). */
static int cmd_connect(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    char *version = NULL, *mode = NULL;
    char esc[4 * WU_ESC_SHORT + 4];
    pmix_byte_object_t cred = PMIX_BYTE_OBJECT_STATIC_INIT;
    pmix_proc_t proc = PMIX_PROC_STATIC_INIT;
    pid_t pid = 0;
    uint32_t caps = 0;
    pmix_info_t *declared = NULL, *model = NULL;
    size_t ndeclared = 0, nmodel = 0;
    int rc;

    if (peer->connected || peer->has_proc) {
        return PMIX_ERR_EXISTS;
    }
    if (PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &version, PMIX_STRING)) ||
        PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &mode, PMIX_STRING)) ||
        PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &cred, PMIX_BYTE_OBJECT)) ||
        PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &proc, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &pid, PMIX_PID)) ||
        (0 != wu_buffer_remaining(b) &&
         PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &caps, PMIX_UINT32))) ||
        (0 != wu_buffer_remaining(b) &&
         PMIX_SUCCESS !=
             (rc = wu_proto_unpack_list(b, (void **)&declared, &ndeclared, PMIX_INFO))) ||
        0 != wu_buffer_remaining(b) || NULL == version || PMIX_RANK_VALID < proc.rank ||
        '\0' == proc.nspace[0]) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out, "server: refusing a malformed connect request");
        rc = PMIX_ERR_BAD_PARAM;
        goto refuse;
    }
    rc = wu_psec_base_validate_peer(wu_ptl_conn_fd(peer->conn), WU_PSEC_ANY_ID, WU_PSEC_ANY_ID,
                                    cred.bytes, cred.size, NULL);
    if (PMIX_SUCCESS != rc) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: refusing a connect request without valid credentials (%s)",
                          PMIx_Error_string(rc));
        rc = PMIX_ERR_INVALID_CRED;
        goto refuse;
    }
    if (0 != strcmp(version, WU_PROTO_VERSION)) {
        wu_show_help(WU_SRV_HELP, "protocol-mismatch", true,
                     wu_str_escape(version, WU_ESC_SHORT, esc, sizeof esc, 0), WU_PROTO_VERSION);
        rc = PMIX_ERR_NOT_SUPPORTED;
        goto refuse;
    }
    if (PMIX_SUCCESS != wu_psec_base_check_mode(mode)) {
        rc = PMIX_ERR_INVALID_CRED;
        goto refuse;
    }
    /* of what the client declared, only its programming model is taken */
    nmodel = wu_model_event_info(declared, ndeclared, &model);
    wu_srv_connect_begin(peer, tag, &proc, pid, caps, cred.bytes, cred.size, &model, nmodel);
    rc = PMIX_SUCCESS;
refuse:
    free(version);
    free(mode);
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    if (NULL != declared) {
        PMIX_INFO_FREE(declared, ndeclared);
    }
    if (NULL != model) {
        PMIX_INFO_FREE(model, nmodel);
    }
    if (PMIX_SUCCESS != rc) {
        wu_srv_reply_close(peer->conn, tag, rc);
    }
    return PMIX_SUCCESS;
}

/* ---- FINALIZE -------------------------------------------------------------------------------- */

static void finalize_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

static int cmd_finalize(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    wu_srv_op_t *op;
    int rc;

    if (0 != wu_buffer_remaining(b)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == cl) {
        return PMIX_ERR_NOT_FOUND; /* deregistered meanwhile */
    }
    cl->state = WU_SRV_CL_FINALIZED;
    wu_srv_fence_proc_gone(&cl->proc, false);
    wu_srv_data_gone(&cl->proc, PMIX_ERR_NOT_FOUND);
    wu_srv_monitor_forget(&cl->proc);
    if (NULL == (op = wu_srv_op_new(finalize_done, peer->conn, tag))) {
        return PMIX_ERR_NOMEM;
    }
    op->proc = cl->proc;
    rc = PMIX_OPERATION_SUCCEEDED;
    if (NULL != wu_srv.host.client_finalized) {
        rc = wu_srv.host.client_finalized(&op->proc, cl->server_object, wu_srv_op_cb, op);
    }
    wu_srv_op_started(op, rc);
    return PMIX_SUCCESS;
}
