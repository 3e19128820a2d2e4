/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_pending_stubs.c -- TEMPORARY placeholders for data-helper and serialization functions
 * that other work on issue 3 is implementing in pmix/common/.
 *
 * Each function sits in its own block, opened by a "---- PMIx_Name ----" line: when the real
 * implementation lands, delete that function's block (and this file once it is empty). The
 * stubs return PMIX_ERR_NOT_SUPPORTED, false, NULL, a placeholder string or nothing. */
#include "pmix.h"

/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* ---- PMIx_Info_string ---- */
/* wu-api: stub issue=3 */
char *PMIx_Info_string(const pmix_info_t *info)
{
    return NULL;
}

/* ---- PMIx_Value_string ---- */
/* wu-api: stub issue=3 */
char *PMIx_Value_string(const pmix_value_t *value)
{
    return NULL;
}
