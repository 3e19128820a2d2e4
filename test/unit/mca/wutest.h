/* SPDX-License-Identifier: BSD-3-Clause */
/* wutest.h -- a test-only framework: drives the MCA base's selection and DSO loading. */
#ifndef WU_WUTEST_H
#define WU_WUTEST_H

#include "mca/base/wu_mca.h"

#define WU_wutest_VERSION 3u

typedef struct {
    int (*answer)(void);
} wu_wutest_module_t;

#endif
