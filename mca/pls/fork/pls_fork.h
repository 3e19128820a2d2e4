/* SPDX-License-Identifier: BSD-3-Clause */
/* pls_fork.h -- internals shared by the files of the pls fork component. */
#ifndef WU_PLS_FORK_H
#define WU_PLS_FORK_H

#include "mca/pls/pls.h"

#include <stdbool.h>
#include <sys/types.h>

struct event;

typedef struct fork_proc fork_proc_t;

/* One output pipe of one process, read on the job's progress thread. */
typedef struct fork_stream {
    fork_proc_t *fp;
    int stream; /* WU_PLS_STDOUT / WU_PLS_STDERR */
    int fd;     /* read end, non-blocking; -1 once closed */
    bool held;  /* hold_output: ev is not in the loop */
    struct event *ev;
} fork_stream_t;

struct fork_proc {
    wu_pls_job_t *job;
    wu_pls_proc_t *proc;
    pid_t pgid;      /* its process group (the job's, or its own if joining failed) */
    bool reaped;     /* waitpid returned it */
    bool kill_asked; /* terminate_proc: SIGKILL when the grace timer fires */
    fork_stream_t out, err;
    int pidfd; /* readable once the process has ended; -1 where pidfds are not available */
    struct event *exit_ev;
};

typedef struct fork_job {
    fork_proc_t *procs;
    struct event *sigchld;
    wu_timer_t *poll;  /* periodic reap sweep while processes run (a lost SIGCHLD is harmless) */
    wu_timer_t *grace; /* SIGKILL after the grace period of a terminate */
    uint32_t nalive;   /* forked and not reaped */
    bool kill_all;     /* terminate_job: SIGKILL every process when grace fires */
} fork_job_t;

/* Grace period between SIGTERM and SIGKILL, seconds (parameter pls_fork_term_grace). */
extern int wu_pls_fork_term_grace;

/* pls_fork_launch.c: fork and exec every process of job (on its progress thread). */
int wu_pls_fork_launch(wu_pls_job_t *job);
/* pls_fork.c: reap what has ended, and deliver the ends. */
void wu_pls_fork_sweep(wu_pls_job_t *job);
/* pls_fork.c: learn of the process's end through a pidfd (best effort: without one, SIGCHLD and
 * the sweep reap it). */
void wu_pls_fork_watch_exit(fork_proc_t *fp);
/* pls_fork.c: start reading a process's output pipes. */
int wu_pls_fork_watch(fork_proc_t *fp, int out_fd, int err_fd);

#endif
