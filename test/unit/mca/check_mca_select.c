/* SPDX-License-Identifier: BSD-3-Clause */
/* check_mca_select.c -- selection through a test-only framework with fake components: include and
 * exclude lists, their syntax, priorities, declining, negative priorities, named components that
 * cannot run, open failures, select-one versus select-all. */
#include "opal/util/wu_show_help.h"
#include "test/support/wu_test.h"
#include "test/unit/mca/wutest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int closes, opens;
static bool fatal_query;

static int a1(void)
{
    return 1;
}
static int a2(void)
{
    return 2;
}
static int a3(void)
{
    return 3;
}
static int a4(void)
{
    return 4;
}
static int a5(void)
{
    return 5;
}
static const wu_wutest_module_t m_alpha = {a1}, m_beta = {a2}, m_gamma = {a3}, m_delta = {a4},
                                m_zeta = {a5};

static int gamma_query(const void **module, int *prio, const char **reason)
{
    *reason = "no hardware for gamma";
    return WU_ERR_NOT_AVAILABLE;
}
static int fatal_or_skip(const void **module, int *prio, const char **reason)
{
    *reason = "epsilon found a broken system";
    return fatal_query ? WU_ERR_FATAL : WU_ERR_NOT_AVAILABLE;
}
static int zeta_open(void)
{
    return WU_ERROR;
}
static int count_open(void)
{
    opens++;
    return WU_SUCCESS;
}
static void count_close(void)
{
    closes++;
}

static const wu_mca_component_t c_alpha = {.abi = WU_MCA_ABI,
                                           .framework = "wutest",
                                           .name = "alpha",
                                           .fw_version = WU_wutest_VERSION,
                                           .priority = 30,
                                           .module = &m_alpha,
                                           .open = count_open,
                                           .close = count_close};
static const wu_mca_component_t c_beta = {.abi = WU_MCA_ABI,
                                          .framework = "wutest",
                                          .name = "beta",
                                          .fw_version = WU_wutest_VERSION,
                                          .priority = 20,
                                          .module = &m_beta,
                                          .open = count_open,
                                          .close = count_close};
static const wu_mca_component_t c_gamma = {.abi = WU_MCA_ABI,
                                           .framework = "wutest",
                                           .name = "gamma",
                                           .fw_version = WU_wutest_VERSION,
                                           .priority = 40,
                                           .query = gamma_query,
                                           .module = &m_gamma};
static const wu_mca_component_t c_delta = {.abi = WU_MCA_ABI,
                                           .framework = "wutest",
                                           .name = "delta",
                                           .fw_version = WU_wutest_VERSION,
                                           .priority = -1,
                                           .module = &m_delta};
static const wu_mca_component_t c_epsilon = {.abi = WU_MCA_ABI,
                                             .framework = "wutest",
                                             .name = "epsilon",
                                             .fw_version = WU_wutest_VERSION,
                                             .priority = 60,
                                             .query = fatal_or_skip};
static const wu_mca_component_t c_zeta = {.abi = WU_MCA_ABI,
                                          .framework = "wutest",
                                          .name = "zeta",
                                          .fw_version = WU_wutest_VERSION,
                                          .priority = 5,
                                          .module = &m_zeta,
                                          .open = zeta_open};

static wu_mca_framework_t fw = {
    .name = "wutest", .description = "test framework", .version = WU_wutest_VERSION};
static char helpfile[] = "/tmp/wu_select_XXXXXX";
static int helpfd = -1;

static void start(wu_mca_select_mode_t mode, const char *selection)
{
    const wu_mca_component_t *all[] = {&c_alpha, &c_beta, &c_gamma, &c_delta, &c_epsilon, &c_zeta};
    if (NULL != selection) {
        setenv("PMIX_MCA_wutest", selection, 1);
    }
    fw.mode = mode;
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    wu_show_help_set_fd(helpfd);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_register(&fw));
    for (size_t i = 0; i < WU_NELEMS(all); i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_add_component(&fw, all[i]));
    }
}

/* The active modules' answers, best first, as a string like "1,2". */
static const char *active(void)
{
    static char buf[64];
    const wu_wutest_module_t *m;
    buf[0] = '\0';
    for (size_t i = 0; NULL != (m = wu_mca_active_module(&fw, i)); i++) {
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i ? "," : "", m->answer());
    }
    return buf;
}

static char *help_text(void)
{
    static char buf[8192];
    ssize_t n = pread(helpfd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

static void setup(void)
{
    helpfd = mkstemp(helpfile);
    ck_assert_int_ge(helpfd, 0);
    unlink(helpfile);
    unsetenv("PMIX_MCA_wutest");
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    closes = opens = 0;
    fatal_query = false;
}

static void teardown(void)
{
    wu_mca_base_close();
    close(helpfd);
}

static const struct {
    wu_mca_select_mode_t mode;
    const char *selection;
    int rc;
    const char *active;
    const char *help; /* substring the user must see, or NULL for no message */
} cases[] = {
    {WU_MCA_SELECT_ONE, NULL, WU_SUCCESS, "1", NULL},
    {WU_MCA_SELECT_ALL, NULL, WU_SUCCESS, "1,2", NULL}, /* zeta's open fails, gamma declines */
    {WU_MCA_SELECT_ONE, "beta", WU_SUCCESS, "2", NULL},
    {WU_MCA_SELECT_ONE, "^alpha", WU_SUCCESS, "2", NULL},
    {WU_MCA_SELECT_ALL, "^alpha,beta", WU_SUCCESS, "", NULL},
    {WU_MCA_SELECT_ALL, " beta , alpha ", WU_SUCCESS, "1,2", NULL},
    {WU_MCA_SELECT_ONE, "delta", WU_SUCCESS, "4", NULL}, /* negative priority, but named */
    {WU_MCA_SELECT_ALL, "delta,beta", WU_SUCCESS, "2,4", NULL},
    {WU_MCA_SELECT_ONE, "gamma,beta", WU_SUCCESS, "2", NULL}, /* one of the named runs */
    {WU_MCA_SELECT_ONE, "^nosuch", WU_SUCCESS, "1", NULL},    /* unknown exclude: a warning */
    {WU_MCA_SELECT_ONE, "alpha,^beta", WU_ERR_SILENT, "", "only at the very start"},
    {WU_MCA_SELECT_ONE, ",", WU_ERR_SILENT, "", "is not valid"},
    {WU_MCA_SELECT_ONE, "nosuch", WU_ERR_SILENT, "", "no component named \"nosuch\""},
    {WU_MCA_SELECT_ONE, "nosuch", WU_ERR_SILENT, "", "PMIX_MCA_wutest=nosuch (environment)"},
    {WU_MCA_SELECT_ONE, "gamma", WU_ERR_SILENT, "", "no hardware for gamma"},
    {WU_MCA_SELECT_ALL, "alpha,gamma", WU_ERR_SILENT, "", "no hardware for gamma"},
    {WU_MCA_SELECT_ALL, "zeta", WU_ERR_SILENT, "", "open() failed"},
    {WU_MCA_SELECT_ONE, "^alpha,beta,delta,zeta", WU_ERR_SILENT, "", "No component"},
};

START_TEST(selection_table)
{
    int rc;
    start(cases[_i].mode, cases[_i].selection);
    rc = wu_mca_framework_open(&fw);
    ck_assert_msg(cases[_i].rc == rc, "selection '%s': rc %d, want %d", cases[_i].selection, rc,
                  cases[_i].rc);
    ck_assert_str_eq(cases[_i].active, active());
    if (NULL != cases[_i].help) {
        ck_assert_msg(NULL != strstr(help_text(), cases[_i].help), "message lacks '%s':\n%s",
                      cases[_i].help, help_text());
    } else {
        ck_assert_str_eq("", help_text());
    }
    wu_mca_framework_close(&fw);
}
END_TEST

START_TEST(statuses_after_select_one)
{
    start(WU_MCA_SELECT_ONE, NULL);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_open(&fw));
    ck_assert_int_eq(WU_MCA_COMP_SELECTED, fw.comps[0]->status);   /* alpha */
    ck_assert_int_eq(WU_MCA_COMP_NOT_CHOSEN, fw.comps[1]->status); /* beta */
    ck_assert_int_eq(WU_MCA_COMP_DECLINED, fw.comps[2]->status);   /* gamma */
    ck_assert_str_eq("no hardware for gamma", fw.comps[2]->reason);
    ck_assert_int_eq(WU_MCA_COMP_EXCLUDED, fw.comps[3]->status); /* delta: negative priority */
    ck_assert_int_eq(1, opens);                                  /* only the winner is opened */
    wu_mca_framework_close(&fw);
    ck_assert_int_eq(1, closes);
}
END_TEST

START_TEST(priority_parameter_overrides)
{
    setenv("PMIX_MCA_wutest_beta_priority", "100", 1);
    start(WU_MCA_SELECT_ONE, NULL);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_open(&fw));
    ck_assert_str_eq("2", active());
    wu_mca_framework_close(&fw);
}
END_TEST

START_TEST(fatal_query_stops_selection)
{
    fatal_query = true;
    start(WU_MCA_SELECT_ALL, NULL);
    ck_assert_int_eq(WU_ERR_FATAL, wu_mca_framework_open(&fw));
    ck_assert_uint_eq(0, fw.nactive);
    ck_assert_int_eq(0, opens);
}
END_TEST

START_TEST(open_is_refcounted)
{
    start(WU_MCA_SELECT_ALL, NULL);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_open(&fw));
    ck_assert_int_eq(WU_SUCCESS, wu_mca_framework_open(&fw));
    ck_assert_int_eq(2, opens);
    wu_mca_framework_close(&fw);
    ck_assert_int_eq(0, closes);
    ck_assert_str_eq("1,2", active());
    wu_mca_framework_close(&fw);
    ck_assert_int_eq(2, closes);
    ck_assert_str_eq("", active());
}
END_TEST

START_TEST(add_component_checks)
{
    wu_mca_component_t wrong = c_alpha;
    start(WU_MCA_SELECT_ONE, NULL);
    ck_assert_int_eq(WU_ERR_EXISTS, wu_mca_framework_add_component(&fw, &c_alpha));
    wrong.name = "wrongfw";
    wrong.framework = "other";
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_framework_add_component(&fw, &wrong));
    wrong.framework = "wutest";
    wrong.fw_version = WU_wutest_VERSION + 1;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_framework_add_component(&fw, &wrong));
    wrong.fw_version = WU_wutest_VERSION;
    wrong.abi = WU_MCA_ABI + 1;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_framework_add_component(&fw, &wrong));
    /* each component's priority is a parameter */
    ck_assert_ptr_nonnull(wu_mca_param_find("wutest_alpha_priority"));
    ck_assert_ptr_nonnull(wu_mca_param_find("wutest_base_verbose"));
    ck_assert_ptr_nonnull(wu_mca_param_find("wutest"));
}
END_TEST

static Suite *mca_select_suite(void)
{
    Suite *s = suite_create("mca_select");
    TCase *tc = tcase_create("select");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, selection_table, 0, (int)WU_NELEMS(cases));
    tcase_add_test(tc, statuses_after_select_one);
    tcase_add_test(tc, priority_parameter_overrides);
    tcase_add_test(tc, fatal_query_stops_selection);
    tcase_add_test(tc, open_is_refcounted);
    tcase_add_test(tc, add_component_checks);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(mca_select_suite)
