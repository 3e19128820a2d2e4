/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_blob.c -- data blobs: what a node's server sends of its clients' commits to other
 * nodes (a fence's contribution, a direct modex answer) and stores of what other nodes sent
 * (wu_proto.h gives the format), and messages built in pieces, so that large byte objects go
 * from a store to the socket without a copy. */
#include "opal/util/wu_output.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

/* ---- blobs ----------------------------------------------------------------------------------- */

bool wu_srv_key_global(const pmix_proc_t *proc, const char *key)
{
    const pmix_value_t *v = NULL;
    return PMIX_SUCCESS ==
               wu_srv.gds->fetch_view(wu_srv.globals, proc->nspace, proc->rank, key, &v) &&
           PMIX_BOOL == v->type && v->data.flag;
}

/* A walk over one scope of a proc's data, handing each key and value to add(ctx). */
typedef struct {
    const pmix_proc_t *proc;
    pmix_status_t (*add)(const char *key, const pmix_value_t *val, void *ctx);
    void *ctx;
} scope_walk_t;

static pmix_status_t remote_only_one(const char *key, const pmix_value_t *val, void *ctx)
{
    scope_walk_t *w = ctx;
    /* a key global now: its value is the local-scope one, walked from globals */
    return wu_srv_key_global(w->proc, key) ? PMIX_SUCCESS : w->add(key, val, w->ctx);
}

static pmix_status_t global_one(const char *key, const pmix_value_t *flag, void *ctx)
{
    scope_walk_t *w = ctx;
    const pmix_value_t *val = NULL;
    if (PMIX_BOOL != flag->type || !flag->data.flag ||
        PMIX_SUCCESS !=
            wu_srv.gds->fetch_view(wu_srv.local, w->proc->nspace, w->proc->rank, key, &val)) {
        return PMIX_SUCCESS;
    }
    return w->add(key, val, w->ctx);
}

/* Hand every key and value of proc's local-scope data, or of its remote-scope data (what
 * export holds except keys now global, and the global keys' values from the local-scope
 * store, kept there only), to add, without copying. PMIX_ERR_NOT_FOUND if proc committed
 * nothing here, else add's first error or PMIX_SUCCESS. */
static pmix_status_t walk_scope(const pmix_proc_t *proc, bool remote_scope,
                                pmix_status_t (*add)(const char *, const pmix_value_t *, void *),
                                void *ctx)
{
    scope_walk_t w = {proc, add, ctx};
    pmix_status_t rc, rg;
    if (!remote_scope) {
        return wu_srv.gds->each_proc(wu_srv.local, proc->nspace, proc->rank, add, ctx);
    }
    rc = wu_srv.gds->each_proc(wu_srv.export, proc->nspace, proc->rank, remote_only_one, &w);
    if (PMIX_SUCCESS != rc && PMIX_ERR_NOT_FOUND != rc) {
        return rc;
    }
    rg = wu_srv.gds->each_proc(wu_srv.globals, proc->nspace, proc->rank, global_one, &w);
    return PMIX_ERR_NOT_FOUND == rg ? rc : rg;
}

pmix_status_t wu_srv_blob_of(const pmix_proc_t *proc, bool remote_scope, wu_buffer_t *blob)
{
    wu_proto_list_t list;
    size_t start = blob->used;
    pmix_status_t rc;

    /* one record (wu_proto.h), packed straight from the stores */
    rc = wu_pack(blob, proc, 1, PMIX_PROC);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_list_begin(&list, blob);
    }
    if (PMIX_SUCCESS == rc) {
        rc = walk_scope(proc, remote_scope, wu_proto_list_add, &list);
        if (PMIX_ERR_NOT_FOUND == rc && 0 == list.n && NULL != wu_srv_client_find(proc)) {
            rc = PMIX_SUCCESS; /* a client that has not committed: an empty record */
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_list_end(&list);
    }
    if (PMIX_SUCCESS != rc) {
        blob->used = start; /* a record is added whole or not at all */
    }
    return rc;
}

/* ---- messages in pieces ---------------------------------------------------------------------- */

void wu_srv_pieces_construct(wu_srv_pieces_t *p)
{
    memset(p, 0, sizeof *p);
    wu_buffer_construct(&p->buf);
}

void wu_srv_pieces_destruct(wu_srv_pieces_t *p)
{
    free(p->refs);
    wu_buffer_destruct(&p->buf);
    memset(p, 0, sizeof *p);
}

pmix_status_t wu_srv_pieces_ref(wu_srv_pieces_t *p, const void *bytes, size_t len)
{
    if (0 == len) {
        return PMIX_SUCCESS;
    }
    if (p->nrefs == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        wu_srv_ref_t *grown = realloc(p->refs, cap * sizeof *grown);
        if (NULL == grown) {
            return PMIX_ERR_NOMEM;
        }
        p->refs = grown;
        p->cap = cap;
    }
    p->refs[p->nrefs++] = (wu_srv_ref_t){p->buf.used, bytes, len};
    p->len += len;
    return PMIX_SUCCESS;
}

pmix_status_t wu_srv_pieces_iov(const wu_srv_pieces_t *p, const wu_buffer_t *head,
                                struct iovec **iov, int *n)
{
    struct iovec *v = calloc(2 * p->nrefs + 2, sizeof *v);
    size_t from = 0;
    int k = 0;
    if (NULL == v) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL != head && head->used > 0) {
        v[k++] = (struct iovec){head->base, head->used};
    }
    for (size_t i = 0; i < p->nrefs; i++) {
        if (p->refs[i].at > from) {
            v[k++] = (struct iovec){p->buf.base + from, p->refs[i].at - from};
            from = p->refs[i].at;
        }
        v[k++] = (struct iovec){(void *)p->refs[i].bytes, p->refs[i].len};
    }
    if (p->buf.used > from) {
        v[k++] = (struct iovec){p->buf.base + from, p->buf.used - from};
    }
    *iov = v;
    *n = k;
    return PMIX_SUCCESS;
}

typedef struct {
    wu_srv_pieces_t *p;
    size_t n;
} pieces_walk_t;

/* One info of a record into pieces: a large byte object by reference, the rest packed. */
static pmix_status_t piece_one(const char *key, const pmix_value_t *val, void *ctx)
{
    pieces_walk_t *w = ctx;
    pmix_info_t info;
    pmix_status_t rc;
    /* a shallow info around the store's value: packed, never destructed */
    memset(&info, 0, sizeof info);
    PMIX_LOAD_KEY(info.key, key);
    info.value = *val;
    w->n++;
    if (!wu_srv_is_bo(val->type) || val->data.bo.size < WU_SRV_REF_MIN) {
        return wu_pack_one(&w->p->buf, &info, PMIX_INFO);
    }
    rc = wu_pack_info_bo_head(&w->p->buf, &info);
    return PMIX_SUCCESS == rc ? wu_srv_pieces_ref(w->p, val->data.bo.bytes, val->data.bo.size) : rc;
}

pmix_status_t wu_srv_blob_pieces(const pmix_proc_t *proc, wu_srv_pieces_t *p)
{
    pieces_walk_t w = {p, 0};
    size_t mark = p->buf.used, nrefs = p->nrefs, len = p->len, list;
    pmix_status_t rc;

    /* the record of wu_srv_blob_of (local scope), large byte objects by reference */
    rc = wu_pack(&p->buf, proc, 1, PMIX_PROC);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack_group_begin(&p->buf, PMIX_INFO, &list);
    }
    if (PMIX_SUCCESS == rc) {
        rc = walk_scope(proc, false, piece_one, &w);
        if (PMIX_ERR_NOT_FOUND == rc && 0 == w.n && NULL != wu_srv_client_find(proc)) {
            rc = PMIX_SUCCESS; /* a client that has not committed: an empty record */
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack_group_end(&p->buf, list, w.n);
    }
    if (PMIX_SUCCESS != rc) { /* a record is added whole or not at all */
        p->buf.used = mark;
        p->nrefs = nrefs;
        p->len = len;
    } else {
        p->len += p->buf.used - mark;
    }
    return rc;
}

static int blob_take_one(const pmix_proc_t *proc, pmix_info_t *info, void *ctx)
{
    (void)ctx;
    return wu_srv.gds->take_info(wu_srv.remote, proc->nspace, proc->rank, info);
}

pmix_status_t wu_srv_blob_store(const char *data, size_t ndata, wu_buffer_t *keep)
{
    wu_buffer_t b;
    pmix_status_t rc;

    wu_buffer_construct(&b);
    b.base = (char *)data; /* read-only view */
    b.used = b.cap = ndata;
    for (;;) {
        pmix_proc_t proc = PMIX_PROC_STATIC_INIT;
        size_t start = b.rpos;
        int32_t one = 1;
        /* the record's proc first: records of our own clients are what we sent, skipped */
        rc = 0 == wu_buffer_remaining(&b) ? PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER
                                          : wu_unpack(&b, &proc, &one, PMIX_PROC);
        if (PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc && start == ndata) {
            return PMIX_SUCCESS;
        }
        if (PMIX_SUCCESS == rc) {
            bool skip = NULL != wu_srv_client_find(&proc) || PMIX_RANK_VALID < proc.rank;
            if (!skip) {
                /* the (nspace, rank) table exists afterwards even for an empty record */
                rc = wu_srv.gds->take_proc(wu_srv.remote, proc.nspace, proc.rank, NULL, 0);
            }
            if (PMIX_SUCCESS == rc) {
                rc = wu_proto_unpack_info_each(&b, &proc, skip ? NULL : blob_take_one, NULL);
            }
            if (PMIX_SUCCESS == rc && !skip && NULL != keep) {
                rc = wu_buffer_put(keep, data + start, b.rpos - start); /* the record as is */
            }
        }
        if (PMIX_SUCCESS != rc) {
            wu_output_verbose(WU_VERB_WARN, wu_srv.out,
                              "server: malformed data blob from the host: %s",
                              PMIx_Error_string(rc));
            return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc ? PMIX_ERR_UNPACK_FAILURE : rc;
        }
    }
}
