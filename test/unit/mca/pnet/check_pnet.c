/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pnet.c -- the pnet framework: selection, what none and tcp add to a job (interfaces,
 * key, per-job port ranges out of a pool, exhaustion), the node side (setup_local checks what it
 * is given, setup_fork hands it to the processes) and forgetting a job. */
#include "mca/pnet/pnet.h"
#include "opal/util/wu_argv.h"
#include "test/support/wu_test.h"

#include <stdlib.h>
#include <string.h>

static void setup(void)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    unsetenv("PMIX_MCA_pnet");
    unsetenv("PMIX_MCA_pnet_tcp_ports");
    unsetenv("PMIX_MCA_pnet_tcp_ports_per_job");
    unsetenv("PMIX_MCA_pnet_tcp_include_loopback");
}

static void open_pnet(const char *selection)
{
    if (NULL != selection) {
        setenv("PMIX_MCA_pnet", selection, 1);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_open());
}

static void close_pnet(void)
{
    wu_pnet_base_close();
    wu_mca_base_close();
}

/* the string value of key in info, NULL if absent */
static const char *find(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (0 == strcmp(info[i].key, key)) {
            ck_assert_int_eq(PMIX_STRING, info[i].value.type);
            return info[i].value.data.string;
        }
    }
    return NULL;
}

/* setup_app for nspace; *info must be freed with PMIX_INFO_FREE */
static int app(const char *nspace, pmix_info_t **info, size_t *n)
{
    return wu_pnet_base_setup_app(nspace, NULL, 0, info, n);
}

/* the ports setup_app gives nspace ("lo-hi" copied to buf; "" when none) */
static void ports_of(const char *nspace, char *buf, size_t len)
{
    pmix_info_t *info = NULL;
    size_t n = 0;
    const char *p;
    ck_assert_int_eq(WU_SUCCESS, app(nspace, &info, &n));
    p = find(info, n, WU_PNET_TCP_PORTS);
    snprintf(buf, len, "%s", NULL != p ? p : "");
    PMIX_INFO_FREE(info, n);
}

START_TEST(default_selects_tcp_then_none)
{
    open_pnet(NULL);
    ck_assert_uint_eq(2, wu_mca_pnet_framework.nactive);
    ck_assert_str_eq("tcp", wu_mca_pnet_framework.active[0]->component->name);
    ck_assert_str_eq("none", wu_mca_pnet_framework.active[1]->component->name);
    close_pnet();
}
END_TEST

START_TEST(none_adds_nothing)
{
    pmix_info_t *info = (pmix_info_t *)1;
    size_t n = 7;
    char **env = NULL;
    pmix_info_t given;
    open_pnet("none");
    ck_assert_uint_eq(1, wu_mca_pnet_framework.nactive);
    ck_assert_int_eq(WU_SUCCESS, app("job-none", &info, &n));
    ck_assert_ptr_null(info);
    ck_assert_uint_eq(0, n);
    /* tcp's data handed to a node running only none: nobody looks at it */
    PMIX_INFO_CONSTRUCT(&given);
    PMIx_Info_load(&given, WU_PNET_TCP_KEY, "not a key", PMIX_STRING);
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_local("job-none", &given, 1));
    PMIX_INFO_DESTRUCT(&given);
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-none", &env));
    ck_assert_ptr_null(env);
    close_pnet();
}
END_TEST

START_TEST(tcp_lists_interfaces_and_a_key)
{
    pmix_info_t *info = NULL, *again = NULL;
    size_t n = 0, n2 = 0;
    const char *ifaces, *key;
    char **items;
    open_pnet("tcp");
    ck_assert_int_eq(WU_SUCCESS, app("job-a", &info, &n));
    ck_assert_uint_eq(2, n); /* no pool: no ports */
    ifaces = find(info, n, WU_PNET_TCP_IFACES);
    key = find(info, n, WU_PNET_TCP_KEY);
    ck_assert_ptr_nonnull(ifaces);
    ck_assert_ptr_nonnull(key);
    ck_assert_ptr_null(find(info, n, WU_PNET_TCP_PORTS));
    /* every machine has at least loopback up, and it is listed when nothing else is */
    items = wu_argv_split(ifaces, ',');
    ck_assert_ptr_nonnull(items);
    for (int i = 0; NULL != items[i]; i++) {
        char *eq = strchr(items[i], '='), *slash = strrchr(items[i], '/');
        ck_assert_msg(NULL != eq && eq != items[i] && NULL != slash && slash > eq, "bad item %s",
                      items[i]);
    }
    wu_argv_free(items);
    ck_assert_uint_eq(32, strlen(key));
    ck_assert_uint_eq(32, strspn(key, "0123456789abcdef"));
    /* the same job asked again keeps its key; another job gets another */
    ck_assert_int_eq(WU_SUCCESS, app("job-a", &again, &n2));
    ck_assert_str_eq(key, find(again, n2, WU_PNET_TCP_KEY));
    PMIX_INFO_FREE(again, n2);
    ck_assert_int_eq(WU_SUCCESS, app("job-b", &again, &n2));
    ck_assert_str_ne(key, find(again, n2, WU_PNET_TCP_KEY));
    PMIX_INFO_FREE(again, n2);
    PMIX_INFO_FREE(info, n);
    close_pnet();
}
END_TEST

START_TEST(tcp_loopback_on_request)
{
    pmix_info_t *info = NULL;
    size_t n = 0;
    setenv("PMIX_MCA_pnet_tcp_include_loopback", "1", 1);
    open_pnet("tcp");
    ck_assert_int_eq(WU_SUCCESS, app("job-lo", &info, &n));
    ck_assert_ptr_nonnull(strstr(find(info, n, WU_PNET_TCP_IFACES), "=127.0.0.1/8"));
    PMIX_INFO_FREE(info, n);
    close_pnet();
}
END_TEST

START_TEST(tcp_port_ranges_do_not_overlap)
{
    char a[32], b[32], c[32];
    setenv("PMIX_MCA_pnet_tcp_ports", "40000-40031", 1);
    setenv("PMIX_MCA_pnet_tcp_ports_per_job", "8", 1);
    open_pnet("tcp");
    ports_of("job-a", a, sizeof a);
    ports_of("job-b", b, sizeof b);
    ck_assert_str_eq("40000-40007", a);
    ck_assert_str_eq("40008-40015", b);
    ports_of("job-a", c, sizeof c); /* asked again: the same range, not a new one */
    ck_assert_str_eq(a, c);
    /* a forgotten job's range is given to the next */
    wu_pnet_base_forget("job-a");
    ports_of("job-c", c, sizeof c);
    ck_assert_str_eq("40000-40007", c);
    ports_of("job-d", c, sizeof c);
    ck_assert_str_eq("40016-40023", c);
    close_pnet();
}
END_TEST

START_TEST(tcp_pool_exhausted)
{
    pmix_info_t *info = (pmix_info_t *)1;
    size_t n = 5;
    char a[32];
    const char *msg;
    setenv("PMIX_MCA_pnet_tcp_ports", "40000-40017", 1); /* two ranges of 8, 2 ports unused */
    setenv("PMIX_MCA_pnet_tcp_ports_per_job", "8", 1);
    open_pnet("tcp");
    ports_of("job-a", a, sizeof a);
    ports_of("job-b", a, sizeof a);
    ck_assert_str_eq("40008-40015", a);
    wu_test_help_capture();
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, app("job-c", &info, &n));
    msg = wu_test_help_captured();
    ck_assert_ptr_null(info);
    ck_assert_uint_eq(0, n);
    ck_assert_msg(NULL != strstr(msg, "Job job-c cannot be given ports") &&
                      NULL != strstr(msg, "held by one of the 2 jobs") &&
                      NULL != strstr(msg, "PMIX_MCA_pnet_tcp_ports"),
                  "message: %s", msg);
    /* the failed job holds nothing: once a job ends it gets the freed range */
    wu_pnet_base_forget("job-b");
    ports_of("job-c", a, sizeof a);
    ck_assert_str_eq("40008-40015", a);
    close_pnet();
}
END_TEST

static const struct {
    const char *pool, *per_job, *says;
} bad_pools[] = {
    {"abc", "8", "is not a range"},
    {"40010-40000", "8", "is not a range"},
    {"0-10", "8", "is not a range"},
    {"1-70000", "8", "is not a range"},
    {"-5-10", "8", "is not a range"},
    {"40000-40003", "8", "holds fewer ports"},
    {"40000-40100", "0", "holds fewer ports"},
};

START_TEST(tcp_bad_pool)
{
    pmix_info_t *info = NULL;
    size_t n = 0;
    const char *msg;
    setenv("PMIX_MCA_pnet_tcp_ports", bad_pools[_i].pool, 1);
    setenv("PMIX_MCA_pnet_tcp_ports_per_job", bad_pools[_i].per_job, 1);
    open_pnet("tcp");
    wu_test_help_capture();
    ck_assert_int_eq(WU_ERR_BAD_PARAM, app("job-a", &info, &n));
    msg = wu_test_help_captured();
    ck_assert_msg(NULL != strstr(msg, bad_pools[_i].says), "pool %s: %s", bad_pools[_i].pool, msg);
    ck_assert_ptr_null(info);
    close_pnet();
}
END_TEST

START_TEST(tcp_local_and_fork)
{
    pmix_info_t *info = NULL;
    size_t n = 0;
    char **env = NULL;
    setenv("PMIX_MCA_pnet_tcp_ports", "40000-40099", 1);
    open_pnet(NULL); /* tcp and none */
    ck_assert_int_eq(WU_SUCCESS, app("job-a", &info, &n));
    ck_assert_uint_eq(3, n);
    /* nothing for the processes before setup_local */
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-a", &env));
    ck_assert_ptr_null(env);
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_local("job-a", info, n));
    wu_setenv("KEEP", "me", true, &env);
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-a", &env));
    ck_assert_int_eq(4, wu_argv_count(env));
    ck_assert_str_eq("me", wu_getenv("KEEP", env));
    ck_assert_str_eq(find(info, n, WU_PNET_TCP_IFACES), wu_getenv(WU_PNET_TCP_IFACES_ENV, env));
    ck_assert_str_eq(find(info, n, WU_PNET_TCP_KEY), wu_getenv(WU_PNET_TCP_KEY_ENV, env));
    ck_assert_str_eq("40000-40015", wu_getenv(WU_PNET_TCP_PORTS_ENV, env));
    wu_argv_free(env);
    env = NULL;
    /* another job's processes get nothing of it; a forgotten job's neither */
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-b", &env));
    ck_assert_ptr_null(env);
    wu_pnet_base_forget("job-a");
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-a", &env));
    ck_assert_ptr_null(env);
    /* infos without tcp's keys: nothing to do */
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_local("job-c", NULL, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-c", &env));
    ck_assert_ptr_null(env);
    PMIX_INFO_FREE(info, n);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pnet_base_setup_local(NULL, NULL, 0));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pnet_base_setup_local("job-c", NULL, 2));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pnet_base_setup_app("job-c", NULL, 0, NULL, &n));
    close_pnet();
}
END_TEST

static const struct {
    const char *key, *value;
} bad_local[] = {
    {WU_PNET_TCP_KEY, "0123"},
    {WU_PNET_TCP_KEY, "0123456789abcdef0123456789abcdeX"},
    {WU_PNET_TCP_PORTS, "5-2"},
    {WU_PNET_TCP_PORTS, "5"},
    {WU_PNET_TCP_IFACES, "eth0"},
    {WU_PNET_TCP_IFACES, "=10.0.0.1/8"},
    {WU_PNET_TCP_IFACES, "eth0=300.1.1.1/24"},
    {WU_PNET_TCP_IFACES, "eth0=10.0.0.1/33"},
    {WU_PNET_TCP_IFACES, "eth0=10.0.0.1/24,eth1=fe80::1/129"},
    {WU_PNET_TCP_IFACES, "eth0=10.0.0.1/"},
    {WU_PNET_TCP_IFACES, NULL}, /* not a string */
};

START_TEST(tcp_local_rejects_malformed)
{
    pmix_info_t given;
    char **env = NULL;
    const char *msg;
    uint32_t num = 7;
    open_pnet("tcp");
    PMIX_INFO_CONSTRUCT(&given);
    if (NULL != bad_local[_i].value) {
        PMIx_Info_load(&given, bad_local[_i].key, bad_local[_i].value, PMIX_STRING);
    } else {
        PMIx_Info_load(&given, bad_local[_i].key, &num, PMIX_UINT32);
    }
    wu_test_help_capture();
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pnet_base_setup_local("job-x", &given, 1));
    msg = wu_test_help_captured();
    ck_assert_msg(NULL != strstr(msg, "job-x is malformed") &&
                      NULL != strstr(msg, bad_local[_i].key),
                  "message: %s", msg);
    PMIX_INFO_DESTRUCT(&given);
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-x", &env));
    ck_assert_ptr_null(env);
    close_pnet();
}
END_TEST

START_TEST(tcp_local_accepts_good)
{
    pmix_info_t given[3];
    char **env = NULL;
    open_pnet("tcp");
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_CONSTRUCT(&given[i]);
    }
    PMIx_Info_load(&given[0], WU_PNET_TCP_IFACES, "eth0=10.1.2.3/16,eth0=fd00::2/64,ib0=::1/128",
                   PMIX_STRING);
    PMIx_Info_load(&given[1], WU_PNET_TCP_PORTS, "1-65535", PMIX_STRING);
    PMIx_Info_load(&given[2], "other.key", "ignored", PMIX_STRING);
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_local("job-y", given, 3));
    ck_assert_int_eq(WU_SUCCESS, wu_pnet_base_setup_fork("job-y", &env));
    ck_assert_int_eq(2, wu_argv_count(env));
    ck_assert_str_eq("1-65535", wu_getenv(WU_PNET_TCP_PORTS_ENV, env));
    ck_assert_ptr_null(wu_getenv(WU_PNET_TCP_KEY_ENV, env));
    wu_argv_free(env);
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&given[i]);
    }
    close_pnet();
}
END_TEST

static Suite *pnet_suite(void)
{
    Suite *s = suite_create("pnet");
    TCase *tc = tcase_create("pnet");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, default_selects_tcp_then_none);
    tcase_add_test(tc, none_adds_nothing);
    tcase_add_test(tc, tcp_lists_interfaces_and_a_key);
    tcase_add_test(tc, tcp_loopback_on_request);
    tcase_add_test(tc, tcp_port_ranges_do_not_overlap);
    tcase_add_test(tc, tcp_pool_exhausted);
    tcase_add_loop_test(tc, tcp_bad_pool, 0, sizeof bad_pools / sizeof bad_pools[0]);
    tcase_add_test(tc, tcp_local_and_fork);
    tcase_add_loop_test(tc, tcp_local_rejects_malformed, 0, sizeof bad_local / sizeof bad_local[0]);
    tcase_add_test(tc, tcp_local_accepts_good);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pnet_suite)
