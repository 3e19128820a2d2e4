/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_base_direct.c -- a reply read by the thread that waits for it (wu_ptl_conn_await).
 *
 * A blocking request normally costs its process four context switches: the caller sleeps, the
 * progress thread wakes for the reply, wakes the caller and sleeps again. Here the caller reads
 * the socket itself while it waits, so the progress thread is not woken at all.
 *
 * For that, a connection made by wu_ptl_connect is watched by the progress thread through an
 * epoll set of its own (ep) that holds the socket: the thread that takes over the reading takes
 * the socket out of the set (no wakeup of the progress thread, unlike event_del from another
 * thread) and puts it back when it is done. Ownership of the receiving state (the frame being
 * read, its buffer and descriptor) passes between the two under rlock: `direct` while the
 * waiting thread owns it, `reading` while read_cb runs. The waiting thread delivers only the
 * frames its caller says may be delivered in any thread (its reply, typically); any other
 * frame is held, in order, for the progress thread, which
 * delivers held frames before it reads on, and the waiting thread then goes back to waiting as
 * usual. The connection always ends on the progress thread (teardown): if a thread is reading
 * then, the socket is shut down to wake it, and that thread closes it. */
#include "mca/ptl/base/ptl_base_int.h"
#include "opal/util/wu_time.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* Longest single wait in poll (ms): the waiting thread looks at its condition this often even
 * when no byte comes (a request can also end by other means, e.g. a lost connection). */
#define DIRECT_POLL_MS 250

void wu_ptl_base_direct_setup(wu_ptl_conn_t *c)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = c->fd};
    struct event *rev;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) {
        return; /* read as any connection */
    }
    rev =
        event_new(event_get_base(c->rev), ep, EV_READ | EV_PERSIST, event_get_callback(c->rev), c);
    if (NULL == rev || 0 != epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev)) {
        if (NULL != rev) {
            event_free(rev);
        }
        close(ep);
        return;
    }
    event_free(c->rev);
    c->rev = rev;
    c->ep = ep;
}

static void held_free(wu_ptl_held_t *h)
{
    if (h->fd >= 0) {
        close(h->fd);
    }
    wu_ptl_base_rx_account(0, h->cap);
    free(h->payload);
    free(h);
}

bool wu_ptl_base_direct_enter(wu_ptl_conn_t *c, int *drop)
{
    wu_ptl_held_t *h;
    pthread_mutex_lock(&c->rlock);
    if (c->direct) {
        pthread_mutex_unlock(&c->rlock);
        return false;
    }
    c->reading = true;
    h = c->held;
    c->held = c->held_tail = NULL;
    *drop = c->rx_error;
    c->rx_error = 0;
    pthread_mutex_unlock(&c->rlock);
    /* the frames the waiting thread read before its own reply came, in their order */
    while (NULL != h) {
        wu_ptl_held_t *next = h->next;
        if (!c->closed) {
            c->rx_fd = h->fd; /* for wu_ptl_conn_take_fd in the callback */
            h->fd = -1;
            c->recv(c, h->tag, h->flags, h->payload, h->len, c->cbdata);
            if (c->rx_fd >= 0) {
                close(c->rx_fd); /* not taken */
                c->rx_fd = -1;
            }
        }
        held_free(h);
        h = next;
    }
    return true;
}

void wu_ptl_base_direct_leave(wu_ptl_conn_t *c)
{
    pthread_mutex_lock(&c->rlock);
    c->reading = false;
    pthread_mutex_unlock(&c->rlock);
}

bool wu_ptl_base_direct_close(wu_ptl_conn_t *c)
{
    bool owned;
    pthread_mutex_lock(&c->rlock);
    c->closed = true;
    if ((owned = c->direct)) {
        (void)shutdown(c->fd, SHUT_RDWR); /* wakes the thread in poll; it closes the socket */
    }
    pthread_mutex_unlock(&c->rlock);
    return owned;
}

void wu_ptl_base_direct_free(wu_ptl_conn_t *c)
{
    while (NULL != c->held) {
        wu_ptl_held_t *h = c->held;
        c->held = h->next;
        held_free(h);
    }
    if (c->ep >= 0) {
        close(c->ep);
        c->ep = -1;
    }
}

/* Keep the whole frame just received for the progress thread (the waiting thread owns c). */
static int hold(wu_ptl_conn_t *c)
{
    wu_ptl_held_t *h = malloc(sizeof *h);
    if (NULL == h) {
        return WU_ERR_NOMEM;
    }
    h->next = NULL;
    h->tag = c->tag;
    h->flags = c->flags;
    h->payload = c->payload;
    h->len = c->plen;
    h->cap = c->pcap;
    h->fd = c->rx_fd;
    c->payload = NULL;
    c->pcap = 0;
    c->in_payload = false;
    c->hdr_got = 0;
    c->rx_fd = -1;
    pthread_mutex_lock(&c->rlock);
    if (NULL == c->held_tail) {
        c->held = h;
    } else {
        c->held_tail->next = h;
    }
    c->held_tail = h;
    pthread_mutex_unlock(&c->rlock);
    return WU_SUCCESS;
}

/* Wait until c's socket is readable, done(arg) may have changed, or the peer stalls in the
 * middle of a frame for ptl_base_frame_timeout (false). */
static bool wait_readable(wu_ptl_conn_t *c, double *last_byte)
{
    struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
    int n = poll(&pfd, 1, DIRECT_POLL_MS);
    if (0 == n && wu_ptl_base_mid_frame(c) && wu_ptl_base_frame_timeout > 0 &&
        wu_time_now() - *last_byte >= wu_ptl_base_frame_timeout) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping a peer that sent nothing for ptl_base_frame_timeout "
                       "(%d s) in the middle of a message",
                       wu_ptl_base_frame_timeout);
        return false;
    }
    if (0 != n || !wu_ptl_base_mid_frame(c)) {
        *last_byte = wu_time_now(); /* bytes (or the end) came, or nothing is half read */
    }
    return true;
}

int wu_ptl_conn_await(wu_ptl_conn_t *c, bool (*mine)(uint32_t tag, uint16_t flags, void *arg),
                      bool (*done)(void *arg), void *arg)
{
    int step = WU_PTL_RX_AGAIN;
    double last_byte = wu_time_now();
    bool ok;
    if (NULL == c || NULL == mine || NULL == done || wu_progress_in_thread(c->pt)) {
        return WU_ERR_TAKE_NEXT;
    }
    wu_ptl_conn_retain(c);
    pthread_mutex_lock(&c->rlock);
    if (c->ep < 0 || c->closed || c->direct || c->reading || NULL != c->held || 0 != c->rx_error) {
        pthread_mutex_unlock(&c->rlock);
        wu_ptl_conn_release(c);
        return WU_ERR_TAKE_NEXT;
    }
    c->direct = true;
    (void)epoll_ctl(c->ep, EPOLL_CTL_DEL, c->fd, NULL);
    pthread_mutex_unlock(&c->rlock);

    while (!done(arg)) {
        step = wu_ptl_base_rx_step(c);
        if (WU_PTL_RX_FRAME == step) {
            if (mine(c->tag, c->flags, arg)) {
                wu_ptl_base_deliver(c); /* its callback runs here */
                continue;
            }
            step = hold(c);
            break; /* another frame: the progress thread takes over from here */
        }
        if (WU_PTL_RX_AGAIN == step && !wait_readable(c, &last_byte)) {
            step = WU_ERR_TIMEOUT;
        }
        if (WU_PTL_RX_MORE != step && WU_PTL_RX_AGAIN != step) {
            break; /* the peer is to be dropped: by the progress thread */
        }
    }
    ok = done(arg);

    pthread_mutex_lock(&c->rlock);
    c->direct = false;
    if (c->closed) {
        /* teardown ran meanwhile and left the socket and the receiving state to this thread */
        close(c->fd);
        c->fd = -1;
        wu_ptl_base_rx_drop(c);
    } else {
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = c->fd};
        if (step < 0) {
            c->rx_error = step;
        }
        (void)epoll_ctl(c->ep, EPOLL_CTL_ADD, c->fd, &ev);
        if (NULL != c->held || 0 != c->rx_error) {
            event_active(c->rev, EV_READ, 0);
        }
    }
    pthread_mutex_unlock(&c->rlock);
    wu_ptl_conn_release(c);
    return ok ? WU_SUCCESS : WU_ERR_TAKE_NEXT;
}
