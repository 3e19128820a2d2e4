/* SPDX-License-Identifier: BSD-3-Clause */
/* pmdl.h -- the pmdl framework: what a programming model needs in the environment of the
 * processes a launcher starts.
 *
 * The PMIx contact variables (PMIX_NAMESPACE, PMIX_RANK, the server URI) are the server's
 * business (PMIx_server_setup_fork). A programming model often wants more: Open MPI 4.1 only
 * recognises a PMIx direct launch when OMPI_MCA_schizo excludes its ORTE module, and its users
 * expect OMPI_COMM_WORLD_RANK and friends. Each pmdl component knows one model. The framework
 * opens every willing component (select_all); the launcher calls wu_pmdl_base_setup_env once per
 * process and every active module adds its variables (a module that does not apply to the
 * program returns WU_ERR_TAKE_NEXT). A module may also claim MCA parameter names of its model,
 * so that `wrun --mca btl self,vader` reaches the program as OMPI_MCA_btl rather than as a
 * PMIX_MCA_ parameter; wu_pmdl_base_mca_env says which variable a name becomes.
 *
 * A module may also ask for a PMI connection for the process (wants_pmi): the launcher's PMI
 * server (MPICH's simple PMI) then serves it, and setup_env learns its descriptor.
 *
 * Modules run on the launcher's thread before the processes start; they keep no job state.
 * Users choose models with PMIX_MCA_pmdl (e.g. "^ompi" to give processes no Open MPI variables). */
#ifndef WU_PMDL_H
#define WU_PMDL_H

#include "mca/base/wu_mca.h"

#include <stdbool.h>
#include <stdint.h>

#define WU_pmdl_VERSION 1u

/* What a module may know about one process of a job. */
typedef struct wu_pmdl_proc {
    const char *nspace;
    char *const *argv;          /* the program and its arguments */
    uint32_t rank;              /* in the job */
    uint32_t job_size;          /* processes in the job */
    uint32_t univ_size;         /* processes the job may grow to */
    uint32_t local_rank;        /* among the job's processes on this node */
    uint32_t local_size;        /* the job's processes on this node */
    uint32_t node_rank;         /* among all processes the launcher runs on this node */
    uint32_t app_num;           /* application context (MPMD), from 0 */
    uint32_t num_apps;          /* application contexts in the job */
    const uint32_t *app_sizes;  /* num_apps entries: processes of each context */
    const uint32_t *app_firsts; /* num_apps entries: rank of the first process of each */
    bool oversubscribed;        /* more processes on this node than processors */
    bool bound;                 /* the launcher bound it to cpus (PMIX_CPUSET tells which) */
    bool spawned;               /* started by another job's spawn request */
    int pmi_fd;                 /* its PMI connection's descriptor number; below 3: none */
} wu_pmdl_proc_t;

typedef struct wu_pmdl_module {
    /* Add the model's variables for process p to *env (a NULL-terminated "NAME=value" array,
     * see wu_setenv). WU_SUCCESS, WU_ERR_TAKE_NEXT when the module does not apply, or an error. */
    int (*setup_env)(const wu_pmdl_proc_t *p, char ***env);
    /* Optional: the environment prefix ("OMPI_MCA_") under which the model reads the MCA
     * parameter name, or NULL when the name is not the model's. */
    const char *(*mca_prefix)(const char *name);
    /* Optional: does the process need a PMI-1/PMI-2 connection (MPICH's simple PMI)? The
     * launcher then makes one and passes its number in pmi_fd to setup_env. */
    bool (*wants_pmi)(const wu_pmdl_proc_t *p);
} wu_pmdl_module_t;

extern wu_mca_framework_t wu_mca_pmdl_framework;

/* Open / close the framework (every willing component). Refcounted. */
int wu_pmdl_base_open(void);
void wu_pmdl_base_close(void);
/* Let every active module add its variables for p. Returns the first real error, else
 * WU_SUCCESS (also when no module applies). */
int wu_pmdl_base_setup_env(const wu_pmdl_proc_t *p, char ***env);
/* Does any active module want a PMI connection for p? */
bool wu_pmdl_base_wants_pmi(const wu_pmdl_proc_t *p);
/* The environment prefix of MCA parameter name for the job's processes: the first active module
 * that claims it, else NULL. */
WU_EXPORT const char *wu_pmdl_base_mca_prefix(const char *name);

#endif
