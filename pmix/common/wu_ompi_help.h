/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_ompi_help.h -- reading the help messages Open MPI sends through PMIx_Log.
 *
 * Before its runtime is up (and always under a PMIx launcher), Open MPI's show_help packs a
 * message as PMIX_LOG_MSG, a byte object in its own buffer format: fields of (u32 count 1,
 * value), each value a string (u32 length including the NUL, the bytes) or one byte. The fields
 * are the help file name, the topic, a have-output flag and the rendered text. The text is the
 * only explanation a user gets of an early MPI failure, so the client and the launcher print it;
 * the file and topic let the launcher print a message that many ranks send only once. */
#ifndef WU_OMPI_HELP_H
#define WU_OMPI_HELP_H

#include "opal/util/wu_macros.h"
#include "pmix_common.h"

/* The strings of bo, in order, as pointers into bo (at most max of them); returns how many
 * were found (0 when the bytes are not in that format). */
WU_EXPORT size_t wu_ompi_help_strings(const pmix_byte_object_t *bo, const char **out, size_t max);
/* The same for a PMIx_Log data item: 0 unless it is a PMIX_LOG_MSG byte object. */
WU_EXPORT size_t wu_ompi_help_item(const pmix_info_t *item, const char **out, size_t max);
/* A plog renderer (wu_plog_render_fn_t): an Open MPI help message becomes its rendered text;
 * WU_ERR_NOT_SUPPORTED for anything else. ctx is unused. */
WU_EXPORT int wu_ompi_help_render(const pmix_info_t *item, const char **text, void *ctx);

#endif
