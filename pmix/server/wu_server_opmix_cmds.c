/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_opmix_cmds.c -- the requests of clients on OpenPMIx's library, each read in
 * OpenPMIx's layout (docs/openpmix-wire.md, section 4), written again as the Wireup command that
 * does the same (wu_proto.h) and run by Wireup's own handler (whose reply
 * wu_server_opmix_reply.c converts back to the layout the OpenPMIx client reads). So both
 * kinds of client share one
 * implementation of every operation: a mixed job fences, exchanges data and sees events as a
 * uniform one.
 *
 * Where the two protocols differ in what they carry: a fence answers OpenPMIx clients with a
 * status only (their data store fetches a peer's data with a GET afterwards), a GET answers with
 * the value as a byte object of PROC and KVAL (and the job data of a foreign namespace in a
 * second one), a CONNECT with the job data of the namespaces taking part; a commit's global
 * values come as a local and a remote copy and are sent to Wireup's handler once. Commands
 * Wireup does not serve get PMIX_ERR_NOT_SUPPORTED. */
#include "pmix/server/wu_server_opmix.h"

#include "opal/util/wu_argv.h"
#include "opal/util/wu_output.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

/* The OpenPMIx buffer a request is read from, and the Wireup request written. */
typedef struct {
    wu_srv_peer_t *peer;
    wu_buffer_t *in;
    int bt;
    wu_buffer_t out;
} tr_t;

static pmix_status_t get1(tr_t *t, void *dst, pmix_data_type_t type)
{
    int32_t one = 1;
    return wu_obfr_unpack(t->in, t->bt, dst, &one, type);
}

/* A pointer value (PMIX_SEND_HEARTBEAT, a heartbeat monitor: the key is the request) travels in
 * Wireup's protocol as "true", as Wireup's client sends it. */
static void unpointer(pmix_info_t *info, size_t n)
{
    bool yes = true;
    for (size_t i = 0; i < n; i++) {
        if (PMIX_POINTER == info[i].value.type) {
            PMIx_Value_load(&info[i].value, &yes, PMIX_BOOL);
        }
    }
}

/* Read an OpenPMIx "list of X" and write it as Wireup's. */
static pmix_status_t relist(tr_t *t, pmix_data_type_t type)
{
    void *arr = NULL;
    size_t n = 0;
    pmix_status_t rc = wu_obfr_unpack_list(t->in, t->bt, &arr, &n, type);
    if (PMIX_SUCCESS == rc && PMIX_INFO == type) {
        unpointer(arr, n);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&t->out, arr, n, type);
        wu_obfr_free(arr, n, type);
        free(arr);
    }
    return rc;
}

static pmix_status_t put1(tr_t *t, const void *src, pmix_data_type_t type)
{
    return wu_pack(&t->out, src, 1, type);
}

/* ABORT: STATUS, STRING message, list of PROC -- the same fields in Wireup's. */
static pmix_status_t tr_abort(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    pmix_status_t status = 0, rc;
    char *msg = NULL;
    if (PMIX_SUCCESS == (rc = get1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = get1(t, &msg, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = put1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = put1(t, &msg, PMIX_STRING))) {
        rc = relist(t, PMIX_PROC);
    }
    free(msg);
    return rc;
}

/* The KVALs of a commit's nested buffer, appended to *arr as infos. */
static pmix_status_t commit_kvals(const wu_obfr_nested_t *nb, pmix_info_t **arr, size_t *n)
{
    wu_buffer_t b;
    pmix_status_t rc = PMIX_SUCCESS;
    wu_buffer_construct(&b);
    b.base = (char *)nb->bytes.bytes;
    b.used = b.cap = nb->bytes.size;
    while (PMIX_SUCCESS == rc && wu_buffer_remaining(&b) > 0) {
        wu_obfr_kval_t kv = {NULL, NULL};
        int32_t one = 1;
        pmix_info_t *grown;
        if (PMIX_SUCCESS != (rc = wu_obfr_unpack(&b, nb->btype, &kv, &one, PMIX_KVAL))) {
            break;
        }
        if (NULL == kv.key || strlen(kv.key) > PMIX_MAX_KEYLEN || NULL == kv.value ||
            NULL == (grown = realloc(*arr, (*n + 1) * sizeof **arr))) {
            rc = NULL == kv.key || NULL == kv.value || strlen(kv.key) > PMIX_MAX_KEYLEN
                     ? PMIX_ERR_BAD_PARAM
                     : PMIX_ERR_NOMEM;
            wu_obfr_free(&kv, 1, PMIX_KVAL);
            break;
        }
        *arr = grown;
        PMIX_INFO_CONSTRUCT(&grown[*n]);
        PMIX_LOAD_KEY(grown[*n].key, kv.key);
        grown[*n].value = *kv.value; /* the value's content moves */
        (*n)++;
        free(kv.value);
        free(kv.key);
    }
    return rc;
}

/* COMMIT: pairs of SCOPE and a BUFFER of KVALs (local, remote). Wireup's: STATUS, the local
 * list, the remote values that are not also local and equal, and the keys that are both. */
static pmix_status_t tr_commit(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    pmix_info_t *lcl = NULL, *rmt = NULL, *only = NULL, *both = NULL;
    size_t nl = 0, nr = 0, no = 0, nb = 0;
    pmix_status_t rc = PMIX_SUCCESS, ok = PMIX_SUCCESS;
    while (PMIX_SUCCESS == rc && wu_buffer_remaining(t->in) > 0) {
        pmix_scope_t scope = 0;
        wu_obfr_nested_t nested;
        memset(&nested, 0, sizeof nested);
        if (PMIX_SUCCESS != (rc = get1(t, &scope, PMIX_SCOPE)) ||
            PMIX_SUCCESS != (rc = get1(t, &nested, PMIX_BUFFER))) {
            break;
        }
        if (PMIX_LOCAL == scope) {
            rc = commit_kvals(&nested, &lcl, &nl);
        } else if (PMIX_REMOTE == scope) {
            rc = commit_kvals(&nested, &rmt, &nr);
        } else {
            rc = PMIX_ERR_BAD_PARAM;
        }
        wu_obfr_free(&nested, 1, PMIX_BUFFER);
    }
    if (PMIX_SUCCESS == rc && nr > 0) {
        if (NULL == (only = calloc(nr, sizeof *only)) ||
            NULL == (both = calloc(nr, sizeof *both))) {
            rc = PMIX_ERR_NOMEM;
        }
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < nr; i++) {
        bool same = false;
        for (size_t j = 0; j < nl && !same; j++) {
            same = PMIX_CHECK_KEY(&lcl[j], rmt[i].key) &&
                   PMIX_EQUAL == PMIx_Value_compare(&lcl[j].value, &rmt[i].value);
        }
        if (same) {
            PMIX_INFO_LOAD(&both[nb++], rmt[i].key, &(bool){true}, PMIX_BOOL);
        } else {
            only[no++] = rmt[i]; /* shallow: packed only */
        }
    }
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = put1(t, &ok, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(&t->out, lcl, nl, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(&t->out, only, no, PMIX_INFO))) {
        rc = wu_proto_pack_list(&t->out, both, nb, PMIX_INFO);
    }
    if (NULL != lcl) {
        PMIX_INFO_FREE(lcl, nl);
    }
    if (NULL != rmt) {
        PMIX_INFO_FREE(rmt, nr);
    }
    free(only);
    if (NULL != both) {
        PMIX_INFO_FREE(both, nr);
    }
    return rc;
}

/* FENCE: as tr_procs_info, but a proc named after a group the peer constructed (OpenPMIx's
 * clients fence over a group by its name, the server knowing the members) stands for the
 * group's members. */
static pmix_status_t tr_fence(tr_t *t, wu_srv_opending_t *p)
{
    pmix_proc_t *procs = NULL, *all = NULL;
    size_t n = 0, nall = 0;
    pmix_status_t rc = wu_obfr_unpack_list(t->in, t->bt, (void **)&procs, &n, PMIX_PROC);
    (void)p;
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        wu_srv_ogroup_t *g = wu_srv_ogroup_find(procs[i].nspace);
        size_t add = NULL != g ? g->nmembers : 1;
        pmix_proc_t *grown = realloc(all, (nall + add) * sizeof *all);
        if (NULL == grown) {
            rc = PMIX_ERR_NOMEM;
            break;
        }
        all = grown;
        memcpy(all + nall, NULL != g ? g->members : &procs[i], add * sizeof *all);
        nall += add;
    }
    if (PMIX_SUCCESS == rc &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(&t->out, all, nall, PMIX_PROC))) {
        rc = relist(t, PMIX_INFO);
    }
    free(procs);
    free(all);
    return rc;
}

/* MONITOR: INFO monitor, STATUS error, list of INFO -- the same fields in Wireup's. */
static pmix_status_t tr_monitor(tr_t *t, wu_srv_opending_t *p)
{
    pmix_info_t mon;
    pmix_status_t err = 0, rc;
    (void)p;
    PMIX_INFO_CONSTRUCT(&mon);
    if (PMIX_SUCCESS == (rc = get1(t, &mon, PMIX_INFO)) && (unpointer(&mon, 1), true) &&
        PMIX_SUCCESS == (rc = get1(t, &err, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = put1(t, &mon, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = put1(t, &err, PMIX_STATUS))) {
        rc = relist(t, PMIX_INFO);
    }
    PMIX_INFO_DESTRUCT(&mon);
    return rc;
}

/* CONNECT, DISCONNECT: SIZE n, n PROCs, list of INFO -- Wireup's: list of PROC, list of INFO.
 * A connect's namespaces are kept: its reply carries their job data. */
static pmix_status_t tr_procs_info(tr_t *t, wu_srv_opending_t *p)
{
    pmix_proc_t *procs = NULL;
    size_t n = 0;
    pmix_status_t rc = wu_obfr_unpack_list(t->in, t->bt, (void **)&procs, &n, PMIX_PROC);
    for (size_t i = 0; PMIX_SUCCESS == rc && WU_OCMD_CONNECT == p->cmd && i < n; i++) {
        if (WU_SUCCESS != wu_argv_append_unique(&p->nspaces, procs[i].nspace)) {
            rc = PMIX_ERR_NOMEM;
        }
    }
    if (PMIX_SUCCESS == rc &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(&t->out, procs, n, PMIX_PROC))) {
        rc = relist(t, PMIX_INFO);
    }
    free(procs);
    return rc;
}

/* GET: STRING nspace, PROC_RANK rank, list of INFO, STRING key (absent: all of the proc's
 * data, which Wireup does not serve) -- Wireup's: PROC, STRING key, list of INFO. */
static pmix_status_t tr_get(tr_t *t, wu_srv_opending_t *p)
{
    char *nspace = NULL;
    pmix_rank_t rank = 0;
    pmix_info_t *dirs = NULL;
    size_t ndirs = 0;
    pmix_status_t rc;
    if (PMIX_SUCCESS == (rc = get1(t, &nspace, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = get1(t, &rank, PMIX_PROC_RANK)) &&
        PMIX_SUCCESS ==
            (rc = wu_obfr_unpack_list(t->in, t->bt, (void **)&dirs, &ndirs, PMIX_INFO))) {
        if (NULL == nspace || strlen(nspace) > PMIX_MAX_NSLEN) {
            rc = PMIX_ERR_BAD_PARAM;
        } else if (0 == wu_buffer_remaining(t->in)) {
            rc = PMIX_ERR_NOT_SUPPORTED;
        } else if (PMIX_SUCCESS == (rc = get1(t, &p->key, PMIX_STRING))) {
            PMIX_LOAD_PROCID(&p->proc, nspace, rank);
            if (PMIX_SUCCESS == (rc = put1(t, &p->proc, PMIX_PROC)) &&
                PMIX_SUCCESS == (rc = put1(t, &p->key, PMIX_STRING))) {
                rc = wu_proto_pack_list(&t->out, dirs, ndirs, PMIX_INFO);
            }
        }
    }
    free(nspace);
    wu_obfr_free(dirs, ndirs, PMIX_INFO);
    free(dirs);
    return rc;
}

/* PUBLISH: UINT32 uid (Wireup's server knows it), list of INFO. */
static pmix_status_t tr_publish(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    uint32_t uid;
    pmix_status_t rc = get1(t, &uid, PMIX_UINT32);
    return PMIX_SUCCESS == rc ? relist(t, PMIX_INFO) : rc;
}

/* LOOKUP, UNPUBLISH: UINT32 uid, SIZE n, n STRING calls, list of INFO -- Wireup's: list of
 * STRING, list of INFO. */
static pmix_status_t tr_keys(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    uint32_t uid;
    size_t n = 0, got = 0;
    char **keys = NULL;
    pmix_status_t rc;
    if (PMIX_SUCCESS != (rc = get1(t, &uid, PMIX_UINT32)) ||
        PMIX_SUCCESS != (rc = get1(t, &n, PMIX_SIZE))) {
        return rc;
    }
    if (n > wu_buffer_remaining(t->in) || (n > 0 && NULL == (keys = calloc(n, sizeof *keys)))) {
        return n > wu_buffer_remaining(t->in) ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOMEM;
    }
    while (got < n && PMIX_SUCCESS == (rc = get1(t, &keys[got], PMIX_STRING))) {
        got++;
    }
    if (PMIX_SUCCESS == rc &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(&t->out, keys, n, PMIX_STRING))) {
        rc = relist(t, PMIX_INFO);
    }
    for (size_t i = 0; i < got; i++) {
        free(keys[i]);
    }
    free(keys);
    return rc;
}

/* NOTIFY: STATUS, DATA_RANGE, list of INFO -- Wireup's: STATUS, PROC source (the sender),
 * DATA_RANGE, list of INFO. */
static pmix_status_t tr_notify(tr_t *t, wu_srv_opending_t *p)
{
    pmix_status_t status = 0, rc;
    pmix_data_range_t range = 0;
    pmix_info_t *info = NULL;
    size_t n = 0;
    (void)p;
    if (PMIX_SUCCESS == (rc = get1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = get1(t, &range, PMIX_DATA_RANGE)) &&
        PMIX_SUCCESS == (rc = wu_obfr_unpack_list(t->in, t->bt, (void **)&info, &n, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = put1(t, &status, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = put1(t, &t->peer->proc, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = put1(t, &range, PMIX_DATA_RANGE))) {
        unpointer(info, n);
        rc = wu_proto_pack_list(&t->out, info, n, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc && PMIX_GROUP_CONSTRUCT_COMPLETE == status) {
        /* a 4.x group made by invitation: its leader announces the members (the event's custom
         * range) for the servers to note, and the members then fence over the group's name */
        const char *name = NULL;
        const pmix_data_array_t *m = NULL;
        for (size_t i = 0; i < n; i++) {
            if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ID) && PMIX_STRING == info[i].value.type) {
                name = info[i].value.data.string;
            } else if ((PMIX_CHECK_KEY(&info[i], PMIX_GROUP_MEMBERSHIP) ||
                        PMIX_CHECK_KEY(&info[i], PMIX_EVENT_CUSTOM_RANGE)) &&
                       PMIX_DATA_ARRAY == info[i].value.type && NULL != info[i].value.data.darray &&
                       PMIX_PROC == info[i].value.data.darray->type) {
                m = info[i].value.data.darray;
            }
        }
        if (NULL != name && NULL != m) {
            wu_srv_ogroup_record(name, m->array, m->size);
        }
    }
    wu_obfr_free(info, n, PMIX_INFO);
    free(info);
    return rc;
}

/* REGEVENTS: list of STATUS codes, list of INFO -- Wireup's: SIZE ref (one per registration),
 * list of STATUS, list of PROC (no filter). */
static pmix_status_t tr_regevents(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    size_t ref = ++t->peer->ox->next_ref;
    pmix_status_t rc = put1(t, &ref, PMIX_SIZE);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = relist(t, PMIX_STATUS))) {
        rc = wu_proto_pack_list(&t->out, NULL, 0, PMIX_PROC);
    }
    return rc;
}

/* LOG: TIME stamp, list of INFO data, list of INFO directives -- Wireup's: the two lists. */
static pmix_status_t tr_log(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    time_t stamp;
    pmix_status_t rc = get1(t, &stamp, PMIX_TIME);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = relist(t, PMIX_INFO))) {
        rc = relist(t, PMIX_INFO);
    }
    return rc;
}

/* JOB_CONTROL (list of PROC, list of INFO) and SPAWN (list of INFO, list of APP): the same
 * lists in Wireup's. */
static pmix_status_t tr_jobctl(tr_t *t, wu_srv_opending_t *p)
{
    pmix_status_t rc = relist(t, PMIX_PROC);
    (void)p;
    return PMIX_SUCCESS == rc ? relist(t, PMIX_INFO) : rc;
}

static pmix_status_t tr_spawn(tr_t *t, wu_srv_opending_t *p)
{
    pmix_status_t rc = relist(t, PMIX_INFO);
    (void)p;
    return PMIX_SUCCESS == rc ? relist(t, PMIX_APP) : rc;
}

static pmix_status_t tr_query(tr_t *t, wu_srv_opending_t *p)
{
    (void)p;
    return relist(t, PMIX_QUERY);
}

/* GET_CRED: list of INFO; VALIDATE_CRED: BYTE_OBJECT credential, list of INFO -- the same
 * fields in Wireup's. */
static pmix_status_t tr_cred(tr_t *t, wu_srv_opending_t *p)
{
    pmix_byte_object_t cred = {NULL, 0};
    pmix_status_t rc = PMIX_SUCCESS;
    if (WU_OCMD_VALIDATE_CRED == p->cmd &&
        PMIX_SUCCESS == (rc = get1(t, &cred, PMIX_BYTE_OBJECT))) {
        rc = put1(t, &cred, PMIX_BYTE_OBJECT);
        free(cred.bytes);
    }
    return PMIX_SUCCESS == rc ? relist(t, PMIX_INFO) : rc;
}

static pmix_status_t tr_finalize(tr_t *t, wu_srv_opending_t *p)
{
    (void)t;
    (void)p;
    return PMIX_SUCCESS;
}

/* SIZE n, then one PROC call of n procs, made even when n is 0 (the groups' layout). */
static pmix_status_t get_procs(tr_t *t, pmix_proc_t **procs, size_t *n)
{
    int32_t cnt;
    pmix_status_t rc = get1(t, n, PMIX_SIZE);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (*n > wu_buffer_remaining(t->in) || *n > INT32_MAX) {
        return PMIX_ERR_BAD_PARAM; /* a PROC takes more than a byte */
    }
    if (*n > 0 && NULL == (*procs = calloc(*n, sizeof **procs))) {
        return PMIX_ERR_NOMEM;
    }
    cnt = (int32_t)*n;
    rc = wu_obfr_unpack(t->in, t->bt, *procs, &cnt, PMIX_PROC);
    if (PMIX_SUCCESS == rc && (size_t)cnt != *n) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    return rc;
}

/* GROUP_CONSTRUCT: STRING name, SIZE n + PROC call, list of INFO; GROUP_DESTRUCT: STRING name,
 * (5.x: SIZE n + PROC call), list of INFO -- Wireup's: STRING name, list of PROC, list of INFO
 * (4.x's destruct: the members recorded at its construct). */
static pmix_status_t tr_group(tr_t *t, wu_srv_opending_t *p)
{
    pmix_proc_t *procs = NULL;
    size_t n = 0;
    wu_srv_ogroup_t *g;
    pmix_status_t rc = get1(t, &p->key, PMIX_STRING);
    if (PMIX_SUCCESS == rc && NULL == p->key) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc && (WU_OCMD_GROUP_CONSTRUCT == p->cmd || t->peer->ox->major >= 5)) {
        rc = get_procs(t, &procs, &n);
    } else if (PMIX_SUCCESS == rc && NULL == (g = wu_srv_ogroup_find(p->key))) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (PMIX_SUCCESS == rc) {
        n = g->nmembers;
        if (NULL == (procs = malloc(n * sizeof *procs))) {
            rc = PMIX_ERR_NOMEM;
        } else {
            memcpy(procs, g->members, n * sizeof *procs);
        }
    }
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = put1(t, &p->key, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(&t->out, procs, n, PMIX_PROC))) {
        rc = relist(t, PMIX_INFO);
    }
    free(procs);
    return rc;
}

/* Each OpenPMIx command Wireup serves: the Wireup command that does it, and the translation of
 * its request. */
static const struct {
    uint8_t ocmd, wcmd;
    pmix_status_t (*tr)(tr_t *t, wu_srv_opending_t *p);
} table[] = {
    {WU_OCMD_FINALIZE, WU_CMD_FINALIZE, tr_finalize},
    {WU_OCMD_ABORT, WU_CMD_ABORT, tr_abort},
    {WU_OCMD_COMMIT, WU_CMD_COMMIT, tr_commit},
    {WU_OCMD_FENCE, WU_CMD_FENCE, tr_fence},
    {WU_OCMD_MONITOR, WU_CMD_MONITOR, tr_monitor},
    {WU_OCMD_CONNECT, WU_CMD_CONNECT_PROCS, tr_procs_info},
    {WU_OCMD_DISCONNECT, WU_CMD_DISCONNECT_PROCS, tr_procs_info},
    {WU_OCMD_GET, WU_CMD_GET, tr_get},
    {WU_OCMD_PUBLISH, WU_CMD_PUBLISH, tr_publish},
    {WU_OCMD_LOOKUP, WU_CMD_LOOKUP, tr_keys},
    {WU_OCMD_UNPUBLISH, WU_CMD_UNPUBLISH, tr_keys},
    {WU_OCMD_NOTIFY, WU_CMD_NOTIFY, tr_notify},
    {WU_OCMD_REGEVENTS, WU_CMD_REGISTER_EVENTS, tr_regevents},
    {WU_OCMD_QUERY, WU_CMD_QUERY, tr_query},
    {WU_OCMD_LOG, WU_CMD_LOG, tr_log},
    {WU_OCMD_JOB_CONTROL, WU_CMD_JOB_CONTROL, tr_jobctl},
    {WU_OCMD_SPAWN, WU_CMD_SPAWN, tr_spawn},
    {WU_OCMD_GROUP_CONSTRUCT, WU_CMD_GROUP_CONSTRUCT, tr_group},
    {WU_OCMD_GROUP_DESTRUCT, WU_CMD_GROUP_DESTRUCT, tr_group},
    {WU_OCMD_GET_CRED, WU_CMD_GET_CRED, tr_cred},
    {WU_OCMD_VALIDATE_CRED, WU_CMD_VALIDATE_CRED, tr_cred},
};

void wu_srv_opmix_request(wu_srv_peer_t *peer, uint32_t tag, uint8_t cmd, wu_buffer_t *b)
{
    tr_t t = {.peer = peer, .in = b, .bt = peer->ox->btype};
    wu_srv_opending_t *p;
    pmix_status_t rc;
    uint8_t wcmd;

    if (WU_OCMD_DEREGEVENTS == cmd) {
        return; /* the client expects no answer; Wireup's server keeps no per-code state */
    }
    if (NULL == (p = wu_srv_opmix_expect(peer, tag, cmd))) {
        wu_srv_opmix_status(peer, tag, PMIX_ERR_NOMEM);
        return;
    }
    wu_buffer_construct(&t.out);
    rc = PMIX_ERR_NOT_SUPPORTED;
    wcmd = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].ocmd == cmd) {
            wcmd = table[i].wcmd;
            rc = table[i].tr(&t, p);
            break;
        }
    }
    if (0 == wcmd) {
        wu_output_verbose(WU_VERB_INFO, wu_srv.out,
                          "server: OpenPMIx command %u is not supported (tag %u)", cmd, tag);
    }
    if (PMIX_SUCCESS == rc) {
        t.out.rpos = 0;
        wu_srv_dispatch(peer, tag, wcmd, &t.out); /* its reply comes back through convert */
    } else {
        wu_srv_reply(peer->conn, tag, rc, NULL);
    }
    wu_buffer_destruct(&t.out);
}
