/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_setup.c -- PMIx_server_setup_application and PMIx_server_setup_local_support: the
 * launch-time preparation of a job by the pnet framework (mca/pnet/pnet.h).
 *
 * setup_application runs every pnet module's setup_app in the progress thread and gives the host
 * the concatenated infos through its cbfunc (required), with a release function for them; the
 * host registers them with the job and passes them to setup_local_support on every node, which
 * runs every module's setup_local. Both copy their arguments, return at once and call cbfunc from
 * the progress thread, never from the caller's stack. setup_local_support with a NULL cbfunc
 * does the work before returning: PMIX_OPERATION_SUCCEEDED, or the error. */
#include "mca/pnet/pnet.h"
#include "opal/event/wu_wait.h"
#include "pmix/server/wu_server.h"

#include "pmix_server.h"

#include <stdlib.h>
#include <string.h>

#define SETUP_WAIT 60.0 /* seconds a blocking setup_local_support waits for the progress thread */

typedef struct {
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_info_t *info;
    size_t ninfo;
    pmix_setup_application_cbfunc_t app_cb; /* setup_application */
    pmix_op_cbfunc_t op_cb;                 /* setup_local_support */
    void *cbdata;
} setup_t;

/* What setup_application hands the host, until the host releases it. */
typedef struct {
    pmix_info_t *info;
    size_t ninfo;
} result_t;

/* Internal codes must not cross the API. */
static pmix_status_t api_status(int rc)
{
    return rc <= WU_INTERNAL_ERR_BASE || WU_ERR_SILENT == rc ? PMIX_ERROR : rc;
}

static void setup_free(setup_t *s)
{
    if (NULL != s->info) {
        PMIX_INFO_FREE(s->info, s->ninfo);
    }
    free(s);
}

static setup_t *setup_new(const char *nspace, const pmix_info_t *info, size_t ninfo,
                          pmix_status_t *rc)
{
    setup_t *s;
    *rc = PMIX_SUCCESS;
    if (!wu_srv.initialized) {
        *rc = PMIX_ERR_INIT;
        return NULL;
    }
    if (NULL == nspace || '\0' == nspace[0] ||
        strnlen(nspace, PMIX_MAX_NSLEN + 1) > PMIX_MAX_NSLEN || (NULL == info && ninfo > 0)) {
        *rc = PMIX_ERR_BAD_PARAM;
        return NULL;
    }
    if (NULL == (s = calloc(1, sizeof *s))) {
        *rc = PMIX_ERR_NOMEM;
        return NULL;
    }
    PMIX_LOAD_NSPACE(s->nspace, nspace);
    if (ninfo > 0) {
        PMIX_INFO_CREATE(s->info, ninfo);
        s->ninfo = NULL != s->info ? ninfo : 0;
        *rc = NULL != s->info ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
        for (size_t i = 0; i < s->ninfo && PMIX_SUCCESS == *rc; i++) {
            *rc = wu_info_copy(&s->info[i], &info[i]);
        }
    }
    if (PMIX_SUCCESS != *rc) {
        setup_free(s);
        s = NULL;
    }
    return s;
}

static void release_result(pmix_status_t status, void *cbdata)
{
    result_t *r = cbdata;
    (void)status;
    PMIX_INFO_FREE(r->info, r->ninfo);
    free(r);
}

static void app_fn(void *arg)
{
    setup_t *s = arg;
    result_t *r = calloc(1, sizeof *r);
    int rc = NULL == r ? WU_ERR_NOMEM
             : wu_srv.stopping
                 ? WU_ERR_INIT
                 : wu_pnet_base_setup_app(s->nspace, s->info, s->ninfo, &r->info, &r->ninfo);
    if (WU_SUCCESS == rc && 0 < r->ninfo) {
        s->app_cb(PMIX_SUCCESS, r->info, r->ninfo, s->cbdata, release_result, r);
    } else {
        free(r);
        s->app_cb(api_status(rc), NULL, 0, s->cbdata, NULL, NULL);
    }
    setup_free(s);
}

pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace, pmix_info_t info[],
                                            size_t ninfo, pmix_setup_application_cbfunc_t cbfunc,
                                            void *cbdata)
{
    pmix_status_t rc;
    setup_t *s;
    if (NULL == cbfunc) {
        return wu_srv.initialized ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT;
    }
    if (NULL == (s = setup_new(nspace, info, ninfo, &rc))) {
        return rc;
    }
    s->app_cb = cbfunc;
    s->cbdata = cbdata;
    if (WU_SUCCESS != wu_progress_shift(wu_srv.pt, app_fn, s)) {
        setup_free(s);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

static int local_run(setup_t *s)
{
    int rc = wu_srv.stopping ? WU_ERR_INIT : wu_pnet_base_setup_local(s->nspace, s->info, s->ninfo);
    return api_status(rc);
}

static void local_fn(void *arg)
{
    setup_t *s = arg;
    s->op_cb(local_run(s), s->cbdata);
    setup_free(s);
}

static void local_wait_fn(wu_wait_call_t *call)
{
    wu_wait_call_done(call, local_run(call->cbdata));
}

pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace, pmix_info_t info[],
                                              size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc;
    setup_t *s = setup_new(nspace, info, ninfo, &rc);
    if (NULL == s) {
        return rc;
    }
    if (NULL != cbfunc) {
        s->op_cb = cbfunc;
        s->cbdata = cbdata;
        if (WU_SUCCESS != wu_progress_shift(wu_srv.pt, local_fn, s)) {
            setup_free(s);
            return PMIX_ERR_INIT;
        }
        return PMIX_SUCCESS;
    }
    /* blocking: in the progress thread (an upcall) do it here, elsewhere wait for it there */
    if (wu_progress_in_thread(wu_srv.pt)) {
        rc = local_run(s);
    } else if (WU_ERR_TIMEOUT ==
               (rc = wu_progress_shift_wait(wu_srv.pt, local_wait_fn, s, SETUP_WAIT))) {
        return PMIX_ERR_TIMEOUT; /* local_wait_fn may still read s: leave it */
    }
    setup_free(s);
    rc = api_status(rc);
    return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
}
