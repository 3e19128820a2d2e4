/* SPDX-License-Identifier: BSD-3-Clause */
/* client_prog.c -- a PMIx client run by check_client_server under the real server: one scenario
 * per run (argv[1]), exit status 0 when every check passed, else 1 with the failed check on
 * stderr. Linked with libpmix.so, as an application is. */
#include "pmix.h"
#include "test/unit/client/ctest_model.h"

#include <stdatomic.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t me;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "client_prog %s:%u: %s:%d: check failed: %s\n", me.nspace, \
                    (unsigned)me.rank, __FILE__, __LINE__, #cond);                     \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

#define CHECK_RC(want, call)                                                                \
    do {                                                                                    \
        pmix_status_t rc_ = (call);                                                         \
        if ((want) != rc_) {                                                                \
            fprintf(stderr, "client_prog %s:%u: line %d: %s gave %s, want %s\n", me.nspace, \
                    (unsigned)me.rank, __LINE__, #call, PMIx_Error_string(rc_),             \
                    PMIx_Error_string(want));                                               \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static void put_str(pmix_scope_t scope, const char *key, const char *s)
{
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, s, PMIX_STRING);
    CHECK_RC(PMIX_SUCCESS, PMIx_Put(scope, key, &v));
    PMIX_VALUE_DESTRUCT(&v);
}

static void expect_str(pmix_rank_t rank, const char *key, const char *want, const pmix_info_t *info,
                       size_t ninfo)
{
    pmix_proc_t p = me;
    pmix_value_t *v = NULL;
    p.rank = rank;
    CHECK_RC(PMIX_SUCCESS, PMIx_Get(&p, key, info, ninfo, &v));
    CHECK(NULL != v && PMIX_STRING == v->type && 0 == strcmp(want, v->data.string));
    PMIX_VALUE_RELEASE(v);
}

static void job_info(void)
{
    pmix_proc_t w = me;
    pmix_value_t *v = NULL;
    w.rank = PMIX_RANK_WILDCARD;
    CHECK_RC(PMIX_SUCCESS, PMIx_Get(&w, PMIX_JOB_SIZE, NULL, 0, &v));
    CHECK(PMIX_UINT32 == v->type && 2 == v->data.uint32);
    PMIX_VALUE_RELEASE(v);
    CHECK_RC(PMIX_SUCCESS, PMIx_Get(&me, PMIX_LOCAL_RANK, NULL, 0, &v));
    CHECK(PMIX_UINT16 == v->type && me.rank == v->data.uint16);
    PMIX_VALUE_RELEASE(v);
}

/* put/commit/fence(collect)/get, then fence without collect */
static void exchange(void)
{
    char key[64], val[64];
    pmix_info_t info;
    bool t = true;
    pmix_rank_t peer = 1 - me.rank;
    snprintf(val, sizeof val, "local-%u", (unsigned)me.rank);
    put_str(PMIX_LOCAL, "ex.local", val);
    snprintf(val, sizeof val, "global-%u", (unsigned)me.rank);
    put_str(PMIX_GLOBAL, "ex.global", val);
    snprintf(val, sizeof val, "remote-%u", (unsigned)me.rank);
    put_str(PMIX_REMOTE, "ex.remote", val);
    CHECK_RC(PMIX_SUCCESS, PMIx_Commit());
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &t, PMIX_BOOL);
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence(NULL, 0, &info, 1));
    PMIX_INFO_DESTRUCT(&info);
    /* after a collecting fence the peer's data is here: PMIX_OPTIONAL must find it */
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &t, PMIX_BOOL);
    snprintf(val, sizeof val, "local-%u", (unsigned)peer);
    expect_str(peer, "ex.local", val, &info, 1);
    snprintf(val, sizeof val, "global-%u", (unsigned)peer);
    expect_str(peer, "ex.global", val, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    snprintf(key, sizeof key, "ex.second.%u", (unsigned)me.rank);
    put_str(PMIX_GLOBAL, key, "two");
    CHECK_RC(PMIX_SUCCESS, PMIx_Commit());
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence(NULL, 0, NULL, 0));
    snprintf(key, sizeof key, "ex.second.%u", (unsigned)peer);
    expect_str(peer, key, "two", NULL, 0); /* not collected: fetched from the server */
}

/* rank 1 commits late; rank 0 asks at once and must wait for it (direct modex) */
static void dmodex(void)
{
    if (1 == me.rank) {
        usleep(500 * 1000);
        put_str(PMIX_GLOBAL, "dm.late", "worth-waiting");
        CHECK_RC(PMIX_SUCCESS, PMIx_Commit());
    } else {
        pmix_info_t info;
        pmix_value_t *v = NULL;
        pmix_proc_t p = me;
        bool t = true;
        p.rank = 1;
        PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &t, PMIX_BOOL);
        CHECK_RC(PMIX_ERR_NOT_FOUND, PMIx_Get(&p, "dm.never", &info, 1, &v));
        PMIX_INFO_DESTRUCT(&info);
        expect_str(1, "dm.late", "worth-waiting", NULL, 0);
    }
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence(NULL, 0, NULL, 0));
}

/* a Get with PMIX_TIMEOUT of a key nobody puts */
static void get_timeout(void)
{
    if (0 == me.rank) {
        pmix_info_t info;
        pmix_value_t *v = NULL;
        pmix_proc_t p = me;
        int secs = 1;
        struct timespec a, b;
        p.rank = 1;
        PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &secs, PMIX_INT);
        clock_gettime(CLOCK_MONOTONIC, &a);
        CHECK_RC(PMIX_ERR_TIMEOUT, PMIx_Get(&p, "to.never", &info, 1, &v));
        clock_gettime(CLOCK_MONOTONIC, &b);
        CHECK(b.tv_sec - a.tv_sec < 5);
        /* a fence rank 1 joins only later times out */
        CHECK_RC(PMIX_ERR_TIMEOUT, PMIx_Fence(NULL, 0, &info, 1));
        clock_gettime(CLOCK_MONOTONIC, &a);
        CHECK(a.tv_sec - b.tv_sec < 5);
        PMIX_INFO_DESTRUCT(&info);
        CHECK(1 == write(atoi(getenv("CTEST_READY_FD")), "t", 1));
    } else {
        /* wait until rank 0's fences timed out */
        char c;
        CHECK(1 == read(atoi(getenv("CTEST_READY_FD")), &c, 1));
    }
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence(NULL, 0, NULL, 0));
}

/* rank 0: another namespace (RFC0009 import, resolve from its maps), the node lists derived
 * from the registrations, queries; rank 1: cleanup registration and abort */
static void misc(void)
{
    const char *other = getenv("CTEST_OTHER_NSPACE"), *dir = getenv("CTEST_DIR");
    char host[256];
    CHECK(NULL != other && NULL != dir);
    gethostname(host, sizeof host);
    if (0 == me.rank) {
        pmix_proc_t p, *procs = NULL;
        pmix_value_t *v = NULL;
        pmix_info_t info;
        pmix_query_t q;
        pmix_info_t *res = NULL;
        size_t n = 0, nres = 0;
        char *nodes = NULL, want[600];
        bool t = true;
        pmix_status_t rc;
        PMIX_LOAD_PROCID(&p, other, PMIX_RANK_WILDCARD);
        CHECK_RC(PMIX_SUCCESS, PMIx_Get(&p, PMIX_JOB_SIZE, NULL, 0, &v));
        CHECK(PMIX_UINT32 == v->type && 3 == v->data.uint32);
        PMIX_VALUE_RELEASE(v);
        /* the rest of its job-level data came along: local now */
        PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &t, PMIX_BOOL);
        CHECK_RC(PMIX_SUCCESS, PMIx_Get(&p, PMIX_UNIV_SIZE, &info, 1, &v));
        CHECK(PMIX_UINT32 == v->type && 5 == v->data.uint32);
        PMIX_VALUE_RELEASE(v);
        /* its host registered a node map and no node list: the list is the map's nodes */
        snprintf(want, sizeof want, "hostA,%s", host);
        CHECK_RC(PMIX_SUCCESS, PMIx_Get(&p, PMIX_NODE_LIST, &info, 1, &v));
        CHECK(PMIX_STRING == v->type && 0 == strcmp(want, v->data.string));
        PMIX_VALUE_RELEASE(v);
        PMIX_INFO_DESTRUCT(&info);
        /* ours has neither: the list is its node arrays' hosts */
        p.rank = PMIX_RANK_WILDCARD;
        PMIX_LOAD_NSPACE(p.nspace, me.nspace);
        CHECK_RC(PMIX_SUCCESS, PMIx_Get(&p, PMIX_NODE_LIST, NULL, 0, &v));
        CHECK(PMIX_STRING == v->type && 0 == strcmp(host, v->data.string));
        PMIX_VALUE_RELEASE(v);
        PMIX_LOAD_NSPACE(p.nspace, other);
        CHECK_RC(PMIX_SUCCESS, PMIx_Resolve_peers(host, p.nspace, &procs, &n));
        CHECK(1 == n && 2 == procs[0].rank && 0 == strcmp(other, procs[0].nspace));
        PMIX_PROC_FREE(procs, n);
        CHECK_RC(PMIX_SUCCESS, PMIx_Resolve_peers("elsewhere", p.nspace, &procs, &n));
        CHECK(NULL == procs && 0 == n);
        CHECK_RC(PMIX_SUCCESS, PMIx_Resolve_nodes(p.nspace, &nodes));
        CHECK(NULL != nodes && 0 == strcmp(want, nodes));
        free(nodes);
        /* own job: from the node's PMIX_LOCAL_PEERS */
        CHECK_RC(PMIX_SUCCESS, PMIx_Resolve_peers(host, me.nspace, &procs, &n));
        CHECK(2 == n && 0 == procs[0].rank && 1 == procs[1].rank);
        PMIX_PROC_FREE(procs, n);
        PMIX_LOAD_NSPACE(p.nspace, "ctest.no.such.job");
        CHECK_RC(PMIX_ERR_INVALID_NAMESPACE, PMIx_Resolve_peers(host, p.nspace, &procs, &n));
        PMIX_QUERY_CONSTRUCT(&q);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_JOB_SIZE);
        CHECK(PMIX_SUCCESS == rc);
        CHECK_RC(PMIX_SUCCESS, PMIx_Query_info(&q, 1, &res, &nres));
        CHECK(1 == nres && PMIX_UINT32 == res[0].value.type && 2 == res[0].value.data.uint32);
        PMIX_INFO_FREE(res, nres);
        PMIX_QUERY_DESTRUCT(&q);
    } else {
        pmix_info_t d;
        char path[600];
        FILE *f;
        snprintf(path, sizeof path, "%s/cleanme", dir);
        CHECK(NULL != (f = fopen(path, "w")));
        fclose(f);
        PMIX_INFO_LOAD(&d, PMIX_REGISTER_CLEANUP, path, PMIX_STRING);
        CHECK_RC(PMIX_SUCCESS, PMIx_Job_control_nb(NULL, 0, &d, 1, NULL, NULL));
        CHECK_RC(PMIX_SUCCESS, PMIx_Job_control(NULL, 0, &d, 1, NULL, NULL));
        PMIX_INFO_DESTRUCT(&d);
        CHECK_RC(PMIX_SUCCESS, PMIx_Abort(7, "client_prog: a test abort", NULL, 0));
    }
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence(NULL, 0, NULL, 0));
}

/* PMIX_MODEL_DECLARED: what the handler for that code saw, and whether the default one saw it */
static _Atomic int model_seen = 0;
static char model_name[64], model_threads[64];
static bool model_has_library = true;
static pmix_rank_t model_source = PMIX_RANK_UNDEF;

static void model_hdlr(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    /* the first PMIx_Init's event may come after this handler was registered: only the
     * second declaration is looked at */
    bool second = false;
    for (size_t i = 0; i < ninfo; i++) {
        second = second || (PMIX_CHECK_KEY(&info[i], PMIX_PROGRAMMING_MODEL) &&
                            0 == strcmp("ctest-second", info[i].value.data.string));
    }
    if (PMIX_MODEL_DECLARED == status && second && 0 == strcmp(source->nspace, me.nspace)) {
        model_has_library = false;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_CHECK_KEY(&info[i], PMIX_PROGRAMMING_MODEL)) {
                snprintf(model_name, sizeof model_name, "%s", info[i].value.data.string);
            } else if (PMIX_CHECK_KEY(&info[i], PMIX_THREADING_MODEL)) {
                snprintf(model_threads, sizeof model_threads, "%s", info[i].value.data.string);
            } else if (PMIX_CHECK_KEY(&info[i], PMIX_MODEL_LIBRARY_NAME)) {
                model_has_library = true;
            }
        }
        model_source = source->rank;
        model_seen++;
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* A handler registered after the declaration: the last declaration reaches it too, once. */
static _Atomic int late_seen = 0;

static void late_model_hdlr(size_t id, pmix_status_t status, const pmix_proc_t *source,
                            pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                            size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                            void *cbdata)
{
    (void)id;
    (void)source;
    (void)results;
    (void)nresults;
    for (size_t i = 0; PMIX_MODEL_DECLARED == status && i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_PROGRAMMING_MODEL) &&
            0 == strcmp("ctest-second", info[i].value.data.string)) {
            late_seen++;
        }
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* A second PMIx_Init declaring a model, finalized at once (Open MPI's way): this process's
 * handler for PMIX_MODEL_DECLARED hears it with the second declaration's infos, its default
 * handler does not, and a handler registered afterwards hears it as well (python3-pmix's way).
 * (The first init declared one too: the server's host checks that.) */
static void model(void)
{
    pmix_status_t code = PMIX_MODEL_DECLARED;
    pmix_info_t mi[2];
    CHECK(0 == ctest_register(&code, model_hdlr));
    CHECK(0 == ctest_register(NULL, ctest_default_hdlr));
    PMIX_INFO_LOAD(&mi[0], PMIX_PROGRAMMING_MODEL, "ctest-second", PMIX_STRING);
    PMIX_INFO_LOAD(&mi[1], PMIX_THREADING_MODEL, "NONE", PMIX_STRING);
    CHECK_RC(PMIX_SUCCESS, PMIx_Init(NULL, mi, 2));
    CHECK_RC(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    PMIX_INFO_DESTRUCT(&mi[0]);
    PMIX_INFO_DESTRUCT(&mi[1]);
    for (int i = 0; i < 10000 && 0 == model_seen; i++) {
        usleep(1000);
    }
    CHECK(1 == model_seen && me.rank == model_source);
    CHECK(0 == strcmp("ctest-second", model_name) && 0 == strcmp("NONE", model_threads));
    CHECK(!model_has_library);
    CHECK(0 == ctest_default_saw_model);
    CHECK(0 == ctest_register(&code, late_model_hdlr));
    for (int i = 0; i < 10000 && 0 == late_seen; i++) {
        usleep(1000);
    }
    usleep(100 * 1000);
    CHECK(1 == late_seen && 1 == model_seen);
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence(NULL, 0, NULL, 0));
}

static _Atomic int fence_status = 1;

static void fence_cb(pmix_status_t status, void *cbdata)
{
    (void)cbdata;
    fence_status = status;
}

/* only rank 0 runs: its fence waits for rank 1 until the server goes away */
static void lost(void)
{
    const char *fd = getenv("CTEST_READY_FD");
    pmix_value_t *v = NULL, val;
    pmix_proc_t p = me;
    CHECK(NULL != fd);
    CHECK_RC(PMIX_SUCCESS, PMIx_Fence_nb(NULL, 0, NULL, 0, fence_cb, NULL));
    /* a call that waits for the progress thread, which runs what it is handed in order: the
     * fence request went out before it */
    PMIX_VALUE_LOAD(&val, "x", PMIX_STRING);
    CHECK_RC(PMIX_SUCCESS, PMIx_Store_internal(&me, "sync", &val));
    PMIX_VALUE_DESTRUCT(&val);
    CHECK(1 == write(atoi(fd), "r", 1));
    for (int i = 0; i < 20000 && 1 == fence_status; i++) {
        usleep(1000);
    }
    CHECK_RC(PMIX_ERR_LOST_CONNECTION, fence_status);
    p.rank = 1;
    CHECK_RC(PMIX_ERR_UNREACH, PMIx_Get(&p, "gone", NULL, 0, &v));
    PMIX_VALUE_LOAD(&val, "x", PMIX_STRING);
    CHECK_RC(PMIX_SUCCESS, PMIx_Put(PMIX_GLOBAL, "still.local", &val));
    PMIX_VALUE_DESTRUCT(&val);
    CHECK_RC(PMIX_ERR_UNREACH, PMIx_Commit());
    expect_str(me.rank, "still.local", "x", NULL, 0);
}

/* the host publishes what carries its ids (the server adds them); it has no lookup nor
 * unpublish upcall: PMIX_ERR_NOT_SUPPORTED */
static void pubsub(void)
{
    pmix_info_t i;
    pmix_pdata_t pd;
    char *keys[] = {"k", NULL};
    PMIX_INFO_LOAD(&i, "k", "v", PMIX_STRING);
    CHECK_RC(PMIX_SUCCESS, PMIx_Publish(&i, 1));
    PMIX_INFO_DESTRUCT(&i);
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, "k");
    CHECK_RC(PMIX_ERR_NOT_SUPPORTED, PMIx_Lookup(&pd, 1, NULL, 0));
    CHECK_RC(PMIX_ERR_NOT_SUPPORTED, PMIx_Unpublish(keys, NULL, 0));
    CHECK_RC(PMIX_ERR_BAD_PARAM, PMIx_Publish(NULL, 0));
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    pmix_info_t mi[3];
    PMIX_INFO_LOAD(&mi[0], PMIX_PROGRAMMING_MODEL, "ctest", PMIX_STRING);
    PMIX_INFO_LOAD(&mi[1], PMIX_MODEL_LIBRARY_NAME, "client_prog", PMIX_STRING);
    PMIX_INFO_LOAD(&mi[2], PMIX_MODEL_LIBRARY_VERSION, "1.0", PMIX_STRING);
    /* the "model" scenario declares a model in its first PMIx_Init, which goes to the server */
    CHECK_RC(PMIX_SUCCESS, PMIx_Init(&me, mi, 0 == strcmp(what, "model") ? 3 : 0));
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&mi[i]);
    }
    job_info();
    if (0 == strcmp(what, "exchange")) {
        exchange();
    } else if (0 == strcmp(what, "dmodex")) {
        dmodex();
    } else if (0 == strcmp(what, "timeout")) {
        get_timeout();
    } else if (0 == strcmp(what, "misc")) {
        misc();
    } else if (0 == strcmp(what, "lost")) {
        lost();
    } else if (0 == strcmp(what, "model")) {
        model();
    } else if (0 == strcmp(what, "pubsub")) {
        pubsub();
    } else {
        CHECK(!"unknown scenario");
    }
    CHECK_RC(PMIX_SUCCESS, PMIx_Finalize(NULL, 0));
    return 0;
}
