/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_chain.c -- delivering one event to this process's handlers, one handler at a time,
 * in precedence order (see wu_event.h). */
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include <stdlib.h>
#include <string.h>

typedef struct chain {
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info; /* the event's info and one slot for PMIX_EVENT_RETURN_OBJECT */
    size_t ninfo;
    pmix_info_t *results; /* what the handlers so far reported */
    size_t nresults;
    size_t *refs; /* matching handlers, in precedence order */
    size_t nrefs, next;
    char *name; /* of the handler running */
    /* what the running handler handed back */
    pmix_status_t hstatus;
    pmix_op_cbfunc_t relfn;
    void *relcbdata;
    pmix_op_cbfunc_t done;
    void *cbdata;
} chain_t;

static void step(chain_t *c);

static void chain_free(chain_t *c)
{
    if (NULL != c->info) {
        PMIX_INFO_FREE(c->info, c->ninfo + 1);
    }
    if (NULL != c->results) {
        PMIX_INFO_FREE(c->results, c->nresults);
    }
    free(c->refs);
    free(c->name);
    free(c);
}

static void finish(chain_t *c, pmix_status_t status)
{
    if (NULL != c->done) {
        c->done(status, c->cbdata);
    }
    chain_free(c);
}

/* Append n infos (deep copies) and, for a named handler, "name" = status to the results. */
static pmix_status_t add_results(chain_t *c, const pmix_info_t *res, size_t n, const char *name,
                                 pmix_status_t status)
{
    size_t total = c->nresults + n + (NULL != name ? 1 : 0);
    pmix_info_t *na;
    pmix_status_t rc = PMIX_SUCCESS;
    if (total == c->nresults) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(na, total);
    if (NULL == na) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->nresults; i++) {
        na[i] = c->results[i]; /* move */
    }
    if (n > 0) {
        rc = wu_data_elems_copy(&na[c->nresults], res, n, PMIX_INFO);
    }
    if (NULL != name) {
        PMIx_Info_load(&na[total - 1], name, &status, PMIX_STATUS);
    }
    free(c->results); /* its elements moved */
    c->results = na;
    c->nresults = total;
    return rc;
}

/* Progress thread: the handler completed. */
static void resume(void *arg)
{
    chain_t *c = arg;
    if (NULL != c->relfn) {
        c->relfn(PMIX_SUCCESS, c->relcbdata); /* the handler may release its results now */
        c->relfn = NULL;
    }
    if (PMIX_EVENT_ACTION_COMPLETE == c->hstatus) {
        finish(c, PMIX_EVENT_ACTION_COMPLETE);
        return;
    }
    step(c);
}

/* A handler's completion function (pmix_event_notification_cbfunc_fn_t), from any thread. */
static void hdlr_done(pmix_status_t status, pmix_info_t *results, size_t nresults,
                      pmix_op_cbfunc_t cbfunc, void *thiscbdata, void *notification_cbdata)
{
    chain_t *c = notification_cbdata;
    if (NULL == c) {
        return;
    }
    /* the chain waits for this call alone: nothing else touches it now */
    c->hstatus = status;
    c->relfn = cbfunc;
    c->relcbdata = thiscbdata;
    (void)add_results(c, results, NULL == results ? 0 : nresults, c->name, status);
    if (PMIX_SUCCESS != wu_event_shift(resume, c)) {
        /* the library finalized meanwhile: nobody is left to deliver to */
        if (NULL != cbfunc) {
            cbfunc(PMIX_SUCCESS, thiscbdata);
        }
        chain_free(c);
    }
}

/* Call the next handler still registered, or end the chain. */
static void step(chain_t *c)
{
    while (c->next < c->nrefs) {
        size_t ref = c->refs[c->next++], n = c->ninfo;
        pmix_notification_fn_t fn;
        void *cbdata, *object;
        free(c->name);
        c->name = NULL;
        if (!wu_event_lookup(ref, &fn, &cbdata, &object, &c->name)) {
            continue; /* deregistered since the event arrived */
        }
        PMIX_INFO_DESTRUCT(&c->info[c->ninfo]);
        if (NULL != object) {
            PMIx_Info_load(&c->info[n++], PMIX_EVENT_RETURN_OBJECT, object, PMIX_POINTER);
        }
        fn(ref, c->status, &c->source, n > 0 ? c->info : NULL, n, c->results, c->nresults,
           hdlr_done, c);
        return;
    }
    finish(c, PMIX_SUCCESS);
}

pmix_status_t wu_event_deliver(pmix_status_t status, const pmix_proc_t *source,
                               pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                               pmix_op_cbfunc_t done, void *cbdata)
{
    const pmix_info_t *nd = NULL;
    chain_t *c = calloc(1, sizeof *c);

    if (NULL == c) {
        return PMIX_ERR_NOMEM;
    }
    c->status = status;
    c->source = *source;
    c->range = range;
    c->done = done;
    c->cbdata = cbdata;
    PMIX_INFO_CREATE(c->info, ninfo + 1);
    if (NULL == c->info ||
        (ninfo > 0 && PMIX_SUCCESS != wu_data_elems_copy(c->info, info, ninfo, PMIX_INFO))) {
        c->done = NULL;
        chain_free(c);
        return PMIX_ERR_NOMEM;
    }
    c->ninfo = ninfo;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_NON_DEFAULT)) {
            nd = &info[i];
        }
    }
    c->nrefs = wu_event_match(status, NULL != nd && PMIX_INFO_TRUE(nd), &c->refs);
    step(c);
    return PMIX_SUCCESS;
}
