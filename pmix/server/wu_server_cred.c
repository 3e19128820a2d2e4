/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_cred.c -- GET_CRED and VALIDATE_CRED (wu_proto.h): PMIx_Get_credential and
 * PMIx_Validate_credential of a client. A host with the get_credential / validate_credential
 * upcalls answers them; otherwise the server's psec does: it issues a credential naming the
 * identity it verified when the client connected (the registered uid and gid, namespace and
 * rank) and validates the ones it issued, or that another server of the job issued when the
 * host handed them a shared secret (wu_server_set_cred_secret, psec.h). */
#include "mca/psec/psec.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

/* Reply: a credential (may be NULL for a failure) and the info about it. */
static void reply_cred(wu_srv_op_t *op, pmix_status_t st, const char *cred, size_t len,
                       const pmix_info_t *info, size_t ninfo)
{
    wu_buffer_t body;
    pmix_byte_object_t bo = {.bytes = (char *)cred, .size = len};
    if (PMIX_SUCCESS != st) {
        wu_srv_reply(op->conn, op->tag, st, NULL);
        return;
    }
    wu_buffer_construct(&body);
    if (PMIX_SUCCESS != wu_pack(&body, &bo, 1, PMIX_BYTE_OBJECT) ||
        PMIX_SUCCESS != wu_proto_pack_list(&body, (void *)info, ninfo, PMIX_INFO)) {
        wu_srv_reply(op->conn, op->tag, PMIX_ERR_NOMEM, NULL);
    } else {
        wu_srv_reply(op->conn, op->tag, PMIX_SUCCESS, &body);
    }
    wu_buffer_destruct(&body);
}

static void cred_done(wu_srv_op_t *op)
{
    reply_cred(op, op->status, op->data, op->ndata, op->info, op->ninfo);
}

static void info_done(wu_srv_op_t *op)
{
    wu_buffer_t body;
    if (PMIX_SUCCESS != op->status) {
        wu_srv_reply(op->conn, op->tag, op->status, NULL);
        return;
    }
    wu_buffer_construct(&body);
    if (PMIX_SUCCESS != wu_proto_pack_list(&body, op->info, op->ninfo, PMIX_INFO)) {
        wu_srv_reply(op->conn, op->tag, PMIX_ERR_NOMEM, NULL);
    } else {
        wu_srv_reply(op->conn, op->tag, PMIX_SUCCESS, &body);
    }
    wu_buffer_destruct(&body);
}

/* Does a PMIX_CRED_TYPE directive (a comma-separated list of types), if any, admit mode? */
static bool type_wanted(const pmix_info_t *info, size_t ninfo, const char *mode)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_CRED_TYPE) && PMIX_STRING == info[i].value.type &&
            NULL != info[i].value.data.string) {
            const char *p = info[i].value.data.string;
            size_t n = strlen(mode);
            while ('\0' != *p) {
                size_t len = strcspn(p, ",");
                if (len == n && 0 == strncmp(p, mode, n)) {
                    return true;
                }
                p += len + (',' == p[len]);
            }
            return false;
        }
    }
    return true;
}

/* The op for a host upcall: the requester's identity, its directives kept until the host
 * answers. NULL when out of memory. */
static wu_srv_op_t *host_op(wu_srv_op_fn_t done, wu_srv_peer_t *peer, uint32_t tag,
                            pmix_info_t **info, size_t ninfo)
{
    wu_srv_op_t *op = wu_srv_op_new(done, peer->conn, tag);
    if (NULL != op) {
        op->proc = peer->proc;
        op->req_info = *info;
        op->nreq_info = ninfo;
        *info = NULL;
    }
    return op;
}

/* The psec answer to GET_CRED for client cl. */
static void own_cred(wu_srv_op_t *op, const wu_srv_client_t *cl, const pmix_info_t *info,
                     size_t ninfo)
{
    const char *mode = wu_psec_base_mode();
    wu_psec_id_t who = {.uid = cl->uid, .gid = cl->gid, .rank = cl->proc.rank};
    pmix_info_t about;
    char *cred = NULL;
    size_t len = 0;
    int rc;

    if (NULL == mode || !type_wanted(info, ninfo, mode)) {
        reply_cred(op, PMIX_ERR_NOT_SUPPORTED, NULL, 0, NULL, 0);
        return;
    }
    PMIX_LOAD_NSPACE(who.nspace, cl->proc.nspace);
    rc = wu_psec_base_issue_cred(&who, &cred, &len);
    if (WU_SUCCESS != rc) {
        reply_cred(op, WU_ERR_INIT == rc ? PMIX_ERR_NOT_SUPPORTED : rc, NULL, 0, NULL, 0);
        return;
    }
    PMIX_INFO_LOAD(&about, PMIX_CRED_TYPE, mode, PMIX_STRING);
    reply_cred(op, PMIX_SUCCESS, cred, len, &about, 1);
    PMIX_INFO_DESTRUCT(&about);
    free(cred);
}

int wu_srv_cmd_get_cred(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    wu_srv_op_t *op;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&info, &ninfo, PMIX_INFO) ||
        0 != wu_buffer_remaining(b)) {
        goto out;
    }
    if (NULL == cl) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (NULL != wu_srv.host.get_credential) {
        if (NULL == (op = host_op(cred_done, peer, tag, &info, ninfo))) {
            rc = PMIX_ERR_NOMEM;
        } else {
            rc = wu_srv.host.get_credential(&op->proc, op->req_info, op->nreq_info,
                                            wu_srv_op_cred_cb, op);
            wu_srv_op_started(op, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_ERR_NOT_SUPPORTED : rc);
            rc = PMIX_SUCCESS;
        }
    } else {
        wu_srv_op_t self = {.conn = peer->conn, .tag = tag};
        own_cred(&self, cl, info, ninfo);
        rc = PMIX_SUCCESS;
    }
out:
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}

/* The psec answer to VALIDATE_CRED. */
static void own_check(wu_srv_op_t *op, const pmix_byte_object_t *cred)
{
    wu_psec_id_t who;
    pmix_info_t about[4];
    pmix_proc_t proc;
    uint32_t uid, gid;
    const char *mode = wu_psec_base_mode();
    int rc = wu_psec_base_check_cred(cred->bytes, cred->size, &who);

    if (WU_SUCCESS != rc) {
        op->status = WU_ERR_INIT == rc ? PMIX_ERR_NOT_SUPPORTED : rc;
        info_done(op);
        return;
    }
    uid = (uint32_t)who.uid;
    gid = (uint32_t)who.gid;
    PMIX_LOAD_PROCID(&proc, who.nspace, who.rank);
    PMIX_INFO_LOAD(&about[0], PMIX_USERID, &uid, PMIX_UINT32);
    PMIX_INFO_LOAD(&about[1], PMIX_GRPID, &gid, PMIX_UINT32);
    PMIX_INFO_LOAD(&about[2], PMIX_PROCID, &proc, PMIX_PROC);
    PMIX_INFO_LOAD(&about[3], PMIX_CRED_TYPE, mode, PMIX_STRING);
    op->status = PMIX_SUCCESS;
    op->info = about;
    op->ninfo = 4;
    info_done(op);
    for (size_t i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&about[i]);
    }
}

int wu_srv_cmd_validate_cred(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    pmix_byte_object_t cred = {NULL, 0};
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    wu_srv_op_t *op;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (PMIX_SUCCESS != wu_srv_unpack1(b, &cred, PMIX_BYTE_OBJECT) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&info, &ninfo, PMIX_INFO) ||
        0 != wu_buffer_remaining(b)) {
        goto out;
    }
    if (NULL == cl) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (NULL != wu_srv.host.validate_credential) {
        if (NULL == (op = host_op(info_done, peer, tag, &info, ninfo))) {
            rc = PMIX_ERR_NOMEM;
        } else {
            /* the host may keep pointing at the credential until it answers */
            op->req_cred = cred;
            cred.bytes = NULL;
            rc = wu_srv.host.validate_credential(&op->proc, &op->req_cred, op->req_info,
                                                 op->nreq_info, wu_srv_op_valid_cb, op);
            wu_srv_op_started(op, rc); /* PMIX_OPERATION_SUCCEEDED: valid, nothing to say */
            rc = PMIX_SUCCESS;
        }
    } else {
        wu_srv_op_t self = {.conn = peer->conn, .tag = tag};
        own_check(&self, &cred);
        rc = PMIX_SUCCESS;
    }
out:
    free(cred.bytes);
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}

pmix_status_t wu_server_set_cred_secret(const unsigned char *secret, size_t n)
{
    return wu_psec_base_set_cred_secret(secret, n);
}
