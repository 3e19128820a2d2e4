/* SPDX-License-Identifier: BSD-3-Clause */
/* check_gds_hash.c -- the gds framework with its hash component: RFC0009 put/fetch rules, bulk
 * registration, the foreign-namespace job data, resolve_peers/resolve_nodes, scale and purge. */
#include "mca/gds/gds.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "test/support/wu_test.h"

#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const wu_gds_module_t *gds;
static wu_gds_store_t *st;

static void setup(void)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    setenv("PMIX_MCA_gds", "hash", 1); /* shmem (the default) wraps it: tested on its own */
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_gds_base_open());
    gds = wu_gds_base_module();
    ck_assert_ptr_nonnull(gds);
    ck_assert_int_eq(PMIX_SUCCESS, gds->store_create(&st));
}

static void teardown(void)
{
    gds->store_release(st);
    st = NULL;
    wu_gds_base_close();
    wu_mca_base_close();
}

/* ---- small helpers ----------------------------------------------------------------------- */

static pmix_status_t put_u32(const char *ns, pmix_rank_t r, const char *key, uint32_t v)
{
    pmix_value_t val;
    PMIx_Value_load(&val, &v, PMIX_UINT32);
    return gds->put(st, ns, r, key, &val);
}

static pmix_status_t put_str(wu_gds_store_t *s, const char *ns, pmix_rank_t r, const char *key,
                             const char *v)
{
    pmix_value_t val = {.type = PMIX_STRING, .data.string = (char *)v};
    return gds->put(s, ns, r, key, &val);
}

/* Fetch and expect a uint32 v (or the error rc). */
static void want_u32(wu_gds_store_t *s, const char *ns, pmix_rank_t r, const char *key,
                     pmix_status_t rc, uint32_t v)
{
    pmix_value_t *val = (pmix_value_t *)0x1;
    ck_assert_int_eq(rc, gds->fetch(s, ns, r, key, &val));
    if (PMIX_SUCCESS == rc) {
        ck_assert_int_eq(PMIX_UINT32, val->type);
        ck_assert_uint_eq(v, val->data.uint32);
        PMIX_VALUE_RELEASE(val);
    } else {
        ck_assert_ptr_null(val);
    }
}

static void want_str(pmix_value_t *val, const char *s)
{
    ck_assert_ptr_nonnull(val);
    ck_assert_int_eq(PMIX_STRING, val->type);
    if (NULL == s) {
        ck_assert_ptr_null(val->data.string);
    } else {
        ck_assert_str_eq(s, val->data.string);
    }
    PMIX_VALUE_RELEASE(val);
}

/* ---- RFC0009 rules ----------------------------------------------------------------------- */

START_TEST(test_selected_hash)
{
    ck_assert_str_eq("hash", gds->name);
    ck_assert_int_eq(1, (int)wu_mca_gds_framework.nactive);
}
END_TEST

/* Puts and the single-table lookups that follow them. */
static const struct {
    pmix_rank_t rank;
    const char *key;
    pmix_status_t rc;
} put_cases[] = {
    {PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, PMIX_SUCCESS}, /* defined attribute, job level */
    {3, PMIX_LOCAL_RANK, PMIX_SUCCESS},                 /* defined attribute, proc level */
    {3, PMIX_HOSTNAME, PMIX_SUCCESS},                   /* Open MPI puts these */
    {3, PMIX_CPUSET, PMIX_SUCCESS},
    {3, "btl.tcp.addr", PMIX_SUCCESS},          /* ordinary application key */
    {3, "PMIX_LIKE_BUT_UPPER", PMIX_SUCCESS},   /* only lowercase "pmix" is reserved */
    {3, "pmix.my.private", PMIX_ERR_BAD_PARAM}, /* reserved, undefined */
    {PMIX_RANK_WILDCARD, "pmix", PMIX_ERR_BAD_PARAM},
    {3, "pmixfoo", PMIX_ERR_BAD_PARAM},
    {3, "", PMIX_ERR_BAD_PARAM},                /* empty key */
    {PMIX_RANK_UNDEF, "k", PMIX_ERR_BAD_PARAM}, /* special ranks cannot store */
    {PMIX_RANK_LOCAL_NODE, "k", PMIX_ERR_BAD_PARAM},
};

START_TEST(test_put_rules)
{
    for (size_t i = 0; i < WU_NELEMS(put_cases); i++) {
        ck_assert_msg(put_cases[i].rc == put_u32("ns", put_cases[i].rank, put_cases[i].key, 7),
                      "case %zu (%s)", i, put_cases[i].key);
        if (PMIX_ERR_BAD_PARAM == put_cases[i].rc &&
            ('\0' == put_cases[i].key[0] || PMIX_RANK_UNDEF == put_cases[i].rank ||
             PMIX_RANK_LOCAL_NODE == put_cases[i].rank)) {
            continue; /* nothing to look up */
        }
        /* what was stored is found under exactly that rank; refused keys are nowhere */
        want_u32(st, "ns", put_cases[i].rank, put_cases[i].key,
                 PMIX_SUCCESS == put_cases[i].rc ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, 7);
        want_u32(st, "ns", PMIX_RANK_WILDCARD == put_cases[i].rank ? 3 : PMIX_RANK_WILDCARD,
                 put_cases[i].key, PMIX_ERR_NOT_FOUND, 0);
    }
}
END_TEST

/* take_info moves the value into the store: the caller's info is left empty, the store has
 * the value (a replaced value is freed: ASan sees a leak otherwise), refusals leave it as it was. */
START_TEST(test_take_info)
{
    pmix_info_t info;
    pmix_value_t *val = NULL;
    char *big = malloc(70000);
    pmix_byte_object_t bo;
    ck_assert_ptr_nonnull(big);
    memset(big, 'x', 70000);
    bo.bytes = big;
    bo.size = 70000;
    PMIX_INFO_LOAD(&info, "blob.key", &bo, PMIX_BYTE_OBJECT); /* copies big */
    ck_assert_int_eq(PMIX_SUCCESS, gds->take_info(st, "ns", 1, &info));
    ck_assert_int_eq(PMIX_UNDEF, info.value.type);
    ck_assert_ptr_null(info.value.data.bo.bytes);
    PMIX_INFO_DESTRUCT(&info); /* nothing left to free */
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "ns", 1, "blob.key", &val));
    ck_assert_int_eq(PMIX_BYTE_OBJECT, val->type);
    ck_assert_uint_eq(70000, val->data.bo.size);
    ck_assert_int_eq(0, memcmp(big, val->data.bo.bytes, 70000));
    PMIX_VALUE_RELEASE(val);
    /* replacing a taken value */
    PMIX_INFO_LOAD(&info, "blob.key", "second", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, gds->take_info(st, "ns", 1, &info));
    PMIX_INFO_DESTRUCT(&info);
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "ns", 1, "blob.key", &val));
    want_str(val, "second");
    /* refused (reserved key, special rank): the info keeps its value */
    PMIX_INFO_LOAD(&info, "pmix.not.defined", "v", PMIX_STRING);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_info(st, "ns", 1, &info));
    ck_assert_int_eq(PMIX_STRING, info.value.type);
    ck_assert_str_eq("v", info.value.data.string);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_info(st, "ns", PMIX_RANK_UNDEF, &info));
    ck_assert_str_eq("v", info.value.data.string);
    PMIX_INFO_DESTRUCT(&info);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_info(st, "ns", 1, NULL));
    free(big);
}
END_TEST

/* Lookups: one table, no fallback between rank and wildcard. */
static const struct {
    pmix_rank_t rank;
    const char *key;
    pmix_status_t rc;
    uint32_t v;
} fetch_cases[] = {
    {PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_SUCCESS, 4},
    {0, PMIX_JOB_SIZE, PMIX_ERR_NOT_FOUND, 0}, /* job-level key asked with a real rank */
    {1, PMIX_LOCAL_RANK, PMIX_SUCCESS, 11},
    {PMIX_RANK_WILDCARD, PMIX_LOCAL_RANK, PMIX_ERR_NOT_FOUND, 0}, /* proc-level asked as job */
    {2, PMIX_LOCAL_RANK, PMIX_ERR_NOT_FOUND, 0},                  /* other rank */
    {1, "app.key", PMIX_SUCCESS, 5},
    {0, "app.key", PMIX_ERR_NOT_FOUND, 0},
    {PMIX_RANK_UNDEF, "app.key", PMIX_ERR_BAD_PARAM, 0},
};

START_TEST(test_fetch_single_table)
{
    pmix_value_t *val = NULL;
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("ns", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, 4));
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("ns", 1, PMIX_LOCAL_RANK, 11));
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("ns", 1, "app.key", 5));
    for (size_t i = 0; i < WU_NELEMS(fetch_cases); i++) {
        want_u32(st, "ns", fetch_cases[i].rank, fetch_cases[i].key, fetch_cases[i].rc,
                 fetch_cases[i].v);
    }
    want_u32(st, "other", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_ERR_NOT_FOUND, 0);
    /* replacing a value */
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("ns", 1, "app.key", 6));
    want_u32(st, "ns", 1, "app.key", PMIX_SUCCESS, 6);
    /* NULL strings are values like any other */
    ck_assert_int_eq(PMIX_SUCCESS, put_str(st, "ns", 1, "nullstr", NULL));
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "ns", 1, "nullstr", &val));
    want_str(val, NULL);
    /* put_info */
    {
        pmix_info_t info;
        PMIx_Info_load(&info, "from.info", "hello", PMIX_STRING);
        ck_assert_int_eq(PMIX_SUCCESS, gds->put_info(st, "ns", 2, &info));
        PMIx_Value_destruct(&info.value);
        PMIx_Info_load(&info, "pmix.not.defined", "hello", PMIX_STRING);
        wu_test_help_capture();
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put_info(st, "ns", 2, &info));
        (void)wu_test_help_captured();
        PMIx_Value_destruct(&info.value);
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put_info(st, "ns", 2, NULL));
    }
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "ns", 2, "from.info", &val));
    want_str(val, "hello");
}
END_TEST

START_TEST(test_reserved_key_message)
{
    const char *out;
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, put_u32("job7", 2, "pmix.my.secret", 1));
    out = wu_test_help_captured();
    ck_assert_ptr_nonnull(strstr(out, "pmix.my.secret"));
    ck_assert_ptr_nonnull(strstr(out, "reserved"));
    ck_assert_ptr_nonnull(strstr(out, "job7"));
}
END_TEST

START_TEST(test_bad_arguments)
{
    char longkey[PMIX_MAX_KEYLEN + 2], longns[PMIX_MAX_NSLEN + 2], maxkey[PMIX_MAX_KEYLEN + 1];
    pmix_value_t *val = NULL;
    uint32_t one = 1;
    pmix_value_t v;
    PMIx_Value_load(&v, &one, PMIX_UINT32);
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    memset(maxkey, 'm', sizeof maxkey - 1);
    maxkey[sizeof maxkey - 1] = '\0';
    memset(longns, 'n', sizeof longns - 1);
    longns[sizeof longns - 1] = '\0';
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(st, "ns", 0, longkey, &v));
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 0, maxkey, &v));
    want_u32(st, "ns", 0, maxkey, PMIX_SUCCESS, 1);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(st, "ns", 0, NULL, &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(st, "ns", 0, "k", NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(st, NULL, 0, "k", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(st, "", 0, "k", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(st, longns, 0, "k", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->put(NULL, "ns", 0, "k", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->fetch(st, "ns", 0, longkey, &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->fetch(st, "ns", 0, "k", NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->fetch(st, "ns", 0, "", &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->register_nspace(st, "ns", NULL, 2));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->register_nspace(st, "", NULL, 0));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->purge_nspace(st, NULL));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->purge_nspace(st, "never"));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM,
                     gds->fetch_node(st, "ns", NULL, WU_GDS_NODEID_NONE, "k", &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->store_create(NULL));
    ck_assert(!gds->has_nspace(st, NULL));
    gds->store_release(NULL);
}
END_TEST

/* ---- bulk registration ------------------------------------------------------------------- */

/* Append a PMIX_DATA_ARRAY entry named key holding the info list sub (released). */
static void add_array(void *list, const char *key, void *sub)
{
    pmix_data_array_t da;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_convert(sub, &da));
    PMIx_Info_list_release(sub);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_add(list, key, &da, PMIX_DATA_ARRAY));
    PMIx_Data_array_destruct(&da);
}

/* A host's registration: 4 ranks on 2 nodes (n0: 0,1; n1: 2,3), one app. with_peers: give
 * PMIX_LOCAL_PEERS; proc_host: give per-proc PMIX_HOSTNAME; proc_id: per-proc PMIX_NODEID. */
static void host_info(pmix_info_t **info, size_t *ninfo, bool with_peers, bool proc_host,
                      bool proc_id)
{
    void *l = PMIx_Info_list_start();
    uint32_t four = 4, two = 2, app = 0;
    pmix_data_array_t da;
    ck_assert_ptr_nonnull(l);
    PMIx_Info_list_add(l, PMIX_JOB_SIZE, &four, PMIX_UINT32);
    PMIx_Info_list_add(l, PMIX_UNIV_SIZE, &four, PMIX_UINT32);
    PMIx_Info_list_add(l, PMIX_NUM_NODES, &two, PMIX_UINT32);
    PMIx_Info_list_add(l, PMIX_NODE_MAP, "wu-regex:n[0-1]", PMIX_STRING);
    PMIx_Info_list_add(l, "host.private.key", NULL, PMIX_STRING); /* unknown key, NULL string */
    for (pmix_rank_t r = 0; r < 4; r++) {
        void *p = PMIx_Info_list_start();
        uint16_t lr = (uint16_t)(r % 2);
        uint32_t nid = r / 2;
        PMIx_Info_list_add(p, PMIX_RANK, &r, PMIX_PROC_RANK);
        PMIx_Info_list_add(p, PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
        PMIx_Info_list_add(p, PMIX_APPNUM, &app, PMIX_UINT32);
        if (proc_host) {
            PMIx_Info_list_add(p, PMIX_HOSTNAME, r < 2 ? "n0" : "n1", PMIX_STRING);
        }
        if (proc_id) {
            PMIx_Info_list_add(p, PMIX_NODEID, &nid, PMIX_UINT32);
        }
        add_array(l, PMIX_PROC_DATA, p);
    }
    for (uint32_t n = 0; n < 2; n++) {
        void *p = PMIx_Info_list_start();
        PMIx_Info_list_add(p, PMIX_HOSTNAME, n ? "n1" : "n0", PMIX_STRING);
        PMIx_Info_list_add(p, PMIX_NODEID, &n, PMIX_UINT32);
        PMIx_Info_list_add(p, PMIX_LOCAL_SIZE, &two, PMIX_UINT32);
        if (with_peers) {
            PMIx_Info_list_add(p, PMIX_LOCAL_PEERS, n ? "2,3" : "0,1", PMIX_STRING);
        }
        add_array(l, PMIX_NODE_INFO_ARRAY, p);
    }
    {
        void *p = PMIx_Info_list_start();
        PMIx_Info_list_add(p, PMIX_APPNUM, &app, PMIX_UINT32);
        PMIx_Info_list_add(p, PMIX_APP_SIZE, &four, PMIX_UINT32);
        add_array(l, PMIX_APP_INFO_ARRAY, p);
    }
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Info_list_convert(l, &da));
    PMIx_Info_list_release(l);
    *info = da.array;
    *ninfo = da.size;
}

static void register_job(wu_gds_store_t *s, const char *ns, bool peers, bool host, bool id)
{
    pmix_info_t *info;
    size_t n;
    host_info(&info, &n, peers, host, id);
    ck_assert_int_eq(PMIX_SUCCESS, gds->register_nspace(s, ns, info, n));
    PMIX_INFO_FREE(info, n);
}

START_TEST(test_register_nspace)
{
    pmix_value_t *val = NULL;
    register_job(st, "job1", true, true, true);
    ck_assert(gds->has_nspace(st, "job1"));
    want_u32(st, "job1", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_SUCCESS, 4);
    want_u32(st, "job1", 0, PMIX_JOB_SIZE, PMIX_ERR_NOT_FOUND, 0);
    want_u32(st, "job1", PMIX_RANK_WILDCARD, PMIX_NUM_NODES, PMIX_SUCCESS, 2);
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "job1", PMIX_RANK_WILDCARD, PMIX_NODE_MAP, &val));
    want_str(val, "wu-regex:n[0-1]");
    ck_assert_int_eq(PMIX_SUCCESS,
                     gds->fetch(st, "job1", PMIX_RANK_WILDCARD, "host.private.key", &val));
    want_str(val, NULL);
    for (pmix_rank_t r = 0; r < 4; r++) {
        ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "job1", r, PMIX_LOCAL_RANK, &val));
        ck_assert_int_eq(PMIX_UINT16, val->type);
        ck_assert_uint_eq(r % 2, val->data.uint16);
        PMIX_VALUE_RELEASE(val);
        want_u32(st, "job1", r, PMIX_NODEID, PMIX_SUCCESS, r / 2);
        ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "job1", r, PMIX_HOSTNAME, &val));
        want_str(val, r < 2 ? "n0" : "n1");
    }
    want_u32(st, "job1", 4, PMIX_LOCAL_RANK, PMIX_ERR_NOT_FOUND, 0);
    want_u32(st, "job1", PMIX_RANK_WILDCARD, PMIX_LOCAL_RANK, PMIX_ERR_NOT_FOUND, 0);
    /* node level, by name and by id */
    ck_assert_int_eq(PMIX_SUCCESS,
                     gds->fetch_node(st, "job1", "n1", WU_GDS_NODEID_NONE, PMIX_LOCAL_PEERS, &val));
    want_str(val, "2,3");
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch_node(st, "job1", NULL, 0, PMIX_LOCAL_PEERS, &val));
    want_str(val, "0,1");
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch_node(st, "job1", NULL, 1, PMIX_HOSTNAME, &val));
    want_str(val, "n1");
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND,
                     gds->fetch_node(st, "job1", "n9", WU_GDS_NODEID_NONE, PMIX_LOCAL_PEERS, &val));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND,
                     gds->fetch_node(st, "job1", NULL, 7, PMIX_LOCAL_PEERS, &val));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND,
                     gds->fetch_node(st, "job1", "n0", WU_GDS_NODEID_NONE, "absent", &val));
    /* app level */
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch_app(st, "job1", 0, PMIX_APP_SIZE, &val));
    ck_assert_uint_eq(4, val->data.uint32);
    PMIX_VALUE_RELEASE(val);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch_app(st, "job1", 1, PMIX_APP_SIZE, &val));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch_app(st, "nojob", 0, PMIX_APP_SIZE, &val));
    /* a second registration updates */
    {
        pmix_info_t info;
        uint32_t eight = 8;
        PMIx_Info_load(&info, PMIX_JOB_SIZE, &eight, PMIX_UINT32);
        ck_assert_int_eq(PMIX_SUCCESS, gds->register_nspace(st, "job1", &info, 1));
        PMIx_Value_destruct(&info.value);
    }
    want_u32(st, "job1", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_SUCCESS, 8);
    /* an empty registration creates the namespace */
    ck_assert_int_eq(PMIX_SUCCESS, gds->register_nspace(st, "empty", NULL, 0));
    ck_assert(gds->has_nspace(st, "empty"));
    /* the host may store reserved undefined keys (trusted) */
    {
        pmix_info_t info;
        PMIx_Info_load(&info, "pmix.host.internal", "x", PMIX_STRING);
        ck_assert_int_eq(PMIX_SUCCESS, gds->register_nspace(st, "job1", &info, 1));
        PMIx_Value_destruct(&info.value);
    }
}
END_TEST

/* Malformed arrays are refused with BAD_PARAM and a message. */
START_TEST(test_register_malformed)
{
    void *l, *p;
    pmix_data_array_t da;
    uint32_t one = 1;
    pmix_info_t bad;
    const char *out;
    wu_test_help_capture();
    /* proc data whose first element is not the rank */
    l = PMIx_Info_list_start();
    p = PMIx_Info_list_start();
    PMIx_Info_list_add(p, PMIX_LOCAL_RANK, &one, PMIX_UINT16);
    add_array(l, PMIX_PROC_DATA, p);
    PMIx_Info_list_convert(l, &da);
    PMIx_Info_list_release(l);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->register_nspace(st, "bad", da.array, da.size));
    PMIx_Data_array_destruct(&da);
    /* node array naming no node */
    l = PMIx_Info_list_start();
    p = PMIx_Info_list_start();
    PMIx_Info_list_add(p, PMIX_LOCAL_SIZE, &one, PMIX_UINT32);
    add_array(l, PMIX_NODE_INFO_ARRAY, p);
    PMIx_Info_list_convert(l, &da);
    PMIx_Info_list_release(l);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->register_nspace(st, "bad", da.array, da.size));
    PMIx_Data_array_destruct(&da);
    /* an array key with a non-array value */
    PMIx_Info_load(&bad, PMIX_PROC_DATA, &one, PMIX_UINT32);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->register_nspace(st, "bad", &bad, 1));
    PMIx_Value_destruct(&bad.value);
    out = wu_test_help_captured();
    ck_assert_ptr_nonnull(strstr(out, "PMIX_PROC_DATA"));
    ck_assert_ptr_nonnull(strstr(out, "PMIX_NODE_INFO_ARRAY"));
    ck_assert_ptr_nonnull(strstr(out, "PMIX_RANK"));
}
END_TEST

/* ---- another namespace (RFC0009) --------------------------------------------------------- */

START_TEST(test_foreign_job_data)
{
    wu_gds_store_t *client;
    pmix_info_t *info = (pmix_info_t *)0x1;
    size_t n = 99;
    pmix_value_t *val = NULL;
    register_job(st, "jobA", true, false, false);
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("jobA", 2, "peer.key", 42));
    ck_assert_int_eq(PMIX_SUCCESS, gds->export_proc(st, "jobA", PMIX_RANK_WILDCARD, &info, &n));
    ck_assert_uint_eq(5, n); /* job size, univ size, num nodes, node map, host key */
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_ne(info[i].key, "peer.key");
        ck_assert_str_ne(info[i].key, PMIX_LOCAL_RANK);
    }
    /* the client caches it and answers job-level gets locally */
    ck_assert_int_eq(PMIX_SUCCESS, gds->store_create(&client));
    ck_assert(!gds->has_nspace(client, "jobA"));
    ck_assert_int_eq(PMIX_SUCCESS, gds->import_job(client, "jobA", info, n));
    PMIX_INFO_FREE(info, n);
    ck_assert(gds->has_nspace(client, "jobA"));
    want_u32(client, "jobA", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_SUCCESS, 4);
    want_u32(client, "jobA", 2, "peer.key", PMIX_ERR_NOT_FOUND, 0);
    want_u32(client, "jobA", 0, PMIX_JOB_SIZE, PMIX_ERR_NOT_FOUND, 0);
    ck_assert_int_eq(PMIX_SUCCESS,
                     gds->fetch(client, "jobA", PMIX_RANK_WILDCARD, "host.private.key", &val));
    want_str(val, NULL);
    /* the peer's own data comes with the reply and is stored under its rank */
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("jobA", 2, "peer.key", 0)); /* server side change */
    {
        pmix_value_t v;
        uint32_t x = 42;
        PMIx_Value_load(&v, &x, PMIX_UINT32);
        ck_assert_int_eq(PMIX_SUCCESS, gds->put(client, "jobA", 2, "peer.key", &v));
    }
    want_u32(client, "jobA", 2, "peer.key", PMIX_SUCCESS, 42);
    want_u32(st, "jobA", 2, "peer.key", PMIX_SUCCESS, 0); /* stores are independent */
    /* errors and empty sets */
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND,
                     gds->export_proc(st, "nojob", PMIX_RANK_WILDCARD, &info, &n));
    ck_assert_ptr_null(info);
    ck_assert_uint_eq(0, n);
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("procsonly", 0, "k", 1));
    ck_assert_int_eq(PMIX_SUCCESS,
                     gds->export_proc(st, "procsonly", PMIX_RANK_WILDCARD, &info, &n));
    ck_assert_ptr_null(info);
    ck_assert_uint_eq(0, n);
    ck_assert_int_eq(PMIX_SUCCESS, gds->import_job(client, "nothing", NULL, 0));
    ck_assert(gds->has_nspace(client, "nothing"));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->import_job(client, "x", NULL, 1));
    gds->store_release(client);
}
END_TEST

/* ---- walking a process's set without copying it ------------------------------------------ */

typedef struct {
    size_t n;
    uint64_t sum;
    size_t stop_at;
} walk_t;

static pmix_status_t walk_one(const char *key, const pmix_value_t *val, void *ctx)
{
    walk_t *w = ctx;
    ck_assert_int_eq(0, strncmp(key, "w.", 2));
    ck_assert_uint_eq(PMIX_UINT32, val->type);
    w->sum += val->data.uint32;
    return ++w->n == w->stop_at ? PMIX_ERR_EXISTS : PMIX_SUCCESS;
}

START_TEST(test_each_proc)
{
    walk_t w = {0};
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("jobW", 1, "w.a", 1));
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("jobW", 1, "w.b", 20));
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("jobW", 1, "w.c", 300));
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("jobW", 1, "w.b", 4000)); /* replaced, not added */
    ck_assert_int_eq(PMIX_SUCCESS, gds->each_proc(st, "jobW", 1, walk_one, &w));
    ck_assert_uint_eq(3, w.n);
    ck_assert_uint_eq(4301, w.sum);
    /* the walk stops at the callback's error */
    memset(&w, 0, sizeof w);
    w.stop_at = 2;
    ck_assert_int_eq(PMIX_ERR_EXISTS, gds->each_proc(st, "jobW", 1, walk_one, &w));
    ck_assert_uint_eq(2, w.n);
    /* unknown namespace or rank; a namespace without job-level data has an empty set */
    memset(&w, 0, sizeof w);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->each_proc(st, "nojob", 1, walk_one, &w));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->each_proc(st, "jobW", 2, walk_one, &w));
    ck_assert_int_eq(PMIX_SUCCESS, gds->each_proc(st, "jobW", PMIX_RANK_WILDCARD, walk_one, &w));
    ck_assert_uint_eq(0, w.n);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->each_proc(st, "jobW", 1, NULL, &w));
    /* fetch_view: the store's own value, no copy; NOT_FOUND as fetch */
    {
        const pmix_value_t *v1 = NULL, *v2 = NULL;
        ck_assert_int_eq(PMIX_SUCCESS, gds->fetch_view(st, "jobW", 1, "w.b", &v1));
        ck_assert_int_eq(PMIX_SUCCESS, gds->fetch_view(st, "jobW", 1, "w.b", &v2));
        ck_assert_ptr_eq(v1, v2);
        ck_assert_uint_eq(4000, v1->data.uint32);
        ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch_view(st, "jobW", 1, "w.none", &v1));
        ck_assert_ptr_null(v1);
        ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch_view(st, "jobW", 2, "w.b", &v1));
        ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch_view(st, "nojob", 1, "w.b", &v1));
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->fetch_view(st, "jobW", 1, NULL, &v1));
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->fetch_view(st, "jobW", 1, "w.b", NULL));
    }
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->each_proc(st, "", 1, walk_one, &w));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->each_proc(st, "jobW", PMIX_RANK_UNDEF, walk_one, &w));
}
END_TEST

/* ---- a process's committed set (the server's per-scope stores) --------------------------- */

START_TEST(test_take_proc)
{
    pmix_info_t *set, *out = NULL;
    size_t n = 0;
    uint32_t x = 7;
    char **names = NULL;

    /* nothing stored: no table */
    ck_assert(!gds->has_proc(st, "jobT", 0));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->export_proc(st, "jobT", 0, &out, &n));
    /* an empty commit still marks the proc */
    ck_assert_int_eq(PMIX_SUCCESS, gds->take_proc(st, "jobT", 0, NULL, 0));
    ck_assert(gds->has_proc(st, "jobT", 0));
    ck_assert(!gds->has_proc(st, "jobT", 1));
    ck_assert(!gds->has_proc(st, "jobT", PMIX_RANK_WILDCARD));
    ck_assert_int_eq(PMIX_SUCCESS, gds->export_proc(st, "jobT", 0, &out, &n));
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(0, n);
    /* a set moves in: values are taken, a reserved key stops it with what came before kept */
    PMIX_INFO_CREATE(set, 3);
    PMIX_INFO_LOAD(&set[0], "a.key", &x, PMIX_UINT32);
    PMIX_INFO_LOAD(&set[1], "b.key", "text", PMIX_STRING);
    PMIX_INFO_LOAD(&set[2], "pmix.not.defined", &x, PMIX_UINT32);
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_proc(st, "jobT", 1, set, 3));
    ck_assert_int_eq(PMIX_UNDEF, set[0].value.type);
    ck_assert_int_eq(PMIX_UNDEF, set[1].value.type);
    ck_assert_int_eq(PMIX_UINT32, set[2].value.type);
    PMIX_INFO_FREE(set, 3);
    want_u32(st, "jobT", 1, "a.key", PMIX_SUCCESS, 7);
    ck_assert_int_eq(PMIX_SUCCESS, gds->export_proc(st, "jobT", 1, &out, &n));
    ck_assert_uint_eq(2, n);
    ck_assert(0 == strcmp(out[0].key, "a.key") || 0 == strcmp(out[1].key, "a.key"));
    PMIX_INFO_FREE(out, n);
    /* a second commit replaces values of the same key and keeps the others */
    x = 8;
    PMIX_INFO_CREATE(set, 1);
    PMIX_INFO_LOAD(&set[0], "a.key", &x, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, gds->take_proc(st, "jobT", 1, set, 1));
    PMIX_INFO_FREE(set, 1);
    want_u32(st, "jobT", 1, "a.key", PMIX_SUCCESS, 8);
    ck_assert_int_eq(PMIX_SUCCESS, gds->export_proc(st, "jobT", 1, &out, &n));
    ck_assert_uint_eq(2, n);
    PMIX_INFO_FREE(out, n);
    /* namespaces with job-level data, in the order they were first stored */
    ck_assert_int_eq(PMIX_SUCCESS, gds->job_nspaces(st, &names));
    ck_assert_ptr_null(names); /* jobT has only process data */
    ck_assert_int_eq(PMIX_SUCCESS, gds->import_job(st, "zeta", NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, gds->take_proc(st, "alpha", PMIX_RANK_WILDCARD, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, gds->import_job(st, "jobT", NULL, 0));
    ck_assert(gds->has_proc(st, "zeta", PMIX_RANK_WILDCARD));
    ck_assert_int_eq(PMIX_SUCCESS, gds->job_nspaces(st, &names));
    ck_assert_ptr_nonnull(names);
    ck_assert_str_eq("jobT", names[0]); /* created first, by the empty commit above */
    ck_assert_str_eq("zeta", names[1]);
    ck_assert_str_eq("alpha", names[2]);
    ck_assert_ptr_null(names[3]);
    wu_argv_free(names);
    /* bad arguments */
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_proc(st, "jobT", 0, NULL, 1));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_proc(st, "", 0, NULL, 0));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->take_proc(st, "jobT", PMIX_RANK_LOCAL_NODE, NULL, 0));
    ck_assert(!gds->has_proc(st, NULL, 0));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->job_nspaces(st, NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->export_proc(st, "jobT", PMIX_RANK_UNDEF, &out, &n));
}
END_TEST

/* ---- resolve (every case of the seed) ---------------------------------------------------- */

static void want_procs(const char *ns, const char *node, pmix_status_t rc, const char *ranks)
{
    pmix_proc_t *procs = (pmix_proc_t *)0x1;
    size_t n = 77;
    char got[256] = "";
    ck_assert_int_eq(rc, gds->resolve_peers(st, ns, node, &procs, &n));
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(ns, procs[i].nspace);
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%u", i ? "," : "",
                 (unsigned)procs[i].rank);
    }
    if (NULL == ranks) {
        ck_assert_ptr_null(procs);
        ck_assert_uint_eq(0, n);
    } else {
        ck_assert_str_eq(ranks, got);
        PMIX_PROC_FREE(procs, n);
    }
}

START_TEST(test_resolve)
{
    char *nodes = (char *)0x1;
    register_job(st, "peers", true, false, false);    /* PMIX_LOCAL_PEERS given */
    register_job(st, "byhost", false, true, false);   /* rebuilt from per-proc hostname */
    register_job(st, "byid", false, false, true);     /* rebuilt from per-proc node id */
    register_job(st, "nothing", false, false, false); /* cannot be rebuilt */
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("nonodes", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, 1));

    /* unknown namespace */
    want_procs("unknown", "n0", PMIX_ERR_INVALID_NAMESPACE, NULL);
    ck_assert_int_eq(PMIX_ERR_INVALID_NAMESPACE, gds->resolve_nodes(st, "unknown", &nodes));
    ck_assert_ptr_null(nodes);
    /* namespace without nodes */
    ck_assert_int_eq(PMIX_SUCCESS, gds->resolve_nodes(st, "nonodes", &nodes));
    ck_assert_ptr_null(nodes);
    want_procs("nonodes", "n0", PMIX_SUCCESS, NULL);
    /* node not in the namespace */
    want_procs("peers", "n7", PMIX_SUCCESS, NULL);
    want_procs("nothing", "n7", PMIX_SUCCESS, NULL);
    /* PMIX_LOCAL_PEERS present */
    want_procs("peers", "n0", PMIX_SUCCESS, "0,1");
    want_procs("peers", "n1", PMIX_SUCCESS, "2,3");
    /* absent: rebuilt, or not found */
    want_procs("byhost", "n1", PMIX_SUCCESS, "2,3");
    want_procs("byid", "n0", PMIX_SUCCESS, "0,1");
    want_procs("nothing", "n0", PMIX_ERR_DATA_VALUE_NOT_FOUND, NULL);
    /* node list, registration order */
    ck_assert_int_eq(PMIX_SUCCESS, gds->resolve_nodes(st, "peers", &nodes));
    ck_assert_str_eq("n0,n1", nodes);
    free(nodes);

    /* node assigned but no process on it: NULL peer list, and an empty one */
    {
        void *l = PMIx_Info_list_start(), *p;
        pmix_data_array_t da;
        for (int i = 0; i < 2; i++) {
            p = PMIx_Info_list_start();
            PMIx_Info_list_add(p, PMIX_HOSTNAME, i ? "idle2" : "idle", PMIX_STRING);
            PMIx_Info_list_add(p, PMIX_LOCAL_PEERS, i ? "" : NULL, PMIX_STRING);
            add_array(l, PMIX_NODE_INFO_ARRAY, p);
        }
        p = PMIx_Info_list_start();
        PMIx_Info_list_add(p, PMIX_HOSTNAME, "broken", PMIX_STRING);
        PMIx_Info_list_add(p, PMIX_LOCAL_PEERS, "0,x", PMIX_STRING);
        add_array(l, PMIX_NODE_INFO_ARRAY, p);
        PMIx_Info_list_convert(l, &da);
        PMIx_Info_list_release(l);
        ck_assert_int_eq(PMIX_SUCCESS, gds->register_nspace(st, "peers", da.array, da.size));
        PMIx_Data_array_destruct(&da);
    }
    want_procs("peers", "idle", PMIX_SUCCESS, NULL);
    want_procs("peers", "idle2", PMIX_SUCCESS, NULL);
    want_procs("peers", "broken", PMIX_ERR_BAD_PARAM, NULL);
    ck_assert_int_eq(PMIX_SUCCESS, gds->resolve_nodes(st, "peers", &nodes));
    ck_assert_str_eq("n0,n1,idle,idle2,broken", nodes);
    free(nodes);
    /* bad arguments */
    {
        pmix_proc_t *procs;
        size_t n;
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->resolve_peers(st, "peers", NULL, &procs, &n));
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->resolve_peers(st, NULL, "n0", &procs, &n));
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->resolve_nodes(st, "peers", NULL));
    }
}
END_TEST

/* ---- scale and purge --------------------------------------------------------------------- */

START_TEST(test_many_keys)
{
    char key[32];
    enum { NKEYS = 10000 };
    for (uint32_t i = 0; i < NKEYS; i++) {
        snprintf(key, sizeof key, "key.%u", i);
        ck_assert_int_eq(PMIX_SUCCESS, put_u32("big", 5, key, i * 3));
    }
    for (uint32_t i = 0; i < NKEYS; i++) {
        snprintf(key, sizeof key, "key.%u", i);
        want_u32(st, "big", 5, key, PMIX_SUCCESS, i * 3);
        want_u32(st, "big", 4, key, PMIX_ERR_NOT_FOUND, 0);
    }
    ck_assert_int_eq(PMIX_SUCCESS, gds->purge_nspace(st, "big"));
    want_u32(st, "big", 5, "key.1", PMIX_ERR_NOT_FOUND, 0);
}
END_TEST

START_TEST(test_many_namespaces)
{
    char ns[32];
    enum { NNS = 1000 };
    for (uint32_t i = 0; i < NNS; i++) {
        snprintf(ns, sizeof ns, "job.%u", i);
        ck_assert_int_eq(PMIX_SUCCESS, put_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, i));
        ck_assert_int_eq(PMIX_SUCCESS, put_u32(ns, i % 7, "r", i));
    }
    for (uint32_t i = 0; i < NNS; i += 2) {
        snprintf(ns, sizeof ns, "job.%u", i);
        ck_assert_int_eq(PMIX_SUCCESS, gds->purge_nspace(st, ns));
    }
    for (uint32_t i = 0; i < NNS; i++) {
        snprintf(ns, sizeof ns, "job.%u", i);
        ck_assert(gds->has_nspace(st, ns) == (i % 2 == 1));
        want_u32(st, ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE,
                 i % 2 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, i);
        want_u32(st, ns, i % 7, "r", i % 2 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, i);
    }
    /* the rest is freed by store_release (LeakSanitizer checks in the sanitizer build) */
}
END_TEST

START_TEST(test_purge)
{
    pmix_value_t *val = NULL;
    pmix_proc_t *procs;
    size_t n;
    char *nodes;
    register_job(st, "gone", true, true, true);
    register_job(st, "kept", true, true, true);
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("gone", 1, "k", 1));
    ck_assert_int_eq(PMIX_SUCCESS, gds->purge_nspace(st, "gone"));
    ck_assert(!gds->has_nspace(st, "gone"));
    want_u32(st, "gone", 1, "k", PMIX_ERR_NOT_FOUND, 0);
    want_u32(st, "gone", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_ERR_NOT_FOUND, 0);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND,
                     gds->fetch_node(st, "gone", "n0", WU_GDS_NODEID_NONE, PMIX_LOCAL_PEERS, &val));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch_app(st, "gone", 0, PMIX_APP_SIZE, &val));
    ck_assert_int_eq(PMIX_ERR_INVALID_NAMESPACE, gds->resolve_peers(st, "gone", "n0", &procs, &n));
    ck_assert_int_eq(PMIX_ERR_INVALID_NAMESPACE, gds->resolve_nodes(st, "gone", &nodes));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->purge_nspace(st, "gone"));
    want_u32(st, "kept", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_SUCCESS, 4);
    /* re-registering after a purge starts from nothing */
    ck_assert_int_eq(PMIX_SUCCESS, put_u32("gone", 2, "k2", 2));
    want_u32(st, "gone", 1, "k", PMIX_ERR_NOT_FOUND, 0);
    want_u32(st, "gone", 2, "k2", PMIX_SUCCESS, 2);
}
END_TEST

static Suite *gds_hash_suite(void)
{
    Suite *s = suite_create("gds_hash");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_selected_hash);
    tcase_add_test(tc, test_put_rules);
    tcase_add_test(tc, test_take_info);
    tcase_add_test(tc, test_fetch_single_table);
    tcase_add_test(tc, test_reserved_key_message);
    tcase_add_test(tc, test_bad_arguments);
    tcase_add_test(tc, test_register_nspace);
    tcase_add_test(tc, test_register_malformed);
    tcase_add_test(tc, test_foreign_job_data);
    tcase_add_test(tc, test_take_proc);
    tcase_add_test(tc, test_each_proc);
    tcase_add_test(tc, test_resolve);
    tcase_add_test(tc, test_many_keys);
    tcase_add_test(tc, test_many_namespaces);
    tcase_add_test(tc, test_purge);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(gds_hash_suite)
