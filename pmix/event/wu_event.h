/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event.h -- event notification (../shared/seeds/event-notification.md): the handler
 * registry, the delivery chain, PMIx_Notify_event and the NOTIFY protocol message.
 *
 * Who. Every PMIx process has one registry: a client (connected or singleton) and a server
 * process (after PMIx_server_init) alike. The registry works on the progress thread of the
 * library that is initialized, the client's if both are: wu_event_shift picks it.
 *
 * Registry. A mutex guards the handler list and the reference counter, and is never held while
 * a user callback runs. Registration and deregistration take effect at once; their callbacks are
 * shifted into the progress thread. Precedence (the seed's rules): handlers registered FIRST,
 * then handlers of one specific code, then handlers of several codes, then default handlers
 * (no codes), then handlers registered LAST. Within a category the order is FIFO, except that
 * PMIX_EVENT_HDLR_PREPEND puts a handler in front of its category.
 *
 * Delivery. A chain (wu_event_deliver) copies the event, takes the refs of the matching
 * handlers in precedence order and calls them one at a time on the progress thread. A handler
 * that was deregistered meanwhile is skipped. Each handler's completion (any thread) brings the
 * chain back into the progress thread: PMIX_EVENT_ACTION_COMPLETE ends it, anything else passes
 * the handler's results, and an info keyed by the handler's name (PMIX_EVENT_HDLR_NAME) with the
 * status it returned, on to the next handler. PMIX_EVENT_NON_DEFAULT on the event skips the
 * default handlers. A handler registered with PMIX_EVENT_RETURN_OBJECT finds that pointer
 * appended to the event's info under the same key.
 *
 * Ranges. PMIX_RANGE_PROC_LOCAL stays in the process. In a connected client every other range
 * goes to the server (WU_CMD_NOTIFY), which passes it to its connected clients that the range
 * covers (never back to the sender, which delivered it itself if the range covers it), and to
 * the host's notify_event upcall for ranges that may reach beyond the node. A singleton is the
 * whole job: it delivers every range locally. PMIx_Notify_event in a server process delivers to
 * the covered local clients and to the server process's own handlers (the host is the caller:
 * it is not called back). */
#ifndef WU_EVENT_H
#define WU_EVENT_H

#include "opal/event/wu_progress.h"
#include "pmix/common/wu_buffer.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- wu_event_reg.c: the registry ------------------------------------------------------- */

/* Refs of the handlers that match status, in precedence order, in *refs (malloc'd, NULL when
 * none); the count. non_default: leave out the default handlers. */
size_t wu_event_match(pmix_status_t status, bool non_default, size_t **refs);
/* The handler of ref, if it is still registered: its function, cbdata, return object, and a
 * copy of its name (NULL if unnamed; the caller frees it). */
bool wu_event_lookup(size_t ref, pmix_notification_fn_t *fn, void **cbdata, void **object,
                     char **name);
/* Drop every registration and restart the refs at 0 (client and server finalize). */
void wu_event_release_all(void);

/* ---- wu_event_chain.c: delivery in this process ----------------------------------------- */

/* Deliver an event to this process's handlers (progress thread). The event is copied; the
 * first handler runs before this returns. done (may be NULL) runs on the progress thread once
 * the chain has ended, with PMIX_EVENT_ACTION_COMPLETE if a handler stopped it, else
 * PMIX_SUCCESS. Returns PMIX_SUCCESS or PMIX_ERR_NOMEM (done is then not called). */
pmix_status_t wu_event_deliver(pmix_status_t status, const pmix_proc_t *source,
                               pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                               pmix_op_cbfunc_t done, void *cbdata);

/* ---- wu_event_notify.c: the API side ----------------------------------------------------- */

/* Which library runs the events of this process. */
typedef enum { WU_EVENT_NONE, WU_EVENT_CLIENT, WU_EVENT_SERVER } wu_event_role_t;
wu_event_role_t wu_event_role(void);
/* Shift fn(arg) into that library's progress thread (never inline). PMIX_ERR_INIT when neither
 * library is initialized. */
pmix_status_t wu_event_shift(wu_shift_fn_t fn, void *arg);
/* Is the caller on that progress thread? */
bool wu_event_in_thread(void);
/* Is proc named by the PMIX_EVENT_CUSTOM_RANGE of info (a proc or an array of procs; rank
 * PMIX_RANK_WILDCARD names a whole namespace)? */
bool wu_event_in_custom_range(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo);
/* The NOTIFY body (wu_proto.h): STATUS status, PROC source, DATA_RANGE range, list of INFO. */
pmix_status_t wu_event_pack(wu_buffer_t *b, pmix_status_t status, const pmix_proc_t *source,
                            pmix_data_range_t range, const pmix_info_t *info, size_t ninfo);
pmix_status_t wu_event_unpack(wu_buffer_t *b, pmix_status_t *status, pmix_proc_t *source,
                              pmix_data_range_t *range, pmix_info_t **info, size_t *ninfo);
/* Client hooks (progress thread): an unsolicited message from the server (tag 0); the
 * connection to the server was lost (after the pending requests failed). */
void wu_event_client_recv(const void *payload, size_t len);
void wu_event_client_lost(void);

/* ---- wu_event_server.c: the server side -------------------------------------------------- */

/* Send the event to the connected local clients the range covers, except skip (may be NULL).
 * Progress thread of the server. */
void wu_event_srv_send(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                       const pmix_info_t *info, size_t ninfo, const pmix_proc_t *skip);
/* The switchyard's WU_CMD_NOTIFY handler. */
int wu_srv_cmd_notify(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b);

#endif
