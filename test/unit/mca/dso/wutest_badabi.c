/* SPDX-License-Identifier: BSD-3-Clause */
/* wutest_badabi.c -- a DSO component built for another component-struct layout: must be refused. */
#include "test/unit/mca/wutest.h"

WU_EXPORT const struct {
    uint32_t abi;
    char junk[64];
} wu_mca_wutest_badabi_component = {.abi = WU_MCA_ABI + 98};
