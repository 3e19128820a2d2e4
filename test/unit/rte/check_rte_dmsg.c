/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_dmsg.c -- the daemon messages' readers (wu_rte_dmsg.c) against what a broken or
 * hostile daemon could send: a LAUNCH, an EVENT, a HELLO, a FWD envelope, a FENCE_AGG, a
 * DMODEX_REP and a fence signature are first read back as written, then every truncation of
 * each and a few thousand random byte changes (a fixed seed) are read: a reader either fails
 * or returns something whole, and never reads past the message, crashes or leaks (the suite
 * runs under AddressSanitizer in CI). */
#include "opal/util/wu_argv.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/map/wu_rte_jobmap.h"
#include "pmix.h"

#include "test/support/wu_test.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Random byte changes tried per message. */
#define FLIPS 3000

static uint32_t seed = 12345;

static uint32_t next_rand(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
}

/* Read the message bytes p (n of them) with try, as received. */
static void read_as_received(const char *p, size_t n, void (*try)(wu_dmsg_t *m))
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    if (0 == n || PMIX_SUCCESS == PMIx_Data_embed(&m, &bo)) {
        try(&m);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}

/* Every truncation of the message, then FLIPS copies with 1 to 4 bytes changed. */
static void mutate(const wu_dmsg_t *good, void (*try)(wu_dmsg_t *m))
{
    size_t n = good->bytes_used;
    char *copy = malloc(n);
    ck_assert_ptr_nonnull(copy);
    for (size_t len = 0; len < n; len++) {
        memcpy(copy, good->base_ptr, len);
        read_as_received(copy, len, try);
    }
    for (int i = 0; i < FLIPS; i++) {
        memcpy(copy, good->base_ptr, n);
        for (uint32_t k = 0, nk = 1 + next_rand() % 4; k < nk; k++) {
            uint32_t r = next_rand();
            copy[r % n] = (char)(0 == (r & 0x300) ? 0xff : (r >> 8)); /* some lengths: huge */
        }
        read_as_received(copy, n, try);
    }
    free(copy);
}

/* ---- LAUNCH ---------------------------------------------------------------------------- */

static const wu_rte_jm_host_t hosts[] = {{"n0", 2}, {"n1", 2}};

static void make_job(wu_dmsg_t *m)
{
    static char *argv0[] = {"prog", "a b", NULL}, *argv1[] = {"other", NULL};
    static char *env[] = {"X=1", NULL};
    wu_rte_ctx_t ctx[] = {{.np = 2, .argv = argv0, .env_set = env}, {.np = 1, .argv = argv1}};
    wu_rte_spec_t app = {.ctx = ctx, .nctx = 2, .env_set = env, .merge_stderr = true};
    wu_rte_jm_opts_t o = {0};
    wu_rte_jobmap_t *map = NULL;
    pmix_proc_t parent;
    PMIX_LOAD_PROCID(&parent, "ns.0", 3);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_jobmap_build(hosts, 2, 3, &o, &map, NULL));
    PMIX_DATA_BUFFER_CONSTRUCT(m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_job(m, "ns.1", &app, "/tmp", map, 1, &parent));
    wu_rte_jobmap_free(map);
}

static int njob_ok;

static void try_job(wu_dmsg_t *m)
{
    char *nspace = NULL;
    wu_rte_spec_t *app = NULL;
    wu_rte_jobmap_t *map = NULL;
    uint32_t node = 0;
    pmix_proc_t parent;
    if (PMIX_SUCCESS == wu_dmsg_get_job(m, &nspace, &app, &map, &node, &parent)) {
        /* whatever is accepted is whole: the map covers the ranks, the node is in it */
        ck_assert_ptr_nonnull(nspace);
        ck_assert_uint_lt(node, map->nnodes);
        for (uint32_t r = 0; r < map->np; r++) {
            ck_assert_uint_lt(map->procs[r].node, map->nnodes);
        }
        for (uint32_t c = 0; c < app->nctx; c++) {
            ck_assert_ptr_nonnull(app->ctx[c].argv);
        }
        njob_ok++;
        free(nspace);
        wu_dmsg_free_app(app);
        wu_rte_jobmap_free(map);
    } else {
        ck_assert_ptr_null(nspace);
    }
}

START_TEST(launch)
{
    wu_dmsg_t m;
    char *nspace = NULL;
    wu_rte_spec_t *app = NULL;
    wu_rte_jobmap_t *map = NULL;
    uint32_t node = 0;
    pmix_proc_t parent;
    make_job(&m);
    /* read back as written */
    {
        wu_dmsg_t r;
        pmix_byte_object_t bo = {.bytes = m.base_ptr, .size = m.bytes_used};
        PMIX_DATA_BUFFER_CONSTRUCT(&r);
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&r, &bo));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_job(&r, &nspace, &app, &map, &node, &parent));
        PMIX_DATA_BUFFER_DESTRUCT(&r);
    }
    ck_assert_str_eq("ns.1", nspace);
    ck_assert_uint_eq(1, node);
    ck_assert_uint_eq(2, app->nctx);
    ck_assert_str_eq("a b", app->ctx[0].argv[1]);
    ck_assert_uint_eq(1, app->ctx[1].np);
    ck_assert(app->merge_stderr);
    ck_assert_uint_eq(3, map->np);
    ck_assert_uint_eq(2, map->nnodes);
    ck_assert_uint_eq(1, map->procs[2].node);
    ck_assert_str_eq("ns.0", parent.nspace);
    ck_assert_uint_eq(3, parent.rank);
    free(nspace);
    wu_dmsg_free_app(app);
    wu_rte_jobmap_free(map);
    njob_ok = 0;
    mutate(&m, try_job);
    ck_assert_int_gt(njob_ok, 0); /* some changes (in names, say) still make a job */
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}
END_TEST

/* ---- EVENT, HELLO, DMODEX_REP ------------------------------------------------------------ */

static void try_event(wu_dmsg_t *m)
{
    pmix_status_t st;
    pmix_proc_t src;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    if (PMIX_SUCCESS == wu_dmsg_get_event(m, &st, &src, &range, &info, &ninfo) && NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
}

static void try_hello(wu_dmsg_t *m)
{
    char *version, *token, *host;
    uint32_t node;
    int32_t pid;
    (void)wu_dmsg_get_hello(m, &version, &token, &node, &host, &pid);
    free(version);
    free(token);
    free(host);
}

static void try_rep(wu_dmsg_t *m)
{
    uint32_t origin;
    uint64_t id;
    int32_t st;
    char *data = NULL;
    size_t n = 0;
    (void)wu_dmsg_get_dmodex_rep(m, &origin, &id, &st, &data, &n);
    free(data);
}

START_TEST(small_messages)
{
    wu_dmsg_t m;
    pmix_proc_t src;
    pmix_info_t info[2];
    PMIX_LOAD_PROCID(&src, "ns.1", 3);
    PMIx_Info_load(&info[0], "key", "value", PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_EVENT_CUSTOM_RANGE, &src, PMIX_PROC);
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_event(&m, PMIX_ERR_PROC_ABORTED, &src,
                                                     PMIX_RANGE_NAMESPACE, info, 2));
    mutate(&m, try_event);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);

    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(&m, WU_DMSG_VERSION));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(&m, "00112233445566778899aabbccddeeff"));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(&m, 2));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(&m, "node3"));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_i32(&m, 4242));
    mutate(&m, try_hello);
    PMIX_DATA_BUFFER_DESTRUCT(&m);

    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_dmodex_rep(&m, 1, 99, PMIX_SUCCESS, "blob", 4));
    mutate(&m, try_rep);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
}
END_TEST

/* ---- FWD envelopes, FENCE_AGG, fence signatures --------------------------------------------- */

static void try_fwd(wu_dmsg_t *m)
{
    uint32_t node, skip, type;
    char *p = NULL;
    size_t n = 0;
    (void)wu_dmsg_get_fwd(m, &node, &skip, &type, &p, &n);
    free(p);
}

static uint32_t npairs;

static bool count_pair(uint32_t node, const char *sig, size_t siglen, const char *data,
                       size_t ndata, int32_t timeout, void *arg)
{
    (void)node;
    (void)sig;
    (void)siglen;
    (void)data;
    (void)ndata;
    (void)timeout;
    (void)arg;
    npairs++;
    return true;
}

static void try_agg(wu_dmsg_t *m)
{
    (void)wu_dmsg_walk_fence_agg(m, count_pair, NULL);
}

static void try_parts(wu_dmsg_t *m)
{
    bool wildcard;
    uint32_t *ranks = NULL, n = 0;
    if (PMIX_SUCCESS == wu_dmsg_fence_parts(m->unpack_ptr,
                                            m->bytes_used - (size_t)(m->unpack_ptr - m->base_ptr),
                                            "ns.1", 8, &wildcard, &ranks, &n)) {
        for (uint32_t i = 0; i < n; i++) {
            ck_assert_uint_lt(ranks[i], 8);
        }
    }
    free(ranks);
}

START_TEST(fwd_and_fences)
{
    wu_dmsg_t m, pairs;
    pmix_proc_t procs[3];
    char *sig = NULL;
    size_t siglen = 0;

    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_fwd(&m, 3, WU_DMSG_ALL, WU_DMSG_EXITED, "abc", 3));
    mutate(&m, try_fwd);
    PMIX_DATA_BUFFER_DESTRUCT(&m);

    PMIX_LOAD_PROCID(&procs[0], "ns.1", 1);
    PMIX_LOAD_PROCID(&procs[1], "ns.1", 7);
    PMIX_LOAD_PROCID(&procs[2], "other", PMIX_RANK_WILDCARD);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_fence_sig(procs, 3, &sig, &siglen));
    {
        bool wildcard = true;
        uint32_t *ranks = NULL, n = 0;
        ck_assert_int_eq(PMIX_SUCCESS,
                         wu_dmsg_fence_parts(sig, siglen, "ns.1", 8, &wildcard, &ranks, &n));
        ck_assert(!wildcard); /* the other job's wildcard is not ours */
        ck_assert_uint_eq(2, n);
        ck_assert_uint_eq(7, ranks[1]);
        free(ranks);
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&m, &(pmix_byte_object_t){sig, siglen}));
    mutate(&m, try_parts);
    PMIX_DATA_BUFFER_DESTRUCT(&m);

    PMIX_DATA_BUFFER_CONSTRUCT(&pairs);
    for (uint32_t node = 1; node <= 3; node++) {
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(&pairs, node));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(&pairs, "data", 4));
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(&m, sig, siglen));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_i32(&m, 0));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(&m, 3));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(&m, pairs.base_ptr, pairs.bytes_used));
    npairs = 0;
    try_agg(&m); /* as written: the three pairs */
    ck_assert_uint_eq(3, npairs);
    m.unpack_ptr = m.base_ptr;
    mutate(&m, try_agg);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    PMIX_DATA_BUFFER_DESTRUCT(&pairs);
    free(sig);
}
END_TEST

static Suite *dmsg_suite(void)
{
    Suite *s = suite_create("rte_dmsg");
    TCase *tc = tcase_create("dmsg");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, launch);
    tcase_add_test(tc, small_messages);
    tcase_add_test(tc, fwd_and_fences);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(dmsg_suite)
