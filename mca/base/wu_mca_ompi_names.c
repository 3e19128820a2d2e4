/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_mca_ompi_names.c -- pmix_framework_names, the one data symbol Open MPI 5 reads from the PMIx
 * library: a NULL-terminated array of the library's framework names. libopen-pal.so.80 will not
 * load without it; it uses the list to tell which "<framework>_<param>" settings of its own
 * parameter files belong to PMIx (and passes those on as PMIX_MCA_*). The names are those of
 * wu_mca_builtin_frameworks (check_mca_base compares the two).
 *
 * This is the only lowercase pmix_ name the library exports (see docs/architecture.md): Open MPI
 * 4.1 defines no symbol of that name, so it cannot rebind a call of ours. */
#include "opal/util/wu_macros.h"

WU_EXPORT char *pmix_framework_names[] = {"gds", "plog", "pnet", "psec", "ptl", NULL};
