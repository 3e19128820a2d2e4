/* SPDX-License-Identifier: BSD-3-Clause */
/* check_mca_param.c -- the parameter registry: sources, precedence, parsing, ownership. */
#include "mca/base/wu_mca_param.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_show_help.h"
#include "test/support/wu_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/wu_param_XXXXXX";
static char sysfile[256], userfile[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(sysfile, sizeof sysfile, "%s/sys.conf", tmpdir);
    snprintf(userfile, sizeof userfile, "%s/user.conf", tmpdir);
    setenv("PMIX_MCA_mca_base_system_param_file", sysfile, 1);
    setenv("PMIX_MCA_mca_base_user_param_file", userfile, 1);
    unsetenv("PMIX_MCA_wt_knob");
    unsetenv("PMIX_MCA_mca_base_component_path"); /* set by make check; not registered here */
    wu_show_help_set_fd(open("/dev/null", O_WRONLY));
}

static void teardown(void)
{
    unlink(sysfile);
    unlink(userfile);
    rmdir(tmpdir);
}

/* Every combination of the four sources: the highest one present must win, with its source. */
START_TEST(precedence)
{
    int mask = _i, knob = 0;
    char text[64];
    wu_mca_param_t p[] = {WU_PARAM_INT("knob", &knob, WU_INFO_LVL_1, "test knob"), WU_PARAM_END};
    const wu_mca_param_var_t *v;
    int want = 0;
    wu_param_source_t want_src = WU_PARAM_SRC_DEFAULT;

    if (mask & 1) {
        write_file(sysfile, "# system\nwt_knob = 1\n");
        want = 1, want_src = WU_PARAM_SRC_SYSFILE;
    }
    if (mask & 2) {
        write_file(userfile, "other = x\n\nwt_knob=2\n");
        want = 2, want_src = WU_PARAM_SRC_USERFILE;
    }
    if (mask & 4) {
        setenv("PMIX_MCA_wt_knob", "3", 1);
        want = 3, want_src = WU_PARAM_SRC_ENV;
    }
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    if (mask & 8) {
        ck_assert_int_eq(WU_SUCCESS, wu_mca_param_set_cmdline("wt_knob", "4"));
        want = 4, want_src = WU_PARAM_SRC_CMDLINE;
    }
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register_table("wt", NULL, p));
    v = wu_mca_param_find("wt_knob");
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(want, knob);
    ck_assert_int_eq(want_src, v->source);
    if (WU_PARAM_SRC_SYSFILE == want_src) {
        ck_assert_str_eq(sysfile, v->source_file);
        ck_assert_int_eq(2, v->source_line);
    } else if (WU_PARAM_SRC_USERFILE == want_src) {
        ck_assert_str_eq(userfile, v->source_file);
        ck_assert_int_eq(3, v->source_line);
    } else {
        ck_assert_ptr_null(v->source_file);
    }
    snprintf(text, sizeof text, "%d", want);
    ck_assert_str_eq("0", v->default_str);
    wu_mca_param_finalize();
}
END_TEST

/* A value that does not parse is ignored and the next source down applies. */
START_TEST(bad_value_falls_through)
{
    int knob = 5;
    wu_mca_param_t p[] = {WU_PARAM_INT("knob", &knob, WU_INFO_LVL_1, "test knob"), WU_PARAM_END};
    write_file(userfile, "wt_knob = 12\n");
    setenv("PMIX_MCA_wt_knob", "twelve", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register_table("wt", NULL, p));
    ck_assert_int_eq(12, knob);
    ck_assert_int_eq(WU_PARAM_SRC_USERFILE, wu_mca_param_find("wt_knob")->source);
    wu_mca_param_finalize();
}
END_TEST

static const wu_param_enum_t colors[] = {{"red", 1}, {"green", 2}, {NULL, 0}};
static const struct {
    wu_param_type_t type;
    const char *in;
    int ok;
    int64_t want;
} parse_cases[] = {
    {WU_PARAM_TYPE_INT, "17", 1, 17},
    {WU_PARAM_TYPE_INT, "-3", 1, -3},
    {WU_PARAM_TYPE_INT, "0x10", 1, 16},
    {WU_PARAM_TYPE_INT, "1.5", 0, 0},
    {WU_PARAM_TYPE_INT, "", 0, 0},
    {WU_PARAM_TYPE_INT, "99999999999", 0, 0},
    {WU_PARAM_TYPE_INT, "green", 1, 2},
    {WU_PARAM_TYPE_UNSIGNED, "7", 1, 7},
    {WU_PARAM_TYPE_UNSIGNED, "-7", 0, 0},
    {WU_PARAM_TYPE_SIZE, "4096", 1, 4096},
    {WU_PARAM_TYPE_SIZE, "64k", 1, 65536},
    {WU_PARAM_TYPE_SIZE, "2M", 1, 2097152},
    {WU_PARAM_TYPE_SIZE, "1g", 1, 1073741824},
    {WU_PARAM_TYPE_SIZE, "1x", 0, 0},
    {WU_PARAM_TYPE_SIZE, "-1", 0, 0},
    {WU_PARAM_TYPE_BOOL, "yes", 1, 1},
    {WU_PARAM_TYPE_BOOL, "TRUE", 1, 1},
    {WU_PARAM_TYPE_BOOL, "off", 1, 0},
    {WU_PARAM_TYPE_BOOL, "0", 1, 0},
    {WU_PARAM_TYPE_BOOL, "2", 1, 1},
    {WU_PARAM_TYPE_BOOL, "maybe", 0, 0},
    {WU_PARAM_TYPE_ENUM, "red", 1, 1},
    {WU_PARAM_TYPE_ENUM, "GREEN", 1, 2},
    {WU_PARAM_TYPE_ENUM, "2", 1, 2},
    {WU_PARAM_TYPE_ENUM, "3", 0, 0},
    {WU_PARAM_TYPE_ENUM, "blue", 0, 0},
};

START_TEST(parse_table)
{
    int64_t out = -99;
    const char *why = NULL;
    wu_mca_param_t d = {.name = "x", .type = parse_cases[_i].type, .enums = colors};
    int rc = wu_mca_param_parse(&d, parse_cases[_i].in, &out, &why);
    if (parse_cases[_i].ok) {
        ck_assert_msg(WU_SUCCESS == rc, "'%s' should parse", parse_cases[_i].in);
        ck_assert_int_eq(parse_cases[_i].want, out);
    } else {
        ck_assert_msg(WU_SUCCESS != rc, "'%s' should be refused", parse_cases[_i].in);
        ck_assert_ptr_nonnull(why);
    }
}
END_TEST

START_TEST(range_is_enforced)
{
    int v = 5;
    wu_mca_param_t p[] = {WU_PARAM_INT_RANGE("lvl", &v, 0, 10, WU_INFO_LVL_1, "bounded"),
                          WU_PARAM_END};
    setenv("PMIX_MCA_wt_lvl", "11", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register_table("wt", NULL, p));
    ck_assert_int_eq(5, v);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_set("wt_lvl", "10"));
    ck_assert_int_eq(10, v);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_param_set("wt_lvl", "-1"));
    ck_assert_int_eq(10, v);
    wu_mca_param_finalize();
}
END_TEST

START_TEST(strings_owned_and_restored)
{
    static const char *deflt = "plain";
    char *s = (char *)deflt;
    wu_mca_param_t p[] = {WU_PARAM_STRING("name", &s, WU_INFO_LVL_1, "a string"), WU_PARAM_END};
    setenv("PMIX_MCA_wt_name", "from env", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register_table("wt", NULL, p));
    ck_assert_str_eq("from env", s);
    ck_assert_str_eq("plain", wu_mca_param_find("wt_name")->default_str);
    wu_mca_param_finalize();
    ck_assert_ptr_eq(deflt, s);
}
END_TEST

START_TEST(cmdline_repeats_join)
{
    char *s = NULL;
    wu_mca_param_t p[] = {WU_PARAM_STRING("list", &s, WU_INFO_LVL_1, "a list"), WU_PARAM_END};
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_set_cmdline("wt_list", "a"));
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_set_cmdline("wt_list", "b"));
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register_table("wt", NULL, p));
    ck_assert_str_eq("a,b", s);
    ck_assert_int_eq(WU_PARAM_SRC_CMDLINE, wu_mca_param_find("wt_list")->source);
    wu_mca_param_finalize();
}
END_TEST

START_TEST(reregistration_rebinds)
{
    int a = 1, b = 1;
    wu_mca_param_t pa = WU_PARAM_INT("k", &a, WU_INFO_LVL_1, "k");
    wu_mca_param_t pb = WU_PARAM_INT("k", &b, WU_INFO_LVL_1, "k");
    wu_mca_param_t ps = WU_PARAM_BOOL("k", &b, WU_INFO_LVL_1, "k");
    setenv("PMIX_MCA_wt_c_k", "6", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register("wt", "c", &pa));
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register("wt", "c", &pb));
    ck_assert_int_eq(6, b);
    ck_assert_int_eq(WU_ERR_EXISTS, wu_mca_param_register("wt", "c", &ps));
    wu_mca_param_finalize();
}
END_TEST

START_TEST(bad_declarations)
{
    int x = 0, e = 0;
    wu_mca_param_t nohelp = {.name = "x", .type = WU_PARAM_TYPE_INT, .storage = &x, .help = ""};
    wu_mca_param_t noname = {.name = "", .type = WU_PARAM_TYPE_INT, .storage = &x, .help = "h"};
    wu_mca_param_t noenum = {.name = "e", .type = WU_PARAM_TYPE_ENUM, .storage = &e, .help = "h"};
    wu_mca_param_t baddef = WU_PARAM_ENUM("d", &e, colors, WU_INFO_LVL_1, "0 is not a color");
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_param_register("wt", NULL, &nohelp));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_param_register("wt", NULL, &noname));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_param_register("wt", NULL, &noenum));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_param_register("wt", NULL, &baddef));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_mca_param_register("wt", NULL, NULL));
    ck_assert_ptr_null(wu_mca_param_find("wt_x"));
    wu_mca_param_finalize();
}
END_TEST

START_TEST(unknown_names_are_counted)
{
    int k = 0;
    wu_mca_param_t p[] = {WU_PARAM_INT("knob", &k, WU_INFO_LVL_1, "k"), WU_PARAM_END};
    write_file(userfile, "wt_knob = 1\nwt_typo = 2\n");
    setenv("PMIX_MCA_wt_knob", "3", 1);
    setenv("PMIX_MCA_wt_nonesuch", "4", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_init());
    ck_assert_int_eq(WU_SUCCESS, wu_mca_param_register_table("wt", NULL, p));
    ck_assert_int_eq(2, wu_mca_param_report_unknown(false));
    wu_mca_param_finalize();
}
END_TEST

static Suite *mca_param_suite(void)
{
    Suite *s = suite_create("mca_param");
    TCase *tc = tcase_create("registry");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, precedence, 0, 16);
    tcase_add_test(tc, bad_value_falls_through);
    tcase_add_loop_test(tc, parse_table, 0, (int)WU_NELEMS(parse_cases));
    tcase_add_test(tc, range_is_enforced);
    tcase_add_test(tc, strings_owned_and_restored);
    tcase_add_test(tc, cmdline_repeats_join);
    tcase_add_test(tc, reregistration_rebinds);
    tcase_add_test(tc, bad_declarations);
    tcase_add_test(tc, unknown_names_are_counted);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(mca_param_suite)
