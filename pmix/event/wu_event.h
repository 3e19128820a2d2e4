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
 * shifted into the progress thread (a registration's once the server answered it, below).
 * Precedence (the Standard's rules): handlers registered FIRST, then handlers of one specific
 * code, then handlers of several codes, then default handlers (no codes), then handlers
 * registered LAST. Within a category the order is FIFO, except that PMIX_EVENT_HDLR_PREPEND
 * puts a handler in front of its category.
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
 * the host's notify_event upcall for ranges that may reach beyond the node (without that upcall
 * only PMIX_RANGE_LOCAL can be served: the others are PMIX_ERR_NOT_SUPPORTED). A singleton is
 * the whole job: it delivers every range locally. PMIx_Notify_event in a server process
 * delivers to the covered local clients and to the server process's own handlers (the host is
 * the caller: it is not called back). PMIX_EVENT_CUSTOM_RANGE (processes; rank
 * PMIX_RANK_WILDCARD names a whole namespace) makes the range PMIX_RANGE_CUSTOM: only those
 * processes get the event; PMIX_RANGE_CUSTOM without it is PMIX_ERR_BAD_PARAM.
 *
 * Targets. An event is job-specific when it is aimed at processes: it names some
 * (PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROC(S)) or has PMIX_RANGE_NAMESPACE (the
 * source's job); otherwise it is an environment event. Filters a handler may register with:
 * PMIX_EVENT_AFFECTED_PROC(S) (only events whose affected processes include one of these),
 * WU_EVENT_JOB_LEVEL (only job-specific events about this process's namespace),
 * WU_EVENT_ENVIRO_LEVEL (only environment events); both levels at once are PMIX_ERR_BAD_PARAM.
 *
 * Late registrations. The server caches the environment events it passes on, and holds
 * job-specific ones for its clients that have not connected yet (wu_server_evcache.c). A
 * client's registration (unless job-level) goes to the server (WU_CMD_REGISTER_EVENTS); the
 * handler is recorded at once and takes the events of this process, but none the server sends
 * until its registration is complete (the server answered, or for a job-level one, the
 * registration reached the progress thread). The registration's callback then runs (the
 * blocking form waits for it), and the handler gets, in this order: the kept events it takes,
 * the cached events the server sends after its answer, to that handler alone, and from then on
 * what the server sends. A job-specific event from the server that no handler took (it came
 * before the application had registered any: the events held for a client are sent when it
 * connects) is kept, up to WU_EVENT_KEEP_MAX, for the first handler registered later that
 * takes it. So a handler gets no event twice, and the events in the order the server sent
 * them; one that another handler took while this one was registering is not repeated for it. */
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
    /* Progress thread: tell the server about handler ref (its codes, none for a default
     * handler, and its affected-process filter). NULL when the role has no server.
     * PMIX_SUCCESS when done(status, cbdata) follows on the progress thread (the server
     * answered, or could not); anything else: nothing to wait for, done is not called. */
    pmix_status_t (*register_hdlr)(size_t ref, const pmix_status_t *codes, size_t ncodes,
                                   const pmix_proc_t *affected, size_t naffected,
                                   pmix_op_cbfunc_t done, void *cbdata);
    /* Must the server be told about job-level handlers too (it sends only the codes someone
     * registered for)? NULL: no. */
    bool (*register_job_level)(void);
} wu_event_rt_t;

/* The roles, in the order they are asked: the client's library runs the events when both are
 * initialized. */
typedef enum { WU_EVENT_CLIENT, WU_EVENT_SERVER, WU_EVENT_NROLES } wu_event_role_t;
/* Install the runtime of role (init), or remove it (rt NULL, finalize). rt must outlive its
 * installation. */
void wu_event_rt_set(wu_event_role_t role, const wu_event_rt_t *rt);
/* The runtime of the first installed role that is ready, or NULL: no library is initialized. */
const wu_event_rt_t *wu_event_rt(void);

/* ---- wu_event_target.c: targets ------------------------------------------------------------ */

/* Registration attributes of PMIx v2 and v3 (bool) that the 4.2 headers no longer define; a
 * program built against those headers still passes them. See "Targets" above. */
#define WU_EVENT_JOB_LEVEL    "pmix.evjob"
#define WU_EVENT_ENVIRO_LEVEL "pmix.evenv"

/* The processes an info names under key (a PMIX_PROC or a PMIX_DATA_ARRAY of PMIX_PROC): a
 * pointer into the info in *procs, and their number (0 and NULL: none). */
size_t wu_event_procs(const pmix_info_t *info, size_t ninfo, const char *key,
                      const pmix_proc_t **procs);
/* Do a and b name a process in common (rank PMIX_RANK_WILDCARD: the whole namespace)? */
bool wu_event_procs_meet(const pmix_proc_t *a, size_t na, const pmix_proc_t *b, size_t nb);
/* Does the info carry PMIX_EVENT_CUSTOM_RANGE? */
bool wu_event_has_custom_range(const pmix_info_t *info, size_t ninfo);
/* Is proc named by the PMIX_EVENT_CUSTOM_RANGE of info? */
bool wu_event_in_custom_range(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo);
/* Do the event's affected processes (PMIX_EVENT_AFFECTED_PROC and _PROCS) meet filter? False
 * when it names none. */
bool wu_event_affects(const pmix_info_t *info, size_t ninfo, const pmix_proc_t *filter,
                      size_t nfilter);
/* Is the event job-specific ("Targets" above)? With nspace: job-specific and aimed at or about
 * a process of nspace. */
bool wu_event_is_job(const pmix_proc_t *source, pmix_data_range_t range, const pmix_info_t *info,
                     size_t ninfo, const char *nspace);

/* ---- wu_event_reg.c: the registry ------------------------------------------------------- */

/* What the handlers' filters look at in an event. */
typedef struct wu_event_view {
    pmix_status_t status;
    bool non_default;        /* PMIX_EVENT_NON_DEFAULT: not for default handlers */
    bool job;                /* job-specific */
    bool own_job;            /* job-specific, about this process's namespace */
    bool from_server;        /* sent by the server (not notified in this process) */
    const pmix_info_t *info; /* for the affected processes */
    size_t ninfo;
} wu_event_view_t;

/* Refs of the handlers that take the event, in precedence order, in *refs (malloc'd, NULL
 * when none); the count. */
size_t wu_event_match(const wu_event_view_t *ev, size_t **refs);
/* Does the handler of ref (still registered) take the event? */
bool wu_event_match_one(size_t ref, const wu_event_view_t *ev);
/* The handler of ref, if it is still registered: its function, cbdata, return object, and a
 * copy of its name (NULL if unnamed; the caller frees it). */
bool wu_event_lookup(size_t ref, pmix_notification_fn_t *fn, void **cbdata, void **object,
                     char **name);
/* Drop every registration and restart the refs at 0 (client and server finalize). */
void wu_event_release_all(void);

/* ---- wu_event_chain.c: delivery in this process ----------------------------------------- */

/* Flags of a delivery. */
#define WU_EVENT_FROM_SERVER 0x1u /* the server sent it */
#define WU_EVENT_KEEP        0x2u /* keep it for later handlers if no handler takes it */
/* At most this many events are kept for later handlers; a new one pushes out the oldest. */
#define WU_EVENT_KEEP_MAX 64

/* Deliver an event to this process's handlers (progress thread). The event is copied; the
 * first handler runs before this returns. done (may be NULL) runs on the progress thread once
 * the chain has ended, with PMIX_EVENT_ACTION_COMPLETE if a handler stopped it, else
 * PMIX_SUCCESS. Returns PMIX_SUCCESS or PMIX_ERR_NOMEM (done is then not called). */
pmix_status_t wu_event_deliver(pmix_status_t status, const pmix_proc_t *source,
                               pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                               unsigned flags, pmix_op_cbfunc_t done, void *cbdata);
/* Deliver an event to the handler of ref alone, if it is still registered and takes it
 * (progress thread). PMIX_SUCCESS (also when it does not), or PMIX_ERR_NOMEM. */
pmix_status_t wu_event_deliver_to(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                                  unsigned flags);
/* Handler ref is registered: hand it each kept event it takes, oldest first, and forget those
 * (progress thread). */
void wu_event_deliver_kept(size_t ref);
/* Forget the kept events, the lasting one too (finalize). */
void wu_event_kept_release(void);
/* Deliver an event that every handler registered later must hear as well (the process's
 * PMIX_MODEL_DECLARED: the last one lasts). A handler the delivery reached does not get it again
 * when its registration completes; any other one does (wu_event_deliver_kept). Progress thread;
 * PMIX_SUCCESS or PMIX_ERR_NOMEM. */
pmix_status_t wu_event_deliver_lasting(pmix_status_t status, const pmix_proc_t *source,
                                       pmix_data_range_t range, const pmix_info_t *info,
                                       size_t ninfo);

/* ---- wu_event_notify.c: the API side ----------------------------------------------------- */

/* An event kept for later: its fields, the info a deep copy. */
typedef struct wu_event_rec {
    pmix_status_t status;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info; /* ninfo + spare elements (NULL when there are none) */
    size_t ninfo, spare;
} wu_event_rec_t;
/* Fill r with the event, copying info into ninfo + spare new elements (the spare ones empty).
 * PMIX_SUCCESS, or PMIX_ERR_NOMEM (r then holds nothing to release). */
pmix_status_t wu_event_rec_set(wu_event_rec_t *r, pmix_status_t status, const pmix_proc_t *source,
                               pmix_data_range_t range, const pmix_info_t *info, size_t ninfo,
                               size_t spare);
/* Release what r holds (safe on an empty or released record). */
void wu_event_rec_clear(wu_event_rec_t *r);

/* Shift fn(arg) into the progress thread of wu_event_rt() (never inline). PMIX_ERR_INIT when
 * no library is initialized. */
pmix_status_t wu_event_shift(wu_shift_fn_t fn, void *arg);
/* Is the caller on that progress thread? */
bool wu_event_in_thread(void);
/* The NOTIFY body (wu_proto.h): STATUS status, PROC source, DATA_RANGE range, list of INFO. */
pmix_status_t wu_event_pack(wu_buffer_t *b, pmix_status_t status, const pmix_proc_t *source,
                            pmix_data_range_t range, const pmix_info_t *info, size_t ninfo);
pmix_status_t wu_event_unpack(wu_buffer_t *b, pmix_status_t *status, pmix_proc_t *source,
                              pmix_data_range_t *range, pmix_info_t **info, size_t *ninfo);

#endif
