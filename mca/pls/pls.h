/* SPDX-License-Identifier: BSD-3-Clause */
/* pls.h -- the pls framework: how the processes of a job are started, signalled and stopped.
 *
 * The caller (the rte of wrun or wired) decides what to run: it fills a wu_pls_job_t with the
 * program, its arguments and working directory, and one complete environment per process (the
 * PMIx contact variables included). pls decides how to start it: one component is selected
 * in priority order; the first whose launch_job does not pass the job on with WU_ERR_TAKE_NEXT
 * launches it and performs the PLS operations of ORTE's pls.h for it: launch a job, terminate
 * it, terminate its daemons, terminate or signal one process, signal the whole job, cancel an
 * operation, finalize. "slurm" (priority 30, only inside a Slurm allocation) takes the jobs
 * whose processes name a host and starts each through srun; otherwise "rsh" (priority 20) takes
 * them and starts each through the remote agent (ssh); both let the next module ("fork", 10)
 * run srun or the agents; "fork" runs the processes of this node as its children. A component
 * may also say which nodes the job was given (allocation).
 *
 * Threads: a job belongs to one progress thread (job->progress). The component runs all of its
 * work for the job there and calls the job's callbacks (started, output, exited, done) from
 * there, so the caller's job state needs no lock if it too lives on that thread. The wu_pls_*
 * entry points below may be called from any thread that is not another progress thread: they
 * shift into job->progress and wait for the operation to be done (from job->progress itself
 * they run inline). The module ops are only ever called on the job's progress thread.
 *
 * Lifetime: wu_pls_job_new -> fill in -> wu_pls_launch_job -> callbacks ... done ->
 * wu_pls_job_free. Freeing a job whose processes still run kills them (SIGKILL) and reaps them
 * first, so nothing is left behind.
 *
 * Daemons: the runtime starts its daemons on other nodes (wired) as the processes of a pls job
 * whose processes name their host and whose secret is set. Everything the daemons' bootstrap
 * needs from the launch system goes through this interface, so a component may start them any
 * way it likes (a local command such as ssh or srun, or a resource manager's API):
 *  - the secret: each daemon presents it when it calls back. By default (hands_secret false)
 *    pls writes it as one line on the process's standard input once the process runs, and
 *    closes that; a component whose tasks have no standard input hands it over itself, in the
 *    task's environment as WU_DAEMON_SECRET (which wired reads, and removes, before its standard
 *    input);
 *  - failures: a task that could not be started, or was lost, ends with its exited callback
 *    (state FAILED or EXITED); a component that knows why in words (an API's error) says so
 *    first with wu_pls_base_proc_failed, and the runtime names the node with those words
 *    (otherwise with what the process wrote, and how it ended);
 *  - liveness: the exited callback is the end of the task for the runtime; once a daemon has
 *    called back, its own connection and heartbeats tell the rest.
 * docs/contributing.md walks through writing such a component. */
#ifndef WU_PLS_H
#define WU_PLS_H

#include "mca/base/wu_mca.h"
#include "opal/event/wu_progress.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define WU_pls_VERSION 1u

typedef enum {
    WU_PLS_PROC_INIT,    /* not started yet */
    WU_PLS_PROC_RUNNING, /* exec succeeded */
    WU_PLS_PROC_FAILED,  /* could not be started (exec_errno says why); it is reaped */
    WU_PLS_PROC_EXITED,  /* ended; wait_status is what waitpid returned */
} wu_pls_proc_state_t;

/* Exit codes of a process that could not be started, as a shell reports them. */
#define WU_PLS_EXIT_NOT_FOUND  127 /* the program does not exist */
#define WU_PLS_EXIT_CANNOT_RUN 126 /* it exists but cannot be executed */

typedef struct wu_pls_job wu_pls_job_t;

typedef struct wu_pls_proc {
    uint32_t rank;
    char **env; /* the complete environment (owned: freed by wu_pls_job_free); NULL: environ */
    pid_t pid;  /* 0 until started */
    wu_pls_proc_state_t state;
    int wait_status; /* raw waitpid status, valid once EXITED or FAILED */
    int exec_errno;  /* why the start failed (FAILED) */
    void *user;      /* the caller's, never touched by pls */
    void *pls_data;  /* the component's */
    /* Set by the caller before launch: */
    char **argv;       /* its own program and arguments (owned; MPMD); NULL: the job's */
    char *cwd;         /* its own working directory (owned); NULL: the job's */
    char *cpus;        /* Linux cpu list ("0-1,4") to bind the process to (owned); NULL: unbound */
    bool want_stdin;   /* give it a pipe as standard input (else /dev/null) */
    char *host;        /* the node to run it on, through the remote agent (owned); NULL: here */
    char **remote_env; /* with host: NAME=value set on that node for the program (owned) */
    /* A descriptor of the caller's (close-on-exec, above 2) that the process inherits at the
     * same number, close-on-exec cleared there (its PMI connection); the caller keeps its copy
     * and closes it. -1: none. Only for processes of this node (no host). */
    int keep_fd;
    /* Set by launch when want_stdin: the write end of that pipe, non-blocking, owned by pls
     * until the caller closes it with wu_pls_close_stdin (or the job is freed). -1 otherwise. */
    int stdin_fd;
} wu_pls_proc_t;

/* Stream numbers of output callbacks. */
#define WU_PLS_STDOUT 1
#define WU_PLS_STDERR 2

typedef struct wu_pls_callbacks {
    /* The process was started (its program is running). */
    void (*started)(wu_pls_job_t *job, wu_pls_proc_t *proc);
    /* Bytes the process wrote on stream (WU_PLS_STDOUT/STDERR), in arbitrary pieces; len 0
     * means end of file on that stream. Return false to stop reading the stream: its pipe is
     * closed, so the process's further writes fail with EPIPE or SIGPIPE, as in a shell
     * pipeline whose reader went away (no end-of-file call follows). */
    bool (*output)(wu_pls_job_t *job, wu_pls_proc_t *proc, int stream, const char *data,
                   size_t len);
    /* The process ended (state EXITED with wait_status, or FAILED with exec_errno). Output it
     * wrote before ending has been delivered by then. Called once per process. */
    void (*exited)(wu_pls_job_t *job, wu_pls_proc_t *proc);
    /* Every process of the job has ended (after the last exited callback). */
    void (*done)(wu_pls_job_t *job);
    /* The component's words on why the process could not be started or was lost (a resource
     * manager's error), before its exited callback. Optional for both sides. */
    void (*failed)(wu_pls_job_t *job, wu_pls_proc_t *proc, const char *why);
} wu_pls_callbacks_t;

struct wu_pls_job {
    char *nspace;      /* for messages; owned */
    char **argv;       /* program and arguments (owned); argv[0] is looked up in PATH */
    char *cwd;         /* working directory (owned); NULL: the caller's */
    bool merge_stderr; /* the processes' stderr goes to their stdout pipe */
    uint32_t nprocs;
    wu_pls_proc_t *procs; /* nprocs records, rank i at index i */
    wu_progress_t *progress;
    wu_pls_callbacks_t cb;
    void *user; /* the caller's */
    /* state */
    uint32_t nended;         /* processes whose exited callback ran */
    bool launched;           /* launch_job was called (successfully or not) */
    bool terminating;        /* terminate_job was called */
    int launch_errno;        /* why the program could not be found, when launch_job failed */
    const char *launch_prog; /* which program that was (points into argv or a proc's argv) */
    const void *module;      /* the module that launched it */
    const void *runner;      /* the module that runs its processes when module passed them on */
    void *pls_data;          /* the component's */
    char *prefix;            /* processes with a host: the install prefix there, whose bin and lib
                   * directories go first in their PATH and LD_LIBRARY_PATH (owned); NULL: none */
    char *secret; /* a daemon job's bootstrap secret, a line of printable text (owned); NULL:
                   * none. See Daemons above. */
};

/* A node of an allocation (wu_pls_base_allocation). */
typedef struct wu_pls_node {
    char *name;
    uint32_t slots;
} wu_pls_node_t;

/* A job's module operations; see the file comment for threads. timeout is a grace period in
 * seconds between SIGTERM and SIGKILL (<= 0: the component's default). */
typedef struct wu_pls_module {
    /* Start every process of job. WU_SUCCESS: every process is accounted for, it either runs
     * (started) or failed (exited with state FAILED: its exec failed, or it could not even be
     * forked). An error means nothing was started and no callback will come:
     * WU_ERR_NOT_FOUND / WU_ERR_NO_PERMISSIONS when argv[0] cannot be executed (launch_errno
     * says why), WU_ERR_BAD_PARAM, WU_ERR_NOMEM, WU_ERR_SYS. */
    int (*launch_job)(wu_pls_job_t *job);
    /* Ask every process to end (SIGTERM), SIGKILL what is left after timeout. Returns at once;
     * the exited callbacks report the ends. */
    int (*terminate_job)(wu_pls_job_t *job, double timeout);
    /* Stop the daemons that run the job (components without daemons: nothing, WU_SUCCESS). */
    int (*terminate_daemons)(wu_pls_job_t *job, double timeout);
    /* terminate_job for one process. */
    int (*terminate_proc)(wu_pls_job_t *job, wu_pls_proc_t *proc);
    /* Deliver signal sig to every running process (and what they started in their process
     * group). WU_ERR_BAD_PARAM for an invalid signal. */
    int (*signal_job)(wu_pls_job_t *job, int sig);
    /* Deliver sig to one process. WU_ERR_NOT_FOUND if it is not running. */
    int (*signal_proc)(wu_pls_job_t *job, wu_pls_proc_t *proc, int sig);
    /* Cancel an operation in progress with daemons (fork: nothing to cancel). */
    int (*cancel_operation)(void);
    /* Release the module's resources of one job (kills and reaps what still runs). */
    void (*release_job)(wu_pls_job_t *job);
    /* Stop (hold true) or resume reading stream (WU_PLS_STDOUT/STDERR) of every process: while
     * held, output stays in the pipes, and a process that fills its pipe waits in its write.
     * Output of a process that has ended is still delivered before its exited callback.
     * Optional (NULL: output is always read). */
    void (*hold_output)(wu_pls_job_t *job, int stream, bool hold);
    /* Release the module's global resources. */
    void (*finalize)(void);
    /* The nodes and slot counts the resource manager behind this component gave the job (its
     * allocation), in the manager's order. WU_SUCCESS; WU_ERR_NOT_FOUND when there is none;
     * WU_ERR_BAD_PARAM when it cannot be read (*why says why: free()). Optional (NULL: none). */
    int (*allocation)(wu_pls_node_t **nodes, uint32_t *n, char **why);
    /* The component starts every daemon from the head node itself: no launch tree. */
    bool flat;
    /* Its launch_job hands a job's secret to each process itself (see Daemons above); false:
     * pls gives each a standard input and writes the secret there once the launch succeeded. */
    bool hands_secret;
} wu_pls_module_t;

WU_EXPORT extern wu_mca_framework_t wu_mca_pls_framework;

/* Open / close the framework (select one component). Refcounted. */
int wu_pls_base_open(void);
void wu_pls_base_close(void);
/* The first module in priority order; NULL if the framework is not open. */
const wu_pls_module_t *wu_pls_base_module(void);
/* Name of the component that launched job, or of the first one if job is NULL or not launched;
 * NULL if none. */
WU_EXPORT const char *wu_pls_base_component_name(const wu_pls_job_t *job);
/* The allocation of the first module, in priority order, that has one (see the module's
 * allocation); WU_ERR_NOT_FOUND when none has. Free with wu_pls_nodes_free. */
WU_EXPORT int wu_pls_base_allocation(wu_pls_node_t **nodes, uint32_t *n, char **why);
WU_EXPORT void wu_pls_nodes_free(wu_pls_node_t *nodes, uint32_t n);
/* Does the module that starts daemons on other nodes start them all itself (flat)? */
bool wu_pls_base_flat(void);
/* For components that turn a job's processes into commands run here (rsh, slurm): launch job
 * with the modules after m, in priority order, until one takes it (WU_ERR_NOT_SUPPORTED when
 * none does); that module becomes the job's runner. The wu_pls_fwd_* operations are those
 * components' other operations: the runner's, on the commands (WU_ERR_INIT without one). */
WU_EXPORT int wu_pls_base_launch_next(const wu_pls_module_t *m, wu_pls_job_t *job);
/* For those components: their launch_job. When some process of job names a host, every one
 * must (WU_ERR_BAD_PARAM otherwise): each gets cmd's command line in place of its own (its host
 * is dropped), the job's program becomes the first command's (launch failures name it), and
 * wu_pls_base_launch_next launches them. WU_ERR_TAKE_NEXT when no process names a host. */
typedef int (*wu_pls_remote_cmd_fn)(const wu_pls_job_t *job, const wu_pls_proc_t *proc,
                                    char ***argv);
WU_EXPORT int wu_pls_base_launch_remote(const wu_pls_module_t *m, wu_pls_job_t *job,
                                        wu_pls_remote_cmd_fn cmd);
WU_EXPORT int wu_pls_fwd_terminate_job(wu_pls_job_t *job, double timeout);
WU_EXPORT int wu_pls_fwd_terminate_daemons(wu_pls_job_t *job, double timeout);
WU_EXPORT int wu_pls_fwd_cancel_operation(void);
WU_EXPORT int wu_pls_fwd_terminate_proc(wu_pls_job_t *job, wu_pls_proc_t *proc);
WU_EXPORT int wu_pls_fwd_signal_job(wu_pls_job_t *job, int sig);
WU_EXPORT int wu_pls_fwd_signal_proc(wu_pls_job_t *job, wu_pls_proc_t *proc, int sig);
WU_EXPORT void wu_pls_fwd_release_job(wu_pls_job_t *job);
WU_EXPORT void wu_pls_fwd_hold_output(wu_pls_job_t *job, int stream, bool hold);
/* Those operations, as members of such a component's module. */
#define WU_PLS_FWD_OPS                                                                            \
    .terminate_job = wu_pls_fwd_terminate_job, .terminate_daemons = wu_pls_fwd_terminate_daemons, \
    .terminate_proc = wu_pls_fwd_terminate_proc, .signal_job = wu_pls_fwd_signal_job,             \
    .signal_proc = wu_pls_fwd_signal_proc, .cancel_operation = wu_pls_fwd_cancel_operation,       \
    .release_job = wu_pls_fwd_release_job, .hold_output = wu_pls_fwd_hold_output
/* For components: the module after m in priority order (the one a module that passes a job on
 * relies on), NULL if none. */
WU_EXPORT const wu_pls_module_t *wu_pls_base_next_module(const wu_pls_module_t *m);

/* A new job of nprocs processes running argv (copied) on progress; NULL on bad input (nprocs 0,
 * empty argv, NULL progress) or out of memory. */
wu_pls_job_t *wu_pls_job_new(const char *nspace, uint32_t nprocs, char *const argv[],
                             wu_progress_t *progress);
/* Release a job (see Lifetime above). NULL is a no-op. Not from within its callbacks. */
void wu_pls_job_free(wu_pls_job_t *job);

/* The operations, thread shifted (see above). Each returns the module's status, or WU_ERR_INIT
 * when the framework is not open. */
int wu_pls_launch_job(wu_pls_job_t *job);
int wu_pls_terminate_job(wu_pls_job_t *job, double timeout);
int wu_pls_terminate_daemons(wu_pls_job_t *job, double timeout);
int wu_pls_terminate_proc(wu_pls_job_t *job, uint32_t rank);
int wu_pls_signal_job(wu_pls_job_t *job, int sig);
int wu_pls_signal_proc(wu_pls_job_t *job, uint32_t rank, int sig);
int wu_pls_cancel_operation(void);

/* Close the write end of rank's standard input (end of file for it). Job's progress thread. */
void wu_pls_close_stdin(wu_pls_job_t *job, uint32_t rank);
/* The module's hold_output for a launched job (a no-op otherwise). Job's progress thread: the
 * caller's output callback may hold its own stream. */
void wu_pls_hold_output(wu_pls_job_t *job, int stream, bool hold);

/* For components: call the caller's callbacks and keep the job's counters. */
WU_EXPORT void wu_pls_base_proc_started(wu_pls_job_t *job, wu_pls_proc_t *proc);
WU_EXPORT void wu_pls_base_proc_ended(wu_pls_job_t *job, wu_pls_proc_t *proc);
/* For components: why proc failed or was lost, in words (before its end). */
WU_EXPORT void wu_pls_base_proc_failed(wu_pls_job_t *job, wu_pls_proc_t *proc, const char *why);
/* The environment variable in which a component that hands the secret itself gives it to a
 * daemon. */
#define WU_PLS_SECRET_ENV "WU_DAEMON_SECRET"

#endif
