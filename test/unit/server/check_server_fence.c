/* SPDX-License-Identifier: BSD-3-Clause */
/* check_server_fence.c -- fences and data through the server: a participant dying mid-fence,
 * fence timeouts, a GET waiting for a commit, procs on other nodes (fence_nb, direct modex,
 * PMIx_server_dmodex_request), and finalize while the host still holds an operation. */
#include "opal/util/wu_time.h"
#include "test/unit/server/srv_test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_fence_peer_dies)
{
    cli_t a, b;
    uint32_t tag;
    register_job(2, 2, getuid());
    cli_open(&a);
    cli_open(&b);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&b, 1, NULL));
    tag = cli_fence_send(&a, true, 0);
    usleep(50000);
    cli_close(&b); /* rank 1 disconnects without finalizing */
    ck_assert_int_eq(WU_PROTO_ERR_TERMINATED, cli_reply(&a, tag, NULL));
    /* a GET of the dead proc's data fails the same way */
    ck_assert_int_eq(WU_PROTO_ERR_TERMINATED,
                     cli_reply(&a, cli_get_send(&a, 1, "never", false), NULL));
    cli_close(&a);
}
END_TEST

START_TEST(test_fence_timeout)
{
    cli_t a;
    register_job(2, 2, getuid());
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_TIMEOUT, cli_reply(&a, cli_fence_send(&a, false, 1), NULL));
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), NS ":1"));
    cli_close(&a);
}
END_TEST

/* A GET of a local peer's key waits for its commit. */
START_TEST(test_get_waits_for_commit)
{
    cli_t a, b;
    uint32_t tag, v = 0;
    register_job(2, 2, getuid());
    cli_open(&a);
    cli_open(&b);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&b, 1, NULL));
    tag = cli_get_send(&a, 1, "late", false);
    usleep(50000);
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&b, "late", 99, "rk", 1));
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&a, tag, &v));
    ck_assert_uint_eq(99, v);
    cli_close(&a);
    cli_close(&b);
}
END_TEST

/* Remote procs: fence_nb brings their data; a GET of an unknown key goes to direct_modex. */
static void dmx_done(pmix_status_t status, char *data, size_t sz, void *cbdata)
{
    wu_buffer_t b;
    pmix_proc_t p;
    pmix_info_t *info;
    size_t n;
    wu_buffer_construct(&b);
    wu_buffer_put(&b, data, sz);
    ck_assert_int_eq(PMIX_SUCCESS, status);
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_blob_next(&b, &p, &info, &n));
    ck_assert_uint_eq(1, n);
    ck_assert(PMIX_CHECK_KEY(&info[0], "rk"));
    PMIX_INFO_FREE(info, n);
    wu_buffer_destruct(&b);
    wu_wait_release(cbdata, PMIX_SUCCESS);
}

START_TEST(test_remote_procs)
{
    cli_t a;
    uint32_t v = 0;
    wu_buffer_t r;
    pmix_proc_t me;
    wu_wait_t w;
    register_job(2, 1, getuid()); /* rank 1 lives on another node */
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    /* direct modex: nothing known about rank 1 yet */
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&a, cli_get_send(&a, 1, "rk", false), &v));
    ck_assert_uint_eq(4242, v);
    ck_assert_int_eq(1, n_dmodex);
    /* a fence over both goes to the host */
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&a, "lk", 5, "rk", 6));
    ck_assert_int_eq(PMIX_SUCCESS, cli_reply(&a, cli_fence_send(&a, true, 0), &r));
    ck_assert_int_eq(1, n_fence_nb);
    wu_buffer_destruct(&r);
    /* the host asks for our client's data for another node */
    PMIX_LOAD_PROCID(&me, NS, 0);
    wu_wait_init(&w);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_dmodex_request(&me, dmx_done, &w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    cli_close(&a);
}
END_TEST

/* A key the data of a proc of another node came without may be put later: the server asks the
 * host again (naming the key in PMIX_REQUIRED_KEY) until it comes, or, for a key that never
 * comes, answers PMIX_ERR_NOT_FOUND after the grace of 2 s. */
START_TEST(test_remote_late_key)
{
    cli_t a;
    uint32_t v = 0;
    double t0;
    register_job(2, 1, getuid()); /* rank 1 lives on another node */
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    host_late_from = 3;
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&a, cli_get_send(&a, 1, "late", false), &v));
    ck_assert_uint_eq(77, v);
    ck_assert_int_eq(3, n_dmodex);
    ck_assert_str_eq("late", host_required_key);
    /* what came stays: no host call for a key that arrived */
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&a, cli_get_send(&a, 1, "rk", false), &v));
    ck_assert_uint_eq(4242, v);
    ck_assert_int_eq(3, n_dmodex);
    /* a key never put */
    t0 = wu_time_now();
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, cli_get_u32(&a, cli_get_send(&a, 1, "never", false), &v));
    ck_assert(wu_time_now() - t0 >= 1.5);
    ck_assert(n_dmodex > 4);
    ck_assert_str_eq("never", host_required_key);
    /* PMIX_OPTIONAL: not asked again */
    int before = n_dmodex;
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, cli_get_u32(&a, cli_get_send(&a, 1, "never", true), &v));
    ck_assert_int_eq(before, n_dmodex);
    cli_close(&a);
}
END_TEST

/* issue 15: a host that answers the fence inside its fence_nb upcall and the direct modex from
 * its own thread, each holding a lock its release function takes again (Slurm 22.05's
 * mpi/pmix): the server calls the release functions later, from its own thread, so nothing
 * deadlocks and every release is called once. */
START_TEST(issue_15_release_outside_host_call)
{
    cli_t a;
    uint32_t v = 0;
    wu_buffer_t r;
    host_inline = true;
    register_job(2, 1, getuid());
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&a, cli_get_send(&a, 1, "rk", false), &v));
    ck_assert_uint_eq(4242, v);
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&a, "lk", 5, "rk", 6));
    ck_assert_int_eq(PMIX_SUCCESS, cli_reply(&a, cli_fence_send(&a, true, 0), &r));
    wu_buffer_destruct(&r);
    for (int i = 0; i < 1000 && n_released < 2; i++) {
        usleep(10000);
    }
    ck_assert_int_eq(2, n_released);
    ck_assert_int_eq(0, n_release_deadlock);
    ck_assert_int_eq(0, n_bad_object); /* client_connected got no callback to call */
    cli_close(&a);
}
END_TEST

/* Wait (10 s at most) until the host holds a fence (host_hold_fence). */
static void wait_held_fence(void)
{
    for (int i = 0; i < 1000 && NULL == held_fence_cb; i++) {
        usleep(10000);
    }
    ck_assert_ptr_nonnull(held_fence_cb);
}

/* Finalize while the host holds a fence: no hang, and the host's late answer is harmless. */
START_TEST(test_finalize_host_pending)
{
    cli_t a;
    char *data;
    size_t ndata;
    uint32_t tag;
    register_job(2, 1, getuid()); /* rank 1 elsewhere: the fence goes to the host */
    host_hold_fence = true;
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    tag = cli_fence_send(&a, true, 0);
    wait_held_fence();
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    /* the client's fence failed or its connection closed: either way it is not left hanging */
    ck_assert_int_ne(PMIX_SUCCESS, cli_reply(&a, tag, NULL));
    cli_close(&a);
    remote_blob(&data, &ndata);
    held_fence_cb(PMIX_SUCCESS, data, ndata, held_fence_cbdata, free, data);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, NULL, 0)); /* for the teardown */
}
END_TEST

/* A fence with PMIX_TIMEOUT that the host holds: the host, which got the timeout too, has the
 * first word for a while after it runs out; a host that stays silent still cannot hang it. */
START_TEST(test_fence_timeout_at_host)
{
    cli_t a;
    char *data;
    size_t ndata;
    uint32_t tag;
    register_job(2, 1, getuid()); /* rank 1 elsewhere: the fence goes to the host */
    host_hold_fence = true;
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    wu_test_help_capture();
    /* the host answers half a second after the 1 s timeout: its answer is the one given */
    tag = cli_fence_send(&a, true, 1);
    wait_held_fence();
    usleep(1500000);
    held_fence_cb(WU_PROTO_ERR_TERMINATED, NULL, 0, held_fence_cbdata, NULL, NULL);
    held_fence_cb = NULL;
    ck_assert_int_eq(WU_PROTO_ERR_TERMINATED, cli_reply(&a, tag, NULL));
    /* a host that never answers: the fence times out all the same, and its late answer is
     * harmless */
    tag = cli_fence_send(&a, true, 1);
    wait_held_fence();
    ck_assert_int_eq(PMIX_ERR_TIMEOUT, cli_reply(&a, tag, NULL));
    remote_blob(&data, &ndata);
    held_fence_cb(PMIX_SUCCESS, data, ndata, held_fence_cbdata, free, data);
    cli_close(&a);
}
END_TEST

static Suite *fence_suite(void)
{
    Suite *s = suite_create("server_fence");
    TCase *tc = tcase_create("fence");
    tcase_add_checked_fixture(tc, srv_setup, srv_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fence_peer_dies);
    tcase_add_test(tc, test_fence_timeout);
    tcase_add_test(tc, test_fence_timeout_at_host);
    tcase_add_test(tc, test_get_waits_for_commit);
    tcase_add_test(tc, test_remote_procs);
    tcase_add_test(tc, test_remote_late_key);
    tcase_add_test(tc, issue_15_release_outside_host_call);
    tcase_add_test(tc, test_finalize_host_pending);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(fence_suite)
