/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_base_int.h -- the connection object and the receiving steps shared by the base's files
 * (ptl_base_frame.c: sockets on the progress thread; ptl_base_direct.c: reading in the thread
 * that awaits a reply). Not for components. */
#ifndef WU_PTL_BASE_INT_H
#define WU_PTL_BASE_INT_H

#include "mca/ptl/ptl.h"

#include <event2/event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct wu_ptl_frame wu_ptl_frame_t;

/* A whole frame read by a thread other than the progress thread, to be delivered there. */
typedef struct wu_ptl_held {
    struct wu_ptl_held *next;
    uint32_t tag;
    uint16_t flags;
    unsigned char *payload;
    size_t len, cap; /* cap: counted in the base's receive buffers */
    int fd;          /* the descriptor that came with it, or -1 */
} wu_ptl_held_t;

struct wu_ptl_conn {
    _Atomic int refs;
    wu_progress_t *pt;
    int fd;
    _Atomic int sys_errno;     /* the errno of the read or write whose failure ends it (0: none) */
    bool unix_sock;            /* a Unix-domain socket: descriptors can pass */
    bool closed;               /* progress thread only, from here on */
    _Atomic unsigned shifting; /* frames handed to the progress thread, not yet queued */
    _Atomic size_t backlog;    /* bytes of the frames not freed yet (shifted or queued) */
    /* The writing side: any thread may write a frame at once (wu_ptl_send) while nothing waits
     * before it, so wlock guards qhead, qtail, wev_on, wdead and every write to fd. */
    pthread_mutex_t wlock;
    bool wdead; /* set with closed, under wlock: no more writes */
    bool wev_on;
    struct event *rev, *wev;
    wu_ptl_recv_fn_t recv;
    wu_ptl_closed_fn_t closed_fn;
    void *cbdata;
    wu_ptl_listener_t *listener; /* accepted connections, until closed */
    struct wu_ptl_conn *lprev, *lnext;
    wu_ptl_frame_t *qhead, *qtail; /* frames to write */
    /* Which framing the peer speaks (WU_PTL_WIRE_*): an accepted connection's first byte
     * decides it; wu_ptl_connect's are Wireup's. peer_index: what a frame to an OpenPMIx
     * server carries as its sender's index (the one the server gave in its handshake). */
    unsigned char wire;
    int32_t peer_index;
    unsigned char hdr[WU_PTL_FOREIGN_HDR_SIZE];
    size_t hdr_got;
    unsigned char *payload;  /* frame being received, after its header */
    size_t plen, pgot, pcap; /* announced, received, allocated */
    unsigned char *spare;    /* the last frame's buffer, for the next one (not counted) */
    size_t spare_cap;
    bool in_payload;
    /* Read-ahead (wu_ptl_base_rx_step) of a trusted TCP peer read by the progress thread:
     * ra[ra_off, ra_len) came from the socket and is not cut into frames yet; ra_drained: the
     * recv that filled ra found the socket emptied. */
    unsigned char *ra;
    size_t ra_off, ra_len;
    bool ra_drained;
    uint32_t tag;
    uint16_t flags;
    /* A descriptor received (SCM_RIGHTS) with the first byte of the frame being read, kept
     * through its delivery until the receive callback takes it; -1: none. */
    int rx_fd;
    /* Trust (see ptl.h): an accepted connection starts untrusted; first_done once its one
     * frame came. admit says which count of its listener holds it: WU_PTL_ADMIT_HANDSHAKE while
     * its first frame is awaited (it is then on the listener's handshake list, hprev/hnext,
     * oldest first), WU_PTL_ADMIT_AWAIT once that frame went to the owner, until
     * wu_ptl_conn_set_trusted or its end; WU_PTL_ADMIT_NONE otherwise. */
    bool trusted, first_done;
    unsigned char admit;
    struct wu_ptl_conn *hprev, *hnext;
    /* One timer: the handshake deadline of an untrusted peer, or the stall check of a trusted
     * peer's frame (fires frame_timeout after it was armed; dropped if rx_bytes is still
     * rx_mark and a frame is half read, re-armed if bytes came meanwhile). */
    struct event *tmo;
    bool tmo_on;
    uint64_t rx_bytes, rx_mark;
    /* Reading in another thread (ptl_base_direct.c), for connections made by wu_ptl_connect:
     * ep is an epoll set holding only fd, watched by the progress thread in fd's place, so
     * that a thread that takes over the reading (wu_ptl_conn_await) takes fd out of it and the
     * progress thread is not woken by the bytes that thread reads. -1: not used. rlock guards
     * direct, reading, held, rx_error, and closed while direct. */
    int ep;
    pthread_mutex_t rlock;
    bool direct;  /* a thread owns the receiving state (hdr ... rx_fd, rx_bytes) */
    bool reading; /* the progress thread is in read_cb */
    wu_ptl_held_t *held, *held_tail; /* frames that thread read for the progress thread */
    int rx_error;                    /* why that thread found the peer must be dropped, or 0 */
};

/* The framing of a connection (wu_ptl_conn_t.wire). */
enum { WU_PTL_WIRE_ANY = 0, WU_PTL_WIRE_WU = 1, WU_PTL_WIRE_FOREIGN = 2 };

/* Which admission count of its listener holds a connection (wu_ptl_conn_t.admit). */
enum { WU_PTL_ADMIT_NONE = 0, WU_PTL_ADMIT_HANDSHAKE = 1, WU_PTL_ADMIT_AWAIT = 2 };

/* What wu_ptl_base_rx_step did. */
enum {
    WU_PTL_RX_FRAME = 1, /* a whole frame is ready: deliver it */
    WU_PTL_RX_MORE = 2,  /* bytes came: step again */
    WU_PTL_RX_AGAIN = 3  /* nothing to read now */
};

extern int wu_ptl_base_frame_timeout;

/* One step of receiving c's next frame, by the thread that reads c: a WU_PTL_RX_* value, or
 * the status with which the peer must be dropped (WU_PTL_PEER_CLOSED at its end). */
int wu_ptl_base_rx_step(wu_ptl_conn_t *c);
/* Hand the whole frame to c's receive callback, then keep or free its buffer. */
void wu_ptl_base_deliver(wu_ptl_conn_t *c);
/* Is a frame half received? */
bool wu_ptl_base_mid_frame(const wu_ptl_conn_t *c);
/* Close the descriptor of the frame being received and free its buffer and the spare one. */
void wu_ptl_base_rx_drop(wu_ptl_conn_t *c);
/* Account for bytes a frame's buffer no longer holds (negative) or newly holds. */
void wu_ptl_base_rx_account(size_t add, size_t sub);

/* The active module serving uri's scheme, NULL if none. */
const wu_ptl_module_t *wu_ptl_base_module_for_uri(const char *uri);
/* Make a connection of the connected socket fd (its owner from now on, closed on failure), as
 * wu_ptl_connect does after the module connected; foreign_index >= 0: the peer is an OpenPMIx
 * server that gave this index in its handshake (frames in its framing from the first byte). */
int wu_ptl_base_conn_start(wu_progress_t *pt, int fd, wu_ptl_recv_fn_t recv,
                           wu_ptl_closed_fn_t closed, void *cbdata, int64_t foreign_index,
                           wu_ptl_conn_t **out);

/* ptl_base_foreign.c: OpenPMIx's framing (ptl.h). */
/* Bytes of the header of the frame whose first hdr_got bytes c has received. */
size_t wu_ptl_base_hdr_want(const wu_ptl_conn_t *c);
/* Check a complete OpenPMIx header in c->hdr and set c->tag, c->flags, c->plen and c->wire.
 * WU_SUCCESS or why the peer is dropped. */
int wu_ptl_base_foreign_parse(wu_ptl_conn_t *c, size_t hello_max);
/* Write the header of a frame to c's OpenPMIx peer into h (room for WU_PTL_FOREIGN_HDR_SIZE);
 * its length (0 with WU_PTL_FLAG_RAW). */
size_t wu_ptl_base_foreign_hdr(const wu_ptl_conn_t *c, unsigned char *h, uint32_t tag,
                               uint16_t flags, size_t len);

/* ptl_base_direct.c, for connections with ep >= 0 */
/* Watch c through its own epoll set (at connect, before reading starts). Falls back silently
 * to watching fd itself if the set cannot be made. */
void wu_ptl_base_direct_setup(wu_ptl_conn_t *c);
/* At the start of read_cb (progress thread): false if another thread reads c now (read_cb
 * returns at once). Otherwise c is marked as read by the progress thread, the frames that
 * thread held are delivered in order, and *drop is the status to drop the peer with, or 0. */
bool wu_ptl_base_direct_enter(wu_ptl_conn_t *c, int *drop);
/* At the end of read_cb. */
void wu_ptl_base_direct_leave(wu_ptl_conn_t *c);
/* In teardown (progress thread, closed already set): true when a thread reads c now; the socket
 * is shut down to wake it, and that thread closes it and frees the receiving state. */
bool wu_ptl_base_direct_close(wu_ptl_conn_t *c);
/* At the last release: what is left of c's direct state. */
void wu_ptl_base_direct_free(wu_ptl_conn_t *c);

#endif
