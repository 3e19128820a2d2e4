/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_api5.c -- the functions PMIx 5 added: struct life cycles, argv and environment,
 * key/namespace/proc checks, info flags, strings, sizes, info-list walks, session control, the
 * tool queries, and pmix_framework_names.
 *
 * The life-cycle tests rely on the sanitizer build to catch leaks and double frees: each creates
 * elements that own memory and frees them through the function under test. Expected strings are
 * OpenPMIx 5.0.7's (test/abi/same_results.sh compares the two libraries on Debian 13). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "pmix_tool.h"

#include "mca/base/wu_mca.h"
#include "test/support/wu_test.h"

extern char *pmix_framework_names[];
extern wu_mca_framework_t *const wu_mca_builtin_frameworks[]; /* libpmix's frameworks */

START_TEST(lifecycles_free_what_they_own)
{
    pmix_info_t *info = PMIx_Info_create(3);
    ck_assert_ptr_nonnull(info);
    ck_assert_int_eq(PMIX_UNDEF, info[2].value.type);
    PMIx_Info_load(&info[0], "a", "text", PMIX_STRING);
    PMIx_Info_load(&info[2], "c", &(int){7}, PMIX_INT);
    PMIx_Info_free(info, 3);
    ck_assert_ptr_null(PMIx_Info_create(0));

    pmix_value_t *v = PMIx_Value_create(2);
    PMIx_Value_load(&v[1], "owned", PMIX_STRING);
    PMIx_Value_free(v, 2);

    pmix_app_t *app = PMIx_App_create(1);
    app->cmd = strdup("/bin/true");
    PMIx_Argv_append_nosize(&app->argv, "true");
    PMIx_App_info_create(app, 2);
    ck_assert_uint_eq(2, app->ninfo);
    PMIx_Info_load(&app->info[1], PMIX_WDIR, "/tmp", PMIX_STRING);
    PMIx_App_release(app);

    pmix_query_t *q = PMIx_Query_create(2);
    PMIx_Argv_append_nosize(&q[1].keys, PMIX_QUERY_NAMESPACES);
    PMIx_Query_qualifiers_create(&q[1], 1);
    ck_assert_uint_eq(1, q[1].nqual);
    PMIx_Query_free(q, 2);

    pmix_device_distance_t *dd = PMIx_Device_distance_create(2);
    ck_assert_uint_eq(UINT16_MAX, dd[1].mindist); /* unknown, as the construct macro says */
    dd[0].uuid = strdup("u");
    PMIx_Device_distance_free(dd, 2);

    pmix_envar_t *e = PMIx_Envar_create(1);
    PMIx_Envar_load(e, "PATH", "/bin", ':');
    ck_assert_str_eq("PATH", e->envar);
    ck_assert_int_eq(':', e->separator);
    PMIx_Envar_free(e, 1);

    pmix_regattr_t *r = PMIx_Regattr_create(2), copy;
    PMIx_Regattr_load(&r[0], "PMIX_TIMEOUT", PMIX_TIMEOUT, PMIX_INT, "seconds");
    PMIx_Regattr_construct(&copy);
    PMIx_Regattr_xfer(&copy, &r[0]);
    ck_assert_str_eq("PMIX_TIMEOUT", copy.name);
    ck_assert_str_eq("seconds", copy.description[0]);
    PMIx_Regattr_destruct(&copy);
    PMIx_Regattr_free(r, 2);

    pmix_coord_t *c = PMIx_Coord_create(3, 2); /* 2 coordinates of 3 dimensions */
    ck_assert_uint_eq(3, c[1].dims);
    ck_assert_uint_eq(0, c[1].coord[2]);
    PMIx_Coord_free(c, 2);

    pmix_byte_object_t *bo = PMIx_Byte_object_create(1);
    PMIx_Byte_object_load(bo, strdup("abc"), 4);
    ck_assert_uint_eq(4, bo->size);
    PMIx_Byte_object_free(bo, 1);

    pmix_proc_t *p = PMIx_Proc_create(2);
    PMIx_Proc_load(&p[1], "ns", 3);
    ck_assert_str_eq("ns", p[1].nspace);
    ck_assert_uint_eq(3, p[1].rank);
    PMIx_Proc_free(p, 2);

    pmix_proc_info_t *pi = PMIx_Proc_info_create(1);
    pi->hostname = strdup("h");
    PMIx_Proc_info_free(pi, 1);

    pmix_node_stats_t *ns = PMIx_Node_stats_create(1);
    ns->node = strdup("n");
    ns->diskstats = PMIx_Disk_stats_create(1);
    ns->diskstats->disk = strdup("sda");
    ns->ndiskstats = 1;
    PMIx_Node_stats_free(ns, 1);

    pmix_geometry_t *g = PMIx_Geometry_create(1);
    g->coordinates = PMIx_Coord_create(2, 1);
    g->ncoords = 1;
    PMIx_Geometry_free(g, 1);

    /* NULL and 0 are harmless everywhere */
    PMIx_Info_free(NULL, 3);
    PMIx_App_release(NULL);
    PMIx_Query_release(NULL);
    PMIx_Proc_destruct(NULL);
    PMIx_Cpuset_free(NULL, 1);
    PMIx_Topology_free(NULL, 1);
    PMIx_Data_array_free(NULL);
    PMIx_Data_buffer_release(NULL);
}
END_TEST

START_TEST(data_arrays_and_buffers)
{
    pmix_data_array_t *da = PMIx_Data_array_create(2, PMIX_INFO), init;
    ck_assert_uint_eq(2, da->size);
    ck_assert_int_eq(PMIX_INFO, da->type);
    PMIx_Info_load(&((pmix_info_t *)da->array)[1], "k", "v", PMIX_STRING);
    PMIx_Data_array_free(da);

    PMIx_Data_array_init(&init, PMIX_PROC);
    ck_assert_ptr_null(init.array);
    ck_assert_uint_eq(0, init.size);
    ck_assert_int_eq(PMIX_PROC, init.type);
    PMIx_Data_array_construct(&init, 4, PMIX_PROC);
    ck_assert_uint_eq(4, init.size);
    PMIx_Data_array_destruct(&init);

    /* a packed buffer unloaded into bytes, loaded into another buffer, unpacks the same */
    pmix_data_buffer_t *b = PMIx_Data_buffer_create(), b2;
    int32_t in = -5, out = 0, one = 1;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, b, &in, 1, PMIX_INT32));
    char *bytes = NULL;
    size_t sz = 0;
    PMIx_Data_buffer_unload(b, &bytes, &sz);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_uint_gt(sz, 0);
    PMIx_Data_buffer_release(b);
    PMIx_Data_buffer_construct(&b2);
    PMIx_Data_buffer_load(&b2, bytes, sz);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, &b2, &out, &one, PMIX_INT32));
    ck_assert_int_eq(-5, out);
    PMIx_Data_buffer_destruct(&b2);

    /* unloading an empty buffer gives nothing */
    PMIx_Data_buffer_construct(&b2);
    bytes = (char *)&one;
    PMIx_Data_buffer_unload(&b2, &bytes, &sz);
    ck_assert_ptr_null(bytes);
    ck_assert_uint_eq(0, sz);
}
END_TEST

START_TEST(argv_and_setenv)
{
    char **a = PMIx_Argv_split("a::b:c", ':');
    ck_assert_int_eq(3, PMIx_Argv_count(a));
    char **e = PMIx_Argv_split_with_empty("a::b", ':');
    ck_assert_int_eq(3, PMIx_Argv_count(e));
    ck_assert_str_eq("", e[1]);
    char **i = PMIx_Argv_split_inter("x,,y", ',', false);
    ck_assert_int_eq(2, PMIx_Argv_count(i));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Argv_append_unique_nosize(&a, "b"));
    ck_assert_int_eq(3, PMIx_Argv_count(a));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Argv_prepend_nosize(&a, "first"));
    char *j = PMIx_Argv_join(a, '+');
    ck_assert_str_eq("first+a+b+c", j);
    char **c = PMIx_Argv_copy(a);
    ck_assert_str_eq("c", c[3]);
    ck_assert_int_eq(0, PMIx_Argv_count(NULL));
    free(j);
    PMIx_Argv_free(a);
    PMIx_Argv_free(c);
    PMIx_Argv_free(e);
    PMIx_Argv_free(i);

    char **env = NULL;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Setenv("X", "1", true, &env));
    ck_assert_int_eq(PMIX_ERR_EXISTS, PMIx_Setenv("X", "2", false, &env));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Setenv("X", "3", true, &env));
    ck_assert_int_eq(1, PMIx_Argv_count(env));
    ck_assert_str_eq("X=3", env[0]);
    PMIx_Argv_free(env);
}
END_TEST

START_TEST(checks_and_loads)
{
    pmix_key_t key;
    pmix_nspace_t ns, cl, part;
    pmix_proc_t a, b;

    PMIx_Load_key(key, PMIX_JOB_SIZE);
    ck_assert(PMIx_Check_key(key, PMIX_JOB_SIZE));
    ck_assert(!PMIx_Check_key(key, PMIX_UNIV_SIZE));
    ck_assert(PMIx_Check_reserved_key(key));
    ck_assert(!PMIx_Check_reserved_key("mine"));
    PMIx_Load_nspace(ns, "job");
    ck_assert(PMIx_Check_nspace(ns, "job"));
    ck_assert(PMIx_Check_nspace(ns, "")); /* an empty namespace matches any */
    ck_assert(!PMIx_Check_nspace(ns, "other"));
    ck_assert(PMIx_Nspace_invalid(""));
    ck_assert(!PMIx_Nspace_invalid(ns));
    ck_assert(PMIx_Check_rank(2, PMIX_RANK_WILDCARD));
    ck_assert(!PMIx_Check_rank(2, 3));
    PMIx_Load_procid(&a, "job", 1);
    PMIx_Xfer_procid(&b, &a);
    ck_assert(PMIx_Check_procid(&a, &b));
    b.rank = PMIX_RANK_INVALID;
    ck_assert(PMIx_Procid_invalid(&b));
    ck_assert(!PMIx_Procid_invalid(&a));

    PMIx_Load_nspace(cl, "cluster");
    PMIx_Load_nspace(part, "job");
    PMIx_Multicluster_nspace_construct(ns, cl, part);
    ck_assert_str_eq("cluster:job", ns);
    memset(cl, 0, sizeof(cl));
    memset(part, 0, sizeof(part)); /* parse writes only the characters it finds */
    PMIx_Multicluster_nspace_parse(ns, cl, part);
    ck_assert_str_eq("cluster", cl);
    ck_assert_str_eq("job", part);
}
END_TEST

START_TEST(info_flags_and_booleans)
{
    pmix_info_t i;
    pmix_value_t v;

    PMIx_Info_construct(&i);
    PMIx_Info_required(&i);
    ck_assert(PMIx_Info_is_required(&i));
    ck_assert(!PMIx_Info_is_optional(&i));
    PMIx_Info_optional(&i);
    ck_assert(PMIx_Info_is_optional(&i));
    PMIx_Info_processed(&i);
    ck_assert(PMIx_Info_was_processed(&i));
    PMIx_Info_set_end(&i);
    ck_assert(PMIx_Info_is_end(&i));
    PMIx_Info_qualifier(&i);
    ck_assert(PMIx_Info_is_qualifier(&i));
    ck_assert(!PMIx_Info_is_persistent(&i));
    PMIx_Info_persistent(&i);
    ck_assert(PMIx_Info_is_persistent(&i));
    PMIx_Info_destruct(&i);

    PMIx_Info_load(&i, "flag", NULL, PMIX_BOOL);
    ck_assert_int_eq(PMIX_BOOL_TRUE, PMIx_Info_true(&i));
    PMIx_Info_destruct(&i);
    PMIx_Value_construct(&v);
    PMIx_Value_load(&v, "no", PMIX_STRING);
    ck_assert_int_eq(PMIX_BOOL_FALSE, PMIx_Value_true(&v));
    PMIx_Value_destruct(&v);
    PMIx_Value_load(&v, &(int){3}, PMIX_INT);
    ck_assert_int_eq(PMIX_NON_BOOL, PMIx_Value_true(&v));
    ck_assert_int_eq(PMIX_NON_BOOL, PMIx_Value_true(NULL));
}
END_TEST

START_TEST(strings_and_codes)
{
    pmix_proc_t p;
    char *s;

    PMIx_Load_procid(&p, "job.1", 4);
    s = PMIx_Proc_string(&p);
    ck_assert_str_eq("[job.1,4]", s);
    free(s);
    p.rank = PMIX_RANK_WILDCARD;
    s = PMIx_Proc_string(&p);
    ck_assert_str_eq("[job.1,WILDCARD]", s);
    free(s);
    s = PMIx_Proc_string(NULL);
    ck_assert_str_eq("[NO-NAME]", s);
    free(s);

    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Error_code(PMIx_Error_string(PMIX_ERR_NOT_FOUND)));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Error_code("success"));
    ck_assert_int_eq(INT32_MIN, PMIx_Error_code("NO SUCH ERROR"));
    ck_assert_int_eq(INT32_MIN, PMIx_Error_code(NULL));

    pmix_app_t app;
    PMIx_App_construct(&app);
    app.cmd = strdup("hostname");
    PMIx_Argv_append_nosize(&app.argv, "hostname");
    app.maxprocs = 2;
    s = PMIx_App_string(&app);
    ck_assert_str_eq("CMD: hostname\n    ARGV:\n        ARGV[0]: hostname\n    ENV:\n        NONE\n"
                     "    CWD: NULL\n    MAXPROCS: 2\n    INFO: NONE",
                     s);
    free(s);
    PMIx_App_destruct(&app);
}
END_TEST

START_TEST(value_and_info_sizes)
{
    pmix_value_t v;
    pmix_info_t i;
    size_t sz = 0;

    PMIx_Value_construct(&v);
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Value_get_size(&v, &sz));
    PMIx_Value_load(&v, &(uint32_t){9}, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_get_size(&v, &sz));
    ck_assert_uint_eq(4, sz);
    PMIx_Value_load(&v, "hello", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_get_size(&v, &sz));
    ck_assert_uint_eq(6, sz);
    PMIx_Value_destruct(&v);

    /* an array of two strings: the array struct, two pointers and the characters */
    pmix_data_array_t *da = PMIx_Data_array_create(2, PMIX_STRING);
    ((char **)da->array)[0] = strdup("ab");
    ((char **)da->array)[1] = strdup("cde");
    PMIx_Value_load(&v, da, PMIX_DATA_ARRAY);
    PMIx_Data_array_free(da);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Value_get_size(&v, &sz));
    ck_assert_uint_eq(sizeof(pmix_data_array_t) + 2 * sizeof(char *) + 3 + 4, sz);
    PMIx_Value_destruct(&v);

    PMIx_Info_load(&i, "key", "xy", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_get_size(&i, &sz));
    ck_assert_uint_eq(sizeof(pmix_info_t) + 4 + 3, sz);
    PMIx_Info_destruct(&i);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_get_size(NULL, &sz));
}
END_TEST

START_TEST(info_list_prepend_and_walk)
{
    void *l = PMIx_Info_list_start(), *pos = NULL, *next = NULL;
    const char *keys[] = {"first", "second", "third"};
    int n = 0;

    ck_assert_ptr_null(PMIx_Info_list_get_info(l, NULL, &next));
    ck_assert_ptr_null(next);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(l, "second", NULL, PMIX_BOOL));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(l, "third", NULL, PMIX_BOOL));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_prepend(l, "first", "v", PMIX_STRING));
    do {
        pmix_info_t *info = PMIx_Info_list_get_info(l, pos, &next);
        ck_assert_ptr_nonnull(info);
        ck_assert_int_lt(n, 3);
        ck_assert_str_eq(keys[n], info->key);
        n++;
        pos = next;
    } while (NULL != pos);
    ck_assert_int_eq(3, n);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Info_list_prepend(l, NULL, NULL, PMIX_BOOL));

    pmix_data_array_t da;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_convert(l, &da));
    ck_assert_str_eq("first", ((pmix_info_t *)da.array)[0].key);
    ck_assert_str_eq("v", ((pmix_info_t *)da.array)[0].value.data.string);
    PMIx_Data_array_destruct(&da);
    PMIx_Info_list_release(l);
}
END_TEST

START_TEST(session_and_tool_queries)
{
    /* not initialized: session control is refused as such; no tool is connected */
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Session_control(1, NULL, 0, NULL, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Session_control(1, NULL, 2, NULL, NULL));
    ck_assert(!PMIx_tool_is_connected());
    pmix_server_module_t module;
    memset(&module, 0, sizeof(module));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_tool_set_server_module(&module));
}
END_TEST

START_TEST(framework_names_are_the_libraries)
{
    wu_mca_framework_t *const *fw = wu_mca_builtin_frameworks;
    size_t n = 0;

    for (; NULL != pmix_framework_names[n]; n++) {
        bool found = false;
        for (size_t k = 0; NULL != fw[k]; k++) {
            found = found || 0 == strcmp(fw[k]->name, pmix_framework_names[n]);
        }
        ck_assert_msg(found, "%s is not a framework of libpmix", pmix_framework_names[n]);
    }
    size_t nfw = 0;
    while (NULL != fw[nfw]) {
        nfw++;
    }
    ck_assert_uint_eq(nfw, n);
}
END_TEST

static Suite *pmix_api5_suite(void)
{
    Suite *s = suite_create("pmix_api5");
    TCase *tc = tcase_create("api5");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, lifecycles_free_what_they_own);
    tcase_add_test(tc, data_arrays_and_buffers);
    tcase_add_test(tc, argv_and_setenv);
    tcase_add_test(tc, checks_and_loads);
    tcase_add_test(tc, info_flags_and_booleans);
    tcase_add_test(tc, strings_and_codes);
    tcase_add_test(tc, value_and_info_sizes);
    tcase_add_test(tc, info_list_prepend_and_walk);
    tcase_add_test(tc, session_and_tool_queries);
    tcase_add_test(tc, framework_names_are_the_libraries);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_api5_suite)
