/* SPDX-License-Identifier: BSD-3-Clause */
/* check_mca_dso.c -- DSO components through the real libpmix.so.2: a good one loads, registers its
 * parameters and is selected; malformed ones (wrong interface, wrong name, old framework version,
 * no component symbol, duplicate of a linked-in component) are refused with a reason. */
#include "test/support/wu_test.h"
#include "test/unit/mca/wutest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wu_mca_framework_t fw = {.name = "wutest",
                                .description = "test framework",
                                .version = WU_wutest_VERSION,
                                .mode = WU_MCA_SELECT_ONE};

static void setup(void)
{
    const char *dir = getenv("WU_TEST_DSO_DIR");
    char path[2048];
    if (NULL == dir) {
        dir = WU_TEST_BUILDDIR "/test/unit/mca/dso/.libs";
    }
    /* a directory that does not exist first: it must simply be skipped */
    snprintf(path, sizeof path, "/nonexistent/wireup:%s", dir);
    setenv("PMIX_MCA_mca_base_component_path", path, 1);
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_verbose", "none", 1); /* refusals are checked below, not printed */
}

static const char *failure_reason(const char *comp)
{
    const wu_mca_dso_failure_t *f;
    size_t n = wu_mca_dso_failures(&f);
    char name[64];
    snprintf(name, sizeof name, "wu_mca_wutest_%s.so", comp);
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(f[i].path, '/');
        if (NULL != base && 0 == strcmp(base + 1, name)) {
            return f[i].reason;
        }
    }
    return NULL;
}

START_TEST(good_dso_loads_and_runs)
{
    const wu_wutest_module_t *m;
    const wu_mca_param_var_t *v;
    setenv("PMIX_MCA_wutest_good_knob", "9", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_register(&fw));
    ck_assert_uint_eq(1, fw.ncomps);
    ck_assert_str_eq("good", fw.comps[0]->component->name);
    ck_assert_ptr_nonnull(fw.comps[0]->dso_path);
    ck_assert_ptr_nonnull(strstr(fw.comps[0]->dso_path, "/wu_mca_wutest_good.so"));
    v = wu_mca_param_find("wutest_good_knob");
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(9, *(int *)v->decl.storage);
    ck_assert_int_eq(WU_PARAM_SRC_ENV, v->source);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_open(&fw));
    m = wu_mca_active_module(&fw, 0);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(42, m->answer());
    wu_mca_framework_close(&fw);
    wu_mca_base_close();
}
END_TEST

static const struct {
    const char *comp, *reason;
} refusals[] = {
    {"badabi", "component interface"},
    {"misnamed", "declares itself as wutest/other"},
    {"oldfw", "version 2 of the wutest framework interface"},
    {"nosym", "does not define the symbol wu_mca_wutest_nosym_component"},
};

START_TEST(bad_dsos_are_refused)
{
    const char *why;
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_register(&fw));
    why = failure_reason(refusals[_i].comp);
    ck_assert_msg(NULL != why, "%s was not refused", refusals[_i].comp);
    ck_assert_msg(NULL != strstr(why, refusals[_i].reason), "reason for %s: %s", refusals[_i].comp,
                  why);
    for (size_t i = 0; i < fw.ncomps; i++) {
        ck_assert_str_ne(refusals[_i].comp, fw.comps[i]->component->name);
    }
    wu_mca_base_close();
}
END_TEST

static int linked_answer(void)
{
    return 1;
}
static const wu_wutest_module_t linked_module = {linked_answer};
static const wu_mca_component_t linked_good = {.abi = WU_MCA_ABI,
                                               .framework = "wutest",
                                               .name = "good",
                                               .fw_version = WU_wutest_VERSION,
                                               .priority = 1,
                                               .module = &linked_module};

START_TEST(dso_duplicating_linked_component_is_refused)
{
    const wu_wutest_module_t *m;
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_add_component(&fw, &linked_good));
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_register(&fw));
    ck_assert_ptr_nonnull(failure_reason("good"));
    ck_assert_ptr_nonnull(strstr(failure_reason("good"), "already linked"));
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_open(&fw));
    m = wu_mca_active_module(&fw, 0);
    ck_assert_int_eq(1, m->answer());
    wu_mca_framework_close(&fw);
    wu_mca_base_close();
}
END_TEST

static Suite *mca_dso_suite(void)
{
    Suite *s = suite_create("mca_dso");
    TCase *tc = tcase_create("dso");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, good_dso_loads_and_runs);
    tcase_add_loop_test(tc, bad_dsos_are_refused, 0, (int)WU_NELEMS(refusals));
    tcase_add_test(tc, dso_duplicating_linked_component_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(mca_dso_suite)
