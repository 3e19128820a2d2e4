/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_version.c -- PMIx_Get_version: the library's identity string.
 *
 * Tools parse this string, so it starts the way OpenPMIx's does ("OpenPMIx <version> (PMIx
 * Standard: ...") and names Wireup inside the parentheses. The version and levels are those of
 * the OpenPMIx generation configure chose (--with-pmix-compat). Both Open MPI 4.1 (which wants
 * the first character at or above '3') and Open MPI 5 accept either. */
#include "opal/util/wu_macros.h"
#include "pmix.h"

const char *PMIx_Get_version(void)
{
    return "OpenPMIx " WU_PMIX_COMPAT_VERSION " (PMIx Standard: " WU_PMIX_STD_VERSION
           ", Stable ABI: " WU_PMIX_ABI_VERSION ", Provisional ABI: " WU_PMIX_ABI_VERSION
           "; implemented by Wireup " WU_VERSION ")";
}
