/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_blk.c -- the blocking form of a call whose _nb form answers through an info, a
 * validation or an op callback (wu_client.h wu_client_blk_t): the caller's results cleared
 * first, a copy of the callback's infos made for it, freed again when the call fails. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_value.h"

pmix_status_t wu_client_blk_begin(wu_client_blk_t *b, pmix_info_t **res, size_t *nres)
{
    if ((NULL == res) != (NULL == nres)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != res) {
        *res = NULL;
        *nres = 0;
    }
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK; /* from a callback: the thread cannot wait for itself */
    }
    b->res = res;
    b->nres = nres;
    wu_wait_init(&b->w);
    return PMIX_SUCCESS;
}

void wu_client_blk_valid(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    wu_client_blk_t *b = cbdata;
    if (PMIX_SUCCESS == status && NULL != b->res) {
        status = wu_info_dup(b->res, b->nres, info, ninfo);
    }
    wu_wait_release(&b->w, status);
}

void wu_client_blk_info(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                        pmix_release_cbfunc_t relfn, void *relcbdata)
{
    wu_client_blk_valid(status, info, ninfo, cbdata);
    if (NULL != relfn) {
        relfn(relcbdata);
    }
}

void wu_client_blk_op(pmix_status_t status, void *cbdata)
{
    wu_client_blk_t *b = cbdata;
    wu_wait_release(&b->w, status);
}

pmix_status_t wu_client_blk_wait(wu_client_blk_t *b, pmix_status_t rc)
{
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&b->w, 0);
    }
    wu_wait_destroy(&b->w);
    if (PMIX_SUCCESS != rc && NULL != b->res && NULL != *b->res) {
        PMIX_INFO_FREE(*b->res, *b->nres);
        *b->res = NULL;
        *b->nres = 0;
    }
    return rc;
}
