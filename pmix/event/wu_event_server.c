/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event_server.c -- events in the server: a client's NOTIFY request (WU_CMD_NOTIFY), and
 * the NOTIFY messages the server sends its clients (tag 0, see wu_proto.h).
 *
 * A client's event goes to every other connected client the range covers. Ranges that may
 * reach beyond this node (namespace, session, global, custom, RM) also go to the host's
 * notify_event upcall, whose status answers the request; without that upcall the event is
 * complete once delivered here, except PMIX_RANGE_RM (only the host could take it:
 * PMIX_ERR_NOT_SUPPORTED). A host that relays an event to other nodes must not hand it back to
 * the server it came from, whose clients have it already. */
#include "opal/util/wu_output.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/event/wu_event.h"

#include <stdlib.h>

/* Does range cover local client cl, for an event from source? */
static bool covers(const wu_srv_client_t *cl, const pmix_proc_t *source, pmix_data_range_t range,
                   const pmix_info_t *info, size_t ninfo)
{
    switch (range) {
    case PMIX_RANGE_NAMESPACE:
        return PMIX_CHECK_NSPACE(cl->proc.nspace, source->nspace);
    case PMIX_RANGE_CUSTOM:
        return wu_event_in_custom_range(&cl->proc, info, ninfo);
    case PMIX_RANGE_RM:
    case PMIX_RANGE_PROC_LOCAL:
        return false;
    default: /* local, session, global, undefined: every client of this node */
        return true;
    }
}

void wu_event_srv_send(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                       const pmix_info_t *info, size_t ninfo, const pmix_proc_t *skip)
{
    uint8_t cmd = WU_CMD_NOTIFY;
    wu_buffer_t b;
    char who[PMIX_MAX_NSLEN + 16];

    wu_buffer_construct(&b);
    if (PMIX_SUCCESS != wu_pack(&b, &cmd, 1, PMIX_UINT8) ||
        PMIX_SUCCESS != wu_event_pack(&b, status, source, range, info, ninfo)) {
        wu_buffer_destruct(&b);
        return;
    }
    for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
        if (WU_SRV_CL_CONNECTED != cl->state || NULL == cl->conn ||
            (NULL != skip && PMIX_CHECK_PROCID(&cl->proc, skip)) ||
            !covers(cl, source, range, info, ninfo)) {
            continue;
        }
        wu_output_verbose(WU_VERB_TRACE, wu_srv.out, "server: event %s to %s",
                          PMIx_Error_string(status), wu_srv_proc_str(&cl->proc, who, sizeof who));
        /* a client whose connection fails is handled by its closed callback */
        (void)wu_ptl_send(cl->conn, 0, 0, b.base, b.used);
    }
    wu_buffer_destruct(&b);
}

static void notify_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

int wu_srv_cmd_notify(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    pmix_status_t status, rc;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    wu_srv_op_t *op;

    if (PMIX_SUCCESS != wu_event_unpack(b, &status, &source, &range, &info, &ninfo) ||
        PMIX_RANGE_PROC_LOCAL == range) {
        rc = PMIX_ERR_BAD_PARAM;
        goto out;
    }
    wu_event_srv_send(status, &source, range, info, ninfo, &peer->proc);
    if (PMIX_RANGE_LOCAL == range || NULL == wu_srv.host.notify_event) {
        rc = PMIX_RANGE_RM == range ? PMIX_ERR_NOT_SUPPORTED : PMIX_SUCCESS;
        if (PMIX_SUCCESS == rc) {
            wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
        }
        goto out;
    }
    if (NULL == (op = wu_srv_op_new(notify_done, peer->conn, tag))) {
        rc = PMIX_ERR_NOMEM;
        goto out;
    }
    op->proc = source;
    /* the upcall may keep info until its cbfunc: op owns it from here on */
    op->info = info;
    op->ninfo = ninfo;
    info = NULL;
    rc = wu_srv.host.notify_event(status, &op->proc, range, op->info, op->ninfo, wu_srv_op_cb, op);
    wu_srv_op_started(op, rc);
    rc = PMIX_SUCCESS; /* answered by notify_done */
out:
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}
