/* SPDX-License-Identifier: BSD-3-Clause */
/* wutest_oldfw.c -- built against an older version of the framework interface: must be refused. */
#include "test/unit/mca/wutest.h"

static const wu_wutest_module_t mod = {NULL};
WU_EXPORT const wu_mca_component_t wu_mca_wutest_oldfw_component = {.abi = WU_MCA_ABI,
                                                                    .framework = "wutest",
                                                                    .name = "oldfw",
                                                                    .fw_version =
                                                                        WU_wutest_VERSION - 1,
                                                                    .priority = 1,
                                                                    .module = &mod};
