/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_rfc0009.c -- `wrun -n N e2e_rfc0009`: the PMIx_Get rules of RFC0009 and of the Get
 * directives. Job-level data lives under PMIX_RANK_WILDCARD only, proc-level data under its
 * rank only (one lookup per Get); the "pmix" key prefix is reserved: an undefined pmix key is
 * refused by Put, a Standard-defined attribute is accepted; PMIX_OPTIONAL / PMIX_IMMEDIATE
 * answer "not found" without waiting, and so does a reserved key the host did not give for a
 * peer of this job; a key a committed peer did not put is waited for (it may still come): with
 * PMIX_TIMEOUT until then ("timeout"), without one for the server's grace ("not found");
 * PMIx_Store_internal of a reserved key (as Open MPI does for pmix.loc) round-trips. */
#include "e2e_util.h"

static void expect_not_found(const char *ns, pmix_rank_t r, const char *key,
                             const pmix_info_t *info, size_t ninfo, const char *why)
{
    pmix_status_t st;
    double t0 = e2e_now();
    pmix_value_t *v = e2e_get(ns, r, key, info, ninfo, &st);
    double dt = e2e_now() - t0;
    E2E_CHECK(v == NULL, "%s: Get(%s, rank %d) found a value of type %s", why, key, (int)r,
              PMIx_Data_type_string(v->type));
    E2E_CHECK(st == PMIX_ERR_NOT_FOUND,
              "%s: Get(%s, rank %d) returned %s (%d), expected "
              "PMIX_ERR_NOT_FOUND",
              why, key, (int)r, PMIx_Error_string(st), st);
    E2E_CHECK(dt < 5.0, "%s: Get(%s) took %.2f s to say not found", why, key, dt);
}

int main(void)
{
    pmix_value_t v;
    pmix_info_t info;
    bool yes = true;
    char host[256];

    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    const char *ns = e2e_me.nspace;
    pmix_rank_t me = e2e_me.rank;
    uint32_t n = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    pmix_rank_t peer = (me + 1) % n;
    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';

    /* 1. job-level key asked with a real rank: not found (stored under WILDCARD only) */
    e2e_step("job-level key with a real rank");
    expect_not_found(ns, me, PMIX_JOB_SIZE, NULL, 0, "job-level key with own rank");
    /* a peer could still Put a defined attribute later: ask without waiting */
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    expect_not_found(ns, peer, PMIX_UNIV_SIZE, &info, 1, "job-level key with a peer's rank");
    PMIX_INFO_DESTRUCT(&info);
    /* a reserved key of a peer of this job is the host's data: without it, "not found" at once,
     * even before the peer commits (as OpenPMIx's clients ask: "immediate") */
    expect_not_found(ns, peer, PMIX_FABRIC_COORDINATES, NULL, 0, "a reserved key nobody gave");

    /* 2. proc-level key asked with WILDCARD: not found (stored under the rank only) */
    e2e_step("proc-level key with WILDCARD");
    expect_not_found(ns, PMIX_RANK_WILDCARD, PMIX_LOCAL_RANK, NULL, 0,
                     "proc-level key with WILDCARD");
    expect_not_found(ns, PMIX_RANK_WILDCARD, PMIX_NODE_RANK, NULL, 0,
                     "proc-level key with WILDCARD");
    expect_not_found(ns, PMIX_RANK_WILDCARD, "e2e.nosuchjobkey", NULL, 0, "unknown job-level key");

    /* 3. reserved undefined key: Put refused with PMIX_ERR_BAD_PARAM */
    e2e_step("Put of reserved undefined keys");
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT32;
    v.data.uint32 = 5;
    E2E_RC_IS(PMIx_Put(PMIX_GLOBAL, "pmix.foo", &v), PMIX_ERR_BAD_PARAM, "Put(pmix.foo)");
    E2E_RC_IS(PMIx_Put(PMIX_LOCAL, "pmix.e2e.undefined", &v), PMIX_ERR_BAD_PARAM,
              "Put(pmix.e2e.undefined)");

    /* 4. a Standard-defined attribute is accepted (Open MPI puts pmix.hname) and a put key
     *    outside the reserved prefix too */
    e2e_step("Put of a defined attribute");
    v.type = PMIX_STRING;
    v.data.string = host;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, PMIX_HOSTNAME, &v), "Put(pmix.hname)");
    v.type = PMIX_UINT32;
    v.data.uint32 = 4000u + me;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "e2e.mine", &v), "Put(e2e.mine)");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    e2e_step("fence with collect");
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&info, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&info);
    e2e_step("gets after the fence");
    uint32_t got = e2e_get_u32(ns, peer, "e2e.mine");
    E2E_CHECK(got == 4000u + peer, "e2e.mine of rank %u = %u", peer, got);
    got = e2e_get_u32(ns, me, "e2e.mine");
    E2E_CHECK(got == 4000u + me, "own e2e.mine = %u", got);
    char *h = e2e_get_str(ns, peer, PMIX_HOSTNAME);
    E2E_CHECK(h != NULL && strcmp(h, host) == 0, "pmix.hname of rank %u = '%s'", peer,
              h ? h : "(null)");
    free(h);
    /* a put (proc-level) key asked with WILDCARD: not found */
    expect_not_found(ns, PMIX_RANK_WILDCARD, "e2e.mine", NULL, 0, "put key with WILDCARD");
    /* the refused key did not get stored */
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    expect_not_found(ns, me, "pmix.foo", &info, 1, "refused key");

    /* 5. PMIX_OPTIONAL / PMIX_IMMEDIATE: a missing key is not found at once */
    e2e_step("PMIX_OPTIONAL missing key");
    expect_not_found(ns, peer, "e2e.never", &info, 1, "PMIX_OPTIONAL");
    expect_not_found(ns, me, "e2e.never", &info, 1, "PMIX_OPTIONAL (own rank)");
    PMIX_INFO_DESTRUCT(&info);
    e2e_step("PMIX_IMMEDIATE missing key");
    PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &yes, PMIX_BOOL);
    expect_not_found(ns, peer, "e2e.never", &info, 1, "PMIX_IMMEDIATE");
    PMIX_INFO_DESTRUCT(&info);

    /* 6. PMIx_Store_internal: Open MPI stores each peer's pmix.loc (a reserved key) itself and
     *    reads it back with Get; the round trip must keep value and type */
    e2e_step("Store_internal round trip");
    for (pmix_rank_t r = 0; r < n; r++) {
        pmix_proc_t who;
        PMIX_LOAD_PROCID(&who, ns, r);
        v.type = PMIX_UINT16;
        v.data.uint16 = (uint16_t)(0x0f00u + r);
        E2E_RC(PMIx_Store_internal(&who, "pmix.loc", &v), "PMIx_Store_internal(pmix.loc)");
        pmix_value_t *loc = e2e_get_typed(ns, r, "pmix.loc", PMIX_UINT16, NULL, 0);
        E2E_CHECK(loc->data.uint16 == 0x0f00u + r, "pmix.loc of rank %u = 0x%x after storing it", r,
                  loc->data.uint16);
        e2e_free_value(loc);
    }

    /* 7. a key the peer committed without may still come in a later commit: waited for until
     *    PMIX_TIMEOUT (PMIX_ERR_TIMEOUT), and without one for the server's grace of 2 s
     *    (PMIX_ERR_NOT_FOUND; e2e_exchange's "late" mode shows such a key found) */
    if (peer != me) { /* (a process's own data is its own: never waited for) */
        e2e_step("PMIX_TIMEOUT on a key never put");
        int tmo = 1;
        pmix_status_t st;
        double t0 = e2e_now();
        PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &tmo, PMIX_INT);
        pmix_value_t *never = e2e_get(ns, peer, "e2e.never", &info, 1, &st);
        PMIX_INFO_DESTRUCT(&info);
        E2E_CHECK(NULL == never && PMIX_ERR_TIMEOUT == st && e2e_now() - t0 >= 0.9,
                  "Get(e2e.never, PMIX_TIMEOUT=1) of a committed peer returned %s after %.2f s, "
                  "expected PMIX_ERR_TIMEOUT after 1 s",
                  PMIx_Error_string(st), e2e_now() - t0);
        e2e_step("a key never put, no timeout");
        t0 = e2e_now();
        expect_not_found(ns, peer, "e2e.never", NULL, 0, "committed peer, no PMIX_TIMEOUT");
        E2E_CHECK(e2e_now() - t0 >= 1.5, "the grace for a later commit was %.2f s, not 2",
                  e2e_now() - t0);
    }

    e2e_step("final fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("rfc0009 rank %u of %u: ok\n", me, n);
    return 0;
}
