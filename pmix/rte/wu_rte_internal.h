/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_internal.h -- state shared by the files of pmix/rte. Everything here is touched only
 * on the rte progress thread, except where said. */
#ifndef WU_RTE_INTERNAL_H
#define WU_RTE_INTERNAL_H

#include "mca/pls/pls.h"
#include "opal/event/wu_wait.h"
#include "pmix/rte/wu_rte.h"
#include "pmix_common.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A partial line of one output stream, kept until its newline arrives. */
typedef struct rte_line {
    char *buf;
    size_t len, cap;
} rte_line_t;

/* One process of the job; also its server_object for the PMIx server. */
typedef struct rte_proc {
    uint32_t rank;
    bool registered; /* PMIx_server_register_client done */
    /* Set on the server's thread by the upcalls, before the client gets its answer, so they
     * are visible here by the time the process can have exited. */
    atomic_bool connected; /* client_connected seen */
    atomic_bool finalized; /* client_finalized seen */
    atomic_uint lost_seq;  /* 1, 2, ...: order in which connections ended unfinalized; 0: not */
    bool exited;           /* its end was reported by pls (rte thread) */
    rte_line_t line[2];    /* stdout, stderr */
} rte_proc_t;

typedef struct rte_job {
    char nspace[PMIX_MAX_NSLEN + 1];
    char *nsdir; /* the job's session directory (PMIX_NSDIR), removed with the job */
    uint32_t np;
    rte_proc_t *procs;
    wu_pls_job_t *pls;
    bool tag_output;
    bool status_set; /* the job's end is decided; later failures do not count */
    int status;
    /* A failure seen while a process whose connection ended earlier has not been reaped yet:
     * that process failed first and decides, once reaped (see on_exited). */
    bool have_pending;
    uint32_t pending_rank; /* the failure seen */
    uint32_t wait_rank;    /* the earlier process */
    bool terminating;
    int interrupts; /* signals received by the launcher */
    wu_wait_t done; /* released when every process has ended (any thread may wait) */
} rte_job_t;

/* wu_rte_job.c */
extern const char *wu_rte_tool;   /* "wrun" */
extern char wu_rte_hostname[256]; /* this node */
extern rte_job_t *wu_rte_job;     /* the running job, or NULL */
/* Decide the job's end (first call wins) and terminate what still runs. */
void wu_rte_job_fail(rte_job_t *job, int status);
/* A one-line message from help-wu-rte.txt on stderr (not framed). */
void wu_rte_say(const char *topic, ...);

/* wu_rte_host.c: the PMIx server and its host module (called on the launcher's main thread). */
int wu_rte_server_init(void);
void wu_rte_server_finalize(void);
int wu_rte_register_job(rte_job_t *job);
void wu_rte_deregister_job(rte_job_t *job);
/* Add the PMIx contact environment of rank to *env. */
int wu_rte_setup_fork(rte_job_t *job, uint32_t rank, char ***env);

/* wu_rte_iof.c: output of the job's processes to the launcher's stdout/stderr. */
/* Returns false once the launcher's own stream is gone (EPIPE): stop reading that stream. */
bool wu_rte_iof_output(rte_job_t *job, uint32_t rank, int stream, const char *data, size_t len);
/* Write out what is left of every partial line, and free the buffers. */
void wu_rte_iof_flush(rte_job_t *job);

#endif
