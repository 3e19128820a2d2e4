/* SPDX-License-Identifier: BSD-3-Clause */
/* plog_base.h -- what the library's PMIx_Log paths (client, server, launcher) call: a whole
 * PMIx_Log request through the plog modules. Components need only mca/plog/plog.h. */
#ifndef WU_PLOG_BASE_H
#define WU_PLOG_BASE_H

#include "mca/plog/plog.h"
#include "pmix_common.h"

/* Turns a data item whose value is not a string into its text (Open MPI's help message, a byte
 * object): WU_SUCCESS and *text (NULL: nothing to write, the item counts as logged), or any
 * other status when the item is not a message. Rendered text is written without a source. */
typedef int (*wu_plog_render_fn_t)(const pmix_info_t *item, const char **text, void *ctx);

/* Log one PMIx_Log request: each data item to the channel of its key (wu_plog_base_channel), string values
 * as they are, other values through render (may be NULL); the sender is source unless the
 * directives name a PMIX_LOG_SOURCE. PMIX_SUCCESS (every item logged, or one with
 * PMIX_LOG_ONCE), PMIX_ERR_PARTIAL_SUCCESS (some), PMIX_ERR_NOT_SUPPORTED (none: no channel,
 * no module for it, or every module failed), PMIX_ERR_BAD_PARAM. */
WU_EXPORT pmix_status_t wu_plog_base_log_request(const pmix_proc_t *source,
                                                 const pmix_info_t data[], size_t ndata,
                                                 const pmix_info_t dirs[], size_t ndirs,
                                                 wu_plog_render_fn_t render, void *ctx);

#endif
