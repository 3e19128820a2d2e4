/* SPDX-License-Identifier: BSD-3-Clause */
/* wutest_nosym.c -- a DSO without the component symbol: must be refused. */
#include "test/unit/mca/wutest.h"

WU_EXPORT int wu_wutest_nosym_placeholder(void);
int wu_wutest_nosym_placeholder(void)
{
    return 0;
}
