/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_spawn.c -- PMIx_Spawn and PMIx_Spawn_nb: a new job started by the host (wrun), from
 * any process. The request (wu_proto.h WU_CMD_SPAWN) carries the job's directives and its
 * applications as given; the answer is the new namespace, once the host has started it. A
 * singleton has nobody to start it: PMIX_ERR_NOT_SUPPORTED. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    pmix_info_t *info;
    size_t ninfo;
    pmix_app_t *apps;
    size_t napps;
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
} spawn_req_t;

static void req_free(spawn_req_t *r)
{
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    if (NULL != r->apps) {
        PMIX_APP_FREE(r->apps, r->napps);
    }
    free(r);
}

static void finish(spawn_req_t *r, pmix_status_t status, const char *ns)
{
    pmix_nspace_t nspace;
    PMIX_LOAD_NSPACE(nspace, PMIX_SUCCESS == status && NULL != ns ? ns : "");
    if (NULL != r->cbfunc) {
        r->cbfunc(status, nspace, r->cbdata);
    }
    req_free(r);
}

static void spawn_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    char *ns = NULL;
    int32_t one = 1;
    if (PMIX_SUCCESS == status &&
        (NULL == reply || PMIX_SUCCESS != wu_unpack(reply, &ns, &one, PMIX_STRING) || NULL == ns ||
         strlen(ns) > PMIX_MAX_NSLEN || 0 != wu_buffer_remaining(reply))) {
        status = PMIX_ERR_UNPACK_FAILURE;
    }
    finish(cbdata, status, ns);
    free(ns);
}

static void spawn_send(void *arg)
{
    spawn_req_t *r = arg;
    wu_buffer_t b;
    int rc = wu_client_msg_start(&b, WU_CMD_SPAWN);
    rc = PMIX_SUCCESS == rc ? wu_proto_pack_list(&b, r->info, r->ninfo, PMIX_INFO) : rc;
    rc = PMIX_SUCCESS == rc ? wu_proto_pack_list(&b, r->apps, r->napps, PMIX_APP) : rc;
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, spawn_reply, r);
    }
    if (PMIX_SUCCESS != rc) {
        finish(r, rc, NULL);
    }
}

pmix_status_t PMIx_Spawn_nb(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[],
                            size_t napps, pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    spawn_req_t *r;
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL == apps || 0 == napps || (NULL == job_info && 0 < ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < napps; i++) {
        if (NULL == apps[i].cmd || '\0' == apps[i].cmd[0] || apps[i].maxprocs < 0) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_client.singleton) {
        return PMIX_ERR_NOT_SUPPORTED; /* no launcher to start anything */
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    PMIX_APP_CREATE(r->apps, napps);
    if (NULL == r->apps) {
        req_free(r);
        return PMIX_ERR_NOMEM;
    }
    r->napps = napps;
    rc = wu_data_elems_copy(r->apps, apps, napps, PMIX_APP);
    if (PMIX_SUCCESS == rc) {
        rc = wu_info_dup(&r->info, &r->ninfo, job_info, ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_shift(spawn_send, r);
    }
    if (PMIX_SUCCESS != rc) {
        req_free(r);
    }
    return rc;
}

typedef struct {
    wu_wait_t w;
    char *nspace; /* the caller's pmix_nspace_t, or NULL */
} spawn_wait_t;

static void spawn_done(pmix_status_t status, pmix_nspace_t nspace, void *cbdata)
{
    spawn_wait_t *sw = cbdata;
    if (PMIX_SUCCESS == status && NULL != sw->nspace) {
        PMIX_LOAD_NSPACE(sw->nspace, nspace);
    }
    wu_wait_release(&sw->w, status);
}

pmix_status_t PMIx_Spawn(const pmix_info_t job_info[], size_t ninfo, const pmix_app_t apps[],
                         size_t napps, pmix_nspace_t nspace)
{
    spawn_wait_t sw = {.nspace = nspace};
    pmix_status_t rc;
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&sw.w);
    rc = PMIx_Spawn_nb(job_info, ninfo, apps, napps, spawn_done, &sw);
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&sw.w, 0);
    }
    wu_wait_destroy(&sw.w);
    return rc;
}
