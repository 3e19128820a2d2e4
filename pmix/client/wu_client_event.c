/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_event.c -- events in the client: its runtime for pmix/event (wu_client_event_rt),
 * the messages the server sends on its own (tag 0, see wu_proto.h: events, and the cached
 * events that answer a registration), handler registrations told to the server, and the events
 * the library raises itself, for this process's handlers only (never sent to the server): the
 * loss of the server (PMIX_ERR_LOST_CONNECTION) and a message from it that could not be read
 * (PMIX_ERR_COMM_FAILURE). */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/event/wu_event.h"

#include <stdlib.h>

/* ---- raised here --------------------------------------------------------------------------- */

/* Deliver an event of the library's own to this process's handlers. */
static void raise_local(pmix_status_t status, const pmix_proc_t *source, const char *text)
{
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    PMIx_Info_load(&info, PMIX_EVENT_TEXT_MESSAGE, text, PMIX_STRING);
    (void)wu_event_deliver(status, source, PMIX_RANGE_PROC_LOCAL, &info, 1, 0, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info);
}

void wu_client_event_lost(void)
{
    raise_local(PMIX_ERR_LOST_CONNECTION, &wu_client.myproc,
                "the connection to the local PMIx server was lost");
}

static void comm_failure_fn(void *arg)
{
    (void)arg;
    raise_local(PMIX_ERR_COMM_FAILURE, &wu_client.server,
                "a message from the local PMIx server could not be read");
}

void wu_client_event_comm_failure(void)
{
    (void)wu_client_shift(comm_failure_fn, NULL); /* not initialized: nobody to tell */
}

/* ---- from the server ----------------------------------------------------------------------- */

void wu_client_event_recv(const void *payload, size_t len)
{
    wu_buffer_t b;
    uint8_t cmd = 0;
    size_t ref = 0;
    int32_t one = 1;
    pmix_status_t status, rc;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;

    wu_buffer_construct(&b);
    b.base = (char *)payload; /* a read-only view: never destructed */
    b.used = b.cap = len;
    rc = wu_unpack(&b, &cmd, &one, PMIX_UINT8);
    if (PMIX_SUCCESS == rc && WU_CMD_REGISTER_EVENTS == cmd) {
        one = 1;
        rc = wu_unpack(&b, &ref, &one, PMIX_SIZE);
    } else if (PMIX_SUCCESS == rc && WU_CMD_NOTIFY != cmd) {
        rc = PMIX_ERR_UNPACK_FAILURE; /* nothing else is defined */
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_event_unpack(&b, &status, &source, &range, &info, &ninfo);
    }
    if (PMIX_SUCCESS != rc) {
        wu_client_event_comm_failure();
        return;
    }
    if (wu_event_has_custom_range(info, ninfo) &&
        !wu_event_in_custom_range(&wu_client.myproc, info, ninfo)) {
        /* not aimed at this process */
    } else if (WU_CMD_REGISTER_EVENTS == cmd) {
        /* a cached event answering the registration of handler ref: for it alone */
        (void)wu_event_deliver_to(ref, status, &source, range, info, ninfo, WU_EVENT_FROM_SERVER);
    } else {
        /* a job-specific event no handler takes waits for the handlers registered later */
        bool job = wu_event_is_job(&source, range, info, ninfo, NULL);
        (void)wu_event_deliver(status, &source, range, info, ninfo,
                               WU_EVENT_FROM_SERVER | (job ? WU_EVENT_KEEP : 0), NULL, NULL);
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
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
    if (wu_event_has_custom_range(info, ninfo)) {
        return wu_event_in_custom_range(&wu_client.myproc, info, ninfo);
    }
    return PMIX_RANGE_RM != range && PMIX_RANGE_CUSTOM != range;
}

typedef struct {
    pmix_op_cbfunc_t done;
    void *cbdata;
} done_t;

static void done_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    done_t f = *(done_t *)cbdata;
    (void)reply;
    free(cbdata);
    f.done(status, f.cbdata);
}

/* Send the request in b (started, fields packed) whose reply completes done(status, cbdata);
 * b is destructed. */
static pmix_status_t send_request(wu_buffer_t *b, pmix_status_t rc, double timeout,
                                  pmix_op_cbfunc_t done, void *cbdata)
{
    done_t *f = NULL;
    if (PMIX_SUCCESS == rc && NULL == (f = malloc(sizeof *f))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(b);
        return rc;
    }
    *f = (done_t){done, cbdata};
    if (PMIX_SUCCESS != (rc = wu_client_request(b, timeout, done_reply, f))) {
        free(f);
    }
    return rc;
}

static void ignore_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

/* To the server, whose reply completes the notification; a singleton has nowhere to send. */
static pmix_status_t rt_forward(pmix_status_t status, const pmix_proc_t *source,
                                pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                                pmix_op_cbfunc_t done, void *cbdata)
{
    wu_buffer_t b;
    pmix_status_t rc;

    if (WU_CLIENT_SINGLETON == wu_client.mode) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    rc = wu_client_msg_start(&b, WU_CMD_NOTIFY);
    if (PMIX_SUCCESS == rc) {
        rc = wu_event_pack(&b, status, source, range, info, ninfo);
    }
    if (wu_client.opmix) {
        /* an OpenPMIx server answers when its host has passed the event on, which some hosts
         * (ORTE) never do: done once sent, as OpenPMIx's own client has it */
        rc = send_request(&b, rc, 0, ignore_done, NULL);
        return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
    }
    return send_request(&b, rc, 0, done, cbdata);
}

static bool rt_job_level(void)
{
    return wu_client.opmix; /* an OpenPMIx server sends only the codes registered for */
}

/* Tell the server about a handler, so that it sends the cached events the handler takes. A
 * client that is not connected (a singleton, or its server lost) has nobody to ask, and a
 * handler of more codes than the protocol carries gets no cached events. */
static pmix_status_t rt_register(size_t ref, const pmix_status_t *codes, size_t ncodes,
                                 const pmix_proc_t *affected, size_t naffected,
                                 pmix_op_cbfunc_t done, void *cbdata)
{
    wu_buffer_t b;
    pmix_status_t rc;

    if (WU_CLIENT_CONNECTED != wu_client.mode || ncodes > WU_PROTO_MAX_EVENT_CODES ||
        naffected > WU_PROTO_MAX_EVENT_CODES) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    rc = wu_client_msg_start(&b, WU_CMD_REGISTER_EVENTS);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &ref, 1, PMIX_SIZE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, codes, ncodes, PMIX_STATUS);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, affected, naffected, PMIX_PROC);
    }
    /* a server that is alive but silent does not hold the registration up for ever */
    return send_request(&b, rc, WU_CLIENT_HANDSHAKE_TIMEOUT, done, cbdata);
}

const wu_event_rt_t wu_client_event_rt = {
    .ready = wu_client_ready,
    .shift = wu_client_shift,
    .wait_call = wu_client_wait_call,
    .in_thread = rt_in_thread,
    .me = &wu_client.myproc,
    .covers = rt_covers,
    .forward = rt_forward,
    .register_hdlr = rt_register,
    .register_job_level = rt_job_level,
};
