/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_msg.c -- the client's requests to its server: tags, pending replies, timeouts, the
 * connection's receive and closed callbacks; the thread-shift helpers of the API functions; small
 * helpers shared by the API files. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* the writer-preferring rwlock kind of glibc */
#endif
#include "pmix/client/wu_client.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The store's lock prefers writers: Gets of many threads in a loop must not keep the progress
 * thread from storing a fence's data (no Get takes it twice, which this kind forbids). */
wu_client_t wu_client = {.lock = PTHREAD_MUTEX_INITIALIZER,
                         .stage_lock = PTHREAD_MUTEX_INITIALIZER,
                         .spare_lock = PTHREAD_MUTEX_INITIALIZER,
                         .req_lock = PTHREAD_MUTEX_INITIALIZER,
                         .store_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP};

struct wu_client_req {
    wu_client_req_t *next, *prev;
    uint32_t tag;
    wu_timer_t *timer;
    wu_client_reply_fn_t cb;
    void *cbdata;
    bool any_thread;   /* cb may run in a thread waiting in wu_client_await */
    wu_client_ox_t ox; /* to an OpenPMIx server: how to read its reply */
};

/* ---- thread shifting ------------------------------------------------------------------ */

/* The progress thread of an initialized library, or NULL. */
static wu_progress_t *ready_pt(void)
{
    return atomic_load_explicit(&wu_client.live, memory_order_acquire);
}

bool wu_client_ready(void)
{
    return NULL != ready_pt();
}

/* Every function shifted into the progress thread is counted in wu_client.shifted until it
 * returned (what it sends is then in the connection's order): see wu_client_may_send_here. */

typedef struct {
    int (*fn)(void *arg);  /* wu_client_call's, or NULL */
    wu_wait_call_fn_t wfn; /* wu_client_wait_call's, or NULL */
    void *arg;
    atomic_bool ran;
} call_t;

static void call_fn(wu_wait_call_t *call)
{
    call_t *c = call->cbdata;
    atomic_store(&c->ran, true);
    if (NULL != c->fn) {
        int rc = c->fn(c->arg);
        atomic_fetch_sub(&wu_client.shifted, 1);
        wu_wait_call_done(call, rc);
        return;
    }
    call->cbdata = c->arg; /* what wfn reads (c stays valid: its caller waits without limit) */
    c->wfn(call);
    atomic_fetch_sub(&wu_client.shifted, 1);
}

/* Shift c into the progress thread and wait for it, counted in wu_client.shifted. */
static int call_shifted(wu_progress_t *pt, call_t *c)
{
    int rc;
    atomic_init(&c->ran, false);
    atomic_fetch_add(&wu_client.shifted, 1);
    rc = wu_progress_shift_wait(pt, call_fn, c, 0);
    if (!atomic_load(&c->ran)) {
        atomic_fetch_sub(&wu_client.shifted, 1); /* never shifted */
    }
    return rc;
}

int wu_client_call(int (*fn)(void *arg), void *arg)
{
    wu_progress_t *pt = ready_pt();
    call_t c = {.fn = fn, .arg = arg};
    if (NULL == pt) {
        return PMIX_ERR_INIT;
    }
    if (wu_progress_in_thread(pt)) {
        return fn(arg); /* a callback calling back into the library */
    }
    return call_shifted(pt, &c);
}

int wu_client_wait_call(wu_wait_call_fn_t fn, void *arg)
{
    wu_progress_t *pt = ready_pt();
    call_t c = {.wfn = fn, .arg = arg};
    if (NULL == pt) {
        return PMIX_ERR_INIT;
    }
    if (wu_progress_in_thread(pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    return call_shifted(pt, &c);
}

typedef struct {
    wu_shift_fn_t fn;
    void *arg;
} shift_t;

static void shift_fn(void *arg)
{
    shift_t s = *(shift_t *)arg;
    free(arg);
    s.fn(s.arg);
    atomic_fetch_sub(&wu_client.shifted, 1);
}

int wu_client_shift(wu_shift_fn_t fn, void *arg)
{
    wu_progress_t *pt = ready_pt();
    shift_t *s;
    if (NULL == pt) {
        return PMIX_ERR_INIT;
    }
    if (NULL == (s = malloc(sizeof *s))) {
        return PMIX_ERR_NOMEM;
    }
    s->fn = fn;
    s->arg = arg;
    atomic_fetch_add(&wu_client.shifted, 1);
    if (WU_SUCCESS != wu_progress_shift(pt, shift_fn, s)) {
        atomic_fetch_sub(&wu_client.shifted, 1);
        free(s);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

bool wu_client_may_send_here(void)
{
    return !wu_progress_in_thread(wu_client.pt) && 0 == atomic_load(&wu_client.shifted) &&
           !wu_client.singleton && !atomic_load(&wu_client.lost);
}

/* ---- requests ------------------------------------------------------------------------- */

/* Unlink r from pending (req_lock held). */
static void req_unlink(wu_client_req_t *r)
{
    if (NULL != r->prev) {
        r->prev->next = r->next;
    } else {
        wu_client.pending = r->next;
    }
    if (NULL != r->next) {
        r->next->prev = r->prev;
    }
    r->next = r->prev = NULL;
}

/* Complete r (already unlinked): release its timer, call back, free. */
static void req_finish(wu_client_req_t *r, int status, wu_buffer_t *reply)
{
    if (NULL != r->timer) {
        (void)wu_progress_timer_cancel(r->timer);
        r->timer = NULL;
    }
    r->cb(status, reply, r->cbdata);
    free(r);
}

static void req_timeout(void *arg)
{
    wu_client_req_t *r = arg;
    pthread_mutex_lock(&wu_client.req_lock);
    req_unlink(r);
    pthread_mutex_unlock(&wu_client.req_lock);
    req_finish(r, PMIX_ERR_TIMEOUT, NULL);
}

/* Is r still pending (req_lock held)? */
static bool req_pending(const wu_client_req_t *r)
{
    for (const wu_client_req_t *p = wu_client.pending; NULL != p; p = p->next) {
        if (p == r) {
            return true;
        }
    }
    return false;
}

/* Requests buffers up to this size are kept for the next request. */
#define SPARE_MAX ((size_t)1 << 20)

int wu_client_msg_start(wu_buffer_t *buf, uint8_t cmd)
{
    wu_buffer_construct(buf);
    pthread_mutex_lock(&wu_client.spare_lock);
    if (NULL != wu_client.spare.base) {
        buf->base = wu_client.spare.base;
        buf->cap = wu_client.spare.cap;
        wu_buffer_construct(&wu_client.spare);
    }
    pthread_mutex_unlock(&wu_client.spare_lock);
    return wu_pack(buf, &cmd, 1, PMIX_UINT8);
}

/* A request's buffer once sent: kept as the spare, or freed. */
static void msg_done(wu_buffer_t *buf)
{
    if (buf->cap <= SPARE_MAX) {
        pthread_mutex_lock(&wu_client.spare_lock);
        if (NULL == wu_client.spare.base) {
            wu_client.spare.base = buf->base;
            wu_client.spare.cap = buf->cap;
            wu_buffer_construct(buf);
        }
        pthread_mutex_unlock(&wu_client.spare_lock);
    }
    wu_buffer_destruct(buf);
}

bool wu_client_msg_fits(const wu_buffer_t *buf)
{
    if (buf->used > wu_ptl_base_max_msg_size) {
        /* the transport refuses it: say which limit, and how to raise it */
        /* the command byte follows wu_pack's type (2 bytes) and count (4 bytes) */
        uint8_t cmd = buf->used > 6 ? (uint8_t)buf->base[6] : 0;
        wu_show_help("help-wu-client.txt", "msg-too-large", true,
                     WU_CMD_COMMIT == cmd ? "PMIx_Commit" : "a request", buf->used,
                     wu_ptl_base_max_msg_size);
        return false;
    }
    return true;
}

int wu_client_request(wu_buffer_t *buf, double timeout, wu_client_reply_fn_t cb, void *cbdata)
{
    return wu_client_request_opt(buf, timeout, cb, cbdata, 0);
}

int wu_client_request_opt(wu_buffer_t *buf, double timeout, wu_client_reply_fn_t cb, void *cbdata,
                          unsigned opts)
{
    wu_client_req_t *r;
    int rc;
    if (wu_client.singleton || NULL == wu_client.conn) {
        wu_buffer_destruct(buf);
        return PMIX_ERR_UNREACH;
    }
    if (!wu_client_msg_fits(buf)) {
        wu_buffer_destruct(buf);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        wu_buffer_destruct(buf);
        return PMIX_ERR_NOMEM;
    }
    /* to an OpenPMIx server: its form of the request (the one place they all pass) */
    if (wu_client.opmix && PMIX_SUCCESS != (rc = wu_client_opmix_request(buf, &r->ox))) {
        free(r);
        wu_buffer_destruct(buf);
        return rc;
    }
    r->cb = cb;
    r->cbdata = cbdata;
    r->any_thread = 0 != (opts & WU_CLIENT_REQ_ANY_THREAD);
    /* Registered before it is sent (the reply can come at once, on the progress thread), and
     * under the lock with which a lost connection fails what is pending: never after that. */
    pthread_mutex_lock(&wu_client.req_lock);
    if (atomic_load(&wu_client.lost)) {
        pthread_mutex_unlock(&wu_client.req_lock);
        free(r);
        wu_buffer_destruct(buf);
        return PMIX_ERR_UNREACH;
    }
    if (0 == ++wu_client.next_tag || (wu_client.opmix && wu_client.next_tag <= 100)) {
        /* tag 0 is the server's own; an OpenPMIx server reserves those up to 100 too */
        wu_client.next_tag = wu_client.opmix ? 101 : 1;
    }
    r->tag = wu_client.next_tag;
    if (timeout > 0 &&
        NULL == (r->timer = wu_progress_timer(wu_client.pt, timeout, req_timeout, r))) {
        pthread_mutex_unlock(&wu_client.req_lock);
        free(r);
        wu_buffer_destruct(buf);
        return PMIX_ERR_NOMEM;
    }
    r->next = wu_client.pending;
    if (NULL != r->next) {
        r->next->prev = r;
    }
    wu_client.pending = r;
    pthread_mutex_unlock(&wu_client.req_lock);
    rc = wu_ptl_send(wu_client.conn, r->tag, 0, buf->base, buf->used);
    msg_done(buf);
    if (WU_SUCCESS != rc) {
        /* not sent: withdraw it, unless a lost connection failed it meanwhile (its callback
         * then ran: the request is over either way) */
        bool mine;
        pthread_mutex_lock(&wu_client.req_lock);
        if ((mine = req_pending(r))) {
            req_unlink(r);
        }
        pthread_mutex_unlock(&wu_client.req_lock);
        if (!mine) {
            return PMIX_SUCCESS;
        }
        (void)wu_progress_timer_cancel(r->timer);
        free(r);
        return WU_ERR_VALUE_OUT_OF_BOUNDS == rc ? PMIX_ERR_OUT_OF_RESOURCE : PMIX_ERR_UNREACH;
    }
    return PMIX_SUCCESS;
}

/* May the reply tagged tag be delivered in a thread waiting in wu_client_await? Only that of
 * a request whose callback may run in any thread and that has no timer (a timer firing on the
 * progress thread could then race with the reply). */
static bool await_mine(uint32_t tag, uint16_t flags, void *arg)
{
    bool mine = false;
    (void)arg;
    if (0 == (flags & (WU_PROTO_FLAG_REPLY | WU_PTL_FLAG_FOREIGN)) || 0 == tag) {
        return false;
    }
    pthread_mutex_lock(&wu_client.req_lock);
    for (const wu_client_req_t *r = wu_client.pending; NULL != r; r = r->next) {
        if (r->tag == tag) {
            mine = r->any_thread && NULL == r->timer;
            break;
        }
    }
    pthread_mutex_unlock(&wu_client.req_lock);
    return mine;
}

static bool await_done(void *arg)
{
    return wu_wait_released(arg);
}

void wu_client_await(wu_wait_t *w)
{
    wu_ptl_conn_t *c = wu_client.conn;
    if (NULL != c && !wu_client.singleton && !atomic_load(&wu_client.lost)) {
        (void)wu_ptl_conn_await(c, await_mine, await_done, w);
    }
}

void wu_client_fail_pending(int status)
{
    /* callbacks may start new requests: take the list first */
    wu_client_req_t *list;
    pthread_mutex_lock(&wu_client.req_lock);
    list = wu_client.pending;
    wu_client.pending = NULL;
    pthread_mutex_unlock(&wu_client.req_lock);
    while (NULL != list) {
        wu_client_req_t *r = list;
        list = r->next;
        r->next = r->prev = NULL;
        req_finish(r, status, NULL);
    }
}

/* The pending request tagged tag, unlinked; NULL if none (a late reply). */
static wu_client_req_t *req_take(uint32_t tag)
{
    wu_client_req_t *r;
    pthread_mutex_lock(&wu_client.req_lock);
    for (r = wu_client.pending; NULL != r && r->tag != tag; r = r->next) {
    }
    if (NULL != r) {
        req_unlink(r);
    }
    pthread_mutex_unlock(&wu_client.req_lock);
    return r;
}

/* A message of an OpenPMIx server: its events (tag 0) and replies read back as Wireup's. */
static void foreign_recv(uint32_t tag, const void *payload, size_t len)
{
    wu_client_req_t *r;
    wu_buffer_t b;
    pmix_status_t status = PMIX_SUCCESS;
    if (0 == tag) {
        wu_client_opmix_event(payload, len);
        return;
    }
    if (NULL == (r = req_take(tag))) {
        return; /* a late reply, or forwarded output (tag 2) nobody asked for */
    }
    wu_buffer_construct(&b);
    if (PMIX_SUCCESS != wu_client_opmix_reply(&r->ox, payload, len, &status, &b)) {
        wu_buffer_destruct(&b);
        req_finish(r, PMIX_ERR_UNPACK_FAILURE, NULL);
        wu_client_event_comm_failure();
        return;
    }
    req_finish(r, status, &b);
    wu_buffer_destruct(&b);
}

void wu_client_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *payload, size_t len,
                    void *cbdata)
{
    wu_client_req_t *r;
    wu_buffer_t b;
    pmix_status_t status = PMIX_ERR_UNPACK_FAILURE;
    int32_t one = 1;
    (void)c;
    (void)cbdata;
    if (0 != (flags & WU_PTL_FLAG_FOREIGN)) {
        foreign_recv(tag, payload, len);
        return;
    }
    if (0 == (flags & WU_PROTO_FLAG_REPLY) && 0 == tag) {
        wu_client_event_recv(payload, len); /* the server's own message: an event */
        return;
    }
    if (0 == (flags & WU_PROTO_FLAG_REPLY) || 0 == tag) {
        wu_client_event_comm_failure(); /* neither a reply nor a message of the server's own */
        return;
    }
    if (NULL == (r = req_take(tag))) {
        return; /* a late reply to a request that timed out */
    }
    wu_buffer_construct(&b);
    b.base = (char *)payload; /* a read-only view: never destructed */
    b.used = b.cap = len;
    if (PMIX_SUCCESS != wu_unpack(&b, &status, &one, PMIX_STATUS)) {
        req_finish(r, PMIX_ERR_UNPACK_FAILURE, NULL);
        wu_client_event_comm_failure();
        return;
    }
    req_finish(r, status, &b);
}

void wu_client_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    (void)c;
    (void)status;
    (void)cbdata;
    bool lost = WU_CLIENT_CONNECTED == wu_client.mode;
    if (lost) {
        wu_client.mode = WU_CLIENT_LOST;
    }
    /* no request is registered after this (wu_client_request checks it under the lock) */
    pthread_mutex_lock(&wu_client.req_lock);
    atomic_store(&wu_client.lost, true);
    pthread_mutex_unlock(&wu_client.req_lock);
    wu_client_fail_pending(PMIX_ERR_LOST_CONNECTION);
    if (lost) {
        wu_client_event_lost(); /* no handler is left once finalize began */
    }
}

/* ---- shared helpers ------------------------------------------------------------------- */

double wu_client_timeout(const pmix_info_t *info, size_t n)
{
    const pmix_info_t *i = wu_info_find(info, n, PMIX_TIMEOUT);
    const pmix_value_t *v;
    double t = 0;
    if (NULL == i) {
        return 0;
    }
    v = &i->value;
    switch (v->type) {
    case PMIX_INT:
        t = v->data.integer;
        break;
    case PMIX_INT32:
        t = v->data.int32;
        break;
    case PMIX_UINT32:
        t = v->data.uint32;
        break;
    case PMIX_UINT:
        t = v->data.uint;
        break;
    case PMIX_SIZE:
        t = (double)v->data.size;
        break;
    case PMIX_INT64:
        t = (double)v->data.int64;
        break;
    case PMIX_UINT64:
        t = (double)v->data.uint64;
        break;
    case PMIX_INT16:
        t = v->data.int16;
        break;
    case PMIX_UINT16:
        t = v->data.uint16;
        break;
    case PMIX_FLOAT:
        t = v->data.fval;
        break;
    case PMIX_DOUBLE:
        t = v->data.dval;
        break;
    default:
        break;
    }
    return t > 0 && t < 1e8 ? t : 0;
}

static int store_one(const pmix_proc_t *proc, pmix_info_t *info, void *ctx)
{
    (void)ctx;
    if (proc->rank == wu_client.myproc.rank &&
        PMIX_CHECK_NSPACE(proc->nspace, wu_client.myproc.nspace)) {
        /* this process's own data: what it put is in the store already, and can be newer than
         * what a fence collected (a Put after the commit) */
        return PMIX_SUCCESS;
    }
    /* the data was checked by its owner's put; a refused key is skipped. The value moves into
     * the store (no second copy of what can be a large blob). */
    (void)wu_client.gds->take_info(wu_client.store, proc->nspace, proc->rank, info);
    return PMIX_SUCCESS;
}

void wu_client_store_wrlock(void)
{
    (void)pthread_rwlock_wrlock(&wu_client.store_lock);
}

void wu_client_store_rdlock(void)
{
    (void)pthread_rwlock_rdlock(&wu_client.store_lock);
}

void wu_client_store_unlock(void)
{
    (void)pthread_rwlock_unlock(&wu_client.store_lock);
}

void wu_client_store_lock_reset(void)
{
    pthread_rwlockattr_t a;
    (void)pthread_rwlockattr_init(&a);
    (void)pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    (void)pthread_rwlock_init(&wu_client.store_lock, &a);
    (void)pthread_rwlockattr_destroy(&a);
    (void)pthread_mutex_init(&wu_client.stage_lock, NULL);
    (void)pthread_mutex_init(&wu_client.spare_lock, NULL);
    (void)pthread_mutex_init(&wu_client.req_lock, NULL);
}

int wu_client_store_blob(const pmix_byte_object_t *bo)
{
    wu_buffer_t b;
    pmix_proc_t proc;
    int rc;
    if (NULL == bo || 0 == bo->size) {
        return PMIX_SUCCESS;
    }
    wu_buffer_construct(&b);
    b.base = bo->bytes; /* read-only view */
    b.used = b.cap = bo->size;
    wu_client_store_wrlock();
    while (PMIX_SUCCESS == (rc = wu_proto_blob_next_each(&b, &proc, store_one, NULL))) {
    }
    wu_client_store_unlock();
    return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc ? PMIX_SUCCESS : rc;
}
