/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_version.c -- PMIx_Get_version: the library's identity string.
 *
 * Tools parse this string, so it starts the way OpenPMIx's does ("OpenPMIx <version> (PMIx
 * Standard: ...") and names Wireup inside the parentheses. */
#include "opal/util/wu_macros.h"
#include "pmix.h"

const char *PMIx_Get_version(void)
{
    return "OpenPMIx " WU_PMIX_COMPAT_VERSION " (PMIx Standard: " WU_PMIX_STD_VERSION
           ", Stable ABI: 0.0, Provisional ABI: 0.0; implemented by Wireup " WU_VERSION ")";
}
