/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_chain.c -- delivering one event to this process's handlers, one handler at a time,
 * in precedence order, and keeping the events from the server that no handler took for the
 * handlers registered later, and the one lasting event (the process's model declaration) for
 * every handler registered later (see wu_event.h). */
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct chain {
    wu_event_rec_t ev;    /* the info has a spare slot for PMIX_EVENT_RETURN_OBJECT */
    pmix_info_t *results; /* what the handlers so far reported */
    size_t nresults;
    size_t *refs; /* matching handlers, in precedence order */
    size_t nrefs, next;
    size_t called; /* handlers called so far */
    bool keep;     /* WU_EVENT_KEEP: kept if no handler is called */
    char *name;    /* of the handler running */
    /* what the running handler handed back */
    pmix_status_t hstatus;
    pmix_op_cbfunc_t relfn;
    void *relcbdata;
    pmix_op_cbfunc_t done;
    void *cbdata;
} chain_t;

static void step(chain_t *c);
static void keep(chain_t *c);

static void chain_free(chain_t *c)
{
    wu_event_rec_clear(&c->ev);
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
    if (c->keep && 0 == c->called) {
        keep(c); /* takes the event */
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
        size_t ref = c->refs[c->next++], n = c->ev.ninfo;
        pmix_notification_fn_t fn;
        void *cbdata, *object;
        free(c->name);
        c->name = NULL;
        if (!wu_event_lookup(ref, &fn, &cbdata, &object, &c->name)) {
            continue; /* deregistered since the event arrived */
        }
        PMIX_INFO_DESTRUCT(&c->ev.info[c->ev.ninfo]);
        if (NULL != object) {
            PMIx_Info_load(&c->ev.info[n++], PMIX_EVENT_RETURN_OBJECT, object, PMIX_POINTER);
        }
        c->called++;
        fn(ref, c->ev.status, &c->ev.source, n > 0 ? c->ev.info : NULL, n, c->results, c->nresults,
           hdlr_done, c);
        return;
    }
    finish(c, PMIX_SUCCESS);
}

/* The view of an event that the handlers' filters look at. */
static void view_make(wu_event_view_t *v, pmix_status_t status, const pmix_proc_t *source,
                      pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                      unsigned flags)
{
    const wu_event_rt_t *rt = wu_event_rt();
    v->status = status;
    v->non_default = wu_info_flag(info, ninfo, PMIX_EVENT_NON_DEFAULT);
    v->job = wu_event_is_job(source, range, info, ninfo, NULL);
    v->own_job =
        v->job && NULL != rt && wu_event_is_job(source, range, info, ninfo, rt->me->nspace);
    v->from_server = 0 != (flags & WU_EVENT_FROM_SERVER);
    v->info = info;
    v->ninfo = ninfo;
}

/* A chain for the event (copied), with no handlers yet; NULL when out of memory. */
static chain_t *chain_new(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                          const pmix_info_t *info, size_t ninfo)
{
    chain_t *c = calloc(1, sizeof *c);
    if (NULL != c &&
        PMIX_SUCCESS != wu_event_rec_set(&c->ev, status, source, range, info, ninfo, 1)) {
        free(c);
        c = NULL;
    }
    return c;
}

/* A chain for the event with every handler it matches; NULL when out of memory. */
static chain_t *chain_matched(pmix_status_t status, const pmix_proc_t *source,
                              pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                              unsigned flags)
{
    wu_event_view_t v;
    chain_t *c = chain_new(status, source, range, info, ninfo);

    if (NULL != c) {
        view_make(&v, status, source, range, c->ev.info, c->ev.ninfo, flags);
        c->nrefs = wu_event_match(&v, &c->refs);
    }
    return c;
}

pmix_status_t wu_event_deliver(pmix_status_t status, const pmix_proc_t *source,
                               pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                               unsigned flags, pmix_op_cbfunc_t done, void *cbdata)
{
    chain_t *c = chain_matched(status, source, range, info, ninfo, flags);

    if (NULL == c) {
        return PMIX_ERR_NOMEM;
    }
    c->done = done;
    c->cbdata = cbdata;
    c->keep = 0 != (flags & WU_EVENT_KEEP);
    step(c);
    return PMIX_SUCCESS;
}

pmix_status_t wu_event_deliver_to(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                                  unsigned flags)
{
    wu_event_view_t v;
    chain_t *c;

    view_make(&v, status, source, range, info, ninfo, flags);
    if (!wu_event_match_one(ref, &v)) {
        return PMIX_SUCCESS;
    }
    if (NULL == (c = chain_new(status, source, range, info, ninfo)) ||
        NULL == (c->refs = malloc(sizeof *c->refs))) {
        if (NULL != c) {
            chain_free(c);
        }
        return PMIX_ERR_NOMEM;
    }
    c->refs[0] = ref;
    c->nrefs = 1;
    step(c);
    return PMIX_SUCCESS;
}

/* ---- events kept for later handlers ------------------------------------------------------ */

typedef struct kept {
    struct kept *next;
    wu_event_rec_t ev; /* as a chain's */
} kept_t;

/* Oldest first. The lock is taken before the registry's, never after. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static kept_t *kept_head, **kept_tail = &kept_head;
static size_t nkept;

static void kept_free(kept_t *k)
{
    wu_event_rec_clear(&k->ev);
    free(k);
}

/* Keep the event of a chain no handler took; the oldest kept goes when there are too many. */
static void keep(chain_t *c)
{
    kept_t *k = malloc(sizeof *k), *old = NULL;
    if (NULL == k) {
        return;
    }
    *k = (kept_t){.next = NULL, .ev = c->ev};
    c->ev.info = NULL; /* moved */
    pthread_mutex_lock(&kept_lock);
    *kept_tail = k;
    kept_tail = &k->next;
    if (++nkept > WU_EVENT_KEEP_MAX) {
        old = kept_head;
        kept_head = old->next;
        nkept--;
    }
    pthread_mutex_unlock(&kept_lock);
    if (NULL != old) {
        kept_free(old);
    }
}

/* The lasting event, and the handlers its delivery reached (under kept_lock). */
static wu_event_rec_t lasting;
static bool have_lasting;
static size_t *lasting_refs, nlasting_refs;

pmix_status_t wu_event_deliver_lasting(pmix_status_t status, const pmix_proc_t *source,
                                       pmix_data_range_t range, const pmix_info_t *info,
                                       size_t ninfo)
{
    wu_event_rec_t rec;
    size_t *refs = NULL;
    chain_t *c = chain_matched(status, source, range, info, ninfo, 0);

    if (NULL == c ||
        PMIX_SUCCESS != wu_event_rec_set(&rec, status, source, range, info, ninfo, 0)) {
        if (NULL != c) {
            chain_free(c);
        }
        return PMIX_ERR_NOMEM;
    }
    if (0 < c->nrefs && NULL != (refs = malloc(c->nrefs * sizeof *refs))) {
        memcpy(refs, c->refs, c->nrefs * sizeof *refs);
    }
    pthread_mutex_lock(&kept_lock);
    if (have_lasting) {
        wu_event_rec_clear(&lasting);
    }
    free(lasting_refs);
    lasting = rec;
    have_lasting = true;
    lasting_refs = refs;
    nlasting_refs = NULL != refs ? c->nrefs : 0;
    pthread_mutex_unlock(&kept_lock);
    step(c);
    return PMIX_SUCCESS;
}

/* A copy of the lasting event for handler ref, unless its delivery reached ref already. */
static bool lasting_for(size_t ref, wu_event_rec_t *out)
{
    bool want = false;
    pthread_mutex_lock(&kept_lock);
    if (have_lasting) {
        want = true;
        for (size_t i = 0; i < nlasting_refs && want; i++) {
            want = lasting_refs[i] != ref;
        }
        want =
            want && PMIX_SUCCESS == wu_event_rec_set(out, lasting.status, &lasting.source,
                                                     lasting.range, lasting.info, lasting.ninfo, 0);
    }
    pthread_mutex_unlock(&kept_lock);
    return want;
}

void wu_event_deliver_kept(size_t ref)
{
    kept_t *mine = NULL, **mine_tail = &mine;
    wu_event_rec_t last;
    if (lasting_for(ref, &last)) {
        (void)wu_event_deliver_to(ref, last.status, &last.source, last.range, last.info, last.ninfo,
                                  0);
        wu_event_rec_clear(&last);
    }
    pthread_mutex_lock(&kept_lock);
    for (kept_t **pp = &kept_head; NULL != *pp;) {
        kept_t *k = *pp;
        wu_event_view_t v;
        view_make(&v, k->ev.status, &k->ev.source, k->ev.range, k->ev.info, k->ev.ninfo,
                  WU_EVENT_FROM_SERVER);
        if (!wu_event_match_one(ref, &v)) {
            pp = &k->next;
            continue;
        }
        *pp = k->next;
        if (kept_tail == &k->next) {
            kept_tail = pp;
        }
        nkept--;
        k->next = NULL;
        *mine_tail = k;
        mine_tail = &k->next;
    }
    pthread_mutex_unlock(&kept_lock);
    while (NULL != mine) {
        kept_t *k = mine;
        mine = k->next;
        (void)wu_event_deliver_to(ref, k->ev.status, &k->ev.source, k->ev.range, k->ev.info,
                                  k->ev.ninfo, WU_EVENT_FROM_SERVER);
        kept_free(k);
    }
}

void wu_event_kept_release(void)
{
    kept_t *list;
    pthread_mutex_lock(&kept_lock);
    list = kept_head;
    kept_head = NULL;
    kept_tail = &kept_head;
    nkept = 0;
    if (have_lasting) {
        wu_event_rec_clear(&lasting);
        have_lasting = false;
    }
    free(lasting_refs);
    lasting_refs = NULL;
    nlasting_refs = 0;
    pthread_mutex_unlock(&kept_lock);
    while (NULL != list) {
        kept_t *k = list;
        list = k->next;
        kept_free(k);
    }
}
