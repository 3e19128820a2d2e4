/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_opmix.c -- Wireup's client under an OpenPMIx server (issue 30; docs/openpmix-wire.md).
 *
 * A process on Wireup's library launched by an OpenPMIx server (Open MPI's mpirun on Debian's
 * OpenPMIx, ...) finds PMIX_SERVER_URI41 (or PMIX_SERVER_URI4) in its environment instead of
 * WU_PMIX_SERVER_URI. It then connects as a client on OpenPMIx's own library does: the handshake
 * of section 2 (psec "native" or "none", bfrops "v41", gds "hash"), the server's bare answer,
 * then OpenPMIx's framing (ptl's wu_ptl_connect_foreign).
 *
 * The API files of the client are not aware of it: they build Wireup's requests and read
 * Wireup's replies as always. This file translates at the one place every request passes
 * (wu_client_request_opt) and every reply arrives (wu_client_recv), as the server's
 * wu_server_opmix_cmds.c does in the other direction:
 *   CONNECT -> REQ (0): the reply's KVALs (job data, per-rank blobs) become the registration a
 *              Wireup server sends, loaded into the store by the usual code;
 *   FINALIZE, ABORT, COMMIT (a global value in both scopes), FENCE (a status only: the fence
 *   reply then carries an empty blob, and the data of peers come with GETs), GET (the byte
 *   objects of the reply are all stored; the value asked for is the reply), NOTIFY,
 *   REGISTER_EVENTS (without the affected-procs filter, which OpenPMIx's request lacks),
 *   JOB_CONTROL (Open MPI registers its cleanup so; the reply's infos are not read),
 *   PUBLISH, LOOKUP, UNPUBLISH, SPAWN and CONNECT (the job data their replies carry are
 *   stored), DISCONNECT, QUERY, LOG, GET_CRED, VALIDATE_CRED, GROUP_CONSTRUCT/DESTRUCT (a 5.x
 *   server's layouts carry the members); the server's events (tag 0) become Wireup's NOTIFY
 *   messages.
 * Every other request (MONITOR: OpenPMIx's server never answers a heartbeat) fails at once with
 * PMIX_ERR_NOT_SUPPORTED (said at verbose level).
 * This file connects and writes the requests; wu_client_opmix_reply.c reads what comes back. */
#include "opal/util/wu_output.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Said on the ptl framework's stream (ptl_base_verbose): this is about the transport. */
#define say(...) WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN, "client:opmix: " __VA_ARGS__)

/* ---- connecting ------------------------------------------------------------------------- */

static int put_str(wu_buffer_t *b, const char *s)
{
    return wu_buffer_put(b, s, strlen(s) + 1);
}

static int put_u32(wu_buffer_t *b, uint32_t v)
{
    unsigned char n[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 8), (unsigned char)v};
    return wu_buffer_put(b, n, 4);
}

/* The psec module to name: "native" unless the server's list (PMIX_SECURITY_MODE) lacks it and
 * offers "none". */
static const char *psec_name(void)
{
    const char *m = getenv("PMIX_SECURITY_MODE");
    char buf[256], *save = NULL;
    bool none = false;
    if (NULL == m || '\0' == m[0]) {
        return "native";
    }
    snprintf(buf, sizeof buf, "%s", m);
    for (char *t = strtok_r(buf, ",", &save); NULL != t; t = strtok_r(NULL, ",", &save)) {
        if (0 == strcmp(t, "native")) {
            return "native";
        }
        none = none || 0 == strcmp(t, "none");
    }
    return none ? "none" : "native";
}

/* The body of the handshake of a plain client (2.1, flag 0). */
static int hello_build(wu_buffer_t *b, const pmix_proc_t *me, uint8_t btype)
{
    const char *psec = psec_name();
    bool native = 0 == strcmp(psec, "native");
    uint32_t ids[2] = {(uint32_t)geteuid(), (uint32_t)getegid()}; /* host order, as native has */
    uint8_t flag = 0;
    int rc = put_str(b, psec);
    if (PMIX_SUCCESS == rc) {
        rc = put_u32(b, native ? (uint32_t)sizeof ids : 0);
    }
    if (PMIX_SUCCESS == rc && native) {
        rc = wu_buffer_put(b, ids, sizeof ids);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_buffer_put(b, &flag, 1);
    }
    if (PMIX_SUCCESS == rc) {
        rc = put_str(b, me->nspace);
    }
    if (PMIX_SUCCESS == rc) {
        rc = put_u32(b, me->rank);
    }
    if (PMIX_SUCCESS == rc) {
        rc = put_str(b, WU_PMIX_COMPAT_VERSION);
    }
    if (PMIX_SUCCESS == rc) {
        rc = put_str(b, "v41");
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_buffer_put(b, &btype, 1);
    }
    if (PMIX_SUCCESS == rc) {
        rc = put_str(b, "hash");
    }
    return rc;
}

int wu_client_opmix_connect(const char *uri)
{
    const char *semi = strchr(uri, ';'), *dot;
    const char *bt = getenv("PMIX_BFROP_BUFFER_TYPE"), *ver = getenv("PMIX_VERSION");
    char who[PMIX_MAX_NSLEN + 16];
    wu_buffer_t hello;
    int32_t status = 0;
    unsigned long r;
    char *end;
    int rc;

    /* "<server nspace>.<server rank>;tcp4://a.b.c.d:port" */
    if (NULL == semi || NULL != strchr(semi + 1, ';') || (size_t)(semi - uri) >= sizeof who) {
        return PMIX_ERR_BAD_PARAM;
    }
    memcpy(who, uri, (size_t)(semi - uri));
    who[semi - uri] = '\0';
    if (NULL == (dot = strrchr(who, '.')) || dot == who || (size_t)(dot - who) > PMIX_MAX_NSLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    errno = 0;
    r = strtoul(dot + 1, &end, 10);
    if ('\0' == dot[1] || '\0' != *end || 0 != errno || r > UINT32_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    memset(&wu_client.server, 0, sizeof wu_client.server);
    memcpy(wu_client.server.nspace, who, (size_t)(dot - who));
    wu_client.server.rank = (pmix_rank_t)r;
    wu_client.obtype = NULL != bt && 0 == strcmp(bt, "PMIX_BFROP_BUFFER_FULLY_DESC")
                           ? WU_OBFR_FULLY_DESC
                           : WU_OBFR_NON_DESC;
    /* the server's release (its PMIX_VERSION): 5.x reads a group destruct with its members */
    wu_client.omajor = NULL != ver && ver[0] >= '1' && ver[0] <= '9' ? atoi(ver) : 4;

    wu_buffer_construct(&hello);
    rc = hello_build(&hello, &wu_client.myproc, wu_client.obtype);
    if (PMIX_SUCCESS == rc) {
        rc = wu_ptl_connect_foreign(wu_client.pt, semi + 1, hello.base, hello.used,
                                    WU_CLIENT_HANDSHAKE_TIMEOUT, wu_client_recv, wu_client_closed,
                                    NULL, &status, &wu_client.conn);
        if (WU_SUCCESS != rc) {
            say("handshake with the OpenPMIx server at %s failed (%d, server status %d)", uri, rc,
                (int)status);
            rc = WU_ERR_TIMEOUT == rc ? PMIX_ERR_TIMEOUT : PMIX_ERR_UNREACH;
        }
    }
    wu_buffer_destruct(&hello);
    /* OpenPMIx's own clients number their requests from 101; tags 1 and 2 mean heartbeats and
     * forwarded output to its server */
    wu_client.next_tag = 100;
    return rc;
}

/* ---- requests: Wireup's layout in, OpenPMIx's out -------------------------------------- */

typedef struct {
    wu_buffer_t *in;  /* the Wireup request, after its command */
    wu_buffer_t *out; /* the OpenPMIx request */
    int bt;
} tr_t;

static int get1(tr_t *t, void *dst, pmix_data_type_t type)
{
    int32_t one = 1;
    return wu_unpack(t->in, dst, &one, type);
}

static int put1(tr_t *t, const void *src, pmix_data_type_t type)
{
    return wu_obfr_pack(t->out, t->bt, src, 1, type);
}

/* A Wireup "list of X" written as OpenPMIx's (SIZE n, then the n elements if any). */
static int relist(tr_t *t, pmix_data_type_t type)
{
    void *arr = NULL;
    size_t n = 0;
    int rc = wu_proto_unpack_list(t->in, &arr, &n, type);
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_pack_list(t->out, t->bt, arr, n, type);
    }
    if (NULL != arr) {
        wu_obfr_free(arr, n, type);
        free(arr);
    }
    return rc;
}

/* One scope of a commit: SCOPE, then a BUFFER of one KVAL per info (none: nothing sent). */
static int commit_scope(tr_t *t, pmix_scope_t scope, const pmix_info_t *a, size_t na,
                        const pmix_info_t *b, size_t nb)
{
    wu_buffer_t kv;
    wu_obfr_nested_t nested;
    int rc = PMIX_SUCCESS;
    if (0 == na + nb) {
        return PMIX_SUCCESS;
    }
    wu_buffer_construct(&kv);
    for (size_t i = 0; PMIX_SUCCESS == rc && i < na + nb; i++) {
        const pmix_info_t *in = i < na ? &a[i] : &b[i - na];
        wu_obfr_kval_t k = {(char *)in->key, (pmix_value_t *)&in->value};
        rc = wu_obfr_pack(&kv, t->bt, &k, 1, PMIX_KVAL);
    }
    if (PMIX_SUCCESS == rc) {
        nested.btype = (uint8_t)t->bt;
        nested.bytes.bytes = kv.base;
        nested.bytes.size = kv.used;
        if (PMIX_SUCCESS == (rc = put1(t, &scope, PMIX_SCOPE))) {
            rc = put1(t, &nested, PMIX_BUFFER);
        }
    }
    wu_buffer_destruct(&kv);
    return rc;
}

/* COMMIT: Wireup's STATUS, the local list, the remote values not local, the keys in both --
 * OpenPMIx's: SCOPE PMIX_LOCAL + BUFFER, SCOPE PMIX_REMOTE + BUFFER (a global value in both). */
static int tr_commit(tr_t *t, wu_client_ox_t *ox)
{
    pmix_status_t status = 0;
    pmix_info_t *lcl = NULL, *rmt = NULL, *both = NULL, *glob = NULL;
    size_t nl = 0, nr = 0, nb = 0, ng = 0;
    int rc;
    (void)ox;
    if (PMIX_SUCCESS == (rc = get1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = wu_proto_unpack_list(t->in, (void **)&lcl, &nl, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = wu_proto_unpack_list(t->in, (void **)&rmt, &nr, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = wu_proto_unpack_list(t->in, (void **)&both, &nb, PMIX_INFO))) {
        /* the values of the keys in both scopes, from the local list (shallow copies) */
        if (nb > 0 && NULL == (glob = calloc(nb, sizeof *glob))) {
            rc = PMIX_ERR_NOMEM;
        }
        for (size_t i = 0; PMIX_SUCCESS == rc && i < nb; i++) {
            for (size_t j = 0; j < nl; j++) {
                if (PMIX_CHECK_KEY(&lcl[j], both[i].key)) {
                    glob[ng++] = lcl[j];
                    break;
                }
            }
        }
        if (PMIX_SUCCESS == rc && PMIX_SUCCESS == status &&
            PMIX_SUCCESS == (rc = commit_scope(t, PMIX_LOCAL, lcl, nl, NULL, 0))) {
            rc = commit_scope(t, PMIX_REMOTE, rmt, nr, glob, ng);
        }
    }
    free(glob);
    if (NULL != lcl) {
        PMIX_INFO_FREE(lcl, nl);
    }
    if (NULL != rmt) {
        PMIX_INFO_FREE(rmt, nr);
    }
    if (NULL != both) {
        PMIX_INFO_FREE(both, nb);
    }
    return rc;
}

/* FENCE: list of PROC (empty: the own namespace), list of INFO -- OpenPMIx's: SIZE n, the n
 * PROCs (always some), list of INFO. */
static int tr_fence(tr_t *t, wu_client_ox_t *ox)
{
    pmix_proc_t *procs = NULL, all;
    size_t n = 0;
    int rc = wu_proto_unpack_list(t->in, (void **)&procs, &n, PMIX_PROC);
    (void)ox;
    if (PMIX_SUCCESS == rc) {
        const pmix_proc_t *p = procs;
        if (0 == n) {
            PMIX_LOAD_PROCID(&all, wu_client.myproc.nspace, PMIX_RANK_WILDCARD);
            p = &all;
            n = 1;
        }
        if (PMIX_SUCCESS == (rc = put1(t, &n, PMIX_SIZE))) {
            rc = wu_obfr_pack(t->out, t->bt, p, (int32_t)n, PMIX_PROC);
        }
    }
    free(procs);
    return PMIX_SUCCESS == rc ? relist(t, PMIX_INFO) : rc;
}

/* GET: PROC, STRING key, list of INFO -- OpenPMIx's: STRING nspace, PROC_RANK rank, list of
 * INFO, STRING key. The proc and key are kept to pick the value out of the reply. */
static int tr_get(tr_t *t, wu_client_ox_t *ox)
{
    char *key = NULL, *ns = ox->proc.nspace;
    int rc;
    if (PMIX_SUCCESS == (rc = get1(t, &ox->proc, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = get1(t, &key, PMIX_STRING))) {
        if (NULL == key || strlen(key) > PMIX_MAX_KEYLEN) {
            rc = PMIX_ERR_BAD_PARAM;
        } else {
            PMIX_LOAD_KEY(ox->key, key);
        }
    }
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = put1(t, &ns, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = put1(t, &ox->proc.rank, PMIX_PROC_RANK)) &&
        PMIX_SUCCESS == (rc = relist(t, PMIX_INFO))) {
        rc = put1(t, &key, PMIX_STRING);
    }
    free(key);
    return rc;
}

/* NOTIFY: STATUS, PROC source (this process), DATA_RANGE, list of INFO -- OpenPMIx's: STATUS,
 * DATA_RANGE, list of INFO (the source is the sender). */
static int tr_notify(tr_t *t, wu_client_ox_t *ox)
{
    pmix_status_t status = 0;
    pmix_proc_t source;
    pmix_data_range_t range = 0;
    int rc;
    (void)ox;
    if (PMIX_SUCCESS == (rc = get1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = get1(t, &source, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = get1(t, &range, PMIX_DATA_RANGE)) &&
        PMIX_SUCCESS == (rc = put1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = put1(t, &range, PMIX_DATA_RANGE))) {
        rc = relist(t, PMIX_INFO);
    }
    return rc;
}

/* REGISTER_EVENTS: SIZE ref, list of STATUS, list of PROC (filter) -- OpenPMIx's: list of
 * STATUS, list of INFO (none). */
static int tr_regevents(tr_t *t, wu_client_ox_t *ox)
{
    size_t ref = 0;
    int rc;
    (void)ox;
    if (PMIX_SUCCESS == (rc = get1(t, &ref, PMIX_SIZE)) &&
        PMIX_SUCCESS == (rc = relist(t, PMIX_STATUS))) {
        rc = wu_obfr_pack_list(t->out, t->bt, NULL, 0, PMIX_INFO);
    }
    return rc;
}

/* The SIZE n and PROC call (made even when n is 0: the groups' and connect's layout) of a
 * Wireup list of PROC; dropped instead when !keep (a 4.x server's group destruct has none). */
static int procs_call(tr_t *t, bool keep)
{
    pmix_proc_t *procs = NULL;
    size_t n = 0;
    int rc = wu_proto_unpack_list(t->in, (void **)&procs, &n, PMIX_PROC);
    if (PMIX_SUCCESS == rc && keep && n > INT32_MAX) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc && keep && PMIX_SUCCESS == (rc = put1(t, &n, PMIX_SIZE))) {
        rc = wu_obfr_pack(t->out, t->bt, procs, (int32_t)n, PMIX_PROC);
    }
    free(procs);
    return rc;
}

/* A Wireup list of STRING keys as OpenPMIx's lookup and unpublish send them: SIZE n, then one
 * STRING call per key. */
static int keys(tr_t *t)
{
    char **k = NULL;
    size_t n = 0;
    int rc = wu_proto_unpack_list(t->in, (void **)&k, &n, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = put1(t, &n, PMIX_SIZE);
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        rc = put1(t, &k[i], PMIX_STRING);
    }
    if (NULL != k) {
        wu_obfr_free(k, n, PMIX_STRING);
        free(k);
    }
    return rc;
}

/* One field of type type, the same in both. */
static int copy1(tr_t *t, pmix_data_type_t type)
{
    union {
        char *str;
        pmix_status_t status;
        pmix_byte_object_t bo;
    } v;
    int rc;
    memset(&v, 0, sizeof v);
    if (PMIX_SUCCESS == (rc = get1(t, &v, type))) {
        rc = put1(t, &v, type);
        wu_obfr_free(&v, 1, type);
    }
    return rc;
}

/* One field of a request's shape (see table): the Wireup field read, OpenPMIx's written. */
static int field(tr_t *t, char op)
{
    uint32_t uid;
    time_t now;
    switch (op) {
    case 'I':
        return relist(t, PMIX_INFO);
    case 'P':
        return relist(t, PMIX_PROC);
    case 'A':
        return relist(t, PMIX_APP);
    case 'Q':
        return relist(t, PMIX_QUERY);
    case 'C':
        return procs_call(t, true);
    case 'X':
        return procs_call(t, false);
    case 'K':
        return keys(t);
    case 's':
        return copy1(t, PMIX_STRING);
    case 't':
        return copy1(t, PMIX_STATUS);
    case 'b':
        return copy1(t, PMIX_BYTE_OBJECT);
    case 'u': /* (not in Wireup's: the server knows it) */
        uid = (uint32_t)geteuid();
        return put1(t, &uid, PMIX_UINT32);
    case 'T': /* (not in Wireup's) */
        now = time(NULL);
        return put1(t, &now, PMIX_TIME);
    default:
        return PMIX_ERR_NOT_SUPPORTED;
    }
}

/* Each Wireup request this client sends to an OpenPMIx server: OpenPMIx's command, and either
 * a translation of its own or its shape, one letter per field of the Wireup request (after the
 * command) in order: I P A Q a list of INFO, PROC, APP, QUERY (both: SIZE n, then a call of the
 * n elements if n > 0); C a list of PROC as SIZE n and a call even when n is 0; X a list of PROC
 * not sent; K a list of STRING as SIZE n and n calls of one; s t b one STRING, STATUS,
 * BYTE_OBJECT; u T fields OpenPMIx's has and Wireup's lacks: the caller's UINT32 uid, the TIME
 * of the call. shape5 replaces shape under a 5.x server. */
static const struct {
    uint8_t wcmd, ocmd;
    int (*tr)(tr_t *t, wu_client_ox_t *ox);
    const char *shape, *shape5;
} table[] = {
    {WU_CMD_CONNECT, WU_OCMD_REQ, NULL, "", NULL},
    {WU_CMD_FINALIZE, WU_OCMD_FINALIZE, NULL, "", NULL},
    {WU_CMD_ABORT, WU_OCMD_ABORT, NULL, "tsP", NULL},
    {WU_CMD_COMMIT, WU_OCMD_COMMIT, tr_commit, NULL, NULL},
    {WU_CMD_FENCE, WU_OCMD_FENCE, tr_fence, NULL, NULL},
    {WU_CMD_GET, WU_OCMD_GET, tr_get, NULL, NULL},
    {WU_CMD_NOTIFY, WU_OCMD_NOTIFY, tr_notify, NULL, NULL},
    {WU_CMD_REGISTER_EVENTS, WU_OCMD_REGEVENTS, tr_regevents, NULL, NULL},
    {WU_CMD_JOB_CONTROL, WU_OCMD_JOB_CONTROL, NULL, "PI", NULL},
    {WU_CMD_PUBLISH, WU_OCMD_PUBLISH, NULL, "uI", NULL},
    {WU_CMD_LOOKUP, WU_OCMD_LOOKUP, NULL, "uKI", NULL},
    {WU_CMD_UNPUBLISH, WU_OCMD_UNPUBLISH, NULL, "uKI", NULL},
    {WU_CMD_SPAWN, WU_OCMD_SPAWN, NULL, "IA", NULL},
    {WU_CMD_CONNECT_PROCS, WU_OCMD_CONNECT, NULL, "CI", NULL},
    {WU_CMD_DISCONNECT_PROCS, WU_OCMD_DISCONNECT, NULL, "CI", NULL},
    {WU_CMD_QUERY, WU_OCMD_QUERY, NULL, "Q", NULL},
    {WU_CMD_LOG, WU_OCMD_LOG, NULL, "TII", NULL},
    {WU_CMD_GET_CRED, WU_OCMD_GET_CRED, NULL, "I", NULL},
    {WU_CMD_VALIDATE_CRED, WU_OCMD_VALIDATE_CRED, NULL, "bI", NULL},
    {WU_CMD_GROUP_CONSTRUCT, WU_OCMD_GROUP_CONSTRUCT, NULL, "sCI", NULL},
    {WU_CMD_GROUP_DESTRUCT, WU_OCMD_GROUP_DESTRUCT, NULL, "sXI", "sCI"},
};

int wu_client_opmix_request(wu_buffer_t *buf, wu_client_ox_t *ox)
{
    wu_buffer_t out;
    tr_t t = {.in = buf, .out = &out, .bt = wu_client.obtype};
    uint8_t cmd = 0;
    int rc;
    memset(ox, 0, sizeof *ox);
    buf->rpos = 0;
    if (PMIX_SUCCESS != (rc = get1(&t, &cmd, PMIX_UINT8))) {
        return rc;
    }
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const char *shape = table[i].shape;
        if (table[i].wcmd != cmd) {
            continue;
        }
        if (NULL != table[i].shape5 && wu_client.omajor >= 5) {
            shape = table[i].shape5;
        }
        ox->wcmd = cmd;
        wu_buffer_construct(&out);
        rc = put1(&t, &table[i].ocmd, PMIX_COMMAND);
        if (PMIX_SUCCESS == rc && NULL != table[i].tr) {
            rc = table[i].tr(&t, ox);
        }
        for (; PMIX_SUCCESS == rc && NULL != shape && '\0' != *shape; shape++) {
            rc = field(&t, *shape);
        }
        if (PMIX_SUCCESS != rc) {
            wu_buffer_destruct(&out);
            return rc;
        }
        wu_buffer_destruct(buf);
        *buf = out;
        return PMIX_SUCCESS;
    }
    say("%s is not supported under an OpenPMIx server (this client does not send it to one)",
        wu_proto_cmd_name(cmd));
    return PMIX_ERR_NOT_SUPPORTED;
}
