/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmdl.c -- the pmdl framework with its ompi component: the environment an Open MPI 4.1
 * program needs for a direct launch, removal of an enclosing ORTE job's variables, exclusion
 * with PMIX_MCA_pmdl, and which MCA names are routed to OMPI_MCA_. */
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_argv.h"
#include "test/support/wu_test.h"

#include <stdlib.h>
#include <string.h>

static char *prog_argv[] = {"./ring", "-v", "10", NULL};
static const uint32_t sizes[] = {2, 2}, firsts[] = {0, 2};
static const wu_pmdl_proc_t proc3 = {.nspace = "wrun.host.1.1",
                                     .argv = prog_argv,
                                     .rank = 3,
                                     .job_size = 4,
                                     .univ_size = 8,
                                     .local_rank = 1,
                                     .local_size = 2,
                                     .node_rank = 5,
                                     .app_num = 1,
                                     .num_apps = 2,
                                     .app_sizes = sizes,
                                     .app_firsts = firsts};

static void open_fw(const char *selection)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    if (NULL != selection) {
        setenv("PMIX_MCA_pmdl", selection, 1);
    } else {
        unsetenv("PMIX_MCA_pmdl");
    }
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_open());
}

static void setup(void)
{
    open_fw(NULL);
}

static void teardown(void)
{
    wu_pmdl_base_close();
    wu_mca_base_close();
}

static const struct {
    const char *name, *want;
} ompi_vars[] = {
    {"OMPI_MCA_schizo", "^orte,slurm"},
    {"OMPI_COMM_WORLD_RANK", "3"},
    {"OMPI_COMM_WORLD_SIZE", "4"},
    {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
    {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
    {"OMPI_COMM_WORLD_NODE_RANK", "5"},
    {"OMPI_UNIVERSE_SIZE", "8"},
    {"OMPI_APP_CTX_NUM_PROCS", "2 2"},
    {"OMPI_NUM_APP_CTX", "2"},
    {"OMPI_FIRST_RANKS", "0 2"},
    {"OMPI_COMMAND", "./ring"},
    {"OMPI_ARGV", "-v 10"},
    {"KEEP_ME", "yes"},
    {"OMPI_MCA_btl", "self,vader"},
};

START_TEST(ompi_environment)
{
    char **env = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&env, "KEEP_ME=yes"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&env, "OMPI_MCA_btl=self,vader"));
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&proc3, &env));
    const char *got = wu_getenv(ompi_vars[_i].name, env);
    ck_assert_msg(NULL != got && 0 == strcmp(got, ompi_vars[_i].want), "%s: got '%s', want '%s'",
                  ompi_vars[_i].name, NULL != got ? got : "(unset)", ompi_vars[_i].want);
    wu_argv_free(env);
}
END_TEST

/* An enclosing mpirun's ORTE variables would make Open MPI look for ORTE daemons. */
static const char *const orte_vars[] = {"OMPI_MCA_orte_launch=1",
                                        "OMPI_MCA_orte_hnp_uri=123.0;tcp://10.0.0.1:1",
                                        "OMPI_MCA_orte_local_daemon_uri=123.1;tcp://10.0.0.1:2",
                                        "OMPI_MCA_ess=^singleton",
                                        "OMPI_MCA_ess_base_jobid=123",
                                        "OMPI_MCA_ess_base_vpid=0"};

START_TEST(removes_orte_variables)
{
    char **env = NULL;
    char *name = strndup(orte_vars[_i], (size_t)(strchr(orte_vars[_i], '=') - orte_vars[_i]));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&env, orte_vars[_i]));
    ck_assert_ptr_nonnull(wu_getenv(name, env));
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&proc3, &env));
    ck_assert_msg(NULL == wu_getenv(name, env), "%s was left in the environment", name);
    free(name);
    wu_argv_free(env);
}
END_TEST

/* OMPI_ARGV repeats the arguments: it is there up to what one environment string may hold
 * (32 pages) and an eighth of ARG_MAX, and left out beyond, where it would make the exec fail. */
START_TEST(large_argv)
{
    wu_pmdl_proc_t p = proc3;
    char *args[5] = {"./prog", NULL, NULL, NULL, NULL};
    char **env = NULL;
    size_t fits = 131072 - sizeof "OMPI_ARGV=";
    char *a = malloc(fits + 1), *b = malloc(60001);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    memset(a, 'a', fits);
    a[fits] = '\0';
    memset(b, 'b', 60000);
    b[60000] = '\0';
    p.argv = args;
    args[1] = a; /* exactly the longest string there may be */
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_ptr_nonnull(wu_getenv("OMPI_ARGV", env));
    ck_assert_uint_eq(fits, strlen(wu_getenv("OMPI_ARGV", env)));
    wu_argv_free(env);
    env = NULL;
    a[fits - 1] = '\0';
    args[2] = "x"; /* one byte more than fits */
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_ptr_null(wu_getenv("OMPI_ARGV", env));
    ck_assert_str_eq("./prog", wu_getenv("OMPI_COMMAND", env));
    wu_argv_free(env);
    env = NULL;
    args[1] = b; /* three of 60,000: 180,002 characters */
    args[2] = b;
    args[3] = b;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_ptr_null(wu_getenv("OMPI_ARGV", env));
    wu_argv_free(env);
    free(a);
    free(b);
}
END_TEST

START_TEST(no_argv_no_command)
{
    wu_pmdl_proc_t p = proc3;
    char *one[] = {"./hello", NULL};
    char **env = NULL;
    p.argv = one;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_str_eq("./hello", wu_getenv("OMPI_COMMAND", env));
    ck_assert_ptr_null(wu_getenv("OMPI_ARGV", env));
    wu_argv_free(env);
}
END_TEST

START_TEST(oversubscribed_yields)
{
    wu_pmdl_proc_t p = proc3;
    char **env = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_ptr_null(wu_getenv("OMPI_MCA_mpi_yield_when_idle", env));
    p.oversubscribed = true;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_str_eq("1", wu_getenv("OMPI_MCA_mpi_yield_when_idle", env));
    /* the user's own choice stays */
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("OMPI_MCA_mpi_yield_when_idle", "0", true, &env));
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_str_eq("0", wu_getenv("OMPI_MCA_mpi_yield_when_idle", env));
    wu_argv_free(env);
}
END_TEST

START_TEST(bound_is_told)
{
    wu_pmdl_proc_t p = proc3;
    char **env = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_ptr_null(wu_getenv("OMPI_MCA_orte_externally_bound", env));
    p.bound = true;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_str_eq("1", wu_getenv("OMPI_MCA_orte_externally_bound", env));
    wu_argv_free(env);
}
END_TEST

START_TEST(excluded_gives_nothing)
{
    char **env = NULL;
    teardown();
    open_fw("^ompi,mpich");
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&proc3, &env));
    ck_assert_ptr_null(env);
    ck_assert_ptr_null(wu_pmdl_base_mca_prefix("btl"));
}
END_TEST

START_TEST(direct_launch_param_off)
{
    char **env = NULL;
    teardown();
    setenv("PMIX_MCA_pmdl_ompi_direct_launch", "0", 1);
    open_fw(NULL);
    unsetenv("PMIX_MCA_pmdl_ompi_direct_launch");
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&proc3, &env));
    ck_assert_ptr_null(wu_getenv("OMPI_MCA_schizo", env));
    ck_assert_str_eq("3", wu_getenv("OMPI_COMM_WORLD_RANK", env));
    wu_argv_free(env);
}
END_TEST

/* mpich: with a PMI connection, Hydra's variables; without, none (and an enclosing launcher's
 * are removed either way) */
START_TEST(mpich_environment)
{
    wu_pmdl_proc_t p = proc3;
    char **env = NULL;
    ck_assert(wu_pmdl_base_wants_pmi(&p));
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("PMI_PORT", "host:1", true, &env));
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("PMI_SPAWNED", "1", true, &env));
    p.pmi_fd = 9;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_str_eq("9", wu_getenv("PMI_FD", env));
    ck_assert_str_eq("3", wu_getenv("PMI_RANK", env));
    ck_assert_str_eq("4", wu_getenv("PMI_SIZE", env));
    ck_assert_str_eq("1", wu_getenv("MPI_LOCALRANKID", env));
    ck_assert_str_eq("2", wu_getenv("MPI_LOCALNRANKS", env));
    ck_assert_ptr_null(wu_getenv("PMI_PORT", env));
    ck_assert_ptr_null(wu_getenv("PMI_SPAWNED", env));
    p.spawned = true;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_str_eq("1", wu_getenv("PMI_SPAWNED", env));
    p.pmi_fd = -1;
    ck_assert_int_eq(WU_SUCCESS, wu_pmdl_base_setup_env(&p, &env));
    ck_assert_ptr_null(wu_getenv("PMI_FD", env));
    ck_assert_ptr_null(wu_getenv("PMI_RANK", env));
    wu_argv_free(env);
}
END_TEST

START_TEST(mpich_serve_off)
{
    teardown();
    setenv("PMIX_MCA_pmdl_mpich_serve", "0", 1);
    open_fw(NULL);
    unsetenv("PMIX_MCA_pmdl_mpich_serve");
    ck_assert(!wu_pmdl_base_wants_pmi(&proc3));
    teardown();
    open_fw("^mpich");
    ck_assert(!wu_pmdl_base_wants_pmi(&proc3));
}
END_TEST

static const struct {
    const char *name, *prefix;
} routes[] = {
    {"btl", "OMPI_MCA_"},
    {"btl_tcp_if_include", "OMPI_MCA_"},
    {"pml", "OMPI_MCA_"},
    {"mpi_show_mca_params", "OMPI_MCA_"},
    {"pmix_base_async_modex", "OMPI_MCA_"},
    {"coll_tuned_use_dynamic_rules", "OMPI_MCA_"},
    {"btlx", NULL},
    {"ptl_base_verbose", NULL},
    {"gds", NULL},
    {"pls_fork_term_grace", NULL},
    {"", NULL},
};

START_TEST(mca_routing)
{
    const char *got = wu_pmdl_base_mca_prefix(routes[_i].name);
    if (NULL == routes[_i].prefix) {
        ck_assert_msg(NULL == got, "'%s' routed to %s", routes[_i].name, got);
    } else {
        ck_assert_msg(NULL != got && 0 == strcmp(got, routes[_i].prefix), "'%s' routed to %s",
                      routes[_i].name, NULL != got ? got : "(nothing)");
    }
}
END_TEST

START_TEST(bad_params)
{
    char **env = NULL;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pmdl_base_setup_env(NULL, &env));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pmdl_base_setup_env(&proc3, NULL));
    ck_assert_ptr_null(wu_pmdl_base_mca_prefix(NULL));
}
END_TEST

static Suite *pmdl_suite(void)
{
    Suite *s = suite_create("pmdl");
    TCase *tc = tcase_create("ompi");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, ompi_environment, 0, WU_NELEMS(ompi_vars));
    tcase_add_loop_test(tc, removes_orte_variables, 0, WU_NELEMS(orte_vars));
    tcase_add_test(tc, no_argv_no_command);
    tcase_add_test(tc, large_argv);
    tcase_add_test(tc, oversubscribed_yields);
    tcase_add_test(tc, bound_is_told);
    tcase_add_test(tc, excluded_gives_nothing);
    tcase_add_test(tc, direct_launch_param_off);
    tcase_add_test(tc, mpich_environment);
    tcase_add_test(tc, mpich_serve_off);
    tcase_add_loop_test(tc, mca_routing, 0, WU_NELEMS(routes));
    tcase_add_test(tc, bad_params);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmdl_suite)
