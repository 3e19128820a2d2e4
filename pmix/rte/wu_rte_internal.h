/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_internal.h -- shared by the top of the runtime (pmix/rte itself: the host module and
 * wu_rte_runtime.c, which puts the layers together): every layer's header, and the server's
 * start and end. */
#ifndef WU_RTE_INTERNAL_H
#define WU_RTE_INTERNAL_H

#include "mca/pls/pls.h"
#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_time.h"
#include "pmix/rte/dist/wu_rte_dist.h"
#include "pmix/rte/job/wu_rte_job.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix/rte/wu_rte.h"
#include "pmix/rte/map/wu_rte_jobmap.h"
#include "pmix/rte/map/wu_rte_map.h"
#include "pmix_common.h"
#include "pmix_server.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* wu_rte_host.c: the PMIx server and its host module (called on the launcher's main thread). */
int wu_rte_server_init(void);
void wu_rte_server_finalize(void);

#endif
