/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_event.c -- events in the client: its runtime for pmix/event (wu_client_event_rt),
 * the NOTIFY messages the server sends (tag 0, see wu_proto.h), and the loss of the server. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/event/wu_event.h"

#include <stdlib.h>

void wu_client_event_recv(const void *payload, size_t len)
{
    wu_buffer_t b;
    uint8_t cmd = 0;
    int32_t one = 1;
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info;
    size_t ninfo;

    wu_buffer_construct(&b);
    b.base = (char *)payload; /* a read-only view: never destructed */
    b.used = b.cap = len;
    if (PMIX_SUCCESS != wu_unpack(&b, &cmd, &one, PMIX_UINT8) || WU_CMD_NOTIFY != cmd ||
        PMIX_SUCCESS != wu_event_unpack(&b, &status, &source, &range, &info, &ninfo)) {
        return; /* nothing else is defined; a bad message is dropped */
    }
    (void)wu_event_deliver(status, &source, range, info, ninfo, NULL, NULL);
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
}

void wu_client_event_lost(void)
{
    (void)wu_event_deliver(PMIX_ERR_LOST_CONNECTION, &wu_client.myproc, PMIX_RANGE_PROC_LOCAL, NULL,
                           0, NULL, NULL);
}

/* ---- the runtime of pmix/event --------------------------------------------------------------- */

static bool rt_in_thread(void)
{
    return wu_progress_in_thread(wu_client.pt);
}

/* A singleton is the whole job: every range covers it. */
static bool rt_covers(pmix_data_range_t range, const pmix_info_t *info, size_t ninfo)
{
    if (WU_CLIENT_SINGLETON == wu_client.mode) {
        return true;
    }
    switch (range) {
    case PMIX_RANGE_RM:
        return false;
    case PMIX_RANGE_CUSTOM:
        return wu_event_in_custom_range(&wu_client.myproc, info, ninfo);
    default:
        return true;
    }
}

typedef struct {
    pmix_op_cbfunc_t done;
    void *cbdata;
} forward_t;

static void forward_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    forward_t f = *(forward_t *)cbdata;
    (void)reply;
    free(cbdata);
    f.done(status, f.cbdata);
}

/* To the server, whose reply completes the notification; a singleton has nowhere to send. */
static pmix_status_t rt_forward(pmix_status_t status, const pmix_proc_t *source,
                                pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                                pmix_op_cbfunc_t done, void *cbdata)
{
    wu_buffer_t b;
    forward_t *f;
    pmix_status_t rc;

    if (WU_CLIENT_SINGLETON == wu_client.mode) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    rc = wu_client_msg_start(&b, WU_CMD_NOTIFY);
    if (PMIX_SUCCESS == rc) {
        rc = wu_event_pack(&b, status, source, range, info, ninfo);
    }
    if (PMIX_SUCCESS == rc && NULL == (f = malloc(sizeof *f))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        return rc;
    }
    *f = (forward_t){done, cbdata};
    if (PMIX_SUCCESS != (rc = wu_client_request(&b, 0, forward_reply, f))) {
        free(f);
    }
    return rc;
}

const wu_event_rt_t wu_client_event_rt = {
    .ready = wu_client_ready,
    .shift = wu_client_shift,
    .wait_call = wu_client_wait_call,
    .in_thread = rt_in_thread,
    .me = &wu_client.myproc,
    .covers = rt_covers,
    .forward = rt_forward,
};
