/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_dist.h -- the distributed layer of the runtime (pmix/rte/dist): the daemons (wired) of
 * a job's other nodes and the head node's side of them -- starting them along the launch tree,
 * their messages (wu_rte_dmsg.h), relays, heartbeats, fences and direct modex across nodes,
 * events across nodes, the daemons' requests to the head (wu_rte_rpc.h) and the table of pids.
 * It implements the two roles of rte_role_t (job/wu_rte_job.h) and calls no service: services
 * plug into its messages (wu_dmsg_handle) and requests (wu_rte_rpc_handle). Everything here is
 * touched only on the rte progress thread, except where said. */
#ifndef WU_RTE_DIST_H
#define WU_RTE_DIST_H

#include "mca/pls/pls.h"
#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "pmix/rte/job/wu_rte_job.h"
#include "pmix_common.h"
#include "pmix_server.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* wu_rte_spawn.c: starting wired daemons (the head's first level, and each daemon's subtree). */
/* The launch tree: cut n daemons into at most radix chunks (0: one each), in order, as even as
 * possible; chunk i is starts[i], lens[i] (both with room for n); returns how many. The first
 * of a chunk is started by the parent and starts the rest of its chunk. */
uint32_t wu_rte_tree_chunks(uint32_t n, uint32_t radix, uint32_t *starts, uint32_t *lens);
/* "K:host,K:host" for wired's --spawn (NULL: out of memory), and back (WU_ERR_BAD_PARAM for
 * a malformed spec). */
char *wu_rte_tree_spec(const uint32_t *nodes, char *const *hosts, uint32_t n);
int wu_rte_tree_parse(const char *spec, uint32_t **nodes, char ***hosts, uint32_t *n);
/* wired as the other nodes run it: DIR/bin/wired with --prefix DIR, else the one next to the
 * running program (malloc'ed; NULL: out of memory). */
char *wu_rte_wired_path(const char *prefix);
/* Fill p, a process of a pls job the rsh component runs, to start wired for map node `node` on
 * host, calling back to the head at port/addrs, with the subtree it must start (spec; NULL or
 * "": none), the radix and --prefix for it, and the variables of our environment a daemon
 * takes that fit its command line (wu_rte_spawn_env). */
int wu_rte_spawn_proc(wu_pls_proc_t *p, const char *wired, uint32_t node, const char *host,
                      unsigned port, const char *addrs, uint32_t radix, const char *subtree,
                      const char *prefix);
/* The variables of our environment a daemon takes, split: *cmdline, those on the agent's
 * command line (each at most WU_RTE_ENV_ARG_MAX bytes, or WU_RTE_ENV_ARG_MAX_START for those
 * wired needs from its start: not WU_*; all together at most WU_RTE_ENV_CMD_MAX, quotes
 * counted), and *later, the WU_* ones that do not fit, which the head sends in LAUNCH. A
 * variable needed at start that does not fit: WU_ERR_BAD_PARAM and *toobig, its name
 * (malloc'd). */
#define WU_RTE_ENV_ARG_MAX       4096
#define WU_RTE_ENV_ARG_MAX_START 32768
#define WU_RTE_ENV_CMD_MAX       65536
int wu_rte_spawn_env(char ***cmdline, char ***later, char **toobig);
/* Write what an agent (or the daemon it started) wrote to our stderr, each line as "[name] ...". */
void wu_rte_agent_lines(const char *name, const char *data, size_t len);
/* This node's IPv4 addresses but loopback, "a,b" ("-": none; NULL: out of memory). */
char *wu_rte_node_addrs(void);

/* Listen on TCP on every interface (ptl tcp) with cbs/cbdata on pt's thread (not from it);
 * *port: the ephemeral port it got. WU_SUCCESS, or ptl's error (nothing is left open). */
int wu_rte_listen_tcp(wu_progress_t *pt, const wu_ptl_listener_cbs_t *cbs, void *cbdata,
                      wu_ptl_listener_t **out, unsigned *port);

/* One parent's share of the launch tree: the daemons it must see started (in order), cut in
 * chunks, and the agents (not launched yet) that start the first daemon of each chunk. */
typedef struct wu_rte_tree {
    uint32_t n;
    uint32_t *nodes; /* their map nodes */
    char **hosts;
    uint32_t nchunks;
    uint32_t *starts, *lens; /* per chunk: the index of its first daemon, how many */
    wu_pls_job_t *agents;    /* agent c starts chunk c's first daemon; NULL when n is 0 */
} wu_rte_tree_t;
/* How the daemons are started: wired's path, the port and addresses they call back to, the
 * radix and the --prefix for their own subtrees, and the token they present (pls hands it to
 * them: the agents' secret). */
typedef struct {
    const char *secret;
    const char *wired;
    unsigned port;
    const char *addrs;
    uint32_t radix;
    const char *prefix;
} wu_rte_tree_args_t;
int wu_rte_tree_make(wu_rte_tree_t *t, const uint32_t *nodes, char *const *hosts, uint32_t n,
                     const wu_rte_tree_args_t *a);
/* The index in t->nodes of map node `node`, the chunk holding it (UINT32_MAX: none), and
 * chunk c's first daemon's node. */
uint32_t wu_rte_tree_index(const wu_rte_tree_t *t, uint32_t node);
uint32_t wu_rte_tree_chunk_of(const wu_rte_tree_t *t, uint32_t node);
uint32_t wu_rte_tree_first(const wu_rte_tree_t *t, uint32_t c);
void wu_rte_tree_free(wu_rte_tree_t *t);

/* wu_rte_dvm.c: on the head node, the daemons (wired) of the job's other nodes, started with
 * ssh and reached over TCP (wu_rte_dmsg.h has the messages). */
/* Main thread, after placement: start a daemon on every other node of the map and wait until
 * each has connected and authenticated (bounded), and make this node the job's head
 * (job->role: the rest of the head's side, rte_role_t). Failures are reported; WU_ERR_SILENT. */
int wu_rte_dvm_start(rte_job_t *job);
/* Host-module upcalls of the head node's server for a multi-node job (server thread); timeout:
 * the fence's PMIX_TIMEOUT in seconds, 0 for none. */
pmix_status_t wu_rte_dvm_fence(const pmix_proc_t procs[], size_t nprocs, const char *data,
                               size_t ndata, int timeout, pmix_modex_cbfunc_t cbfunc, void *cbdata);
pmix_status_t wu_rte_dvm_dmodex(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc, void *cbdata);

/* An event of this node's clients for other nodes (server thread): packed as an EVENT message,
 * sent to every daemon (head) or to the head (wired). */
pmix_status_t wu_rte_dvm_event(const char *msg, size_t len);
pmix_status_t wu_rte_daemon_event(const char *msg, size_t len);
/* wu_rte_events.c: an event for the other nodes (any thread): packed as an EVENT message and
 * sent as above. */
pmix_status_t wu_rte_event_spread(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t info[], size_t ninfo);
/* An EVENT message from another node: notify this node's clients (rte thread). */
void wu_rte_event_deliver(const char *msg, size_t len);

/* wu_rte_daemon.c: in wired, the same upcalls, forwarded to the head node (server thread). */
pmix_status_t wu_rte_daemon_fence(const pmix_proc_t procs[], size_t nprocs, const char *data,
                                  size_t ndata, int timeout, pmix_modex_cbfunc_t cbfunc,
                                  void *cbdata);
pmix_status_t wu_rte_daemon_dmodex(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                                   void *cbdata);
pmix_status_t wu_rte_daemon_abort(const pmix_proc_t *proc, int status, const char *msg);
/* In wired: this node's index in the job map (UINT32_MAX outside a daemon), and a message
 * to the head (m destructed here; rte thread): PMIX_ERR_UNREACH once the head is gone. */
uint32_t wu_rte_daemon_node(void);
/* In wired: the namespace of the job it serves (NULL before it came; any thread once set). */
const char *wu_rte_daemon_nspace(void);
pmix_status_t wu_rte_daemon_send(uint32_t type, pmix_data_buffer_t *m);

/* Head, rte thread: a JOBCTL for every daemon. wired, any thread: a message of type for the
 * head (PMIX_ERR_UNREACH when it is gone). */
void wu_rte_dvm_jobctl(rte_job_t *job, const char *msg, size_t len);
pmix_status_t wu_rte_daemon_up(uint32_t type, const char *msg, size_t len);

#endif
