/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_opmix.c -- clients on OpenPMIx's own library (4.x, 5.x), served by Wireup's server
 * (docs/openpmix-wire.md): their handshake, checked and fed to the connect logic Wireup's own
 * clients go through; the job's data they ask for right after; their requests, translated by
 * wu_server_opmix_cmds.c into Wireup's commands, and the replies and events converted back to
 * OpenPMIx's serialization (pmix/common/wu_obfr.h).
 *
 * The handshake (one frame flagged WU_PTL_FLAG_HELLO by ptl): psec name, credential, process
 * type, namespace and rank, library version, serializer, buffer type, data store. Wireup speaks
 * the serializers v4 and v41, both buffer types, the hash data store, and psec native (uid and
 * gid, checked against the registration and against the kernel's owner of the peer's socket)
 * or none when the server's own mode is none. Anything else is refused by closing the
 * connection, as OpenPMIx does, after a message naming what the peer sent. Tools and launchers
 * (process types 3-8) are checked and served by wu_server_opmix_tool.c. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* struct ucred */
#endif
#include "pmix/server/wu_server_opmix.h"

#include "opal/util/wu_escape.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_peer_uid.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include "pmix.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>

bool wu_srv_openpmix = true;

/* The tag ptl gives a handshake frame; the connect logic answers it. */
#define HELLO_TAG UINT32_MAX
/* OpenPMIx's tag of a client's heartbeats (one-way). */
#define HEARTBEAT_TAG 1u

static uint32_t next_index = 0;

/* ---- reading the handshake ------------------------------------------------------------------- */

typedef struct {
    const unsigned char *p;
    size_t left;
    bool bad;
} rd_t;

static const char *rd_str(rd_t *r)
{
    const unsigned char *nul = r->bad ? NULL : memchr(r->p, '\0', r->left);
    const char *s = (const char *)r->p;
    if (NULL == nul) {
        r->bad = true;
        return "";
    }
    r->left -= (size_t)(nul - r->p) + 1;
    r->p = nul + 1;
    return s;
}

static const unsigned char *rd_bytes(rd_t *r, size_t n)
{
    const unsigned char *s = r->p;
    if (r->bad || r->left < n) {
        r->bad = true;
        return NULL;
    }
    r->p += n;
    r->left -= n;
    return s;
}

static uint32_t rd_u32(rd_t *r)
{
    const unsigned char *s = rd_bytes(r, 4);
    uint32_t v = 0;
    if (NULL != s) {
        memcpy(&v, s, 4);
    }
    return ntohl(v);
}

static uint8_t rd_u8(rd_t *r)
{
    const unsigned char *s = rd_bytes(r, 1);
    return NULL != s ? s[0] : 0;
}

/* Refuse an OpenPMIx peer whose handshake asks for what Wireup does not do: say what it sent
 * and what to do, then close (an OpenPMIx server too answers nothing). */
static void refuse(wu_srv_peer_t *peer, const char *what, const char *sent, const char *version)
{
    char e1[4 * WU_ESC_SHORT + 4], e2[4 * WU_ESC_SHORT + 4];
    wu_show_help(WU_SRV_HELP, "openpmix-refused", true,
                 wu_str_escape(version, WU_ESC_SHORT, e1, sizeof e1, 0), what,
                 wu_str_escape(sent, WU_ESC_SHORT, e2, sizeof e2, 0));
    wu_ptl_close(peer->conn);
}

static void hello(wu_srv_peer_t *peer, const void *payload, size_t len)
{
    rd_t r = {payload, len, false};
    const char *psec, *cred, *nspace = "", *version, *bfrops, *gds;
    const char *mode = wu_psec_base_mode();
    uint32_t ncred, rank = 0, uid = 0, gid = 0;
    uint8_t type, btype;
    bool tool;
    pmix_proc_t proc;
    pmix_info_t *model = NULL;

    psec = rd_str(&r);
    ncred = rd_u32(&r);
    cred = (const char *)rd_bytes(&r, ncred);
    type = rd_u8(&r);
    if (0 == type) {
        nspace = rd_str(&r);
        rank = rd_u32(&r);
    } else if (type <= 10) {
        /* a tool's, launcher's or singleton's identity: uid, gid and for some a name */
        uid = rd_u32(&r);
        gid = rd_u32(&r);
        if (type >= 4 && 6 != type) {
            nspace = rd_str(&r);
            rank = rd_u32(&r);
        }
    }
    version = rd_str(&r);
    if (r.bad || NULL != peer->ox || peer->has_proc || peer->tool) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: dropping a peer whose OpenPMIx handshake is malformed");
        wu_ptl_close(peer->conn);
        return;
    }
    /* tools (3-5) and launchers (6-8) connect as tools; legacy types, singletons and
     * schedulers are not served */
    tool = type >= 3 && type <= 8;
    if (0 != type && !tool) {
        char flag[4];
        snprintf(flag, sizeof flag, "%u", (unsigned)type);
        refuse(peer, "a connection of process type", flag, version);
        return;
    }
    if (0 == r.left) {
        /* OpenPMIx 2.0's handshake ends after the version (docs/openpmix-wire.md, 2.1) */
        refuse(peer, "the handshake of version", version, version);
        return;
    }
    bfrops = rd_str(&r);
    btype = rd_u8(&r);
    gds = rd_str(&r);
    /* what follows (a tool's attributes) is not needed */
    if (r.bad || (!tool && '\0' == nspace[0]) || strlen(nspace) > PMIX_MAX_NSLEN ||
        (!tool && PMIX_RANK_VALID < rank)) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: dropping a peer whose OpenPMIx handshake is malformed");
        wu_ptl_close(peer->conn);
        return;
    }
    if (0 != strcmp(bfrops, "v41") && 0 != strcmp(bfrops, "v4")) {
        refuse(peer, "the serialization", bfrops, version);
    } else if (WU_OBFR_NON_DESC != btype && WU_OBFR_FULLY_DESC != btype) {
        refuse(peer, "the buffer type", WU_OBFR_FULLY_DESC < btype ? "unknown" : "none", version);
    } else if (0 != strcmp(gds, "hash")) {
        refuse(peer, "the data store (gds)", gds, version);
    } else if (0 != strcmp(psec, "native") &&
               !(0 == strcmp(psec, "none") && NULL != mode && 0 == strcmp(mode, "none"))) {
        refuse(peer, "the security mode (psec)", psec, version);
    } else if (NULL == (peer->ox = calloc(1, sizeof *peer->ox))) {
        wu_ptl_close(peer->conn);
    } else {
        peer->ox->btype = btype;
        snprintf(peer->ox->version, sizeof peer->ox->version, "%s", version);
        peer->ox->major = atoi(version);
        if (tool) {
            wu_srv_opmix_tool_hello(peer, type, cred, ncred, uid, gid, nspace, rank);
            return;
        }
        peer->ox->index = next_index++;
        PMIX_LOAD_PROCID(&proc, nspace, rank);
        wu_output_verbose(WU_VERB_INFO, wu_srv.out,
                          "server: OpenPMIx %s client %s:%u connecting (%s, %s, %s)",
                          peer->ox->version, proc.nspace, rank, psec, bfrops,
                          WU_OBFR_NON_DESC == btype ? "non-described" : "fully described");
        wu_srv_connect_begin(peer, HELLO_TAG, &proc, wu_srv_host_pid(proc.nspace, rank), 0, cred,
                             ncred, &model, 0);
    }
}

pmix_status_t wu_srv_opmix_validate(wu_ptl_conn_t *conn, uid_t uid, gid_t gid, const char *cred,
                                    size_t ncred, wu_psec_peer_t *got)
{
    const char *mode = wu_psec_base_mode();
    uint32_t ids[2];
    uid_t owner;
    if (NULL != mode && 0 == strcmp(mode, "none")) {
        return PMIX_SUCCESS;
    }
    if (8 != ncred || NULL == cred) {
        return PMIX_ERR_INVALID_CRED;
    }
    memcpy(ids, cred, sizeof ids); /* OpenPMIx's native credential: uid, gid in host order */
    got->uid = (uid_t)ids[0];
    got->gid = (gid_t)ids[1];
    /* the claim must match the registration, and the kernel must agree on the uid when it can
     * tell (a peer on this host) */
    if ((WU_PSEC_ANY_ID != (unsigned)uid && got->uid != uid) ||
        (WU_PSEC_ANY_ID != (unsigned)gid && got->gid != gid)) {
        return PMIX_ERR_INVALID_CRED;
    }
    if (wu_ptl_conn_passes_fds(conn)) {
        /* a Unix socket (a hand-made peer: OpenPMIx's own clients speak TCP): the kernel knows
         * both ids */
        struct ucred uc;
        socklen_t len = sizeof uc;
        if (0 != getsockopt(wu_ptl_conn_fd(conn), SOL_SOCKET, SO_PEERCRED, &uc, &len) ||
            uc.uid != got->uid || uc.gid != got->gid) {
            return PMIX_ERR_INVALID_CRED;
        }
    } else if (0 == wu_tcp_peer_uid(wu_ptl_conn_fd(conn), &owner) && owner != got->uid) {
        got->uid = owner;
        return PMIX_ERR_INVALID_CRED;
    }
    return PMIX_SUCCESS;
}

void wu_srv_opmix_connected(wu_srv_peer_t *peer)
{
    uint32_t answer[2] = {htonl(0), htonl(peer->ox->index)};
    (void)wu_ptl_send(peer->conn, 0, WU_PTL_FLAG_RAW, answer, sizeof answer);
}

/* ---- replies --------------------------------------------------------------------------------- */

wu_srv_opending_t *wu_srv_opmix_expect(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd)
{
    wu_srv_opending_t *p = calloc(1, sizeof *p);
    if (NULL != p) {
        p->tag = tag;
        p->cmd = cmd;
        p->next = peer->ox->pending;
        peer->ox->pending = p;
    }
    return p;
}

static void pending_free(wu_srv_opending_t *p)
{
    free(p->key);
    wu_argv_free(p->nspaces);
    free(p);
}

void wu_srv_opmix_status(wu_srv_peer_t *peer, uint32_t tag, pmix_status_t status)
{
    wu_buffer_t b;
    wu_buffer_construct(&b);
    if (PMIX_SUCCESS == wu_obfr_pack(&b, peer->ox->btype, &status, 1, PMIX_STATUS)) {
        (void)wu_ptl_send(peer->conn, tag, 0, b.base, b.used);
    }
    wu_buffer_destruct(&b);
}

void wu_srv_opmix_reply(wu_ptl_conn_t *conn, uint32_t tag, const void *payload, size_t len)
{
    wu_srv_peer_t *peer = wu_ptl_conn_get_cbdata(conn);
    wu_srv_opending_t *p = NULL;
    wu_buffer_t r, out;
    pmix_status_t status = PMIX_ERR_NOMEM, rc;

    if (NULL == peer || NULL == peer->ox || HELLO_TAG == tag) {
        return; /* a refused handshake: the connection is closed next, without an answer */
    }
    for (wu_srv_opending_t **pp = &peer->ox->pending; NULL != *pp; pp = &(*pp)->next) {
        if ((*pp)->tag == tag) {
            p = *pp;
            *pp = p->next;
            break;
        }
    }
    if (NULL == p || WU_OCMD_HEARTBEAT == p->cmd) {
        if (NULL == p) {
            wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                              "server: no OpenPMIx request of tag %u awaits a reply", tag);
        }
        free(p);
        return;
    }
    wu_buffer_construct(&r);
    r.base = (char *)payload;
    r.used = r.cap = len;
    wu_buffer_construct(&out);
    if (NULL != payload) {
        int32_t one = 1;
        (void)wu_unpack(&r, &status, &one, PMIX_STATUS);
    }
    rc = wu_srv_opmix_convert(peer, p, status, &r, &out);
    if (PMIX_SUCCESS == rc) {
        (void)wu_ptl_send(conn, tag, 0, out.base, out.used);
    } else {
        wu_srv_opmix_status(peer, tag, rc);
    }
    wu_buffer_destruct(&out);
    pending_free(p);
}

void wu_srv_opmix_free(wu_srv_peer_t *peer)
{
    if (NULL == peer->ox) {
        return;
    }
    while (NULL != peer->ox->pending) {
        wu_srv_opending_t *p = peer->ox->pending;
        peer->ox->pending = p->next;
        pending_free(p);
    }
    free(peer->ox);
    peer->ox = NULL;
}

/* ---- job data (PMIX_REQ_CMD) ---------------------------------------------------------------- */

pmix_status_t wu_srv_opmix_pack_job(const char *nspace, int bt, wu_buffer_t *out)
{
    wu_srv_nspace_t *ns = wu_srv_nspace_find(nspace);
    pmix_status_t rc = NULL != ns ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    for (size_t i = 0; NULL != ns && i < ns->ninfo && PMIX_SUCCESS == rc; i++) {
        wu_obfr_kval_t kv = {ns->info[i].key, &ns->info[i].value};
        rc = wu_obfr_pack(out, bt, &kv, 1, PMIX_KVAL);
    }
    return rc;
}

/* The job data a client asks for at init (PMIX_REQ_CMD): its namespace, then the KVALs. */
static void job_data(wu_srv_peer_t *peer, uint32_t tag)
{
    const char *name = peer->proc.nspace;
    wu_buffer_t b;
    pmix_status_t rc;

    wu_buffer_construct(&b);
    rc = wu_obfr_pack(&b, peer->ox->btype, &name, 1, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = wu_srv_opmix_pack_job(name, peer->ox->btype, &b);
    }
    if (PMIX_SUCCESS == rc) {
        (void)wu_ptl_send(peer->conn, tag, 0, b.base, b.used);
    } else {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: the job data of %s could not be encoded for OpenPMIx: %s", name,
                          PMIx_Error_string(rc));
        wu_srv_opmix_status(peer, tag, rc);
    }
    wu_buffer_destruct(&b);
}

/* ---- events ---------------------------------------------------------------------------------- */

bool wu_srv_opmix_event(wu_ptl_conn_t *conn, const wu_buffer_t *msg)
{
    wu_srv_peer_t *peer = wu_ptl_conn_get_cbdata(conn);
    wu_buffer_t in = *msg, out;
    uint8_t cmd = 0, ocmd = WU_OCMD_NOTIFY;
    int32_t one = 1;
    size_t ref;
    pmix_status_t status, rc;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    bool sent = false;

    if (NULL == peer || NULL == peer->ox) {
        return false;
    }
    in.rpos = 0;
    if (PMIX_SUCCESS != wu_unpack(&in, &cmd, &one, PMIX_UINT8) ||
        (WU_CMD_REGISTER_EVENTS == cmd &&
         PMIX_SUCCESS != wu_unpack(&in, &ref, &(int32_t){1}, PMIX_SIZE)) ||
        PMIX_SUCCESS != wu_event_unpack(&in, &status, &source, &range, &info, &ninfo)) {
        return false;
    }
    /* OpenPMIx's order: command, status, source, SIZE n, n infos, range */
    wu_buffer_construct(&out);
    rc = wu_obfr_pack(&out, peer->ox->btype, &ocmd, 1, PMIX_COMMAND);
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_pack(&out, peer->ox->btype, &status, 1, PMIX_STATUS);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_pack(&out, peer->ox->btype, &source, 1, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_pack_list(&out, peer->ox->btype, info, ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_pack(&out, peer->ox->btype, &range, 1, PMIX_DATA_RANGE);
    }
    if (PMIX_SUCCESS == rc) {
        sent = WU_SUCCESS == wu_ptl_send(conn, 0, 0, out.base, out.used);
    }
    wu_buffer_destruct(&out);
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    return sent;
}

/* ---- requests -------------------------------------------------------------------------------- */

/* A heartbeat (a one-way message on its own tag, whatever it holds): Wireup's MONITOR with
 * PMIX_SEND_HEARTBEAT, whose reply is not sent on. */
static void heartbeat(wu_srv_peer_t *peer)
{
    pmix_info_t beat;
    pmix_status_t none = PMIX_SUCCESS;
    bool yes = true;
    wu_buffer_t b;
    wu_buffer_construct(&b);
    PMIX_INFO_LOAD(&beat, PMIX_SEND_HEARTBEAT, &yes, PMIX_BOOL);
    if (NULL != wu_srv_opmix_expect(peer, HEARTBEAT_TAG, WU_OCMD_HEARTBEAT) &&
        PMIX_SUCCESS == wu_pack(&b, &beat, 1, PMIX_INFO) &&
        PMIX_SUCCESS == wu_pack(&b, &none, 1, PMIX_STATUS) &&
        PMIX_SUCCESS == wu_proto_pack_list(&b, NULL, 0, PMIX_INFO)) {
        wu_srv_dispatch(peer, HEARTBEAT_TAG, WU_CMD_MONITOR, &b);
    }
    PMIX_INFO_DESTRUCT(&beat);
    wu_buffer_destruct(&b);
}

void wu_srv_opmix_recv(wu_srv_peer_t *peer, uint32_t tag, uint16_t flags, const void *payload,
                       size_t len)
{
    wu_buffer_t b;
    uint8_t cmd = 0;
    int32_t one = 1;

    if (0 != (flags & WU_PTL_FLAG_HELLO)) {
        if (!wu_srv_openpmix) { /* no URI was handed out, but every listener tells the framings */
            wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                              "server: dropping an OpenPMIx peer: server_openpmix is off");
            wu_ptl_close(peer->conn);
            return;
        }
        hello(peer, payload, len);
        return;
    }
    if (HEARTBEAT_TAG == tag && peer->connected && NULL != peer->ox && !peer->tool) {
        heartbeat(peer);
        return;
    }
    wu_buffer_construct(&b);
    b.base = (char *)payload;
    b.used = b.cap = len;
    if (!peer->connected || NULL == peer->ox ||
        PMIX_SUCCESS != wu_obfr_unpack(&b, peer->ox->btype, &cmd, &one, PMIX_COMMAND)) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                          "server: dropping an OpenPMIx peer that sent an unreadable message");
        wu_ptl_close(peer->conn);
        return;
    }
    wu_output_verbose(WU_VERB_TRACE, wu_srv.out, "server: OpenPMIx request %u (tag %u, %zu bytes)",
                      cmd, tag, len);
    if (peer->tool) {
        wu_srv_opmix_tool_request(peer, tag, cmd, &b);
    } else if (WU_OCMD_REQ == cmd) {
        job_data(peer, tag);
    } else {
        wu_srv_opmix_request(peer, tag, cmd, &b);
    }
}
