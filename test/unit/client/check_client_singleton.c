/* SPDX-License-Identifier: BSD-3-Clause */
/* check_client_singleton.c -- the PMIx client without a server: a singleton's identity, job
 * data, Put/Commit/Get of its own data, fences over itself, Store_internal, Resolve, Query
 * (the ABI versions also before PMIx_Init),
 * Log and Job_control. The server's environment variables are removed before each test. */
#include "test/support/wu_test.h"

#include "pmix.h"

#include <stdatomic.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t me;

static void setup(void)
{
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    unsetenv("WU_PMIX_SERVER_URI");
    unsetenv("PMIX_HOSTNAME");
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0));
}

static void teardown(void)
{
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    ck_assert_int_eq(0, PMIx_Initialized());
}

static pmix_value_t *get_ok(const pmix_proc_t *p, const char *key, const pmix_info_t *info,
                            size_t ninfo, pmix_data_type_t type)
{
    pmix_value_t *v = NULL;
    ck_assert_msg(PMIX_SUCCESS == PMIx_Get(p, key, info, ninfo, &v), "Get %s", key);
    ck_assert_ptr_nonnull(v);
    ck_assert_msg(type == v->type, "%s: type %d, want %d", key, v->type, type);
    return v;
}

START_TEST(init_twice_same_identity)
{
    pmix_proc_t again;
    char host[256], want[600];
    ck_assert_int_eq(1, PMIx_Initialized());
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&again, NULL, 0));
    ck_assert(PMIX_CHECK_PROCID(&me, &again));
    ck_assert_int_eq(0, me.rank);
    gethostname(host, sizeof host);
    snprintf(want, sizeof want, "singleton.%s.%ld", host, (long)getpid());
    ck_assert_str_eq(want, me.nspace);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    ck_assert_int_eq(1, PMIx_Initialized()); /* only the last Finalize ends it */
    /* NULL proc and info are fine */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(NULL, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
}
END_TEST

START_TEST(finalize_without_init)
{
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Finalize(NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0)); /* for the teardown */
}
END_TEST

static const struct {
    const char *key;
    bool wildcard;
    pmix_data_type_t type;
    unsigned value;
} job_keys[] = {
    {PMIX_JOB_SIZE, true, PMIX_UINT32, 1},   {PMIX_UNIV_SIZE, true, PMIX_UINT32, 1},
    {PMIX_MAX_PROCS, true, PMIX_UINT32, 1},  {PMIX_LOCAL_SIZE, true, PMIX_UINT32, 1},
    {PMIX_NUM_NODES, true, PMIX_UINT32, 1},  {PMIX_LOCAL_RANK, false, PMIX_UINT16, 0},
    {PMIX_NODE_RANK, false, PMIX_UINT16, 0}, {PMIX_APPNUM, false, PMIX_UINT32, 0},
    {PMIX_NODEID, false, PMIX_UINT32, 0},    {PMIX_RANK, false, PMIX_PROC_RANK, 0},
};

START_TEST(job_data_types)
{
    pmix_proc_t p = me;
    pmix_value_t *v;
    unsigned got = 99;
    p.rank = job_keys[_i].wildcard ? PMIX_RANK_WILDCARD : me.rank;
    v = get_ok(&p, job_keys[_i].key, NULL, 0, job_keys[_i].type);
    switch (v->type) {
    case PMIX_UINT32:
        got = v->data.uint32;
        break;
    case PMIX_UINT16:
        got = v->data.uint16;
        break;
    case PMIX_PROC_RANK:
        got = v->data.rank;
        break;
    default:
        break;
    }
    ck_assert_uint_eq(job_keys[_i].value, got);
    PMIX_VALUE_RELEASE(v);
    /* RFC0009: one lookup -- the other table does not answer; but a key that describes the node
     * (PMIX_LOCAL_SIZE), asked of a process, is answered from its node's data, as OpenPMIx does */
    p.rank = job_keys[_i].wildcard ? me.rank : PMIX_RANK_WILDCARD;
    v = NULL;
    if (0 == strcmp(PMIX_LOCAL_SIZE, job_keys[_i].key)) {
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&p, job_keys[_i].key, NULL, 0, &v));
        ck_assert_uint_eq(job_keys[_i].value, v->data.uint32);
        PMIX_VALUE_RELEASE(v);
        return;
    }
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&p, job_keys[_i].key, NULL, 0, &v));
    ck_assert_ptr_null(v);
}
END_TEST

START_TEST(job_strings_and_node_app)
{
    pmix_proc_t w = me;
    pmix_info_t info[2];
    pmix_value_t *v;
    char host[256];
    gethostname(host, sizeof host);
    w.rank = PMIX_RANK_WILDCARD;
    v = get_ok(&w, PMIX_LOCAL_PEERS, NULL, 0, PMIX_STRING);
    ck_assert_str_eq("0", v->data.string);
    PMIX_VALUE_RELEASE(v);
    v = get_ok(&w, PMIX_NODE_LIST, NULL, 0, PMIX_STRING);
    ck_assert_str_eq(host, v->data.string);
    PMIX_VALUE_RELEASE(v);
    v = get_ok(&me, PMIX_HOSTNAME, NULL, 0, PMIX_STRING);
    ck_assert_str_eq(host, v->data.string);
    PMIX_VALUE_RELEASE(v);
    /* node data: own node by default, by name, by id */
    PMIX_INFO_LOAD(&info[0], PMIX_NODE_INFO, NULL, PMIX_BOOL);
    v = get_ok(&w, PMIX_LOCAL_SIZE, info, 1, PMIX_UINT32);
    ck_assert_uint_eq(1, v->data.uint32);
    PMIX_VALUE_RELEASE(v);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, host, PMIX_STRING);
    v = get_ok(&w, PMIX_NODE_SIZE, info, 2, PMIX_UINT32);
    PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, "no-such-node", PMIX_STRING);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&w, PMIX_NODE_SIZE, info, 2, &v));
    PMIX_INFO_DESTRUCT(&info[1]);
    /* app data */
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_LOAD(&info[0], PMIX_APP_INFO, NULL, PMIX_BOOL);
    v = get_ok(&w, PMIX_APP_SIZE, info, 1, PMIX_UINT32);
    ck_assert_uint_eq(1, v->data.uint32);
    PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&info[0]);
    /* a NULL key with the wildcard: all job-level data */
    v = get_ok(&w, NULL, NULL, 0, PMIX_DATA_ARRAY);
    ck_assert_int_eq(PMIX_INFO, v->data.darray->type);
    ck_assert_uint_ge(v->data.darray->size, 5);
    PMIX_VALUE_RELEASE(v);
    /* NULL proc: own namespace, job level */
    v = get_ok(NULL, PMIX_JOB_SIZE, NULL, 0, PMIX_UINT32);
    PMIX_VALUE_RELEASE(v);
}
END_TEST

static const pmix_scope_t scopes[] = {PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL, PMIX_INTERNAL};

START_TEST(put_commit_get_scopes)
{
    char key[32];
    pmix_value_t val, *v;
    snprintf(key, sizeof key, "my.key.%d", _i);
    PMIX_VALUE_LOAD(&val, "hello", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Put(scopes[_i], key, &val));
    PMIX_VALUE_DESTRUCT(&val);
    v = get_ok(&me, key, NULL, 0, PMIX_STRING); /* visible before the commit */
    ck_assert_str_eq("hello", v->data.string);
    PMIX_VALUE_RELEASE(v);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Commit());
    v = get_ok(&me, key, NULL, 0, PMIX_STRING);
    PMIX_VALUE_RELEASE(v);
    /* a second put replaces */
    PMIX_VALUE_LOAD(&val, "again", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Put(scopes[_i], key, &val));
    PMIX_VALUE_DESTRUCT(&val);
    v = get_ok(&me, key, NULL, 0, PMIX_STRING);
    ck_assert_str_eq("again", v->data.string);
    PMIX_VALUE_RELEASE(v);
}
END_TEST

START_TEST(put_bad_and_reserved)
{
    pmix_value_t val, *v = NULL;
    char cpuset[] = "0-1";
    PMIX_VALUE_LOAD(&val, cpuset, PMIX_STRING);
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Put(PMIX_GLOBAL, "pmix.my.own", &val));
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), "pmix.my.own"));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Put(PMIX_GLOBAL, NULL, &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Put(PMIX_GLOBAL, "", &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Put(PMIX_GLOBAL, "x", NULL));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Put((pmix_scope_t)9, "x", &val));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&me, "pmix.my.own", NULL, 0, &v));
    /* a Standard attribute is accepted (Open MPI puts these) */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Put(PMIX_GLOBAL, PMIX_CPUSET, &val));
    PMIX_VALUE_DESTRUCT(&val);
    v = get_ok(&me, PMIX_CPUSET, NULL, 0, PMIX_STRING);
    ck_assert_str_eq("0-1", v->data.string);
    PMIX_VALUE_RELEASE(v);
}
END_TEST

static void op_cb(pmix_status_t status, void *cbdata)
{
    _Atomic int *out = cbdata;
    *out = status + 1000; /* any status, seen as "called" */
}

START_TEST(fence_self)
{
    pmix_info_t info;
    pmix_proc_t all = me, other = me;
    _Atomic int cbst = -1;
    bool collect = true;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Fence(NULL, 0, NULL, 0));
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Fence(NULL, 0, &info, 1));
    all.rank = PMIX_RANK_WILDCARD;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Fence(&all, 1, &info, 1));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Fence(&me, 1, NULL, 0));
    other.rank = 1;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Fence(&other, 1, NULL, 0));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Fence(NULL, 1, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Fence_nb(NULL, 0, &info, 1, op_cb, (void *)&cbst));
    for (int i = 0; i < 5000 && -1 == cbst; i++) {
        usleep(1000);
    }
    ck_assert_int_eq(1000 + PMIX_SUCCESS, cbst);
    PMIX_INFO_DESTRUCT(&info);
}
END_TEST

START_TEST(get_missing_is_quick)
{
    pmix_info_t info;
    pmix_value_t *v = NULL;
    pmix_proc_t peer = me;
    struct timespec a, b;
    bool t = true;
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &t, PMIX_BOOL);
    clock_gettime(CLOCK_MONOTONIC, &a);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&me, "never.put", &info, 1, &v));
    ck_assert_ptr_null(v);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&me, "never.put", NULL, 0, &v));
    peer.rank = 5; /* a singleton has no server to ask */
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&peer, "never.put", NULL, 0, &v));
    clock_gettime(CLOCK_MONOTONIC, &b);
    ck_assert_int_lt(b.tv_sec - a.tv_sec, 2);
    peer.rank = PMIX_RANK_LOCAL_NODE;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get(&peer, "x", NULL, 0, &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get(&me, "x", NULL, 0, NULL));
    PMIX_INFO_DESTRUCT(&info);
}
END_TEST

static void value_cb(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    _Atomic int *out = cbdata;
    *out = PMIX_SUCCESS == status && NULL != kv && PMIX_UINT32 == kv->type && 1 == kv->data.uint32
               ? 1
               : 2;
}

START_TEST(get_nb)
{
    _Atomic int got = 0;
    pmix_proc_t w = me;
    w.rank = PMIX_RANK_WILDCARD;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get_nb(&w, PMIX_JOB_SIZE, NULL, 0, value_cb, (void *)&got));
    for (int i = 0; i < 5000 && 0 == got; i++) {
        usleep(1000);
    }
    ck_assert_int_eq(1, got);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get_nb(&w, PMIX_JOB_SIZE, NULL, 0, NULL, NULL));
}
END_TEST

/* A callback may call back into the library: local answers work, waits are refused. */
static void reentrant_cb(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    _Atomic int *out = cbdata;
    pmix_value_t *v = NULL, val;
    int ok = PMIX_SUCCESS == status && NULL != kv;
    ok = ok && PMIX_SUCCESS == PMIx_Get(&me, PMIX_LOCAL_RANK, NULL, 0, &v) && NULL != v &&
         PMIX_UINT16 == v->type;
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    PMIX_VALUE_LOAD(&val, "from-callback", PMIX_STRING);
    ok = ok && PMIX_SUCCESS == PMIx_Put(PMIX_GLOBAL, "cb.key", &val);
    PMIX_VALUE_DESTRUCT(&val);
    ok = ok && PMIX_ERR_WOULD_BLOCK == PMIx_Fence(NULL, 0, NULL, 0);
    ok = ok && PMIX_ERR_WOULD_BLOCK == PMIx_Finalize(NULL, 0);
    *out = ok ? 1 : 2;
}

START_TEST(callback_reentry)
{
    _Atomic int got = 0;
    pmix_value_t *v;
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_Get_nb(&me, PMIX_RANK, NULL, 0, reentrant_cb, (void *)&got));
    for (int i = 0; i < 5000 && 0 == got; i++) {
        usleep(1000);
    }
    ck_assert_int_eq(1, got);
    v = get_ok(&me, "cb.key", NULL, 0, PMIX_STRING);
    PMIX_VALUE_RELEASE(v);
}
END_TEST

START_TEST(store_internal)
{
    pmix_proc_t peer = me, foreign;
    pmix_value_t val, *v;
    uint16_t loc = 4095;
    peer.rank = 3;
    PMIX_VALUE_LOAD(&val, &loc, PMIX_UINT16);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Store_internal(&peer, PMIX_LOCALITY, &val));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Store_internal(&me, PMIX_LOCALITY, &val));
    v = get_ok(&peer, PMIX_LOCALITY, NULL, 0, PMIX_UINT16);
    ck_assert_uint_eq(4095, v->data.uint16);
    PMIX_VALUE_RELEASE(v);
    PMIX_LOAD_PROCID(&foreign, "other.job", 2);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Store_internal(&foreign, "opal.puri", &val));
    v = get_ok(&foreign, "opal.puri", NULL, 0, PMIX_UINT16);
    PMIX_VALUE_RELEASE(v);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Store_internal(NULL, "k", &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Store_internal(&me, NULL, &val));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Store_internal(&me, "k", NULL));
}
END_TEST

START_TEST(resolve)
{
    pmix_proc_t *procs = (pmix_proc_t *)1;
    size_t n = 7;
    char *nodes = (char *)1, host[256];
    pmix_nspace_t bad = "no.such.nspace";
    gethostname(host, sizeof host);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Resolve_peers(host, me.nspace, &procs, &n));
    ck_assert_uint_eq(1, n);
    ck_assert_str_eq(me.nspace, procs[0].nspace);
    ck_assert_uint_eq(0, procs[0].rank);
    PMIX_PROC_FREE(procs, n);
    /* NULL node: this node; NULL nspace: all known */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Resolve_peers(NULL, NULL, &procs, &n));
    ck_assert_uint_eq(1, n);
    PMIX_PROC_FREE(procs, n);
    /* a node the namespace does not use */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Resolve_peers("no-such-node", me.nspace, &procs, &n));
    ck_assert_ptr_null(procs);
    ck_assert_uint_eq(0, n);
    ck_assert_int_eq(PMIX_ERR_INVALID_NAMESPACE, PMIx_Resolve_peers(host, bad, &procs, &n));
    ck_assert_ptr_null(procs);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Resolve_nodes(me.nspace, &nodes));
    ck_assert_str_eq(host, nodes);
    free(nodes);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Resolve_nodes(NULL, &nodes));
    ck_assert_str_eq(host, nodes);
    free(nodes);
    ck_assert_int_eq(PMIX_ERR_INVALID_NAMESPACE, PMIx_Resolve_nodes(bad, &nodes));
    ck_assert_ptr_null(nodes);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Resolve_nodes(me.nspace, NULL));
}
END_TEST

START_TEST(query)
{
    pmix_query_t q[3];
    pmix_info_t *res = NULL;
    size_t nres = 0;
    pmix_data_array_t *da;
    pmix_proc_info_t *pi;
    pmix_status_t arc;
    PMIX_QUERY_CONSTRUCT(&q[0]);
    PMIX_QUERY_CONSTRUCT(&q[1]);
    PMIX_QUERY_CONSTRUCT(&q[2]);
    PMIX_ARGV_APPEND(arc, q[0].keys, PMIX_QUERY_NAMESPACES);
    PMIX_ARGV_APPEND(arc, q[1].keys, PMIX_JOB_SIZE);
    PMIX_ARGV_APPEND(arc, q[2].keys, PMIX_QUERY_PROC_TABLE);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Query_info(q, 3, &res, &nres));
    ck_assert_uint_eq(3, nres);
    ck_assert_str_eq(PMIX_QUERY_NAMESPACES, res[0].key);
    ck_assert_str_eq(me.nspace, res[0].value.data.string);
    ck_assert_str_eq(PMIX_JOB_SIZE, res[1].key);
    ck_assert_int_eq(PMIX_UINT32, res[1].value.type);
    ck_assert_uint_eq(1, res[1].value.data.uint32);
    ck_assert_int_eq(PMIX_DATA_ARRAY, res[2].value.type);
    da = res[2].value.data.darray;
    ck_assert_int_eq(PMIX_PROC_INFO, da->type);
    ck_assert_uint_eq(1, da->size);
    pi = da->array;
    ck_assert_int_eq(getpid(), pi->pid);
    PMIX_INFO_FREE(res, nres);
    /* a key nobody can answer */
    PMIX_ARGV_FREE(q[0].keys);
    q[0].keys = NULL;
    PMIX_ARGV_APPEND(arc, q[0].keys, PMIX_QUERY_PSET_NAMES);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Query_info(q, 1, &res, &nres));
    ck_assert_ptr_null(res);
    ck_assert_int_eq(PMIX_QUERY_PARTIAL_SUCCESS, PMIx_Query_info(q, 2, &res, &nres));
    ck_assert_uint_eq(1, nres);
    PMIX_INFO_FREE(res, nres);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Query_info(NULL, 0, &res, &nres));
    for (int i = 0; i < 3; i++) {
        PMIX_QUERY_DESTRUCT(&q[i]);
    }
    (void)arc;
}
END_TEST

START_TEST(log_channels)
{
    pmix_info_t data[2];
    /* Open MPI's show_help relay: [1][len]file [1][len]topic [1][int8] [1][len]message */
    unsigned char blob[] = {0, 0, 0, 1, 0, 0, 0, 2, 'f', 0, 0, 0, 0, 1, 0,   0,   0,   2, 't',
                            0, 0, 0, 0, 1, 1, 0, 0, 0,   1, 0, 0, 0, 4, 'm', 's', 'g', 0};
    pmix_byte_object_t bo = {(char *)blob, sizeof blob};
    PMIX_INFO_LOAD(&data[0], PMIX_LOG_STDERR, "client log test line", PMIX_STRING);
    PMIX_INFO_LOAD(&data[1], PMIX_LOG_MSG, &bo, PMIX_BYTE_OBJECT);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Log(data, 2, NULL, 0));
    PMIX_INFO_DESTRUCT(&data[0]);
    PMIX_INFO_DESTRUCT(&data[1]);
    PMIX_INFO_LOAD(&data[0], PMIX_LOG_EMAIL_ADDR, "x@y", PMIX_STRING);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, PMIx_Log(data, 1, NULL, 0));
    PMIX_INFO_DESTRUCT(&data[0]);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Log(NULL, 0, NULL, 0));
}
END_TEST

START_TEST(job_control_cleanup)
{
    char dir[PATH_MAX], file[PATH_MAX + 8];
    pmix_info_t d[2];
    bool t = true;
    FILE *f;
    const char *bad[] = {"/",        "/tmp",  "/tmp/", "/tmp/../etc", "/tmp/x/..",
                         "/tmp/./x", "rel/x", "",      "/home"};
    wu_test_tmpdir_make("wu_client_jc", dir, sizeof dir);
    snprintf(file, sizeof file, "%s/f", dir);
    ck_assert_ptr_nonnull(f = fopen(file, "w"));
    fclose(f);
    PMIX_INFO_LOAD(&d[0], PMIX_REGISTER_CLEANUP_DIR, dir, PMIX_STRING);
    PMIX_INFO_LOAD(&d[1], PMIX_CLEANUP_RECURSIVE, &t, PMIX_BOOL);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Job_control_nb(NULL, 0, d, 2, NULL, NULL));
    PMIX_INFO_DESTRUCT(&d[0]);
    /* refused: not below the temporary directory */
    PMIX_INFO_LOAD(&d[0], PMIX_REGISTER_CLEANUP, "/etc/passwd", PMIX_STRING);
    wu_test_help_capture();
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Job_control(NULL, 0, d, 1, NULL, NULL));
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), "/etc/passwd"));
    PMIX_INFO_DESTRUCT(&d[0]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        PMIX_INFO_LOAD(&d[0], PMIX_REGISTER_CLEANUP_DIR, bad[i], PMIX_STRING);
        wu_test_help_capture();
        ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Job_control(NULL, 0, d, 2, NULL, NULL));
        (void)wu_test_help_captured();
        PMIX_INFO_DESTRUCT(&d[0]);
    }
    ck_assert(wu_path_exists(dir));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    ck_assert(!wu_path_exists(dir)); /* removed by the last Finalize */
    ck_assert(wu_path_exists("/etc/passwd"));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0));
    PMIX_INFO_LOAD(&d[0], PMIX_TIMEOUT, &t, PMIX_BOOL);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, PMIx_Job_control_nb(NULL, 0, d, 1, NULL, NULL));
}
END_TEST

START_TEST(partial_env_refused)
{
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    setenv("PMIX_NAMESPACE", "some.job", 1);
    setenv("PMIX_RANK", "0", 1);
    wu_test_help_capture();
    ck_assert_int_ne(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0));
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), "WU_PMIX_SERVER_URI"));
    ck_assert_int_eq(0, PMIx_Initialized());
    setenv("WU_PMIX_SERVER_URI", "usock:/nonexistent/wu-test/sock", 1);
    setenv("PMIX_RANK", "x1", 1);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Init(&me, NULL, 0));
    setenv("PMIX_RANK", "1", 1);
    ck_assert_int_ne(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0)); /* nobody there */
    setup();
}
END_TEST

START_TEST(not_initialized)
{
    pmix_value_t *v = NULL, val;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    PMIX_VALUE_LOAD(&val, "x", PMIX_STRING);
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Get(&me, "x", NULL, 0, &v));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Put(PMIX_GLOBAL, "x", &val));
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Commit());
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Fence(NULL, 0, NULL, 0));
    PMIX_VALUE_DESTRUCT(&val);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(&me, NULL, 0));
}
END_TEST

/* A singleton's abort ends the process with the status (checked by Check as the exit value). */
START_TEST(singleton_abort_exits)
{
    PMIx_Abort(5, "check_client_singleton: expected abort", NULL, 0);
    ck_abort_msg("PMIx_Abort returned in a singleton");
}
END_TEST

START_TEST(attribute_support)
{
    pmix_query_t q;
    pmix_info_t *res = NULL, qual;
    size_t nres = 0;
    pmix_status_t arc;
    pmix_data_array_t *da;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(arc, q.keys, PMIX_QUERY_ATTRIBUTE_SUPPORT);
    ck_assert_int_eq(PMIX_SUCCESS, arc);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Query_info(&q, 1, &res, &nres));
    ck_assert_uint_eq(1, nres);
    ck_assert_int_eq(PMIX_STRING, res[0].value.type);
    ck_assert_ptr_nonnull(strstr(res[0].value.data.string, "PMIx_Get_nb"));
    PMIX_INFO_FREE(res, nres);
    PMIX_INFO_LOAD(&qual, PMIX_CLIENT_ATTRIBUTES, "PMIx_Get,PMIx_Fence", PMIX_STRING);
    q.qualifiers = &qual;
    q.nqual = 1;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Query_info(&q, 1, &res, &nres));
    ck_assert_uint_eq(1, nres);
    ck_assert_int_eq(PMIX_DATA_ARRAY, res[0].value.type);
    da = res[0].value.data.darray;
    ck_assert_uint_eq(2, da->size);
    ck_assert_ptr_nonnull(strstr(((pmix_info_t *)da->array)[1].value.data.string, PMIX_OPTIONAL));
    PMIX_INFO_FREE(res, nres);
    PMIX_INFO_DESTRUCT(&qual);
    q.qualifiers = NULL;
    q.nqual = 0;
    PMIX_QUERY_DESTRUCT(&q);
}
END_TEST

/* The ABI versions are answered before PMIx_Init (the blocking form, only those keys) and after. */
static pmix_status_t query_abi(const char *extra, pmix_info_t **res, size_t *nres)
{
    pmix_query_t q[2];
    pmix_status_t rc, arc;
    PMIX_QUERY_CONSTRUCT(&q[0]);
    PMIX_QUERY_CONSTRUCT(&q[1]);
    PMIX_ARGV_APPEND(arc, q[0].keys, PMIX_QUERY_STABLE_ABI_VERSION);
    ck_assert_int_eq(PMIX_SUCCESS, arc);
    PMIX_ARGV_APPEND(arc, q[1].keys, PMIX_QUERY_PROVISIONAL_ABI_VERSION);
    ck_assert_int_eq(PMIX_SUCCESS, arc);
    if (NULL != extra) {
        PMIX_ARGV_APPEND(arc, q[1].keys, extra);
        ck_assert_int_eq(PMIX_SUCCESS, arc);
    }
    rc = PMIx_Query_info(q, 2, res, nres);
    PMIX_QUERY_DESTRUCT(&q[0]);
    PMIX_QUERY_DESTRUCT(&q[1]);
    return rc;
}

static void abi_answered(pmix_info_t *res, size_t nres, size_t want)
{
    ck_assert_uint_eq(want, nres);
    ck_assert_str_eq(PMIX_QUERY_STABLE_ABI_VERSION, res[0].key);
    ck_assert_str_eq(PMIX_QUERY_PROVISIONAL_ABI_VERSION, res[1].key);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(PMIX_STRING, res[i].value.type);
        ck_assert_str_eq(WU_PMIX_ABI_VERSION, res[i].value.data.string); /* 4.2: 0.0, 5.0: 5.0 */
    }
    PMIX_INFO_FREE(res, nres);
}

static void nb_never(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                     pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)status;
    (void)info;
    (void)ninfo;
    (void)cbdata;
    (void)release_fn;
    (void)release_cbdata;
    ck_abort_msg("a refused query called back");
}

START_TEST(abi_versions)
{
    pmix_info_t *res = NULL;
    size_t nres = 0;
    pmix_query_t q;
    pmix_status_t arc;
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    unsetenv("WU_PMIX_SERVER_URI");
    ck_assert_int_eq(PMIX_SUCCESS, query_abi(NULL, &res, &nres));
    abi_answered(res, nres, 2);
    res = NULL;
    ck_assert_int_eq(PMIX_ERR_INIT, query_abi(PMIX_JOB_SIZE, &res, &nres));
    ck_assert_ptr_null(res);
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(arc, q.keys, PMIX_QUERY_STABLE_ABI_VERSION);
    ck_assert_int_eq(PMIX_SUCCESS, arc);
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_Query_info_nb(&q, 1, nb_never, NULL));
    PMIX_QUERY_DESTRUCT(&q);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Init(NULL, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, query_abi(PMIX_JOB_SIZE, &res, &nres));
    ck_assert_str_eq(PMIX_JOB_SIZE, res[2].key);
    abi_answered(res, nres, 3);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
}
END_TEST

static Suite *client_singleton_suite(void)
{
    Suite *s = suite_create("client_singleton");
    TCase *tc = tcase_create("singleton");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, init_twice_same_identity);
    tcase_add_test(tc, finalize_without_init);
    tcase_add_loop_test(tc, job_data_types, 0, sizeof job_keys / sizeof job_keys[0]);
    tcase_add_test(tc, job_strings_and_node_app);
    tcase_add_loop_test(tc, put_commit_get_scopes, 0, sizeof scopes / sizeof scopes[0]);
    tcase_add_test(tc, put_bad_and_reserved);
    tcase_add_test(tc, fence_self);
    tcase_add_test(tc, get_missing_is_quick);
    tcase_add_test(tc, get_nb);
    tcase_add_test(tc, store_internal);
    tcase_add_test(tc, callback_reentry);
    tcase_add_test(tc, resolve);
    tcase_add_test(tc, query);
    tcase_add_test(tc, log_channels);
    tcase_add_test(tc, job_control_cleanup);
    tcase_add_test(tc, partial_env_refused);
    tcase_add_test(tc, not_initialized);
    tcase_add_test(tc, attribute_support);
    tcase_add_exit_test(tc, singleton_abort_exits, 5);
    suite_add_tcase(s, tc);
    tc = tcase_create("no_init");
    tcase_add_test(tc, abi_versions);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(client_singleton_suite)
