/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_version.h -- the PMIx API/ABI version Wireup's headers and library implement: OpenPMIx
 * 4.2.2's, so code that tests these macros takes its 4.2 paths. PMIX_NUMERIC_VERSION is
 * 0x00MMmmrr (major, minor, release). Wireup's own version is in PMIx_Get_version(). */
#ifndef PMIx_VERSION_H
#define PMIx_VERSION_H

#define PMIX_VERSION_MAJOR   4L
#define PMIX_VERSION_MINOR   2L
#define PMIX_VERSION_RELEASE 2L

#define PMIX_NUMERIC_VERSION 0x00040202

#endif /* PMIx_VERSION_H */
