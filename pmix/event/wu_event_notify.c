/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_notify.c -- the roles' runtime interface, PMIx_Notify_event and the NOTIFY message
 * body (see wu_event.h for the ranges). */
#include "opal/util/wu_error.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- which library ---------------------------------------------------------------------------- */

/* Installed runtimes, by role; set and read from any thread. */
static _Atomic(const wu_event_rt_t *) rts[WU_EVENT_NROLES];

void wu_event_rt_set(wu_event_role_t role, const wu_event_rt_t *rt)
{
    if (role < WU_EVENT_NROLES) {
        atomic_store(&rts[role], rt);
    }
}

const wu_event_rt_t *wu_event_rt(void)
{
    for (int i = 0; i < WU_EVENT_NROLES; i++) {
        const wu_event_rt_t *rt = atomic_load(&rts[i]);
        if (NULL != rt && rt->ready()) {
            return rt;
        }
    }
    return NULL;
}

pmix_status_t wu_event_shift(wu_shift_fn_t fn, void *arg)
{
    const wu_event_rt_t *rt = wu_event_rt();
    return NULL != rt ? rt->shift(fn, arg) : PMIX_ERR_INIT;
}

bool wu_event_in_thread(void)
{
    const wu_event_rt_t *rt = wu_event_rt();
    return NULL != rt && rt->in_thread();
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

/* ---- event records --------------------------------------------------------------------------- */

pmix_status_t wu_event_rec_set(wu_event_rec_t *r, pmix_status_t status, const pmix_proc_t *source,
                               pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                               size_t spare)
{
    pmix_status_t rc;
    *r = (wu_event_rec_t){.status = status, .source = *source, .range = range};
    if (0 == ninfo + spare) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(r->info, ninfo + spare);
    if (NULL == r->info) {
        return PMIX_ERR_NOMEM;
    }
    r->ninfo = ninfo;
    r->spare = spare;
    rc = ninfo > 0 ? wu_data_elems_copy(r->info, info, ninfo, PMIX_INFO) : PMIX_SUCCESS;
    if (PMIX_SUCCESS != rc) {
        wu_event_rec_clear(r); /* a failed copy left the elements empty */
    }
    return rc;
}

void wu_event_rec_clear(wu_event_rec_t *r)
{
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo + r->spare);
    }
    r->info = NULL;
    r->ninfo = r->spare = 0;
}

/* ---- PMIx_Notify_event ------------------------------------------------------------------------ */

typedef struct {
    const wu_event_rt_t *rt; /* of the role that took the event */
    wu_event_rec_t ev;
    pmix_op_cbfunc_t cbfunc; /* nonblocking form */
    void *cbdata;
    wu_wait_call_t *call; /* blocking form */
} notify_t;

static void notify_free(notify_t *n)
{
    wu_event_rec_clear(&n->ev);
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

static void notify_done(pmix_status_t status, void *cbdata)
{
    notify_finish(cbdata, status);
}

/* Progress thread: deliver here if the range covers this process, and hand the event on where
 * the range reaches further. */
static void notify_run(notify_t *n)
{
    pmix_status_t rc = PMIX_SUCCESS;

    const wu_event_rec_t *e = &n->ev;
    if (n->rt->covers(e->range, e->info, e->ninfo)) {
        rc = wu_event_deliver(e->status, &e->source, e->range, e->info, e->ninfo, 0, NULL, NULL);
    }
    if (PMIX_RANGE_PROC_LOCAL == e->range || PMIX_SUCCESS != rc) {
        notify_finish(n, rc);
        return;
    }
    rc = n->rt->forward(e->status, &e->source, e->range, e->info, e->ninfo, notify_done, n);
    if (PMIX_SUCCESS != rc) {
        notify_finish(n, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc);
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
    const wu_event_rt_t *rt = wu_event_rt();
    notify_t *n;
    pmix_status_t rc = PMIX_ERR_NOMEM;

    if (NULL == rt) {
        return PMIX_ERR_INIT;
    }
    if ((NULL == info && ninfo > 0) || PMIX_RANGE_INVALID == range) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (wu_event_has_custom_range(info, ninfo)) {
        const pmix_proc_t *targets;
        if (0 == wu_event_procs(info, ninfo, PMIX_EVENT_CUSTOM_RANGE, &targets)) {
            return PMIX_ERR_BAD_PARAM; /* names no process */
        }
        range = PMIX_RANGE_CUSTOM; /* the processes named are the range */
    } else if (PMIX_RANGE_CUSTOM == range) {
        return PMIX_ERR_BAD_PARAM; /* a custom range without its processes */
    }
    if (NULL == (n = calloc(1, sizeof *n))) {
        return PMIX_ERR_NOMEM;
    }
    n->rt = rt;
    n->cbfunc = cbfunc;
    n->cbdata = cbdata;
    rc = wu_event_rec_set(&n->ev, status, NULL != source ? source : rt->me, range, info, ninfo, 0);
    if (PMIX_SUCCESS != rc) {
        free(n);
        return rc;
    }
    if (NULL == cbfunc && !rt->in_thread()) {
        /* blocking: wait until the event was handed on */
        rc = rt->wait_call(notify_wait_fn, n);
        notify_free(n); /* no time limit: notify_wait_fn has finished with n, or never ran */
        return rc <= WU_INTERNAL_ERR_BASE ? PMIX_ERR_INIT : rc;
    }
    if (PMIX_SUCCESS != (rc = rt->shift(notify_fn, n))) {
        n->cbfunc = NULL;
        notify_finish(n, rc);
    }
    return rc;
}
