/* SPDX-License-Identifier: BSD-3-Clause */
/* pmdl_mpich.c -- the MPICH family (MPICH, MVAPICH, Intel MPI, and mpi4py built on them): their
 * processes reach the launcher through MPICH's simple PMI (PMI-1 or PMI-2), set up as Hydra's
 * proxy sets it up: PMI_FD (a connection the process inherits), PMI_RANK, PMI_SIZE, PMI_SPAWNED
 * for a spawned job, and Hydra's MPI_LOCALRANKID / MPI_LOCALNRANKS.
 *
 * Which programs are MPICH's cannot be told before they run (a Python script, a shell
 * wrapper), so by default every process gets its PMI connection beside its PMIx variables, as
 * Flux gives every task one: a process that never speaks PMI costs one socket. pmdl_mpich_serve
 * turns that off. Variables an enclosing Hydra or Slurm left (PMI_PORT and friends) are removed
 * either way: they name a connection this process does not have. */
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_argv.h"

static bool serve = true;

/* PMI variables of an enclosing launcher. */
static const char *const stale[] = {
    "PMI_FD",          "PMI_PORT",        "PMI_ID",     "PMI_RANK",    "PMI_SIZE",
    "PMI_SPAWNED",     "PMI_JOBID",       "PMI_APPNUM", "PMI_VERSION", "PMI_SUBVERSION",
    "MPI_LOCALRANKID", "MPI_LOCALNRANKS", NULL};

static int mpich_setup_env(const wu_pmdl_proc_t *p, char ***env)
{
    int rc = WU_SUCCESS;
    for (const char *const *v = stale; NULL != *v; v++) {
        (void)wu_unsetenv(*v, env);
    }
    if (p->pmi_fd <= 2) {
        return WU_ERR_TAKE_NEXT; /* no connection (never one of the standard streams) */
    }
    rc = wu_setenv_u32("PMI_FD", (uint32_t)p->pmi_fd, env);
    rc = WU_SUCCESS == rc ? wu_setenv_u32("PMI_RANK", p->rank, env) : rc;
    rc = WU_SUCCESS == rc ? wu_setenv_u32("PMI_SIZE", p->job_size, env) : rc;
    rc = WU_SUCCESS == rc ? wu_setenv_u32("MPI_LOCALRANKID", p->local_rank, env) : rc;
    rc = WU_SUCCESS == rc ? wu_setenv_u32("MPI_LOCALNRANKS", p->local_size, env) : rc;
    if (WU_SUCCESS == rc && p->spawned) {
        rc = wu_setenv("PMI_SPAWNED", "1", true, env);
    }
    return rc;
}

static bool mpich_wants_pmi(const wu_pmdl_proc_t *p)
{
    (void)p;
    return serve;
}

static const wu_pmdl_module_t mpich_module = {
    .setup_env = mpich_setup_env,
    .wants_pmi = mpich_wants_pmi,
};

static const wu_mca_param_t mpich_params[] = {
    WU_PARAM_BOOL("serve", &serve, WU_INFO_LVL_5,
                  "Give every process a PMI-1/PMI-2 connection (PMI_FD), so that programs of the "
                  "MPICH family (MPICH, MVAPICH, Intel MPI, mpi4py on them) run as one job "
                  "instead of as singletons"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pmdl, mpich, .priority = 20, .params = mpich_params,
                 .description = "MPICH family: serves MPICH's simple PMI (PMI-1, PMI-2) through "
                                "PMI_FD and sets Hydra's PMI_* variables",
                 .module = &mpich_module);
