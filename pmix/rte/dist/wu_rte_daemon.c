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
 * Messages and pending requests live on the rte progress thread; upcalls shift into it. */
#include "mca/ptl/ptl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix/rte/dist/wu_rte_beat.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix/rte/dist/wu_rte_relay.h"
#include "pmix/server/wu_server_host.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "pmix/rte/dist/wu_rte_wired.h"
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

struct rte_daemon {
    uint32_t node;
    wu_ptl_conn_t *conn;
    wu_wait_t launched; /* LAUNCH arrived (or the head is gone) */
    bool launched_done;
    wu_wait_t end; /* SHUTDOWN arrived, or the head is gone */
    bool end_done;
    wu_wait_t closed; /* the connection's closed callback has run */
    bool head_lost;
    bool terminate; /* TERMINATE came before the job ran */
    bool shutdown;  /* SHUTDOWN came (or the head is gone): the job may be removed */
    char *nspace;
    wu_rte_spec_t *app;
    wu_rte_jobmap_t *map;
    uint32_t map_node;
    pmix_proc_t parent; /* who spawned the job (empty namespace: nobody) */
    wu_dmsg_pending_t *fences, *dmx;
    struct early *early; /* requests about this node's procs before the job was registered */
    struct din *din;     /* standard input for this node's ranks */
    uint64_t next_id;
    wu_rte_tree_t tree;    /* the daemons this one starts (and their agents, ssh), if any */
    wu_rte_relay_t *relay; /* their connections to us */
    wu_wait_t agents_done;
    wu_rte_beat_peer_t beat; /* when the parent last sent anything */
    wu_rte_beat_t *ticker;   /* our heartbeats to it (NULL: no check) */
};

static struct rte_daemon *the_daemon = NULL;
/* Report threads still using the_daemon (under reports_lock), and the wait of the daemon's end
 * for them, released when the last one is done (NULL: nobody waits). */
static pthread_mutex_t reports_lock = PTHREAD_MUTEX_INITIALIZER;
static int reports_running = 0;
static wu_wait_t *reports_idle = NULL;

static void reports_add(int n)
{
    pthread_mutex_lock(&reports_lock);
    reports_running += n;
    if (0 == reports_running && NULL != reports_idle) {
        wu_wait_release(reports_idle, WU_SUCCESS);
    }
    pthread_mutex_unlock(&reports_lock);
}

/* Wait up to limit seconds for the report threads to end. */
static void reports_wait(double limit)
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

static void release_once(wu_wait_t *w, bool *flag)
{
    if (!*flag) {
        *flag = true;
        wu_wait_release(w, WU_SUCCESS);
    }
}

static void send_msg(struct rte_daemon *d, uint32_t type, wu_dmsg_t *m, pmix_status_t packed)
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
    send_msg(job->daemon, WU_DMSG_OUTPUT, &m, rc);
}

static void notice_in_rte(void *arg)
{
    struct rte_daemon *d = the_daemon;
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (NULL != d) {
        send_msg(d, WU_DMSG_NOTICE, &m, wu_dmsg_put_str(&m, arg));
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
    send_msg(job->daemon, WU_DMSG_PIDS, &m, wu_rte_pids_local(job, &m));
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
    send_msg(job->daemon, WU_DMSG_EXITED, &m, rc);
}

/* The job ends here once its processes have ended and the head says the job is over (or is
 * gone): until then the server keeps the job, so other nodes' requests for the data of this
 * node's ended processes are still answered. */
static void release_job(rte_job_t *job)
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
    send_msg(job->daemon, WU_DMSG_LOCAL_DONE, &m, PMIX_SUCCESS);
    release_job(job);
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
    if (NULL == d || d->head_lost || NULL == (p = calloc(1, sizeof *p))) {
        f->cb(NULL == p ? PMIX_ERR_NOMEM : PMIX_ERR_LOST_CONNECTION, NULL, 0, f->cbdata, NULL,
              NULL);
        free(p);
    } else {
        wu_dmsg_pending_t **pp = &d->fences;
        while (NULL != *pp) {
            pp = &(*pp)->next;
        }
        *pp = p; /* in order: the first pending fence of a set is answered first */
        p->cb = f->cb;
        p->cbdata = f->cbdata;
        p->sig = f->sig;
        p->siglen = f->siglen;
        f->sig = NULL;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = wu_dmsg_put_bytes(&m, p->sig, p->siglen);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, f->data, f->ndata) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(&m, f->timeout) : rc;
        send_msg(d, WU_DMSG_FENCE, &m, rc);
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
    if (NULL == d || d->head_lost || NULL == (p = calloc(1, sizeof *p))) {
        u->cb(NULL == p ? PMIX_ERR_NOMEM : PMIX_ERR_LOST_CONNECTION, NULL, 0, u->cbdata, NULL,
              NULL);
        free(p);
    } else {
        *p = (wu_dmsg_pending_t){
            .next = d->dmx, .id = ++d->next_id, .cb = u->cb, .cbdata = u->cbdata};
        d->dmx = p;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = wu_dmsg_put_u32(&m, d->map_node);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(&m, p->id) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_proc(&m, &u->proc) : rc;
        send_msg(d, WU_DMSG_DMODEX_REQ, &m, rc);
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
    send_msg(d, WU_DMSG_ABORT, &m, rc); /* wu_ptl_send is safe from any thread */
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

/* --- requests of other nodes about this node's procs ----------------------------------------- */

typedef struct {
    uint32_t origin;
    uint64_t id;
} dmx_req_t;

static void dmx_local_cb(pmix_status_t status, char *data, size_t sz, void *cbdata)
{
    dmx_req_t *r = cbdata;
    struct rte_daemon *d = the_daemon;
    wu_dmsg_t m;
    pmix_status_t rc;
    if (NULL != d) {
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        rc = wu_dmsg_put_dmodex_rep(&m, r->origin, r->id, status, data, sz);
        send_msg(d, WU_DMSG_DMODEX_REP, &m, rc);
    }
    free(r);
}

typedef struct early {
    struct early *next;
    dmx_req_t *r;
    pmix_proc_t proc;
} early_t;

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
        early_t *e = calloc(1, sizeof *e), **pp = &d->early;
        if (NULL == e) {
            dmx_local_cb(PMIX_ERR_NOMEM, NULL, 0, r);
            return;
        }
        e->r = r;
        e->proc = proc;
        while (NULL != *pp) {
            pp = &(*pp)->next;
        }
        *pp = e;
        return;
    }
    serve_req(r, &proc);
}

static void wu_rte_daemon_registered(rte_job_t *job)
{
    struct rte_daemon *d = job->daemon;
    while (NULL != d->early) {
        early_t *e = d->early;
        d->early = e->next;
        serve_req(e->r, &e->proc);
        free(e);
    }
}

/* --- standard input from the head node (rte thread) ------------------------------------------ */

/* Input for one rank of this node: what is not written yet, and whether it ends. */
typedef struct din {
    struct din *next;
    uint32_t rank;
    char *buf;
    size_t len;
    bool eof;
    bool dropped; /* its pipe broke (or it never had one): input is acknowledged and dropped */
    struct event *wev;
    rte_job_t *job;
} din_t;

static void din_ack(struct rte_daemon *d, uint32_t rank, size_t n)
{
    wu_dmsg_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_u32(&m, rank);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u64(&m, n) : rc;
    send_msg(d, WU_DMSG_STDIN_ACK, &m, rc);
}

static void din_flush(struct rte_daemon *d, din_t *t);

static void din_writable(evutil_socket_t fd, short what, void *arg)
{
    din_t *t = arg;
    (void)fd;
    (void)what;
    if (NULL != the_daemon) {
        din_flush(the_daemon, t);
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
    for (t = d->din; NULL != t && t->rank != rank; t = t->next) {
    }
    if (NULL == t) {
        if (NULL == (t = calloc(1, sizeof *t))) {
            free(data);
            din_ack(d, rank, len); /* dropped, so that wrun does not wait for it */
            return;
        }
        t->rank = rank;
        t->next = d->din;
        d->din = t;
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

static void wu_rte_daemon_stdin_launched(rte_job_t *job)
{
    for (din_t *t = job->daemon->din; NULL != t; t = t->next) {
        din_flush(job->daemon, t);
    }
}

static void wu_rte_daemon_stdin_stop(rte_job_t *job)
{
    struct rte_daemon *d = job->daemon;
    while (NULL != d->din) {
        din_t *t = d->din;
        d->din = t->next;
        if (NULL != t->wev) {
            event_free(t->wev);
        }
        free(t->buf);
        free(t);
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
    struct rte_daemon *d = the_daemon;
    wu_dmsg_t m;
    (void)wu_server_blocked_report(r->nspace, r->np, &lines);
    for (char **l = r->pmi; NULL != l && NULL != *l; l++) {
        (void)wu_argv_append(&lines, *l); /* and in PMI */
    }
    wu_argv_free(r->pmi);
    if (NULL != d) {
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        send_msg(d, WU_DMSG_REPORT, &m, wu_dmsg_put_argv(&m, lines));
    }
    wu_argv_free(lines);
    free(r);
    reports_add(-1);
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
        reports_add(1);
        if (0 == pthread_create(&th, NULL, report_thread, r)) {
            (void)pthread_detach(th);
            return;
        }
        reports_add(-1);
    }
    if (NULL != r) {
        wu_argv_free(r->pmi);
    }
    free(r);
    PMIX_DATA_BUFFER_CONSTRUCT(&m); /* nothing to say */
    send_msg(d, WU_DMSG_REPORT, &m, wu_dmsg_put_argv(&m, NULL));
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

static bool wu_rte_daemon_terminating(const rte_job_t *job)
{
    return job->daemon->terminate;
}

/* The job is over everywhere (SHUTDOWN) or the head is gone: end it here. */
static void shut_down(struct rte_daemon *d)
{
    d->shutdown = true;
    terminate_job(d);
    if (NULL != wu_rte_job && wu_rte_job->daemon == d) {
        release_job(wu_rte_job);
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
        for (wu_dmsg_pending_t **pp = &d->fences; NULL != *pp; pp = &(*pp)->next) {
            wu_dmsg_pending_t *p = *pp;
            if (p->siglen == siglen && 0 == memcmp(p->sig, sig, siglen)) {
                *pp = p->next;
                wu_dmsg_modex_answer(p->cb, p->cbdata, st, data, ndata);
                free(p->sig);
                free(p);
                break;
            }
        }
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
        (void)wu_dmsg_pending_answer(&d->dmx, id, st, data, ndata);
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

static void on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload, size_t len,
                    void *cbdata)
{
    struct rte_daemon *d = cbdata;
    (void)flags;
    wu_rte_beat_heard(&d->beat, wu_ptl_conn_rx_bytes(c)); /* any message is a sign of life */
    dispatch(d, tag, payload, len);                       /* BEAT has nothing else to say */
}

static void dispatch(struct rte_daemon *d, uint32_t tag, const void *payload, size_t len)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
    int32_t arg = 0;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (len > 0 && PMIX_SUCCESS != PMIx_Data_embed(&m, &bo)) {
        wu_ptl_close(d->conn);
        return;
    }
    switch (tag) {
    case WU_DMSG_LAUNCH:
        if (NULL == d->app && PMIX_SUCCESS != wu_dmsg_get_job(&m, &d->nspace, &d->app, &d->map,
                                                              &d->map_node, &d->parent)) {
            fprintf(stderr, "wired: the job description from wrun does not decode\n");
        }
        if (NULL != d->map) {
            wu_rte_relay_set_job(d->relay, d->nspace, d->map); /* to combine its fences */
            wu_rte_pids_start(d->nspace, d->map->np);
        }
        release_once(&d->launched, &d->launched_done);
        break;
    case WU_DMSG_TERMINATE:
        terminate_job(d);
        break;
    case WU_DMSG_SIGNAL:
        if (PMIX_SUCCESS == wu_dmsg_get_i32(&m, &arg) && NULL != wu_rte_job &&
            NULL != wu_rte_job->pls) {
            (void)wu_pls_signal_job(wu_rte_job->pls, arg);
        }
        break;
    case WU_DMSG_SHUTDOWN:
        shut_down(d);
        release_once(&d->launched, &d->launched_done); /* the job ended before it came */
        release_once(&d->end, &d->end_done);
        break;
    case WU_DMSG_FENCE_DONE:
        on_fence_done(d, &m);
        break;
    case WU_DMSG_DMODEX_REQ:
        on_dmodex_req(d, &m);
        break;
    case WU_DMSG_DMODEX_REP:
        on_dmodex_rep(d, &m);
        break;
    case WU_DMSG_EVENT:
        wu_rte_event_deliver(m.base_ptr, m.bytes_used);
        break;
    case WU_DMSG_STDIN:
        on_stdin(d, &m);
        break;
    case WU_DMSG_REPORT_REQ:
        on_report_req(d);
        break;
    case WU_DMSG_FWD_DOWN:
        on_fwd_down(d, &m);
        break;
    case WU_DMSG_PIDS:
        (void)wu_rte_pids_apply(&m, d->nspace, NULL,
                                UINT32_MAX); /* from wrun: other nodes' ranks */
        break;
    case WU_DMSG_RPC_REP:
        wu_rte_rpc_on_reply(&m);
        break;
    default:
        if (NULL != wu_dmsg_at_daemon(tag)) {
            wu_dmsg_at_daemon(tag)(wu_rte_job, &m); /* a service's */
        }
        break; /* else a newer head's message: ignored */
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

static void on_closed(wu_ptl_conn_t *c, int status, void *cbdata)
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
    release_once(&d->launched, &d->launched_done);
    release_once(&d->end, &d->end_done);
    wu_wait_release(&d->closed, WU_SUCCESS);
}

/* Every heartbeat interval: BEAT to the parent; a parent from which nothing came for too long
 * is gone (on_closed). */
static void beat_tick(void *arg, double now, bool judge)
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
        send_msg(d, WU_DMSG_LOCAL_DONE, &m, PMIX_SUCCESS);
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
            rc = wu_ptl_connect(wu_rte_progress(), uri, on_recv, on_closed, d, &d->conn);
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
    send_msg(d, WU_DMSG_SPAWN_FAILED, &m,
             PMIX_SUCCESS == wu_dmsg_put_u32(&m, node) ? wu_dmsg_put_str(&m, why) : PMIX_ERR_NOMEM);
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

static void sub_token(wu_wait_call_t *call)
{
    struct rte_daemon *d = the_daemon;
    if (NULL != d) {
        wu_rte_tree_token(&d->tree, call->cbdata);
    }
    wu_wait_call_done(call, WU_SUCCESS);
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
        const wu_rte_tree_args_t ta = {.wired = wired,
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
        d->tree.agents->cb =
            (wu_pls_callbacks_t){.output = sub_output, .exited = sub_exited, .done = sub_done};
        rc = wu_pls_launch_job(d->tree.agents);
    }
    if (WU_SUCCESS == rc) {
        for (uint32_t i = 0; i < d->tree.agents->nprocs; i++) {
            wu_rte_watch_pid(d->tree.agents->procs[i].pid);
        }
        (void)wu_progress_shift_wait(wu_rte_progress(), sub_token, (void *)args->token, 0);
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
            send_msg(d, WU_DMSG_SPAWN_FAILED, &m,
                     PMIX_SUCCESS == wu_dmsg_put_u32(&m, nodes[i]) ? wu_dmsg_put_str(&m, why)
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
    send_msg(d, WU_DMSG_HELLO, &m, prc);
    d->ticker = wu_rte_beat_start(wu_rte_progress(), beat_tick, d);
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
            send_msg(d, WU_DMSG_FAILED, &m,
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
    reports_wait(10.0); /* a --timeout report still being made (seconds at most) */
    if (NULL != d->tree.agents && d->tree.agents->launched) {
        /* the daemons we started end on wrun's word (or on losing us): their agents with them;
         * what is left after a while is killed (by wu_rte_tree_free) */
        (void)wu_wait_for(&d->agents_done, d->head_lost ? 2.0 : 10.0);
    }
    wu_rte_tree_free(&d->tree);
    wu_wait_destroy(&d->agents_done);
    the_daemon = NULL;
    while (NULL != d->din) { /* input that came after the job ended (its events are gone) */
        din_t *t = d->din;
        d->din = t->next;
        free(t->buf);
        free(t);
    }
    while (NULL != d->early) { /* the job never got registered */
        early_t *e = d->early;
        d->early = e->next;
        free(e->r);
        free(e);
    }
    free(d->nspace);
    wu_dmsg_free_app(d->app);
    wu_rte_jobmap_free(d->map);
    wu_wait_destroy(&d->launched);
    wu_wait_destroy(&d->end);
    wu_wait_destroy(&d->closed);
    free(d);
    return status;
}
