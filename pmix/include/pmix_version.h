/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_version.h -- the PMIx API level Wireup's headers and library implement: OpenPMIx 5.0.7's
 * (whose ABI includes 4.2.2's), so code that tests these macros takes its PMIx 5 paths.
 * PMIX_NUMERIC_VERSION is 0x00MMmmrr (major, minor, release). PMIX_CAPABILITIES is a bit set of
 * library behaviours (PMIX_CAP_*); OpenPMIx 5 defines only the base one. Wireup's own version is
 * in PMIx_Get_version(). */
#ifndef PMIx_VERSION_H
#define PMIx_VERSION_H

#define PMIX_VERSION_MAJOR   5L
#define PMIX_VERSION_MINOR   0L
#define PMIX_VERSION_RELEASE 7L

#define PMIX_NUMERIC_VERSION 0x00050007

#define PMIX_CAP_BASE     1
#define PMIX_CAPABILITIES (PMIX_CAP_BASE)

#endif /* PMIx_VERSION_H */
