/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_reg.c -- the event handler registry: PMIx_Register_event_handler,
 * PMIx_Deregister_event_handler, and the lookups of the delivery chain (see wu_event.h). */
#include "opal/util/wu_error.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Precedence categories, in the order handlers are called. */
enum { CAT_FIRST, CAT_SINGLE, CAT_MULTI, CAT_DEFAULT, CAT_LAST };
/* Which events a handler takes by their kind ("Targets" in wu_event.h). */
enum { LEVEL_ANY, LEVEL_JOB, LEVEL_ENVIRO };

typedef struct hdlr {
    struct hdlr *next;
    size_t ref;
    int cat;
    pmix_status_t *codes; /* NULL for a default handler */
    size_t ncodes;
    pmix_proc_t *affected; /* PMIX_EVENT_AFFECTED_PROC(S) filter, or NULL */
    size_t naffected;
    int level;
    bool pending; /* the server has not answered its registration yet */
    char *name;
    void *object; /* PMIX_EVENT_RETURN_OBJECT */
    pmix_notification_fn_t fn;
    void *cbdata;
} hdlr_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hdlr_t *hdlrs; /* in precedence order */
static size_t next_ref;

static void hdlr_free(hdlr_t *h)
{
    free(h->codes);
    free(h->affected);
    free(h->name);
    free(h);
}

/* Link h: after the last handler of its category or one before it (append), or before the first
 * of its category or one after it (prepend). Lock held. */
static void link_hdlr(hdlr_t *h, bool prepend)
{
    hdlr_t **pp = &hdlrs;
    while (NULL != *pp && (prepend ? (*pp)->cat < h->cat : (*pp)->cat <= h->cat)) {
        pp = &(*pp)->next;
    }
    h->next = *pp;
    *pp = h;
}

static bool matches(const hdlr_t *h, const wu_event_view_t *ev)
{
    bool code = NULL == h->codes && !ev->non_default;
    for (size_t i = 0; !code && i < h->ncodes; i++) {
        code = h->codes[i] == ev->status;
    }
    if (!code || (LEVEL_JOB == h->level && !ev->own_job) || (LEVEL_ENVIRO == h->level && ev->job)) {
        return false;
    }
    if (NULL != h->affected && !wu_event_affects(ev->info, ev->ninfo, h->affected, h->naffected)) {
        return false;
    }
    /* until the registration is complete, what the server sends reaches the handler later, in
     * order: the environment events by the server's replay, the others if kept */
    return !(h->pending && ev->from_server);
}

size_t wu_event_match(const wu_event_view_t *ev, size_t **refs)
{
    size_t n = 0, k = 0;
    *refs = NULL;
    pthread_mutex_lock(&lock);
    for (hdlr_t *h = hdlrs; NULL != h; h = h->next) {
        n += matches(h, ev) ? 1 : 0;
    }
    if (n > 0 && NULL != (*refs = malloc(n * sizeof **refs))) {
        for (hdlr_t *h = hdlrs; NULL != h; h = h->next) {
            if (matches(h, ev)) {
                (*refs)[k++] = h->ref;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return k;
}

/* The handler of ref, or NULL. Lock held. */
static hdlr_t *find_ref(size_t ref)
{
    hdlr_t *h = hdlrs;
    while (NULL != h && h->ref != ref) {
        h = h->next;
    }
    return h;
}

bool wu_event_match_one(size_t ref, const wu_event_view_t *ev)
{
    hdlr_t *h;
    bool yes;
    pthread_mutex_lock(&lock);
    yes = NULL != (h = find_ref(ref)) && matches(h, ev);
    pthread_mutex_unlock(&lock);
    return yes;
}

bool wu_event_lookup(size_t ref, pmix_notification_fn_t *fn, void **cbdata, void **object,
                     char **name)
{
    hdlr_t *h;
    pthread_mutex_lock(&lock);
    if (NULL != (h = find_ref(ref))) {
        *fn = h->fn;
        *cbdata = h->cbdata;
        *object = h->object;
        *name = NULL != h->name ? strdup(h->name) : NULL;
    }
    pthread_mutex_unlock(&lock);
    return NULL != h;
}

void wu_event_release_all(void)
{
    hdlr_t *list;
    pthread_mutex_lock(&lock);
    list = hdlrs;
    hdlrs = NULL;
    next_ref = 0;
    pthread_mutex_unlock(&lock);
    while (NULL != list) {
        hdlr_t *h = list;
        list = h->next;
        hdlr_free(h);
    }
    wu_event_kept_release();
}

/* ---- registration ---------------------------------------------------------------------------- */

/* The handler's affected-process filter: the processes of PMIX_EVENT_AFFECTED_PROC and
 * PMIX_EVENT_AFFECTED_PROCS in info. PMIX_ERR_BAD_PARAM if either names none. */
static pmix_status_t take_affected(hdlr_t *h, const pmix_info_t info[], size_t ninfo)
{
    static const char *const keys[] = {PMIX_EVENT_AFFECTED_PROC, PMIX_EVENT_AFFECTED_PROCS};
    const pmix_proc_t *p[2];
    size_t n[2], total = 0;
    for (size_t k = 0; k < 2; k++) {
        n[k] = wu_event_procs(info, ninfo, keys[k], &p[k]);
        if (0 == n[k] && NULL != wu_info_find(info, ninfo, keys[k])) {
            return PMIX_ERR_BAD_PARAM; /* not a process, or an empty or mistyped array */
        }
        total += n[k];
    }
    if (0 == total) {
        return PMIX_SUCCESS;
    }
    if (NULL == (h->affected = malloc(total * sizeof *h->affected))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t k = 0; k < 2; k++) {
        if (n[k] > 0) {
            memcpy(&h->affected[h->naffected], p[k], n[k] * sizeof *p[k]);
            h->naffected += n[k];
        }
    }
    return PMIX_SUCCESS;
}

/* A new handler from the arguments of PMIx_Register_event_handler; *prepend from the info. */
static pmix_status_t hdlr_new(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[],
                              size_t ninfo, pmix_notification_fn_t fn, void *cbdata, hdlr_t **out,
                              bool *prepend)
{
    const pmix_info_t *name = wu_info_find(info, ninfo, PMIX_EVENT_HDLR_NAME);
    const pmix_info_t *obj = wu_info_find(info, ninfo, PMIX_EVENT_RETURN_OBJECT);
    bool job = wu_info_flag(info, ninfo, WU_EVENT_JOB_LEVEL);
    bool env = wu_info_flag(info, ninfo, WU_EVENT_ENVIRO_LEVEL);
    hdlr_t *h;
    pmix_status_t rc;

    if (job && env) {
        return PMIX_ERR_BAD_PARAM; /* no event is both */
    }
    if (NULL == (h = calloc(1, sizeof *h))) {
        return PMIX_ERR_NOMEM;
    }
    h->level = job ? LEVEL_JOB : env ? LEVEL_ENVIRO : LEVEL_ANY;
    if (PMIX_SUCCESS != (rc = take_affected(h, info, ninfo))) {
        hdlr_free(h);
        return rc;
    }
    h->fn = fn;
    h->cbdata = cbdata;
    h->cat = 0 == ncodes ? CAT_DEFAULT : 1 == ncodes ? CAT_SINGLE : CAT_MULTI;
    if (wu_info_flag(info, ninfo, PMIX_EVENT_HDLR_FIRST)) {
        h->cat = CAT_FIRST;
    } else if (wu_info_flag(info, ninfo, PMIX_EVENT_HDLR_LAST)) {
        h->cat = CAT_LAST;
    }
    /* an APPEND given as well wins: the default order is FIFO */
    *prepend = (wu_info_flag(info, ninfo, PMIX_EVENT_HDLR_PREPEND) ||
                wu_info_flag(info, ninfo, PMIX_EVENT_HDLR_FIRST_IN_CATEGORY)) &&
               !wu_info_flag(info, ninfo, PMIX_EVENT_HDLR_APPEND) &&
               !wu_info_flag(info, ninfo, PMIX_EVENT_HDLR_LAST_IN_CATEGORY);
    if (NULL != obj && PMIX_POINTER == obj->value.type) {
        h->object = obj->value.data.ptr;
    }
    if (NULL != name && PMIX_STRING == name->value.type && NULL != name->value.data.string &&
        wu_key_ok(name->value.data.string) && NULL == (h->name = strdup(name->value.data.string))) {
        hdlr_free(h);
        return PMIX_ERR_NOMEM;
    }
    if (ncodes > 0) {
        if (NULL == (h->codes = malloc(ncodes * sizeof *codes))) {
            hdlr_free(h);
            return PMIX_ERR_NOMEM;
        }
        memcpy(h->codes, codes, ncodes * sizeof *codes);
        h->ncodes = ncodes;
    }
    *out = h;
    return PMIX_SUCCESS;
}

/* ---- the registration's way through the server ---------------------------------------- */

typedef struct {
    size_t ref;
    pmix_hdlr_reg_cbfunc_t cbfunc; /* nonblocking form */
    void *cbdata;
    wu_wait_call_t *call; /* blocking form: its caller owns this */
} reg_t;

/* Progress thread: the registration is complete (the server answered, or could not, or there
 * was none to ask). The handler is registered here whatever the server said: it takes every
 * event from now on; the caller learns its ref, then the handler gets the kept events. */
static void reg_done(pmix_status_t status, void *arg)
{
    reg_t *r = arg;
    size_t ref = r->ref;
    hdlr_t *h;
    (void)status;
    pthread_mutex_lock(&lock);
    if (NULL != (h = find_ref(ref))) {
        h->pending = false;
    }
    pthread_mutex_unlock(&lock);
    if (NULL != r->call) {
        wu_wait_call_done(r->call, PMIX_SUCCESS); /* r is the caller's again */
    } else {
        if (NULL != r->cbfunc) {
            r->cbfunc(PMIX_SUCCESS, ref, r->cbdata);
        }
        free(r);
    }
    wu_event_deliver_kept(ref);
}

/* Progress thread: tell the server, if the role has one and the handler is waiting for it. */
static void reg_run(reg_t *r)
{
    const wu_event_rt_t *rt = wu_event_rt();
    pmix_status_t *codes = NULL;
    pmix_proc_t *aff = NULL;
    size_t ncodes = 0, naff = 0;
    pmix_status_t rc = PMIX_OPERATION_SUCCEEDED;
    bool ask = false;
    hdlr_t *h;

    bool job_too = NULL != rt && NULL != rt->register_job_level && rt->register_job_level();
    pthread_mutex_lock(&lock);
    /* job-level handlers stay here: the server sends its job-specific events anyway (but a
     * server that sends only what was registered for) */
    if (NULL != (h = find_ref(r->ref)) && h->pending && (job_too || LEVEL_JOB != h->level)) {
        ask = (0 == h->ncodes || NULL != (codes = malloc(h->ncodes * sizeof *codes))) &&
              (0 == h->naffected || NULL != (aff = malloc(h->naffected * sizeof *aff)));
        if (ask) {
            ncodes = h->ncodes;
            naff = h->naffected;
            if (ncodes > 0) {
                memcpy(codes, h->codes, ncodes * sizeof *codes);
            }
            if (naff > 0) {
                memcpy(aff, h->affected, naff * sizeof *aff);
            }
        }
    }
    pthread_mutex_unlock(&lock);
    if (ask && NULL != rt && NULL != rt->register_hdlr) {
        rc = rt->register_hdlr(r->ref, codes, ncodes, aff, naff, reg_done, r);
    }
    free(codes);
    free(aff);
    if (PMIX_SUCCESS != rc) {
        reg_done(rc, r);
    }
}

static void reg_fn(void *arg)
{
    reg_run(arg);
}

static void reg_wait_fn(wu_wait_call_t *call)
{
    reg_t *r = call->cbdata;
    r->call = call;
    reg_run(r);
}

/* ---- the API --------------------------------------------------------------------------- */

typedef struct {
    pmix_op_cbfunc_t op_cb;
    pmix_status_t status;
    void *cbdata;
} reply_t;

static void reply_fn(void *arg)
{
    reply_t *r = arg;
    r->op_cb(r->status, r->cbdata);
    free(r);
}

/* Unlink and free the handler of ref; false if there is none. */
static bool remove_ref(size_t ref)
{
    hdlr_t *h = NULL;
    pthread_mutex_lock(&lock);
    for (hdlr_t **pp = &hdlrs; NULL != *pp; pp = &(*pp)->next) {
        if ((*pp)->ref == ref) {
            h = *pp;
            *pp = h->next;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (NULL != h) {
        hdlr_free(h);
    }
    return NULL != h;
}

/* Record the handler at once; cbfunc (progress thread) or the return value gives its ref once
 * the server, if any, has answered (see "Late registrations" in wu_event.h). */
pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes, pmix_info_t info[],
                                          size_t ninfo, pmix_notification_fn_t evhdlr,
                                          pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata)
{
    const wu_event_rt_t *rt = wu_event_rt();
    hdlr_t *h = NULL;
    bool prepend = false;
    reg_t *r;
    size_t ref;
    pmix_status_t rc;

    if (NULL == rt) {
        return PMIX_ERR_INIT;
    }
    if (NULL == evhdlr || (NULL == codes && ncodes > 0) || (NULL == info && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = hdlr_new(codes, ncodes, info, ninfo, evhdlr, cbdata, &h, &prepend))) {
        return rc;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        hdlr_free(h);
        return PMIX_ERR_NOMEM;
    }
    h->pending = NULL != rt->register_hdlr;
    pthread_mutex_lock(&lock);
    ref = r->ref = h->ref = next_ref++;
    link_hdlr(h, prepend);
    pthread_mutex_unlock(&lock);
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    if (NULL == cbfunc && !rt->in_thread()) {
        /* blocking: the ref once the server answered (its request is bounded in time) */
        rc = rt->wait_call(reg_wait_fn, r);
        free(r); /* no time limit: reg_wait_fn has finished with r, or never ran */
        if (PMIX_SUCCESS != rc) {
            (void)remove_ref(ref);
            return rc <= WU_INTERNAL_ERR_BASE ? PMIX_ERR_INIT : rc;
        }
        return ref <= (size_t)INT32_MAX ? (pmix_status_t)ref : PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_SUCCESS != (rc = wu_event_shift(reg_fn, r))) {
        (void)remove_ref(ref);
        free(r);
        return rc;
    }
    if (NULL == cbfunc) {
        /* PMIx 4: the blocking form returns the ref (here from a callback: not waiting) */
        return ref <= (size_t)INT32_MAX ? (pmix_status_t)ref : PMIX_ERR_OUT_OF_RESOURCE;
    }
    return PMIX_SUCCESS;
}

/* Remove the handler at once; an event chain already running skips it from now on. */
pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc,
                                            void *cbdata)
{
    reply_t *r;
    pmix_status_t status, rc;
    if (NULL == wu_event_rt()) {
        return PMIX_ERR_INIT;
    }
    status = remove_ref(evhdlr_ref) ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    if (NULL == cbfunc) {
        return status;
    }
    /* call back later, on the progress thread */
    if (NULL == (r = malloc(sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    *r = (reply_t){cbfunc, status, cbdata};
    if (PMIX_SUCCESS != (rc = wu_event_shift(reply_fn, r))) {
        free(r);
    }
    return rc;
}
