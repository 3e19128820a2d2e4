/* SPDX-License-Identifier: BSD-3-Clause */
/* check_abi_macros.c -- every function-like macro and inline helper of pmix_common.h, used at
 * least once and checked for the behaviour OpenPMIx 4.2's header gives it.
 *
 * This binary links no Wireup library: the exported PMIx_* functions that the macros must call
 * (PMIx_Value_destruct, PMIx_Info_load, PMIx_Info_list_*, ...) are spies defined here that record
 * which one ran, so the tests also prove each macro reaches the same exported function as
 * OpenPMIx's. abi_constants.sh fails if a public macro is missing from this file. Built with the
 * project's warning flags (-Wall -Wextra, -Werror in CI). */
#include "pmix_common.h"
#include "opal/util/wu_macros.h"
#include "test/support/wu_test.h"

/* ---- spies for the exported functions the macros call ---- */

static const char *last_call; /* name of the last spy that ran */
static int ncalls;

#define SPY() (last_call = __func__, ncalls++)

void PMIx_Value_destruct(pmix_value_t *val)
{
    SPY();
    if (PMIX_STRING == val->type) {
        free(val->data.string);
    }
    val->type = PMIX_UNDEF;
}

void PMIx_Data_array_destruct(pmix_data_array_t *d)
{
    SPY();
    free(d->array);
    d->array = NULL;
    d->size = 0;
}

pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data, pmix_data_type_t type)
{
    SPY();
    val->type = type;
    if (PMIX_STRING == type) {
        val->data.string = strdup((const char *)data);
    } else if (PMIX_INT == type) {
        val->data.integer = *(const int *)data;
    }
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz)
{
    SPY();
    *data = strdup(val->data.string);
    *sz = strlen(val->data.string) + 1;
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src)
{
    SPY();
    *dest = *src;
    if (PMIX_STRING == src->type) {
        dest->data.string = strdup(src->data.string);
    }
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data,
                             pmix_data_type_t type)
{
    pmix_status_t rc;
    PMIX_LOAD_KEY(info->key, key);
    rc = PMIx_Value_load(&info->value, data, type);
    SPY();
    return rc;
}

pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src)
{
    pmix_status_t rc;
    PMIX_LOAD_KEY(dest->key, src->key);
    dest->flags = src->flags;
    rc = PMIx_Value_xfer(&dest->value, &src->value);
    SPY();
    return rc;
}

static int list_token;
void *PMIx_Info_list_start(void)
{
    SPY();
    return &list_token;
}
pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value,
                                 pmix_data_type_t type)
{
    (void)ptr, (void)key, (void)value, (void)type;
    SPY();
    return PMIX_SUCCESS;
}
pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info)
{
    (void)ptr, (void)info;
    SPY();
    return PMIX_SUCCESS;
}
pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info)
{
    (void)ptr, (void)info;
    SPY();
    return PMIX_SUCCESS;
}
pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par)
{
    (void)ptr;
    SPY();
    PMIX_DATA_ARRAY_INIT(par, PMIX_INFO);
    return PMIX_ERR_EMPTY;
}
void PMIx_Info_list_release(void *ptr)
{
    (void)ptr;
    SPY();
}
pmix_status_t PMIx_Info_list_prepend(void *ptr, const char *key, const void *value,
                                     pmix_data_type_t type)
{
    (void)ptr, (void)key, (void)value, (void)type;
    SPY();
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    SPY();
    buffer->base_ptr = buffer->unpack_ptr = payload->bytes;
    buffer->bytes_allocated = buffer->bytes_used = payload->size;
    buffer->pack_ptr = buffer->base_ptr + payload->size;
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    SPY();
    if (NULL == buffer->base_ptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    payload->bytes = buffer->base_ptr;
    payload->size = buffer->bytes_used;
    memset(buffer, 0, sizeof(*buffer));
    return PMIX_SUCCESS;
}

/* counts the elements a FREE macro destructs */
static int topo_destructs, cpuset_destructs;
void PMIx_Topology_destruct(pmix_topology_t *topo)
{
    (void)topo;
    SPY();
    topo_destructs++;
}
void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset)
{
    (void)cpuset;
    SPY();
    cpuset_destructs++;
}

#define ck_assert_called(fn) ck_assert_str_eq(#fn, last_call)

/* ---- identifiers: keys, namespaces, proc ids ---- */

START_TEST(keys_nspaces_procids)
{
    pmix_key_t key;
    pmix_nspace_t ns;
    pmix_info_t info;
    pmix_proc_t a, b, *pa = &a, *pb = &b;
    char big[1000];

    memset(big, 'k', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    PMIX_LOAD_KEY(key, big); /* truncated to PMIX_MAX_KEYLEN */
    ck_assert_uint_eq(PMIX_MAX_KEYLEN, strlen(key));
    ck_assert_uint_eq(PMIX_MAX_KEYLEN + 1, pmix_keylen(big));
    ck_assert_uint_eq(0, pmix_keylen(NULL));
    PMIX_LOAD_KEY(key, NULL);
    ck_assert_str_eq("", key);
    PMIX_LOAD_NSPACE(ns, big);
    ck_assert_uint_eq(PMIX_MAX_NSLEN, strlen(ns));
    ck_assert_uint_eq(PMIX_MAX_NSLEN + 1, pmix_nslen(big));

    PMIX_INFO_CONSTRUCT(&info);
    PMIX_LOAD_KEY(info.key, PMIX_JOB_SIZE);
    ck_assert(PMIX_CHECK_KEY(&info, "pmix.job.size"));
    ck_assert(!PMIX_CHECK_KEY(&info, "pmix.job.siz"));
    ck_assert(PMIX_CHECK_RESERVED_KEY(info.key));
    ck_assert(!PMIX_CHECK_RESERVED_KEY("mykey"));

    PMIX_LOAD_PROCID(pa, "job1", 3);
    PMIX_PROC_LOAD(pb, "job1", PMIX_RANK_WILDCARD);
    ck_assert(PMIX_CHECK_PROCID(pa, pb)); /* wildcard matches any rank */
    pb->rank = 4;
    ck_assert(!PMIX_CHECK_PROCID(pa, pb));
    ck_assert(PMIX_CHECK_RANK(3, PMIX_RANK_WILDCARD));
    ck_assert(!PMIX_CHECK_RANK(3u, 4u));
    ck_assert(PMIX_CHECK_NSPACE("job1", "")); /* an empty nspace matches any */
    ck_assert(!PMIX_CHECK_NSPACE("job1", "job2"));
    ck_assert(PMIX_NSPACE_INVALID(""));
    PMIX_XFER_PROCID(pb, pa);
    ck_assert(PMIX_CHECK_PROCID(pa, pb));
    PMIX_PROCID_XFER(pb, pa);
    ck_assert(!PMIX_PROCID_INVALID(pb));
    pb->rank = PMIX_RANK_INVALID;
    ck_assert(PMIX_PROCID_INVALID(pb));
    ck_assert(PMIX_RANK_IS_VALID(0u) && !PMIX_RANK_IS_VALID(PMIX_RANK_VALID));
    ck_assert(PMIX_SYSTEM_EVENT(PMIX_EVENT_NODE_DOWN) && !PMIX_SYSTEM_EVENT(PMIX_ERROR));

    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(ns, "clusterA", "job7");
    ck_assert_str_eq("clusterA:job7", ns);
    {
        char c[PMIX_MAX_NSLEN + 1] = {0}, n[PMIX_MAX_NSLEN + 1] = {0};
        PMIX_MULTICLUSTER_NSPACE_PARSE(ns, c, n);
        ck_assert_str_eq("clusterA", c);
        ck_assert_str_eq("job7", n);
    }
}
END_TEST

/* ---- pmix_strncpy, argv and setenv helpers ---- */

START_TEST(string_and_argv_helpers)
{
    char buf[8], **argv = NULL, **copy, *joined;
    char ***argvp = &argv;
    int rc, count;

    pmix_strncpy(buf, "abcdefghij", 4);
    ck_assert_str_eq("abcd", buf);

    PMIX_ARGV_APPEND(rc, argv, "b");
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    PMIX_ARGV_PREPEND(rc, argv, "a");
    PMIX_ARGV_APPEND_UNIQUE(rc, argvp, "b"); /* already there */
    PMIX_ARGV_APPEND_UNIQUE(rc, argvp, "c");
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    PMIX_ARGV_COUNT(count, argv);
    ck_assert_int_eq(3, count);
    PMIX_ARGV_JOIN(joined, argv, ',');
    ck_assert_str_eq("a,b,c", joined);
    free(joined);
    PMIX_ARGV_COPY(copy, argv);
    ck_assert_int_eq(3, pmix_argv_count(copy));
    ck_assert_str_eq("c", copy[2]);
    PMIX_ARGV_FREE(copy);
    PMIX_ARGV_FREE(argv);

    PMIX_ARGV_SPLIT(argv, ",x,,y,", ',');
    ck_assert_int_eq(2, pmix_argv_count(argv));
    ck_assert_str_eq("y", argv[1]);
    pmix_argv_free(argv);
    argv = pmix_argv_split_with_empty(",x,,y,", ',');
    ck_assert_int_eq(4, pmix_argv_count(argv)); /* "", x, "", y: no empty last field */
    ck_assert_str_eq("", argv[0]);
    ck_assert_str_eq("", argv[2]);
    pmix_argv_free(argv);
    ck_assert_ptr_null(pmix_argv_split("", ','));
    joined = pmix_argv_join(NULL, ',');
    ck_assert_str_eq("", joined);
    free(joined);
    ck_assert_ptr_null(pmix_argv_copy(NULL));
    ck_assert_int_eq(0, pmix_argv_count(NULL));
}
END_TEST

START_TEST(setenv_helper)
{
    char **env = NULL;
    int rc;

    PMIX_SETENV(rc, "WU_A", "1", &env);
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    ck_assert_str_eq("WU_A=1", env[0]);
    ck_assert_int_eq(PMIX_ERR_EXISTS, pmix_setenv("WU_A", "2", false, &env));
    PMIX_SETENV(rc, "WU_A", "2", &env);
    ck_assert_str_eq("WU_A=2", env[0]);
    ck_assert_int_eq(PMIX_SUCCESS, pmix_setenv("WU_AB", NULL, true, &env));
    ck_assert_str_eq("WU_AB=", env[1]);
    ck_assert_int_eq(2, pmix_argv_count(env));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, pmix_setenv("X", "y", true, NULL));
    pmix_argv_free(env);
}
END_TEST

/* The lowercase helpers called directly, as some programs do. */
START_TEST(inline_helpers_direct)
{
    char **argv = NULL, **split;
    int *ip = pmix_malloc(sizeof(int));
    int *zeros = pmix_calloc(4, sizeof(int));
    pmix_app_t *apps = pmix_calloc(2, sizeof(pmix_app_t));
    pmix_pdata_t *pd = pmix_calloc(1, sizeof(pmix_pdata_t));
    pmix_proc_stats_t *ps = pmix_calloc(1, sizeof(pmix_proc_stats_t));
    pmix_disk_stats_t *ds = pmix_calloc(1, sizeof(pmix_disk_stats_t));
    pmix_net_stats_t *nt = pmix_calloc(1, sizeof(pmix_net_stats_t));
    pmix_node_stats_t *nd = pmix_calloc(1, sizeof(pmix_node_stats_t));

    ck_assert_ptr_nonnull(ip);
    ck_assert_int_eq(0, zeros[3]);
    pmix_free(ip);
    pmix_free(zeros);
    ck_assert_int_eq(PMIX_SUCCESS, pmix_argv_append_nosize(&argv, "b"));
    ck_assert_int_eq(PMIX_SUCCESS, pmix_argv_prepend_nosize(&argv, "a"));
    ck_assert_int_eq(PMIX_SUCCESS, pmix_argv_append_unique_nosize(&argv, "a"));
    ck_assert_int_eq(2, pmix_argv_count(argv));
    ck_assert_str_eq("a", argv[0]);
    pmix_argv_free(argv);
    split = pmix_argv_split_inter("p:q", ':', false);
    ck_assert_str_eq("q", split[1]);
    pmix_argv_free(split);

    apps[1].cwd = strdup("/tmp");
    pmix_app_free(apps, 2); /* destructs only */
    ck_assert_ptr_null(apps[1].cwd);
    pmix_free(apps);
    ncalls = 0;
    pmix_pdata_free(pd, 1);
    ck_assert_int_eq(1, ncalls);
    pmix_free(pd);
    ps->node = strdup("n");
    pmix_proc_stats_free(ps, 1);
    ck_assert_ptr_null(ps->node);
    ds->disk = strdup("d");
    pmix_disk_stats_free(ds, 1);
    ck_assert_ptr_null(ds->disk);
    nt->net_interface = strdup("i");
    pmix_net_stats_free(nt, 1);
    ck_assert_ptr_null(nt->net_interface);
    nd->node = strdup("n");
    pmix_node_stats_free(nd, 1);
    ck_assert_ptr_null(nd->node);
    pmix_proc_stats_free(NULL, 3); /* NULL is fine */
    pmix_free(ps);
    pmix_free(ds);
    pmix_free(nt);
    pmix_free(nd);
}
END_TEST

/* ---- values and infos: the macros must reach the exported functions ---- */

START_TEST(value_and_info_macros)
{
    pmix_value_t *v = NULL, *vs, val, *copy = NULL;
    pmix_info_t *info, one;
    int i42 = 42, rc;
    uint16_t u16 = 0;
    void *data;
    size_t sz;

    PMIX_VALUE_CREATE(v, 1);
    PMIX_VALUE_CONSTRUCT(v);
    PMIX_VALUE_LOAD(v, "hello", PMIX_STRING);
    ck_assert_called(PMIx_Value_load);
    PMIX_VALUE_UNLOAD(rc, v, &data, &sz);
    ck_assert_called(PMIx_Value_unload);
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    ck_assert_str_eq("hello", (char *)data);
    free(data);
    PMIX_VALUE_XFER(rc, copy, v); /* allocates copy */
    ck_assert_called(PMIx_Value_xfer);
    ck_assert_ptr_nonnull(copy);
    ck_assert_str_eq("hello", copy->data.string);
    PMIX_VALUE_XFER_DIRECT(rc, &val, copy);
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    PMIX_VALUE_DESTRUCT(&val);
    ck_assert_called(PMIx_Value_destruct);
    PMIX_VALUE_RELEASE(copy);
    ck_assert_ptr_null(copy);
    PMIX_VALUE_RELEASE(v);
    ck_assert_ptr_null(v);
    PMIX_VALUE_CREATE(vs, 2);
    ncalls = 0;
    PMIX_VALUE_FREE(vs, 2);
    ck_assert_int_eq(2, ncalls);
    ck_assert_ptr_null(vs);

    val.type = PMIX_INT;
    val.data.integer = 7;
    PMIX_VALUE_GET_NUMBER(rc, &val, u16, uint16_t);
    ck_assert_int_eq(PMIX_SUCCESS, rc);
    ck_assert_uint_eq(7, u16);
    val.type = PMIX_STRING;
    PMIX_VALUE_GET_NUMBER(rc, &val, u16, uint16_t);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, rc);

    PMIX_INFO_CREATE(info, 3);
    ck_assert(PMIX_INFO_IS_END(&info[2]) && !PMIX_INFO_IS_END(&info[0]));
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &i42, PMIX_INT);
    ck_assert_called(PMIx_Info_load);
    ck_assert_str_eq(PMIX_JOB_SIZE, info[0].key);
    PMIX_INFO_XFER(&info[1], &info[0]);
    ck_assert_called(PMIx_Info_xfer);
    ck_assert_int_eq(42, info[1].value.data.integer);
    PMIX_INFO_REQUIRED(&info[0]);
    ck_assert(PMIX_INFO_IS_REQUIRED(&info[0]));
    PMIX_INFO_OPTIONAL(&info[0]);
    ck_assert(PMIX_INFO_IS_OPTIONAL(&info[0]));
    PMIX_INFO_PROCESSED(&info[0]);
    ck_assert(PMIX_INFO_WAS_PROCESSED(&info[0]));
    PMIX_INFO_SET_QUALIFIER(&info[0]);
    ck_assert(PMIX_INFO_IS_QUALIFIER(&info[0]));
    PMIX_INFO_SET_END(&info[1]);
    ck_assert(PMIX_INFO_IS_END(&info[1]));
    ncalls = 0;
    PMIX_INFO_FREE(info, 3); /* each entry's value: PMIx_Value_destruct */
    ck_assert_int_eq(3, ncalls);
    ck_assert_ptr_null(info);

    PMIX_INFO_CONSTRUCT(&one);
    PMIX_INFO_SET_PERSISTENT(&one);
    ck_assert(PMIX_INFO_IS_PERSISTENT(&one));
    ncalls = 0;
    PMIX_INFO_DESTRUCT(&one); /* persistent: the value is not ours to release */
    ck_assert_int_eq(0, ncalls);
    ck_assert(PMIX_INFO_TRUE(&one)); /* UNDEF counts as true */
    ck_assert_uint_eq(0, sizeof(info) * 0);
}
END_TEST

static const struct {
    pmix_data_type_t type;
    const char *s;
    bool b;
    pmix_boolean_t want;
} truth[] = {
    {PMIX_UNDEF, NULL, false, PMIX_BOOL_TRUE},      {PMIX_BOOL, NULL, true, PMIX_BOOL_TRUE},
    {PMIX_BOOL, NULL, false, PMIX_BOOL_FALSE},      {PMIX_STRING, NULL, false, PMIX_BOOL_TRUE},
    {PMIX_STRING, "  ", false, PMIX_BOOL_TRUE},     {PMIX_STRING, "0", false, PMIX_BOOL_FALSE},
    {PMIX_STRING, " 12", false, PMIX_BOOL_TRUE},    {PMIX_STRING, "Yes", false, PMIX_BOOL_TRUE},
    {PMIX_STRING, "TRUE", false, PMIX_BOOL_TRUE},   {PMIX_STRING, "no", false, PMIX_BOOL_FALSE},
    {PMIX_STRING, "false", false, PMIX_BOOL_FALSE}, {PMIX_STRING, "maybe", false, PMIX_NON_BOOL},
    {PMIX_INT, NULL, false, PMIX_NON_BOOL},
};

START_TEST(check_true_table)
{
    pmix_value_t v = PMIX_VALUE_STATIC_INIT;
    v.type = truth[_i].type;
    if (PMIX_BOOL == v.type) {
        v.data.flag = truth[_i].b;
    } else if (PMIX_STRING == v.type) {
        v.data.string = (char *)truth[_i].s;
    }
    ck_assert_int_eq(truth[_i].want, pmix_check_true(&v));
    ck_assert(PMIX_CHECK_TRUE(&v) == (PMIX_BOOL_TRUE == truth[_i].want));
    ck_assert(PMIX_CHECK_BOOL(&v) == (PMIX_NON_BOOL != truth[_i].want));
}
END_TEST

/* ---- every struct's CREATE/CONSTRUCT/DESTRUCT/FREE/RELEASE ---- */

START_TEST(struct_lifecycles)
{
    pmix_proc_t *procs = NULL, pstatic = PMIX_PROC_STATIC_INIT;
    pmix_proc_info_t *pi = NULL, pione = PMIX_PROC_INFO_STATIC_INIT;
    pmix_coord_t *coords = NULL, cone = PMIX_COORD_STATIC_INIT;
    pmix_cpuset_t *cpus = NULL, cpu = PMIX_CPUSET_STATIC_INIT;
    pmix_topology_t *topos = NULL, topo = PMIX_TOPOLOGY_STATIC_INIT;
    pmix_geometry_t *geos = NULL, geo = PMIX_GEOMETRY_STATIC_INIT;
    pmix_device_distance_t *dists = NULL, dist = PMIX_DEVICE_DIST_STATIC_INIT;
    pmix_byte_object_t *bos = NULL, bo = PMIX_BYTE_OBJECT_STATIC_INIT;
    pmix_endpoint_t *eps = NULL, ep = PMIX_ENDPOINT_STATIC_INIT;
    pmix_envar_t *envs = NULL, ev = PMIX_ENVAR_STATIC_INIT;
    pmix_proc_stats_t *ps = NULL, pso = PMIX_PROC_STATS_STATIC_INIT;
    pmix_disk_stats_t *ds = NULL, dso = PMIX_DISK_STATS_STATIC_INIT;
    pmix_net_stats_t *ns = NULL, nso = PMIX_NET_STATS_STATIC_INIT;
    pmix_node_stats_t *nd = NULL, ndo = PMIX_NODE_STATS_STATIC_INIT;
    pmix_pdata_t *pd = NULL, pdo = PMIX_LOOKUP_STATIC_INIT;
    pmix_app_t *apps = NULL, app = PMIX_APP_STATIC_INIT;
    pmix_query_t *qs = NULL, q = PMIX_QUERY_STATIC_INIT;
    pmix_regattr_t *ra = NULL, r1 = PMIX_REGATTR_STATIC_INIT, r2;
    pmix_fabric_t fab = PMIX_FABRIC_STATIC_INIT;
    pmix_info_t istatic = PMIX_INFO_STATIC_INIT;
    pmix_data_array_t dastatic = PMIX_DATA_ARRAY_STATIC_INIT;
    pmix_data_buffer_t dbstatic = PMIX_DATA_BUFFER_STATIC_INIT;
    char *bytes = strdup("xyz");
    size_t nbytes = 4;

    ck_assert_uint_eq(PMIX_RANK_UNDEF, pstatic.rank);
    ck_assert_uint_eq(0, istatic.flags + dastatic.size + dbstatic.bytes_used);

    PMIX_PROC_CREATE(procs, 0);
    ck_assert_ptr_null(procs);
    PMIX_PROC_CREATE(procs, 2);
    ck_assert_uint_eq(0, procs[1].rank);
    PMIX_PROC_CONSTRUCT(&procs[0]);
    PMIX_PROC_DESTRUCT(&procs[0]);
    PMIX_PROC_FREE(procs, 2);
    ck_assert_ptr_null(procs);
    PMIX_PROC_CREATE(procs, 1);
    PMIX_PROC_RELEASE(procs);
    ck_assert_ptr_null(procs);

    PMIX_PROC_INFO_CREATE(pi, 2);
    pi[0].hostname = strdup("node1");
    PMIX_PROC_INFO_CONSTRUCT(&pione);
    pione.executable_name = strdup("a.out");
    PMIX_PROC_INFO_DESTRUCT(&pione);
    ck_assert_ptr_null(pione.executable_name);
    PMIX_PROC_INFO_FREE(pi, 2);
    PMIX_PROC_INFO_CREATE(pi, 1);
    PMIX_PROC_INFO_RELEASE(pi);

    PMIX_COORD_CREATE(coords, 2, 3);
    ck_assert_uint_eq(3, coords[1].dims);
    ck_assert_uint_eq(0, coords[1].coord[2]);
    PMIX_COORD_CONSTRUCT(&cone);
    PMIX_COORD_DESTRUCT(&cone);
    PMIX_COORD_FREE(coords, 2);
    ck_assert_ptr_null(coords);

    PMIX_CPUSET_CREATE(cpus, 2);
    PMIX_CPUSET_CONSTRUCT(&cpu);
    PMIX_CPUSET_DESTRUCT(&cpu);
    ck_assert_called(PMIx_Cpuset_destruct);
    cpuset_destructs = 0;
    PMIX_CPUSET_FREE(cpus, 2); /* PMIx 5: destructs each element, frees, clears */
    ck_assert_int_eq(2, cpuset_destructs);
    ck_assert_ptr_null(cpus);
    PMIX_TOPOLOGY_CREATE(topos, 3);
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    PMIX_TOPOLOGY_DESTRUCT(&topo);
    ck_assert_called(PMIx_Topology_destruct);
    topo_destructs = 0;
    PMIX_TOPOLOGY_FREE(topos, 3);
    ck_assert_int_eq(3, topo_destructs);
    ck_assert_ptr_null(topos);

    PMIX_GEOMETRY_CREATE(geos, 1);
    geos[0].uuid = strdup("u");
    PMIX_COORD_CREATE(geos[0].coordinates, 1, 2);
    geos[0].ncoords = 1;
    PMIX_GEOMETRY_CONSTRUCT(&geo);
    PMIX_GEOMETRY_DESTRUCT(&geo);
    PMIX_GEOMETRY_FREE(geos, 1);
    ck_assert_ptr_null(geos);

    PMIX_DEVICE_DIST_CREATE(dists, 2);
    ck_assert_uint_eq(UINT16_MAX, dists[1].mindist);
    ck_assert_uint_eq(UINT16_MAX, dists[1].maxdist);
    PMIX_DEVICE_DIST_CONSTRUCT(&dist);
    ck_assert_uint_eq(UINT16_MAX, dist.maxdist);
    PMIX_DEVICE_DIST_DESTRUCT(&dist);
    PMIX_DEVICE_DIST_FREE(dists, 2);

    PMIX_BYTE_OBJECT_CREATE(bos, 1);
    PMIX_BYTE_OBJECT_CONSTRUCT(&bo);
    PMIX_BYTE_OBJECT_LOAD(&bo, bytes, nbytes);
    ck_assert_ptr_null(bytes);
    ck_assert_uint_eq(0, nbytes);
    ck_assert_str_eq("xyz", bo.bytes);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    ck_assert_ptr_null(bo.bytes);
    PMIX_BYTE_OBJECT_FREE(bos, 1);

    PMIX_ENDPOINT_CREATE(eps, 1);
    eps[0].osname = strdup("eth0");
    PMIX_ENDPOINT_CONSTRUCT(&ep);
    PMIX_ENDPOINT_DESTRUCT(&ep);
    PMIX_ENDPOINT_FREE(eps, 1);

    PMIX_ENVAR_CREATE(envs, 1);
    PMIX_ENVAR_LOAD(&envs[0], "PATH", "/bin", ':');
    ck_assert_str_eq("/bin", envs[0].value);
    ck_assert_int_eq(':', envs[0].separator);
    PMIX_ENVAR_FREE(envs, 1);
    PMIX_ENVAR_CONSTRUCT(&ev);
    PMIX_ENVAR_DESTRUCT(&ev);

    PMIX_PROC_STATS_CREATE(ps, 1);
    ps[0].cmd = strdup("cmd");
    PMIX_PROC_STATS_CONSTRUCT(&pso);
    PMIX_PROC_STATS_DESTRUCT(&pso);
    PMIX_PROC_STATS_FREE(ps, 1);
    ck_assert_ptr_null(ps);
    PMIX_PROC_STATS_CREATE(ps, 1);
    PMIX_PROC_STATS_RELEASE(ps);

    PMIX_DISK_STATS_CREATE(ds, 1);
    PMIX_DISK_STATS_CONSTRUCT(&dso);
    PMIX_DISK_STATS_DESTRUCT(&dso);
    PMIX_DISK_STATS_RELEASE(ds);
    PMIX_NET_STATS_CREATE(ns, 1);
    PMIX_NET_STATS_CONSTRUCT(&nso);
    PMIX_NET_STATS_DESTRUCT(&nso);
    PMIX_NET_STATS_RELEASE(ns);

    PMIX_NODE_STATS_CREATE(nd, 1);
    PMIX_DISK_STATS_CREATE(nd[0].diskstats, 2);
    nd[0].ndiskstats = 2;
    nd[0].diskstats[1].disk = strdup("sda");
    PMIX_NET_STATS_CREATE(nd[0].netstats, 1);
    nd[0].nnetstats = 1;
    PMIX_NODE_STATS_FREE(nd, 1);
    ck_assert_ptr_null(nd);
    PMIX_NODE_STATS_CONSTRUCT(&ndo);
    ndo.node = strdup("n");
    PMIX_NODE_STATS_DESTRUCT(&ndo);
    ndo.node = strdup("n");
    PMIX_NODE_STATS_RELEASE(&ndo); /* destructs only */
    ck_assert_ptr_null(ndo.node);
    ps = NULL;
    ds = NULL;
    ns = NULL;
    PMIX_DISK_STATS_FREE(ds, 0);
    PMIX_NET_STATS_FREE(ns, 0);

    PMIX_PDATA_CREATE(pd, 2);
    ck_assert_ptr_nonnull(pd);
    PMIX_PDATA_LOAD(&pd[0], &pstatic, "k", "v", PMIX_STRING);
    ck_assert_str_eq("k", pd[0].key);
    PMIX_PDATA_XFER(&pd[1], &pd[0]);
    ck_assert_str_eq("v", pd[1].value.data.string);
    ncalls = 0;
    PMIX_PDATA_FREE(pd, 2);
    ck_assert_int_eq(2, ncalls);
    PMIX_PDATA_CONSTRUCT(&pdo);
    PMIX_PDATA_DESTRUCT(&pdo);
    ck_assert_called(PMIx_Value_destruct);
    PMIX_PDATA_CREATE(pd, 1);
    PMIX_PDATA_RELEASE(pd);
    ck_assert_ptr_null(pd);

    PMIX_APP_CREATE(apps, 2);
    apps[0].cmd = strdup("hostname");
    PMIX_ARGV_APPEND_UNIQUE(nbytes, &apps[0].argv, "hostname");
    PMIX_APP_INFO_CREATE(&apps[0], 2);
    ck_assert_uint_eq(2, apps[0].ninfo);
    ck_assert(PMIX_INFO_IS_END(&apps[0].info[1]));
    PMIX_APP_FREE(apps, 2);
    ck_assert_ptr_null(apps);
    PMIX_APP_CONSTRUCT(&app);
    PMIX_APP_DESTRUCT(&app);
    PMIX_APP_CREATE(apps, 1);
    PMIX_APP_RELEASE(apps);

    PMIX_QUERY_CREATE(qs, 1);
    PMIX_ARGV_APPEND(nbytes, qs[0].keys, PMIX_QUERY_NAMESPACES);
    PMIX_QUERY_QUALIFIERS_CREATE(&qs[0], 1);
    PMIX_QUERY_FREE(qs, 1);
    ck_assert_ptr_null(qs);
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_QUERY_DESTRUCT(&q);
    PMIX_QUERY_CREATE(qs, 1);
    PMIX_QUERY_RELEASE(qs);

    PMIX_REGATTR_CONSTRUCT(&r1);
    PMIX_REGATTR_LOAD(&r1, "PMIX_JOB_SIZE", PMIX_JOB_SIZE, PMIX_UINT32, "number of procs");
    PMIX_REGATTR_XFER(&r2, &r1);
    ck_assert_str_eq("pmix.job.size", r2.string);
    ck_assert_str_eq("number of procs", r2.description[0]);
    PMIX_REGATTR_DESTRUCT(&r1);
    PMIX_REGATTR_DESTRUCT(&r2);
    PMIX_REGATTR_CREATE(ra, 2);
    PMIX_REGATTR_FREE(ra, 2);
    ck_assert_ptr_null(ra);

    PMIX_FABRIC_CONSTRUCT(&fab);
    ck_assert_ptr_null(fab.module);
}
END_TEST

START_TEST(data_arrays_buffers_lists)
{
    pmix_data_array_t da, *dap = NULL;
    pmix_data_buffer_t *buf = NULL, b2;
    char *bytes = strdup("payload"), *out = NULL;
    size_t n = 8, outn = 0;
    void *list = NULL;
    pmix_info_t info;
    int rc, one = 1;

    PMIX_DATA_ARRAY_INIT(&da, PMIX_STRING);
    ck_assert_ptr_null(da.array);
    PMIX_DATA_ARRAY_CONSTRUCT(&da, 3, PMIX_INFO);
    ck_assert(PMIX_INFO_IS_END(&((pmix_info_t *)da.array)[2]));
    PMIX_DATA_ARRAY_DESTRUCT(&da);
    ck_assert_called(PMIx_Data_array_destruct);
    PMIX_DATA_ARRAY_CONSTRUCT(&da, 2, PMIX_DEVICE_DIST);
    ck_assert_uint_eq(UINT16_MAX, ((pmix_device_distance_t *)da.array)[1].mindist);
    PMIX_DATA_ARRAY_DESTRUCT(&da);
    PMIX_DATA_ARRAY_CONSTRUCT(&da, 2, PMIX_DATA_TYPE_MAX); /* cannot hold: empty */
    ck_assert_ptr_null(da.array);
    ck_assert_uint_eq(0, da.size);
    PMIX_DATA_ARRAY_CREATE(dap, 4, PMIX_UINT64);
    ck_assert_uint_eq(4, dap->size);
    ck_assert_uint_eq(PMIX_UINT64, dap->type);
    PMIX_DATA_ARRAY_FREE(dap);
    ck_assert_ptr_null(dap);

    PMIX_DATA_BUFFER_CREATE(buf);
    ck_assert_ptr_nonnull(buf);
    PMIX_DATA_BUFFER_LOAD(buf, bytes, n);
    ck_assert_called(PMIx_Data_load);
    PMIX_DATA_BUFFER_UNLOAD(buf, out, outn);
    ck_assert_called(PMIx_Data_unload);
    ck_assert_str_eq("payload", out);
    ck_assert_uint_eq(8, outn);
    PMIX_DATA_BUFFER_UNLOAD(buf, out, outn); /* now empty: NULL/0 */
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(0, outn);
    free(bytes);
    PMIX_DATA_BUFFER_RELEASE(buf);
    ck_assert_ptr_null(buf);
    PMIX_DATA_BUFFER_CONSTRUCT(&b2);
    b2.base_ptr = strdup("x");
    PMIX_DATA_BUFFER_DESTRUCT(&b2);
    ck_assert_ptr_null(b2.base_ptr);

    PMIX_INFO_LIST_START(list);
    ck_assert_called(PMIx_Info_list_start);
    ck_assert_ptr_eq(&list_token, list);
    PMIX_INFO_LIST_ADD(rc, list, PMIX_TIMEOUT, &one, PMIX_INT);
    ck_assert_called(PMIx_Info_list_add);
    PMIX_INFO_LIST_PREPEND(rc, list, PMIX_TIMEOUT, &one, PMIX_INT);
    ck_assert_called(PMIx_Info_list_prepend);
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LIST_INSERT(rc, list, &info);
    ck_assert_called(PMIx_Info_list_insert);
    PMIX_INFO_LIST_XFER(rc, list, &info);
    ck_assert_called(PMIx_Info_list_xfer);
    PMIX_INFO_LIST_CONVERT(rc, list, &da);
    ck_assert_called(PMIx_Info_list_convert);
    ck_assert_int_eq(PMIX_ERR_EMPTY, rc);
    PMIX_INFO_LIST_RELEASE(list);
    ck_assert_called(PMIx_Info_list_release);
}
END_TEST

static Suite *abi_macros_suite(void)
{
    Suite *s = suite_create("abi_macros");
    TCase *tc = tcase_create("macros");

    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, keys_nspaces_procids);
    tcase_add_test(tc, string_and_argv_helpers);
    tcase_add_test(tc, setenv_helper);
    tcase_add_test(tc, inline_helpers_direct);
    tcase_add_test(tc, value_and_info_macros);
    tcase_add_loop_test(tc, check_true_table, 0, (int)WU_NELEMS(truth));
    tcase_add_test(tc, struct_lifecycles);
    tcase_add_test(tc, data_arrays_buffers_lists);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(abi_macros_suite)
