/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_slurm.c -- pls component for Slurm allocations (salloc, sbatch): selected only when the
 * environment names an allocation (SLURM_JOB_ID and SLURM_JOB_NODELIST) and srun can be found.
 * It says which nodes the job was given (allocation: SLURM_JOB_NODELIST with the slots of
 * SLURM_TASKS_PER_NODE, or SLURM_JOB_CPUS_PER_NODE), and it takes the jobs whose processes
 * name a host, as rsh does, but starts each as a one-task Slurm job step on its node:
 *     srun [pls_slurm_args] --nodes=1 --ntasks=1 --ntasks-per-node=1 --nodelist=HOST
 *          --job-name=NAME env [PATH=... LD_LIBRARY_PATH=...] NAME=value... PROGRAM ARGS
 * so no ssh is needed, Slurm accounts for the daemons, and cancelling the allocation (scancel)
 * ends them. srun passes its environment on (our PATH among it); the next module in priority
 * order (fork) runs the sruns here, and every other operation is that module's on them
 * (wu_pls_fwd_*): srun forwards signals to its step, and ending srun ends the step. The launch
 * is flat (every daemon from the head node): a daemon does not start others with srun. */
#include "mca/base/wu_mca_param.h"
#include "mca/pls/pls.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_hostlist.h"
#include "opal/util/wu_path.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NODES 65536u /* more than any allocation has */
#define MAX_SLOTS 65535u /* local ranks are 16-bit */

static char *srun_cmd = "srun";
static char *srun_args = "--overlap --mpi=none --cpu-bind=none --kill-on-bad-exit";
static char *slots_from = "tasks";

static const wu_pls_module_t slurm_module;

/* The first of the variables that is set and not empty, with its name in *name. */
static const char *first_env(const char *a, const char *b, const char **name)
{
    const char *v = getenv(a);
    *name = a;
    if (NULL == v || '\0' == *v) {
        v = getenv(b);
        *name = b;
    }
    return NULL != v && '\0' != *v ? v : NULL;
}

/* The count list val of variable var: *slots of *nc values. WU_SUCCESS; WU_ERR_BAD_PARAM with
 * *why "VAR="VAL": what is wrong" (free()); WU_ERR_NOMEM. */
static int counts_of(const char *var, const char *val, uint32_t **slots, size_t *nc, char **why)
{
    char *inner = NULL;
    int rc = wu_hostlist_counts(val, MAX_NODES, MAX_SLOTS, slots, nc, &inner);
    if (WU_SUCCESS != rc && WU_ERR_NOMEM != rc) {
        (void)wu_asprintf(why, "%s=\"%s\": %s", var, val, NULL != inner ? inner : "unreadable");
        rc = WU_ERR_BAD_PARAM;
    }
    free(inner);
    return rc;
}

static int slurm_allocation(wu_pls_node_t **nodes, uint32_t *n, char **why)
{
    const char *lname, *cname, *list = first_env("SLURM_JOB_NODELIST", "SLURM_NODELIST", &lname);
    const char *counts, *cpus = getenv("SLURM_JOB_CPUS_PER_NODE");
    char **names = NULL, *inner = NULL;
    uint32_t *slots = NULL;
    size_t nn = 0, nc = 0;
    int rc;

    *nodes = NULL;
    *n = 0;
    *why = NULL;
    counts = 0 == strcmp(slots_from, "cpus")
                 ? first_env("SLURM_JOB_CPUS_PER_NODE", "SLURM_TASKS_PER_NODE", &cname)
                 : first_env("SLURM_TASKS_PER_NODE", "SLURM_JOB_CPUS_PER_NODE", &cname);
    if (NULL == list) {
        return WU_ERR_NOT_FOUND;
    }
    if (NULL == counts) {
        (void)wu_asprintf(why,
                          "%s is set but neither SLURM_TASKS_PER_NODE nor "
                          "SLURM_JOB_CPUS_PER_NODE is",
                          lname);
        return WU_ERR_BAD_PARAM;
    }
    rc = wu_hostlist_expand(list, MAX_NODES, &names, &nn, &inner);
    if (WU_SUCCESS != rc && WU_ERR_NOMEM != rc) {
        (void)wu_asprintf(why, "%s=\"%s\": %s", lname, list, NULL != inner ? inner : "unreadable");
        rc = WU_ERR_BAD_PARAM;
    }
    free(inner);
    rc = WU_SUCCESS == rc ? counts_of(cname, counts, &slots, &nc, why) : rc;
    if (WU_SUCCESS == rc && nn != nc && 0 == strcmp(cname, "SLURM_TASKS_PER_NODE") &&
        NULL != cpus) {
        /* inside a job step (srun wrun ...) SLURM_TASKS_PER_NODE is the step's: the job's CPUs
         * are what there is on each of the job's nodes */
        uint32_t *cslots = NULL;
        size_t ncpus = 0;
        char *ignored = NULL;
        if (WU_SUCCESS == counts_of("SLURM_JOB_CPUS_PER_NODE", cpus, &cslots, &ncpus, &ignored) &&
            ncpus == nn) {
            free(slots);
            slots = cslots;
            nc = ncpus;
        } else {
            free(cslots);
        }
        free(ignored);
    }
    if (WU_SUCCESS == rc && nn != nc) {
        (void)wu_asprintf(why, "%s names %zu nodes but %s=\"%s\" gives %zu slot counts", lname, nn,
                          cname, counts, nc);
        rc = WU_ERR_BAD_PARAM;
    } else if (WU_SUCCESS == rc && NULL == (*nodes = calloc(nn, sizeof **nodes))) {
        rc = WU_ERR_NOMEM;
    }
    for (size_t i = 0; WU_SUCCESS == rc && i < nn; i++) {
        (*nodes)[i].name = names[i]; /* taken over */
        (*nodes)[i].slots = slots[i];
        names[i] = NULL;
    }
    if (WU_SUCCESS == rc) {
        *n = (uint32_t)nn;
    }
    for (size_t i = 0; i < nn; i++) {
        free(names[i]); /* those not taken over */
    }
    free(names);
    free(slots);
    return rc;
}

/* The prefix's bin and lib directories ahead of our PATH and LD_LIBRARY_PATH, as "NAME=value"
 * arguments of env (srun passes our environment on). The lib directory is named as this build's
 * (lib, lib64). */
static int prefix_vars(char ***av, const char *prefix)
{
    const char *lib = strrchr(WU_LIBDIR, '/'), *path = getenv("PATH"),
               *ld = getenv("LD_LIBRARY_PATH");
    char *kv = NULL;
    int rc = wu_asprintf(&kv, "PATH=%s/bin%s%s", prefix, NULL != path ? ":" : "",
                         NULL != path ? path : "");
    rc = WU_SUCCESS == rc ? wu_argv_append(av, kv) : rc;
    free(kv);
    kv = NULL;
    if (WU_SUCCESS == rc) {
        rc = wu_asprintf(&kv, "LD_LIBRARY_PATH=%s/%s%s%s", prefix, NULL != lib ? lib + 1 : "lib",
                         NULL != ld && '\0' != *ld ? ":" : "", NULL != ld ? ld : "");
        rc = WU_SUCCESS == rc ? wu_argv_append(av, kv) : rc;
        free(kv);
    }
    return rc;
}

/* srun's command line for proc. */
static int srun_argv(const wu_pls_job_t *job, const wu_pls_proc_t *proc, char ***argv)
{
    char **av = wu_argv_split(srun_cmd, ' '), **extra = wu_argv_split(srun_args, ' ');
    char *const *prog = NULL != proc->argv ? proc->argv : job->argv;
    char *opt = NULL;
    int rc = NULL == av || NULL == av[0] || NULL == extra ? WU_ERR_NOMEM : WU_SUCCESS;

    for (char **e = extra; WU_SUCCESS == rc && NULL != *e; e++) {
        rc = wu_argv_append(&av, *e);
    }
    rc = WU_SUCCESS == rc ? wu_argv_append(&av, "--nodes=1") : rc;
    rc = WU_SUCCESS == rc ? wu_argv_append(&av, "--ntasks=1") : rc;
    rc = WU_SUCCESS == rc ? wu_argv_append(&av, "--ntasks-per-node=1") : rc;
    if (WU_SUCCESS == rc && WU_SUCCESS == (rc = wu_asprintf(&opt, "--nodelist=%s", proc->host))) {
        rc = wu_argv_append(&av, opt);
        free(opt);
        opt = NULL;
    }
    if (WU_SUCCESS == rc && WU_SUCCESS == (rc = wu_asprintf(&opt, "--job-name=%s", job->nspace))) {
        rc = wu_argv_append(&av, opt);
        free(opt);
    }
    rc = WU_SUCCESS == rc ? wu_argv_append(&av, "env") : rc;
    if (WU_SUCCESS == rc && NULL != job->prefix) {
        rc = prefix_vars(&av, job->prefix);
    }
    for (char **e = proc->remote_env; NULL != e && NULL != *e && WU_SUCCESS == rc; e++) {
        rc = wu_argv_append(&av, *e);
    }
    for (char *const *a = prog; NULL != a && NULL != *a && WU_SUCCESS == rc; a++) {
        rc = wu_argv_append(&av, *a);
    }
    wu_argv_free(extra);
    if (WU_SUCCESS != rc) {
        wu_argv_free(av);
        return rc;
    }
    *argv = av;
    return WU_SUCCESS;
}

static int slurm_launch_job(wu_pls_job_t *job)
{
    return wu_pls_base_launch_remote(&slurm_module, job, srun_argv);
}

static const wu_pls_module_t slurm_module = {
    .launch_job = slurm_launch_job,
    WU_PLS_FWD_OPS,
    .allocation = slurm_allocation,
    .flat = true,
};

static int slurm_query(const void **module, int *priority, const char **reason)
{
    const char *name;
    char **words;
    char *found = NULL;
    (void)priority;
    if (NULL == first_env("SLURM_JOB_ID", "SLURM_JOBID", &name) ||
        NULL == first_env("SLURM_JOB_NODELIST", "SLURM_NODELIST", &name)) {
        *reason = "not inside a Slurm allocation (SLURM_JOB_ID, SLURM_JOB_NODELIST)";
        return WU_ERR_NOT_AVAILABLE;
    }
    if (0 != strcmp(slots_from, "tasks") && 0 != strcmp(slots_from, "cpus")) {
        *reason = "pls_slurm_slots must be tasks or cpus";
        return WU_ERR_NOT_AVAILABLE;
    }
    words = wu_argv_split(srun_cmd, ' ');
    if (NULL != words && NULL != words[0]) {
        found = wu_path_find_in_path(words[0], NULL);
    }
    wu_argv_free(words);
    if (NULL == found) {
        *reason = "inside a Slurm allocation, but srun is not in PATH";
        return WU_ERR_NOT_AVAILABLE;
    }
    free(found);
    *module = &slurm_module;
    return WU_SUCCESS;
}

static const wu_mca_param_t slurm_params[] = {
    WU_PARAM_STRING("srun", &srun_cmd, WU_INFO_LVL_2,
                    "Command (and options) that starts a job step: srun (default)"),
    WU_PARAM_STRING("args", &srun_args, WU_INFO_LVL_4,
                    "Options of every srun that starts a daemon, before the node's own; the "
                    "default lets the step share the allocation's CPUs with other steps "
                    "(--overlap) and leaves it unbound and without Slurm's PMIx (the daemon binds "
                    "and serves its processes itself)"),
    WU_PARAM_STRING("slots", &slots_from, WU_INFO_LVL_2,
                    "Where a node's slots come from: tasks (SLURM_TASKS_PER_NODE, the default: "
                    "the tasks the allocation asked for) or cpus (SLURM_JOB_CPUS_PER_NODE)"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pls, slurm, .priority = 30, .params = slurm_params, .query = slurm_query,
                 .description = "Inside a Slurm allocation: takes its nodes and slots, and "
                                "starts the processes of other nodes as job steps with srun",
                 .module = &slurm_module);
