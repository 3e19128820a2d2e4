/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_cred.c -- PMIx_Get_credential and PMIx_Validate_credential (and their _nb forms):
 * both go to the server (wu_proto.h WU_CMD_GET_CRED, WU_CMD_VALIDATE_CRED), whose host or
 * psec issues and checks credentials (wu_server_cred.c). A singleton has no server to vouch
 * for it: PMIX_ERR_UNREACH. What a callback is given is the library's, freed when it returns;
 * the blocking forms hand the caller copies it frees. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int cmd;
    pmix_byte_object_t cred; /* VALIDATE: the credential (a copy) */
    pmix_info_t *info;
    size_t ninfo;
    pmix_credential_cbfunc_t credfn;
    pmix_validation_cbfunc_t validfn;
    void *cbdata;
} cred_req_t;

static void req_free(cred_req_t *r)
{
    free(r->cred.bytes);
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    free(r);
}

static void finish(cred_req_t *r, pmix_status_t status, pmix_byte_object_t *cred, pmix_info_t *info,
                   size_t ninfo)
{
    if (WU_CMD_GET_CRED == r->cmd && NULL != r->credfn) {
        r->credfn(status, PMIX_SUCCESS == status ? cred : NULL, info, ninfo, r->cbdata);
    } else if (WU_CMD_VALIDATE_CRED == r->cmd && NULL != r->validfn) {
        r->validfn(status, info, ninfo, r->cbdata);
    }
    req_free(r);
}

static void cred_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    cred_req_t *r = cbdata;
    pmix_byte_object_t cred = {NULL, 0};
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    int32_t one = 1;
    if (PMIX_SUCCESS == status) {
        if (NULL == reply ||
            (WU_CMD_GET_CRED == r->cmd &&
             (PMIX_SUCCESS != wu_unpack(reply, &cred, &one, PMIX_BYTE_OBJECT) ||
              NULL == cred.bytes)) ||
            PMIX_SUCCESS != wu_proto_unpack_list(reply, (void **)&info, &ninfo, PMIX_INFO) ||
            0 != wu_buffer_remaining(reply)) {
            status = PMIX_ERR_UNPACK_FAILURE;
        }
    }
    finish(r, status, &cred, info, ninfo);
    free(cred.bytes);
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
}

static void cred_send(void *arg)
{
    cred_req_t *r = arg;
    wu_buffer_t b;
    int rc = wu_client_msg_start(&b, r->cmd);
    if (PMIX_SUCCESS == rc && WU_CMD_VALIDATE_CRED == r->cmd) {
        rc = wu_pack(&b, &r->cred, 1, PMIX_BYTE_OBJECT);
    }
    rc = PMIX_SUCCESS == rc ? wu_proto_pack_list(&b, r->info, r->ninfo, PMIX_INFO) : rc;
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, cred_reply, r);
    }
    if (PMIX_SUCCESS != rc) {
        finish(r, rc, NULL, NULL, 0);
    }
}

/* Check the state, copy the directives and send; r is freed on failure. */
static pmix_status_t start(cred_req_t *r, const pmix_info_t info[], size_t ninfo)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (!wu_client_ready()) {
        rc = PMIX_ERR_INIT;
    } else if (wu_client.singleton) {
        rc = PMIX_ERR_UNREACH; /* no server to issue or check a credential */
    } else {
        rc = wu_info_dup(&r->info, &r->ninfo, info, ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_shift(cred_send, r);
    }
    if (PMIX_SUCCESS != rc) {
        req_free(r);
    }
    return rc;
}

pmix_status_t PMIx_Get_credential_nb(const pmix_info_t info[], size_t ninfo,
                                     pmix_credential_cbfunc_t cbfunc, void *cbdata)
{
    cred_req_t *r;
    if ((NULL == info && 0 < ninfo) || NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    r->cmd = WU_CMD_GET_CRED;
    r->credfn = cbfunc;
    r->cbdata = cbdata;
    return start(r, info, ninfo);
}

pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t *cred, const pmix_info_t info[],
                                          size_t ninfo, pmix_validation_cbfunc_t cbfunc,
                                          void *cbdata)
{
    cred_req_t *r;
    if (NULL == cred || NULL == cred->bytes || 0 == cred->size || (NULL == info && 0 < ninfo) ||
        NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        return PMIX_ERR_NOMEM;
    }
    r->cmd = WU_CMD_VALIDATE_CRED;
    r->validfn = cbfunc;
    r->cbdata = cbdata;
    if (NULL == (r->cred.bytes = malloc(cred->size))) {
        free(r);
        return PMIX_ERR_NOMEM;
    }
    memcpy(r->cred.bytes, cred->bytes, cred->size);
    r->cred.size = cred->size;
    return start(r, info, ninfo);
}

/* ---- the blocking forms ------------------------------------------------------------------ */

typedef struct {
    wu_wait_t w;
    pmix_byte_object_t *cred; /* the caller's */
} cred_wait_t;

static void got_cred(pmix_status_t status, pmix_byte_object_t *cred, pmix_info_t info[],
                     size_t ninfo, void *cbdata)
{
    cred_wait_t *cw = cbdata;
    (void)info, (void)ninfo;
    if (PMIX_SUCCESS == status) {
        if (NULL == (cw->cred->bytes = malloc(cred->size))) {
            status = PMIX_ERR_NOMEM;
        } else {
            memcpy(cw->cred->bytes, cred->bytes, cred->size);
            cw->cred->size = cred->size;
        }
    }
    wu_wait_release(&cw->w, status);
}

pmix_status_t PMIx_Get_credential(const pmix_info_t info[], size_t ninfo,
                                  pmix_byte_object_t *credential)
{
    cred_wait_t cw = {.cred = credential};
    pmix_status_t rc;
    if (NULL == credential) {
        return PMIX_ERR_BAD_PARAM;
    }
    credential->bytes = NULL;
    credential->size = 0;
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&cw.w);
    rc = PMIx_Get_credential_nb(info, ninfo, got_cred, &cw);
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&cw.w, 0);
    }
    wu_wait_destroy(&cw.w);
    return rc;
}

pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t *cred, const pmix_info_t info[],
                                       size_t ninfo, pmix_info_t **results, size_t *nresults)
{
    wu_client_blk_t b;
    pmix_status_t rc = wu_client_blk_begin(&b, results, nresults);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wu_client_blk_wait(
        &b, PMIx_Validate_credential_nb(cred, info, ninfo, wu_client_blk_valid, &b));
}
