/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_internal.h -- state shared by the files of pmix/rte. Everything here is touched only
 * on the rte progress thread, except where said. */
#ifndef WU_RTE_INTERNAL_H
#define WU_RTE_INTERNAL_H

#include "mca/pls/pls.h"
#include "opal/event/wu_wait.h"
#include "pmix/rte/wu_rte.h"
#include "pmix/rte/wu_rte_jobmap.h"
#include "pmix/rte/wu_rte_map.h"
#include "pmix_common.h"

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
    bool exited;           /* its end was reported by pls (rte thread) */
    rte_line_t line[2];    /* stdout, stderr */
    int outfd[2];          /* --output-filename: its stdout and stderr files; -1: ours */
} rte_proc_t;

typedef struct rte_stdin rte_stdin_t;

typedef struct rte_job {
    char nspace[PMIX_MAX_NSLEN + 1];
    char *nsdir; /* the job's session directory (PMIX_NSDIR), removed with the job */
    uint32_t np;
    rte_proc_t *procs;
    wu_pls_job_t *pls;
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
} rte_job_t;

/* wu_rte_job.c */
extern const char *wu_rte_tool;   /* "wrun" */
extern char wu_rte_hostname[256]; /* this node */
extern rte_job_t *wu_rte_job;     /* the running job, or NULL */
/* Decide the job's end (first call wins) and terminate what still runs. */
void wu_rte_job_fail(rte_job_t *job, int status);
/* A one-line message from help-wu-rte.txt on stderr (not framed). */
void wu_rte_say(const char *topic, ...);
/* Text for our stdout or stderr: on the rte thread queued behind the job's output when a queue
 * exists (wu_rte_iof_message), else written plainly (no job, no queue). */
void wu_rte_write_text(int fd, const char *text, size_t len);
/* Seconds on CLOCK_MONOTONIC. */
double wu_rte_now(void);

/* wu_rte_host.c: the PMIx server and its host module (called on the launcher's main thread). */
int wu_rte_server_init(void);
void wu_rte_server_finalize(void);
/* wu_rte_reg.c: the job's registration with the server, from its map (main thread). */
int wu_rte_register_job(rte_job_t *job);
void wu_rte_deregister_job(rte_job_t *job);
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
void wu_rte_log_summary(void);
/* Route plog's writes to our stdout/stderr through the output queues (after the rte thread
 * starts), and stop doing so (before it stops). */
void wu_rte_log_start(void);
void wu_rte_log_stop(void);

/* wu_rte_place.c: map and bind the job before launch (reports problems to the user and returns
 * WU_ERR_SILENT); print --report-bindings once the processes run; release. */
int wu_rte_place_job(rte_job_t *job);
/* Does the job's map put ranks on a node other than this one? (Until launching there exists,
 * wu_rte_place_job refuses such a job after --display-map, with "remote-nodes".) */
bool wu_rte_job_remote(const rte_job_t *job);
void wu_rte_place_report(rte_job_t *job);
void wu_rte_place_free(rte_job_t *job);

/* wu_rte_stdin.c: forward our stdin to the processes launched with a stdin pipe (rte thread,
 * after launch), and release the forwarding (rte thread). */
int wu_rte_stdin_start(rte_job_t *job);
void wu_rte_stdin_stop(rte_job_t *job);
/* Can fd be watched in the event loop (a pipe, socket or terminal)? Regular files and other
 * devices cannot (epoll refuses them); they never make a reader or writer wait anyway. */
bool wu_rte_pollable(int fd);
/* --output-filename: make DIR/<job>/rank.<N>/ and open the files (before launch). Reports a
 * failure to the user and returns WU_ERR_SILENT. */
int wu_rte_iof_open_files(rte_job_t *job);

#endif
