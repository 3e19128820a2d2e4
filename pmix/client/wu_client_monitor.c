/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_monitor.c -- PMIx_Process_monitor(_nb) and so PMIx_Heartbeat, in the client.
 *
 * The request goes to the server as one WU_CMD_MONITOR: the monitor info (PMIX_MONITOR_HEARTBEAT,
 * PMIX_MONITOR_FILE, PMIX_MONITOR_CANCEL or PMIX_SEND_HEARTBEAT, or one the host may know), the
 * status to raise when the monitor trips, and the directives. The server library watches
 * heartbeats and files itself (pmix/server/wu_server_monitor.c) and hands anything else to its
 * host. The callback gets the server's answer; a heartbeat (PMIx_Heartbeat passes no callback)
 * is sent and forgotten. A singleton has no server to watch it: PMIX_ERR_NOT_SUPPORTED. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    pmix_info_t monitor;
    pmix_status_t error;
    pmix_info_t *dirs;
    size_t ndirs;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} mon_t;

static void mon_finish(mon_t *m, pmix_status_t status)
{
    if (NULL != m->cbfunc) {
        m->cbfunc(status, NULL, 0, m->cbdata, NULL, NULL);
    }
    PMIX_INFO_DESTRUCT(&m->monitor);
    if (NULL != m->dirs) {
        PMIX_INFO_FREE(m->dirs, m->ndirs);
    }
    free(m);
}

static void mon_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    (void)reply;
    mon_finish(cbdata, PMIX_OPERATION_SUCCEEDED == status ? PMIX_SUCCESS : status);
}

static void mon_fn(void *arg)
{
    mon_t *m = arg;
    wu_buffer_t b;
    pmix_status_t rc = wu_client_msg_start(&b, WU_CMD_MONITOR);

    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &m->monitor, 1, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &m->error, 1, PMIX_STATUS);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, m->dirs, m->ndirs, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, mon_reply, m);
    }
    if (PMIX_SUCCESS != rc) {
        mon_finish(m, rc);
    }
}

static void unpointer(pmix_info_t *i)
{
    bool yes = true;
    if (PMIX_POINTER == i->value.type) {
        PMIx_Value_load(&i->value, &yes, PMIX_BOOL);
    }
}

pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t *monitor, pmix_status_t error,
                                      const pmix_info_t directives[], size_t ndirs,
                                      pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    mon_t *m;
    pmix_status_t rc;

    if (NULL == monitor || (NULL == directives && 0 < ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_client.singleton) {
        return PMIX_ERR_NOT_SUPPORTED; /* no server to watch this process */
    }
    if (NULL == (m = calloc(1, sizeof *m))) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_INFO_CONSTRUCT(&m->monitor);
    m->error = error;
    if (PMIX_SUCCESS != (rc = wu_info_copy(&m->monitor, monitor)) ||
        PMIX_SUCCESS != (rc = wu_info_dup(&m->dirs, &m->ndirs, directives, ndirs))) {
        mon_finish(m, rc);
        return rc;
    }
    /* PMIX_MONITOR_HEARTBEAT and PMIX_SEND_HEARTBEAT come as a NULL PMIX_POINTER (so
     * PMIx_Heartbeat and OpenPMIx's examples): a pointer means nothing in the server, the key
     * is the request; it travels as "true" */
    unpointer(&m->monitor);
    for (size_t i = 0; i < m->ndirs; i++) {
        unpointer(&m->dirs[i]);
    }
    m->cbfunc = cbfunc;
    m->cbdata = cbdata;
    if (PMIX_SUCCESS != (rc = wu_client_shift(mon_fn, m))) {
        m->cbfunc = NULL;
        mon_finish(m, rc);
    }
    return rc;
}

static void mon_blk_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                         pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)info;
    (void)ninfo;
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    wu_wait_release(cbdata, status);
}

pmix_status_t PMIx_Process_monitor(const pmix_info_t *monitor, pmix_status_t error,
                                   const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_t **results, size_t *nresults)
{
    wu_wait_t w;
    pmix_status_t rc;

    if (NULL != results) {
        *results = NULL;
    }
    if (NULL != nresults) {
        *nresults = 0;
    }
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&w);
    rc = PMIx_Process_monitor_nb(monitor, error, directives, ndirs, mon_blk_done, &w);
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&w, 0);
    }
    wu_wait_destroy(&w);
    return rc;
}
