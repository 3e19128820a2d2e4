/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_spec.h -- what a launcher asks the runtime to run: the application contexts and the
 * job's options, the exit statuses the runtime gives a job, and the job layer's calls a
 * launcher makes (wu_rte_run, wu_rte_default_np, wu_rte_interrupt; wu_rte.h has the rest). */
#ifndef WU_RTE_SPEC_H
#define WU_RTE_SPEC_H

#include "opal/util/wu_macros.h"
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

/* The number of processes the job gets when the user gave hosts but no -np (mpirun's rule):
 * one per slot of every host (a host with slots 0 counts this node's slots), or ppr per host
 * with --npernode / ppr:N:node. Uses app's hosts, span, ppr, map_by (ctx is not read).
 * WU_SUCCESS, or an error already reported (WU_ERR_SILENT). */
WU_EXPORT int wu_rte_default_np(const wu_rte_spec_t *app, uint32_t *np);

/* Run one job to its end; *status receives the job's exit status (see above). Returns
 * WU_SUCCESS when the job ran (whatever its status), WU_ERR_SILENT when it could not be set up
 * or started (reported; *status is set to a suitable exit code as well). */
WU_EXPORT int wu_rte_run(const wu_rte_spec_t *app, int *status);
/* The launcher got signal sig (thread safe, any thread). SIGINT, SIGTERM and SIGHUP are
 * forwarded to the job; the same kind again within a few seconds terminates the job (status
 * 128+sig), and once it is ending a further one kills it at once. SIGUSR1 and SIGUSR2 are
 * forwarded; SIGTSTP stops the job and then the launcher, SIGCONT resumes the job. */
WU_EXPORT void wu_rte_interrupt(int sig);

#endif
