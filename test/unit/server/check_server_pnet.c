/* SPDX-License-Identifier: BSD-3-Clause */
/* check_server_pnet.c -- PMIx_server_setup_application and PMIx_server_setup_local_support
 * through the real server API: their callbacks come from the server's thread after the call
 * returned, with what pnet made (tcp: interfaces and key, ports from a pool released when the job
 * is deregistered); setup_fork then gives it to the job's processes; bad arguments are refused. */
#include "test/unit/server/srv_test.h"
#include "mca/pnet/pnet.h"
#include "opal/util/wu_argv.h"

#include <stdlib.h>
#include <string.h>

/* What one callback saw. */
typedef struct {
    wu_wait_t w;
    pthread_mutex_t lock; /* held by the caller while it is inside the API call */
    pthread_t thread;
    pmix_status_t status;
    pmix_info_t *info; /* copy of what setup_application gave */
    size_t ninfo;
    bool had_release;
} seen_t;

static void seen_init(seen_t *s)
{
    memset(s, 0, sizeof *s);
    wu_wait_init(&s->w);
    pthread_mutex_init(&s->lock, NULL);
}

static void seen_fini(seen_t *s)
{
    if (NULL != s->info) {
        PMIX_INFO_FREE(s->info, s->ninfo);
    }
    wu_wait_destroy(&s->w);
    pthread_mutex_destroy(&s->lock);
}

static void note_call(seen_t *s, pmix_status_t status)
{
    pthread_mutex_lock(&s->lock); /* waits for the caller to leave the API call */
    s->thread = pthread_self();
    s->status = status;
    pthread_mutex_unlock(&s->lock);
}

static void app_cb(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *provided_cbdata,
                   pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    seen_t *s = provided_cbdata;
    note_call(s, status);
    if (ninfo > 0) {
        PMIX_INFO_CREATE(s->info, ninfo);
        s->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_xfer(&s->info[i], &info[i]));
        }
    }
    s->had_release = NULL != cbfunc;
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    wu_wait_release(&s->w, WU_SUCCESS);
}

static void local_cb(pmix_status_t status, void *cbdata)
{
    seen_t *s = cbdata;
    note_call(s, status);
    wu_wait_release(&s->w, WU_SUCCESS);
}

/* setup_application for ns; returns the callback's status (the call itself must succeed) */
static pmix_status_t setup_app(const char *ns, seen_t *s)
{
    pmix_nspace_t n;
    pmix_info_t in;
    uint32_t size = 2;
    PMIX_LOAD_NSPACE(n, ns);
    PMIX_INFO_CONSTRUCT(&in);
    PMIx_Info_load(&in, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    seen_init(s);
    pthread_mutex_lock(&s->lock);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_application(n, &in, 1, app_cb, s));
    PMIX_INFO_DESTRUCT(&in); /* the server copied it */
    pthread_mutex_unlock(&s->lock);
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&s->w, TMO));
    ck_assert(!pthread_equal(pthread_self(), s->thread)); /* from the server's thread */
    return s->status;
}

static pmix_status_t setup_local(const char *ns, pmix_info_t *info, size_t ninfo)
{
    seen_t s;
    pmix_nspace_t n;
    pmix_status_t rc;
    PMIX_LOAD_NSPACE(n, ns);
    seen_init(&s);
    pthread_mutex_lock(&s.lock);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_local_support(n, info, ninfo, local_cb, &s));
    pthread_mutex_unlock(&s.lock);
    ck_assert_int_eq(WU_SUCCESS, wu_wait_for(&s.w, TMO));
    ck_assert(!pthread_equal(pthread_self(), s.thread));
    rc = s.status;
    seen_fini(&s);
    return rc;
}

static const char *find(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (0 == strcmp(info[i].key, key) && PMIX_STRING == info[i].value.type) {
            return info[i].value.data.string;
        }
    }
    return NULL;
}

static char **fork_env(const char *ns)
{
    char **env = NULL;
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, ns, 0);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    return env;
}

static void deregister(const char *ns)
{
    pmix_nspace_t n;
    wu_wait_t w;
    PMIX_LOAD_NSPACE(n, ns);
    wu_wait_init(&w);
    PMIx_server_deregister_nspace(n, op_done, &w);
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
}

/* the server with pnet selection sel and tcp's port pool (NULL: none) */
static void start(const char *sel, const char *pool)
{
    setenv("PMIX_MCA_pnet", sel, 1);
    if (NULL != pool) {
        setenv("PMIX_MCA_pnet_tcp_ports", pool, 1);
        setenv("PMIX_MCA_pnet_tcp_ports_per_job", "8", 1);
    } else {
        unsetenv("PMIX_MCA_pnet_tcp_ports");
    }
    srv_setup();
}

START_TEST(test_tcp_app_local_fork)
{
    seen_t s;
    char **env;
    const char *key;
    pmix_nspace_t n;
    start("tcp", "42000-42015");
    ck_assert_int_eq(PMIX_SUCCESS, setup_app(NS, &s));
    ck_assert(s.had_release);
    ck_assert_uint_eq(3, s.ninfo);
    ck_assert_ptr_nonnull(find(s.info, s.ninfo, WU_PNET_TCP_IFACES));
    ck_assert_str_eq("42000-42007", find(s.info, s.ninfo, WU_PNET_TCP_PORTS));
    key = find(s.info, s.ninfo, WU_PNET_TCP_KEY);
    ck_assert_ptr_nonnull(key);
    /* before local support the processes get nothing of it */
    env = fork_env(NS);
    ck_assert_ptr_null(wu_getenv(WU_PNET_TCP_KEY_ENV, env));
    wu_argv_free(env);
    ck_assert_int_eq(PMIX_SUCCESS, setup_local(NS, s.info, s.ninfo));
    env = fork_env(NS);
    ck_assert_str_eq(key, wu_getenv(WU_PNET_TCP_KEY_ENV, env));
    ck_assert_str_eq("42000-42007", wu_getenv(WU_PNET_TCP_PORTS_ENV, env));
    ck_assert_str_eq(find(s.info, s.ninfo, WU_PNET_TCP_IFACES),
                     wu_getenv(WU_PNET_TCP_IFACES_ENV, env));
    wu_argv_free(env);
    /* blocking form: done before it returns */
    PMIX_LOAD_NSPACE(n, NS);
    ck_assert_int_eq(PMIX_OPERATION_SUCCEEDED,
                     PMIx_server_setup_local_support(n, s.info, s.ninfo, NULL, NULL));
    /* deregistration forgets the job: no more variables */
    deregister(NS);
    env = fork_env(NS);
    ck_assert_ptr_null(wu_getenv(WU_PNET_TCP_KEY_ENV, env));
    wu_argv_free(env);
    seen_fini(&s);
}
END_TEST

START_TEST(test_tcp_ports_freed_by_deregistration)
{
    seen_t a, b, c;
    start("tcp", "42000-42009"); /* room for one job of 8 */
    ck_assert_int_eq(PMIX_SUCCESS, setup_app("job-a", &a));
    ck_assert_str_eq("42000-42007", find(a.info, a.ninfo, WU_PNET_TCP_PORTS));
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_OUT_OF_RESOURCE, setup_app("job-b", &b));
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), "Job job-b cannot be given ports"));
    ck_assert_uint_eq(0, b.ninfo);
    ck_assert(!b.had_release);
    deregister("job-a");
    ck_assert_int_eq(PMIX_SUCCESS, setup_app("job-b", &c));
    ck_assert_str_eq("42000-42007", find(c.info, c.ninfo, WU_PNET_TCP_PORTS));
    seen_fini(&a);
    seen_fini(&b);
    seen_fini(&c);
}
END_TEST

START_TEST(test_none_adds_nothing)
{
    seen_t s;
    char **env;
    start("none", NULL);
    ck_assert_int_eq(PMIX_SUCCESS, setup_app(NS, &s));
    ck_assert_uint_eq(0, s.ninfo);
    ck_assert_ptr_null(s.info);
    ck_assert_int_eq(PMIX_SUCCESS, setup_local(NS, NULL, 0));
    env = fork_env(NS);
    for (int i = 0; NULL != env[i]; i++) {
        ck_assert_msg(0 != strncmp(env[i], "WU_PNET_", 8), "%s set", env[i]);
    }
    wu_argv_free(env);
    seen_fini(&s);
}
END_TEST

START_TEST(test_bad_arguments)
{
    pmix_nspace_t empty = "", n;
    pmix_info_t bad;
    seen_t s;
    start("tcp", NULL);
    PMIX_LOAD_NSPACE(n, NS);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_application(NULL, NULL, 0, app_cb, &s));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_application(empty, NULL, 0, app_cb, &s));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_application(n, NULL, 0, NULL, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_application(n, NULL, 2, app_cb, &s));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                     PMIx_server_setup_local_support(NULL, NULL, 0, local_cb, &s));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_local_support(n, NULL, 1, NULL, NULL));
    /* malformed data: refused by the callback, or at once when blocking */
    PMIX_INFO_CONSTRUCT(&bad);
    PMIx_Info_load(&bad, WU_PNET_TCP_KEY, "short", PMIX_STRING);
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, setup_local(NS, &bad, 1));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_local_support(n, &bad, 1, NULL, NULL));
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), "is malformed"));
    PMIX_INFO_DESTRUCT(&bad);
    /* a server that is not running */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_server_setup_application(n, NULL, 0, app_cb, &s));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_server_setup_local_support(n, NULL, 0, local_cb, &s));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_server_setup_local_support(n, NULL, 0, NULL, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, NULL, 0)); /* teardown finalizes */
}
END_TEST

static void no_setup(void)
{
}

static Suite *server_pnet_suite(void)
{
    Suite *s = suite_create("server_pnet");
    TCase *tc = tcase_create("server_pnet");
    /* each test starts the server itself (after choosing pnet's parameters) */
    tcase_add_checked_fixture(tc, no_setup, srv_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_tcp_app_local_fork);
    tcase_add_test(tc, test_tcp_ports_freed_by_deregistration);
    tcase_add_test(tc, test_none_adds_nothing);
    tcase_add_test(tc, test_bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(server_pnet_suite)
