/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_reg.c -- the event handler registry: PMIx_Register_event_handler,
 * PMIx_Deregister_event_handler, and the lookups of the delivery chain (see wu_event.h). */
#include "pmix/event/wu_event.h"
#include "pmix/common/wu_value.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Precedence categories, in the order handlers are called. */
enum { CAT_FIRST, CAT_SINGLE, CAT_MULTI, CAT_DEFAULT, CAT_LAST };

typedef struct hdlr {
    struct hdlr *next;
    size_t ref;
    int cat;
    pmix_status_t *codes; /* NULL for a default handler */
    size_t ncodes;
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

static bool matches(const hdlr_t *h, pmix_status_t status, bool non_default)
{
    if (NULL == h->codes) {
        return !non_default;
    }
    for (size_t i = 0; i < h->ncodes; i++) {
        if (h->codes[i] == status) {
            return true;
        }
    }
    return false;
}

size_t wu_event_match(pmix_status_t status, bool non_default, size_t **refs)
{
    size_t n = 0, k = 0;
    *refs = NULL;
    pthread_mutex_lock(&lock);
    for (hdlr_t *h = hdlrs; NULL != h; h = h->next) {
        n += matches(h, status, non_default) ? 1 : 0;
    }
    if (n > 0 && NULL != (*refs = malloc(n * sizeof **refs))) {
        for (hdlr_t *h = hdlrs; NULL != h; h = h->next) {
            if (matches(h, status, non_default)) {
                (*refs)[k++] = h->ref;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return k;
}

bool wu_event_lookup(size_t ref, pmix_notification_fn_t *fn, void **cbdata, void **object,
                     char **name)
{
    hdlr_t *h;
    pthread_mutex_lock(&lock);
    for (h = hdlrs; NULL != h && h->ref != ref; h = h->next) {
    }
    if (NULL != h) {
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
}

/* ---- registration ---------------------------------------------------------------------------- */

/* A new handler from the arguments of PMIx_Register_event_handler; *prepend from the info. */
static pmix_status_t hdlr_new(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[],
                              size_t ninfo, pmix_notification_fn_t fn, void *cbdata, hdlr_t **out,
                              bool *prepend)
{
    const pmix_info_t *name = wu_info_find(info, ninfo, PMIX_EVENT_HDLR_NAME);
    const pmix_info_t *obj = wu_info_find(info, ninfo, PMIX_EVENT_RETURN_OBJECT);
    hdlr_t *h = calloc(1, sizeof *h);

    if (NULL == h) {
        return PMIX_ERR_NOMEM;
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

typedef struct {
    pmix_hdlr_reg_cbfunc_t reg_cb;
    pmix_op_cbfunc_t op_cb;
    pmix_status_t status;
    size_t ref;
    void *cbdata;
} reply_t;

static void reply_fn(void *arg)
{
    reply_t *r = arg;
    if (NULL != r->reg_cb) {
        r->reg_cb(r->status, r->ref, r->cbdata);
    } else {
        r->op_cb(r->status, r->cbdata);
    }
    free(r);
}

/* Call back later, on the progress thread. */
static pmix_status_t reply_later(pmix_hdlr_reg_cbfunc_t reg_cb, pmix_op_cbfunc_t op_cb,
                                 pmix_status_t status, size_t ref, void *cbdata)
{
    reply_t *r = malloc(sizeof *r);
    pmix_status_t rc;
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    *r = (reply_t){reg_cb, op_cb, status, ref, cbdata};
    if (PMIX_SUCCESS != (rc = wu_event_shift(reply_fn, r))) {
        free(r);
    }
    return rc;
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

/* Record the handler at once; cbfunc (progress thread) or the return value gives its ref. */
pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes, pmix_info_t info[],
                                          size_t ninfo, pmix_notification_fn_t evhdlr,
                                          pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata)
{
    hdlr_t *h = NULL;
    bool prepend = false;
    size_t ref;
    pmix_status_t rc;

    if (NULL == wu_event_rt()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == evhdlr || (NULL == codes && ncodes > 0) || (NULL == info && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = hdlr_new(codes, ncodes, info, ninfo, evhdlr, cbdata, &h, &prepend))) {
        return rc;
    }
    pthread_mutex_lock(&lock);
    ref = h->ref = next_ref++;
    link_hdlr(h, prepend);
    pthread_mutex_unlock(&lock);
    if (NULL == cbfunc) {
        /* PMIx 4: the blocking form returns the ref */
        return ref <= (size_t)INT32_MAX ? (pmix_status_t)ref : PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_SUCCESS != (rc = reply_later(cbfunc, NULL, PMIX_SUCCESS, ref, cbdata))) {
        (void)remove_ref(ref);
    }
    return rc;
}

/* Remove the handler at once; an event chain already running skips it from now on. */
pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc,
                                            void *cbdata)
{
    pmix_status_t status;
    if (NULL == wu_event_rt()) {
        return PMIX_ERR_INIT;
    }
    status = remove_ref(evhdlr_ref) ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    if (NULL == cbfunc) {
        return status;
    }
    return reply_later(NULL, cbfunc, status, 0, cbdata);
}
