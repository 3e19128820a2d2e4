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
#include "pmix/rte/dist/wu_rte_wired.h"
#include "pmix/rte/job/wu_rte_spec.h"
#include "pmix/rte/map/wu_rte_jobmap.h"

#include <stdbool.h>
#include <stdint.h>

/* Bring up the runtime. tool names the launcher in messages ("wrun"). Returns WU_SUCCESS, or an
 * error already reported to the user (WU_ERR_SILENT). */
WU_EXPORT int wu_rte_init(const char *tool);
/* wu_rte_watchdog_dispatch (core/wu_rte_core.h) comes first in the launcher's main. */
/* Shut everything down (PMIx server, progress thread, frameworks). */
WU_EXPORT void wu_rte_finalize(void);

/* Make the frameworks of the runtime library (pls, pmdl) known to the MCA base, which must be
 * open, so that a tool lists them with libpmix's own (wu_rte_init needs no such call). */
WU_EXPORT int wu_rte_mca_register(void);

#endif
