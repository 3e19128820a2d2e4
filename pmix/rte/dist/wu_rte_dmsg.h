/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dmsg.h -- the messages between wrun (the head node) and the wired daemons of the other
 * nodes.
 *
 * A daemon connects to the head over TCP (ptl framing: one message per frame, the frame's tag
 * is the message type) and must first send HELLO with the job's secret token, which the head
 * handed it on its standard input; until then the connection is untrusted (ptl's limits: one
 * small frame, a deadline). Every payload is packed with the public PMIx_Data_pack, so both
 * ends read exactly what the other wrote, with bounds checked on every field; a message that
 * does not decode drops its sender.
 *
 *   HELLO       d->h  version, token, node index, hostname, pid
 *   LAUNCH      h->d  the job: namespace, contexts, options, the whole job map and, for a
 *                     job started by PMIx_Spawn, the process that spawned it
 *   OUTPUT      d->h  rank, stream, bytes of output
 *   EXITED      d->h  rank, how it ended (state, wait status, errno, pid, connected, finalized)
 *   LOCAL_DONE  d->h  every process of the node has ended
 *   TERMINATE   h->d  end the node's processes
 *   SIGNAL      h->d  deliver a signal to them
 *   SHUTDOWN    h->d  the job is over: clean up and exit
 *   FENCE       d->h  a fence's participant set, the node's data and its PMIX_TIMEOUT (seconds,
 *                     0: none)
 *   FENCE_DONE  h->d  that set, the status and every node's data
 *   DMODEX_REQ  both  origin node, request id, the proc whose data is wanted
 *   DMODEX_REP  both  origin node, request id, status, the data
 *   ABORT       d->h  a process called PMIx_Abort: rank, status, message
 *   FAILED      d->h  the daemon could not set the job up: a message
 *   EVENT       both  an event of a range wider than one node: status, source, range, infos;
 *                     a daemon sends its clients' events up, the head sends each to every
 *                     other node (and notifies its own clients)
 *   STDIN       h->d  rank, bytes of wrun's standard input for it (none: end of file)
 *   STDIN_ACK   d->h  rank, how many of those bytes were written (or dropped)
 *   REPORT_REQ  h->d  --timeout ran out: what are your ranks blocked in?
 *   REPORT      d->h  the lines of the node's server (wu_server_blocked_report)
 *   NOTICE      d->h  text for wrun's stderr, as it is (--report-bindings lines)
 *   SPAWN_FAILED d->h the agent that was to start node K's daemon ended: K, what happened
 *   FWD_UP      d->h  origin node, type, payload: a message of a daemon deeper in the launch
 *                     tree, relayed by its parent (wrapped by the first relay)
 *   FWD_DOWN    h->d  destination node (WU_DMSG_ALL: every daemon), a node to leave out
 *                     (WU_DMSG_ALL: none), type, payload: relayed down the tree to the
 *                     destination, which handles the message as if it came alone
 *   GONE        d->h  (in FWD_UP, origin: the node) a relay lost its child's connection: what
 *                     happened; the whole chunk below it is gone
 *   FENCE_AGG   d->h  a relay's combined contributions of its branch to a fence: the set, its
 *                     PMIX_TIMEOUT, a count and that many (node, data) pairs
 *   PIDS        both  a count and that many (rank, pid): a node's ranks once started; wrun
 *                     passes each node's on to every other node (wu_rte_pids.c)
 *   RPC         d->h  origin node, request id, operation, payload: a request of the node's
 *                     clients that the head serves (the data service; wu_rte_rpc.h)
 *   RPC_REP     h->d  origin node, request id, status, payload: its answer
 *   JOBCTL      both  a PMIx_Job_control signal, kill or terminate (wu_rte_jobctl.c): a daemon
 *                     sends its client's up, the head carries it out and sends it to every
 *                     daemon
 *   BEAT        both  nothing (an empty frame): the heartbeat each end of a connection of the
 *                     launch tree sends every rte_base_heartbeat_interval seconds; never
 *                     relayed (wu_rte_beat.c)
 *
 * A daemon connects to its parent in the launch tree: wrun for the first level, else the daemon
 * that started it, which accepts its HELLO only for a daemon it started (same token) and relays
 * between them (wu_rte_relay.c). */
#ifndef WU_RTE_DMSG_H
#define WU_RTE_DMSG_H

#include "pmix/rte/job/wu_rte_spec.h"
#include "pmix/rte/map/wu_rte_jobmap.h"
#include "opal/class/wu_list.h"
#include "pmix_common.h"

#include <stdbool.h>
#include <stdint.h>

/* The protocol's name, in HELLO: a daemon of another version is refused. */
#define WU_DMSG_VERSION "wireup-d6"
/* Node index of the head node in DMODEX messages when it is the origin. */
#define WU_DMSG_HEAD UINT32_MAX
/* FWD_DOWN's destination for every daemon, and its "leave out nobody". */
#define WU_DMSG_ALL UINT32_MAX

enum {
    WU_DMSG_HELLO = 1,
    WU_DMSG_LAUNCH,
    WU_DMSG_OUTPUT,
    WU_DMSG_EXITED,
    WU_DMSG_LOCAL_DONE,
    WU_DMSG_TERMINATE,
    WU_DMSG_SIGNAL,
    WU_DMSG_SHUTDOWN,
    WU_DMSG_FENCE,
    WU_DMSG_FENCE_DONE,
    WU_DMSG_DMODEX_REQ,
    WU_DMSG_DMODEX_REP,
    WU_DMSG_ABORT,
    WU_DMSG_FAILED,
    WU_DMSG_EVENT,
    WU_DMSG_STDIN,
    WU_DMSG_STDIN_ACK,
    WU_DMSG_REPORT_REQ,
    WU_DMSG_REPORT,
    WU_DMSG_NOTICE,
    WU_DMSG_SPAWN_FAILED,
    WU_DMSG_FWD_UP,
    WU_DMSG_FWD_DOWN,
    WU_DMSG_GONE,
    WU_DMSG_FENCE_AGG,
    WU_DMSG_PIDS,
    WU_DMSG_RPC,
    WU_DMSG_RPC_REP,
    WU_DMSG_JOBCTL,
    WU_DMSG_BEAT,
};

/* A message being built or read: a PMIx data buffer. */
typedef pmix_data_buffer_t wu_dmsg_t;

/* Append values; each returns PMIX_SUCCESS or an error (the message is then useless). */
pmix_status_t wu_dmsg_put_u32(wu_dmsg_t *m, uint32_t v);
pmix_status_t wu_dmsg_put_i32(wu_dmsg_t *m, int32_t v);
pmix_status_t wu_dmsg_put_u64(wu_dmsg_t *m, uint64_t v);
pmix_status_t wu_dmsg_put_str(wu_dmsg_t *m, const char *s); /* NULL allowed */
pmix_status_t wu_dmsg_put_bytes(wu_dmsg_t *m, const void *p, size_t n);
pmix_status_t wu_dmsg_put_argv(wu_dmsg_t *m, char *const *argv); /* NULL: empty */
pmix_status_t wu_dmsg_put_proc(wu_dmsg_t *m, const pmix_proc_t *p);
/* Read values back; strings, bytes and argv are malloc'd for the caller (NULL string stays
 * NULL; bytes: *p NULL when n is 0). */
pmix_status_t wu_dmsg_get_u32(wu_dmsg_t *m, uint32_t *v);
pmix_status_t wu_dmsg_get_i32(wu_dmsg_t *m, int32_t *v);
pmix_status_t wu_dmsg_get_u64(wu_dmsg_t *m, uint64_t *v);
pmix_status_t wu_dmsg_get_str(wu_dmsg_t *m, char **s);
pmix_status_t wu_dmsg_get_bytes(wu_dmsg_t *m, char **p, size_t *n);
pmix_status_t wu_dmsg_get_argv(wu_dmsg_t *m, char ***argv);
pmix_status_t wu_dmsg_get_proc(wu_dmsg_t *m, pmix_proc_t *p);

/* Make a head/daemon connection notice a peer that vanished without closing (a node that lost
 * its network, a powered-off node): TCP keepalive probes after 2 s of silence, every second,
 * and data unacknowledged for 5 s both end the connection, so the loss is seen within about
 * 5 seconds. Errors are ignored (the connection then works without it). */
void wu_dmsg_keepalive(int fd);

/* HELLO's fields (strings malloc'd for the caller, also on failure). */
pmix_status_t wu_dmsg_get_hello(wu_dmsg_t *m, char **version, char **token, uint32_t *node,
                                char **host, int32_t *pid);
/* Constant-time comparison of the token a peer sent with ours. */
bool wu_dmsg_token_ok(const char *mine, const char *theirs);
/* FWD_UP / FWD_DOWN: node (origin or destination), skip (FWD_DOWN only: WU_DMSG_ALL in FWD_UP),
 * the message's type and payload. get: *p is the caller's to free. */
pmix_status_t wu_dmsg_put_fwd(wu_dmsg_t *m, uint32_t node, uint32_t skip, uint32_t type,
                              const void *p, size_t n);
pmix_status_t wu_dmsg_get_fwd(wu_dmsg_t *m, uint32_t *node, uint32_t *skip, uint32_t *type,
                              char **p, size_t *n);

/* A fence's participant set (the server's sorted, unique list) packed as its signature: the
 * same bytes on every node for the same set. *sig is the caller's to free. */
pmix_status_t wu_dmsg_fence_sig(const pmix_proc_t procs[], size_t nprocs, char **sig,
                                size_t *siglen);
/* The participants of job nspace (np ranks) in a fence's signature: *wildcard if every rank
 * takes part, else *ranks (malloc'd, *nranks of them); other jobs' procs are left out. */
pmix_status_t wu_dmsg_fence_parts(const char *sig, size_t siglen, const char *nspace, uint32_t np,
                                  bool *wildcard, uint32_t **ranks, uint32_t *nranks);
/* FENCE_AGG: call fn for each (node, data) pair in order, with the set and the timeout, while
 * it returns true; false if the message does not decode or fn refused a pair. */
typedef bool (*wu_dmsg_agg_fn)(uint32_t node, const char *sig, size_t siglen, const char *data,
                               size_t ndata, int32_t timeout, void *arg);
bool wu_dmsg_walk_fence_agg(wu_dmsg_t *m, wu_dmsg_agg_fn fn, void *arg);
/* DMODEX_REP: origin node, request id, status, data. get: *data is the caller's to free. */
pmix_status_t wu_dmsg_put_dmodex_rep(wu_dmsg_t *m, uint32_t origin, uint64_t id, int32_t st,
                                     const char *data, size_t ndata);
pmix_status_t wu_dmsg_get_dmodex_rep(wu_dmsg_t *m, uint32_t *origin, uint64_t *id, int32_t *st,
                                     char **data, size_t *ndata);
/* A fence upcall's arguments, copied (the server only lends its buffers). */
typedef struct wu_dmsg_fence {
    char *sig; /* wu_dmsg_fence_sig of the participants */
    size_t siglen;
    char *data;
    size_t ndata;
    int timeout;          /* PMIX_TIMEOUT seconds, 0: none */
    pmix_nspace_t nspace; /* the first participant's (the job whose fence it is) */
    pmix_modex_cbfunc_t cb;
    void *cbdata;
} wu_dmsg_fence_t;
/* Run fn(f) on the rte thread with such a copy, which fn frees (wu_dmsg_fence_free). Returns
 * PMIX_ERR_NOMEM or PMIX_ERR_INIT (the rte thread is stopping) when fn will not run. */
pmix_status_t wu_dmsg_fence_shift(void (*fn)(void *), const pmix_proc_t procs[], size_t nprocs,
                                  const char *data, size_t ndata, int timeout,
                                  pmix_modex_cbfunc_t cb, void *cbdata);
void wu_dmsg_fence_free(wu_dmsg_fence_t *f);
/* Give cb a copy of data (freed through the release function cb gets); out of memory: cb gets
 * PMIX_ERR_NOMEM. */
void wu_dmsg_modex_answer(pmix_modex_cbfunc_t cb, void *cbdata, pmix_status_t st, const char *data,
                          size_t n);

/* A request of this node's server waiting for the answer of another node: a direct-modex
 * request (by id) or a fence (by its signature, sig), in a list of them (a wu_list_t * made with
 * the first, NULL before; the requests in the order they were made). */
typedef struct {
    wu_list_item_t super;
    uint64_t id;
    char *sig; /* owned */
    size_t siglen;
    pmix_modex_cbfunc_t cb;
    void *cbdata;
} wu_dmsg_pending_t;
/* A new request waiting in *list, answered through cb(cbdata); NULL when out of memory (cb is
 * not called). */
wu_dmsg_pending_t *wu_dmsg_pending_add(wu_list_t **list, pmix_modex_cbfunc_t cb, void *cbdata);
/* The request id of *list (or, sig not NULL, the first request of that signature; a list holds
 * one kind), unlinked,
 * answered with st and a copy of data, and freed; false if there is none. */
bool wu_dmsg_pending_answer(wu_list_t **list, uint64_t id, const char *sig, size_t siglen,
                            pmix_status_t st, const char *data, size_t n);
/* Answer every request of *list with st (no data) and empty it. */
void wu_dmsg_pending_fail(wu_list_t **list, pmix_status_t st);
/* Release *list, telling no one (its requests can no longer be answered). */
void wu_dmsg_pending_free(wu_list_t **list);
/* A direct-modex upcall's arguments, copied. */
typedef struct {
    pmix_proc_t proc;
    pmix_modex_cbfunc_t cb;
    void *cbdata;
} wu_dmsg_dmodex_t;
/* Run fn(d) on the rte thread with such a copy, which fn frees. PMIX_ERR_NOMEM or
 * PMIX_ERR_INIT (the rte thread is stopping) when fn will not run. */
pmix_status_t wu_dmsg_dmodex_shift(void (*fn)(void *), const pmix_proc_t *proc,
                                   pmix_modex_cbfunc_t cb, void *cbdata);

/* EVENT: the event's fields; wu_dmsg_get_event's *info is new (PMIX_INFO_FREE). */
pmix_status_t wu_dmsg_put_event(wu_dmsg_t *m, pmix_status_t status, const pmix_proc_t *source,
                                pmix_data_range_t range, const pmix_info_t *info, size_t ninfo);
pmix_status_t wu_dmsg_get_event(wu_dmsg_t *m, pmix_status_t *status, pmix_proc_t *source,
                                pmix_data_range_t *range, pmix_info_t **info, size_t *ninfo);

/* wu_rte_pids.c: the job's pids on every node, for the server's proc tables (rte thread but
 * the lookup). Start the table for job nspace of np ranks (once: the launcher's job); record
 * this node's started ranks and pack them as PIDS' payload; record a PIDS payload of job
 * nspace, whose ranks must all run on map node `node` of job (UINT32_MAX: any; job NULL: no
 * check; else each rank's pid is noted in job's procs), false if it does not. */
struct rte_job;
void wu_rte_pids_start(const char *nspace, uint32_t np);
pmix_status_t wu_rte_pids_local(const struct rte_job *job, wu_dmsg_t *m);
bool wu_rte_pids_apply(wu_dmsg_t *m, const char *nspace, struct rte_job *job, uint32_t node);
/* The server's hook (any thread): the pid of rank of nspace, 0 if not known. */
pid_t wu_rte_pids_lookup(const char *nspace, pmix_rank_t rank);
void wu_rte_pids_free(void);

/* LAUNCH: the job (app and map, this daemon's node index, its parent: NULL when it was not
 * spawned). */
pmix_status_t wu_dmsg_put_job(wu_dmsg_t *m, const char *nspace, const wu_rte_spec_t *app,
                              const char *cwd, const wu_rte_jobmap_t *map, uint32_t node,
                              const pmix_proc_t *parent);
/* Read a LAUNCH: *app and *map are new (wu_dmsg_free_app, wu_rte_jobmap_free); *parent's
 * namespace is empty when the job was not spawned. The map is checked: every rank on exactly
 * one node, node in range. */
pmix_status_t wu_dmsg_get_job(wu_dmsg_t *m, char **nspace, wu_rte_spec_t **app,
                              wu_rte_jobmap_t **map, uint32_t *node, pmix_proc_t *parent);
void wu_dmsg_free_app(wu_rte_spec_t *app);

/* Services plug in here: a message type a service handles (rte thread), on the head node (from
 * the daemon of map node `node`: false when the message is not what a daemon of ours sends,
 * which drops that daemon) and on a daemon (from the head). The head's and the daemons' own
 * types are theirs; a type with no handler is a bad peer's on the head and ignored (a newer
 * head's) on a daemon. Registered once, at the runtime's start; WU_ERR_BAD_PARAM for a type out
 * of range or taken. */
typedef bool (*wu_dmsg_at_head_fn)(struct rte_job *job, uint32_t node, wu_dmsg_t *m);
typedef void (*wu_dmsg_at_daemon_fn)(struct rte_job *job, wu_dmsg_t *m);
#define WU_DMSG_TYPES_MAX 64
int wu_dmsg_handle(uint32_t type, wu_dmsg_at_head_fn at_head, wu_dmsg_at_daemon_fn at_daemon);
/* The handlers of type (NULL: none). */
wu_dmsg_at_head_fn wu_dmsg_at_head(uint32_t type);
wu_dmsg_at_daemon_fn wu_dmsg_at_daemon(uint32_t type);

#endif
