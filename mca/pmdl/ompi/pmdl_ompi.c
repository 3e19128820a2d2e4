/* SPDX-License-Identifier: BSD-3-Clause */
/* pmdl_ompi.c -- the Open MPI 4.1 programming model: the variables that make an unmodified Open MPI
 * program take Wireup's PMIx server as a direct launch, plus the OMPI_* conventions of mpirun.
 *
 * Open MPI 4.1 picks its PMIx client when PMIX_NAMESPACE is set, but decides between "launched by
 * a PMIx server" and "singleton" in its schizo framework, which ignores PMIx variables: only
 * OMPI_MCA_schizo=^orte,slurm makes ess pmi run: it excludes the ORTE module, which declares
 * every process it does not know a singleton, and the Slurm module, which does the same inside
 * a Slurm allocation for a process that is not an srun task (wrun's own ranks under salloc or
 * sbatch). Variables an enclosing mpirun may have left (ORTE's launch flag and daemon URIs)
 * would send the program looking for ORTE daemons, so they are removed. */
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ORTE variables that only an ORTE launcher may set: a direct-launched Open MPI 4.1 process that
 * inherits them from an enclosing mpirun takes the wrong start-up path. */
static const char *const orte_only[] = {"OMPI_MCA_orte_launch",
                                        "OMPI_MCA_orte_hnp_uri",
                                        "OMPI_MCA_orte_local_daemon_uri",
                                        "OMPI_MCA_ess",
                                        "OMPI_MCA_ess_base_jobid",
                                        "OMPI_MCA_ess_base_vpid",
                                        "OMPI_MCA_orte_ess_num_procs",
                                        "OMPI_MCA_orte_ess_node_rank",
                                        "OMPI_MCA_orte_num_nodes",
                                        "OMPI_MCA_orte_app_num",
                                        "OMPI_MCA_orte_bound_at_launch",
                                        "OMPI_MCA_orte_jobfam_session_dir",
                                        "OMPI_MCA_orte_top_session_dir",
                                        "OMPI_MCA_orte_precondition_transports",
                                        NULL};

/* Open MPI 4.1's frameworks (OPAL, ORTE and OMPI layers) and project prefixes: an MCA parameter
 * whose name starts with one of these is Open MPI's. */
static const char *const ompi_frameworks[] = {
    "allocator", "backtrace", "btl",         "compress",   "crs",       "dl",        "event",
    "hwloc",     "if",        "installdirs", "memchecker", "memcpy",    "memory",    "mpool",
    "patcher",   "pmix",      "pstat",       "rcache",     "reachable", "shmem",     "timer",
    "errmgr",    "ess",       "filem",       "grpcomm",    "iof",       "odls",      "oob",
    "plm",       "ras",       "regx",        "rmaps",      "rml",       "routed",    "rtc",
    "schizo",    "snapc",     "sstore",      "state",      "bml",       "coll",      "crcp",
    "fbtl",      "fcoll",     "fs",          "hook",       "io",        "mtl",       "op",
    "osc",       "pml",       "rte",         "sharedfp",   "topo",      "vprotocol", "mpi",
    "opal",      "orte",      "ompi",        NULL};

static bool set_direct_launch = true;

/* name = the values of n entries, space-separated (ORTE's form for the per-context lists). */
static int set_list(const char *name, const uint32_t *v, uint32_t n, char ***env)
{
    char *buf = malloc((size_t)n * 11 + 1), *q = buf;
    int rc;
    if (NULL == buf) {
        return WU_ERR_NOMEM;
    }
    *q = '\0';
    for (uint32_t i = 0; i < n; i++) {
        q += sprintf(q, "%s%u", i > 0 ? " " : "", v[i]);
    }
    rc = wu_setenv(name, buf, true, env);
    free(buf);
    return rc;
}

/* OMPI_ARGV repeats the program's arguments (for MPI_INFO_ENV's "argv"): it is left out when it
 * would be longer than one environment string may be (WU_EXEC_STRING_MAX), or take more than an
 * eighth of what execve accepts in all (ARG_MAX), so that it never makes the launch fail where
 * the arguments alone would not. */
static bool argv_env_fits(const char *args)
{
    size_t len = sizeof "OMPI_ARGV=" + strlen(args);
    long arg_max = sysconf(_SC_ARG_MAX);
    return len <= WU_EXEC_STRING_MAX && (arg_max <= 0 || len <= (size_t)arg_max / 8);
}

static int ompi_setup_env(const wu_pmdl_proc_t *p, char ***env)
{
    const struct {
        const char *name;
        uint32_t value;
    } nums[] = {
        {"OMPI_COMM_WORLD_RANK", p->rank},
        {"OMPI_COMM_WORLD_SIZE", p->job_size},
        {"OMPI_COMM_WORLD_LOCAL_RANK", p->local_rank},
        {"OMPI_COMM_WORLD_LOCAL_SIZE", p->local_size},
        {"OMPI_COMM_WORLD_NODE_RANK", p->node_rank},
        {"OMPI_UNIVERSE_SIZE", p->univ_size},
        {"OMPI_NUM_APP_CTX", p->num_apps},
    };
    char *args = NULL;
    int rc = WU_SUCCESS;

    for (const char *const *v = orte_only; NULL != *v; v++) {
        (void)wu_unsetenv(*v, env);
    }
    if (set_direct_launch) {
        rc = wu_setenv("OMPI_MCA_schizo", "^orte,slurm", true, env);
    }
    for (size_t i = 0; i < WU_NELEMS(nums) && WU_SUCCESS == rc; i++) {
        rc = wu_setenv_u32(nums[i].name, nums[i].value, env);
    }
    /* MPI_INFO_ENV's lists: every context's size and first rank */
    if (WU_SUCCESS == rc && NULL != p->app_sizes && NULL != p->app_firsts) {
        rc = set_list("OMPI_APP_CTX_NUM_PROCS", p->app_sizes, p->num_apps, env);
        if (WU_SUCCESS == rc) {
            rc = set_list("OMPI_FIRST_RANKS", p->app_firsts, p->num_apps, env);
        }
    }
    /* bound by the launcher: Open MPI then reads its binding (PMIX_CPUSET) instead of binding
     * the process itself */
    if (WU_SUCCESS == rc && p->bound) {
        rc = wu_setenv("OMPI_MCA_orte_externally_bound", "1", true, env);
    }
    /* as mpirun: oversubscribed processes yield the processor while they wait for messages
     * instead of spinning (unless the user chose otherwise) */
    if (WU_SUCCESS == rc && p->oversubscribed &&
        NULL == wu_getenv("OMPI_MCA_mpi_yield_when_idle", *env)) {
        rc = wu_setenv("OMPI_MCA_mpi_yield_when_idle", "1", true, env);
    }
    if (WU_SUCCESS == rc && NULL != p->argv && NULL != p->argv[0]) {
        rc = wu_setenv("OMPI_COMMAND", p->argv[0], true, env);
        if (WU_SUCCESS == rc && NULL != p->argv[1]) {
            args = wu_argv_join(p->argv + 1, ' ');
            rc = NULL == args ? WU_ERR_NOMEM : WU_SUCCESS;
            if (WU_SUCCESS == rc && argv_env_fits(args)) {
                rc = wu_setenv("OMPI_ARGV", args, true, env);
            }
            free(args);
        }
    }
    return rc;
}

static const char *ompi_mca_prefix(const char *name)
{
    for (const char *const *fw = ompi_frameworks; NULL != *fw; fw++) {
        size_t n = strlen(*fw);
        if (0 == strncmp(name, *fw, n) && ('\0' == name[n] || '_' == name[n])) {
            return "OMPI_MCA_";
        }
    }
    return NULL;
}

static const wu_pmdl_module_t ompi_module = {
    .setup_env = ompi_setup_env,
    .mca_prefix = ompi_mca_prefix,
};

static const wu_mca_param_t ompi_params[] = {
    WU_PARAM_BOOL(
        "direct_launch", &set_direct_launch, WU_INFO_LVL_5,
        "Set OMPI_MCA_schizo=^orte,slurm so that Open MPI 4.1 programs use the PMIx server as "
        "a direct launch (without it each process starts as an MPI singleton)"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pmdl, ompi, .priority = 10, .params = ompi_params,
                 .description = "Open MPI 4.1: direct-launch and OMPI_COMM_WORLD_* variables, "
                                "routes Open MPI's MCA parameters to OMPI_MCA_*",
                 .module = &ompi_module);
