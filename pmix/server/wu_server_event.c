/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_event.c -- events in the server: its runtime for pmix/event (wu_srv_event_rt), a
 * client's NOTIFY request (WU_CMD_NOTIFY), and the NOTIFY messages the server sends its clients
 * (tag 0, see wu_proto.h).
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
#include "pmix/server/wu_server.h"

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

/* Send the event to the connected local clients the range covers, except skip (may be NULL). */
static void send_clients(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
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
    send_clients(status, &source, range, info, ninfo, &peer->proc);
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

/* ---- the runtime of pmix/event --------------------------------------------------------------- */

static bool rt_ready(void)
{
    return wu_srv.initialized;
}

static int rt_shift(wu_shift_fn_t fn, void *arg)
{
    return WU_SUCCESS == wu_progress_shift(wu_srv.pt, fn, arg) ? PMIX_SUCCESS : PMIX_ERR_INIT;
}

static int rt_wait_call(wu_wait_call_fn_t fn, void *arg)
{
    return wu_progress_shift_wait(wu_srv.pt, fn, arg, 0);
}

static bool rt_in_thread(void)
{
    return wu_progress_in_thread(wu_srv.pt);
}

/* The server process's own handlers hear every event it notifies: the host is the caller. */
static bool rt_covers(pmix_data_range_t range, const pmix_info_t *info, size_t ninfo)
{
    (void)range;
    (void)info;
    (void)ninfo;
    return true;
}

/* The covered local clients; the host is not called back. */
static pmix_status_t rt_forward(pmix_status_t status, const pmix_proc_t *source,
                                pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                                pmix_op_cbfunc_t done, void *cbdata)
{
    (void)done;
    (void)cbdata;
    send_clients(status, source, range, info, ninfo, NULL);
    return PMIX_OPERATION_SUCCEEDED;
}

const wu_event_rt_t wu_srv_event_rt = {
    .ready = rt_ready,
    .shift = rt_shift,
    .wait_call = rt_wait_call,
    .in_thread = rt_in_thread,
    .me = &wu_srv.me,
    .covers = rt_covers,
    .forward = rt_forward,
};
