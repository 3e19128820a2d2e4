/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_job.h -- the job layer of the runtime (pmix/rte/job): one job on this node, whatever
 * role the node plays in it -- its record, set-up and launch, its processes' ends and the exit
 * rules, its I/O, its placement and its registration with the local PMIx server -- and the two
 * seams the layers above plug into: the role of a node in a job across nodes (rte_role_t) and
 * the services that follow the jobs (rte_job_observer_t). It calls nothing above it. Everything
 * here is touched only on the rte progress thread, except where said. */
#ifndef WU_RTE_JOB_H
#define WU_RTE_JOB_H

#include "mca/pls/pls.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_time.h"
#include "pmix/rte/core/wu_rte_core.h"
#include "pmix/rte/job/wu_rte_spec.h"
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
 * (wrun: it started daemons on the other nodes; dist/wu_rte_dvm.c) and a daemon (wired: the
 * head started it; dist/wu_rte_daemon.c). The job core (wu_rte_job.c) calls these and never
 * asks which role a node plays; a job on one node has none (job->role NULL), and a NULL
 * operation does nothing unless its comment says otherwise. On the rte thread unless said. */
typedef struct rte_role {
    /* the server knows the job now */
    void (*registered)(rte_job_t *job);
    /* this node's processes were started: the other nodes learn their pids (and a daemon
     * passes on the standard input that came for them meanwhile) */
    void (*launched)(rte_job_t *job);
    /* the standard input of this node's processes comes from the head node, not from ours */
    bool stdin_from_head;
    /* (launcher's thread) the program could not be started here at all (err: errno): the role
     * reports it (a daemon's head says it for every node alike); NULL: the job core does */
    void (*launch_failed)(rte_job_t *job, int err);
    /* the job is to end though nothing here ended it (the head said so) */
    bool (*terminating)(const rte_job_t *job);
    /* output of a process of this node (NULL: the job's I/O writes it) */
    void (*output)(rte_job_t *job, uint32_t rank, int stream, const char *data, size_t len);
    /* a process of this node ended (its end filled in, rp->exited set; NULL: it goes to
     * wu_rte_proc_ended) */
    void (*exited)(rte_job_t *job, rte_proc_t *rp);
    /* every process of this node has ended (NULL: the job core checks whether the job is
     * done) */
    void (*local_done)(rte_job_t *job);
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

/* wu_rte_job.c, wu_rte_job_end.c */
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
    /* a rank's end was decided here (the head node, or a job on one node; not in wired) */
    void (*proc_ended)(const pmix_proc_t *proc);
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

/* A process of the job called PMIx_Abort (or its daemon says it did): tell the user, end the
 * job with its status (rte thread). */
void wu_rte_job_abort(const pmix_proc_t *proc, int status, const char *msg);
/* A process's connection ended before it finalized (any thread): the order of such ends
 * decides which failure the job reports. */
void wu_rte_proc_lost(rte_proc_t *p);

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
