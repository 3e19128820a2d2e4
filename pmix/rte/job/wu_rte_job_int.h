/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_job_int.h -- shared by the two files of the job core: wu_rte_job.c (set-up, launch,
 * the wait, release) and wu_rte_job_end.c (ends, exit rules, interrupts, observers). */
#ifndef WU_RTE_JOB_INT_H
#define WU_RTE_JOB_INT_H

#include "pmix/rte/job/wu_rte_job.h"

/* pls's callbacks for this node's processes (rte thread). */
bool wu_rte_job_on_output(wu_pls_job_t *pls, wu_pls_proc_t *proc, int stream, const char *data,
                          size_t len);
void wu_rte_job_on_exited(wu_pls_job_t *pls, wu_pls_proc_t *proc);
void wu_rte_job_on_done(wu_pls_job_t *pls);
/* The exit status of a process that could not be executed (err: errno), and why, for
 * exec-failed (buf: room for the E2BIG explanation). */
int wu_rte_exec_status(int err);
const char *wu_rte_exec_reason(int err, char *buf, size_t len);
/* A SIGINT/SIGTERM/SIGHUP that came before the job started (0: none). */
int wu_rte_job_pending_interrupt(void);
/* Tell the observers: the job's processes here are all reaped (launcher's thread); the job is
 * about to be forgotten (rte thread). */
void wu_rte_job_tell_finishing(rte_job_t *job);
void wu_rte_job_tell_ended(rte_job_t *job);
/* Tell the observers: the job's output is all written (launcher's thread). */
void wu_rte_job_tell_output_done(rte_job_t *job);
/* Ask the services: their part of the job's set-up and of each process's (launcher's thread;
 * the first error is returned); the processes were launched, they are reaped (rte thread). */
int wu_rte_job_tell_setup(rte_job_t *job);
int wu_rte_job_tell_proc_setup(rte_job_t *job, uint32_t lidx, struct wu_pmdl_proc *mp);
void wu_rte_job_tell_launched(rte_job_t *job);
void wu_rte_job_tell_released(rte_job_t *job);

#endif
