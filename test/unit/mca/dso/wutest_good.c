/* SPDX-License-Identifier: BSD-3-Clause */
/* wutest_good.c -- a well-formed DSO component of the test framework. */
#include "test/unit/mca/wutest.h"

static int good_answer(void)
{
    return 42;
}
static const wu_wutest_module_t good_module = {.answer = good_answer};
static int good_knob = 7;
static const wu_mca_param_t good_params[] = {
    WU_PARAM_INT("knob", &good_knob, WU_INFO_LVL_5, "A parameter a DSO component registers"),
    WU_PARAM_END};
WU_MCA_COMPONENT(wutest, good, .priority = 50, .params = good_params,
                 .description = "well-formed DSO", .module = &good_module);
