/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_event.h -- event notification as the PMIx Standard (v4) defines it: the handler registry,
 * the delivery chain, PMIx_Notify_event and the NOTIFY protocol message.
 *
 * Who. Every PMIx process has one registry: a client (connected or singleton) and a server
 * process (after PMIx_server_init) alike. The registry works on the progress thread of the
 * library that is initialized, the client's if both are: wu_event_shift picks it.
 *
 * Layering. pmix/event depends on pmix/common only; the roles depend on it, never the reverse
 * (contrib/check-layering.sh checks). What the event code needs from a role (its progress
 * thread, its identity, whether a range covers it, how an event travels beyond the process) it
 * finds in the role's wu_event_rt_t, which the client and the server install at init
 * (wu_event_rt_set) and remove at finalize. The NOTIFY messages themselves are role code:
 * pmix/client/wu_client_event.c receives them, pmix/server/wu_server_event.c relays them.
 *
 * Registry. A mutex guards the handler list and the reference counter, and is never held while
 * a user callback runs. Registration and deregistration take effect at once; their callbacks are
 * shifted into the progress thread. Precedence (the Standard's rules): handlers registered FIRST,
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
#include "opal/event/wu_wait.h"
#include "pmix/common/wu_buffer.h"

#include "pmix.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- wu_event_notify.c: the roles' runtime interface -------------------------------------- */

/* What the event code needs from the role whose library runs the events of this process. The
 * functions may be called from any thread unless marked "progress thread". */
typedef struct wu_event_rt {
    /* Is the role's library initialized in this process (false again after a fork)? */
    bool (*ready)(void);
    /* Shift fn(arg) into the role's progress thread, never inline: PMIX_SUCCESS or
     * PMIX_ERR_INIT. */
    int (*shift)(wu_shift_fn_t fn, void *arg);
    /* Shift fn into the progress thread and wait until it calls wu_wait_call_done; the status it
     * gave, or an error (not called from the progress thread). */
    int (*wait_call)(wu_wait_call_fn_t fn, void *arg);
    /* Is the caller on the role's progress thread? */
    bool (*in_thread)(void);
    /* This process: the source of the events it notifies without naming one. */
    const pmix_proc_t *me;
    /* Does range (info carries PMIX_EVENT_CUSTOM_RANGE) include this process's own handlers? */
    bool (*covers)(pmix_data_range_t range, const pmix_info_t *info, size_t ninfo);
    /* Progress thread: hand an event notified here on beyond this process (never called for
     * PMIX_RANGE_PROC_LOCAL). PMIX_OPERATION_SUCCEEDED when that is done, PMIX_SUCCESS when
     * done(status, cbdata) follows (on the progress thread), or an error (done not called). */
    pmix_status_t (*forward)(pmix_status_t status, const pmix_proc_t *source,
                             pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                             pmix_op_cbfunc_t done, void *cbdata);
} wu_event_rt_t;

/* The roles, in the order they are asked: the client's library runs the events when both are
 * initialized. */
typedef enum { WU_EVENT_CLIENT, WU_EVENT_SERVER, WU_EVENT_NROLES } wu_event_role_t;
/* Install the runtime of role (init), or remove it (rt NULL, finalize). rt must outlive its
 * installation. */
void wu_event_rt_set(wu_event_role_t role, const wu_event_rt_t *rt);
/* The runtime of the first installed role that is ready, or NULL: no library is initialized. */
const wu_event_rt_t *wu_event_rt(void);

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

/* Shift fn(arg) into the progress thread of wu_event_rt() (never inline). PMIX_ERR_INIT when
 * no library is initialized. */
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

#endif
