/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_event.c -- events in the server: its runtime for pmix/event (wu_srv_event_rt), a
 * client's NOTIFY request (WU_CMD_NOTIFY), and the NOTIFY messages the server sends its clients
 * (tag 0, see wu_proto.h).
 *
 * A client's event goes to every other connected client the range covers. Ranges that may
 * reach beyond this node (namespace, session, global, custom, RM, undefined) also go to the
 * host's notify_event upcall, whose status answers the request. A host without that upcall
 * (Slurm's) cannot take them beyond this node: the clients of this node the range covers get
 * them, as with OpenPMIx, and the request is answered PMIX_ERR_NOT_SUPPORTED (the Standard's
 * answer when the host does not take notifications; OpenPMIx answers PMIX_SUCCESS). A host
 * that relays an event to other nodes must not hand it back to the server it came from, whose
 * clients have it already. Every event passed to the clients is then kept
 * (wu_server_evcache.c): cached when it is an environment event, held for the clients it is
 * for that have not connected yet when it is job-specific. */
#include "opal/util/wu_output.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/event/wu_event.h"
#include "pmix/server/wu_server.h"

#include <stdlib.h>

bool wu_srv_event_covers(const wu_srv_client_t *cl, const pmix_proc_t *source,
                         pmix_data_range_t range, const pmix_info_t *info, size_t ninfo)
{
    if (wu_event_has_custom_range(info, ninfo)) {
        return wu_event_in_custom_range(&cl->proc, info, ninfo); /* whatever the range says */
    }
    switch (range) {
    case PMIX_RANGE_NAMESPACE:
        return PMIX_CHECK_NSPACE(cl->proc.nspace, source->nspace);
    case PMIX_RANGE_CUSTOM: /* without its processes: nobody */
    case PMIX_RANGE_RM:
    case PMIX_RANGE_PROC_LOCAL:
        return false;
    default: /* local, session, global, undefined: every client of this node */
        return true;
    }
}

/* The message for an event: the command (NOTIFY, or REGISTER_EVENTS with the handler's ref),
 * then the NOTIFY fields. */
static pmix_status_t pack_event(wu_buffer_t *b, const size_t *ref, pmix_status_t status,
                                const pmix_proc_t *source, pmix_data_range_t range,
                                const pmix_info_t *info, size_t ninfo)
{
    uint8_t cmd = NULL != ref ? WU_CMD_REGISTER_EVENTS : WU_CMD_NOTIFY;
    pmix_status_t rc = wu_pack(b, &cmd, 1, PMIX_UINT8);
    if (PMIX_SUCCESS == rc && NULL != ref) {
        rc = wu_pack(b, ref, 1, PMIX_SIZE);
    }
    return PMIX_SUCCESS == rc ? wu_event_pack(b, status, source, range, info, ninfo) : rc;
}

/* Send the packed event to cl if it is connected. */
static bool send_packed(wu_srv_client_t *cl, pmix_status_t status, const wu_buffer_t *b)
{
    char who[PMIX_MAX_NSLEN + 16];
    if (WU_SRV_CL_CONNECTED != cl->state || NULL == cl->conn) {
        return false;
    }
    wu_output_verbose(WU_VERB_TRACE, wu_srv.out, "server: event %s to %s",
                      PMIx_Error_string(status), wu_srv_proc_str(&cl->proc, who, sizeof who));
    /* a client whose connection fails is handled by its closed callback */
    if (wu_ptl_conn_foreign(cl->conn)) {
        return wu_srv_opmix_event(cl->conn, b);
    }
    return WU_SUCCESS == wu_ptl_send(cl->conn, 0, 0, b->base, b->used);
}

bool wu_srv_event_send(wu_srv_client_t *cl, const size_t *ref, const wu_event_rec_t *ev)
{
    wu_buffer_t b;
    bool sent = false;
    wu_buffer_construct(&b);
    if (PMIX_SUCCESS ==
        pack_event(&b, ref, ev->status, &ev->source, ev->range, ev->info, ev->ninfo)) {
        sent = send_packed(cl, ev->status, &b);
    }
    wu_buffer_destruct(&b);
    return sent;
}

/* Send the event to the connected local clients the range covers, except skip (may be NULL),
 * and keep it for later. */
static void dispatch(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                     const pmix_info_t *info, size_t ninfo, const pmix_proc_t *skip)
{
    wu_buffer_t b;

    wu_buffer_construct(&b);
    if (PMIX_SUCCESS == pack_event(&b, NULL, status, source, range, info, ninfo)) {
        for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
            if ((NULL == skip || !PMIX_CHECK_PROCID(&cl->proc, skip)) &&
                wu_srv_event_covers(cl, source, range, info, ninfo)) {
                (void)send_packed(cl, status, &b);
            }
        }
    }
    wu_buffer_destruct(&b);
    wu_srv_event_keep(status, source, range, info, ninfo, skip);
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
    const pmix_proc_t *targets;
    wu_srv_op_t *op;

    if (PMIX_SUCCESS != wu_event_unpack(b, &status, &source, &range, &info, &ninfo) ||
        PMIX_RANGE_PROC_LOCAL == range ||
        (PMIX_RANGE_CUSTOM == range &&
         0 == wu_event_procs(info, ninfo, PMIX_EVENT_CUSTOM_RANGE, &targets))) {
        rc = PMIX_ERR_BAD_PARAM;
        goto out;
    }
    dispatch(status, &source, range, info, ninfo, &peer->proc);
    if (PMIX_RANGE_LOCAL != range && NULL == wu_srv.host.notify_event) {
        rc = PMIX_ERR_NOT_SUPPORTED; /* only the host could take it beyond this node */
        goto out;
    }
    if (PMIX_RANGE_LOCAL == range) {
        wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
        rc = PMIX_SUCCESS;
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
    dispatch(status, source, range, info, ninfo, NULL);
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
    .register_hdlr = NULL, /* the server process's handlers hear what its host notifies */
};
