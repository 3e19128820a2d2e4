/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_daemon_msg.c -- the daemon side (wired): the messages from the head node and what
 * they start: requests of other nodes about this node's processes (DMODEX_REQ), standard input
 * for its ranks, the --timeout report (in a thread of its own), the answers to its fences and
 * requests, the job's launch, end and signals. Each message type goes to its handler in the
 * table below (the distributed layer's own) or to the service that registered it
 * (wu_dmsg_handle); an unknown type (a newer head's) is ignored. FWD_DOWN carries messages for
 * this daemon, for those below it (passed on through its relay), or both. Everything runs on
 * the rte progress thread but the report threads. */
#include "opal/util/wu_argv.h"
#include "pmix/rte/dist/wu_rte_daemon_int.h"
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix/server/wu_server_host.h"
#include "pmix.h"

#include <errno.h>
#include <event2/event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Report threads still using the_daemon (under reports_lock), and the wait of the daemon's end
 * for them, released when the last one is done (NULL: nobody waits). */
static pthread_mutex_t reports_lock = PTHREAD_MUTEX_INITIALIZER;
static int reports_running = 0;
static wu_wait_t *reports_idle = NULL;

void wu_rte_daemon_reports_add(int n)
{
    pthread_mutex_lock(&reports_lock);
    reports_running += n;
    if (0 == reports_running && NULL != reports_idle) {
        wu_wait_release(reports_idle, WU_SUCCESS);
    }
    pthread_mutex_unlock(&reports_lock);
}

/* Wait up to limit seconds for the report threads to end. */
void wu_rte_daemon_reports_wait(double limit)
{
    wu_wait_t idle;
    wu_wait_init(&idle);
    pthread_mutex_lock(&reports_lock);
    if (0 == reports_running) {
        wu_wait_release(&idle, WU_SUCCESS);
    }
    reports_idle = &idle;
    pthread_mutex_unlock(&reports_lock);
    (void)wu_wait_for(&idle, limit);
    pthread_mutex_lock(&reports_lock);
    reports_idle = NULL; /* (a thread releasing it holds reports_lock) */
    pthread_mutex_unlock(&reports_lock);
    wu_wait_destroy(&idle);
}

/* --- requests of other nodes about this node's procs ----------------------------------------- */

typedef struct {
    uint32_t origin;
    uint64_t id;
} dmx_req_t;

static void dmx_local_cb(pmix_status_t status, char *data, size_t sz, void *cbdata)
{
    dmx_req_t *r = cbdata;
    struct rte_daemon *d = wu_rte_daemon_self();
    wu_dmsg_t m;
    pmix_status_t rc;
    if (NULL != d) {
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = wu_dmsg_put_dmodex_rep(&m, r->origin, r->id, status, data, sz);
        wu_rte_daemon_send_msg(d, WU_DMSG_DMODEX_REP, &m, rc);
    }
    free(r);
}

typedef struct {
    wu_list_item_t super;
    dmx_req_t *r;
    pmix_proc_t proc;
} early_t;

static WU_CLASS_INSTANCE(early_t, wu_list_item_t, NULL, NULL);

static void serve_req(dmx_req_t *r, const pmix_proc_t *proc)
{
    pmix_status_t rc = PMIx_server_dmodex_request(proc, dmx_local_cb, r);
    if (PMIX_SUCCESS != rc) {
        dmx_local_cb(rc, NULL, 0, r);
    }
}

static void on_dmodex_req(struct rte_daemon *d, wu_dmsg_t *m)
{
    dmx_req_t *r = calloc(1, sizeof *r);
    pmix_proc_t proc;
    if (NULL == r || PMIX_SUCCESS != wu_dmsg_get_u32(m, &r->origin) ||
        PMIX_SUCCESS != wu_dmsg_get_u64(m, &r->id) || PMIX_SUCCESS != wu_dmsg_get_proc(m, &proc)) {
        free(r);
        return;
    }
    if (NULL == wu_rte_job || !wu_rte_job->registered) {
        /* the job is not registered here yet: served in order once it is */
        early_t *e = WU_NEW(early_t);
        if (NULL == e) {
            dmx_local_cb(PMIX_ERR_NOMEM, NULL, 0, r);
            return;
        }
        e->r = r;
        e->proc = proc;
        wu_list_append(&d->early, &e->super);
        return;
    }
    serve_req(r, &proc);
}

void wu_rte_daemon_registered(rte_job_t *job)
{
    struct rte_daemon *d = job->daemon;
    early_t *e;
    while (NULL != (e = (early_t *)wu_list_remove_first(&d->early))) {
        serve_req(e->r, &e->proc); /* takes e->r */
        WU_RELEASE(e);
    }
}

/* --- standard input from the head node (rte thread) ------------------------------------------ */

/* Input for one rank of this node: what is not written yet, and whether it ends. */
typedef struct {
    wu_list_item_t super;
    uint32_t rank;
    char *buf;
    size_t len;
    bool eof;
    bool dropped; /* its pipe broke (or it never had one): input is acknowledged and dropped */
    struct event *wev;
    rte_job_t *job;
} din_t;

static void din_destruct(din_t *t)
{
    if (NULL != t->wev) {
        event_free(t->wev);
    }
    free(t->buf);
}

static WU_CLASS_INSTANCE(din_t, wu_list_item_t, NULL, din_destruct);

static void din_ack(struct rte_daemon *d, uint32_t rank, size_t n)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, rank);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(&m, n) : rc;
    wu_rte_daemon_send_msg(d, WU_DMSG_STDIN_ACK, &m, rc);
}

static void din_flush(struct rte_daemon *d, din_t *t);

static void din_writable(evutil_socket_t fd, short what, void *arg)
{
    din_t *t = arg;
    (void)fd;
    (void)what;
    if (NULL != wu_rte_daemon_self()) {
        din_flush(wu_rte_daemon_self(), t);
    }
}

/* Write what t holds to its rank's pipe (once the job runs), acknowledge it, close the pipe at
 * end of file. */
static void din_flush(struct rte_daemon *d, din_t *t)
{
    rte_job_t *job = wu_rte_job;
    wu_pls_proc_t *pp;
    size_t off = 0;
    if (NULL == job || NULL == job->pls || job->daemon != d || !job->pls->launched) {
        return; /* later: wu_rte_daemon_stdin_launched */
    }
    if (t->rank >= job->np || job->procs[t->rank].lidx < 0) {
        t->dropped = true;
    }
    pp = t->dropped ? NULL : &job->pls->procs[job->procs[t->rank].lidx];
    if (NULL != pp && pp->stdin_fd < 0) {
        t->dropped = true;
    }
    while (!t->dropped && off < t->len) {
        ssize_t n = write(pp->stdin_fd, t->buf + off, t->len - off);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            if (NULL == t->wev) {
                t->job = job;
                t->wev = event_new(wu_progress_base(wu_rte_progress()), pp->stdin_fd,
                                   EV_WRITE | EV_PERSIST, din_writable, t);
            }
            if (NULL != t->wev) {
                (void)event_add(t->wev, NULL);
            }
            break;
        }
        if (n < 0) {
            t->dropped = true; /* it does not read its stdin any more */
            break;
        }
        off += (size_t)n;
    }
    if (t->dropped) {
        off = t->len;
    }
    if (off > 0) {
        din_ack(d, t->rank, off);
        memmove(t->buf, t->buf + off, t->len - off);
        t->len -= off;
    }
    if (0 == t->len && NULL != t->wev) {
        event_del(t->wev);
    }
    if (0 == t->len && (t->eof || t->dropped) && NULL != pp && pp->stdin_fd >= 0) {
        wu_pls_close_stdin(job->pls, (uint32_t)job->procs[t->rank].lidx);
    }
}

static void on_stdin(struct rte_daemon *d, wu_dmsg_t *m)
{
    uint32_t rank;
    char *data = NULL;
    size_t len = 0;
    din_t *t;
    if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &rank) ||
        PMIX_SUCCESS != wu_dmsg_get_bytes(m, &data, &len)) {
        return;
    }
    WU_LIST_FOREACH(t, &d->din, din_t)
    {
        if (t->rank == rank) {
            break;
        }
    }
    if ((wu_list_item_t *)t == &d->din.sentinel) {
        if (NULL == (t = WU_NEW(din_t))) {
            free(data);
            din_ack(d, rank, len); /* dropped, so that wrun does not wait for it */
            return;
        }
        t->rank = rank;
        t->buf = NULL;
        t->len = 0;
        t->eof = t->dropped = false;
        t->wev = NULL;
        t->job = NULL;
        wu_list_append(&d->din, &t->super);
    }
    if (0 == len) {
        t->eof = true;
    } else if (t->dropped) {
        din_ack(d, rank, len);
    } else {
        char *b = realloc(t->buf, t->len + len);
        if (NULL == b) {
            din_ack(d, rank, len);
        } else {
            memcpy(b + t->len, data, len);
            t->buf = b;
            t->len += len;
        }
    }
    free(data);
    din_flush(d, t);
}

void wu_rte_daemon_stdin_launched(rte_job_t *job)
{
    din_t *t;
    WU_LIST_FOREACH(t, &job->daemon->din, din_t)
    {
        din_flush(job->daemon, t);
    }
}

void wu_rte_daemon_stdin_stop(rte_job_t *job)
{
    struct rte_daemon *d = job->daemon;
    wu_list_item_t *t;
    while (NULL != (t = wu_list_remove_first(&d->din))) {
        WU_RELEASE(t);
    }
}

/* --- the --timeout report ----------------------------------------------------------------------- */

typedef struct {
    char nspace[PMIX_MAX_NSLEN + 1];
    uint32_t np;
    char **pmi; /* what the PMI server sees its processes wait for (rte thread's) */
} report_req_t;

/* A thread of its own: the server's report may take a few seconds, which the rte thread (our
 * output, the head's messages) must not wait for. */
static void *report_thread(void *arg)
{
    report_req_t *r = arg;
    char **lines = NULL;
    struct rte_daemon *d = wu_rte_daemon_self();
    wu_dmsg_t m;
    (void)wu_server_blocked_report(r->nspace, r->np, &lines);
    for (char **l = r->pmi; NULL != l && NULL != *l; l++) {
        (void)wu_argv_append(&lines, *l); /* and in PMI */
    }
    wu_argv_free(r->pmi);
    if (NULL != d) {
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        wu_rte_daemon_send_msg(d, WU_DMSG_REPORT, &m, wu_dmsg_put_argv(&m, lines));
    }
    wu_argv_free(lines);
    free(r);
    wu_rte_daemon_reports_add(-1);
    return NULL;
}

static void on_report_req(struct rte_daemon *d)
{
    report_req_t *r = calloc(1, sizeof *r);
    pthread_t th;
    wu_dmsg_t m;
    if (NULL != r && NULL != wu_rte_job) {
        snprintf(r->nspace, sizeof r->nspace, "%s", wu_rte_job->nspace);
        wu_rte_job_blocked(wu_rte_job, &r->pmi);
        r->np = wu_rte_job->np;
        wu_rte_daemon_reports_add(1);
        if (0 == pthread_create(&th, NULL, report_thread, r)) {
            (void)pthread_detach(th);
            return;
        }
        wu_rte_daemon_reports_add(-1);
    }
    if (NULL != r) {
        wu_argv_free(r->pmi);
    }
    free(r);
    PMIX_DATA_BUFFER_CONSTRUCT(&m); /* nothing to say */
    wu_rte_daemon_send_msg(d, WU_DMSG_REPORT, &m, wu_dmsg_put_argv(&m, NULL));
}

/* --- messages from the head node (rte thread) ------------------------------------------------ */

static void fail_pending(struct rte_daemon *d)
{
    wu_dmsg_pending_fail(&d->fences, PMIX_ERR_LOST_CONNECTION);
    wu_dmsg_pending_fail(&d->dmx, PMIX_ERR_LOST_CONNECTION);
}

static void terminate_job(struct rte_daemon *d)
{
    rte_job_t *job = wu_rte_job;
    d->terminate = true;
    if (NULL != job && NULL != job->pls && !job->terminating) {
        job->terminating = true;
        (void)wu_pls_terminate_job(job->pls, 0);
    }
}

bool wu_rte_daemon_terminating(const rte_job_t *job)
{
    return job->daemon->terminate;
}

/* The job is over everywhere (SHUTDOWN) or the head is gone: end it here. */
static void shut_down(struct rte_daemon *d)
{
    d->shutdown = true;
    terminate_job(d);
    if (NULL != wu_rte_job && wu_rte_job->daemon == d) {
        wu_rte_daemon_release_job(wu_rte_job);
    }
}

static void on_fence_done(struct rte_daemon *d, wu_dmsg_t *m)
{
    char *sig = NULL, *data = NULL;
    size_t siglen = 0, ndata = 0;
    int32_t st = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_bytes(m, &sig, &siglen) &&
        PMIX_SUCCESS == wu_dmsg_get_i32(m, &st) &&
        PMIX_SUCCESS == wu_dmsg_get_bytes(m, &data, &ndata)) {
        (void)wu_dmsg_pending_answer(&d->fences, 0, NULL != sig ? sig : "", siglen, st, data,
                                     ndata);
    }
    free(sig);
    free(data);
}

static void on_dmodex_rep(struct rte_daemon *d, wu_dmsg_t *m)
{
    uint32_t origin;
    uint64_t id;
    int32_t st;
    char *data = NULL;
    size_t ndata = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_dmodex_rep(m, &origin, &id, &st, &data, &ndata)) {
        (void)wu_dmsg_pending_answer(&d->dmx, id, NULL, 0, st, data, ndata);
    }
    free(data);
}

static void dispatch(struct rte_daemon *d, uint32_t tag, const void *payload, size_t len);

/* FWD_DOWN: for us, for those below us, or both. */
static void on_fwd_down(struct rte_daemon *d, wu_dmsg_t *m)
{
    uint32_t dest = 0, skip = 0, type = 0;
    char *p = NULL;
    size_t n = 0;
    if (PMIX_SUCCESS != wu_dmsg_get_fwd(m, &dest, &skip, &type, &p, &n)) {
        return;
    }
    if (WU_DMSG_ALL == dest || dest != d->node) {
        wu_rte_relay_down(d->relay, dest, m->base_ptr, m->bytes_used); /* before our own end */
    }
    if ((WU_DMSG_ALL == dest && skip != d->node) || dest == d->node) {
        dispatch(d, type, p, n);
    }
    free(p);
}

void wu_rte_daemon_on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload,
                           size_t len, void *cbdata)
{
    struct rte_daemon *d = cbdata;
    (void)flags;
    wu_rte_beat_heard(&d->beat, wu_ptl_conn_rx_bytes(c)); /* any message is a sign of life */
    dispatch(d, tag, payload, len);                       /* BEAT has nothing else to say */
}

/* The handlers of the distributed layer's own messages from the head. */
typedef void (*daemon_msg_fn)(struct rte_daemon *d, wu_dmsg_t *m);

static void on_launch(struct rte_daemon *d, wu_dmsg_t *m)
{
    if (NULL == d->app && PMIX_SUCCESS != wu_dmsg_get_job(m, &d->nspace, &d->app, &d->map,
                                                          &d->map_node, &d->parent)) {
        fprintf(stderr, "wired: the job description from wrun does not decode\n");
    }
    if (NULL != d->map) {
        wu_rte_relay_set_job(d->relay, d->nspace, d->map); /* to combine its fences */
        wu_rte_pids_start(d->nspace, d->map->np);
    }
    wu_rte_daemon_release_once(&d->launched, &d->launched_done);
}

static void on_terminate(struct rte_daemon *d, wu_dmsg_t *m)
{
    (void)m;
    terminate_job(d);
}

static void on_signal(struct rte_daemon *d, wu_dmsg_t *m)
{
    int32_t sig = 0;
    (void)d;
    if (PMIX_SUCCESS == wu_dmsg_get_i32(m, &sig) && NULL != wu_rte_job && NULL != wu_rte_job->pls) {
        (void)wu_pls_signal_job(wu_rte_job->pls, sig);
    }
}

static void on_shutdown(struct rte_daemon *d, wu_dmsg_t *m)
{
    (void)m;
    shut_down(d);
    wu_rte_daemon_release_once(&d->launched, &d->launched_done); /* the job ended before it came */
    wu_rte_daemon_release_once(&d->end, &d->end_done);
}

static void on_event(struct rte_daemon *d, wu_dmsg_t *m)
{
    (void)d;
    wu_rte_event_deliver(m->base_ptr, m->bytes_used);
}

static void on_report_req_msg(struct rte_daemon *d, wu_dmsg_t *m)
{
    (void)m;
    on_report_req(d);
}

static void on_pids(struct rte_daemon *d, wu_dmsg_t *m)
{
    (void)wu_rte_pids_apply(m, d->nspace, NULL, UINT32_MAX); /* from wrun: other nodes' ranks */
}

static void on_rpc_rep(struct rte_daemon *d, wu_dmsg_t *m)
{
    (void)d;
    wu_rte_rpc_on_reply(m);
}

static const daemon_msg_fn daemon_msgs[WU_DMSG_TYPES_MAX] = {
    [WU_DMSG_LAUNCH] = on_launch,         [WU_DMSG_TERMINATE] = on_terminate,
    [WU_DMSG_SIGNAL] = on_signal,         [WU_DMSG_SHUTDOWN] = on_shutdown,
    [WU_DMSG_FENCE_DONE] = on_fence_done, [WU_DMSG_DMODEX_REQ] = on_dmodex_req,
    [WU_DMSG_DMODEX_REP] = on_dmodex_rep, [WU_DMSG_EVENT] = on_event,
    [WU_DMSG_STDIN] = on_stdin,           [WU_DMSG_REPORT_REQ] = on_report_req_msg,
    [WU_DMSG_FWD_DOWN] = on_fwd_down,     [WU_DMSG_PIDS] = on_pids,
    [WU_DMSG_RPC_REP] = on_rpc_rep,
};

/* A message from the head (tag, its payload): to its handler here or to a service's. */
static void dispatch(struct rte_daemon *d, uint32_t tag, const void *payload, size_t len)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (len > 0 && PMIX_SUCCESS != PMIx_Data_embed(&m, &bo)) {
        wu_ptl_close(d->conn);
        return;
    }
    if (tag < WU_DMSG_TYPES_MAX && NULL != daemon_msgs[tag]) {
        daemon_msgs[tag](d, &m);
    } else if (NULL != wu_dmsg_at_daemon(tag)) {
        wu_dmsg_at_daemon(tag)(wu_rte_job, &m); /* a service's */
    } /* else a newer head's message (or BEAT, which has nothing else to say): ignored */
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

void wu_rte_daemon_on_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    struct rte_daemon *d = cbdata;
    char why[256];
    if (!d->end_done && d->beat.silence > 0) {
        fprintf(stderr,
                "wired: its parent in the launch tree stopped answering (no message for %.0f s): "
                "ending this node's processes\n",
                d->beat.silence);
    } else if (!d->end_done) {
        fprintf(stderr,
                "wired: lost the connection to its parent in the launch tree (%s): ending this "
                "node's processes\n",
                WU_PTL_PEER_CLOSED == status ? "it closed"
                                             : wu_ptl_closed_reason(c, status, why, sizeof why));
    }
    d->head_lost = true;
    fail_pending(d);
    wu_rte_rpc_fail_all(PMIX_ERR_LOST_CONNECTION);
    shut_down(d);
    wu_rte_daemon_release_once(&d->launched, &d->launched_done);
    wu_rte_daemon_release_once(&d->end, &d->end_done);
    wu_wait_release(&d->closed, WU_SUCCESS);
}

/* Every heartbeat interval: BEAT to the parent; a parent from which nothing came for too long
 * is gone (wu_rte_daemon_on_closed). */
void wu_rte_daemon_beat_tick(void *arg, double now, bool judge)
{
    struct rte_daemon *d = arg;
    if (NULL == d->conn || d->head_lost) {
        return;
    }
    wu_rte_beat_send(d->conn);
    if (judge && !d->end_done &&
        wu_rte_beat_lost(&d->beat, wu_ptl_conn_rx_bytes(d->conn), now, wu_rte_beat_limit())) {
        wu_ptl_close(d->conn);
    }
}

void wu_rte_daemon_msg_init(struct rte_daemon *d)
{
    WU_CONSTRUCT(&d->early, wu_list_t);
    WU_CONSTRUCT(&d->din, wu_list_t);
}

void wu_rte_daemon_msg_fini(struct rte_daemon *d)
{
    early_t *e;
    din_t *t;
    while (NULL != (t = (din_t *)wu_list_remove_first(&d->din))) {
        t->wev = NULL; /* input that came after the job ended: its events are gone */
        WU_RELEASE(t);
    }
    while (NULL != (e = (early_t *)wu_list_remove_first(&d->early))) {
        free(e->r); /* the job never got registered */
        WU_RELEASE(e);
    }
    WU_DESTRUCT(&d->din);
    WU_DESTRUCT(&d->early);
    wu_dmsg_pending_free(&d->fences); /* answered on the head's loss (fail_pending) */
    wu_dmsg_pending_free(&d->dmx);
}
