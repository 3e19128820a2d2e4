/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl.h -- the ptl framework: framed byte transport between a PMIx server and its clients/tools.
 *
 * ptl decides how a client reaches its server. A component only makes stream sockets: it
 * creates a listening endpoint and names it with a URI ("usock:/path", "tcp4://127.0.0.1:port"),
 * and connects to such a URI. Everything else is the base's and the same for every component:
 * framing, nonblocking reads and writes, the accept, receive and closed callbacks, all run on
 * the caller's progress thread (opal/event/wu_progress.h), except the frames a thread that
 * awaits its reply reads itself (wu_ptl_conn_await), and sends made from any thread. The framework selects every willing
 * component (select_all). A server opens its listeners with wu_ptl_base_listen_all: each active
 * module, best first, is asked to listen and decides from the server's attributes whether it is
 * wanted (a module for remote peers may listen only when remote connections are asked for); the
 * best listener's URI is the one the server hands to the processes it starts. wu_ptl_connect
 * picks the module by the URI's scheme. The server knows no component by name: adding one is
 * adding a directory here.
 *
 * Frame on the wire: a 12-byte header in network byte order, then `length` payload bytes:
 *   byte 0 magic 'W' (0x57) | byte 1 version (WU_PTL_WIRE_VERSION) | bytes 2-3 flags |
 *   bytes 4-7 tag (request/reply matching) | bytes 8-11 payload length.
 * The payload is opaque here (wu_pack'ed data to the layers above); one message is one frame,
 * so a message has at most ptl_base_max_msg_size bytes (default 1 GiB, at most 4 GiB - 1).
 * A header with a wrong magic or version, or a length above the limit, drops the peer: its
 * socket is closed, the closed callback runs once with the reason, resources are freed. A bad
 * peer never blocks nor crashes the progress thread. The receiver's buffer grows with the bytes
 * that arrive (doubling, up to the announced length): announcing a large frame costs nothing.
 *
 * Trust. A connection a listener accepts starts untrusted: it may send one frame (its connect
 * request) of at most ptl_base_handshake_max bytes (16 KiB), complete within
 * ptl_base_handshake_timeout seconds (10) of the accept. Its owner (the server) then checks it
 * and either calls wu_ptl_conn_set_trusted, which lifts these limits, or closes it; until then
 * any further byte drops the peer, and no deadline applies (the owner's own wait does).
 * Admission: a listener never stops accepting because of peers in their handshake. It holds at
 * most ptl_base_max_untrusted (64) connections whose first frame is not complete; a new one
 * beyond that displaces the one accepted longest ago (closed with WU_ERR_OUT_OF_RESOURCE),
 * whatever part of a header it sent. A client sends its handshake right after connecting, and
 * a listener reads each new connection's handshake at once and accepts at most a quarter of
 * max_untrusted (and 16) per wakeup, so a connection is displaced only after at least 4 later
 * wakeups, long after a client's handshake came: any number of idle, slow or vanishing peers
 * delays a client by no more than the accepting of those queued before it. (A client that has
 * sent nothing by the time max_untrusted newer connections, all still in their handshake, were
 * accepted after it is displaced all the same: Wireup's client then connects again, a client
 * of another library fails its connect.) Connections whose first
 * frame was delivered and awaits the owner's decision are counted apart, also up to
 * max_untrusted: at that number the listener stops accepting (later peers wait in the kernel's
 * queue) until the owner decides one or it goes. So a
 * peer that is not authenticated costs at most handshake_max bytes, for a bounded time. A
 * trusted peer that stalls in the middle of a frame (no byte for ptl_base_frame_timeout
 * seconds, 300; 0: never) is dropped; one idle between frames never is. Connections made by
 * wu_ptl_connect are trusted from the start.
 *
 * Descriptors. When accept fails for want of file descriptors (EMFILE, ENFILE) the listener
 * closes a reserve descriptor to accept and at once close a waiting peer (which sees its
 * connection end, not a hang), says so once per shortage (help-ptl-base.txt), and pauses with
 * back-off when even that fails; it recovers by itself once descriptors are free.
 *
 * Closed-callback statuses: WU_PTL_PEER_CLOSED the peer closed between frames, WU_SUCCESS a
 * local wu_ptl_close or listener close, WU_ERR_BAD_FORMAT a bad header or the peer closing
 * mid-frame, WU_ERR_VALUE_OUT_OF_BOUNDS a frame above the limit (max_msg_size, or
 * handshake_max while untrusted), WU_ERR_NO_PERMISSIONS a second frame while untrusted,
 * WU_ERR_OUT_OF_RESOURCE displaced in its handshake by a newer connection (see Admission),
 * WU_ERR_TIMEOUT the handshake deadline or a stalled frame, WU_ERR_SYS a socket error,
 * WU_ERR_NOMEM no memory for a frame.
 *
 * Connection lifetime: every connection gets exactly one closed callback, whatever ends it
 * (local close, peer gone, protocol error, listener closed). No callback of a connection runs
 * after its closed callback. Connections are reference counted: wu_ptl_connect hands the caller
 * one reference (drop it with wu_ptl_conn_release once done, typically after closed); accepted
 * connections are owned by the listener unless the accept callback takes a reference. */
#ifndef WU_PTL_H
#define WU_PTL_H

#include "mca/base/wu_mca.h"
#include "opal/event/wu_progress.h"
#include "pmix_common.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define WU_ptl_VERSION 1u

#define WU_PTL_WIRE_MAGIC   0x57u
#define WU_PTL_WIRE_VERSION 1u
#define WU_PTL_HDR_SIZE     12u

/* OpenPMIx peers. A listener also takes processes on OpenPMIx's own library, whose frames
 * differ (docs/openpmix-wire.md, sections 2 and 3): a 16-byte header -- the sender's index,
 * tag and payload length in network byte order, 4 bytes of padding -- except on their first
 * message, the handshake, whose header is 8 bytes 0xff and the length in the host's order.
 * The first byte of a connection tells the two apart (0x57 Wireup, 0xff OpenPMIx). Frames from
 * such a peer reach the receive callback with WU_PTL_FLAG_FOREIGN set (and WU_PTL_FLAG_HELLO on
 * its handshake, whose tag is UINT32_MAX); frames sent to it carry OpenPMIx's header (index 0),
 * or none at all with WU_PTL_FLAG_RAW (the bare answer to a handshake). The limits of trust,
 * sizes and deadlines are the same for both. */
#define WU_PTL_FLAG_FOREIGN      0x4000u
#define WU_PTL_FLAG_HELLO        0x2000u
#define WU_PTL_FLAG_RAW          0x1000u
#define WU_PTL_FOREIGN_HDR_SIZE  16u
#define WU_PTL_FOREIGN_HELLO_MAX 131072u /* OpenPMIx's own limit on a handshake */

/* Closed-callback status when the peer closed its end cleanly (between frames); the other
 * statuses are listed at the top of this file. */
#define WU_PTL_PEER_CLOSED WU_ERR_EMPTY

/* What a listener is asked for. */
typedef struct wu_ptl_listen_req {
    /* The server's attributes (PMIx_server_init's info): each module reads those it knows, e.g.
     * PMIX_SERVER_REMOTE_CONNECTIONS or PMIX_TCP_IPV4_PORT (wu_ptl_req_info). */
    const pmix_info_t *info;
    size_t ninfo;
    bool named; /* the user's ptl selection names this component */
    bool alone; /* no better module listens: without this one nobody can connect */
} wu_ptl_listen_req_t;

/* What a component provides: sockets. Called from any thread. */
typedef struct wu_ptl_module {
    const char *scheme; /* URI scheme this module serves, without ':' ("usock", "tcp4") */
    /* Peers on this module's sockets carry no kernel identity (no SO_PEERCRED): a server
     * listening on it hands out a psec token. */
    bool anonymous;
    /* Create a listening, nonblocking, close-on-exec socket. *fd the socket, *uri a malloc'd URI
     * naming it, *state (may be NULL) passed to unlisten. WU_SUCCESS, WU_ERR_TAKE_NEXT (req does
     * not call for this module: no listener, no message), or an error (shown to the user by the
     * component). */
    int (*listen)(const wu_ptl_listen_req_t *req, int *fd, char **uri, void **state);
    /* Undo what listen made besides the socket (files, directories); the base closes fd. */
    void (*unlisten)(void *state);
    /* Connect to uri (of this scheme); *fd a connected socket (blocking mode is fine, the base
     * makes it nonblocking). WU_ERR_BAD_PARAM malformed uri, WU_ERR_NOT_FOUND nobody there,
     * WU_ERR_SYS otherwise. */
    int (*connect)(const char *uri, int *fd);
} wu_ptl_module_t;

WU_EXPORT extern wu_mca_framework_t wu_mca_ptl_framework;
/* ptl_base_max_msg_size: largest payload accepted from a trusted peer or sent (bytes). */
extern size_t wu_ptl_base_max_msg_size;
/* Bytes allocated right now for frames being received, over every connection of the process
 * (diagnostics and tests). Any thread. */
size_t wu_ptl_base_rx_buffered(void);

typedef struct wu_ptl_conn wu_ptl_conn_t;
typedef struct wu_ptl_listener wu_ptl_listener_t;
/* The listeners of a server, best first (wu_ptl_base_listen_all). */
typedef struct wu_ptl_listeners wu_ptl_listeners_t;

/* The attribute key of req->info, NULL if absent. */
static inline const pmix_info_t *wu_ptl_req_info(const wu_ptl_listen_req_t *req, const char *key)
{
    for (size_t i = 0; NULL != req->info && i < req->ninfo; i++) {
        if (PMIX_CHECK_KEY(&req->info[i], key)) {
            return &req->info[i];
        }
    }
    return NULL;
}

/* One complete frame arrived. payload (NULL if len is 0) is valid only during the call. */
typedef void (*wu_ptl_recv_fn_t)(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags,
                                 const void *payload, size_t len, void *cbdata);
/* The connection ended (exactly once per connection; see the status list above). */
typedef void (*wu_ptl_closed_fn_t)(wu_ptl_conn_t *c, int status, void *cbdata);
/* A peer connected to a listener. Return WU_SUCCESS to keep it (it then starts receiving, as
 * untrusted unless the callback calls wu_ptl_conn_set_trusted), or an error to drop it at once
 * (no closed callback then). The accept callback is the place for a validator: see
 * wu_ptl_conn_fd, wu_ptl_conn_set_cbdata. */
typedef int (*wu_ptl_accept_fn_t)(wu_ptl_listener_t *l, wu_ptl_conn_t *c, void *cbdata);

typedef struct wu_ptl_listener_cbs {
    wu_ptl_accept_fn_t accept; /* may be NULL: accept everyone */
    wu_ptl_recv_fn_t recv;     /* required */
    wu_ptl_closed_fn_t closed; /* may be NULL */
} wu_ptl_listener_cbs_t;

/* Open / close the framework (refcounted). */
int wu_ptl_base_open(void);
void wu_ptl_base_close(void);
/* The active module serving scheme, NULL if none. */
const wu_ptl_module_t *wu_ptl_base_module(const char *scheme);

/* Listen with the active module named component (NULL: the best active one), as if that module
 * were named and alone. Callbacks run on pt's thread with cbdata (accepted connections start with
 * cbdata as their own cbdata). WU_SUCCESS and *out, WU_ERR_BAD_PARAM, WU_ERR_NOT_FOUND (no such
 * active component), or the component's error. Not from pt's thread. */
WU_EXPORT int wu_ptl_listen(wu_progress_t *pt, const char *component,
                            const wu_ptl_listener_cbs_t *cbs, void *cbdata,
                            wu_ptl_listener_t **out);
/* wu_ptl_listen with attributes for the module (e.g. WU_PTL_TCP_ADDR). */
WU_EXPORT int wu_ptl_listen_with(wu_progress_t *pt, const char *component, const pmix_info_t info[],
                                 size_t ninfo, const wu_ptl_listener_cbs_t *cbs, void *cbdata,
                                 wu_ptl_listener_t **out);
/* Attribute of wu_ptl_listen_with for the tcp module: the IPv4 address to listen on (string;
 * "0.0.0.0": every interface), instead of ptl_tcp_listen_addr. */
#define WU_PTL_TCP_ADDR "wu.ptl.tcp.addr"
/* (The server's side, inside the library: not exported.)
 * A server's listeners: every active module, best first, is asked to listen for the attributes
 * info (see wu_ptl_listen_req_t). WU_SUCCESS and *out (at least one listener),
 * WU_ERR_NOT_FOUND (no module listens; nothing said), WU_ERR_BAD_PARAM, WU_ERR_NOMEM, or a
 * module's error (said by it; the listeners opened so far are closed). Not from pt's thread. */
int wu_ptl_base_listen_all(wu_progress_t *pt, const pmix_info_t info[], size_t ninfo,
                           const wu_ptl_listener_cbs_t *cbs, void *cbdata,
                           wu_ptl_listeners_t **out);
/* The i-th listener, best first; NULL past the end. The first one's URI is what the server
 * hands to the processes it starts. */
wu_ptl_listener_t *wu_ptl_listeners_at(const wu_ptl_listeners_t *ls, size_t i);
/* Does some listener accept peers that carry no kernel identity (a psec token is needed)? */
bool wu_ptl_listeners_anonymous(const wu_ptl_listeners_t *ls);
/* wu_ptl_listener_close on each, then free ls. NULL is a no-op. */
void wu_ptl_base_close_listeners(wu_ptl_listeners_t *ls);
/* The URI clients connect to; valid until wu_ptl_listener_close. */
WU_EXPORT const char *wu_ptl_listener_uri(const wu_ptl_listener_t *l);
/* Stop listening, close every accepted connection (their closed callbacks run with
 * WU_SUCCESS), remove the endpoint's files and free l. Blocks until done; no callback of l runs
 * afterwards. Not from pt's thread (refused with a message). NULL is a no-op. */
WU_EXPORT void wu_ptl_listener_close(wu_ptl_listener_t *l);

/* Connect to uri with the module of its scheme. *out holds one reference for the caller.
 * WU_SUCCESS, WU_ERR_BAD_PARAM, WU_ERR_NOT_SUPPORTED (no module for the scheme), the module's
 * error, WU_ERR_NOMEM. */
WU_EXPORT int wu_ptl_connect(wu_progress_t *pt, const char *uri, wu_ptl_recv_fn_t recv,
                             wu_ptl_closed_fn_t closed, void *cbdata, wu_ptl_conn_t **out);
/* Connect to an OpenPMIx server at uri (its transport part, "tcp4://a.b.c.d:port") as a client
 * on OpenPMIx's library does (docs/openpmix-wire.md, 2.1-2.3): send hello, the body of the
 * handshake (ptl writes its header), then read the server's bare answer, its status and the
 * index it gave this client (4 bytes each, network order), in the calling thread, for at most
 * timeout seconds in all. The connection then speaks OpenPMIx's framing both ways: frames
 * arrive with WU_PTL_FLAG_FOREIGN, frames sent carry the index. *out holds one reference.
 * WU_SUCCESS; WU_ERR_BAD_PARAM, WU_ERR_NOT_SUPPORTED, the module's error (as wu_ptl_connect);
 * WU_ERR_TIMEOUT (no answer in time); WU_ERR_NO_PERMISSIONS (the server closed the connection
 * without an answer: it refused the handshake, or answered a status other than success, which
 * is then in *status when status is not NULL); WU_ERR_SYS. Not from pt's thread. */
int wu_ptl_connect_foreign(wu_progress_t *pt, const char *uri, const void *hello, size_t hlen,
                           double timeout, wu_ptl_recv_fn_t recv, wu_ptl_closed_fn_t closed,
                           void *cbdata, int32_t *status, wu_ptl_conn_t **out);
/* Send one frame, in call order. Any thread: the frame is written at once from payload when
 * nothing waits to be written before it and the socket takes it, else (what is left of it)
 * copied and queued for the progress thread. WU_SUCCESS (sent or queued; a queued frame is
 * dropped silently if the connection closes first),
 * WU_ERR_BAD_PARAM, WU_ERR_VALUE_OUT_OF_BOUNDS (len above ptl_base_max_msg_size or 2^32-1),
 * WU_ERR_NOMEM, WU_ERR_INIT (progress thread stopping). */
WU_EXPORT int wu_ptl_send(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload,
                          size_t len);
/* A payload several frames share (the same fence result to every client): its bytes are copied
 * once, when it is made, and each frame that sends it holds a reference until written. */
typedef struct wu_ptl_shared wu_ptl_shared_t;
/* The concatenation of the n pieces, with one reference for the caller; NULL: no memory. */
wu_ptl_shared_t *wu_ptl_shared_new(const struct iovec *iov, int n);
/* Drop a reference (NULL is a no-op). Any thread. */
void wu_ptl_shared_release(wu_ptl_shared_t *s);
/* Its bytes (*len of them). */
const void *wu_ptl_shared_bytes(const wu_ptl_shared_t *s, size_t *len);
/* wu_ptl_send with a shared payload (not copied). Same statuses. */
int wu_ptl_send_shared(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, wu_ptl_shared_t *s);
/* wu_ptl_send_shared with a file descriptor passed along (SCM_RIGHTS; local sockets only): the
 * frame holds its own duplicate of fd until the frame's first byte is written, so the caller
 * may close fd at once. The header flag WU_PTL_FLAG_FD tells the receiver; its receive callback
 * takes the descriptor with wu_ptl_conn_take_fd. Same statuses, WU_ERR_SYS if fd cannot be
 * duplicated, and WU_ERR_NOT_SUPPORTED (nothing sent) where descriptors cannot pass
 * (wu_ptl_conn_passes_fds false). */
int wu_ptl_send_shared_fd(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, wu_ptl_shared_t *s,
                          int fd);
/* Header flag set by the base on a frame that carries a descriptor; other flags are the
 * caller's, but for WU_PTL_FLAG_FOREIGN, _HELLO and _RAW (above), which only the base sets: a
 * Wireup frame that arrives with one of them drops the peer (WU_ERR_BAD_FORMAT). */
#define WU_PTL_FLAG_FD 0x8000u
/* In a receive callback: the descriptor that came with the frame being delivered (the caller
 * owns it and closes it), or -1 if none. One not taken is closed after the callback. A frame's
 * descriptor must arrive with its first byte, and only on a trusted connection: a descriptor
 * that comes otherwise, or a frame flagged without one, drops the peer (WU_ERR_BAD_FORMAT). */
int wu_ptl_conn_take_fd(wu_ptl_conn_t *c);
/* Bytes of the frames handed to c (wu_ptl_send and its kin) that are not written yet: queued on
 * the progress thread or on their way to it. Any thread. A sender that must not let them pile
 * up (a loop of commits) waits while this is large. */
size_t wu_ptl_conn_backlog(wu_ptl_conn_t *c);
/* Bytes received on c so far, whole frames or not (a peer in the middle of a long frame still
 * sends). c's progress thread (a thread that reads c itself, wu_ptl_conn_await, counts the bytes
 * it reads, which the progress thread may see late). */
WU_EXPORT uint64_t wu_ptl_conn_rx_bytes(const wu_ptl_conn_t *c);
/* Wait for a reply by reading c in the calling thread, which must not be a progress thread,
 * until done(arg) is true. Each frame read is delivered to c's receive callback here, in this
 * thread, if mine(tag, flags, arg) says it may be (the reply waited for, typically); the
 * progress thread is not woken meanwhile (a wakeup and two context switches saved).
 * Returns WU_SUCCESS once done(arg) is true, or WU_ERR_TAKE_NEXT when the caller must wait as
 * usual for the delivery on the progress thread: c was not made by wu_ptl_connect, another
 * thread reads it now, a frame that is not mine came (the progress thread delivers it and what
 * follows, in order), or c ended or must be dropped (the progress thread ends it, with the
 * usual closed callback). mine runs with no lock of c held; a callback run here must not block
 * for long: nobody reads c meanwhile. */
int wu_ptl_conn_await(wu_ptl_conn_t *c, bool (*mine)(uint32_t tag, uint16_t flags, void *arg),
                      bool (*done)(void *arg), void *arg);
/* Close c asynchronously: its closed callback runs (WU_SUCCESS) unless it already has. Any
 * thread. Does not drop a reference. */
WU_EXPORT void wu_ptl_close(wu_ptl_conn_t *c);
WU_EXPORT void wu_ptl_conn_retain(wu_ptl_conn_t *c);
/* Drop a reference; the last one frees c (its socket is closed by then). NULL is a no-op. */
WU_EXPORT void wu_ptl_conn_release(wu_ptl_conn_t *c);
/* The owner of an accepted connection has authenticated its peer: lift the untrusted limits
 * (one frame of handshake_max bytes, the handshake deadline) and free its place among the
 * listener's untrusted connections. Call it before replying to the peer's first frame: frames
 * the peer sends after that reply are then accepted. Any thread (from another thread it takes
 * effect in order with the sends that follow). No-op if already trusted or closed, or NULL. */
WU_EXPORT void wu_ptl_conn_set_trusted(wu_ptl_conn_t *c);
/* The socket, for peer checks (SO_PEERCRED); -1 once closed. Do not read, write or close it. */
WU_EXPORT int wu_ptl_conn_fd(const wu_ptl_conn_t *c);
/* The errno of the read or write whose failure ended c (ETIMEDOUT for a peer that stopped
 * acknowledging, ECONNRESET, ...); 0 when none failed. Any thread. */
WU_EXPORT int wu_ptl_conn_errno(const wu_ptl_conn_t *c);
/* Why c ended, for messages, from the closed callback's status: the system call's error text
 * when one failed, "the peer closed the connection" for WU_PTL_PEER_CLOSED, else the status's
 * text. Written to buf (len bytes), which is returned. */
WU_EXPORT const char *wu_ptl_closed_reason(const wu_ptl_conn_t *c, int status, char *buf,
                                           size_t len);
/* Does c's peer speak OpenPMIx's framing (see WU_PTL_FLAG_FOREIGN)? c's progress thread, once
 * its first frame came. */
bool wu_ptl_conn_foreign(const wu_ptl_conn_t *c);
/* Can descriptors pass over c (a Unix-domain socket, as usock's; not TCP)? */
WU_EXPORT bool wu_ptl_conn_passes_fds(const wu_ptl_conn_t *c);
WU_EXPORT void wu_ptl_conn_set_cbdata(wu_ptl_conn_t *c, void *cbdata);
WU_EXPORT void *wu_ptl_conn_get_cbdata(const wu_ptl_conn_t *c);

#endif
