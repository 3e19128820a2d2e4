/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_base_foreign.c -- OpenPMIx's framing beside Wireup's (see ptl.h, "OpenPMIx peers"):
 * telling the two apart by a connection's first byte, reading OpenPMIx's headers and writing
 * them, and a client's connect to an OpenPMIx server (its handshake, read in the caller's
 * thread before the connection is handed to the progress thread). The receiving and writing
 * machinery itself is ptl_base_frame.c's. */
#include "mca/ptl/base/ptl_base_int.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_time.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* An OpenPMIx handshake header starts with 8 bytes 0xff (index -1, tag UINT32_MAX). */
#define FOREIGN_MARK 0xffu

size_t wu_ptl_base_hdr_want(const wu_ptl_conn_t *c)
{
    if (WU_PTL_WIRE_FOREIGN == c->wire ||
        (WU_PTL_WIRE_ANY == c->wire && c->hdr_got > 0 && FOREIGN_MARK == c->hdr[0])) {
        return WU_PTL_FOREIGN_HDR_SIZE;
    }
    return WU_PTL_HDR_SIZE;
}

int wu_ptl_base_foreign_parse(wu_ptl_conn_t *c, size_t hello_max)
{
    uint32_t tag, len;
    memcpy(&tag, c->hdr + 4, 4);
    memcpy(&len, c->hdr + 8, 4);
    if (WU_PTL_WIRE_ANY == c->wire) {
        /* the handshake: index and tag all ones, the length in the sender's byte order (this
         * host's: OpenPMIx clients connect over loopback or the cluster's own machines) */
        for (int i = 0; i < 8; i++) {
            if (FOREIGN_MARK != c->hdr[i]) {
                WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                               "ptl:base: dropping peer: its first bytes are neither a Wireup "
                               "frame nor an OpenPMIx handshake");
                return WU_ERR_BAD_FORMAT;
            }
        }
        if (len > WU_PTL_FOREIGN_HELLO_MAX || len > hello_max || 0 == len) {
            WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                           "ptl:base: dropping an OpenPMIx peer: its handshake of %u bytes is "
                           "empty or exceeds ptl_base_handshake_max (%zu)",
                           len, hello_max);
            return WU_ERR_VALUE_OUT_OF_BOUNDS;
        }
        c->wire = WU_PTL_WIRE_FOREIGN;
        c->tag = UINT32_MAX;
        c->flags = WU_PTL_FLAG_FOREIGN | WU_PTL_FLAG_HELLO;
        c->plen = len;
        return WU_SUCCESS;
    }
    c->tag = ntohl(tag);
    c->flags = WU_PTL_FLAG_FOREIGN;
    c->plen = ntohl(len);
    if (c->plen > wu_ptl_base_max_msg_size) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN,
                       "ptl:base: dropping an OpenPMIx peer: message of %zu bytes exceeds "
                       "ptl_base_max_msg_size (%zu)",
                       c->plen, wu_ptl_base_max_msg_size);
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    return WU_SUCCESS;
}

size_t wu_ptl_base_foreign_hdr(const wu_ptl_conn_t *c, unsigned char *h, uint32_t tag,
                               uint16_t flags, size_t len)
{
    uint32_t v;
    if (0 != (flags & WU_PTL_FLAG_RAW)) {
        return 0;
    }
    memset(h, 0, WU_PTL_FOREIGN_HDR_SIZE);
    if (0 != (flags & WU_PTL_FLAG_HELLO)) {
        memset(h, FOREIGN_MARK, 8);
        v = (uint32_t)len; /* the handshake's length goes in this host's order */
    } else {
        uint32_t idx = htonl((uint32_t)c->peer_index);
        memcpy(h, &idx, 4);
        v = htonl(tag);
        memcpy(h + 4, &v, 4);
        v = htonl((uint32_t)len);
    }
    memcpy(h + 8, &v, 4);
    return WU_PTL_FOREIGN_HDR_SIZE;
}

bool wu_ptl_conn_foreign(const wu_ptl_conn_t *c)
{
    return NULL != c && WU_PTL_WIRE_FOREIGN == c->wire;
}

/* Wait until fd is ready for events, at most until deadline (wu_time_now's clock). WU_SUCCESS,
 * WU_ERR_TIMEOUT or WU_ERR_SYS. */
static int wait_fd(int fd, short events, double deadline)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = events};
        double left = deadline - wu_time_now();
        int n;
        if (left <= 0) {
            return WU_ERR_TIMEOUT;
        }
        n = poll(&p, 1, (int)(left * 1000) + 1);
        if (n > 0) {
            return WU_SUCCESS;
        }
        if (n < 0 && EINTR != errno) {
            return WU_ERR_SYS;
        }
    }
}

/* Write all len bytes of p (fd nonblocking). */
static int write_all(int fd, const unsigned char *p, size_t len, double deadline)
{
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        int rc;
        if (n > 0) {
            p += n;
            len -= (size_t)n;
        } else if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            if (WU_SUCCESS != (rc = wait_fd(fd, POLLOUT, deadline))) {
                return rc;
            }
        } else if (n < 0 && EINTR != errno) {
            return WU_ERR_SYS;
        }
    }
    return WU_SUCCESS;
}

/* Read exactly len bytes into p (and not one more: what follows is the first frame). */
static int read_all(int fd, unsigned char *p, size_t len, double deadline)
{
    while (len > 0) {
        ssize_t n = recv(fd, p, len, MSG_DONTWAIT);
        int rc;
        if (n > 0) {
            p += n;
            len -= (size_t)n;
        } else if (0 == n) {
            return WU_ERR_NO_PERMISSIONS; /* closed: OpenPMIx's way of refusing */
        } else if (EAGAIN == errno || EWOULDBLOCK == errno) {
            if (WU_SUCCESS != (rc = wait_fd(fd, POLLIN, deadline))) {
                return rc;
            }
        } else if (EINTR != errno) {
            return ECONNRESET == errno ? WU_ERR_NO_PERMISSIONS : WU_ERR_SYS;
        }
    }
    return WU_SUCCESS;
}

int wu_ptl_connect_foreign(wu_progress_t *pt, const char *uri, const void *hello, size_t hlen,
                           double timeout, wu_ptl_recv_fn_t recv, wu_ptl_closed_fn_t closed,
                           void *cbdata, int32_t *status, wu_ptl_conn_t **out)
{
    const wu_ptl_module_t *m;
    unsigned char h[WU_PTL_FOREIGN_HDR_SIZE], answer[8];
    wu_ptl_conn_t probe;
    double deadline = wu_time_now() + timeout;
    uint32_t st, idx;
    int fd = -1, rc;
    if (NULL == pt || NULL == uri || NULL == hello || 0 == hlen ||
        hlen > WU_PTL_FOREIGN_HELLO_MAX || NULL == recv || NULL == out || timeout <= 0) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    if (NULL != status) {
        *status = 0;
    }
    if (NULL == (m = wu_ptl_base_module_for_uri(uri))) {
        return NULL == strchr(uri, ':') ? WU_ERR_BAD_PARAM : WU_ERR_NOT_SUPPORTED;
    }
    if (WU_SUCCESS != (rc = m->connect(uri, &fd))) {
        return rc;
    }
    memset(&probe, 0, sizeof probe);
    (void)wu_ptl_base_foreign_hdr(&probe, h, UINT32_MAX, WU_PTL_FLAG_HELLO, hlen);
    rc = write_all(fd, h, sizeof h, deadline);
    if (WU_SUCCESS == rc) {
        rc = write_all(fd, hello, hlen, deadline);
    }
    if (WU_SUCCESS == rc) {
        rc = read_all(fd, answer, sizeof answer, deadline);
    }
    if (WU_SUCCESS == rc) {
        memcpy(&st, answer, 4);
        memcpy(&idx, answer + 4, 4);
        st = ntohl(st);
        idx = ntohl(idx);
        if (0 != st) {
            /* a refusal, or a security exchange (PMIX_ERR_READY_FOR_HANDSHAKE) no module here
             * speaks */
            if (NULL != status) {
                *status = (int32_t)st;
            }
            rc = WU_ERR_NO_PERMISSIONS;
        } else if (idx > INT32_MAX) {
            rc = WU_ERR_BAD_FORMAT;
        }
    }
    if (WU_SUCCESS != rc) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_INFO,
                       "ptl:base: the OpenPMIx handshake with %s failed: %s", uri,
                       WU_ERR_TIMEOUT == rc          ? "no answer in time"
                       : WU_ERR_NO_PERMISSIONS == rc ? "the server refused it"
                                                     : "a socket or format error");
        close(fd);
        return rc;
    }
    return wu_ptl_base_conn_start(pt, fd, recv, closed, cbdata, (int64_t)idx, out);
}
