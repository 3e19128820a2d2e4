/* SPDX-License-Identifier: BSD-3-Clause */
/* wutest_misnamed.c -- file says wutest/misnamed, the struct says wutest/other: must be refused. */
#include "test/unit/mca/wutest.h"

static const wu_wutest_module_t mod = {NULL};
WU_EXPORT const wu_mca_component_t wu_mca_wutest_misnamed_component = {.abi = WU_MCA_ABI,
                                                                       .framework = "wutest",
                                                                       .name = "other",
                                                                       .fw_version =
                                                                           WU_wutest_VERSION,
                                                                       .priority = 1,
                                                                       .module = &mod};
