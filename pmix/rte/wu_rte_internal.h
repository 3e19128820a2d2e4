/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_internal.h -- state shared by the files of pmix/rte. Everything here is touched only
 * on the rte progress thread, except where said. */
#ifndef WU_RTE_INTERNAL_H
#define WU_RTE_INTERNAL_H

#include "mca/pls/pls.h"
#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_time.h"
#include "pmix/rte/wu_rte.h"
#include "pmix/rte/map/wu_rte_jobmap.h"
#include "pmix/rte/map/wu_rte_map.h"
#include "pmix_common.h"
#include "pmix_server.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing byte buffer: a partial line of one output stream, kept until its newline arrives
 * (and, in wu_rte_iof.c, the queue of an output fd). */
typedef struct rte_line {
    char *buf;
    size_t len, cap;
} rte_line_t;

/* One process of the job; also its server_object for the PMIx server. */
typedef struct rte_proc {
    uint32_t rank;
    uint32_t ctx;      /* its application context (PMIX_APPNUM) */
    uint32_t ctx_rank; /* its rank within that context (PMIX_APP_RANK) */
    bool registered;   /* PMIx_server_register_client done */
    /* Set on the server's thread by the upcalls, before the client gets its answer, so they
     * are visible here by the time the process can have exited. */
    atomic_bool connected; /* client_connected seen */
    atomic_bool finalized; /* client_finalized seen */
    atomic_uint lost_seq;  /* 1, 2, ...: order in which connections ended unfinalized; 0: not */
    bool exited;           /* its end was reported: by pls, or by its node's daemon (rte thread) */
    bool ordered_end;      /* head node: a PMIx_Job_control kill or terminate was aimed at it, so
                            * its end is no failure (wu_rte_jobctl.c; rte thread) */
    int32_t lidx;          /* its index among job->pls's processes; -1: it runs on another node */
    /* How it ended, once exited (copied from pls, or from its daemon's report). */
    wu_pls_proc_state_t state;
    int wait_status;
    int exec_errno;
    pid_t pid;
    rte_line_t line[2]; /* stdout, stderr */
    int outfd[2];       /* --output-filename: its stdout and stderr files; -1: ours */
} rte_proc_t;

typedef struct rte_stdin rte_stdin_t;
typedef struct rte_job rte_job_t;
struct wu_pmdl_proc; /* mca/pmdl/pmdl.h */

/* What differs between the two roles a node can have in a job that spans nodes: the head node
 * (wrun: it started daemons on the other nodes; wu_rte_dvm.c) and a daemon (wired: the head
 * started it; wu_rte_daemon.c). The job core (wu_rte_job.c) calls these and never asks which
 * role a node plays; a job on one node has none (job->role NULL), and a NULL operation does
 * nothing unless its comment says otherwise. On the rte thread unless said. */
typedef struct rte_role {
    /* the server knows the job now */
    void (*registered)(rte_job_t *job);
    /* this node's processes were started: the other nodes learn their pids (and a daemon
     * passes on the standard input that came for them meanwhile) */
    void (*launched)(rte_job_t *job);
    /* the standard input of this node's processes comes from the head node, not from ours */
    bool stdin_from_head;
    /* (launcher's thread) the program could not be started here at all (err: errno): true when
     * the role reports it (a daemon's head says it for every node alike); else the job core does */
    bool (*launch_failed)(rte_job_t *job, int err);
    /* the job is to end though nothing here ended it (the head said so) */
    bool (*terminating)(const rte_job_t *job);
    /* output of a process of this node: true when the role took it; else the job's I/O does */
    bool (*output)(rte_job_t *job, uint32_t rank, int stream, const char *data, size_t len);
    /* a process of this node ended (its end filled in): true when the role took it; else it
     * goes to wu_rte_proc_ended */
    bool (*exited)(rte_job_t *job, rte_proc_t *rp);
    /* every process of this node has ended: true when the role took it; else the job core
     * checks whether the job is done */
    bool (*local_done)(rte_job_t *job);
    /* a rank of the job ended (its end was decided here): collectives it can no longer join
     * fail */
    void (*proc_ended)(rte_job_t *job, uint32_t rank);
    /* every other node has said its processes ended (NULL: there are none to wait for) */
    bool (*remote_done)(const rte_job_t *job);
    /* end the job's processes on the other nodes; deliver sig to them */
    void (*terminate)(rte_job_t *job);
    void (*signal)(rte_job_t *job, int sig);
    /* (launcher's thread) --timeout: name this node's lines and append the other nodes'
     * (what their servers see the job's processes blocked in) */
    void (*report)(rte_job_t *job, char ***lines);
    /* (launcher's thread) the job is over here: the other nodes' daemons end */
    void (*stop)(rte_job_t *job);
    /* standard input for a rank on another node (len 0: end of file) */
    void (*stdin_to)(rte_job_t *job, uint32_t rank, const char *data, size_t len);
    /* the job ends: what is left of the standard input from the head goes */
    void (*stdin_stop)(rte_job_t *job);
    /* (any thread) a line for the launcher's stderr, printed there with the other nodes'
     * (NULL: this node is the launcher's: print it) */
    void (*notice)(const char *text);
} rte_role_t;

struct rte_job {
    char nspace[PMIX_MAX_NSLEN + 1];
    char *nsdir; /* the job's session directory (PMIX_NSDIR), removed with the job */
    uint32_t np;
    rte_proc_t *procs;
    wu_pls_job_t *pls;         /* this node's processes (NULL when it runs none) */
    uint32_t nlocal;           /* their number */
    uint32_t *lranks;          /* nlocal entries: the rank of each of them (pls index -> rank) */
    bool local_done;           /* every process of this node has ended (or there is none) */
    struct rte_dvm *dvm;       /* head: the daemons of the job's other nodes, or NULL */
    struct rte_daemon *daemon; /* in wired: the link to the head node, or NULL */
    unsigned jobnum;           /* 1, 2, ...: the launcher's count of jobs, as in ORTE's tags */
    const wu_rte_spec_t *app;  /* what runs (valid while wu_rte_run runs) */
    uint32_t *ctx_first;       /* per application context: its first rank, */
    uint32_t *ctx_size;        /* and its number of processes */
    pmix_rank_t *scratch;      /* np entries, for rank lists in messages */
    rte_stdin_t *stdin_fwd;    /* --stdin forwarding (wu_rte_stdin.c), or NULL */
    wu_rte_jobmap_t *map;      /* which node runs which ranks: every placement fact */
    uint32_t mynode;           /* this launcher's node in map; UINT32_MAX: no rank here */
    wu_rte_topo_t *topo;       /* this node's topology */
    wu_rte_placement_t *place; /* this node's ranks (by local rank): cores and binding; NULL
                                * when no rank runs here */
    bool bind_for_real;        /* the topology is this machine's (not synthetic): bind */
    bool status_set;           /* the job's end is decided; later failures do not count */
    int status;
    /* A failure seen while a process whose connection ended earlier has not been reaped yet:
     * that process failed first and decides, once reaped (see on_exited). */
    bool have_pending;
    uint32_t pending_rank; /* the failure seen */
    uint32_t wait_rank;    /* the earlier process */
    bool terminating;
    int forwarded_sig;   /* the last SIGINT/SIGTERM/SIGHUP passed on to the job, or 0 */
    double forwarded_at; /* when (CLOCK_MONOTONIC seconds) */
    wu_wait_t done;      /* released when every process has ended (any thread may wait) */
    bool done_released;  /* done was released */
    bool registered;     /* the server knows the job (requests about its procs can be served) */
    /* A job started by PMIx_Spawn (wu_rte_children.c) beside the launcher's own job
     * (wu_rte_job), here and, with daemons of its own (dvm), on other nodes: who spawned it,
     * whether it is independent of its parent's job (PMIX_REPORT_CHILD_SEP: its failure does
     * not end that job, that job's end does not end it), and its description (owned by it). */
    bool child;
    bool starting; /* a child whose requester has not been told it started: its failure then
                    * fails the spawn, not the parent's job (rte thread) */
    bool spawned;  /* PMIx_Spawn started it (a child here, or a child's part in wired): its
                   * processes get PMIX_PARENT_ID (parent) and PMIX_SPAWNED */
    pmix_proc_t parent;
    bool independent;
    wu_rte_spec_t *own_app;
    struct rte_pmi *pmi; /* this node's PMI server for the job (wu_rte_pmi.c), or NULL */
    /* A spawned job with daemons: the wait of wu_rte_run_child for every node to say its
     * ranks started (wu_rte_job_started_check completes it; rte thread), or NULL. */
    wu_wait_call_t *start_call;
    const rte_role_t *role; /* the head's or a daemon's part in a job across nodes, or NULL */
};

/* wu_rte_job.c */
/* A child job (rte thread); NULL when nspace is none of them. */
rte_job_t *wu_rte_child_find(const char *nspace);
/* The launcher's job or a child of it running here, by namespace (rte thread), or NULL. */
rte_job_t *wu_rte_job_find(const char *nspace);
/* wu_rte_job.c for wu_rte_children.c: the number of processes app describes (its contexts
 * checked, as for the launcher's job), a job record for it, and its whole life in the calling
 * thread (not the rte thread): set-up, launch, launched(job, status) once its processes run or
 * could not be started, the wait for its end, release. Returns the job's exit status. */
int wu_rte_spec_check(const wu_rte_spec_t *app, uint32_t *np);
rte_job_t *wu_rte_job_new(const wu_rte_spec_t *app, uint32_t np);
/* Free a record of wu_rte_job_new that was never run. */
void wu_rte_job_discard(rte_job_t *job);
int wu_rte_run_child(rte_job_t *job, void (*launched)(rte_job_t *job, int rc, void *arg),
                     void *arg);
/* wu_rte_children.c: the spawn upcall (server thread); on the main thread, at the launcher's
 * job's end, wait until every child has ended and its thread is gone; on the rte thread, a
 * signal for the children, and the launcher's job failing (its children end too). */
pmix_status_t wu_rte_children_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[],
                                    size_t ninfo, const pmix_app_t apps[], size_t napps,
                                    pmix_spawn_cbfunc_t cbfunc, void *cbdata);
/* Plug the service in (once, at the runtime's start): it watches the jobs (wu_rte_job_observe:
 * a child's failure ends its parent's job unless it is independent, the launcher's job's
 * failure or signal reaches its children, and its end waits for theirs), and serves the
 * daemons' spawn requests on the head (WU_RTE_RPC_SPAWN; the answer is the new namespace). */
int wu_rte_children_attach(void);
extern rte_job_t *wu_rte_job; /* the running job, or NULL */
/* Decide the job's end (first call wins) and terminate what still runs. */
void wu_rte_job_fail(rte_job_t *job, int status);

/* The job's end as a process's: its exit status per the rules of wu_rte.h, decided on the head
 * node (wu_rte_job.c). rp's end (state, wait_status, exec_errno, pid, connected, finalized) is
 * filled in. */
void wu_rte_proc_ended(rte_job_t *job, rte_proc_t *rp);
/* Every process of the job has ended, and every daemon has said so: release the job's wait.
 * Called whenever one of those changes (rte thread). */
void wu_rte_job_check_done(rte_job_t *job);
/* A service that watches this node's jobs (publish/lookup, connect, PMI, ...): told of each
 * process's end and each job's end, on the rte thread, in the order the observers were added.
 * A NULL member is not called. */
typedef struct rte_job_observer {
    /* a process of this node exited, before its end is looked at (lidx: its index among the
     * node's processes) */
    void (*local_exited)(rte_job_t *job, uint32_t lidx);
    /* a rank's end was decided here (the head node, or a job on one node) or reported (wired) */
    void (*proc_ended)(rte_job_t *job, uint32_t rank);
    /* the job failed, for the first time (status: the job's) */
    void (*job_failed)(rte_job_t *job, int status);
    /* the launcher got sig for the job (wu_rte_interrupt), before the job's processes get it */
    void (*job_signalled)(rte_job_t *job, int sig);
    /* (launcher's thread) the job's processes here are reaped, its other nodes stopped */
    void (*job_finishing)(rte_job_t *job);
    /* (launcher's thread) the job's output is all written: last words */
    void (*job_output_done)(rte_job_t *job);
    /* the job is about to be forgotten */
    void (*job_ended)(rte_job_t *job);
    /* A service's part in the job's life, besides its ends. (launcher's thread) The job is
     * registered here, its processes not set up yet; then each process of this node (lidx)
     * before the programming models set its environment (mp: what they are told; a service
     * may give the process a descriptor to keep: mp->pmi_fd and job->pls->procs[lidx].keep_fd).
     * An error fails the job's start. */
    int (*job_setup)(rte_job_t *job);
    int (*proc_setup)(rte_job_t *job, uint32_t lidx, struct wu_pmdl_proc *mp);
    /* this node's processes were started (or could not be) */
    void (*job_launched)(rte_job_t *job);
    /* --timeout: what this node's processes wait for in the service, one line each appended */
    void (*job_blocked)(rte_job_t *job, char ***lines);
    /* this node's processes are reaped: what the service holds for the job goes */
    void (*job_released)(rte_job_t *job);
} rte_job_observer_t;
/* Add an observer (before any job runs; it must outlive the runtime). WU_ERR_OUT_OF_RESOURCE
 * past WU_RTE_OBSERVERS_MAX. */
#define WU_RTE_OBSERVERS_MAX 8
int wu_rte_job_observe(const rte_job_observer_t *obs);
/* Rte thread: what this node's processes of job wait for in the services (--timeout's report),
 * one line each appended to *lines. */
void wu_rte_job_blocked(rte_job_t *job, char ***lines);
/* How the head node starts the daemons of a job across nodes (sets job->role; the launcher's
 * thread); without it such a job cannot run. */
void wu_rte_job_set_remote_start(int (*start)(rte_job_t *job));
/* How wu_rte_job_find finds a job other than the launcher's (spawned children; rte thread). */
void wu_rte_job_set_finder(rte_job_t *(*find)(const char *nspace));

/* A rank of another node started (its pid came) or ended: complete wu_rte_run_child's wait for
 * the job's remote start once every such rank has (rte thread). */
void wu_rte_job_started_check(rte_job_t *job);
/* The name of the node running rank (for messages). */
const char *wu_rte_rank_host(const rte_job_t *job, uint32_t rank);

/* In wired: run the job the head node sent (app, nspace, its map; this node is map node mynode;
 * parent: who spawned it, an empty namespace for nobody) through its end; the daemon link
 * carries outputs and ends up and commands down. Takes map. */
int wu_rte_run_daemon_job(const wu_rte_spec_t *app, const char *nspace, wu_rte_jobmap_t *map,
                          uint32_t mynode, const pmix_proc_t *parent, const rte_role_t *role,
                          struct rte_daemon *daemon, int *status);

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
 * radix and the --prefix for their own subtrees. */
typedef struct {
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
/* rte thread, once the agents run: the token line on every agent's stdin, which is closed. */
void wu_rte_tree_token(wu_rte_tree_t *t, const char *token);
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
/* An event for the other nodes (any thread): packed as an EVENT message and sent as above
 * (wu_rte_host.c). */
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
/* A process of the job called PMIx_Abort (or its daemon says it did): tell the user, end the
 * job with its status (rte thread). */
void wu_rte_job_abort(const pmix_proc_t *proc, int status, const char *msg);

/* wu_rte_jobctl.c: PMIx_Job_control's signal, kill and terminate (rules in the file). The host's
 * job_control upcall (server thread). */
pmix_status_t wu_rte_jobctl_upcall(const pmix_proc_t *requester, const pmix_proc_t targets[],
                                   size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata);
/* Plug job control in (once, at the runtime's start): JOBCTL messages on the head and on the
 * daemons. */
int wu_rte_jobctl_attach(void);
/* Head, rte thread: a JOBCTL for every daemon. wired, any thread: a message of type for the
 * head (PMIX_ERR_UNREACH when it is gone). */
void wu_rte_dvm_jobctl(rte_job_t *job, const char *msg, size_t len);
pmix_status_t wu_rte_daemon_up(uint32_t type, const char *msg, size_t len);

/* wu_rte_pmi.c: plug the PMI-1/PMI-2 server of this node's processes (MPICH's simple PMI) in,
 * once, at the runtime's start: it follows each job through wu_rte_job_observe (its state at
 * set-up, a connection for each process a programming model wants one for, serving once the
 * processes started, a process's end, what its processes are blocked in, the job's release). */
int wu_rte_pmi_attach_service(void);
/* wu_rte_host.c: a process's connection ended before it finalized (any thread): the order of
 * such ends decides which failure the job reports. */
void wu_rte_proc_lost(rte_proc_t *p);

/* wu_rte_host.c: the PMIx server and its host module (called on the launcher's main thread). */
int wu_rte_server_init(void);
void wu_rte_server_finalize(void);
/* wu_rte_reg.c: the job's registration with the server, from its map (main thread). */
int wu_rte_register_job(rte_job_t *job);
void wu_rte_deregister_job(rte_job_t *job);
/* The job's registration without what describes one node (its local peers, sizes, session
 * directories, topology): what another wrun registers for it after a connect (rte thread). The
 * array is the caller's (PMIX_INFO_FREE(*info, *n)). */
int wu_rte_reg_portable_info(rte_job_t *job, pmix_info_t **info, size_t *n);
/* Add the PMIx contact environment of rank to *env. */
int wu_rte_setup_fork(rte_job_t *job, uint32_t rank, char ***env);

/* wu_rte_iof.c: output of the job's processes to the launcher's stdout/stderr, queued so that
 * the rte thread never blocks on a reader (the file comment there has the rules). */
/* Returns false once the launcher's own stream is gone (EPIPE): stop reading that stream. */
bool wu_rte_iof_output(rte_job_t *job, uint32_t rank, int stream, const char *data, size_t len);
/* At the job's end (launcher's main thread, after the pls job is freed and the job forgotten):
 * write out what is left of every partial line, free the buffers and output files, and wait
 * until the queued output is written or given up (a bounded time, see the file comment). */
void wu_rte_iof_flush(rte_job_t *job);
/* The same for a child job's processes: their partial lines and files only (the launcher's
 * queues go on serving its own job). */
void wu_rte_iof_flush_lines(rte_job_t *job);
/* rte thread: text for the launcher's own stdout or stderr (fd 1 or 2: its messages, the log
 * lines of plog), queued behind the job's output while a job runs or is being flushed. false:
 * no queue now, the caller writes it itself. */
bool wu_rte_iof_message(int fd, const char *text, size_t len);
/* rte thread: the launcher was interrupted; a flush in progress gives up on what is queued. */
void wu_rte_iof_interrupt(void);
/* wu_rte_log.c: the host's log upcall, and the count of repeated help messages (after the job;
 * also forgets them). */
void wu_rte_log_upcall(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                       const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                       void *cbdata);
/* Plug the log in (once, at the runtime's start): its summary follows the launcher's job's
 * output. */
int wu_rte_log_attach(void);
/* Route plog's writes to our stdout/stderr through the output queues (after the rte thread
 * starts), and stop doing so (before it stops). */
void wu_rte_log_start(void);
void wu_rte_log_stop(void);

/* wu_rte_place.c: map and bind the job before launch (reports problems to the user and returns
 * WU_ERR_SILENT); print --report-bindings once the processes run; release. */
int wu_rte_place_job(rte_job_t *job);
/* Does the job run processes on a node other than this one? */
bool wu_rte_job_remote(const rte_job_t *job);
void wu_rte_place_report(rte_job_t *job);
void wu_rte_place_free(rte_job_t *job);

/* wu_rte_stdin.c: forward our stdin to the processes launched with a stdin pipe (rte thread,
 * after launch), and release the forwarding (rte thread). */
int wu_rte_stdin_start(rte_job_t *job);
void wu_rte_stdin_stop(rte_job_t *job);
/* A daemon wrote n more bytes of our stdin to rank (head node, rte thread). */
void wu_rte_stdin_acked(rte_job_t *job, uint32_t rank, size_t n);
/* Can fd be watched in the event loop (a pipe, socket or terminal)? Regular files and other
 * devices cannot (epoll refuses them); they never make a reader or writer wait anyway. */
bool wu_rte_pollable(int fd);
/* --output-filename: make DIR/<job>/rank.<N>/ and open the files (before launch). Reports a
 * failure to the user and returns WU_ERR_SILENT. */
int wu_rte_iof_open_files(rte_job_t *job);

#endif
