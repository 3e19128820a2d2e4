/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_pubsub.c -- PUBLISH, LOOKUP and UNPUBLISH (wu_proto.h): a client's (or an OpenPMIx
 * tool's) request goes to the host's publish, lookup or unpublish upcall, with its PMIX_USERID
 * and PMIX_GRPID added to its directives as the Standard requires; the host's answer goes
 * back. The data service is the host's: without the upcall the answer is PMIX_ERR_NOT_SUPPORTED. */
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

static void status_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

static void lookup_done(wu_srv_op_t *op)
{
    wu_buffer_t body;
    pmix_status_t st = op->status;
    if (PMIX_SUCCESS != st && PMIX_ERR_PARTIAL_SUCCESS != st) {
        wu_srv_reply(op->conn, op->tag, st, NULL);
        return;
    }
    wu_buffer_construct(&body);
    if (PMIX_SUCCESS != wu_proto_pack_list(&body, op->pdata, op->npdata, PMIX_PDATA)) {
        wu_srv_reply(op->conn, op->tag, PMIX_ERR_NOMEM, NULL);
    } else {
        wu_srv_reply(op->conn, op->tag, st, &body);
    }
    wu_buffer_destruct(&body);
}

/* The directives (or data) with the requester's PMIX_USERID and PMIX_GRPID appended, in *out. */
static pmix_status_t with_ids(uint32_t uid, uint32_t gid, const pmix_info_t *in, size_t n,
                              pmix_info_t **out, size_t *nout)
{
    pmix_info_t *a;
    PMIX_INFO_CREATE(a, n + 2);
    if (NULL == a) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (PMIX_SUCCESS != wu_info_copy(&a[i], &in[i])) {
            PMIX_INFO_FREE(a, n + 2);
            return PMIX_ERR_NOMEM;
        }
    }
    PMIX_INFO_LOAD(&a[n], PMIX_USERID, &uid, PMIX_UINT32);
    PMIX_INFO_LOAD(&a[n + 1], PMIX_GRPID, &gid, PMIX_UINT32);
    *out = a;
    *nout = n + 2;
    return PMIX_SUCCESS;
}

/* The keys of a request (nkeys strings) as the NULL-terminated array the upcalls take, which
 * takes over the strings (NULL when there are none); PMIX_ERR_BAD_PARAM for a key that cannot
 * be one. keys is freed either way. */
static pmix_status_t keys_argv(char **keys, size_t nkeys, char ***out)
{
    char **argv = NULL;
    pmix_status_t rc = PMIX_SUCCESS;
    *out = NULL;
    if (0 < nkeys && NULL == (argv = calloc(nkeys + 1, sizeof *argv))) {
        rc = PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < nkeys; i++) {
        if (PMIX_SUCCESS == rc &&
            (NULL == keys[i] || '\0' == keys[i][0] || strlen(keys[i]) > PMIX_MAX_KEYLEN)) {
            rc = PMIX_ERR_BAD_PARAM;
        }
        if (PMIX_SUCCESS == rc) {
            argv[i] = keys[i];
        } else {
            free(keys[i]);
        }
    }
    free(keys);
    if (PMIX_SUCCESS != rc) {
        for (size_t i = 0; NULL != argv && NULL != argv[i]; i++) {
            free(argv[i]);
        }
        free(argv);
        return rc;
    }
    *out = argv;
    return PMIX_SUCCESS;
}

/* PUBLISH, LOOKUP and UNPUBLISH: unpack, check, and start the upcall. */
static int pubsub(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b, uint8_t cmd)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    char **keys = NULL, **argv = NULL;
    size_t nkeys = 0, ninfo = 0, nall = 0;
    pmix_info_t *info = NULL, *all = NULL;
    wu_srv_op_t *op = NULL;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if ((WU_CMD_PUBLISH != cmd &&
         PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&keys, &nkeys, PMIX_STRING)) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&info, &ninfo, PMIX_INFO) ||
        0 != wu_buffer_remaining(b)) {
        goto out;
    }
    rc = keys_argv(keys, nkeys, &argv);
    keys = NULL;
    if (PMIX_SUCCESS != rc) {
        goto out;
    }
    if ((WU_CMD_PUBLISH == cmd && 0 == ninfo) || (WU_CMD_LOOKUP == cmd && 0 == nkeys)) {
        rc = PMIX_ERR_BAD_PARAM;
        goto out;
    }
    if (NULL == cl && !peer->tool) {
        rc = PMIX_ERR_NOT_FOUND;
        goto out;
    }
    if ((WU_CMD_PUBLISH == cmd && NULL == wu_srv.host.publish) ||
        (WU_CMD_LOOKUP == cmd && NULL == wu_srv.host.lookup) ||
        (WU_CMD_UNPUBLISH == cmd && NULL == wu_srv.host.unpublish)) {
        rc = PMIX_ERR_NOT_SUPPORTED; /* no data service */
        goto out;
    }
    /* a client's registered ids, or a tool's as the kernel told them */
    if (PMIX_SUCCESS != (rc = with_ids(NULL != cl ? (uint32_t)cl->uid : (uint32_t)peer->uid,
                                       NULL != cl ? (uint32_t)cl->gid : (uint32_t)peer->gid, info,
                                       ninfo, &all, &nall))) {
        goto out;
    }
    if (NULL ==
        (op = wu_srv_op_new(WU_CMD_LOOKUP == cmd ? lookup_done : status_done, peer->conn, tag))) {
        rc = PMIX_ERR_NOMEM;
        goto out;
    }
    op->proc = peer->proc;
    op->req_info = all; /* kept until the host answers */
    op->nreq_info = nall;
    op->req_keys = argv;
    all = NULL;
    argv = NULL;
    if (WU_CMD_PUBLISH == cmd) {
        rc = wu_srv.host.publish(&op->proc, op->req_info, op->nreq_info, wu_srv_op_cb, op);
    } else if (WU_CMD_LOOKUP == cmd) {
        rc = wu_srv.host.lookup(&op->proc, op->req_keys, op->req_info, op->nreq_info,
                                wu_srv_op_lookup_cb, op);
    } else {
        rc = wu_srv.host.unpublish(&op->proc, op->req_keys, op->req_info, op->nreq_info,
                                   wu_srv_op_cb, op);
    }
    wu_srv_op_started(op, rc);
    rc = PMIX_SUCCESS; /* answered by the op */
out:
    for (size_t i = 0; NULL != argv && NULL != argv[i]; i++) {
        free(argv[i]);
    }
    free(argv);
    for (size_t i = 0; NULL != keys && i < nkeys; i++) {
        free(keys[i]);
    }
    free(keys);
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    if (NULL != all) {
        PMIX_INFO_FREE(all, nall);
    }
    return rc;
}

int wu_srv_cmd_publish(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    return pubsub(peer, tag, b, WU_CMD_PUBLISH);
}

int wu_srv_cmd_lookup(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    return pubsub(peer, tag, b, WU_CMD_LOOKUP);
}

int wu_srv_cmd_unpublish(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    return pubsub(peer, tag, b, WU_CMD_UNPUBLISH);
}
