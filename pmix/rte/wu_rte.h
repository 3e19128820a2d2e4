/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte.h -- the host runtime of the launchers: it embeds the PMIx server, describes a job to
 * it, starts the job through the pls framework, forwards the job's output and decides how the
 * job ended.
 *
 * A launcher calls wu_rte_init (MCA base, pls, its own progress thread, PMIx_server_init with
 * the host module of wu_rte_host.c), wu_rte_run for each job (blocking until every process of
 * the job has ended), and wu_rte_finalize. Job state lives on the rte progress thread: the
 * server's upcalls and the pls callbacks are all handled there, so nothing is locked.
 *
 * How a job ends (mpirun's rules): the first process that fails
 * -- exits non-zero, dies of a signal, cannot be started, or exits without PMIx_Finalize after
 * it connected -- or a PMIx_Abort, or a signal to the launcher, terminates the job; the job's
 * status is the first failure's (exit code, 128+signal, 127/126 when the program cannot be
 * run, 1 for a missing finalize), or the PMIx_Abort status, or 128+signal for the launcher's
 * signal; 0 when every process exited 0. */
#ifndef WU_RTE_H
#define WU_RTE_H

#include "opal/event/wu_progress.h"
#include "pmix/rte/core/wu_rte_core.h"
#include "pmix/rte/map/wu_rte_jobmap.h"

#include <stdbool.h>
#include <stdint.h>

/* One application context: `wrun -n 2 a : -n 2 b` (MPMD) has two. Ranks are numbered through
 * the contexts in order. */
typedef struct wu_rte_ctx {
    uint32_t np;     /* number of processes, >= 1 */
    char **argv;     /* program and its arguments */
    const char *cwd; /* working directory; NULL: the launcher's */
    char **env_set;  /* "NAME=value" entries for its processes (after the job's); may be NULL */
} wu_rte_ctx_t;

/* What to run: the contexts and the job's options. */
typedef struct wu_rte_spec {
    wu_rte_ctx_t *ctx; /* nctx contexts, at least one */
    uint32_t nctx;
    char **env_set;         /* "NAME=value" entries for every process of the job; may be NULL */
    bool tag_output;        /* prefix every line of output with "[1,rank]<stdout>:" (ORTE's tag) */
    bool timestamp_output;  /* prefix every line with the time, ctime(3) style, before the tag */
    bool merge_stderr;      /* the processes' stderr goes where their stdout goes */
    const char *output_dir; /* output goes to DIR/<job>/rank.<N>/stdout|stderr, not to ours */
    int stdin_target;       /* who reads our stdin: a rank, WU_RTE_STDIN_ALL or _NONE */
    double timeout;         /* seconds the job may run (0: no limit); then it ends with 110 */
    const char *map_by;     /* --map-by, --bind-to (wu_rte_map_parse syntax); NULL: default */
    const char *bind_to;
    bool oversubscribe; /* more processes than slots is allowed */
    /* The nodes the job may use, in order (-H, --hostfile); NULL/0: this node only, with one
     * slot per core. A host with slots 0 has as many slots as this node (cores, or hwthreads
     * when mapping by hwthread): the nodes are assumed alike, as the launcher cannot see the
     * cores of the others. Names of this node (localhost, its hostname) may be used. */
    const wu_rte_jm_host_t *hosts;
    uint32_t nhosts;
    const char *hosts_from; /* where hosts come from, for messages (NULL: -H or a hostfile) */
    wu_rte_jm_span_t span;  /* by slot (default), by node, ppr (--npernode); --map-by node or
                            * ppr:N:node count as well when this is by slot */
    uint32_t ppr;           /* ranks per node for WU_RTE_JM_PPR */
    bool report_bindings;   /* print each rank's binding once it runs (stderr) */
    bool display_map;       /* print the job's map before it starts (stdout) */
    bool keep_lib_path;     /* leave LD_LIBRARY_PATH alone (default: Wireup's library dir first) */
    /* --prefix: where Wireup is installed on the other nodes: wired is DIR/bin/wired there, and
     * DIR/bin and DIR/lib come first in the PATH and LD_LIBRARY_PATH of wired and the ranks it
     * starts. NULL: the wired next to this wrun, at the same path on every node. */
    const char *prefix;
} wu_rte_spec_t;

#define WU_RTE_STDIN_NONE (-1)
#define WU_RTE_STDIN_ALL  (-2)
/* Exit status of a job that ran out of time (ETIMEDOUT, as mpirun's --timeout). */
#define WU_RTE_EXIT_TIMEOUT 110

/* Exit status when a connected process exits 0 without calling PMIx_Finalize. */
#define WU_RTE_EXIT_NO_FINALIZE 1

/* Bring up the runtime. tool names the launcher in messages ("wrun"). Returns WU_SUCCESS, or an
 * error already reported to the user (WU_ERR_SILENT). */
WU_EXPORT int wu_rte_init(const char *tool);
/* Run one job to its end; *status receives the job's exit status (see above). Returns
 * WU_SUCCESS when the job ran (whatever its status), WU_ERR_SILENT when it could not be set up
 * or started (reported; *status is set to a suitable exit code as well). */
WU_EXPORT int wu_rte_run(const wu_rte_spec_t *app, int *status);
/* The number of processes the job gets when the user gave hosts but no -np (mpirun's rule):
 * one per slot of every host (a host with slots 0 counts this node's slots), or ppr per host
 * with --npernode / ppr:N:node. Uses app's hosts, span, ppr, map_by (ctx is not read).
 * WU_SUCCESS, or an error already reported (WU_ERR_SILENT). */
WU_EXPORT int wu_rte_default_np(const wu_rte_spec_t *app, uint32_t *np);
/* The launcher got signal sig (thread safe, any thread). SIGINT, SIGTERM and SIGHUP are
 * forwarded to the job; the same kind again within a few seconds terminates the job (status
 * 128+sig), and once it is ending a further one kills it at once. SIGUSR1 and SIGUSR2 are
 * forwarded; SIGTSTP stops the job and then the launcher, SIGCONT resumes the job. */
WU_EXPORT void wu_rte_interrupt(int sig);
/* How wired was started (its command line and the token from its standard input). */
typedef struct wu_rte_daemon_args {
    uint32_t node;      /* its node in the job map */
    unsigned port;      /* wrun's */
    const char *addrs;  /* wrun's addresses, comma-separated (NULL: only the ssh client's) */
    const char *token;  /* the job's secret */
    uint32_t radix;     /* the launch tree's radix, for the subtree it starts */
    const char *spawn;  /* the daemons of its subtree, "K:host,..." (NULL: none) */
    const char *prefix; /* --prefix of wrun: where Wireup is on the other nodes (NULL: here) */
} wu_rte_daemon_args_t;
/* wired: serve its node of the job of the wrun listening on port (at the address the ssh
 * connection came from, or one of addrs), authenticated by token, after starting the daemons
 * of its subtree; after wu_rte_init. Returns wired's exit status. */
WU_EXPORT int wu_rte_daemon_main(const wu_rte_daemon_args_t *args);
/* wu_rte_watchdog_dispatch (core/wu_rte_core.h) comes first in the launcher's main. */
/* Shut everything down (PMIx server, progress thread, frameworks). */
WU_EXPORT void wu_rte_finalize(void);

/* Make the frameworks of the runtime library (pls, pmdl) known to the MCA base, which must be
 * open, so that a tool lists them with libpmix's own (wu_rte_init needs no such call). */
WU_EXPORT int wu_rte_mca_register(void);

#endif
