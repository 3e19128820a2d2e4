/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_relay.c -- in a wired that starts daemons of the launch tree: their connections.
 *
 * The daemon listens on TCP (every interface, an ephemeral port) before it starts its children
 * and hands them its own port and addresses. A child connects and sends HELLO with the job's
 * token; it is accepted only if it is the first daemon of one of our chunks (the one our agent
 * started) and not connected yet. Its HELLO then goes up to our parent in FWD_UP, and so does
 * every later message of the child (wrapped with its node; FWD_UP of deeper daemons passes as
 * it is, once its origin is checked to lie in that child's chunk). FWD_DOWN from above goes to
 * the child whose chunk holds its destination, or to every child (WU_DMSG_ALL).
 *
 * A child's connection that ends before we close ours is its chunk lost: GONE goes up for every
 * node of the chunk, and the head ends the job naming them. So is a child that stopped answering
 * (wu_rte_beat.c): every heartbeat interval each child gets BEAT, and one from which nothing came
 * for rte_base_heartbeat_misses intervals is closed. At the end the relay waits a while
 * for the children to close (they clean up first), then closes the rest. Callbacks run on the
 * progress thread given at open (wired's rte thread); open, set_tree and close are for another
 * thread (wired's main thread). */
#include "pmix/rte/dist/wu_rte_relay.h"
#include "pmix/rte/dist/wu_rte_beat.h"
#include "pmix.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a connection's cbdata points at: the relay (not authenticated yet) or a child. */
enum { IS_RELAY = 1, IS_KID };

typedef struct kid {
    int kind; /* IS_KID */
    struct wu_rte_relay *r;
    uint32_t chunk;
    wu_ptl_conn_t *conn; /* after HELLO (a reference) */
    bool closed;
    wu_rte_beat_peer_t beat; /* when it last sent anything; why it was closed if it stopped */
} kid_t;

struct wu_rte_relay {
    int kind; /* IS_RELAY */
    wu_progress_t *pt;
    const wu_rte_tree_t *tree;
    char *token;
    wu_ptl_listener_t *listener;
    kid_t *kids;            /* per chunk */
    wu_rte_rcolls_t *colls; /* fences of the branch being combined */
    wu_rte_relay_up_fn up;
    void *arg;
    wu_rte_beat_t *beat; /* the children's heartbeats (NULL: no check) */
    bool closing;
    uint32_t nopen; /* children connected and not closed yet */
    wu_wait_t all_closed;
};

/* Send type/payload up as FWD_UP from node origin. */
static void up_from(struct wu_rte_relay *r, uint32_t origin, uint32_t type, const void *p, size_t n)
{
    wu_dmsg_t m;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == wu_dmsg_put_fwd(&m, origin, WU_DMSG_ALL, type, p, n)) {
        r->up(WU_DMSG_FWD_UP, m.base_ptr, m.bytes_used, r->arg);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

/* The first u32 of a payload (EXITED's rank). */
static bool first_u32(const void *p, size_t n, uint32_t *v)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    bool ok;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ok =
        n > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) && PMIX_SUCCESS == wu_dmsg_get_u32(&m, v);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return ok;
}

/* Every node of chunk c is gone: why, for the message (silence > 0: its first daemon stopped
 * answering, silent for that many seconds). */
static void chunk_gone(struct wu_rte_relay *r, uint32_t c, const char *why, double silence)
{
    const wu_rte_tree_t *t = r->tree;
    for (uint32_t i = t->starts[c]; i < t->starts[c] + t->lens[c]; i++) {
        wu_rte_rcolls_node_gone(r->colls, t->nodes[i]); /* held fences go up first */
    }
    for (uint32_t i = t->starts[c]; i < t->starts[c] + t->lens[c]; i++) {
        char text[512];
        wu_dmsg_t m;
        if (i == t->starts[c]) {
            char host[256] = "";
            (void)gethostname(host, sizeof host - 1);
            if (silence > 0) {
                snprintf(text, sizeof text,
                         "its daemon stopped answering its parent in the launch tree, the daemon "
                         "of %s: no message for %.0f s",
                         host, silence);
            } else {
                snprintf(text, sizeof text,
                         "its daemon's connection to its parent in the launch tree, the daemon of "
                         "%s, ended (%s)",
                         host, why);
            }
        } else {
            snprintf(text, sizeof text,
                     "its parent in the launch tree, the daemon of %s, was lost (%s)",
                     t->hosts[t->starts[c]], why);
        }
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS == wu_dmsg_put_str(&m, text)) {
            up_from(r, t->nodes[i], WU_DMSG_GONE, m.base_ptr, m.bytes_used);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&m);
    }
}

static void on_hello(struct wu_rte_relay *r, wu_ptl_conn_t *c, uint32_t type, const void *payload,
                     size_t len)
{
    char *version = NULL, *token = NULL, *host = NULL;
    uint32_t node = UINT32_MAX, chunk = UINT32_MAX;
    int32_t pid = 0;
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
    bool ok;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ok = WU_DMSG_HELLO == type && len > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
         PMIX_SUCCESS == wu_dmsg_get_hello(&m, &version, &token, &node, &host, &pid) &&
         wu_dmsg_token_ok(r->token, token);
    if (ok) {
        chunk = NULL != r->tree ? wu_rte_tree_chunk_of(r->tree, node) : UINT32_MAX;
        ok = UINT32_MAX != chunk && wu_rte_tree_first(r->tree, chunk) == node &&
             NULL == r->kids[chunk].conn && !r->kids[chunk].closed && !r->closing;
    }
    if (ok) {
        /* the head checks the version (and says so) */
        kid_t *k = &r->kids[chunk];
        wu_ptl_conn_set_trusted(c);
        wu_dmsg_keepalive(wu_ptl_conn_fd(c));
        wu_ptl_conn_retain(c);
        wu_ptl_conn_set_cbdata(c, k);
        k->conn = c;
        wu_rte_beat_heard(&k->beat, wu_ptl_conn_rx_bytes(c));
        r->nopen++;
        up_from(r, node, WU_DMSG_HELLO, payload, len);
    } else {
        wu_ptl_close(c);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    free(version);
    free(token);
    free(host);
}

/* A message of child k: up, wrapped with its node, or (FWD_UP) as it is once its origin is
 * checked. */
static void on_kid_msg(kid_t *k, uint32_t type, const void *payload, size_t len)
{
    struct wu_rte_relay *r = k->r;
    uint32_t first = wu_rte_tree_first(r->tree, k->chunk);
    if (WU_DMSG_FWD_UP == type) {
        uint32_t origin = UINT32_MAX, skip, inner;
        char *p = NULL;
        size_t n = 0;
        wu_dmsg_t m;
        pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
        bool ok;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        ok = len > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
             PMIX_SUCCESS == wu_dmsg_get_fwd(&m, &origin, &skip, &inner, &p, &n) &&
             origin != first && wu_rte_tree_chunk_of(r->tree, origin) == k->chunk;
        PMIX_DATA_BUFFER_DESTRUCT(&m);
        if (!ok) {
            wu_ptl_close(k->conn); /* a daemon of ours never sends that */
        } else if (WU_DMSG_FENCE != inner || !wu_rte_rcolls_fence(r->colls, origin, p, n)) {
            uint32_t rank;
            if (WU_DMSG_EXITED == inner && first_u32(p, n, &rank)) {
                wu_rte_rcolls_rank_ended(r->colls, rank); /* held fences go up first */
            } else if (WU_DMSG_GONE == inner) {
                wu_rte_rcolls_node_gone(r->colls, origin);
            }
            r->up(WU_DMSG_FWD_UP, payload, len, r->arg);
        }
        free(p);
        return;
    }
    if (WU_DMSG_FENCE_AGG == type) {
        if (!wu_rte_rcolls_agg(r->colls, k->chunk, payload, len)) {
            wu_ptl_close(k->conn);
        }
        return;
    }
    if (WU_DMSG_FENCE == type && wu_rte_rcolls_fence(r->colls, first, payload, len)) {
        return;
    }
    if (WU_DMSG_EXITED == type) {
        uint32_t rank;
        if (first_u32(payload, len, &rank)) {
            wu_rte_rcolls_rank_ended(r->colls, rank);
        }
    }
    up_from(r, first, type, payload, len);
}

static void on_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload, size_t len,
                    void *cbdata)
{
    int *kind = cbdata;
    (void)flags;
    if (NULL != kind && IS_KID == *kind) {
        /* any message is a sign of life; BEAT has nothing else to say */
        wu_rte_beat_heard(&((kid_t *)cbdata)->beat, wu_ptl_conn_rx_bytes(c));
        if (WU_DMSG_BEAT != tag) {
            on_kid_msg(cbdata, tag, payload, len);
        }
    } else if (NULL != kind && IS_RELAY == *kind) {
        on_hello(cbdata, c, tag, payload, len); /* not authenticated yet */
    } else {
        wu_ptl_close(c);
    }
}

static void on_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    int *kind = cbdata;
    kid_t *k = cbdata;
    struct wu_rte_relay *r;
    if (NULL == kind || IS_KID != *kind || k->conn != c || k->closed) {
        return; /* a peer that never said HELLO */
    }
    r = k->r;
    k->closed = true;
    if (!r->closing && k->beat.silence > 0) {
        char why[96];
        chunk_gone(r, k->chunk, wu_rte_beat_why(&k->beat, why, sizeof why), k->beat.silence);
    } else if (!r->closing) {
        char why[256];
        chunk_gone(r, k->chunk,
                   WU_PTL_PEER_CLOSED == status ? "it closed"
                                                : wu_ptl_closed_reason(c, status, why, sizeof why),
                   0);
    }
    if (0 == --r->nopen && r->closing) {
        wu_wait_release(&r->all_closed, WU_SUCCESS);
    }
}

int wu_rte_relay_open(wu_progress_t *pt, const char *token, wu_rte_relay_up_fn up, void *arg,
                      wu_rte_relay_t **out, unsigned *port)
{
    const wu_ptl_listener_cbs_t cbs = {.recv = on_recv, .closed = on_closed};
    struct wu_rte_relay *r = calloc(1, sizeof *r);
    int rc;
    *out = NULL;
    if (NULL == r || NULL == (r->token = strdup(token))) {
        free(r);
        return WU_ERR_NOMEM;
    }
    r->kind = IS_RELAY;
    r->pt = pt;
    r->up = up;
    r->arg = arg;
    wu_wait_init(&r->all_closed);
    if (WU_SUCCESS != (rc = wu_rte_listen_tcp(pt, &cbs, r, &r->listener, port))) {
        wu_rte_relay_close(r, 0);
        return rc;
    }
    *out = r;
    return WU_SUCCESS;
}

typedef struct {
    struct wu_rte_relay *r;
    const wu_rte_tree_t *tree;
    kid_t *kids;
    wu_rte_rcolls_t *colls;
} set_tree_t;

/* Every heartbeat interval: BEAT to each child; one from which nothing came for too long is
 * closed, its chunk gone (on_closed), and its agent (ssh) killed: nothing more can come through
 * it, and this daemon need not wait for it at its end. */
static void beat_tick(void *arg, double now, bool judge)
{
    struct wu_rte_relay *r = arg;
    for (uint32_t c = 0; c < r->tree->nchunks; c++) {
        kid_t *k = &r->kids[c];
        if (NULL == k->conn || k->closed) {
            continue;
        }
        wu_rte_beat_send(k->conn);
        if (judge && !r->closing &&
            wu_rte_beat_lost(&k->beat, wu_ptl_conn_rx_bytes(k->conn), now, wu_rte_beat_limit())) {
            if (NULL != r->tree->agents && r->tree->agents->launched) {
                (void)wu_pls_signal_proc(r->tree->agents, c, SIGKILL);
            }
            wu_ptl_close(k->conn);
        }
    }
}

static void set_tree_in_rte(wu_wait_call_t *call)
{
    set_tree_t *s = call->cbdata;
    s->r->tree = s->tree;
    s->r->kids = s->kids;
    s->r->colls = s->colls;
    s->r->beat = wu_rte_beat_start(s->r->pt, beat_tick, s->r);
    wu_wait_call_done(call, WU_SUCCESS);
}

int wu_rte_relay_set_tree(wu_rte_relay_t *r, const wu_rte_tree_t *tree)
{
    set_tree_t s = {.r = r,
                    .tree = tree,
                    .kids = calloc(tree->nchunks + 1, sizeof *s.kids),
                    .colls = wu_rte_rcolls_new(tree, r->up, r->arg)};
    int rc;
    if (NULL == s.kids || NULL == s.colls) {
        free(s.kids);
        wu_rte_rcolls_free(s.colls);
        return WU_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < tree->nchunks; c++) {
        s.kids[c] = (kid_t){.kind = IS_KID, .r = r, .chunk = c};
    }
    rc = wu_progress_shift_wait(r->pt, set_tree_in_rte, &s, 0);
    if (WU_SUCCESS != rc) {
        free(s.kids);
        wu_rte_rcolls_free(s.colls);
    }
    return rc;
}

void wu_rte_relay_set_job(wu_rte_relay_t *r, const char *nspace, const wu_rte_jobmap_t *map)
{
    if (NULL != r && NULL != r->colls) {
        (void)wu_rte_rcolls_set_job(r->colls, nspace, map); /* else: not combined */
    }
}

/* A failed fence on its way down: what is held of its set goes up to be answered. */
static void peek_down(struct wu_rte_relay *r, const void *env, size_t len)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)env, .size = len};
    uint32_t dest, skip, type = 0;
    char *p = NULL;
    size_t n = 0;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (len > 0 && PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
        PMIX_SUCCESS == wu_dmsg_get_fwd(&m, &dest, &skip, &type, &p, &n) &&
        WU_DMSG_FENCE_DONE == type) {
        wu_rte_rcolls_done(r->colls, p, n);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    free(p);
}

void wu_rte_relay_down(wu_rte_relay_t *r, uint32_t dest, const void *env, size_t len)
{
    uint32_t c;
    if (NULL == r || r->closing || NULL == r->tree) {
        return;
    }
    peek_down(r, env, len);
    if (WU_DMSG_ALL == dest) {
        for (c = 0; c < r->tree->nchunks; c++) {
            if (NULL != r->kids[c].conn && !r->kids[c].closed) {
                (void)wu_ptl_send(r->kids[c].conn, WU_DMSG_FWD_DOWN, 0, env, len);
            }
        }
        return;
    }
    c = wu_rte_tree_chunk_of(r->tree, dest);
    if (UINT32_MAX != c && NULL != r->kids[c].conn && !r->kids[c].closed) {
        (void)wu_ptl_send(r->kids[c].conn, WU_DMSG_FWD_DOWN, 0, env, len);
    } /* else: not connected (yet, or any more): the head hears of it through GONE */
}

bool wu_rte_relay_connected(const wu_rte_relay_t *r, uint32_t chunk)
{
    return NULL != r && NULL != r->tree && chunk < r->tree->nchunks && NULL != r->kids[chunk].conn;
}

static void start_closing(wu_wait_call_t *call)
{
    struct wu_rte_relay *r = call->cbdata;
    r->closing = true;
    wu_rte_beat_stop(r->beat);
    r->beat = NULL;
    if (0 == r->nopen) {
        wu_wait_release(&r->all_closed, WU_SUCCESS);
    }
    wu_wait_call_done(call, WU_SUCCESS);
}

void wu_rte_relay_close(wu_rte_relay_t *r, double wait)
{
    if (NULL == r) {
        return;
    }
    (void)wu_progress_shift_wait(r->pt, start_closing, r, 0);
    wu_rte_beat_stop(r->beat); /* if start_closing could not run */
    if (wait > 0) {
        (void)wu_wait_for(&r->all_closed, wait); /* the children end first */
    }
    wu_ptl_listener_close(r->listener); /* closes what is left */
    for (uint32_t c = 0; NULL != r->tree && c < r->tree->nchunks; c++) {
        wu_ptl_conn_release(r->kids[c].conn);
    }
    wu_wait_destroy(&r->all_closed);
    wu_rte_rcolls_free(r->colls);
    free(r->kids);
    free(r->token);
    free(r);
}
