/* SPDX-License-Identifier: BSD-3-Clause */
/* check_client_topo.c -- PMIx_Load_topology and PMIx_Compute_distances(_nb) in a singleton: the
 * node's topology is discovered, lent (the same one every time, PMIx_Topology_destruct frees only
 * the caller's source string, before and after PMIx_Finalize), and the distances from cpusets to
 * the devices of a made-up node (topo_io.xml) given as a topology or as the node's own
 * (HWLOC_XMLFILE), filtered by type and id; bad input. */
#include "test/support/wu_test.h"
#include "test/support/wu_test_hwloc_lsan.h"

#include "pmix.h"

#include <hwloc.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static char fixture[4096];

static void unset_server_env(void)
{
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    unsetenv("WU_PMIX_SERVER_URI");
    unsetenv("HWLOC_XMLFILE");
    unsetenv("HWLOC_THISSYSTEM");
    snprintf(fixture, sizeof fixture, "%s/test/unit/client/topo_io.xml", WU_TEST_SRCDIR);
}

static void setup(void)
{
    unset_server_env();
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(NULL, NULL, 0));
}

static void teardown(void)
{
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
}

static int nobjs(void *topology, hwloc_obj_type_t type)
{
    return hwloc_get_nbobjs_by_type((hwloc_topology_t)topology, type);
}

/* The fixture node as a caller's own topology (not this machine's). */
static void load_fixture(pmix_topology_t *tp)
{
    hwloc_topology_t t;
    ck_assert_int_eq(0, hwloc_topology_init(&t));
    ck_assert_int_eq(0, hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL));
    ck_assert_int_eq(0, hwloc_topology_set_xml(t, fixture));
    ck_assert_int_eq(0, hwloc_topology_load(t));
    tp->source = strdup("hwloc");
    tp->topology = t;
}

START_TEST(before_init)
{
    pmix_topology_t tp = PMIX_TOPOLOGY_STATIC_INIT;
    pmix_device_distance_t *d = NULL;
    size_t n = 7;
    unset_server_env();
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Load_topology(&tp));
    ck_assert_ptr_null(tp.source);
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Compute_distances(NULL, NULL, NULL, 0, &d, &n));
    ck_assert_ptr_null(d);
    ck_assert_uint_eq(0, n);
}
END_TEST

START_TEST(load_shared)
{
    pmix_topology_t a = PMIX_TOPOLOGY_STATIC_INIT, b = PMIX_TOPOLOGY_STATIC_INIT;
    pmix_topology_t mine = {.source = "hwloc", .topology = NULL};
    pmix_topology_t other = {.source = "cuda", .topology = NULL};
    hwloc_topology_t own;
    char *src;

    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Load_topology(NULL));
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, PMIx_Load_topology(&other));
    ck_assert_ptr_null(other.topology);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&a));
    ck_assert_ptr_nonnull(a.topology);
    ck_assert_int_eq(0, strncmp("hwloc:", a.source, 6));
    /* a singleton discovers its node: the same PUs as hwloc finds here */
    ck_assert_int_eq(0, hwloc_topology_init(&own));
    ck_assert_int_eq(0, hwloc_topology_load(own));
    ck_assert_int_eq(nobjs(own, HWLOC_OBJ_PU), nobjs(a.topology, HWLOC_OBJ_PU));
    hwloc_topology_destroy(own);
    /* the same topology again, with a source of its own; a source the caller set stays */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&b));
    ck_assert_ptr_eq(a.topology, b.topology);
    ck_assert_ptr_ne(a.source, b.source);
    src = mine.source;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&mine));
    ck_assert_ptr_eq(src, mine.source);
    ck_assert_ptr_eq(a.topology, mine.topology);
    /* destructing a caller's struct leaves the shared topology alone */
    PMIx_Topology_destruct(&a);
    ck_assert_ptr_null(a.source);
    ck_assert_int_lt(0, nobjs(b.topology, HWLOC_OBJ_PU));
    PMIx_Topology_destruct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&a));
    ck_assert_ptr_eq(mine.topology, a.topology);
    ck_assert_int_lt(0, nobjs(a.topology, HWLOC_OBJ_PU));
    PMIx_Topology_destruct(&a);
}
END_TEST

/* The library destroys its topology at the last PMIx_Finalize; a caller's struct that still
 * points at it may be destructed afterwards, and the next initialization lends a new one. */
START_TEST(load_across_finalize)
{
    pmix_topology_t a = PMIX_TOPOLOGY_STATIC_INIT, b = PMIX_TOPOLOGY_STATIC_INIT;
    unset_server_env();
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(NULL, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&a));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    PMIx_Topology_destruct(&a); /* its topology is gone: only the source is freed */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(NULL, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&b));
    ck_assert_int_lt(0, nobjs(b.topology, HWLOC_OBJ_PU));
    PMIx_Topology_destruct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
}
END_TEST

typedef struct {
    const char *osname, *uuid;
    pmix_device_type_t type;
} fixture_dev_t;

/* the fixture's devices, in topology order */
static const fixture_dev_t devs[] = {
    {"eth0", "net://02:00:00:00:00:01", PMIX_DEVTYPE_NETWORK},
    {"card0", "uuid://GPU-0a1b2c3d", PMIX_DEVTYPE_GPU},
    {"mlx5_0", "fab://0c42:a103:0012:3456", PMIX_DEVTYPE_OPENFABRICS},
    {"nvme0n1", NULL, PMIX_DEVTYPE_BLOCK},
};
#define NDEVS (sizeof devs / sizeof devs[0])

/* Per cpuset, each device's min and max distance: PU to the package a device hangs off is 2
 * levels, to the machine 3. */
static const struct {
    const char *cpus;
    uint16_t dist[NDEVS][2];
} cases[] = {
    {"hwloc:0", {{2, 2}, {2, 2}, {3, 3}, {3, 3}}},
    {"hwloc:2-3", {{3, 3}, {3, 3}, {2, 2}, {3, 3}}},
    {"hwloc:1-2", {{2, 3}, {2, 3}, {2, 3}, {3, 3}}},
    {"hwloc:0-63", {{2, 3}, {2, 3}, {2, 3}, {3, 3}}}, /* PUs the node lacks do not count */
};

static void check_all(const pmix_device_distance_t *d, size_t n, size_t c)
{
    char host[256], blk[300];
    gethostname(host, sizeof host);
    snprintf(blk, sizeof blk, "dev://%s/nvme0n1", host);
    ck_assert_uint_eq(NDEVS, n);
    for (size_t i = 0; i < NDEVS; i++) {
        ck_assert_str_eq(devs[i].osname, d[i].osname);
        ck_assert_str_eq(NULL != devs[i].uuid ? devs[i].uuid : blk, d[i].uuid);
        ck_assert_uint_eq(devs[i].type, d[i].type);
        ck_assert_msg(cases[c].dist[i][0] == d[i].mindist && cases[c].dist[i][1] == d[i].maxdist,
                      "%s from %s: %u-%u, want %u-%u", d[i].osname, cases[c].cpus, d[i].mindist,
                      d[i].maxdist, cases[c].dist[i][0], cases[c].dist[i][1]);
    }
}

START_TEST(distances)
{
    pmix_topology_t tp;
    pmix_cpuset_t cs = PMIX_CPUSET_STATIC_INIT;
    pmix_device_distance_t *d = NULL;
    size_t n = 0;
    load_fixture(&tp);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string(cases[_i].cpus, &cs));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances(&tp, &cs, NULL, 0, &d, &n));
    check_all(d, n, (size_t)_i);
    PMIX_DEVICE_DIST_FREE(d, n);
    PMIx_Cpuset_destruct(&cs);
    PMIx_Topology_destruct(&tp); /* the caller's own topology: destroyed */
}
END_TEST

/* Directives: one type, several types, a device by OS name or uuid, nothing that matches. */
static size_t count(pmix_topology_t *tp, pmix_cpuset_t *cs, pmix_info_t *info, size_t ninfo,
                    const char *first)
{
    pmix_device_distance_t *d = NULL;
    size_t n = 99;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances(tp, cs, info, ninfo, &d, &n));
    if (NULL != first) {
        ck_assert_uint_lt(0, n);
        ck_assert_str_eq(first, d[0].osname);
    } else {
        ck_assert_ptr_null(d);
    }
    PMIX_DEVICE_DIST_FREE(d, n);
    return n;
}

START_TEST(distances_filtered)
{
    pmix_topology_t tp;
    pmix_cpuset_t cs = PMIX_CPUSET_STATIC_INIT;
    pmix_device_type_t t;
    pmix_info_t info[2];
    load_fixture(&tp);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:0", &cs));
    t = PMIX_DEVTYPE_OPENFABRICS;
    PMIX_INFO_LOAD(&info[0], PMIX_DEVICE_TYPE, &t, PMIX_DEVTYPE);
    ck_assert_uint_eq(1, count(&tp, &cs, info, 1, "mlx5_0"));
    PMIX_INFO_DESTRUCT(&info[0]);
    t = PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_GPU;
    PMIX_INFO_LOAD(&info[0], PMIX_DEVICE_TYPE, &t, PMIX_DEVTYPE);
    ck_assert_uint_eq(2, count(&tp, &cs, info, 1, "eth0"));
    PMIX_INFO_LOAD(&info[1], PMIX_DEVICE_ID, "card0", PMIX_STRING);
    ck_assert_uint_eq(1, count(&tp, &cs, info, 2, "card0"));
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_INFO_LOAD(&info[1], PMIX_DEVICE_ID, "fab://0c42:a103:0012:3456", PMIX_STRING);
    ck_assert_uint_eq(1, count(&tp, &cs, &info[1], 1, "mlx5_0"));
    ck_assert_uint_eq(0, count(&tp, &cs, info, 2, NULL)); /* not a network device or GPU */
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    t = PMIX_DEVTYPE_DMA;
    PMIX_INFO_LOAD(&info[0], PMIX_DEVICE_TYPE, &t, PMIX_DEVTYPE);
    ck_assert_uint_eq(0, count(&tp, &cs, info, 1, NULL)); /* none on this node: success */
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIx_Cpuset_destruct(&cs);
    PMIx_Topology_destruct(&tp);
}
END_TEST

static void rc_is(pmix_status_t want, pmix_topology_t *tp, pmix_cpuset_t *cs, pmix_info_t *info,
                  size_t ninfo)
{
    pmix_device_distance_t *d = (void *)1;
    size_t n = 99;
    ck_assert_int_eq(want, PMIx_Compute_distances(tp, cs, info, ninfo, &d, &n));
    ck_assert_ptr_null(d);
    ck_assert_uint_eq(0, n);
}

START_TEST(distances_bad)
{
    pmix_topology_t tp, empty = {.source = "hwloc", .topology = NULL};
    pmix_topology_t other = {.source = "other", .topology = (void *)1};
    pmix_cpuset_t cs = PMIX_CPUSET_STATIC_INIT, out = PMIX_CPUSET_STATIC_INIT;
    pmix_cpuset_t nobits = {.source = "hwloc", .bitmap = NULL};
    pmix_cpuset_t alien = {.source = "other", .bitmap = (void *)1};
    pmix_device_distance_t *d = NULL;
    pmix_info_t info;
    size_t n = 0;
    load_fixture(&tp);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:0", &cs));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:7", &out));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Compute_distances(&tp, &cs, NULL, 0, NULL, &n));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Compute_distances(&tp, &cs, NULL, 0, &d, NULL));
    rc_is(PMIX_ERR_BAD_PARAM, &tp, &out, NULL, 0);       /* no PU of the node */
    rc_is(PMIX_ERR_BAD_PARAM, &tp, &nobits, NULL, 0);    /* no bitmap */
    rc_is(PMIX_ERR_NOT_SUPPORTED, &tp, &alien, NULL, 0); /* not hwloc's */
    rc_is(PMIX_ERR_NOT_SUPPORTED, &other, &cs, NULL, 0);
    rc_is(PMIX_ERR_BAD_PARAM, &empty, &cs, NULL, 0);
    rc_is(PMIX_ERR_BAD_PARAM, &tp, NULL, NULL, 0); /* another machine: where is the process? */
    rc_is(PMIX_ERR_BAD_PARAM, &tp, &cs, NULL, 1);
    PMIX_INFO_LOAD(&info, PMIX_DEVICE_TYPE, "network", PMIX_STRING);
    rc_is(PMIX_ERR_BAD_PARAM, &tp, &cs, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_DEVICE_ID, NULL, PMIX_STRING);
    rc_is(PMIX_ERR_BAD_PARAM, &tp, &cs, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Compute_distances_nb(&tp, &cs, NULL, 0, NULL, NULL));
    PMIx_Cpuset_destruct(&cs);
    PMIx_Cpuset_destruct(&out);
    PMIx_Topology_destruct(&tp);
}
END_TEST

typedef struct {
    _Atomic int done;
    pmix_status_t status;
    size_t n;
    bool ok;
} nb_t;

static void nb_cb(pmix_status_t status, pmix_device_distance_t *dist, size_t ndist, void *cbdata,
                  pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    nb_t *r = cbdata;
    r->status = status;
    r->n = ndist;
    r->ok = 3 == ndist && 0 == strcmp("mlx5_0", dist[2].osname) && 2 == dist[2].mindist &&
            3 == dist[2].maxdist;
    release_fn(release_cbdata);
    r->done = 1;
}

START_TEST(distances_nb)
{
    pmix_topology_t tp;
    pmix_cpuset_t cs = PMIX_CPUSET_STATIC_INIT;
    pmix_device_type_t t = PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_OPENFABRICS;
    pmix_info_t info;
    nb_t r = {.done = 0, .status = PMIX_ERROR, .n = 0, .ok = false};
    load_fixture(&tp);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:1,2", &cs));
    PMIX_INFO_LOAD(&info, PMIX_DEVICE_TYPE, &t, PMIX_DEVTYPE);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances_nb(&tp, &cs, &info, 1, nb_cb, &r));
    for (int i = 0; i < 10000 && !r.done; i++) {
        usleep(1000);
    }
    ck_assert(r.done);
    ck_assert_int_eq(PMIX_SUCCESS, r.status);
    ck_assert(r.ok);
    PMIX_INFO_DESTRUCT(&info);
    PMIx_Cpuset_destruct(&cs);
    PMIx_Topology_destruct(&tp);
}
END_TEST

/* The node's own topology (NULL, or the one lent): the fixture as this node (HWLOC_XMLFILE). */
START_TEST(node_distances)
{
    pmix_topology_t tp = PMIX_TOPOLOGY_STATIC_INIT;
    pmix_cpuset_t cs = PMIX_CPUSET_STATIC_INIT;
    pmix_device_distance_t *d = NULL;
    size_t n = 0;
    unset_server_env();
    setenv("HWLOC_XMLFILE", fixture, 1);
    setenv("HWLOC_THISSYSTEM", "1", 1);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(NULL, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Load_topology(&tp));
    ck_assert_int_eq(4, nobjs(tp.topology, HWLOC_OBJ_PU));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Parse_cpuset_string("hwloc:2-3", &cs));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances(NULL, &cs, NULL, 0, &d, &n));
    check_all(d, n, 1);
    PMIX_DEVICE_DIST_FREE(d, n);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances(&tp, &cs, NULL, 0, &d, &n));
    check_all(d, n, 1);
    PMIX_DEVICE_DIST_FREE(d, n);
    /* the process's own binding: the PUs it may run on that the node has */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances(NULL, NULL, NULL, 0, &d, &n));
    ck_assert_uint_eq(NDEVS, n);
    PMIX_DEVICE_DIST_FREE(d, n);
    PMIx_Cpuset_destruct(&cs);
    PMIx_Topology_destruct(&tp);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    unsetenv("HWLOC_XMLFILE");
    unsetenv("HWLOC_THISSYSTEM");
}
END_TEST

/* This machine: as many distances as hwloc sees OS devices, each with sane fields. */
START_TEST(this_machine)
{
    pmix_device_distance_t *d = NULL;
    hwloc_topology_t own;
    size_t n = 0;
    ck_assert_int_eq(0, hwloc_topology_init(&own));
    ck_assert_int_eq(0, hwloc_topology_set_io_types_filter(own, HWLOC_TYPE_FILTER_KEEP_IMPORTANT));
    ck_assert_int_eq(0, hwloc_topology_load(own));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Compute_distances(NULL, NULL, NULL, 0, &d, &n));
    ck_assert_uint_eq((size_t)nobjs(own, HWLOC_OBJ_OS_DEVICE), n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_ptr_nonnull(d[i].uuid);
        ck_assert_ptr_nonnull(d[i].osname);
        ck_assert_uint_ne(0, d[i].type);
        ck_assert_uint_le(d[i].mindist, d[i].maxdist);
        ck_assert_uint_lt(d[i].maxdist, UINT16_MAX);
    }
    PMIX_DEVICE_DIST_FREE(d, n);
    hwloc_topology_destroy(own);
}
END_TEST

static Suite *topo_suite(void)
{
    Suite *s = suite_create("client_topo");
    TCase *tc = tcase_create("no_init");
    tcase_add_test(tc, before_init);
    tcase_add_test(tc, load_across_finalize);
    tcase_add_test(tc, node_distances);
    suite_add_tcase(s, tc);
    tc = tcase_create("singleton");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, load_shared);
    tcase_add_loop_test(tc, distances, 0, sizeof cases / sizeof cases[0]);
    tcase_add_test(tc, distances_filtered);
    tcase_add_test(tc, distances_bad);
    tcase_add_test(tc, distances_nb);
    tcase_add_test(tc, this_machine);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(topo_suite)
