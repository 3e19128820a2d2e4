/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_data.c -- PMIx_Put, PMIx_Commit, PMIx_Store_internal, PMIx_Get and PMIx_Get_nb.
 *
 * Put stores the value in the client's own store at once (so the process's own Get sees it, and
 * the gds reserved-key rule of RFC0009 refuses undefined "pmix" keys) and stages it per scope;
 * Commit sends the staged local-scope (PMIX_LOCAL, PMIX_GLOBAL) and remote-scope (PMIX_REMOTE,
 * PMIX_GLOBAL) sets to the server, a value in both scopes once. PMIX_INTERNAL puts stay in this
 * process. A commit too large for the transport fails with PMIX_ERR_OUT_OF_RESOURCE and a
 * message naming the limit; its data are dropped, and the server is told, so that peers asking
 * for them get that error rather than wait.
 *
 * Get follows RFC0009: exactly one local lookup -- job-level data under PMIX_RANK_WILDCARD,
 * process data under its rank, node data (PMIX_NODE_INFO, or a PMIX_HOSTNAME / PMIX_NODEID
 * qualifier; the own node if none names one) and application data (PMIX_APP_INFO or a
 * PMIX_APPNUM qualifier; the own application if none) in their tables. When that misses and the
 * data belongs to a peer (another rank, or another namespace's job-level data not cached yet)
 * the server is asked, unless PMIX_OPTIONAL or PMIX_IMMEDIATE says not to (PMIX_ERR_NOT_FOUND
 * then). The reply's value is cached, and so is the job-level data of a foreign namespace that
 * comes with it, so later job-level Gets about that namespace are local. A proc of NULL, an
 * empty namespace or rank PMIX_RANK_UNDEF mean the caller's namespace and its job-level data. A
 * NULL key with PMIX_RANK_WILDCARD returns all job-level data of the namespace as a
 * PMIX_DATA_ARRAY of PMIX_INFO (the Standard's "all values of the proc"; for a single rank this
 * library cannot list them and says PMIX_ERR_NOT_SUPPORTED). */
#include "opal/util/wu_error.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- staged puts ----------------------------------------------------------------------- */

static int stage(wu_client_staged_t *s, const char *key, const pmix_value_t *val)
{
    pmix_info_t *slot = NULL;
    void *pos = NULL;
    if (NULL == s->index && NULL == (s->index = WU_NEW(wu_hash_table_t))) {
        return PMIX_ERR_NOMEM;
    }
    if (WU_SUCCESS == wu_hash_table_get_str(s->index, key, &pos)) {
        slot = &s->info[(uintptr_t)pos - 1];
        PMIX_INFO_DESTRUCT(slot);
    } else {
        if (s->n == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 8;
            pmix_info_t *grown = realloc(s->info, cap * sizeof *grown);
            if (NULL == grown) {
                return PMIX_ERR_NOMEM;
            }
            s->info = grown;
            s->cap = cap;
        }
        if (WU_SUCCESS != wu_hash_table_set_str(s->index, key, (void *)(uintptr_t)(s->n + 1))) {
            return PMIX_ERR_NOMEM;
        }
        slot = &s->info[s->n++];
    }
    PMIX_INFO_CONSTRUCT(slot);
    PMIX_LOAD_KEY(slot->key, key);
    return PMIx_Value_xfer(&slot->value, val);
}

void wu_client_staged_clear(void)
{
    for (int k = 0; k < 2; k++) {
        wu_client_staged_t *s = &wu_client.staged[k];
        for (size_t i = 0; i < s->n; i++) {
            PMIX_INFO_DESTRUCT(&s->info[i]);
        }
        free(s->info);
        if (NULL != s->index) {
            wu_hash_table_remove_all(s->index);
            WU_RELEASE(s->index);
        }
        memset(s, 0, sizeof *s);
    }
}

typedef struct {
    pmix_scope_t scope;
    const char *key;
    const pmix_value_t *val;
} put_t;

static int put_fn(void *arg)
{
    put_t *p = arg;
    int rc = wu_client.gds->put(wu_client.store, wu_client.myproc.nspace, wu_client.myproc.rank,
                                p->key, p->val);
    if (PMIX_SUCCESS != rc || PMIX_INTERNAL == p->scope) {
        return rc;
    }
    if (PMIX_REMOTE != p->scope &&
        PMIX_SUCCESS != (rc = stage(&wu_client.staged[0], p->key, p->val))) {
        return rc;
    }
    if (PMIX_LOCAL != p->scope) {
        rc = stage(&wu_client.staged[1], p->key, p->val);
    }
    return rc;
}

pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val)
{
    put_t p = {scope, key, val};
    if (!wu_key_ok(key) || NULL == val || scope > PMIX_INTERNAL) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* PMIX_SCOPE_UNDEF is taken as PMIX_GLOBAL, the widest */
    return wu_client_call(put_fn, &p);
}

/* ---- commit ---------------------------------------------------------------------------- */

/* call->cbdata: the status of a commit that failed here (its failure was then reported to the
 * server), which is the call's result; else PMIX_SUCCESS and the server's answer is. */
static void commit_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    wu_wait_call_t *call = cbdata;
    pmix_status_t failed = *(pmix_status_t *)call->cbdata;
    (void)reply;
    wu_wait_call_done(call, PMIX_SUCCESS != failed ? failed : status);
}

/* Split the remote-scope puts: those with the same value in the local scope (PMIX_GLOBAL puts)
 * are named in *glob (BOOL true), so their values are sent once; the others are viewed in *rmt
 * (shallow copies of the staged infos: free the array only). */
static int commit_split(pmix_info_t **rmt, size_t *nrmt, pmix_info_t **glob, size_t *nglob)
{
    const wu_client_staged_t *lcl = &wu_client.staged[0], *rem = &wu_client.staged[1];
    bool yes = true;
    *rmt = *glob = NULL;
    *nrmt = *nglob = 0;
    if (0 == rem->n) {
        return PMIX_SUCCESS;
    }
    *rmt = malloc(rem->n * sizeof **rmt);
    PMIX_INFO_CREATE(*glob, rem->n);
    if (NULL == *rmt || NULL == *glob) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < rem->n; i++) {
        pmix_info_t *r = &rem->info[i];
        void *pos = NULL;
        if (NULL != lcl->index && WU_SUCCESS == wu_hash_table_get_str(lcl->index, r->key, &pos) &&
            PMIX_EQUAL == PMIx_Value_compare(&lcl->info[(uintptr_t)pos - 1].value, &r->value)) {
            PMIX_INFO_LOAD(&(*glob)[(*nglob)++], r->key, &yes, PMIX_BOOL);
        } else {
            (*rmt)[(*nrmt)++] = *r;
        }
    }
    return PMIX_SUCCESS;
}

/* The COMMIT request: status, then the three lists of wu_proto.h (empty after a failure). */
static int commit_pack(wu_buffer_t *b, pmix_status_t status)
{
    pmix_info_t *rmt = NULL, *glob = NULL;
    size_t nrmt = 0, nglob = 0;
    bool ok = PMIX_SUCCESS == status;
    int rc = wu_client_msg_start(b, WU_CMD_COMMIT);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(b, &status, 1, PMIX_STATUS);
    }
    if (PMIX_SUCCESS == rc && ok) {
        rc = commit_split(&rmt, &nrmt, &glob, &nglob);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(b, ok ? wu_client.staged[0].info : NULL,
                                ok ? wu_client.staged[0].n : 0, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(b, rmt, nrmt, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(b, glob, nglob, PMIX_INFO);
    }
    free(rmt); /* a view: the values belong to the staged puts */
    if (NULL != glob) {
        PMIX_INFO_FREE(glob, wu_client.staged[1].n);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(b);
    }
    return rc;
}

static void commit_fn(wu_wait_call_t *call)
{
    wu_buffer_t b;
    int rc;
    if (WU_CLIENT_SINGLETON == wu_client.mode) {
        wu_client_staged_clear(); /* nobody to send them to: the data is in the store */
        wu_wait_call_done(call, PMIX_SUCCESS);
        return;
    }
    rc = commit_pack(&b, PMIX_SUCCESS);
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_request(&b, 0, commit_reply, call);
    }
    if (PMIX_SUCCESS == rc) {
        wu_client_staged_clear(); /* the server replaces earlier commits key by key */
        return;
    }
    /* The data cannot reach the server (too large: wu_client_request said why). They are
     * dropped, so that a later commit of other data can work, and the server learns of the
     * failure: peers waiting for this process's data get the error instead of waiting on. */
    wu_client_staged_clear();
    *(pmix_status_t *)call->cbdata = rc;
    if (WU_CLIENT_CONNECTED == wu_client.mode && PMIX_SUCCESS == commit_pack(&b, rc) &&
        PMIX_SUCCESS == wu_client_request(&b, 0, commit_reply, call)) {
        return; /* commit_reply ends the call with rc */
    }
    wu_wait_call_done(call, rc);
}

pmix_status_t PMIx_Commit(void)
{
    pmix_status_t failed = PMIX_SUCCESS;
    return wu_client_wait_call(commit_fn, &failed);
}

/* ---- store internal -------------------------------------------------------------------- */

typedef struct {
    const pmix_proc_t *proc;
    const char *key;
    const pmix_value_t *val;
} store_t;

static int store_fn(void *arg)
{
    store_t *s = arg;
    const char *ns = '\0' == s->proc->nspace[0] ? wu_client.myproc.nspace : s->proc->nspace;
    return wu_client.gds->put(wu_client.store, ns, s->proc->rank, s->key, s->val);
}

pmix_status_t PMIx_Store_internal(const pmix_proc_t *proc, const char key[], pmix_value_t *val)
{
    store_t s = {proc, key, val};
    if (NULL == proc || !wu_key_ok(key) || NULL == val ||
        PMIX_MAX_NSLEN < strnlen(proc->nspace, PMIX_MAX_NSLEN + 1) ||
        (!PMIX_RANK_IS_VALID(proc->rank) && PMIX_RANK_WILDCARD != proc->rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return wu_client_call(store_fn, &s);
}

/* ---- get ------------------------------------------------------------------------------- */

typedef void (*get_done_fn_t)(int status, pmix_value_t *val, void *cbdata);

typedef struct {
    pmix_proc_t proc;
    char key[PMIX_MAX_KEYLEN + 1];
    bool nullkey;
    pmix_info_t *info;
    size_t ninfo;
    get_done_fn_t done; /* takes ownership of val */
    void *cbdata;
} get_req_t;

static void get_finish(get_req_t *g, int status, pmix_value_t *val)
{
    g->done(status, val, g->cbdata);
    if (NULL != g->info) {
        PMIX_INFO_FREE(g->info, g->ninfo);
    }
    free(g);
}

/* All job-level data of nspace as one PMIX_DATA_ARRAY of PMIX_INFO. */
static int get_all_job(const char *nspace, pmix_value_t **out)
{
    pmix_info_t *info;
    size_t n;
    pmix_value_t *v;
    int rc = wu_client.gds->export_proc(wu_client.store, nspace, PMIX_RANK_WILDCARD, &info, &n);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == (v = calloc(1, sizeof *v)) ||
        NULL == (v->data.darray = calloc(1, sizeof(pmix_data_array_t)))) {
        free(v);
        PMIX_INFO_FREE(info, n);
        return PMIX_ERR_NOMEM;
    }
    v->type = PMIX_DATA_ARRAY;
    v->data.darray->type = PMIX_INFO;
    v->data.darray->array = info;
    v->data.darray->size = n;
    *out = v;
    return PMIX_SUCCESS;
}

static bool qual_u32(const pmix_info_t *i, uint32_t *out)
{
    if (NULL == i) {
        return false;
    }
    switch (i->value.type) {
    case PMIX_UINT32:
        *out = i->value.data.uint32;
        return true;
    case PMIX_UINT16:
        *out = i->value.data.uint16;
        return true;
    case PMIX_INT:
        *out = (uint32_t)i->value.data.integer;
        return i->value.data.integer >= 0;
    case PMIX_PROC_RANK:
        *out = i->value.data.rank;
        return true;
    default:
        return false;
    }
}

/* The one local lookup. *ask says whether a miss may be answered by the server. */
static int get_local(get_req_t *g, pmix_value_t **val, bool *ask)
{
    const pmix_info_t *host = wu_info_find(g->info, g->ninfo, PMIX_HOSTNAME);
    const pmix_info_t *nodeid = wu_info_find(g->info, g->ninfo, PMIX_NODEID);
    const pmix_info_t *appnum = wu_info_find(g->info, g->ninfo, PMIX_APPNUM);
    const char *ns = g->proc.nspace;
    bool mine = 0 == strcmp(ns, wu_client.myproc.nspace);
    int rc;

    *ask = false;
    if (g->nullkey) {
        return PMIX_RANK_WILDCARD == g->proc.rank ? get_all_job(ns, val) : PMIX_ERR_NOT_SUPPORTED;
    }
    if (wu_info_flag(g->info, g->ninfo, PMIX_NODE_INFO) || NULL != host || NULL != nodeid) {
        uint32_t id = WU_GDS_NODEID_NONE;
        const char *name = NULL;
        if (NULL != host && PMIX_STRING == host->value.type && NULL != host->value.data.string) {
            name = host->value.data.string;
        } else if (!qual_u32(nodeid, &id)) {
            name = wu_client.hostname; /* no node named: this process's node */
        }
        return wu_client.gds->fetch_node(wu_client.store, ns, name, id, g->key, val);
    }
    if (wu_info_flag(g->info, g->ninfo, PMIX_APP_INFO) || NULL != appnum) {
        uint32_t app = 0;
        if (!qual_u32(appnum, &app)) {
            pmix_value_t *mine_v = NULL;
            if (PMIX_SUCCESS == wu_client.gds->fetch(wu_client.store, wu_client.myproc.nspace,
                                                     wu_client.myproc.rank, PMIX_APPNUM, &mine_v) &&
                PMIX_UINT32 == mine_v->type) {
                app = mine_v->data.uint32;
            }
            if (NULL != mine_v) {
                PMIX_VALUE_RELEASE(mine_v);
            }
        }
        return wu_client.gds->fetch_app(wu_client.store, ns, app, g->key, val);
    }
    /* only a peer's data can come from the server */
    if (PMIX_RANK_WILDCARD == g->proc.rank) {
        *ask = !mine && !wu_client.gds->has_proc(wu_client.store, ns, PMIX_RANK_WILDCARD);
    } else {
        *ask = !(mine && g->proc.rank == wu_client.myproc.rank);
    }
    if (wu_info_flag(g->info, g->ninfo, PMIX_OPTIONAL) ||
        wu_info_flag(g->info, g->ninfo, PMIX_IMMEDIATE)) {
        *ask = false;
    } else if (*ask && wu_info_flag(g->info, g->ninfo, PMIX_GET_REFRESH_CACHE)) {
        return PMIX_ERR_NOT_FOUND; /* skip the cache: ask the server again */
    }
    rc = wu_client.gds->fetch(wu_client.store, ns, g->proc.rank, g->key, val);
    if (PMIX_ERR_NOT_FOUND != rc) {
        *ask = false;
    }
    return rc;
}

static void get_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    get_req_t *g = cbdata;
    pmix_value_t *v = NULL;
    pmix_info_t *job = NULL;
    size_t njob = 0;
    int32_t one = 1;

    if (PMIX_SUCCESS == status) {
        if (NULL == (v = calloc(1, sizeof *v))) {
            status = PMIX_ERR_NOMEM;
        } else {
            status = wu_unpack(reply, v, &one, PMIX_VALUE);
        }
    }
    if (PMIX_SUCCESS == status) {
        status = wu_proto_unpack_list(reply, (void **)&job, &njob, PMIX_INFO);
    }
    if (PMIX_SUCCESS == status) {
        const char *ns = g->proc.nspace;
        if (0 != strcmp(ns, wu_client.myproc.nspace)) {
            /* RFC0009: the foreign namespace's job-level data came along: cache it */
            /* RFC0009: the foreign namespace's job-level data came along: cache it (none
             * came with a proc's value: the namespace stays unknown, ask again next time) */
            if (0 < njob || PMIX_RANK_WILDCARD == g->proc.rank) {
                (void)wu_client.gds->import_job(wu_client.store, ns, job, njob);
            }
        }
        if (PMIX_RANK_WILDCARD == g->proc.rank) {
            pmix_info_t one_info;
            memset(&one_info, 0, sizeof one_info);
            PMIX_LOAD_KEY(one_info.key, g->key);
            one_info.value = *v;
            (void)wu_client.gds->import_job(wu_client.store, ns, &one_info, 1);
        } else if (!wu_gds_base_key_reserved(g->key)) {
            (void)wu_client.gds->put(wu_client.store, ns, g->proc.rank, g->key, v);
        }
    }
    if (NULL != job) {
        PMIX_INFO_FREE(job, njob);
    }
    if (PMIX_SUCCESS != status && NULL != v) {
        PMIX_VALUE_RELEASE(v);
        v = NULL;
    }
    get_finish(g, status, v);
}

static int get_ask(get_req_t *g)
{
    wu_buffer_t b;
    const char *key = g->key;
    double t = wu_client_timeout(g->info, g->ninfo);
    int rc = wu_client_msg_start(&b, WU_CMD_GET);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &g->proc, 1, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &key, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, g->info, g->ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        return rc;
    }
    return wu_client_request(&b, t > 0 ? t + WU_CLIENT_TIMEOUT_GRACE : 0, get_reply, g);
}

/* Progress thread: look up, else ask. */
static void get_fn(void *arg)
{
    get_req_t *g = arg;
    pmix_value_t *v = NULL;
    bool ask;
    int rc = get_local(g, &v, &ask);
    if (PMIX_ERR_NOT_FOUND == rc && ask) {
        if (WU_CLIENT_CONNECTED != wu_client.mode) {
            rc = WU_CLIENT_LOST == wu_client.mode ? PMIX_ERR_UNREACH : rc;
        } else if (PMIX_SUCCESS == (rc = get_ask(g))) {
            return; /* get_reply finishes it */
        }
    }
    get_finish(g, rc, v);
}

static int get_new(const pmix_proc_t *proc, const char *key, const pmix_info_t info[], size_t ninfo,
                   get_done_fn_t done, void *cbdata, get_req_t **out)
{
    get_req_t *g;
    if ((NULL != key && !wu_key_ok(key)) || (NULL == info && 0 < ninfo) ||
        (NULL != proc && PMIX_MAX_NSLEN < strnlen(proc->nspace, PMIX_MAX_NSLEN + 1))) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != proc && !PMIX_RANK_IS_VALID(proc->rank) && PMIX_RANK_WILDCARD != proc->rank &&
        PMIX_RANK_UNDEF != proc->rank) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == (g = calloc(1, sizeof *g))) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL == proc || '\0' == proc->nspace[0]) {
        PMIX_LOAD_NSPACE(g->proc.nspace, wu_client.myproc.nspace);
    } else {
        PMIX_LOAD_NSPACE(g->proc.nspace, proc->nspace);
    }
    g->proc.rank = NULL == proc || PMIX_RANK_UNDEF == proc->rank ? PMIX_RANK_WILDCARD : proc->rank;
    g->nullkey = NULL == key;
    if (NULL != key) {
        PMIX_LOAD_KEY(g->key, key);
    }
    if (0 < ninfo) {
        PMIX_INFO_CREATE(g->info, ninfo);
        if (NULL == g->info) {
            free(g);
            return PMIX_ERR_NOMEM;
        }
        g->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            (void)PMIx_Info_xfer(&g->info[i], &info[i]);
        }
    }
    g->done = done;
    g->cbdata = cbdata;
    *out = g;
    return PMIX_SUCCESS;
}

typedef struct {
    pmix_value_cbfunc_t cbfunc;
    void *cbdata;
} get_nb_t;

static void get_nb_done(int status, pmix_value_t *val, void *cbdata)
{
    get_nb_t nb = *(get_nb_t *)cbdata;
    free(cbdata);
    nb.cbfunc(status, val, nb.cbdata);
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
}

pmix_status_t PMIx_Get_nb(const pmix_proc_t *proc, const char key[], const pmix_info_t info[],
                          size_t ninfo, pmix_value_cbfunc_t cbfunc, void *cbdata)
{
    get_nb_t *nb;
    get_req_t *g = NULL;
    int rc;
    if (NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (nb = malloc(sizeof *nb))) {
        return PMIX_ERR_NOMEM;
    }
    nb->cbfunc = cbfunc;
    nb->cbdata = cbdata;
    rc = get_new(proc, key, info, ninfo, get_nb_done, nb, &g);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS != (rc = wu_client_shift(get_fn, g))) {
        PMIX_INFO_FREE(g->info, g->ninfo);
        free(g);
    }
    if (PMIX_SUCCESS != rc) {
        free(nb);
    }
    return rc;
}

typedef struct {
    wu_wait_t wait;
    pmix_value_t *val;
    bool in_thread;
} get_blk_t;

static void get_blk_done(int status, pmix_value_t *val, void *cbdata)
{
    get_blk_t *b = cbdata;
    b->val = val;
    wu_wait_release(&b->wait, status);
}

pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[], const pmix_info_t info[],
                       size_t ninfo, pmix_value_t **val)
{
    get_blk_t b = {.val = NULL};
    get_req_t *g = NULL;
    int rc;
    if (NULL == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    *val = NULL;
    wu_wait_init(&b.wait);
    rc = get_new(proc, key, info, ninfo, get_blk_done, &b, &g);
    if (PMIX_SUCCESS == rc && wu_progress_in_thread(wu_client.pt)) {
        /* called from a callback: answer from local data only, the thread cannot wait */
        pmix_value_t *v = NULL;
        bool ask;
        rc = get_local(g, &v, &ask);
        if (PMIX_ERR_NOT_FOUND == rc && ask && WU_CLIENT_CONNECTED == wu_client.mode) {
            rc = PMIX_ERR_WOULD_BLOCK;
        }
        PMIX_INFO_FREE(g->info, g->ninfo);
        free(g);
        *val = v;
        wu_wait_destroy(&b.wait);
        return rc;
    }
    if (PMIX_SUCCESS == rc) {
        if (PMIX_SUCCESS != (rc = wu_client_shift(get_fn, g))) {
            PMIX_INFO_FREE(g->info, g->ninfo);
            free(g);
        } else {
            rc = wu_wait_for(&b.wait, 0); /* ends: reply, timeout timer or lost connection */
            *val = b.val;
        }
    }
    wu_wait_destroy(&b.wait);
    return rc;
}
