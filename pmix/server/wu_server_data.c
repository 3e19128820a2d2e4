/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_data.c -- the data clients commit and ask for: COMMIT, GET (wu_proto.h), and
 * PMIx_server_dmodex_request (a remote server asking, through its host, for the data of one of
 * our clients). Blobs of committed data are made and stored by wu_server_blob.c.
 *
 * All data lives in the selected gds module, in four stores (wu_server.h): what the host
 * registered, the local-scope and the remote-scope halves of what local clients committed, and
 * what arrived about procs on other nodes. A commit is moved into the two halves with
 * take_proc, so gds knows "this proc committed" even when it committed nothing in a scope.
 *
 * Where a GET for a local requester looks, by target:
 *  - rank PMIX_RANK_WILDCARD: the job-level data registered for the namespace;
 *  - a real rank: the registered per-process data (PMIX_PROC_DATA); then, for a proc of this
 *    node, its local-scope commits: a key missing there is waited for until a commit brings
 *    it, the request's PMIX_TIMEOUT (PMIX_ERR_TIMEOUT) or the proc's end (PMIX_ERR_NOT_FOUND
 *    once it finalized). A proc that has committed already may never put the key: without a
 *    PMIX_TIMEOUT that wait lasts WU_SRV_GET_GRACE seconds, then PMIX_ERR_NOT_FOUND (as
 *    OpenPMIx, whose server waits 2 s; a key put after the last fence, as OpenPMIx's doubleget
 *    does, is found so). A key the proc committed in the remote scope only is not waited for
 *    (PMIX_ERR_NOT_FOUND: it exists, out of the requester's scope); for a proc of another node,
 *    the data received for it (a collecting fence or an earlier direct modex), else the host's
 *    direct_modex upcall (with PMIX_REQUIRED_KEY), whose blob is stored. A key missing from
 *    what arrived may be put later: the host is asked again, after pauses from REFETCH_FIRST
 *    to REFETCH_MAX, until the request's PMIX_TIMEOUT (PMIX_ERR_TIMEOUT) or, without one,
 *    WU_SRV_GET_GRACE after the first answer (PMIX_ERR_NOT_FOUND).
 * PMIX_OPTIONAL and PMIX_IMMEDIATE turn every wait (and the upcall) into PMIX_ERR_NOT_FOUND, and
 * so does a "pmix" key of a proc of the requester's own namespace (a reserved key). A
 * target in another namespace than the requester's brings that namespace's job-level data
 * along (RFC0009). Waiting GETs are kept per target proc, so a commit looks only at its own. */
#include "opal/util/wu_escape.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_time.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "pmix/server/wu_server.h"

#include "opal/util/wu_argv.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wu_srv_get {
    wu_srv_get_t *next;
    wu_ptl_conn_t *conn; /* one reference */
    uint32_t tag;
    pmix_proc_t requester, target;
    char key[PMIX_MAX_KEYLEN + 1];
    wu_timer_t *timer;
    bool grace; /* the timer is WU_SRV_GET_GRACE's, not a PMIX_TIMEOUT: it ends in NOT_FOUND */
    /* a target of another node whose data came without the key: the timer asks the host
     * again */
    bool remote;
    wu_srv_refetch_t refetch;
};

/* The GETs waiting for one target proc: the value of wu_srv.gets under the target's key. */
typedef struct {
    wu_srv_get_t *head;
} get_list_t;

struct wu_srv_dmx {
    wu_srv_dmx_t *next;
    pmix_proc_t proc;
    pmix_dmodex_response_fn_t cbfunc;
    void *cbdata;
};

/* Status of a lookup that must wait for a commit, or ask the host. */
#define GET_WAIT   PMIX_ERR_WOULD_BLOCK
#define GET_DMODEX PMIX_ERR_PARTIAL_SUCCESS
/* The key is not among what the proc committed so far: wait for a later commit, a while. */
#define GET_LATE PMIX_ERR_RESOURCE_BUSY
/* The data of a proc of another node arrived without the key: ask the host again, a while. */
#define GET_REFETCH PMIX_ERR_NOT_AVAILABLE
/* Seconds a GET_LATE or GET_REFETCH request waits without a PMIX_TIMEOUT of its own. */
#define WU_SRV_GET_GRACE 2.0
/* Seconds between two questions to the host about a key a remote proc has not put yet: the
 * first pause, doubled each time up to the last. */
#define REFETCH_FIRST 0.02
#define REFETCH_MAX   0.25

/* ---- stores ---------------------------------------------------------------------------------- */

pmix_status_t wu_srv_stores_create(void)
{
    wu_gds_store_t **all[] = {&wu_srv.store, &wu_srv.local, &wu_srv.export, &wu_srv.globals,
                              &wu_srv.remote};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (PMIX_SUCCESS != wu_srv.gds->store_create(all[i])) {
            return PMIX_ERR_NOMEM;
        }
    }
    if (NULL == (wu_srv.gets = WU_NEW(wu_hash_table_t))) {
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

void wu_srv_stores_release(void)
{
    wu_gds_store_t **all[] = {&wu_srv.store, &wu_srv.local, &wu_srv.export, &wu_srv.globals,
                              &wu_srv.remote};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (NULL != wu_srv.gds && NULL != *all[i]) {
            wu_srv.gds->store_release(*all[i]);
        }
        *all[i] = NULL;
    }
    if (NULL != wu_srv.gets) {
        wu_srv_get_fail_all(PMIX_ERR_INIT); /* normally empty by now */
        WU_RELEASE(wu_srv.gets);
        wu_srv.gets = NULL;
    }
}

void wu_srv_stores_purge(const char *nspace)
{
    wu_gds_store_t *all[] = {wu_srv.store, wu_srv.local, wu_srv.export, wu_srv.globals,
                             wu_srv.remote};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        (void)wu_srv.gds->purge_nspace(all[i], nspace);
    }
}

/* Has proc committed here (at least once, perhaps nothing)? */
static bool committed(const pmix_proc_t *proc)
{
    return wu_srv.gds->has_proc(wu_srv.local, proc->nspace, proc->rank);
}

/* ---- lookups --------------------------------------------------------------------------------- */

/* The value found is the store's own (gds fetch_view): used at once, never released. */
static pmix_status_t lookup(const pmix_proc_t *t, const char *key, const pmix_value_t **val)
{
    wu_srv_nspace_t *ns;
    wu_srv_client_t *cl;
    pmix_status_t rc;

    *val = NULL;
    if (PMIX_RANK_WILDCARD == t->rank) {
        rc = wu_srv.gds->fetch_view(wu_srv.store, t->nspace, PMIX_RANK_WILDCARD, key, val);
        if (PMIX_ERR_NOT_FOUND == rc && !wu_srv.gds->has_nspace(wu_srv.store, t->nspace) &&
            NULL == wu_srv_nspace_find(t->nspace)) {
            rc = PMIX_ERR_INVALID_NAMESPACE;
        }
        return rc;
    }
    if (PMIX_RANK_VALID < t->rank) {
        return PMIX_ERR_BAD_PARAM;
    }
    rc = wu_srv.gds->fetch_view(wu_srv.store, t->nspace, t->rank, key, val);
    if (PMIX_ERR_NOT_FOUND != rc) {
        return rc;
    }
    cl = wu_srv_client_find(t);
    if (NULL != cl || committed(t)) {
        /* a proc of this node: its local-scope commits */
        rc = wu_srv.gds->fetch_view(wu_srv.local, t->nspace, t->rank, key, val);
        if (PMIX_ERR_NOT_FOUND == rc && NULL != cl && PMIX_SUCCESS != cl->commit_status) {
            return cl->commit_status; /* the data may be what could not be committed */
        }
        if (PMIX_ERR_NOT_FOUND != rc || NULL == cl) {
            return rc;
        }
        switch (cl->state) {
        case WU_SRV_CL_FINALIZED:
            return PMIX_ERR_NOT_FOUND;
        case WU_SRV_CL_TERMINATED:
            return committed(t) ? PMIX_ERR_NOT_FOUND : WU_PROTO_ERR_TERMINATED;
        default:
            if (!committed(t)) {
                return GET_WAIT;
            }
            /* committed in the remote scope only, the key exists out of the requester's scope:
             * nothing to wait for */
            if (PMIX_SUCCESS ==
                wu_srv.gds->fetch_view(wu_srv.export, t->nspace, t->rank, key, val)) {
                *val = NULL;
                return PMIX_ERR_NOT_FOUND;
            }
            return GET_LATE;
        }
    }
    rc = wu_srv.gds->fetch_view(wu_srv.remote, t->nspace, t->rank, key, val);
    if (PMIX_ERR_NOT_FOUND == rc && wu_srv.gds->has_proc(wu_srv.remote, t->nspace, t->rank)) {
        return GET_REFETCH; /* its data arrived without the key: it may come later */
    }
    if (PMIX_ERR_NOT_FOUND != rc) {
        return rc;
    }
    ns = wu_srv_nspace_find(t->nspace);
    if (NULL != ns && ns->registered && ns->has_size && t->rank >= ns->size) {
        return PMIX_ERR_NOT_FOUND; /* no such rank: nothing to ask the host */
    }
    return GET_DMODEX;
}

pmix_status_t wu_srv_lookup_copy(const pmix_proc_t *t, const char *key, pmix_value_t **val)
{
    const pmix_value_t *view;
    pmix_status_t rc = lookup(t, key, &view);
    *val = NULL;
    if (GET_WAIT == rc || GET_DMODEX == rc || GET_LATE == rc || GET_REFETCH == rc) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    PMIX_VALUE_CREATE(*val, 1);
    if (NULL == *val) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Value_xfer(*val, view))) {
        PMIX_VALUE_RELEASE(*val);
        *val = NULL;
    }
    return rc;
}

pmix_status_t wu_srv_export_copy(const pmix_proc_t *t, pmix_value_t **val)
{
    wu_gds_store_t *stores[] = {wu_srv.store, wu_srv.local, wu_srv.remote};
    pmix_info_t *info = NULL;
    size_t n = 0;
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;
    *val = NULL;
    for (size_t i = 0; i < sizeof stores / sizeof stores[0] && PMIX_ERR_NOT_FOUND == rc; i++) {
        rc = wu_srv.gds->export_proc(stores[i], t->nspace, t->rank, &info, &n);
    }
    return PMIX_SUCCESS != rc ? rc : wu_value_info_array(info, n, val);
}

/* Reply to a GET: the value and, for a foreign namespace, its job-level data. A large byte
 * object goes from val into the reply's payload without another copy. */
static void get_reply(wu_ptl_conn_t *conn, uint32_t tag, const pmix_proc_t *req,
                      const pmix_proc_t *t, const pmix_value_t *val)
{
    pmix_info_t *job = NULL;
    size_t njob = 0;
    wu_srv_pieces_t body;
    struct iovec *iov = NULL;
    int niov = 0;
    wu_ptl_shared_t *payload = NULL;
    pmix_status_t rc;

    if (NULL == conn) {
        return;
    }
    wu_srv_pieces_construct(&body);
    if (!PMIX_CHECK_NSPACE(req->nspace, t->nspace)) {
        (void)wu_srv.gds->export_proc(wu_srv.store, t->nspace, PMIX_RANK_WILDCARD, &job, &njob);
    }
    if (wu_srv_is_bo(val->type) && val->data.bo.size >= WU_SRV_REF_MIN) {
        rc = wu_pack_group_header(&body.buf, PMIX_VALUE, 1);
        if (PMIX_SUCCESS == rc) {
            rc = wu_pack_value_bo_head(&body.buf, val);
        }
        if (PMIX_SUCCESS == rc) {
            rc = wu_srv_pieces_ref(&body, val->data.bo.bytes, val->data.bo.size);
        }
    } else {
        rc = wu_pack(&body.buf, val, 1, PMIX_VALUE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&body.buf, job, njob, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_srv_pieces_iov(&body, NULL, &iov, &niov);
    }
    payload =
        wu_srv_reply_payload(rc, PMIX_SUCCESS == rc ? iov : NULL, PMIX_SUCCESS == rc ? niov : 0);
    free(iov);
    wu_srv_pieces_destruct(&body);
    if (NULL != job) {
        PMIX_INFO_FREE(job, njob);
    }
    wu_srv_reply_shared(conn, tag, rc, payload);
    wu_ptl_shared_release(payload);
}

/* ---- waiting GETs ---------------------------------------------------------------------------- */

/* The key of a target proc in wu_srv.gets. */
static const char *proc_key(const pmix_proc_t *p, char *buf, size_t len)
{
    snprintf(buf, len, "%u@%s", (unsigned)p->rank, p->nspace);
    return buf;
}

static get_list_t *get_list(const pmix_proc_t *target, bool create)
{
    char k[PMIX_MAX_NSLEN + 16];
    get_list_t *l = NULL;
    if (WU_SUCCESS ==
            wu_hash_table_get_str(wu_srv.gets, proc_key(target, k, sizeof k), (void **)&l) ||
        !create) {
        return l;
    }
    if (NULL != (l = calloc(1, sizeof *l)) &&
        WU_SUCCESS != wu_hash_table_set_str(wu_srv.gets, k, l)) {
        free(l);
        l = NULL;
    }
    return l;
}

/* Forget the list of target if nothing waits on it any more. */
static void get_list_tidy(const pmix_proc_t *target)
{
    char k[PMIX_MAX_NSLEN + 16];
    get_list_t *l = get_list(target, false);
    if (NULL != l && NULL == l->head) {
        (void)wu_hash_table_remove_str(wu_srv.gets, proc_key(target, k, sizeof k));
        free(l);
    }
}

static void get_free(wu_srv_get_t *g)
{
    wu_progress_timer_cancel(g->timer);
    wu_ptl_conn_release(g->conn);
    free(g);
}

/* Take g out of its target's list. */
static void get_unlink(wu_srv_get_t *g)
{
    get_list_t *l = get_list(&g->target, false);
    for (wu_srv_get_t **pp = NULL != l ? &l->head : NULL; NULL != pp && NULL != *pp;
         pp = &(*pp)->next) {
        if (*pp == g) {
            *pp = g->next;
            break;
        }
    }
    get_list_tidy(&g->target);
}

static void get_timeout(void *arg)
{
    wu_srv_get_t *g = arg;
    char who[PMIX_MAX_NSLEN + 16], key[4 * WU_ESC_SHORT + 4];
    get_unlink(g);
    wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: get of %s from %s %s",
                      wu_str_escape(g->key, PMIX_MAX_KEYLEN, key, sizeof key, 0),
                      wu_srv_proc_str(&g->target, who, sizeof who),
                      g->grace ? "not committed in time: not found" : "timed out");
    wu_srv_reply(g->conn, g->tag, g->grace ? PMIX_ERR_NOT_FOUND : PMIX_ERR_TIMEOUT, NULL);
    get_free(g);
}

void wu_srv_data_changed(const pmix_proc_t *proc)
{
    get_list_t *l = get_list(proc, false);
    for (wu_srv_get_t **pp = NULL != l ? &l->head : NULL; NULL != pp && NULL != *pp;) {
        wu_srv_get_t *g = *pp;
        const pmix_value_t *val = NULL;
        pmix_status_t rc;
        if (g->remote) {
            pp = &g->next; /* waits for its timer */
            continue;
        }
        rc = lookup(&g->target, g->key, &val);
        if (GET_LATE == rc && NULL == g->timer) {
            /* it committed without the key: wait for a later commit a while only */
            g->grace = true;
            g->timer = wu_progress_timer(wu_srv.pt, WU_SRV_GET_GRACE, get_timeout, g);
            rc = NULL == g->timer ? PMIX_ERR_NOT_FOUND : GET_LATE;
        }
        if (GET_WAIT == rc || GET_LATE == rc) {
            pp = &g->next;
            continue;
        }
        *pp = g->next;
        if (PMIX_SUCCESS == rc) {
            get_reply(g->conn, g->tag, &g->requester, &g->target, val);
        } else {
            wu_srv_reply(g->conn, g->tag,
                         GET_DMODEX == rc || GET_REFETCH == rc ? PMIX_ERR_NOT_FOUND : rc, NULL);
        }
        get_free(g);
    }
    get_list_tidy(proc);
    /* dmodex requests waiting for this proc's commit */
    for (wu_srv_dmx_t **pp = &wu_srv.dmx; NULL != *pp;) {
        wu_srv_dmx_t *d = *pp;
        wu_buffer_t blob;
        if (d->proc.rank != proc->rank || !PMIX_CHECK_NSPACE(d->proc.nspace, proc->nspace) ||
            !committed(&d->proc)) {
            pp = &d->next;
            continue;
        }
        *pp = d->next;
        wu_buffer_construct(&blob);
        pmix_status_t rc = wu_srv_blob_of(&d->proc, true, &blob);
        d->cbfunc(rc, PMIX_SUCCESS == rc ? blob.base : NULL, PMIX_SUCCESS == rc ? blob.used : 0,
                  d->cbdata);
        wu_buffer_destruct(&blob);
        free(d);
    }
}

void wu_srv_data_gone(const pmix_proc_t *proc, pmix_status_t status)
{
    wu_srv_data_changed(proc); /* answers what can be answered, with the state's error */
    for (wu_srv_dmx_t **pp = &wu_srv.dmx; NULL != *pp;) {
        wu_srv_dmx_t *d = *pp;
        if (d->proc.rank != proc->rank || !PMIX_CHECK_NSPACE(d->proc.nspace, proc->nspace)) {
            pp = &d->next;
            continue;
        }
        *pp = d->next;
        d->cbfunc(status, NULL, 0, d->cbdata);
        free(d);
    }
}

/* Remove from every list the GETs for which drop(g, arg) says so, replying status to them
 * unless it is PMIX_SUCCESS; forget the lists left empty. */
static void get_sweep(bool (*drop)(const wu_srv_get_t *g, const void *arg), const void *arg,
                      pmix_status_t status)
{
    char **empty = NULL;
    void *it = NULL, *v;
    const char *k;
    if (NULL == wu_srv.gets) {
        return;
    }
    while (WU_SUCCESS == wu_hash_table_next_str(wu_srv.gets, &it, &k, &v)) {
        get_list_t *l = v;
        for (wu_srv_get_t **pp = &l->head; NULL != *pp;) {
            wu_srv_get_t *g = *pp;
            if (!drop(g, arg)) {
                pp = &g->next;
                continue;
            }
            *pp = g->next;
            if (PMIX_SUCCESS != status) {
                wu_srv_reply(g->conn, g->tag, status, NULL);
            }
            get_free(g);
        }
        if (NULL == l->head) {
            (void)wu_argv_append(&empty, k); /* not removed while iterating */
        }
    }
    for (char **e = empty; NULL != e && NULL != *e; e++) {
        get_list_t *l = NULL;
        if (WU_SUCCESS == wu_hash_table_get_str(wu_srv.gets, *e, (void **)&l)) {
            (void)wu_hash_table_remove_str(wu_srv.gets, *e);
            free(l);
        }
    }
    wu_argv_free(empty);
}

static bool same_conn(const wu_srv_get_t *g, const void *conn)
{
    return g->conn == conn;
}

static bool any_get(const wu_srv_get_t *g, const void *unused)
{
    (void)g;
    (void)unused;
    return true;
}

void wu_srv_get_drop_conn(wu_ptl_conn_t *conn)
{
    get_sweep(same_conn, conn, PMIX_SUCCESS);
}

void wu_srv_get_fail_all(pmix_status_t status)
{
    get_sweep(any_get, NULL, status);
}

void wu_srv_dmx_fail_all(pmix_status_t status)
{
    while (NULL != wu_srv.dmx) {
        wu_srv_dmx_t *d = wu_srv.dmx;
        wu_srv.dmx = d->next;
        d->cbfunc(status, NULL, 0, d->cbdata);
        free(d);
    }
}

/* ---- direct modex through the host ----------------------------------------------------------- */

static void dmodex_done(wu_srv_op_t *op);

/* Ask the host (direct_modex) for target's data, for requester's GET of key: with the GET's
 * directives and PMIX_REQUIRED_KEY (a host may wait for the key; OpenPMIx asks so too). The
 * answer reaches dmodex_done. rf: the asking so far (wu_srv_refetch_t). PMIX_SUCCESS: the answer
 * will come; else the status to answer the GET with. */
static pmix_status_t ask_host(wu_ptl_conn_t *conn, uint32_t tag, const pmix_proc_t *requester,
                              const pmix_proc_t *target, const char *key, const pmix_info_t *dirs,
                              size_t ndirs, wu_srv_refetch_t rf)
{
    wu_srv_op_t *op;
    pmix_status_t rc;
    size_t n = 0;
    if (NULL == wu_srv.host.direct_modex) {
        return NULL == wu_srv_nspace_find(target->nspace) ? PMIX_ERR_INVALID_NAMESPACE
                                                          : PMIX_ERR_NOT_FOUND;
    }
    if (NULL == (op = wu_srv_op_new(dmodex_done, conn, tag))) {
        return PMIX_ERR_NOMEM;
    }
    op->proc = *target;
    op->requester = *requester;
    PMIX_LOAD_KEY(op->key, key);
    op->refetch = rf;
    op->refetch.asked++;
    /* the host may keep pointers into them until it answers: the op owns them till then */
    PMIX_INFO_CREATE(op->req_info, ndirs + 1);
    for (size_t i = 0; NULL != op->req_info && i < ndirs; i++) {
        if (!PMIX_CHECK_KEY(&dirs[i], PMIX_REQUIRED_KEY) &&
            PMIX_SUCCESS == wu_info_copy(&op->req_info[n], &dirs[i])) {
            n++;
        }
    }
    op->nreq_info = n;
    if (NULL == op->req_info ||
        PMIX_SUCCESS != PMIx_Info_load(&op->req_info[n], PMIX_REQUIRED_KEY, key, PMIX_STRING)) {
        wu_srv_op_finish(op, PMIX_ERR_NOMEM);
        return PMIX_SUCCESS; /* answered by dmodex_done */
    }
    op->nreq_info = n + 1;
    rc = wu_srv.host.direct_modex(&op->proc, op->req_info, op->nreq_info, wu_srv_op_modex_cb, op);
    wu_srv_op_started(op, rc);
    return PMIX_SUCCESS;
}

static void refetch_fire(void *arg)
{
    wu_srv_get_t *g = arg;
    pmix_status_t rc;
    get_unlink(g);
    rc = ask_host(g->conn, g->tag, &g->requester, &g->target, g->key, NULL, 0, g->refetch);
    if (PMIX_SUCCESS != rc) {
        wu_srv_reply(g->conn, g->tag, rc, NULL);
    }
    get_free(g);
}

/* The host's answer to op has no op->key: the target may put it later, so ask again after a
 * pause (doubling from REFETCH_FIRST to REFETCH_MAX) until the GET's PMIX_TIMEOUT or, without
 * one, WU_SRV_GET_GRACE after this first answer. PMIX_SUCCESS: asked again later; else what
 * to answer the GET with. */
static pmix_status_t ask_later(const wu_srv_op_t *op)
{
    const wu_srv_refetch_t *rf = &op->refetch;
    double now = wu_time_now(), until = rf->until > 0 ? rf->until : now + WU_SRV_GET_GRACE;
    double pause = REFETCH_FIRST;
    wu_srv_get_t *g;
    get_list_t *l;
    for (unsigned i = 1; i < rf->asked && pause < REFETCH_MAX; i++) {
        pause *= 2;
    }
    if (now >= until || NULL == op->conn || NULL == wu_ptl_conn_get_cbdata(op->conn)) {
        return rf->timed ? PMIX_ERR_TIMEOUT : PMIX_ERR_NOT_FOUND;
    }
    if (NULL == (g = calloc(1, sizeof *g))) {
        return PMIX_ERR_NOMEM;
    }
    g->conn = op->conn;
    wu_ptl_conn_retain(g->conn);
    g->tag = op->tag;
    g->requester = op->requester;
    g->target = op->proc;
    PMIX_LOAD_KEY(g->key, op->key);
    g->remote = true;
    g->refetch = *rf;
    g->refetch.until = until;
    l = get_list(&g->target, true);
    if (NULL == l ||
        NULL == (g->timer = wu_progress_timer(wu_srv.pt, pause < until - now ? pause : until - now,
                                              refetch_fire, g))) {
        get_free(g);
        get_list_tidy(&op->proc);
        return PMIX_ERR_NOMEM;
    }
    g->next = l->head;
    l->head = g;
    return PMIX_SUCCESS;
}

static void dmodex_done(wu_srv_op_t *op)
{
    const pmix_value_t *val = NULL;
    pmix_status_t rc = op->status;

    if (PMIX_SUCCESS == rc && NULL != op->data) {
        rc = wu_srv_blob_store(op->data, op->ndata, NULL);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_srv.gds->fetch_view(wu_srv.remote, op->proc.nspace, op->proc.rank, op->key, &val);
        if (PMIX_ERR_NOT_FOUND == rc && PMIX_SUCCESS == (rc = ask_later(op))) {
            return; /* asked again later */
        }
    }
    if (PMIX_SUCCESS == rc) {
        get_reply(op->conn, op->tag, &op->requester, &op->proc, val);
    } else {
        wu_srv_reply(op->conn, op->tag, rc, NULL);
    }
}

/* ---- commands -------------------------------------------------------------------------------- */

int wu_srv_cmd_get(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    pmix_proc_t target = PMIX_PROC_STATIC_INIT;
    char *key = NULL;
    pmix_info_t *dirs = NULL;
    size_t ndirs = 0;
    const pmix_value_t *val = NULL;
    bool nowait = false;
    long long tmo = 0;
    pmix_status_t rc;

    if (PMIX_SUCCESS != wu_srv_unpack1(b, &target, PMIX_PROC) ||
        PMIX_SUCCESS != wu_srv_unpack1(b, &key, PMIX_STRING) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&dirs, &ndirs, PMIX_INFO) ||
        0 != wu_buffer_remaining(b) || NULL == key || '\0' == key[0] ||
        strlen(key) > PMIX_MAX_KEYLEN || '\0' == target.nspace[0]) {
        rc = PMIX_ERR_BAD_PARAM;
        goto out;
    }
    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_CHECK_KEY(&dirs[i], PMIX_OPTIONAL) || PMIX_CHECK_KEY(&dirs[i], PMIX_IMMEDIATE)) {
            nowait = nowait || PMIX_INFO_TRUE(&dirs[i]);
        } else if (PMIX_CHECK_KEY(&dirs[i], PMIX_TIMEOUT) && !wu_srv_info_int(&dirs[i], &tmo)) {
            rc = PMIX_ERR_BAD_PARAM;
            goto out;
        }
    }
    if (0 == strncmp(key, "pmix", 4) && PMIX_CHECK_NSPACE(target.nspace, peer->proc.nspace)) {
        /* a reserved key of the requester's own job is the host's data: one that is not there
         * is not waited for (OpenPMIx's clients ask so, "immediate") */
        nowait = true;
    }
    rc = lookup(&target, key, &val);
    if (wu_output_check(WU_VERB_DEBUG, wu_srv.out)) {
        char who[PMIX_MAX_NSLEN + 16], by[PMIX_MAX_NSLEN + 16], k[4 * WU_ESC_SHORT + 4];
        wu_output_verbose(WU_VERB_DEBUG, wu_srv.out, "server: get of %s from %s by %s: %s",
                          wu_str_escape(key, PMIX_MAX_KEYLEN, k, sizeof k, 0),
                          wu_srv_proc_str(&target, who, sizeof who),
                          wu_srv_proc_str(&peer->proc, by, sizeof by),
                          PMIX_SUCCESS == rc                      ? "found"
                          : nowait                                ? "not waited for"
                          : GET_WAIT == rc || GET_LATE == rc      ? "waits for its commit"
                          : GET_DMODEX == rc || GET_REFETCH == rc ? "asks the host"
                                                                  : "not found");
    }
    if (PMIX_SUCCESS == rc) {
        get_reply(peer->conn, tag, &peer->proc, &target, val);
        goto out;
    }
    if ((GET_WAIT == rc || GET_DMODEX == rc || GET_LATE == rc || GET_REFETCH == rc) && nowait) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (GET_WAIT == rc || GET_LATE == rc) {
        wu_srv_get_t *g = calloc(1, sizeof *g);
        if (NULL == g) {
            rc = PMIX_ERR_NOMEM;
            goto out;
        }
        g->conn = peer->conn;
        wu_ptl_conn_retain(g->conn);
        g->tag = tag;
        g->requester = peer->proc;
        g->target = target;
        PMIX_LOAD_KEY(g->key, key);
        get_list_t *l = get_list(&target, true);
        double secs = tmo > 0 ? (double)tmo : GET_LATE == rc ? WU_SRV_GET_GRACE : 0.0;
        g->grace = tmo <= 0 && GET_LATE == rc;
        if (NULL == l ||
            (secs > 0 && NULL == (g->timer = wu_progress_timer(wu_srv.pt, secs, get_timeout, g)))) {
            get_free(g);
            get_list_tidy(&target);
            rc = PMIX_ERR_NOMEM;
            goto out;
        }
        g->next = l->head;
        l->head = g;
        rc = PMIX_SUCCESS;
    } else if (GET_DMODEX == rc || GET_REFETCH == rc) {
        rc = ask_host(peer->conn, tag, &peer->proc, &target, key, dirs, ndirs,
                      (wu_srv_refetch_t){.until = tmo > 0 ? wu_time_now() + (double)tmo : 0.0,
                                         .timed = tmo > 0});
    }
out:
    free(key);
    if (NULL != dirs) {
        PMIX_INFO_FREE(dirs, ndirs);
    }
    return rc;
}

/* A COMMIT (wu_proto.h) is read list by list, element by element, never as arrays (a
 * pmix_info_t is over 500 bytes whatever its value): where each list starts, after the check. */
typedef struct {
    wu_buffer_t *b;
    size_t lcl, rmt, glob;
    const pmix_proc_t *proc;
    wu_gds_store_t *store;
    wu_hash_table_t *now; /* the keys global in this commit, made when first needed */
} commit_t;

/* Walk the list starting at pos with fn. */
static pmix_status_t commit_walk(commit_t *c, size_t pos, wu_proto_info_fn_t fn)
{
    c->b->rpos = pos;
    return wu_proto_unpack_info_each(c->b, c->proc, fn, c);
}

static int glob_check_one(const pmix_proc_t *proc, pmix_info_t *info, void *ctx)
{
    (void)proc;
    (void)ctx;
    return PMIX_BOOL == info->value.type && info->value.data.flag ? PMIX_SUCCESS
                                                                  : PMIX_ERR_BAD_PARAM;
}

static int glob_index_one(const pmix_proc_t *proc, pmix_info_t *info, void *ctx)
{
    commit_t *c = ctx;
    (void)proc;
    return WU_SUCCESS == wu_hash_table_set_str(c->now, info->key, NULL) ? PMIX_SUCCESS
                                                                        : PMIX_ERR_NOMEM;
}

static pmix_status_t mark_not_global(const pmix_proc_t *p, const char *key)
{
    pmix_value_t f = {.type = PMIX_BOOL, .data.flag = false};
    return wu_srv.gds->put(wu_srv.globals, p->nspace, p->rank, key, &f);
}

/* A key of the local-scope list that was global and is not any more: its old value stays the
 * remote-scope one, so it moves to export before the local-scope store gets the new one. */
static int keep_old_remote_one(const pmix_proc_t *p, pmix_info_t *info, void *ctx)
{
    commit_t *c = ctx;
    const pmix_value_t *old = NULL;
    size_t pos = c->b->rpos;
    pmix_status_t rc = PMIX_SUCCESS;
    if (!wu_srv_key_global(p, info->key)) {
        return PMIX_SUCCESS;
    }
    if (NULL == c->now) {
        if (NULL == (c->now = WU_NEW(wu_hash_table_t))) {
            return PMIX_ERR_NOMEM;
        }
        rc = commit_walk(c, c->glob, glob_index_one);
        c->b->rpos = pos; /* back to the local-scope list */
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    if (WU_SUCCESS == wu_hash_table_get_str(c->now, info->key, NULL)) {
        return PMIX_SUCCESS; /* global still */
    }
    if (PMIX_SUCCESS == wu_srv.gds->fetch_view(wu_srv.local, p->nspace, p->rank, info->key, &old)) {
        rc = wu_srv.gds->put(wu_srv.export, p->nspace, p->rank, info->key, old);
    }
    return PMIX_SUCCESS == rc ? mark_not_global(p, info->key) : rc;
}

/* A remote-only key that was global is not any more. */
static int demote_one(const pmix_proc_t *p, pmix_info_t *info, void *ctx)
{
    (void)ctx;
    return wu_srv_key_global(p, info->key) ? mark_not_global(p, info->key) : PMIX_SUCCESS;
}

static int take_one(const pmix_proc_t *p, pmix_info_t *info, void *ctx)
{
    commit_t *c = ctx;
    return wu_srv.gds->take_info(c->store, p->nspace, p->rank, info);
}

/* Store a commit: remote-only values in export (no longer global), the global marks, then the
 * local-scope values. Every table exists afterwards: the proc has committed. */
static pmix_status_t commit_store(commit_t *c, bool with_data)
{
    const pmix_proc_t *p = c->proc;
    wu_gds_store_t *stores[] = {wu_srv.export, wu_srv.globals, wu_srv.local};
    size_t lists[] = {c->rmt, c->glob, c->lcl};
    pmix_status_t rc = PMIX_SUCCESS;
    if (with_data) {
        rc = commit_walk(c, c->lcl, keep_old_remote_one);
        if (PMIX_SUCCESS == rc) {
            rc = commit_walk(c, c->rmt, demote_one);
        }
    }
    for (size_t i = 0; i < 3 && PMIX_SUCCESS == rc; i++) {
        rc = wu_srv.gds->take_proc(stores[i], p->nspace, p->rank, NULL, 0);
        if (PMIX_SUCCESS == rc && with_data) {
            c->store = stores[i];
            rc = commit_walk(c, lists[i], take_one);
        }
    }
    return rc;
}

int wu_srv_cmd_commit(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    commit_t c = {.b = b};
    pmix_status_t rc, status = PMIX_SUCCESS;

    /* checked whole first, so that a malformed message stores nothing */
    if (PMIX_SUCCESS != wu_srv_unpack1(b, &status, PMIX_STATUS) ||
        (c.lcl = b->rpos, PMIX_SUCCESS != wu_proto_unpack_info_each(b, NULL, NULL, NULL)) ||
        (c.rmt = b->rpos, PMIX_SUCCESS != wu_proto_unpack_info_each(b, NULL, NULL, NULL)) ||
        (c.glob = b->rpos,
         PMIX_SUCCESS != wu_proto_unpack_info_each(b, NULL, glob_check_one, NULL)) ||
        0 != wu_buffer_remaining(b)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == cl) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (PMIX_SUCCESS != status) {
        char who[PMIX_MAX_NSLEN + 16];
        wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: the commit of %s failed: %s",
                          wu_srv_proc_str(&cl->proc, who, sizeof who), PMIx_Error_string(status));
    }
    cl->commit_status = status;
    c.proc = &cl->proc;
    /* a failed commit stores nothing, but the proc has committed: nobody waits for it any more */
    rc = commit_store(&c, PMIX_SUCCESS == status);
    if (NULL != c.now) {
        wu_hash_table_remove_all(c.now);
        WU_RELEASE(c.now);
    }
    if (PMIX_SUCCESS == rc) {
        wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
        wu_srv_data_changed(&cl->proc);
    }
    return rc;
}

/* ---- PMIx_server_dmodex_request -------------------------------------------------------------- */

typedef struct {
    pmix_proc_t proc;
    pmix_dmodex_response_fn_t cbfunc;
    void *cbdata;
} dmx_req_t;

static void dmodex_request_fn(void *arg)
{
    dmx_req_t *r = arg;
    wu_srv_client_t *cl = wu_srv_client_find(&r->proc);
    wu_srv_dmx_t *d;

    if (wu_srv.stopping) {
        r->cbfunc(PMIX_ERR_INIT, NULL, 0, r->cbdata);
    } else if (committed(&r->proc)) {
        wu_buffer_t blob;
        pmix_status_t rc;
        wu_buffer_construct(&blob);
        rc = wu_srv_blob_of(&r->proc, true, &blob);
        r->cbfunc(rc, PMIX_SUCCESS == rc ? blob.base : NULL, PMIX_SUCCESS == rc ? blob.used : 0,
                  r->cbdata);
        wu_buffer_destruct(&blob);
    } else if (NULL == cl) {
        r->cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, r->cbdata);
    } else if (WU_SRV_CL_TERMINATED == cl->state) {
        r->cbfunc(WU_PROTO_ERR_TERMINATED, NULL, 0, r->cbdata);
    } else if (WU_SRV_CL_FINALIZED == cl->state) {
        r->cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, r->cbdata);
    } else if (NULL == (d = calloc(1, sizeof *d))) {
        r->cbfunc(PMIX_ERR_NOMEM, NULL, 0, r->cbdata);
    } else {
        d->proc = r->proc;
        d->cbfunc = r->cbfunc;
        d->cbdata = r->cbdata;
        d->next = wu_srv.dmx;
        wu_srv.dmx = d;
    }
    free(r);
}

pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc, pmix_dmodex_response_fn_t cbfunc,
                                         void *cbdata)
{
    dmx_req_t *r;
    if (!wu_srv.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || NULL == cbfunc || PMIX_RANK_VALID < proc->rank) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    r->proc = *proc;
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    if (PMIX_SUCCESS != wu_progress_shift(wu_srv.pt, dmodex_request_fn, r)) {
        free(r);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

int wu_srv_get_report(const char *nspace, char ***lines)
{
    int rc = WU_SUCCESS;
    void *it = NULL, *v;
    while (WU_SUCCESS == rc && WU_SUCCESS == wu_hash_table_next_str(wu_srv.gets, &it, NULL, &v)) {
        for (wu_srv_get_t *g = ((get_list_t *)v)->head; NULL != g && WU_SUCCESS == rc;
             g = g->next) {
            char who[PMIX_MAX_NSLEN + 16], key[4 * WU_ESC_SHORT + 4], *line = NULL;
            if (!PMIX_CHECK_NSPACE(g->requester.nspace, nspace)) {
                continue;
            }
            rc = wu_asprintf(&line, "rank %u in PMIx_Get, waiting for key '%s' of %s",
                             g->requester.rank,
                             wu_str_escape(g->key, PMIX_MAX_KEYLEN, key, sizeof key, 0),
                             wu_srv_proc_str(&g->target, who, sizeof who));
            if (WU_SUCCESS == rc) {
                rc = wu_argv_append(lines, line);
            }
            free(line);
        }
    }
    return rc;
}
