/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_base_frame.c -- the ptl framework declaration, framing and the socket I/O of listeners and
 * connections on the progress thread (see mca/ptl/ptl.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* accept4 */
#endif
#include "mca/ptl/base/ptl_base_int.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_show_help.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

/* frames read from one peer per wakeup, so one busy peer cannot starve the others */
#define WU_PTL_READ_BURST 64
/* first allocation for a frame being received; the buffer then doubles as bytes arrive */
#define WU_PTL_RX_INITIAL ((size_t)16 << 10)
/* A delivered frame's buffer up to this size is kept for the connection's next frame (warm
 * memory: fresh pages cost a fault each); larger ones are freed. */
#define WU_PTL_RX_KEEP ((size_t)128 << 10)
/* connections one wakeup of a listener accepts at most (and at most a quarter of
 * ptl_base_max_untrusted), so that the reads of those accepted (a client's handshake)
 * interleave with the accepting of a flood waiting behind them: a connection is displaced only
 * after at least 4 later wakeups */
#define WU_PTL_ACCEPT_BURST 16
/* pause of a listener that cannot accept for want of descriptors: first, longest (seconds) */
#define WU_PTL_BACKOFF_MIN 0.05
#define WU_PTL_BACKOFF_MAX 2.0

size_t wu_ptl_base_max_msg_size = (size_t)1 << 30;
static size_t handshake_max = (size_t)16 << 10;
static int handshake_timeout = 10;
static int max_untrusted = 64;
int wu_ptl_base_frame_timeout = 300;

/* bytes allocated for frames being received, all connections (wu_ptl_base_rx_buffered) */
static _Atomic size_t rx_buffered;

static const wu_mca_param_t ptl_base_params[] = {
    {.name = "max_msg_size",
     .type = WU_PARAM_TYPE_SIZE,
     .storage = &wu_ptl_base_max_msg_size,
     .level = WU_INFO_LVL_4,
     .help = "Largest message (bytes, k/m/g suffixes; at most 4g - 1) a ptl connection sends or "
             "accepts from a peer the server has authenticated; a peer sending a larger one is "
             "dropped, a larger send fails (WU_ERR_VALUE_OUT_OF_BOUNDS). The default 1g holds "
             "e.g. a fence collecting 64 MiB from each of 4 ranks (or 16 MiB from each of 64). "
             "Memory follows the bytes that arrive, not the size a peer announces",
     .flags = WU_PARAM_FLAG_RANGE,
     .min = 1,
     .max = UINT32_MAX},
    {.name = "handshake_max",
     .type = WU_PARAM_TYPE_SIZE,
     .storage = &handshake_max,
     .level = WU_INFO_LVL_5,
     .help = "Largest first message (bytes, k/m/g suffixes) of a peer not yet authenticated (a "
             "client's connect request, a few hundred bytes); a peer announcing a larger one is "
             "dropped",
     .flags = WU_PARAM_FLAG_RANGE,
     .min = 64,
     .max = UINT32_MAX},
    WU_PARAM_INT_RANGE("handshake_timeout", &handshake_timeout, 1, 3600, WU_INFO_LVL_5,
                       "Seconds a new connection has to deliver its first message (the connect "
                       "request); a peer that has not is dropped"),
    WU_PARAM_INT_RANGE("max_untrusted", &max_untrusted, 1, 65535, WU_INFO_LVL_5,
                       "Connections per listener still in their handshake (first message not "
                       "complete); at this number a new connection displaces the one accepted "
                       "longest ago, so a flood of idle or slow peers never delays a client, "
                       "which sends its handshake right after connecting. Also the number of "
                       "connections whose first message awaits the server's decision; at that "
                       "number the listener stops accepting until the server decides one"),
    WU_PARAM_INT_RANGE("frame_timeout", &wu_ptl_base_frame_timeout, 0, 86400, WU_INFO_LVL_5,
                       "Seconds an authenticated peer may stall in the middle of a message (no "
                       "byte arriving) before it is dropped; 0: never. Idle peers between "
                       "messages are never dropped"),
    WU_PARAM_END};

WU_MCA_STATIC_DECL(ptl);
wu_mca_framework_t wu_mca_ptl_framework = {
    .name = "ptl",
    .description = "Transport between PMIx servers and their clients and tools",
    .version = WU_ptl_VERSION,
    .mode = WU_MCA_SELECT_ALL,
    .params = ptl_base_params,
    .statics = wu_mca_ptl_static_components,
};

struct wu_ptl_shared {
    _Atomic int refs;
    size_t len;
    unsigned char bytes[];
};

/* A frame to write: its header and, in data, a copy of its payload -- or, for a shared payload,
 * only the header in data and the payload in shared. */
struct wu_ptl_frame {
    struct wu_ptl_frame *next;
    wu_ptl_conn_t *conn;     /* the frame's (counted in its backlog) */
    wu_ptl_shared_t *shared; /* one reference, or NULL */
    int fd;                  /* a descriptor to pass with the first byte, or -1 */
    size_t len, off;         /* bytes of the frame (header + payload), bytes written so far */
    size_t hlen;             /* bytes of its header: Wireup's, OpenPMIx's or none (raw) */
    unsigned char data[];
};

struct wu_ptl_listener {
    wu_progress_t *pt;
    const wu_ptl_module_t *module;
    void *state;
    int fd;
    char *uri;
    struct event *ev;
    wu_ptl_listener_cbs_t cbs;
    void *cbdata;
    wu_ptl_conn_t *conns; /* accepted and open */
    /* Admission (progress thread). handshaking: connections whose first frame is awaited, on
     * the list hhead..htail in accept order; at max_untrusted a new one displaces hhead
     * (evicted counts them). awaiting: first frame delivered, the owner's decision pending.
     * ev is added only while ev_on; it is taken off while awaiting reaches max_untrusted
     * (full) and while a descriptor shortage backs off (retry pending). */
    bool ev_on, closing, full, retry_on;
    size_t handshaking, awaiting;
    wu_ptl_conn_t *hhead, *htail;
    unsigned long full_episodes, evicted;
    struct event *retry; /* re-enables ev after a descriptor shortage */
    double backoff;      /* seconds of the next pause */
    /* Descriptor shortage (EMFILE/ENFILE): reserve is an open /dev/null, closed for a moment to
     * accept and at once close a waiting peer, so it sees a refusal rather than a silent wait. */
    int reserve;
    bool shortage;
    unsigned long refused; /* peers refused in the current shortage */
};

int wu_ptl_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_ptl_framework);
}

void wu_ptl_base_close(void)
{
    wu_mca_framework_close(&wu_mca_ptl_framework);
}

const wu_ptl_module_t *wu_ptl_base_module(const char *scheme)
{
    const wu_ptl_module_t *m;
    if (NULL == scheme) {
        return NULL;
    }
    for (size_t i = 0; NULL != (m = wu_mca_active_module(&wu_mca_ptl_framework, i)); i++) {
        if (0 == strcmp(m->scheme, scheme)) {
            return m;
        }
    }
    return NULL;
}

/* ---- connections ------------------------------------------------------------------------ */

static void listener_update(wu_ptl_listener_t *l);

size_t wu_ptl_base_rx_buffered(void)
{
    return atomic_load(&rx_buffered);
}

/* Free the buffer of the frame being received. */
static void rx_free(wu_ptl_conn_t *c)
{
    if (NULL != c->payload) {
        atomic_fetch_sub(&rx_buffered, c->pcap);
        free(c->payload);
        c->payload = NULL;
    }
    c->pcap = 0;
    free(c->spare);
    c->spare = NULL;
    c->spare_cap = 0;
    free(c->ra);
    c->ra = NULL;
    c->ra_off = c->ra_len = 0;
}

/* Room for more of the payload: double the buffer, at most to the announced length, so what
 * a peer costs follows what it sent, not what it announced. */
static int rx_grow(wu_ptl_conn_t *c)
{
    size_t ncap = 0 == c->pcap ? WU_PTL_RX_INITIAL : 2 * c->pcap;
    unsigned char *p;
    if (ncap > c->plen) {
        ncap = c->plen;
    }
    if (NULL == c->payload && NULL != c->spare) {
        c->payload = c->spare; /* the last frame's buffer: grown below if it is too small */
        c->spare = NULL;
        if (c->spare_cap >= ncap) {
            ncap = c->spare_cap < c->plen ? c->spare_cap : c->plen;
            atomic_fetch_add(&rx_buffered, ncap);
            c->pcap = ncap;
            return WU_SUCCESS;
        }
    }
    if (NULL == (p = realloc(c->payload, ncap))) {
        return WU_ERR_NOMEM;
    }
    atomic_fetch_add(&rx_buffered, ncap - c->pcap);
    c->payload = p;
    c->pcap = ncap;
    return WU_SUCCESS;
}

/* Take c off its listener's handshake list. */
static void hs_unlink(wu_ptl_conn_t *c)
{
    wu_ptl_listener_t *l = c->listener;
    if (NULL != c->hprev) {
        c->hprev->hnext = c->hnext;
    } else {
        l->hhead = c->hnext;
    }
    if (NULL != c->hnext) {
        c->hnext->hprev = c->hprev;
    } else {
        l->htail = c->hprev;
    }
    c->hprev = c->hnext = NULL;
    l->handshaking--;
}

/* c no longer counts among its listener's untrusted connections (trusted, or gone). */
static void uncount(wu_ptl_conn_t *c)
{
    if (WU_PTL_ADMIT_HANDSHAKE == c->admit) {
        hs_unlink(c);
    } else if (WU_PTL_ADMIT_AWAIT == c->admit) {
        c->listener->awaiting--;
    } else {
        return;
    }
    c->admit = WU_PTL_ADMIT_NONE;
    listener_update(c->listener);
}

/* c's first frame is complete: from the handshake count to the count awaiting the owner. */
static void count_await(wu_ptl_conn_t *c)
{
    if (WU_PTL_ADMIT_HANDSHAKE == c->admit) {
        hs_unlink(c);
        c->admit = WU_PTL_ADMIT_AWAIT;
        c->listener->awaiting++;
    }
}

/* Take c off its listener's list (and count). */
static void conn_unlink(wu_ptl_conn_t *c)
{
    wu_ptl_listener_t *l = c->listener;
    if (NULL == l) {
        return;
    }
    uncount(c);
    if (NULL != c->lprev) {
        c->lprev->lnext = c->lnext;
    } else {
        l->conns = c->lnext;
    }
    if (NULL != c->lnext) {
        c->lnext->lprev = c->lprev;
    }
    c->lprev = c->lnext = NULL;
    c->listener = NULL;
}

void wu_ptl_conn_retain(wu_ptl_conn_t *c)
{
    if (NULL != c) {
        atomic_fetch_add(&c->refs, 1);
    }
}

const void *wu_ptl_shared_bytes(const wu_ptl_shared_t *s, size_t *len)
{
    *len = s->len;
    return s->bytes;
}

void wu_ptl_shared_release(wu_ptl_shared_t *s)
{
    if (NULL != s && 1 == atomic_fetch_sub(&s->refs, 1)) {
        free(s);
    }
}

static void frame_free(wu_ptl_frame_t *f)
{
    atomic_fetch_sub(&f->conn->backlog, f->len);
    wu_ptl_shared_release(f->shared);
    if (f->fd >= 0) {
        close(f->fd);
    }
    free(f);
}

static void free_queue(wu_ptl_conn_t *c)
{
    while (NULL != c->qhead) {
        wu_ptl_frame_t *f = c->qhead;
        c->qhead = f->next;
        frame_free(f);
    }
    c->qtail = NULL;
}

void wu_ptl_conn_release(wu_ptl_conn_t *c)
{
    if (NULL == c || 1 != atomic_fetch_sub(&c->refs, 1)) {
        return;
    }
    /* the last reference: the base's own was dropped at teardown, so the socket is gone */
    if (c->fd >= 0) {
        close(c->fd);
    }
    if (NULL != c->rev) {
        event_free(c->rev);
    }
    if (NULL != c->wev) {
        event_free(c->wev);
    }
    if (NULL != c->tmo) {
        event_free(c->tmo);
    }
    free_queue(c);
    rx_free(c);
    wu_ptl_base_direct_free(c);
    (void)pthread_mutex_destroy(&c->wlock);
    (void)pthread_mutex_destroy(&c->rlock);
    free(c);
}

int wu_ptl_conn_fd(const wu_ptl_conn_t *c)
{
    return NULL == c ? -1 : c->fd;
}

int wu_ptl_conn_errno(const wu_ptl_conn_t *c)
{
    return NULL == c ? 0 : atomic_load(&c->sys_errno);
}

const char *wu_ptl_closed_reason(const wu_ptl_conn_t *c, int status, char *buf, size_t len)
{
    int err = wu_ptl_conn_errno(c);
    if (WU_PTL_PEER_CLOSED == status) {
        snprintf(buf, len, "the peer closed the connection");
    } else if (WU_ERR_SYS == status && 0 != err) {
        snprintf(buf, len, "%s", strerror(err));
    } else {
        snprintf(buf, len, "%s", wu_strerror(status));
    }
    return buf;
}

bool wu_ptl_conn_passes_fds(const wu_ptl_conn_t *c)
{
    return NULL != c && c->unix_sock;
}

void wu_ptl_conn_set_cbdata(wu_ptl_conn_t *c, void *cbdata)
{
    if (NULL != c) {
        c->cbdata = cbdata;
    }
}

void *wu_ptl_conn_get_cbdata(const wu_ptl_conn_t *c)
{
    return NULL == c ? NULL : c->cbdata;
}

/* End c once (progress thread): close the socket, run the closed callback, drop the base's
 * reference (c may be freed on return). */
static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

void wu_ptl_base_rx_drop(wu_ptl_conn_t *c)
{
    close_fd(&c->rx_fd);
    rx_free(c);
}

static void teardown(wu_ptl_conn_t *c, int status)
{
    bool owned;
    if (c->closed) {
        return;
    }
    /* closed is set under rlock for a thread that may read c (ptl_base_direct.c) */
    owned = c->ep >= 0 ? wu_ptl_base_direct_close(c) : (c->closed = true, false);
    pthread_mutex_lock(&c->wlock);
    c->wdead = true; /* a writer in another thread stops here */
    c->wev_on = false;
    free_queue(c);
    pthread_mutex_unlock(&c->wlock);
    event_free(c->rev);
    event_free(c->wev);
    event_free(c->tmo);
    c->rev = c->wev = c->tmo = NULL;
    c->tmo_on = false;
    if (!owned) {
        /* else the thread that reads c closes them and frees the receiving state */
        close(c->fd);
        c->fd = -1;
        wu_ptl_base_rx_drop(c);
    }
    conn_unlink(c);
    WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_INFO, "ptl:base: connection closed: %s",
                   wu_strerror(status));
    if (NULL != c->closed_fn) {
        c->closed_fn(c, status, c->cbdata);
    }
    wu_ptl_conn_release(c);
}

/* Write what is left of f: one send, or for a shared payload one sendmsg of header and
 * payload; a descriptor goes with the frame's first byte. */
static ssize_t write_frame(int fd, const wu_ptl_frame_t *f)
{
    struct iovec iov[2];
    struct msghdr m;
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } ctl;
    int n = 0;
    if (NULL == f->shared && f->fd < 0) {
        return send(fd, f->data + f->off, f->len - f->off, MSG_NOSIGNAL);
    }
    if (f->off < f->hlen) {
        iov[n].iov_base = (void *)(f->data + f->off);
        iov[n++].iov_len = f->hlen - f->off;
    }
    if (NULL != f->shared && f->shared->len > 0) {
        size_t done = f->off > f->hlen ? f->off - f->hlen : 0;
        iov[n].iov_base = f->shared->bytes + done;
        iov[n++].iov_len = f->shared->len - done;
    } else if (NULL == f->shared && f->len > f->hlen) {
        size_t done = f->off > f->hlen ? f->off - f->hlen : 0;
        iov[n].iov_base = (void *)(f->data + f->hlen + done);
        iov[n++].iov_len = f->len - f->hlen - done;
    }
    memset(&m, 0, sizeof m);
    m.msg_iov = iov;
    m.msg_iovlen = (size_t)n;
    if (f->fd >= 0 && 0 == f->off) {
        struct cmsghdr *cm;
        memset(&ctl, 0, sizeof ctl);
        m.msg_control = ctl.buf;
        m.msg_controllen = sizeof ctl.buf;
        cm = CMSG_FIRSTHDR(&m);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &f->fd, sizeof(int));
    }
    return sendmsg(fd, &m, MSG_NOSIGNAL);
}

/* Write queued frames until done or the socket is full (wlock held). false: a write failed,
 * and the caller ends the connection once it has let go of wlock. */
static bool flush(wu_ptl_conn_t *c)
{
    while (NULL != c->qhead) {
        wu_ptl_frame_t *f = c->qhead;
        ssize_t n = write_frame(c->fd, f);
        if (n < 0) {
            if (EINTR == errno) {
                continue;
            }
            if (EAGAIN == errno || EWOULDBLOCK == errno) {
                if (!c->wev_on && 0 == event_add(c->wev, NULL)) {
                    c->wev_on = true;
                }
                return true;
            }
            atomic_store(&c->sys_errno, errno);
            return false;
        }
        f->off += (size_t)n;
        if (f->fd >= 0 && n > 0) {
            close(f->fd); /* it went with the first byte: the peer holds its own now */
            f->fd = -1;
        }
        if (f->off == f->len) {
            c->qhead = f->next;
            if (NULL == c->qhead) {
                c->qtail = NULL;
            }
            frame_free(f);
        }
    }
    if (c->wev_on) {
        event_del(c->wev);
        c->wev_on = false;
    }
    return true;
}

/* Progress thread: flush c's queue; a failed write ends the connection. */
static void flush_or_end(wu_ptl_conn_t *c)
{
    bool ok;
    pthread_mutex_lock(&c->wlock);
    ok = c->wdead || flush(c);
    pthread_mutex_unlock(&c->wlock);
    if (!ok) {
        teardown(c, WU_ERR_SYS);
    }
}

static void write_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    flush_or_end(arg);
}

/* Arm c's timer to fire in seconds (again, if it is pending). */
static void tmo_arm(wu_ptl_conn_t *c, int seconds)
{
    struct timeval tv = {.tv_sec = seconds, .tv_usec = 0};
    c->tmo_on = 0 == event_add(c->tmo, &tv);
}

static void tmo_stop(wu_ptl_conn_t *c)
{
    if (c->tmo_on) {
        event_del(c->tmo);
        c->tmo_on = false;
    }
}

static bool mid_frame(const wu_ptl_conn_t *c)
{
    return c->in_payload || c->hdr_got > 0;
}

bool wu_ptl_base_mid_frame(const wu_ptl_conn_t *c)
{
    return mid_frame(c);
}

void wu_ptl_base_rx_account(size_t add, size_t sub)
{
    atomic_fetch_add(&rx_buffered, add);
    atomic_fetch_sub(&rx_buffered, sub);
}

static void tmo_check(wu_ptl_conn_t *c);

/* The handshake deadline of an untrusted peer, or the stall check of a trusted one. */
static void tmo_cb(evutil_socket_t fd, short what, void *arg)
{
    wu_ptl_conn_t *c = arg;
    int drop = 0;
    (void)fd;
    (void)what;
    c->tmo_on = false;
    wu_ptl_conn_retain(c); /* teardown may drop the last other reference */
    if (c->ep >= 0 && !wu_ptl_base_direct_enter(c, &drop)) {
        tmo_arm(c, wu_ptl_base_frame_timeout); /* another thread reads c: look again later */
    } else {
        if (0 != drop) {
            teardown(c, drop);
        } else {
            tmo_check(c);
        }
        if (c->ep >= 0) {
            wu_ptl_base_direct_leave(c);
        }
    }
    wu_ptl_conn_release(c);
}

static void tmo_check(wu_ptl_conn_t *c)
{
    if (!c->trusted) {
        if (!c->first_done) {
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                           "ptl:base: dropping a peer that sent no complete first message "
                           "(connect request) within ptl_base_handshake_timeout (%d s)",
                           handshake_timeout);
            teardown(c, WU_ERR_TIMEOUT);
        }
        return;
    }
    if (!mid_frame(c) || wu_ptl_base_frame_timeout <= 0) {
        return; /* idle between frames: fine for as long as it likes */
    }
    if (c->rx_bytes != c->rx_mark) {
        c->rx_mark = c->rx_bytes; /* bytes came since the timer was armed */
        tmo_arm(c, wu_ptl_base_frame_timeout);
        return;
    }
    WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                   "ptl:base: dropping a peer that sent nothing for ptl_base_frame_timeout (%d s) "
                   "in the middle of a message (%zu of %zu bytes received)",
                   wu_ptl_base_frame_timeout, c->pgot, c->in_payload ? c->plen : 0);
    teardown(c, WU_ERR_TIMEOUT);
}

/* Check a complete header; set up the payload (its buffer grows as bytes arrive). Returns
 * WU_SUCCESS or why the peer is dropped. */
static int parse_header(wu_ptl_conn_t *c)
{
    uint16_t flags;
    uint32_t tag, len;
    int rc;
    if (WU_PTL_WIRE_FOREIGN == c->wire || WU_PTL_FOREIGN_HDR_SIZE == c->hdr_got) {
        if (WU_SUCCESS !=
            (rc = wu_ptl_base_foreign_parse(c, c->trusted ? SIZE_MAX : handshake_max))) {
            return rc;
        }
        if (c->rx_fd >= 0) {
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                           "ptl:base: dropping an OpenPMIx peer that passed a file descriptor");
            return WU_ERR_BAD_FORMAT;
        }
        c->pgot = 0;
        c->in_payload = true;
        return WU_SUCCESS;
    }
    if (WU_PTL_WIRE_MAGIC != c->hdr[0] || WU_PTL_WIRE_VERSION != c->hdr[1]) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping peer: bad frame header (magic 0x%02x version %u)",
                       c->hdr[0], c->hdr[1]);
        return WU_ERR_BAD_FORMAT;
    }
    memcpy(&flags, c->hdr + 2, 2);
    memcpy(&tag, c->hdr + 4, 4);
    memcpy(&len, c->hdr + 8, 4);
    if (WU_PTL_WIRE_ANY == c->wire) {
        c->wire = WU_PTL_WIRE_WU; /* an accepted peer's first frame: written once, before any
                                   * reply to it is sent */
    }
    c->flags = ntohs(flags);
    if (0 != (c->flags & (WU_PTL_FLAG_FOREIGN | WU_PTL_FLAG_HELLO | WU_PTL_FLAG_RAW))) {
        /* ptl's own marks of OpenPMIx frames: never on Wireup's wire */
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping peer: a frame flagged 0x%04x (OpenPMIx's marks)",
                       c->flags);
        return WU_ERR_BAD_FORMAT;
    }
    c->tag = ntohl(tag);
    c->plen = ntohl(len);
    if (!c->trusted && c->plen > handshake_max) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping a peer not authenticated yet: its first message of "
                       "%zu bytes exceeds ptl_base_handshake_max (%zu)",
                       c->plen, handshake_max);
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    if (c->plen > wu_ptl_base_max_msg_size) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping peer: frame of %zu bytes exceeds ptl_base_max_msg_size "
                       "(%zu)",
                       c->plen, wu_ptl_base_max_msg_size);
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    if ((0 != (c->flags & WU_PTL_FLAG_FD)) != (c->rx_fd >= 0)) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping peer: a frame %s a file descriptor",
                       c->rx_fd >= 0 ? "without the flag came with" : "flagged for lacks");
        return WU_ERR_BAD_FORMAT;
    }
    c->pgot = 0;
    c->in_payload = true;
    return WU_SUCCESS;
}

void wu_ptl_base_deliver(wu_ptl_conn_t *c)
{
    unsigned char *p = c->payload;
    size_t cap = c->pcap;
    c->payload = NULL;
    c->pcap = 0;
    c->in_payload = false;
    c->hdr_got = 0;
    if (!c->trusted) {
        c->first_done = true; /* its owner decides now: trust it or close it */
        tmo_stop(c);
        count_await(c);
    }
    c->recv(c, c->tag, c->flags, p, c->plen, c->cbdata);
    close_fd(&c->rx_fd); /* not taken */
    atomic_fetch_sub(&rx_buffered, cap);
    if (NULL != p && cap <= WU_PTL_RX_KEEP && NULL == c->spare) {
        c->spare = p;
        c->spare_cap = cap;
    } else {
        free(p);
    }
}

int wu_ptl_conn_take_fd(wu_ptl_conn_t *c)
{
    int fd = c->rx_fd;
    c->rx_fd = -1;
    return fd;
}

/* recv with room for one descriptor. A descriptor is accepted only on a trusted connection,
 * with the first byte of a frame, and when none is pending; otherwise *bad is set (and what
 * came is closed). */
static ssize_t recv_fd(wu_ptl_conn_t *c, void *dst, size_t want, bool *bad)
{
    struct iovec iov = {dst, want};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } ctl;
    struct msghdr m;
    bool at_start = !c->in_payload && 0 == c->hdr_got;
    ssize_t n;
    memset(&m, 0, sizeof m);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctl.buf;
    m.msg_controllen = sizeof ctl.buf;
    n = recvmsg(c->fd, &m, MSG_CMSG_CLOEXEC);
    if (n < 0) {
        return n;
    }
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); NULL != cm; cm = CMSG_NXTHDR(&m, cm)) {
        if (SOL_SOCKET == cm->cmsg_level && SCM_RIGHTS == cm->cmsg_type) {
            size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < k; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
                if (c->trusted && at_start && c->rx_fd < 0 && 1 == k) {
                    c->rx_fd = fd;
                } else {
                    close(fd);
                    *bad = true;
                }
            }
        }
    }
    if (0 != (m.msg_flags & MSG_CTRUNC)) {
        *bad = true;
    }
    return n;
}

/* Read-ahead for a trusted peer that cannot pass descriptors and that only the progress thread
 * reads: one recv takes up to WU_PTL_RA_CAP bytes (a request and its header, or several), cut
 * into frames from there. A recv that did not fill the buffer emptied the socket, so the next
 * read after the bytes are used up answers EAGAIN without a system call; the loop's epoll is
 * level-triggered and reports what comes later. */
#define WU_PTL_RA_CAP 4096

static ssize_t rx_read(wu_ptl_conn_t *c, unsigned char *dst, size_t want, bool *bad)
{
    ssize_t n;
    if (c->ra_off == c->ra_len && c->ra_drained) {
        c->ra_drained = false;
        errno = EAGAIN;
        return -1;
    }
    if (c->ra_off == c->ra_len) {
        if (!c->trusted || c->unix_sock || c->ep >= 0 || want >= WU_PTL_RA_CAP ||
            (NULL == c->ra && NULL == (c->ra = malloc(WU_PTL_RA_CAP)))) {
            return recv_fd(c, dst, want, bad);
        }
        do {
            n = recv(c->fd, c->ra, WU_PTL_RA_CAP, 0);
        } while (n < 0 && EINTR == errno);
        if (n <= 0) {
            return n;
        }
        c->ra_off = 0;
        c->ra_len = (size_t)n;
        c->ra_drained = (size_t)n < WU_PTL_RA_CAP;
    }
    n = (ssize_t)(want < c->ra_len - c->ra_off ? want : c->ra_len - c->ra_off);
    memcpy(dst, c->ra + c->ra_off, (size_t)n);
    c->ra_off += (size_t)n;
    return n;
}

int wu_ptl_base_rx_step(wu_ptl_conn_t *c)
{
    unsigned char *dst;
    size_t want;
    ssize_t n;
    bool bad = false;
    int rc;
    if (c->in_payload && c->pgot == c->plen) {
        return WU_PTL_RX_FRAME;
    }
    if (c->in_payload) {
        if (c->pgot == c->pcap && WU_SUCCESS != (rc = rx_grow(c))) {
            return rc;
        }
        dst = c->payload + c->pgot;
        want = c->pcap - c->pgot;
    } else {
        dst = c->hdr + c->hdr_got;
        want = wu_ptl_base_hdr_want(c) - c->hdr_got;
    }
    n = rx_read(c, dst, want, &bad);
    if (bad) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping peer: it passed file descriptors it may not pass");
        return WU_ERR_BAD_FORMAT;
    }
    if (n < 0) {
        if (EINTR == errno) {
            return WU_PTL_RX_MORE;
        }
        if (EAGAIN == errno || EWOULDBLOCK == errno) {
            return WU_PTL_RX_AGAIN;
        }
        atomic_store(&c->sys_errno, errno);
        return WU_ERR_SYS;
    }
    if (0 == n) {
        return mid_frame(c) ? WU_ERR_BAD_FORMAT : WU_PTL_PEER_CLOSED;
    }
    if (!c->trusted && c->first_done) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping a peer that sent more than one message before "
                       "the server authenticated it");
        return WU_ERR_NO_PERMISSIONS;
    }
    c->rx_bytes += (uint64_t)n;
    if (c->in_payload) {
        c->pgot += (size_t)n;
    } else {
        c->hdr_got += (size_t)n; /* then the header's size: the first byte decides it */
        if (wu_ptl_base_hdr_want(c) == c->hdr_got && WU_SUCCESS != (rc = parse_header(c))) {
            return rc;
        }
    }
    return WU_PTL_RX_MORE;
}

static void read_cb(evutil_socket_t fd, short what, void *arg)
{
    wu_ptl_conn_t *c = arg;
    int frames = 0, rc = 0;
    (void)fd;
    (void)what;
    wu_ptl_conn_retain(c); /* a callback may drop the last other reference */
    if (c->ep >= 0 && !wu_ptl_base_direct_enter(c, &rc)) {
        wu_ptl_conn_release(c);
        return; /* another thread reads c now */
    }
    while (0 == rc && !c->closed && frames < WU_PTL_READ_BURST) {
        int step = wu_ptl_base_rx_step(c);
        if (WU_PTL_RX_FRAME == step) {
            wu_ptl_base_deliver(c);
            frames++;
        } else if (WU_PTL_RX_MORE == step) {
            if (c->trusted && !c->tmo_on && wu_ptl_base_frame_timeout > 0) {
                c->rx_mark = c->rx_bytes;
                tmo_arm(c, wu_ptl_base_frame_timeout);
            }
        } else if (WU_PTL_RX_AGAIN == step) {
            break;
        } else {
            rc = step;
        }
    }
    if (0 != rc) {
        teardown(c, rc);
    } else if (!c->closed && c->ra_off < c->ra_len) {
        event_active(c->rev, EV_READ, 0); /* read ahead, left by the burst's limit: no epoll
                                           * event will come for it */
    }
    if (c->ep >= 0) {
        wu_ptl_base_direct_leave(c);
    }
    wu_ptl_conn_release(c);
}

/* A connection around a connected socket; not yet reading. NULL on failure (fd left open). */
static wu_ptl_conn_t *conn_new(wu_progress_t *pt, int fd, wu_ptl_recv_fn_t recv,
                               wu_ptl_closed_fn_t closed, void *cbdata)
{
    wu_ptl_conn_t *c = calloc(1, sizeof *c);
    int fl = fcntl(fd, F_GETFL);
    struct sockaddr_storage sa;
    socklen_t salen = sizeof sa;
    if (NULL == c || fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        free(c);
        return NULL;
    }
    c->unix_sock = 0 == getsockname(fd, (struct sockaddr *)&sa, &salen) && AF_UNIX == sa.ss_family;
    atomic_init(&c->refs, 1);
    (void)pthread_mutex_init(&c->wlock, NULL);
    (void)pthread_mutex_init(&c->rlock, NULL);
    c->pt = pt;
    c->fd = fd;
    c->ep = -1;
    c->rx_fd = -1;
    c->recv = recv;
    c->closed_fn = closed;
    c->cbdata = cbdata;
    c->rev = event_new(wu_progress_base(pt), fd, EV_READ | EV_PERSIST, read_cb, c);
    c->wev = event_new(wu_progress_base(pt), fd, EV_WRITE | EV_PERSIST, write_cb, c);
    c->tmo = evtimer_new(wu_progress_base(pt), tmo_cb, c);
    if (NULL == c->rev || NULL == c->wev || NULL == c->tmo) {
        c->fd = -1;
        wu_ptl_conn_release(c);
        return NULL;
    }
    return c;
}

const wu_ptl_module_t *wu_ptl_base_module_for_uri(const char *uri)
{
    const char *colon = strchr(uri, ':');
    char scheme[32];
    if (NULL == colon || (size_t)(colon - uri) >= sizeof scheme) {
        return NULL;
    }
    memcpy(scheme, uri, (size_t)(colon - uri));
    scheme[colon - uri] = '\0';
    return wu_ptl_base_module(scheme);
}

int wu_ptl_connect(wu_progress_t *pt, const char *uri, wu_ptl_recv_fn_t recv,
                   wu_ptl_closed_fn_t closed, void *cbdata, wu_ptl_conn_t **out)
{
    const wu_ptl_module_t *m;
    int fd = -1, rc;
    if (NULL == pt || NULL == uri || NULL == recv || NULL == out) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    if (NULL == (m = wu_ptl_base_module_for_uri(uri))) {
        return NULL == strchr(uri, ':') ? WU_ERR_BAD_PARAM : WU_ERR_NOT_SUPPORTED;
    }
    if (WU_SUCCESS != (rc = m->connect(uri, &fd))) {
        return rc;
    }
    return wu_ptl_base_conn_start(pt, fd, recv, closed, cbdata, -1, out);
}

int wu_ptl_base_conn_start(wu_progress_t *pt, int fd, wu_ptl_recv_fn_t recv,
                           wu_ptl_closed_fn_t closed, void *cbdata, int64_t foreign_index,
                           wu_ptl_conn_t **out)
{
    wu_ptl_conn_t *c;
    if (NULL == (c = conn_new(pt, fd, recv, closed, cbdata))) {
        close(fd);
        return WU_ERR_NOMEM;
    }
    /* known before any thread sends on it (a send reads the framing) */
    c->wire = foreign_index >= 0 ? WU_PTL_WIRE_FOREIGN : WU_PTL_WIRE_WU;
    if (foreign_index >= 0) {
        c->peer_index = (int32_t)foreign_index;
    }
    c->trusted = true; /* it reached the server it asked for */
    wu_ptl_base_direct_setup(c);
    wu_ptl_conn_retain(c); /* the caller's reference; the first is the base's */
    if (0 != event_add(c->rev, NULL)) {
        c->refs = 1;
        wu_ptl_conn_release(c);
        return WU_ERR_SYS;
    }
    *out = c;
    return WU_SUCCESS;
}

static void send_fn(void *arg)
{
    wu_ptl_frame_t *f = arg;
    wu_ptl_conn_t *c = f->conn;
    bool ok = true;
    pthread_mutex_lock(&c->wlock);
    /* queued and no longer shifting in one step, for writers in other threads */
    atomic_fetch_sub(&c->shifting, 1);
    if (c->wdead) {
        frame_free(f);
    } else {
        f->next = NULL;
        if (NULL == c->qtail) {
            c->qhead = f;
        } else {
            c->qtail->next = f;
        }
        c->qtail = f;
        ok = flush(c);
    }
    pthread_mutex_unlock(&c->wlock);
    if (!ok) {
        teardown(c, WU_ERR_SYS);
    }
    wu_ptl_conn_release(c);
}

/* The header of a frame of len payload bytes to c's peer, in its framing (room for
 * WU_PTL_FOREIGN_HDR_SIZE bytes); its length. */
static size_t hdr_fill(const wu_ptl_conn_t *c, unsigned char *h, uint32_t tag, uint16_t flags,
                       size_t len)
{
    uint16_t nflags = htons(flags);
    uint32_t ntag = htonl(tag), nlen = htonl((uint32_t)len);
    if (WU_PTL_WIRE_FOREIGN == c->wire) {
        return wu_ptl_base_foreign_hdr(c, h, tag, flags, len);
    }
    h[0] = WU_PTL_WIRE_MAGIC;
    h[1] = WU_PTL_WIRE_VERSION;
    memcpy(h + 2, &nflags, 2);
    memcpy(h + 4, &ntag, 4);
    memcpy(h + 8, &nlen, 4);
    return WU_PTL_HDR_SIZE;
}

/* A frame for c with its header filled in and room for copy bytes of payload after it. */
static wu_ptl_frame_t *frame_new(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, size_t len,
                                 size_t copy)
{
    wu_ptl_frame_t *f = malloc(sizeof *f + WU_PTL_FOREIGN_HDR_SIZE + copy);
    if (NULL == f) {
        return NULL;
    }
    f->conn = c;
    f->shared = NULL;
    f->fd = -1;
    f->hlen = hdr_fill(c, f->data, tag, flags, len);
    f->len = f->hlen + len;
    f->off = 0;
    atomic_fetch_add(&c->backlog, f->len);
    return f;
}

size_t wu_ptl_conn_backlog(wu_ptl_conn_t *c)
{
    return NULL != c ? atomic_load(&c->backlog) : 0;
}

uint64_t wu_ptl_conn_rx_bytes(const wu_ptl_conn_t *c)
{
    return NULL != c ? c->rx_bytes : 0;
}

/* Hand f to c's progress thread, which queues and writes it. */
static int frame_queue(wu_ptl_conn_t *c, wu_ptl_frame_t *f)
{
    int rc;
    wu_ptl_conn_retain(c);
    atomic_fetch_add(&c->shifting, 1);
    if (WU_SUCCESS != (rc = wu_progress_shift(c->pt, send_fn, f))) {
        atomic_fetch_sub(&c->shifting, 1);
        wu_ptl_conn_release(c);
        frame_free(f);
    }
    return rc;
}

/* With nothing waiting to be written before it (wlock held): write the frame at once from the
 * caller's memory, in any thread. The bytes written (all of them: done), or 0 when the frame
 * must be queued: frames before it, the socket full, or a socket error (which the queued frame
 * meets again, so that the connection ends as always, from the progress loop and not inside
 * the caller's send). */
static ssize_t send_now(wu_ptl_conn_t *c, const unsigned char *hdr, size_t hlen,
                        const void *payload, size_t len)
{
    struct iovec iov[2] = {{(void *)hdr, hlen}, {(void *)payload, len}};
    struct msghdr m;
    ssize_t n;
    if (c->wdead || NULL != c->qhead || 0 != atomic_load(&c->shifting)) {
        return 0;
    }
    memset(&m, 0, sizeof m);
    m.msg_iov = iov;
    m.msg_iovlen = len > 0 ? 2 : 1;
    do {
        n = sendmsg(c->fd, &m, MSG_NOSIGNAL);
    } while (n < 0 && EINTR == errno);
    return n < 0 ? 0 : n;
}

/* A frame of len payload bytes with a copy of payload. */
static wu_ptl_frame_t *frame_copy(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags,
                                  const void *payload, size_t len)
{
    wu_ptl_frame_t *f = frame_new(c, tag, flags, len, len);
    if (NULL != f && len > 0) {
        memcpy(f->data + f->hlen, payload, len);
    }
    return f;
}

int wu_ptl_send(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload, size_t len)
{
    wu_ptl_frame_t *f;
    unsigned char hdr[WU_PTL_FOREIGN_HDR_SIZE];
    size_t hlen;
    ssize_t n;
    if (NULL == c || (len > 0 && NULL == payload)) {
        return WU_ERR_BAD_PARAM;
    }
    if (len > wu_ptl_base_max_msg_size || len > UINT32_MAX) {
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    flags = (uint16_t)(flags & ~WU_PTL_FLAG_FD);
    /* The frame usually goes at once, without a copy (a large one would cost fresh pages: a
     * fault each) and without waking the progress thread; what the socket does not take is
     * queued. */
    hlen = hdr_fill(c, hdr, tag, flags, len);
    pthread_mutex_lock(&c->wlock);
    n = send_now(c, hdr, hlen, payload, len);
    if ((size_t)n == hlen + len) {
        pthread_mutex_unlock(&c->wlock);
        return WU_SUCCESS;
    }
    if (n > 0) {
        /* part of it is on the wire: the rest goes next, before any frame handed over
         * meanwhile; the write event writes it, so that an error ends the connection from the
         * loop as always */
        if (NULL == (f = frame_copy(c, tag, flags, payload, len))) {
            pthread_mutex_unlock(&c->wlock);
            wu_ptl_close(c); /* part of the frame went: the stream cannot go on */
            return WU_ERR_NOMEM;
        }
        f->off = (size_t)n;
        f->next = NULL;
        c->qhead = c->qtail = f; /* send_now went only with an empty queue */
        if (!c->wev_on && 0 == event_add(c->wev, NULL)) {
            c->wev_on = true;
        }
        pthread_mutex_unlock(&c->wlock);
        return WU_SUCCESS;
    }
    pthread_mutex_unlock(&c->wlock);
    if (NULL == (f = frame_copy(c, tag, flags, payload, len))) {
        return WU_ERR_NOMEM;
    }
    return frame_queue(c, f);
}

wu_ptl_shared_t *wu_ptl_shared_new(const struct iovec *iov, int n)
{
    wu_ptl_shared_t *s;
    size_t len = 0, off = 0;
    for (int i = 0; i < n; i++) {
        if (iov[i].iov_len > SIZE_MAX - sizeof *s - len) {
            return NULL;
        }
        len += iov[i].iov_len;
    }
    if (NULL == (s = malloc(sizeof *s + len))) {
        return NULL;
    }
    atomic_init(&s->refs, 1);
    s->len = len;
    for (int i = 0; i < n; i++) {
        if (iov[i].iov_len > 0) {
            memcpy(s->bytes + off, iov[i].iov_base, iov[i].iov_len);
            off += iov[i].iov_len;
        }
    }
    return s;
}

/* A frame sending s, with a duplicate of fd unless fd is -1. */
static int send_shared(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, wu_ptl_shared_t *s, int fd)
{
    wu_ptl_frame_t *f;
    if (NULL == c || NULL == s) {
        return WU_ERR_BAD_PARAM;
    }
    if (s->len > wu_ptl_base_max_msg_size || s->len > UINT32_MAX) {
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    if (fd >= 0 && !c->unix_sock) {
        return WU_ERR_NOT_SUPPORTED;
    }
    if (fd >= 0) {
        flags |= WU_PTL_FLAG_FD;
    }
    if (NULL == (f = frame_new(c, tag, flags, s->len, 0))) {
        return WU_ERR_NOMEM;
    }
    if (fd >= 0 && (f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
        f->fd = -1;
        frame_free(f);
        return WU_ERR_SYS;
    }
    atomic_fetch_add(&s->refs, 1);
    f->shared = s;
    return frame_queue(c, f);
}

int wu_ptl_send_shared(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, wu_ptl_shared_t *s)
{
    return send_shared(c, tag, (uint16_t)(flags & ~WU_PTL_FLAG_FD), s, -1);
}

int wu_ptl_send_shared_fd(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, wu_ptl_shared_t *s,
                          int fd)
{
    return fd < 0 ? WU_ERR_BAD_PARAM : send_shared(c, tag, flags, s, fd);
}

static void close_fn(void *arg)
{
    wu_ptl_conn_t *c = arg;
    teardown(c, WU_SUCCESS);
    wu_ptl_conn_release(c);
}

void wu_ptl_close(wu_ptl_conn_t *c)
{
    if (NULL == c) {
        return;
    }
    wu_ptl_conn_retain(c);
    if (WU_SUCCESS != wu_progress_shift(c->pt, close_fn, c)) {
        wu_ptl_conn_release(c);
    }
}

static void trust(wu_ptl_conn_t *c)
{
    if (c->closed || c->trusted) {
        return;
    }
    c->trusted = true;
    tmo_stop(c); /* the handshake deadline; nothing is half read (that would have dropped c) */
    uncount(c);
}

static void trust_fn(void *arg)
{
    trust(arg);
    wu_ptl_conn_release(arg);
}

void wu_ptl_conn_set_trusted(wu_ptl_conn_t *c)
{
    if (NULL == c) {
        return;
    }
    if (wu_progress_in_thread(c->pt)) {
        trust(c);
        return;
    }
    wu_ptl_conn_retain(c);
    if (WU_SUCCESS != wu_progress_shift(c->pt, trust_fn, c)) {
        wu_ptl_conn_release(c);
    }
}

/* ---- listeners -------------------------------------------------------------------------- */

/* Add or remove l's accept event as admission allows: not while closing, nor while a
 * descriptor shortage backs off, nor with max_untrusted first messages awaiting the owner. */
static void listener_update(wu_ptl_listener_t *l)
{
    bool room = l->awaiting < (size_t)max_untrusted;
    bool want = !l->closing && !l->retry_on && room;
    if (l->full && room && !l->closing) {
        l->full = false;
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_INFO,
                       "ptl:base: %s accepts connections again", l->uri);
    }
    if (want && !l->ev_on) {
        l->ev_on = 0 == event_add(l->ev, NULL);
        if (!l->ev_on) {
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_ERROR,
                           "ptl:base: %s cannot resume accepting (event_add failed)", l->uri);
        }
    } else if (!want && l->ev_on) {
        event_del(l->ev);
        l->ev_on = false;
    }
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    wu_ptl_listener_t *l = arg;
    (void)fd;
    (void)what;
    l->retry_on = false;
    listener_update(l); /* accept_cb runs if peers are waiting */
}

/* Stop accepting for a while (doubling up to WU_PTL_BACKOFF_MAX), then try again. */
static void listener_pause(wu_ptl_listener_t *l)
{
    struct timeval tv = {.tv_sec = (time_t)l->backoff,
                         .tv_usec = (suseconds_t)((l->backoff - (double)(time_t)l->backoff) * 1e6)};
    l->retry_on = 0 == event_add(l->retry, &tv);
    l->backoff = 2 * l->backoff < WU_PTL_BACKOFF_MAX ? 2 * l->backoff : WU_PTL_BACKOFF_MAX;
    listener_update(l);
}

/* accept failed with err, EMFILE or ENFILE: say so once per shortage, then refuse one waiting
 * peer through the reserve descriptor (accepted and closed at once: it sees its connection
 * end rather than wait in the queue). 1: one refused, try again; 0: nobody waits; -1: no
 * reserve to do it with. */
static int refuse_one(wu_ptl_listener_t *l, int err)
{
    int fd;
    if (!l->shortage) {
        struct rlimit rl = {0, 0};
        (void)getrlimit(RLIMIT_NOFILE, &rl);
        l->shortage = true;
        l->refused = 0;
        wu_show_help("help-ptl-base.txt", "fd-shortage", true, l->uri, strerror(err),
                     (unsigned long)rl.rlim_cur);
    }
    if (l->reserve < 0) {
        return -1;
    }
    close(l->reserve);
    fd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);
    err = errno;
    if (fd >= 0) {
        close(fd);
        l->refused++;
    }
    l->reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        return 1;
    }
    return EAGAIN == err || EWOULDBLOCK == err ? 0 : -1;
}

/* max_untrusted connections are in their handshake: drop the one accepted longest ago to make
 * room for a new one. A client sends its handshake as soon as it is connected, so the oldest
 * of them is the one least likely to be a client: idle or slow peers can hold no place for
 * long, whatever their number. */
static void evict_oldest(wu_ptl_listener_t *l)
{
    wu_ptl_conn_t *victim = l->hhead;
    if (NULL == victim) {
        return;
    }
    if (0 == l->evicted++ % 1000) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: %s: %zu connections are in their handshake "
                       "(ptl_base_max_untrusted): dropping the oldest for a new one (%lu so far)",
                       l->uri, l->handshaking, l->evicted);
    }
    teardown(victim, WU_ERR_OUT_OF_RESOURCE);
}

static void accept_cb(evutil_socket_t lfd, short what, void *arg)
{
    wu_ptl_listener_t *l = arg;
    (void)what;
    /* a few per wakeup: the event is level-triggered, so what is left waits for the next pass
     * of the loop, after the reads of those accepted now */
    int burst = max_untrusted / 4 < 1 ? 1 : max_untrusted / 4;
    if (burst > WU_PTL_ACCEPT_BURST) {
        burst = WU_PTL_ACCEPT_BURST;
    }
    for (; burst > 0; burst--) {
        wu_ptl_conn_t *c;
        int fd, rc = -1;
        if (l->awaiting >= (size_t)max_untrusted) {
            if (!l->full) {
                l->full = true;
                l->full_episodes++;
                WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                               "ptl:base: %s: %zu first messages await the server's decision "
                               "(ptl_base_max_untrusted): accepting no more until one is "
                               "decided (%lu time(s) so far)",
                               l->uri, l->awaiting, l->full_episodes);
            }
            listener_update(l);
            return;
        }
        fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            int err = errno;
            if (EINTR == err || ECONNABORTED == err) {
                continue;
            }
            if (EAGAIN == err || EWOULDBLOCK == err) {
                return;
            }
            if (EMFILE == err || ENFILE == err) {
                rc = refuse_one(l, err);
            } else {
                WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                               "ptl:base: accept on %s failed: %s", l->uri, strerror(err));
            }
            if (rc >= 0) {
                if (rc > 0) {
                    continue;
                }
                return;
            }
            listener_pause(l); /* no busy loop: the queue is looked at again later */
            return;
        }
        if (l->shortage) {
            l->shortage = false;
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                           "ptl:base: %s accepts again after a shortage of file descriptors "
                           "(%lu connection(s) refused meanwhile)",
                           l->uri, l->refused);
        }
        l->backoff = WU_PTL_BACKOFF_MIN;
        if (l->reserve < 0) {
            l->reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
        }
        if (l->handshaking >= (size_t)max_untrusted) {
            evict_oldest(l);
        }
        if (NULL == (c = conn_new(l->pt, fd, l->cbs.recv, l->cbs.closed, l->cbdata))) {
            close(fd);
            continue;
        }
        c->listener = l;
        c->lnext = l->conns;
        if (NULL != l->conns) {
            l->conns->lprev = c;
        }
        l->conns = c;
        c->admit = WU_PTL_ADMIT_HANDSHAKE; /* the newest, at the tail of the handshake list */
        c->hprev = l->htail;
        if (NULL != l->htail) {
            l->htail->hnext = c;
        } else {
            l->hhead = c;
        }
        l->htail = c;
        l->handshaking++;
        if ((NULL != l->cbs.accept && WU_SUCCESS != l->cbs.accept(l, c, l->cbdata)) ||
            0 != event_add(c->rev, NULL)) {
            conn_unlink(c);
            wu_ptl_conn_release(c); /* closes fd; no closed callback for a refused peer */
            continue;
        }
        if (!c->trusted) {
            tmo_arm(c, handshake_timeout);
            /* a client's handshake is usually there already: read it now, before the next
             * accepts can displace it (c may be gone on return) */
            read_cb(fd, EV_READ, c);
        }
    }
}

/* Ask module m (entry e) to listen for req: WU_SUCCESS and *out, WU_ERR_TAKE_NEXT, or an error. */
static int listen_one(wu_progress_t *pt, const wu_mca_comp_entry_t *e,
                      const wu_ptl_listen_req_t *req, const wu_ptl_listener_cbs_t *cbs,
                      void *cbdata, wu_ptl_listener_t **out)
{
    const wu_ptl_module_t *m = e->module;
    wu_ptl_listener_t *l;
    int rc;
    if (NULL == (l = calloc(1, sizeof *l))) {
        return WU_ERR_NOMEM;
    }
    l->pt = pt;
    l->module = m;
    l->cbs = *cbs;
    l->cbdata = cbdata;
    l->backoff = WU_PTL_BACKOFF_MIN;
    /* may fail (-1): a shortage then only pauses the listener */
    l->reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (WU_SUCCESS != (rc = m->listen(req, &l->fd, &l->uri, &l->state))) {
        if (WU_ERR_TAKE_NEXT == rc) {
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_INFO,
                           "ptl:base: %s is not asked to listen", e->component->name);
        }
        if (l->reserve >= 0) {
            close(l->reserve);
        }
        free(l);
        return rc;
    }
    l->ev = event_new(wu_progress_base(pt), l->fd, EV_READ | EV_PERSIST, accept_cb, l);
    l->retry = evtimer_new(wu_progress_base(pt), retry_cb, l);
    l->ev_on = true; /* before event_add: accept_cb may run at once */
    if (NULL == l->ev || NULL == l->retry || 0 != event_add(l->ev, NULL)) {
        if (NULL != l->ev) {
            event_free(l->ev);
        }
        if (NULL != l->retry) {
            event_free(l->retry);
        }
        if (l->reserve >= 0) {
            close(l->reserve);
        }
        close(l->fd);
        m->unlisten(l->state);
        free(l->uri);
        free(l);
        return WU_ERR_SYS;
    }
    WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_INFO, "ptl:base: listening on %s", l->uri);
    *out = l;
    return WU_SUCCESS;
}

int wu_ptl_listen(wu_progress_t *pt, const char *component, const wu_ptl_listener_cbs_t *cbs,
                  void *cbdata, wu_ptl_listener_t **out)
{
    return wu_ptl_listen_with(pt, component, NULL, 0, cbs, cbdata, out);
}

int wu_ptl_listen_with(wu_progress_t *pt, const char *component, const pmix_info_t info[],
                       size_t ninfo, const wu_ptl_listener_cbs_t *cbs, void *cbdata,
                       wu_ptl_listener_t **out)
{
    const wu_ptl_listen_req_t req = {.info = info, .ninfo = ninfo, .named = true, .alone = true};
    if (NULL == pt || NULL == cbs || NULL == cbs->recv || NULL == out) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    for (size_t i = 0; i < wu_mca_ptl_framework.nactive; i++) {
        const wu_mca_comp_entry_t *e = wu_mca_ptl_framework.active[i];
        if (NULL == component || 0 == strcmp(component, e->component->name)) {
            return listen_one(pt, e, &req, cbs, cbdata, out);
        }
    }
    return WU_ERR_NOT_FOUND;
}

struct wu_ptl_listeners {
    size_t n;
    wu_ptl_listener_t *l[];
};

int wu_ptl_base_listen_all(wu_progress_t *pt, const pmix_info_t info[], size_t ninfo,
                           const wu_ptl_listener_cbs_t *cbs, void *cbdata, wu_ptl_listeners_t **out)
{
    wu_ptl_listeners_t *ls;
    int rc = WU_SUCCESS;
    if (NULL == pt || NULL == cbs || NULL == cbs->recv || NULL == out ||
        (NULL == info && ninfo > 0)) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    ls = calloc(1, sizeof *ls + wu_mca_ptl_framework.nactive * sizeof ls->l[0]);
    if (NULL == ls) {
        return WU_ERR_NOMEM;
    }
    for (size_t i = 0; i < wu_mca_ptl_framework.nactive; i++) {
        const wu_mca_comp_entry_t *e = wu_mca_ptl_framework.active[i];
        const wu_ptl_listen_req_t req = {
            .info = info, .ninfo = ninfo, .named = e->named, .alone = 0 == ls->n};
        rc = listen_one(pt, e, &req, cbs, cbdata, &ls->l[ls->n]);
        if (WU_SUCCESS == rc) {
            ls->n++;
        } else if (WU_ERR_TAKE_NEXT != rc) {
            wu_ptl_base_close_listeners(ls);
            return rc;
        }
    }
    if (0 == ls->n) {
        free(ls);
        return WU_ERR_NOT_FOUND;
    }
    *out = ls;
    return WU_SUCCESS;
}

wu_ptl_listener_t *wu_ptl_listeners_at(const wu_ptl_listeners_t *ls, size_t i)
{
    return NULL != ls && i < ls->n ? ls->l[i] : NULL;
}

bool wu_ptl_listeners_anonymous(const wu_ptl_listeners_t *ls)
{
    for (size_t i = 0; NULL != ls && i < ls->n; i++) {
        if (ls->l[i]->module->anonymous) {
            return true;
        }
    }
    return false;
}

void wu_ptl_base_close_listeners(wu_ptl_listeners_t *ls)
{
    if (NULL == ls) {
        return;
    }
    for (size_t i = 0; i < ls->n; i++) {
        wu_ptl_listener_close(ls->l[i]);
    }
    free(ls);
}

const char *wu_ptl_listener_uri(const wu_ptl_listener_t *l)
{
    return NULL == l ? NULL : l->uri;
}

static void listener_close_fn(wu_wait_call_t *call)
{
    wu_ptl_listener_t *l = call->cbdata;
    l->closing = true;
    event_free(l->ev);
    event_free(l->retry);
    l->ev = l->retry = NULL;
    l->ev_on = l->retry_on = false;
    close(l->fd);
    l->fd = -1;
    if (l->reserve >= 0) {
        close(l->reserve);
        l->reserve = -1;
    }
    while (NULL != l->conns) {
        teardown(l->conns, WU_SUCCESS); /* unlinks it */
    }
    l->module->unlisten(l->state);
    wu_wait_call_done(call, WU_SUCCESS);
}

void wu_ptl_listener_close(wu_ptl_listener_t *l)
{
    int rc;
    if (NULL == l) {
        return;
    }
    if (wu_progress_in_thread(l->pt)) {
        fprintf(stderr, "wu_ptl_listener_close: refused on the listener's progress thread\n");
        return;
    }
    rc = wu_progress_shift_wait(l->pt, listener_close_fn, l, 60.0);
    if (WU_SUCCESS != rc) {
        /* the close may still run later: l must stay valid, so it is leaked */
        fprintf(stderr, "wu_ptl_listener_close: %s\n", wu_strerror(rc));
        return;
    }
    free(l->uri);
    free(l);
}
