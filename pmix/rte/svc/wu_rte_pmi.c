/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pmi.c -- the PMI server of one node for one job: MPICH's "simple PMI" (PMI-1 and
 * PMI-2, wu_rte_pmi_wire.h) for the job's processes that run here, as Hydra's proxy serves them.
 *
 * Each local process gets one end of a socket pair as its PMI_FD (pls keeps it open across
 * exec); the other end is a connection here, read on the rte progress thread, where everything
 * of this file runs but pmi_setup and pmi_attach (the launcher's main thread,
 * before the launch). The socket names its process: no message can claim another rank.
 *
 * The key-value space is the job's, flat (PMI-1's kvsname and PMI-2's jobid and srcid select
 * nothing else): a put is visible on its node at once; a barrier (PMI-1 barrier_in, PMI-2
 * kvs-fence) completes when every local process that has not ended entered it, and, when the
 * job spans nodes, after the job's fence across nodes (the same collective the PMIx server's
 * fences use, with the puts made here since the last barrier as this node's contribution);
 * then every put of every node is visible. Node attributes (PMI-2 info-putnodeattr) stay on the
 * node. The job attributes are PMI_process_mapping (MPICH's node map) and universeSize.
 *
 * A process's init counts as its connection and its finalize as its finalize, as for PMIx
 * clients, so the launcher's rules for processes that end without finalizing apply; abort ends
 * the job with the status given. A malformed or oversized message is reported once and closes
 * that process's connection; the rest of the job goes on. wu_rte_pmi_cmds.c answers the
 * commands, wu_rte_pmi_dpm.c those of dynamic processes (name service, spawn). */
#include "pmix/rte/svc/wu_rte_pmi.h"
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_error.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* --- output ---------------------------------------------------------------------------------- */

static void close_conn(pmi_conn_t *c);

static void write_cb(evutil_socket_t fd, short what, void *arg);

/* Write what is queued; the rest waits for the socket to take it. */
static void flush_out(pmi_conn_t *c)
{
    while (c->outoff < c->outlen) {
        ssize_t n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            if (NULL == c->wev) {
                c->wev =
                    event_new(wu_progress_base(wu_rte_progress()), c->fd, EV_WRITE, write_cb, c);
            }
            if (NULL != c->wev) {
                (void)event_add(c->wev, NULL);
            }
            return;
        }
        if (n <= 0) {
            c->outoff = c->outlen = 0; /* the process is gone: nothing more reaches it */
            return;
        }
        c->outoff += (size_t)n;
    }
    c->outoff = c->outlen = 0;
}

static void write_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    flush_out(arg);
}

void wu_rte_pmi_send(pmi_conn_t *c, wu_pmi_out_t *o)
{
    if (c->fd >= 0 && WU_SUCCESS == wu_pmi_out_end(o)) {
        if (c->outlen + o->len > c->outcap) {
            size_t ncap = c->outlen + o->len + 256;
            char *nb = realloc(c->out, ncap);
            if (NULL == nb) {
                wu_pmi_out_free(o);
                return;
            }
            c->out = nb;
            c->outcap = ncap;
        }
        memcpy(c->out + c->outlen, o->buf, o->len);
        c->outlen += o->len;
        if (NULL == c->wev || !event_pending(c->wev, EV_WRITE, NULL)) {
            flush_out(c);
        }
    }
    wu_pmi_out_free(o);
}

/* --- input ----------------------------------------------------------------------------------- */

/* Handle every complete message in c->in; false when the connection was closed. */
static bool handle_input(pmi_conn_t *c)
{
    size_t off = 0;
    bool open = true;
    while (open && off < c->inlen) {
        wu_pmi_wire_t wire;
        ssize_t n = wu_pmi_frame(c->in + off, c->inlen - off, c->v2, &wire);
        wu_pmi_msg_t m;
        int rc;
        if (0 == n) {
            break;
        }
        if (n < 0) {
            wu_rte_pmi_bad(c, c->inlen - off >= WU_PMI_MSG_MAX ? "a message longer than 64 KiB"
                                                               : "a message that is not PMI");
            return false;
        }
        rc = wu_pmi_parse(c->in + off, (size_t)n, wire, &m);
        off += (size_t)n;
        if (WU_ERR_NOMEM == rc) {
            continue; /* dropped: the process waits, as if the message were lost */
        }
        if (WU_SUCCESS != rc) {
            wu_rte_pmi_bad(c, "a malformed PMI message");
            return false;
        }
        open = wu_rte_pmi_command(c, &m);
        wu_pmi_msg_free(&m);
    }
    if (open && off > 0) {
        memmove(c->in, c->in + off, c->inlen - off);
        c->inlen -= off;
    }
    return open;
}

/* Read what the socket has; false when the connection ended (closed here). */
static bool read_some(pmi_conn_t *c)
{
    for (int burst = 0; burst < 64; burst++) {
        ssize_t n;
        if (c->incap - c->inlen < 4096) {
            size_t ncap = c->incap < 8192 ? 8192 : 2 * c->incap;
            char *nb;
            if (ncap > 2 * (size_t)WU_PMI_MSG_MAX + 8192 || NULL == (nb = realloc(c->in, ncap))) {
                wu_rte_pmi_bad(c, "a message longer than 64 KiB");
                return false;
            }
            c->in = nb;
            c->incap = ncap;
        }
        n = recv(c->fd, c->in + c->inlen, c->incap - c->inlen, 0);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            return true;
        }
        if (n <= 0) {
            wu_rte_pmi_lost(c);
            close_conn(c);
            return false;
        }
        c->inlen += (size_t)n;
        if (!handle_input(c)) {
            return false;
        }
    }
    return true;
}

static void read_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)read_some(arg);
}

static void close_conn(pmi_conn_t *c)
{
    if (NULL != c->ev) {
        event_free(c->ev);
        c->ev = NULL;
    }
    if (NULL != c->wev) {
        event_free(c->wev);
        c->wev = NULL;
    }
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    free(c->in);
    free(c->out);
    c->in = c->out = NULL;
    c->inlen = c->incap = c->outlen = c->outoff = c->outcap = 0;
}

void wu_rte_pmi_close(pmi_conn_t *c)
{
    close_conn(c);
}

/* --- the job's server ------------------------------------------------------------------------ */

static void pmi_free(rte_job_t *job);

static int pmi_setup(rte_job_t *job)
{
    rte_pmi_t *p;
    if (0 == job->nlocal) {
        return WU_SUCCESS;
    }
    if (NULL == (p = calloc(1, sizeof *p)) ||
        NULL == (p->conns = calloc(job->nlocal, sizeof *p->conns))) {
        free(p);
        return WU_ERR_NOMEM;
    }
    p->job = job;
    p->n = job->nlocal;
    for (uint32_t i = 0; i < p->n; i++) {
        p->conns[i] = (pmi_conn_t){.pmi = p, .rank = job->lranks[i], .fd = -1, .child_fd = -1};
    }
    p->kvs = WU_NEW(wu_hash_table_t);
    p->nattr = WU_NEW(wu_hash_table_t);
    job->pmi = p;
    if (NULL == p->kvs || NULL == p->nattr) {
        pmi_free(job);
        return WU_ERR_NOMEM;
    }
    wu_rte_pmi_preputs(p); /* a spawned job's values from its parent */
    return WU_SUCCESS;
}

static int pmi_attach(rte_job_t *job, uint32_t lidx, int *child_fd)
{
    int sv[2];
    pmi_conn_t *c;
    if (NULL == job->pmi || lidx >= job->pmi->n) {
        return WU_ERR_BAD_PARAM;
    }
    c = &job->pmi->conns[lidx];
    if (0 != socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        return wu_status_from_errno(errno);
    }
    /* neither end may be 0-2, which the child's standard streams replace */
    for (int k = 0; k < 2; k++) {
        if (sv[k] <= STDERR_FILENO) {
            int nfd = fcntl(sv[k], F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
            close(sv[k]);
            sv[k] = nfd;
        }
    }
    if (sv[0] < 0 || sv[1] < 0) {
        int e = errno;
        if (sv[0] >= 0) {
            close(sv[0]);
        }
        if (sv[1] >= 0) {
            close(sv[1]);
        }
        return wu_status_from_errno(e);
    }
    (void)fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
    c->fd = sv[0];
    c->child_fd = sv[1];
    *child_fd = sv[1];
    return WU_SUCCESS;
}

static void pmi_start(rte_job_t *job)
{
    rte_pmi_t *p = job->pmi;
    for (uint32_t i = 0; NULL != p && i < p->n; i++) {
        pmi_conn_t *c = &p->conns[i];
        if (c->child_fd >= 0) {
            close(c->child_fd); /* the process has its own copy (or never started) */
            c->child_fd = -1;
        }
        if (c->fd >= 0 && NULL == c->ev) {
            c->ev = event_new(wu_progress_base(wu_rte_progress()), c->fd, EV_READ | EV_PERSIST,
                              read_cb, c);
            if (NULL == c->ev || 0 != event_add(c->ev, NULL)) {
                close_conn(c);
            }
        }
    }
}

static void pmi_proc_ended(rte_job_t *job, uint32_t lidx)
{
    rte_pmi_t *p = job->pmi;
    pmi_conn_t *c;
    if (NULL == p || lidx >= p->n) {
        return;
    }
    c = &p->conns[lidx];
    c->ended = true;
    /* what it wrote before it ended (an abort, say) counts first */
    if (c->fd >= 0 && NULL != c->ev && read_some(c)) {
        close_conn(c);
    }
    wu_rte_pmi_check_barrier(p);
}

static void pmi_free(rte_job_t *job)
{
    rte_pmi_t *p = job->pmi;
    void *it = NULL, *v;
    if (NULL == p) {
        return;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        close_conn(&p->conns[i]);
        if (p->conns[i].child_fd >= 0) {
            close(p->conns[i].child_fd);
        }
        free(p->conns[i].thrid);
        free(p->conns[i].wait_key);
    }
    while (NULL != p->kvs && WU_SUCCESS == wu_hash_table_next_str(p->kvs, &it, NULL, &v)) {
        free(v);
    }
    it = NULL;
    while (NULL != p->nattr && WU_SUCCESS == wu_hash_table_next_str(p->nattr, &it, NULL, &v)) {
        free(v);
    }
    if (NULL != p->kvs) {
        WU_RELEASE(p->kvs);
    }
    if (NULL != p->nattr) {
        WU_RELEASE(p->nattr);
    }
    free(p->fresh);
    free(p->mapping);
    free(p->conns);
    free(p);
    job->pmi = NULL;
}

/* A process a programming model wants a PMI connection for gets one (its end: mp->pmi_fd,
 * kept across exec). */
static int pmi_proc_setup(rte_job_t *job, uint32_t lidx, struct wu_pmdl_proc *mp)
{
    int rc = WU_SUCCESS;
    if (NULL != job->pmi && wu_pmdl_base_wants_pmi(mp)) {
        rc = pmi_attach(job, lidx, &mp->pmi_fd);
        job->pls->procs[lidx].keep_fd = mp->pmi_fd;
    }
    return rc;
}

int wu_rte_pmi_attach_service(void)
{
    static const rte_job_observer_t observer = {.local_exited = pmi_proc_ended,
                                                .job_setup = pmi_setup,
                                                .proc_setup = pmi_proc_setup,
                                                .job_launched = pmi_start,
                                                .job_blocked = wu_rte_pmi_blocked,
                                                .job_released = pmi_free};
    return wu_rte_job_observe(&observer);
}
