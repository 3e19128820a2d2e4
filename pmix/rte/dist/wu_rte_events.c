/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_events.c -- events across nodes: an event of this node's clients whose range reaches
 * other nodes goes out as an EVENT message (up to the head from wired, to every daemon from the
 * head), and an EVENT message from another node is notified to this node's clients. */
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "pmix.h"

pmix_status_t wu_rte_event_spread(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t info[], size_t ninfo)
{
    pmix_data_buffer_t m;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_event(&m, code, source, range, info, ninfo);
    if (PMIX_SUCCESS == rc) {
        rc = wu_rte_daemon_mode ? wu_rte_daemon_event(m.base_ptr, m.bytes_used)
                                : wu_rte_dvm_event(m.base_ptr, m.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return rc;
}

static void event_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

void wu_rte_event_deliver(const char *msg, size_t len)
{
    pmix_data_buffer_t m;
    pmix_byte_object_t bo = {.bytes = (char *)msg, .size = len};
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;

    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (PMIX_SUCCESS == PMIx_Data_embed(&m, &bo) &&
        PMIX_SUCCESS == wu_dmsg_get_event(&m, &status, &source, &range, &info, &ninfo)) {
        /* this node's clients and the server's own handlers; the host is not called back (a
         * callback: the blocking form would wait for the server's thread from ours) */
        (void)PMIx_Notify_event(status, &source, range, info, ninfo, event_done, NULL);
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}
