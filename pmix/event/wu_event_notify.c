/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_notify.c -- PMIx_Notify_event, the NOTIFY message body, and the client's hooks: an
 * event the server sent, and the loss of the server (see wu_event.h for the ranges). */
#include "opal/util/wu_error.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include <stdlib.h>
#include <string.h>

/* ---- which library ---------------------------------------------------------------------------- */

wu_event_role_t wu_event_role(void)
{
    if (wu_client_ready()) {
        return WU_EVENT_CLIENT;
    }
    return wu_srv.initialized ? WU_EVENT_SERVER : WU_EVENT_NONE;
}

pmix_status_t wu_event_shift(wu_shift_fn_t fn, void *arg)
{
    switch (wu_event_role()) {
    case WU_EVENT_CLIENT:
        return wu_client_shift(fn, arg);
    case WU_EVENT_SERVER:
        return WU_SUCCESS == wu_progress_shift(wu_srv.pt, fn, arg) ? PMIX_SUCCESS : PMIX_ERR_INIT;
    default:
        return PMIX_ERR_INIT;
    }
}

bool wu_event_in_thread(void)
{
    switch (wu_event_role()) {
    case WU_EVENT_CLIENT:
        return wu_progress_in_thread(wu_client.pt);
    case WU_EVENT_SERVER:
        return wu_progress_in_thread(wu_srv.pt);
    default:
        return false;
    }
}

static bool proc_covers(const pmix_proc_t *target, const pmix_proc_t *p)
{
    return PMIX_CHECK_NSPACE(target->nspace, p->nspace) &&
           (PMIX_RANK_WILDCARD == target->rank || target->rank == p->rank);
}

bool wu_event_in_custom_range(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo)
{
    const pmix_info_t *r = wu_client_find_info(info, ninfo, PMIX_EVENT_CUSTOM_RANGE);
    const pmix_data_array_t *d;
    if (NULL == r) {
        return false;
    }
    if (PMIX_PROC == r->value.type) {
        return NULL != r->value.data.proc && proc_covers(r->value.data.proc, proc);
    }
    if (PMIX_DATA_ARRAY != r->value.type || NULL == (d = r->value.data.darray) ||
        PMIX_PROC != d->type) {
        return false;
    }
    for (size_t i = 0; i < d->size; i++) {
        if (proc_covers(&((const pmix_proc_t *)d->array)[i], proc)) {
            return true;
        }
    }
    return false;
}

/* ---- the message body ------------------------------------------------------------------------- */

pmix_status_t wu_event_pack(wu_buffer_t *b, pmix_status_t status, const pmix_proc_t *source,
                            pmix_data_range_t range, const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t rc = wu_pack(b, &status, 1, PMIX_STATUS);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(b, source, 1, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(b, &range, 1, PMIX_DATA_RANGE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(b, info, ninfo, PMIX_INFO);
    }
    return rc;
}

pmix_status_t wu_event_unpack(wu_buffer_t *b, pmix_status_t *status, pmix_proc_t *source,
                              pmix_data_range_t *range, pmix_info_t **info, size_t *ninfo)
{
    int32_t one = 1;
    pmix_status_t rc = wu_unpack(b, status, &one, PMIX_STATUS);
    *info = NULL;
    *ninfo = 0;
    if (PMIX_SUCCESS == rc) {
        one = 1;
        rc = wu_unpack(b, source, &one, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        one = 1;
        rc = wu_unpack(b, range, &one, PMIX_DATA_RANGE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_unpack_list(b, (void **)info, ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc && 0 != wu_buffer_remaining(b)) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != rc && NULL != *info) {
        PMIX_INFO_FREE(*info, *ninfo);
        *info = NULL;
        *ninfo = 0;
    }
    return rc;
}

/* ---- client hooks ----------------------------------------------------------------------------- */

void wu_event_client_recv(const void *payload, size_t len)
{
    wu_buffer_t b;
    uint8_t cmd = 0;
    int32_t one = 1;
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info;
    size_t ninfo;

    wu_buffer_construct(&b);
    b.base = (char *)payload; /* a read-only view: never destructed */
    b.used = b.cap = len;
    if (PMIX_SUCCESS != wu_unpack(&b, &cmd, &one, PMIX_UINT8) || WU_CMD_NOTIFY != cmd ||
        PMIX_SUCCESS != wu_event_unpack(&b, &status, &source, &range, &info, &ninfo)) {
        return; /* nothing else is defined; a bad message is dropped */
    }
    (void)wu_event_deliver(status, &source, range, info, ninfo, NULL, NULL);
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
}

void wu_event_client_lost(void)
{
    (void)wu_event_deliver(PMIX_ERR_LOST_CONNECTION, &wu_client.myproc, PMIX_RANGE_PROC_LOCAL, NULL,
                           0, NULL, NULL);
}

/* ---- PMIx_Notify_event ------------------------------------------------------------------------ */

typedef struct {
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info;
    size_t ninfo;
    pmix_op_cbfunc_t cbfunc; /* nonblocking form */
    void *cbdata;
    wu_wait_call_t *call; /* blocking form */
} notify_t;

static void notify_free(notify_t *n)
{
    if (NULL != n->info) {
        PMIX_INFO_FREE(n->info, n->ninfo);
    }
    free(n);
}

/* The event was handed on. The blocking caller owns n and frees it once woken. */
static void notify_finish(notify_t *n, pmix_status_t status)
{
    if (NULL != n->call) {
        wu_wait_call_done(n->call, status);
        return;
    }
    if (NULL != n->cbfunc) {
        n->cbfunc(status, n->cbdata);
    }
    notify_free(n);
}

static void notify_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    (void)reply;
    notify_finish(cbdata, status);
}

/* Does range cover this client process? */
static bool covers_me(const notify_t *n)
{
    switch (n->range) {
    case PMIX_RANGE_RM:
        return false;
    case PMIX_RANGE_CUSTOM:
        return wu_event_in_custom_range(&wu_client.myproc, n->info, n->ninfo);
    default:
        return true;
    }
}

/* Progress thread: deliver here, and hand the event on where the range reaches further. */
static void notify_run(notify_t *n)
{
    wu_buffer_t b;
    pmix_status_t rc = PMIX_SUCCESS;

    if (WU_EVENT_SERVER == wu_event_role()) {
        wu_event_srv_send(n->status, &n->source, n->range, n->info, n->ninfo, NULL);
        rc = wu_event_deliver(n->status, &n->source, n->range, n->info, n->ninfo, NULL, NULL);
        notify_finish(n, rc);
        return;
    }
    if (WU_CLIENT_SINGLETON == wu_client.mode || covers_me(n)) {
        rc = wu_event_deliver(n->status, &n->source, n->range, n->info, n->ninfo, NULL, NULL);
    }
    if (WU_CLIENT_SINGLETON == wu_client.mode || PMIX_RANGE_PROC_LOCAL == n->range ||
        PMIX_SUCCESS != rc) {
        notify_finish(n, rc);
        return;
    }
    rc = wu_client_msg_start(&b, WU_CMD_NOTIFY);
    if (PMIX_SUCCESS == rc) {
        rc = wu_event_pack(&b, n->status, &n->source, n->range, n->info, n->ninfo);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        notify_finish(n, rc);
        return;
    }
    if (PMIX_SUCCESS != (rc = wu_client_request(&b, 0, notify_reply, n))) {
        notify_finish(n, rc);
    }
}

static void notify_fn(void *arg)
{
    notify_run(arg);
}

static void notify_wait_fn(wu_wait_call_t *call)
{
    notify_t *n = call->cbdata;
    n->call = call;
    notify_run(n);
}

pmix_status_t PMIx_Notify_event(pmix_status_t status, const pmix_proc_t *source,
                                pmix_data_range_t range, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    wu_event_role_t role = wu_event_role();
    notify_t *n;
    pmix_status_t rc = PMIX_ERR_NOMEM;

    if (WU_EVENT_NONE == role) {
        return PMIX_ERR_INIT;
    }
    if ((NULL == info && ninfo > 0) || PMIX_RANGE_INVALID == range) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (n = calloc(1, sizeof *n))) {
        return PMIX_ERR_NOMEM;
    }
    n->status = status;
    n->source = NULL != source ? *source : WU_EVENT_CLIENT == role ? wu_client.myproc : wu_srv.me;
    n->range = range;
    n->cbfunc = cbfunc;
    n->cbdata = cbdata;
    if (ninfo > 0) {
        PMIX_INFO_CREATE(n->info, ninfo);
        n->ninfo = ninfo;
        if (NULL == n->info ||
            PMIX_SUCCESS != (rc = wu_data_elems_copy(n->info, info, ninfo, PMIX_INFO))) {
            notify_free(n); /* a failed copy left the elements empty */
            return rc;
        }
    }
    if (NULL == cbfunc && !wu_event_in_thread()) {
        /* blocking: wait until the event was handed on */
        rc = WU_EVENT_CLIENT == role ? wu_client_wait_call(notify_wait_fn, n)
                                     : wu_progress_shift_wait(wu_srv.pt, notify_wait_fn, n, 0);
        notify_free(n); /* no time limit: notify_wait_fn has finished with n, or never ran */
        return rc <= WU_INTERNAL_ERR_BASE ? PMIX_ERR_INIT : rc;
    }
    if (PMIX_SUCCESS != (rc = wu_event_shift(notify_fn, n))) {
        n->cbfunc = NULL;
        notify_finish(n, rc);
    }
    return rc;
}
