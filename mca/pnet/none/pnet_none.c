/* SPDX-License-Identifier: BSD-3-Clause */
/* pnet_none.c -- pnet component "none": prepares nothing and adds nothing to a job. Select it
 * alone (PMIX_MCA_pnet=none) to launch jobs without any network preparation. */
#include "mca/pnet/pnet.h"

/* every operation NULL: the base skips it */
static const wu_pnet_module_t none_module = {0};

WU_MCA_COMPONENT(pnet, none, .priority = 0,
                 .description = "Prepares nothing: jobs get no network information",
                 .module = &none_module);
