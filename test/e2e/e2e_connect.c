/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_connect.c -- PMIx_Connect and PMIx_Disconnect under wrun (issue 14).
 *
 *   e2e_connect within      (2 ranks or more) connects and disconnects of the whole job and of
 *                           rank pairs, and the arguments refused
 *   e2e_connect meet a|b    two separate wrun jobs find each other's namespace (publish and
 *                           lookup), connect over both, then: the other job's size and local
 *                           peers are known here, what its ranks committed is read (the local
 *                           scope only from this host: both jobs run here), a fence over both
 *                           jobs collects their data, and they disconnect
 *   e2e_connect lonely      a connect naming a namespace nobody runs times out (PMIX_TIMEOUT)
 * Each rank prints "connect MODE: rank R ok" at the end. */
#include "e2e_util.h"

static uint32_t size;

static void within(void)
{
    pmix_proc_t all, pair[2];
    e2e_step("connect the whole job");
    PMIX_LOAD_PROCID(&all, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Connect(&all, 1, NULL, 0), "PMIx_Connect of the job");
    e2e_step("connect pairs");
    /* ranks 2k and 2k+1 connect; an odd last rank alone */
    PMIX_LOAD_PROCID(&pair[0], e2e_me.nspace, e2e_me.rank & ~1u);
    PMIX_LOAD_PROCID(&pair[1], e2e_me.nspace, e2e_me.rank | 1u);
    E2E_RC(PMIx_Connect(pair, pair[1].rank < size ? 2 : 1, NULL, 0), "PMIx_Connect of a pair");
    E2E_RC(PMIx_Disconnect(pair, pair[1].rank < size ? 2 : 1, NULL, 0),
           "PMIx_Disconnect of a pair");
    e2e_step("bad arguments");
    E2E_RC_IS(PMIx_Connect(NULL, 0, NULL, 0), PMIX_ERR_BAD_PARAM, "PMIx_Connect of nobody");
    E2E_RC_IS(PMIx_Disconnect(NULL, 1, NULL, 0), PMIX_ERR_BAD_PARAM, "PMIx_Disconnect(NULL, 1)");
    e2e_step("disconnect the whole job");
    E2E_RC(PMIx_Disconnect(&all, 1, NULL, 0), "PMIx_Disconnect of the job");
}

static void put_str(pmix_scope_t scope, const char *key, const char *val)
{
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, val, PMIX_STRING);
    E2E_RC(PMIx_Put(scope, key, &v), key);
    PMIX_VALUE_DESTRUCT(&v);
}

static void meet(const char *side)
{
    char other[PMIX_MAX_NSLEN + 1], key[PMIX_MAX_NSLEN + 16];
    pmix_proc_t both[2], p;
    pmix_value_t *v;
    pmix_status_t st;
    pmix_info_t collect;
    bool yes = true;
    uint32_t osize;

    e2e_step("commit");
    snprintf(key, sizeof key, "%s-%u", e2e_me.nspace, e2e_me.rank);
    put_str(PMIX_LOCAL, "wu.local", key);
    put_str(PMIX_REMOTE, "wu.remote", key);
    put_str(PMIX_GLOBAL, "wu.global", key);
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    e2e_step("find the other job");
    e2e_swap_str(0 == strcmp(side, "a") ? "wu.cx.a" : "wu.cx.b",
                 0 == strcmp(side, "a") ? "wu.cx.b" : "wu.cx.a", e2e_me.nspace, other,
                 PMIX_MAX_NSLEN + 1);

    e2e_step("connect");
    PMIX_LOAD_PROCID(&both[0], e2e_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&both[1], other, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Connect(both, 2, NULL, 0), "PMIx_Connect of both jobs");

    e2e_step("the other job's data");
    v = e2e_get(other, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, NULL, 0, &st);
    E2E_RC(st, "Get of the other job's size");
    osize = v->data.uint32;
    e2e_free_value(v);
    E2E_CHECK(osize >= 1, "the other job has %u ranks", osize);
    v = e2e_get(other, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, NULL, 0, &st);
    E2E_RC(st, "Get of the other job's local peers");
    E2E_CHECK(PMIX_STRING == v->type && NULL != v->data.string && '0' == v->data.string[0],
              "the other job's local peers here: '%s'", v->data.string);
    e2e_free_value(v);
    for (pmix_rank_t r = 0; r < osize; r++) {
        char want[PMIX_MAX_NSLEN + 16];
        snprintf(want, sizeof want, "%s-%u", other, r);
        v = e2e_get(other, r, "wu.local", NULL, 0, &st);
        E2E_RC(st, "Get of a local-scope key of the other job (same host)");
        E2E_CHECK(0 == strcmp(want, v->data.string), "wu.local: %s", v->data.string);
        e2e_free_value(v);
        v = e2e_get(other, r, "wu.global", NULL, 0, &st);
        E2E_RC(st, "Get of a global key of the other job");
        e2e_free_value(v);
        PMIX_LOAD_PROCID(&p, other, r);
        E2E_RC_IS(PMIx_Get(&p, "wu.remote", NULL, 0, &v), PMIX_ERR_NOT_FOUND,
                  "Get of a remote-scope key of a process on this host");
    }

    e2e_step("a fence over both jobs");
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    E2E_RC(PMIx_Fence(both, 2, &collect, 1), "PMIx_Fence of both jobs");

    e2e_step("disconnect");
    E2E_RC(PMIx_Disconnect(both, 2, NULL, 0), "PMIx_Disconnect of both jobs");
}

static void lonely(void)
{
    pmix_proc_t both[2];
    pmix_info_t to;
    int one = 1;
    double t0;
    e2e_step("connect to nobody");
    PMIX_LOAD_PROCID(&both[0], e2e_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&both[1], "wu.nobody.runs.this", PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&to, PMIX_TIMEOUT, &one, PMIX_INT);
    t0 = e2e_now();
    E2E_RC_IS(PMIx_Connect(both, 2, &to, 1), PMIX_ERR_TIMEOUT, "PMIx_Connect with nobody");
    E2E_CHECK(e2e_now() - t0 < 20, "PMIX_TIMEOUT 1 s: returned after %.1f s", e2e_now() - t0);
}

int main(int argc, char **argv)
{
    pmix_value_t *v;
    pmix_proc_t wild;
    const char *mode = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IOLBF, 0);
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    PMIX_LOAD_PROCID(&wild, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), "Get job size");
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    if (0 == strcmp(mode, "within")) {
        within();
    } else if (0 == strcmp(mode, "meet") && argc > 2) {
        meet(argv[2]);
    } else if (0 == strcmp(mode, "lonely")) {
        lonely();
    } else {
        e2e_fail("usage: e2e_connect within | meet a|b | lonely");
    }
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("connect %s: rank %u ok\n", mode, e2e_me.rank);
    return 0;
}
