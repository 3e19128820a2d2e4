/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_state.c -- the server's namespaces, clients, replies and the host-operation
 * records that bring host callbacks back to the progress thread (see wu_server.h). */
#include "pmix/server/wu_server.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include "pmix.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

wu_srv_t wu_srv = {.out = -1};
/* guards op->shifted/orphaned and the decision to shift a host callback */
static pthread_mutex_t op_lock = PTHREAD_MUTEX_INITIALIZER;

wu_srv_nspace_t *wu_srv_nspace_find(const char *nspace)
{
    for (wu_srv_nspace_t *ns = wu_srv.nspaces; NULL != ns; ns = ns->next) {
        if (0 == strncmp(ns->name, nspace, PMIX_MAX_NSLEN)) {
            return ns;
        }
    }
    return NULL;
}

wu_srv_nspace_t *wu_srv_nspace_get(const char *nspace)
{
    wu_srv_nspace_t *ns = wu_srv_nspace_find(nspace);
    if (NULL != ns) {
        return ns;
    }
    if (NULL == (ns = calloc(1, sizeof *ns))) {
        return NULL;
    }
    PMIX_LOAD_NSPACE(ns->name, nspace);
    ns->nlocalprocs = -1;
    ns->jobseg = -1;
    ns->next = wu_srv.nspaces;
    wu_srv.nspaces = ns;
    return ns;
}

void wu_srv_nspace_free(wu_srv_nspace_t *ns)
{
    while (NULL != ns->cleanups) {
        wu_srv_cleanup_t *c = ns->cleanups;
        ns->cleanups = c->next;
        free(c->path);
        free(c);
    }
    if (NULL != ns->info) {
        PMIX_INFO_FREE(ns->info, ns->ninfo);
    }
    if (ns->jobseg >= 0) {
        close(ns->jobseg);
    }
    free(ns);
}

wu_srv_client_t *wu_srv_client_find(const pmix_proc_t *proc)
{
    for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
        if (cl->proc.rank == proc->rank && PMIX_CHECK_NSPACE(cl->proc.nspace, proc->nspace)) {
            return cl;
        }
    }
    return NULL;
}

void wu_srv_client_free(wu_srv_client_t *cl)
{
    wu_ptl_conn_release(cl->conn);
    free(cl);
}

size_t wu_srv_nspace_nclients(const char *nspace)
{
    size_t n = 0;
    for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
        if (PMIX_CHECK_NSPACE(cl->proc.nspace, nspace)) {
            n++;
        }
    }
    return n;
}

bool wu_srv_info_int(const pmix_info_t *info, long long *out)
{
    const pmix_value_t *v = &info->value;
    switch (v->type) {
    case PMIX_INT:
        *out = v->data.integer;
        return true;
    case PMIX_INT8:
        *out = v->data.int8;
        return true;
    case PMIX_INT16:
        *out = v->data.int16;
        return true;
    case PMIX_INT32:
        *out = v->data.int32;
        return true;
    case PMIX_INT64:
        *out = v->data.int64;
        return true;
    case PMIX_UINT:
        *out = v->data.uint;
        return true;
    case PMIX_UINT8:
        *out = v->data.uint8;
        return true;
    case PMIX_UINT16:
        *out = v->data.uint16;
        return true;
    case PMIX_UINT32:
        *out = v->data.uint32;
        return true;
    case PMIX_UINT64:
        *out = (long long)v->data.uint64;
        return true;
    case PMIX_SIZE:
        *out = (long long)v->data.size;
        return true;
    default:
        return false;
    }
}

const char *wu_srv_proc_str(const pmix_proc_t *p, char *buf, size_t len)
{
    char rank[16];
    size_t n;

    if (PMIX_RANK_WILDCARD == p->rank) {
        snprintf(rank, sizeof rank, ":*");
    } else {
        snprintf(rank, sizeof rank, ":%u", p->rank);
    }
    /* the namespace may come from a peer: escaped, cut to leave room for the rank */
    n = strlen(rank);
    if (len <= n) {
        return wu_str_escape(rank, n, buf, len, 0); /* no room for the namespace */
    }
    wu_str_escape(p->nspace, PMIX_MAX_NSLEN, buf, len - n, 0);
    strcat(buf, rank);
    return buf;
}

wu_ptl_shared_t *wu_srv_reply_payload(pmix_status_t status, const struct iovec *body, int nbody)
{
    wu_buffer_t st;
    wu_ptl_shared_t *sh = NULL;
    struct iovec *iov = calloc((size_t)nbody + 1, sizeof *iov);
    size_t len = 0;
    for (int i = 0; i < nbody; i++) {
        len += body[i].iov_len;
    }
    if (len + 16 > wu_ptl_base_max_msg_size) { /* 16: room for the status */
        wu_show_help(WU_SRV_HELP, "reply-too-large", true, len, wu_ptl_base_max_msg_size);
        status = PMIX_ERR_OUT_OF_RESOURCE;
        nbody = 0;
    }
    wu_buffer_construct(&st);
    if (NULL != iov && PMIX_SUCCESS == wu_pack(&st, &status, 1, PMIX_STATUS)) {
        iov[0].iov_base = st.base;
        iov[0].iov_len = st.used;
        if (nbody > 0) {
            memcpy(iov + 1, body, (size_t)nbody * sizeof *iov);
        }
        sh = wu_ptl_shared_new(iov, nbody + 1);
    }
    wu_buffer_destruct(&st);
    free(iov);
    return sh;
}

void wu_srv_reply_shared(wu_ptl_conn_t *conn, uint32_t tag, pmix_status_t status,
                         wu_ptl_shared_t *payload)
{
    if (NULL != conn && wu_ptl_conn_foreign(conn)) {
        size_t len = 0;
        const void *bytes = NULL != payload ? wu_ptl_shared_bytes(payload, &len) : NULL;
        wu_srv_opmix_reply(conn, tag, bytes, len);
        return;
    }
    int rc = NULL != payload ? wu_ptl_send_shared(conn, tag, WU_PROTO_FLAG_REPLY, payload)
                             : WU_ERR_NOMEM;
    if (WU_SUCCESS != rc && PMIX_SUCCESS == status) {
        /* the body could not go (too large, no memory): tell the client at least that */
        pmix_status_t why =
            WU_ERR_VALUE_OUT_OF_BOUNDS == rc ? PMIX_ERR_OUT_OF_RESOURCE : PMIX_ERR_NOMEM;
        wu_ptl_shared_t *err = wu_srv_reply_payload(why, NULL, 0);
        wu_output_verbose(WU_VERB_WARN, wu_srv.out, "server: reply (tag %u) failed: %s", tag,
                          wu_strerror(rc));
        if (NULL != err) {
            (void)wu_ptl_send_shared(conn, tag, WU_PROTO_FLAG_REPLY, err);
        }
        wu_ptl_shared_release(err);
    }
}

void wu_srv_reply(wu_ptl_conn_t *conn, uint32_t tag, pmix_status_t status, const wu_buffer_t *body)
{
    wu_ptl_shared_t *payload;
    if (NULL == conn) {
        return;
    }
    if (NULL != body && body->used > 0) {
        struct iovec iov = {body->base, body->used};
        payload = wu_srv_reply_payload(status, &iov, 1);
    } else {
        payload = wu_srv_reply_payload(status, NULL, 0);
    }
    wu_srv_reply_shared(conn, tag, status, payload);
    wu_ptl_shared_release(payload);
}

void wu_srv_reply_close(wu_ptl_conn_t *conn, uint32_t tag, pmix_status_t status)
{
    wu_srv_reply(conn, tag, status, NULL);
    wu_ptl_close(conn); /* runs after the queued reply was written */
}

/* ---- host operations ----------------------------------------------------------------------- */

wu_srv_op_t *wu_srv_op_new(wu_srv_op_fn_t done, wu_ptl_conn_t *conn, uint32_t tag)
{
    wu_srv_op_t *op = calloc(1, sizeof *op);
    if (NULL == op) {
        return NULL;
    }
    op->done = done;
    op->conn = conn;
    op->tag = tag;
    op->id = ++wu_srv.next_id;
    if (NULL != conn) {
        wu_ptl_conn_retain(conn);
    }
    op->next = wu_srv.ops;
    if (NULL != wu_srv.ops) {
        wu_srv.ops->prev = op;
    }
    wu_srv.ops = op;
    return op;
}

static void op_unlink(wu_srv_op_t *op)
{
    if (NULL != op->prev) {
        op->prev->next = op->next;
    } else if (wu_srv.ops == op) {
        wu_srv.ops = op->next;
    }
    if (NULL != op->next) {
        op->next->prev = op->prev;
    }
    op->prev = op->next = NULL;
}

static void op_free(wu_srv_op_t *op)
{
    if (NULL != op->relfn) {
        op->relfn(op->relcbdata);
    }
    free(op->data);
    if (NULL != op->info) {
        PMIX_INFO_FREE(op->info, op->ninfo);
    }
    if (NULL != op->pdata) {
        PMIX_PDATA_FREE(op->pdata, op->npdata);
    }
    if (NULL != op->req_info) {
        PMIX_INFO_FREE(op->req_info, op->nreq_info);
    }
    for (size_t i = 0; NULL != op->req_keys && NULL != op->req_keys[i]; i++) {
        free(op->req_keys[i]);
    }
    free(op->req_keys);
    if (NULL != op->req_apps) {
        PMIX_APP_FREE(op->req_apps, op->nreq_apps);
    }
    free(op->req_cred.bytes);
    wu_ptl_conn_release(op->conn);
    free(op);
}

void wu_srv_op_finish(wu_srv_op_t *op, pmix_status_t status)
{
    op_unlink(op);
    op->status = status;
    if (!wu_srv.stopping && NULL != op->done) {
        op->done(op);
    }
    op_free(op);
}

void wu_srv_op_started(wu_srv_op_t *op, pmix_status_t rc)
{
    if (PMIX_SUCCESS == rc) {
        return; /* the host calls back */
    }
    wu_srv_op_finish(op, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc);
}

static void op_shifted(void *arg)
{
    wu_srv_op_t *op = arg;
    wu_srv_op_finish(op, op->status);
}

/* Hand op to the progress thread, or free it when the server is gone. */
static void op_deliver(wu_srv_op_t *op)
{
    bool orphan;
    pthread_mutex_lock(&op_lock);
    orphan = op->orphaned;
    if (!orphan) {
        op->shifted = true;
        if (PMIX_SUCCESS != wu_progress_shift(wu_srv.pt, op_shifted, op)) {
            orphan = true; /* the thread is stopping: nobody will read the result */
        }
    }
    pthread_mutex_unlock(&op_lock);
    if (orphan) {
        op_free(op);
    }
}

void wu_srv_op_cb(pmix_status_t status, void *cbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    op_deliver(op);
}

void wu_srv_op_modex_cb(pmix_status_t status, const char *data, size_t ndata, void *cbdata,
                        pmix_release_cbfunc_t relfn, void *relcbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS == status && NULL != data && ndata > 0) {
        if (NULL == (op->data = malloc(ndata))) {
            op->status = PMIX_ERR_NOMEM;
        } else {
            memcpy(op->data, data, ndata);
            op->ndata = ndata;
        }
    }
    op->relfn = relfn;
    op->relcbdata = relcbdata;
    op_deliver(op);
}

/* op->info: a copy of the host's info (op->status PMIX_ERR_NOMEM when it cannot be made) */
static void op_take_info(wu_srv_op_t *op, const pmix_info_t *info, size_t ninfo)
{
    if (NULL != info && ninfo > 0) {
        PMIX_INFO_CREATE(op->info, ninfo);
        if (NULL == op->info) {
            op->status = PMIX_ERR_NOMEM;
        } else {
            op->ninfo = ninfo;
            for (size_t i = 0; i < ninfo; i++) {
                if (PMIX_SUCCESS != wu_info_copy(&op->info[i], &info[i])) {
                    op->status = PMIX_ERR_NOMEM;
                }
            }
        }
    }
}

void wu_srv_op_info_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                       pmix_release_cbfunc_t relfn, void *relcbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    op_take_info(op, info, ninfo);
    op->relfn = relfn;
    op->relcbdata = relcbdata;
    op_deliver(op);
}

void wu_srv_op_lookup_cb(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void *cbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    if (NULL != data && ndata > 0) {
        /* the host lends the answer for the call only */
        PMIX_PDATA_CREATE(op->pdata, ndata);
        if (NULL == op->pdata) {
            op->status = PMIX_ERR_NOMEM;
        } else {
            op->npdata = ndata;
            for (size_t i = 0; i < ndata; i++) {
                op->pdata[i].proc = data[i].proc;
                PMIX_LOAD_KEY(op->pdata[i].key, data[i].key);
                if (PMIX_SUCCESS != PMIx_Value_xfer(&op->pdata[i].value, &data[i].value)) {
                    op->status = PMIX_ERR_NOMEM;
                }
            }
        }
    }
    op_deliver(op);
}

void wu_srv_op_spawn_cb(pmix_status_t status, pmix_nspace_t nspace, void *cbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS == status &&
        (NULL == nspace || NULL == (op->data = strndup(nspace, PMIX_MAX_NSLEN)))) {
        op->status = NULL == nspace ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOMEM;
    }
    op_deliver(op);
}

void wu_srv_op_cred_cb(pmix_status_t status, pmix_byte_object_t *credential, pmix_info_t info[],
                       size_t ninfo, void *cbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS == status) {
        if (NULL == credential || NULL == credential->bytes || 0 == credential->size) {
            op->status = PMIX_ERR_BAD_PARAM; /* success without a credential */
        } else if (NULL == (op->data = malloc(credential->size))) {
            op->status = PMIX_ERR_NOMEM;
        } else {
            memcpy(op->data, credential->bytes, credential->size);
            op->ndata = credential->size;
        }
        op_take_info(op, info, ninfo);
    }
    op_deliver(op);
}

void wu_srv_op_valid_cb(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    wu_srv_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS == status) {
        op_take_info(op, info, ninfo);
    }
    op_deliver(op);
}

void wu_srv_ops_orphan(void)
{
    pthread_mutex_lock(&op_lock);
    while (NULL != wu_srv.ops) {
        wu_srv_op_t *op = wu_srv.ops;
        op_unlink(op);
        if (op->shifted) {
            continue; /* op_shifted is queued and will free it (stopping is set) */
        }
        op->orphaned = true; /* the host's late callback frees it */
        wu_ptl_conn_release(op->conn);
        op->conn = NULL;
    }
    pthread_mutex_unlock(&op_lock);
}
