/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_pubsub.c -- PMIx_Publish, PMIx_Lookup and PMIx_Unpublish (blocking and _nb).
 *
 * The data service is the host's (the server passes each request to its publish, lookup and
 * unpublish upcalls; wrun keeps the data on the head node, docs/architecture.md): the client
 * checks the arguments, sends the request (wu_proto.h WU_CMD_PUBLISH, _LOOKUP, _UNPUBLISH) from
 * the progress thread and hands the answer to the callback there. A singleton has no data
 * service: PMIX_ERR_NOT_SUPPORTED. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdlib.h>
#include <string.h>

/* One request of any of the three. */
typedef struct {
    uint8_t cmd;
    pmix_info_t *info; /* publish: data and directives; others: directives */
    size_t ninfo;
    char **keys; /* lookup, unpublish (NULL-terminated; NULL: unpublish all) */
    size_t nkeys;
    pmix_op_cbfunc_t opcb;         /* publish, unpublish */
    pmix_lookup_cbfunc_t lookupcb; /* lookup */
    void *cbdata;
} ps_req_t;

static void req_free(ps_req_t *r)
{
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    for (size_t i = 0; i < r->nkeys; i++) {
        free(r->keys[i]);
    }
    free(r->keys);
    free(r);
}

static void req_finish(ps_req_t *r, pmix_status_t status, pmix_pdata_t *pdata, size_t npdata)
{
    if (WU_CMD_LOOKUP == r->cmd) {
        if (NULL != r->lookupcb) {
            r->lookupcb(status, pdata, npdata, r->cbdata);
        }
    } else if (NULL != r->opcb) {
        r->opcb(status, r->cbdata);
    }
    req_free(r);
}

static void ps_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    ps_req_t *r = cbdata;
    pmix_pdata_t *pdata = NULL;
    size_t npdata = 0;
    if (WU_CMD_LOOKUP == r->cmd && NULL != reply &&
        (PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status)) {
        int rc = wu_proto_unpack_list(reply, (void **)&pdata, &npdata, PMIX_PDATA);
        if (PMIX_SUCCESS != rc || 0 != wu_buffer_remaining(reply)) {
            status = PMIX_ERR_UNPACK_FAILURE;
        }
    }
    req_finish(r, PMIX_OPERATION_SUCCEEDED == status ? PMIX_SUCCESS : status,
               PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status ? pdata : NULL,
               PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status ? npdata : 0);
    if (NULL != pdata) {
        PMIX_PDATA_FREE(pdata, npdata);
    }
}

static void ps_send(void *arg)
{
    ps_req_t *r = arg;
    wu_buffer_t b;
    int rc = wu_client_msg_start(&b, r->cmd);
    if (PMIX_SUCCESS == rc && WU_CMD_PUBLISH != r->cmd) {
        rc = wu_proto_pack_list(&b, r->keys, r->nkeys, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, r->info, r->ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, ps_reply, r);
    }
    if (PMIX_SUCCESS != rc) {
        req_finish(r, rc, NULL, 0);
    }
}

/* A request with copies of the caller's arguments, or NULL (out of memory). */
static ps_req_t *req_new(uint8_t cmd, char *const *keys, const pmix_info_t info[], size_t ninfo)
{
    ps_req_t *r = calloc(1, sizeof *r);
    if (NULL == r) {
        return NULL;
    }
    r->cmd = cmd;
    for (size_t n = 0; NULL != keys && NULL != keys[n]; n++) {
        r->nkeys++;
    }
    if (0 < r->nkeys && NULL == (r->keys = calloc(r->nkeys + 1, sizeof *r->keys))) {
        free(r);
        return NULL;
    }
    for (size_t i = 0; i < r->nkeys; i++) {
        if (NULL == (r->keys[i] = strdup(keys[i]))) {
            r->nkeys = i;
            req_free(r);
            return NULL;
        }
    }
    if (0 < ninfo) {
        PMIX_INFO_CREATE(r->info, ninfo);
        if (NULL == r->info) {
            req_free(r);
            return NULL;
        }
        r->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_SUCCESS != wu_info_copy(&r->info[i], &info[i])) {
                req_free(r);
                return NULL;
            }
        }
    }
    return r;
}

/* Checks shared by the three; then the request goes to the progress thread. */
static pmix_status_t ps_start(ps_req_t *r)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (!wu_client_ready()) {
        rc = PMIX_ERR_INIT;
    } else if (wu_client.singleton) {
        rc = PMIX_ERR_NOT_SUPPORTED; /* no server, so no data service */
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < r->nkeys; i++) {
        if (!wu_key_ok(r->keys[i])) {
            rc = PMIX_ERR_BAD_PARAM;
        }
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < r->ninfo; i++) {
        if (!wu_key_ok(r->info[i].key)) {
            rc = PMIX_ERR_BAD_PARAM;
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_shift(ps_send, r);
    }
    if (PMIX_SUCCESS != rc) {
        req_free(r);
    }
    return rc;
}

/* ---- blocking forms: the _nb form and a wait ---------------------------------------------- */

typedef struct {
    wu_wait_t w;
    pmix_pdata_t *data; /* lookup: the caller's array, */
    size_t ndata;
    bool *filled; /* and which of its entries got an answer */
} ps_wait_t;

static void op_done(pmix_status_t status, void *cbdata)
{
    wu_wait_release(&((ps_wait_t *)cbdata)->w, status);
}

static pmix_status_t wait_for(ps_wait_t *pw, pmix_status_t rc)
{
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&pw->w, 0);
    }
    wu_wait_destroy(&pw->w);
    return rc;
}

static bool may_block(void)
{
    return !(wu_client_ready() && wu_progress_in_thread(wu_client.pt));
}

pmix_status_t PMIx_Publish_nb(const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                              void *cbdata)
{
    ps_req_t *r;
    if (NULL == info || 0 == ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = req_new(WU_CMD_PUBLISH, NULL, info, ninfo))) {
        return PMIX_ERR_NOMEM;
    }
    r->opcb = cbfunc;
    r->cbdata = cbdata;
    return ps_start(r);
}

pmix_status_t PMIx_Publish(const pmix_info_t info[], size_t ninfo)
{
    ps_wait_t pw;
    if (!may_block()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&pw.w);
    return wait_for(&pw, PMIx_Publish_nb(info, ninfo, op_done, &pw));
}

pmix_status_t PMIx_Lookup_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                             pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    ps_req_t *r;
    if (NULL == keys || NULL == keys[0] || (NULL == info && 0 < ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = req_new(WU_CMD_LOOKUP, keys, info, ninfo))) {
        return PMIX_ERR_NOMEM;
    }
    r->lookupcb = cbfunc;
    r->cbdata = cbdata;
    return ps_start(r);
}

/* The lookup's answer into the caller's array: each found key's publisher and value. */
static void lookup_done(pmix_status_t status, pmix_pdata_t pdata[], size_t npdata, void *cbdata)
{
    ps_wait_t *pw = cbdata;
    for (size_t i = 0; i < npdata; i++) {
        for (size_t k = 0; k < pw->ndata; k++) {
            if (PMIX_CHECK_KEY(&pw->data[k], pdata[i].key) && !pw->filled[k]) {
                pw->filled[k] = true;
                pw->data[k].proc = pdata[i].proc;
                if (PMIX_SUCCESS != PMIx_Value_xfer(&pw->data[k].value, &pdata[i].value)) {
                    status = PMIX_ERR_NOMEM;
                }
                break;
            }
        }
    }
    wu_wait_release(&pw->w, status);
}

pmix_status_t PMIx_Lookup(pmix_pdata_t data[], size_t ndata, const pmix_info_t info[], size_t ninfo)
{
    ps_wait_t pw = {.data = data, .ndata = ndata};
    char **keys;
    pmix_status_t rc;
    if (NULL == data || 0 == ndata) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!may_block()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    keys = calloc(ndata + 1, sizeof *keys);
    pw.filled = calloc(ndata, sizeof *pw.filled);
    if (NULL == keys || NULL == pw.filled) {
        free(keys);
        free(pw.filled);
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ndata; i++) {
        keys[i] = data[i].key; /* req_new copies them */
    }
    wu_wait_init(&pw.w);
    rc = wait_for(&pw, PMIx_Lookup_nb(keys, info, ninfo, lookup_done, &pw));
    free(keys);
    free(pw.filled);
    return rc;
}

pmix_status_t PMIx_Unpublish_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ps_req_t *r;
    if (NULL == info && 0 < ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (r = req_new(WU_CMD_UNPUBLISH, keys, info, ninfo))) {
        return PMIX_ERR_NOMEM;
    }
    r->opcb = cbfunc;
    r->cbdata = cbdata;
    return ps_start(r);
}

pmix_status_t PMIx_Unpublish(char **keys, const pmix_info_t info[], size_t ninfo)
{
    ps_wait_t pw;
    if (!may_block()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&pw.w);
    return wait_for(&pw, PMIx_Unpublish_nb(keys, info, ninfo, op_done, &pw));
}
