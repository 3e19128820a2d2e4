/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_evcache.c -- the events the server keeps after passing them to its clients, for the
 * clients that were not ready for them (see "Late registrations" in pmix/event/wu_event.h):
 *
 *  - environment events (aimed at no process) go into a ring of the last
 *    server_event_cache_size (512) events, the oldest pushed out by the newest. When a client
 *    registers a handler (WU_CMD_REGISTER_EVENTS), the server answers, then sends it the cached
 *    events that handler takes and whose range covers the client, oldest first;
 *  - job-specific events are held for the local clients they are for that the host registered
 *    but that have not connected yet, and sent to each right after its CONNECT reply; an event
 *    goes once every such client got it (or was deregistered). At most server_event_hold_max
 *    (256) are held: a new one pushes out the oldest, and a message says so.
 *
 * An event with PMIX_EVENT_DO_NOT_CACHE is neither. Progress thread only, like all server
 * state. */
#include "opal/util/wu_output.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"
#include "pmix/server/wu_server.h"

#include <stdlib.h>

int wu_srv_event_cache_size = 512;
int wu_srv_event_hold_max = 256;

struct wu_srv_ev {
    wu_srv_ev_t *next; /* in wu_srv.held */
    wu_event_rec_t ev;
    pmix_proc_t *owed; /* held: the clients it is for that have not got it */
    size_t nowed;
};

static void ev_free(wu_srv_ev_t *ev)
{
    wu_event_rec_clear(&ev->ev);
    free(ev->owed);
    free(ev);
}

pmix_status_t wu_srv_events_open(void)
{
    if (wu_srv_event_cache_size <= 0) {
        return PMIX_SUCCESS; /* caching is off */
    }
    if (NULL == (wu_srv.evcache = WU_NEW(wu_ring_buffer_t))) {
        return PMIX_ERR_NOMEM;
    }
    if (WU_SUCCESS != wu_ring_buffer_init(wu_srv.evcache, (size_t)wu_srv_event_cache_size)) {
        WU_RELEASE(wu_srv.evcache);
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

void wu_srv_events_close(void)
{
    wu_srv_ev_t *ev;
    if (NULL != wu_srv.evcache) {
        while (NULL != (ev = wu_ring_buffer_pop(wu_srv.evcache))) {
            ev_free(ev);
        }
        WU_RELEASE(wu_srv.evcache);
    }
    while (NULL != (ev = wu_srv.held)) {
        wu_srv.held = ev->next;
        ev_free(ev);
    }
    wu_srv.nheld = 0;
}

/* ---- keeping ------------------------------------------------------------------------------- */

static void cache(wu_srv_ev_t *ev)
{
    wu_srv_ev_t *out = wu_ring_buffer_push(wu_srv.evcache, ev);
    if (NULL != out) {
        wu_output_verbose(WU_VERB_TRACE, wu_srv.out,
                          "server: event %s leaves the cache (%zu newer events)",
                          PMIx_Error_string(out->ev.status), wu_ring_buffer_count(wu_srv.evcache));
        ev_free(out);
    }
}

/* Make room for one more held event: push out the oldest, saying so. */
static void hold_room(void)
{
    while (NULL != wu_srv.held && wu_srv.nheld >= (size_t)wu_srv_event_hold_max) {
        wu_srv_ev_t *old = wu_srv.held;
        wu_srv.held = old->next;
        wu_srv.nheld--;
        wu_show_help(WU_SRV_HELP, "event-hold-full", true, PMIx_Error_string(old->ev.status),
                     old->nowed, wu_srv_event_hold_max);
        ev_free(old);
    }
}

static void hold(wu_srv_ev_t *ev, const pmix_proc_t *skip)
{
    size_t n = 0;
    wu_srv_ev_t **pp;
    for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
        n++;
    }
    if (0 == n || wu_srv_event_hold_max <= 0 || NULL == (ev->owed = malloc(n * sizeof *ev->owed))) {
        ev_free(ev);
        return;
    }
    for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
        if ((WU_SRV_CL_REGISTERED == cl->state || WU_SRV_CL_CONNECTING == cl->state) &&
            (NULL == skip || !PMIX_CHECK_PROCID(&cl->proc, skip)) &&
            wu_srv_event_covers(cl, &ev->ev.source, ev->ev.range, ev->ev.info, ev->ev.ninfo)) {
            ev->owed[ev->nowed++] = cl->proc;
        }
    }
    if (0 == ev->nowed) {
        ev_free(ev); /* everyone it is for has it, or could not take it anyway */
        return;
    }
    hold_room();
    for (pp = &wu_srv.held; NULL != *pp; pp = &(*pp)->next) {
    }
    *pp = ev;
    wu_srv.nheld++;
    wu_output_verbose(WU_VERB_TRACE, wu_srv.out,
                      "server: event %s held for %zu clients not connected yet",
                      PMIx_Error_string(ev->ev.status), ev->nowed);
}

void wu_srv_event_keep(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                       const pmix_info_t *info, size_t ninfo, const pmix_proc_t *skip)
{
    bool job = wu_event_is_job(source, range, info, ninfo, NULL);
    wu_srv_ev_t *ev;

    if (wu_info_flag(info, ninfo, PMIX_EVENT_DO_NOT_CACHE) || (!job && NULL == wu_srv.evcache) ||
        PMIX_RANGE_RM == range || PMIX_RANGE_PROC_LOCAL == range) {
        return; /* not wanted, or for no client */
    }
    if (NULL == (ev = calloc(1, sizeof *ev)) ||
        PMIX_SUCCESS != wu_event_rec_set(&ev->ev, status, source, range, info, ninfo, 0)) {
        wu_output_verbose(WU_VERB_WARN, wu_srv.out, "server: no memory to keep event %s",
                          PMIx_Error_string(status));
        free(ev);
        return;
    }
    if (job) {
        hold(ev, skip);
    } else {
        cache(ev);
    }
}

/* Take proc off ev's list; true if that emptied it. */
static bool owed_remove(wu_srv_ev_t *ev, const pmix_proc_t *proc)
{
    for (size_t i = 0; i < ev->nowed; i++) {
        if (PMIX_CHECK_PROCID(&ev->owed[i], proc)) {
            ev->owed[i] = ev->owed[--ev->nowed];
            return 0 == ev->nowed;
        }
    }
    return false;
}

/* Take proc off every held event's list, sending it each first if send; drop the events nobody
 * is left for. */
static void held_settle(wu_srv_client_t *cl, const pmix_proc_t *proc)
{
    for (wu_srv_ev_t **pp = &wu_srv.held; NULL != *pp;) {
        wu_srv_ev_t *ev = *pp;
        size_t before = ev->nowed;
        bool done = owed_remove(ev, proc);
        if (NULL != cl && ev->nowed < before) {
            (void)wu_srv_event_send(cl, NULL, &ev->ev);
        }
        if (done) {
            *pp = ev->next;
            wu_srv.nheld--;
            ev_free(ev);
        } else {
            pp = &ev->next;
        }
    }
}

void wu_srv_event_connected(wu_srv_client_t *cl)
{
    held_settle(cl, &cl->proc);
}

void wu_srv_event_forget(const pmix_proc_t *proc)
{
    held_settle(NULL, proc);
}

/* ---- WU_CMD_REGISTER_EVENTS --------------------------------------------------------------- */

/* Does a handler of codes (none: a default handler) and affected-process filter take ev? */
static bool takes(const wu_event_rec_t *ev, const pmix_status_t *codes, size_t ncodes,
                  const pmix_proc_t *aff, size_t naff)
{
    bool code = 0 == ncodes && !wu_info_flag(ev->info, ev->ninfo, PMIX_EVENT_NON_DEFAULT);
    for (size_t i = 0; !code && i < ncodes; i++) {
        code = codes[i] == ev->status;
    }
    return code && (0 == naff || wu_event_affects(ev->info, ev->ninfo, aff, naff));
}

int wu_srv_cmd_register_events(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    size_t ref = 0, ncodes = 0, naff = 0, nsent = 0;
    pmix_status_t *codes = NULL, rc;
    pmix_proc_t *aff = NULL;
    wu_srv_client_t *cl;

    if (PMIX_SUCCESS != (rc = wu_srv_unpack1(b, &ref, PMIX_SIZE)) ||
        PMIX_SUCCESS != (rc = wu_proto_unpack_list(b, (void **)&codes, &ncodes, PMIX_STATUS)) ||
        PMIX_SUCCESS != (rc = wu_proto_unpack_list(b, (void **)&aff, &naff, PMIX_PROC)) ||
        0 != wu_buffer_remaining(b) || ncodes > WU_PROTO_MAX_EVENT_CODES ||
        naff > WU_PROTO_MAX_EVENT_CODES) {
        rc = PMIX_ERR_BAD_PARAM;
        goto out;
    }
    if (NULL == (cl = wu_srv_client_find(&peer->proc))) {
        rc = PMIX_ERR_NOT_FOUND; /* deregistered meanwhile */
        goto out;
    }
    wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
    rc = PMIX_SUCCESS;
    for (size_t i = 0; i < wu_ring_buffer_count(wu_srv.evcache); i++) {
        const wu_srv_ev_t *c = wu_ring_buffer_peek(wu_srv.evcache, i);
        const wu_event_rec_t *ev = &c->ev;
        if (takes(ev, codes, ncodes, aff, naff) &&
            wu_srv_event_covers(cl, &ev->source, ev->range, ev->info, ev->ninfo) &&
            wu_srv_event_send(cl, &ref, ev)) {
            nsent++;
        }
    }
    if (nsent > 0) {
        char who[PMIX_MAX_NSLEN + 16];
        wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: %zu cached events to %s (handler %zu)",
                          nsent, wu_srv_proc_str(&cl->proc, who, sizeof who), ref);
    }
out:
    free(codes);
    free(aff);
    return rc;
}
