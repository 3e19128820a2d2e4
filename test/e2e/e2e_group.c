/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_group.c -- PMIx_Group_construct and PMIx_Group_destruct under wrun.
 *   e2e_group job    every rank constructs "wu.all" of the whole job with
 *                    PMIX_GROUP_ASSIGN_CONTEXT_ID (blocking) and ranks 0 and 1 "wu.pair" (non-
 *                    blocking): the results name the members (PMIX_GROUP_MEMBERSHIP) and carry a
 *                    context id that is the same at every member (checked through a fence) and
 *                    differs between the groups; PMIx_Query_info lists the groups and their
 *                    members; a construct whose other member never comes ends with
 *                    PMIX_ERR_TIMEOUT; both groups are destructed, after which a destruct is
 *                    PMIX_ERR_NOT_FOUND and the query lists neither.
 *   e2e_group invite (3 ranks) rank 0 invites ranks 0 (itself: not invited), 1 and 2 to "wu.inv"
 *                    with a context id: rank 1 accepts (PMIx_Group_join, after its handler of
 *                    PMIX_GROUP_INVITED heard rank 0), rank 2 declines; the invite's and the
 *                    join's results have the same context id and the two members, who fence
 *                    over the group's name (PMIX_RANK_WILDCARD of "wu.inv"); rank 1 leaves, rank 0 hears
 *                    PMIX_GROUP_LEFT, sees one member left and destructs the group; an
 *                    invitation nobody answers ends with PMIX_ERR_TIMEOUT.
 *   e2e_group meet a|b  two separate wrun jobs (started together) find each other's
 *                    namespace, and every rank of both constructs "wu.meet" of both jobs with a
 *                    context id: the same at every member of both jobs (compared through
 *                    publish/lookup), not the one of a group job a made of itself first; both
 *                    list the group with its 2 members, fence over its name and destruct it.
 *   e2e_group alone  a singleton: a group of itself (with a context id) works, one with another
 *                    process is PMIX_ERR_UNREACH.
 * Prints "group MODE: rank R ok". */
#include "pmix.h"
#include "e2e_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t nprocs;

/* The context id in results (checking PMIX_GROUP_MEMBERSHIP has nmem members too). */
static size_t ctx_of(const pmix_info_t *res, size_t nres, size_t nmem, const char *grp)
{
    size_t ctx = 0;
    bool have = false, members = false;
    for (size_t i = 0; i < nres; i++) {
        if (PMIX_CHECK_KEY(&res[i], PMIX_GROUP_CONTEXT_ID)) {
            pmix_status_t st;
            PMIX_VALUE_GET_NUMBER(st, &res[i].value, ctx, size_t);
            have = PMIX_SUCCESS == st;
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_GROUP_MEMBERSHIP)) {
            members = PMIX_DATA_ARRAY == res[i].value.type &&
                      PMIX_PROC == res[i].value.data.darray->type &&
                      nmem == res[i].value.data.darray->size;
        }
    }
    E2E_CHECK(have && members, "%s: results without a context id (%d) or membership (%d)", grp,
              have, members);
    return ctx;
}

/* Everyone's value of key: equal to mine? (ranks in ranks[], n of them) */
static void same_everywhere(const char *key, size_t mine, const pmix_rank_t *ranks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        pmix_proc_t p;
        pmix_value_t *v = NULL;
        PMIX_LOAD_PROCID(&p, e2e_me.nspace, ranks[i]);
        E2E_RC(PMIx_Get(&p, key, NULL, 0, &v), key);
        E2E_CHECK(PMIX_SIZE == v->type && v->data.size == mine,
                  "%s: rank %u has context id %zu, I have %zu", key, ranks[i], (size_t)v->data.size,
                  mine);
        PMIX_VALUE_RELEASE(v);
    }
}

static void put_size(const char *key, size_t val)
{
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &val, PMIX_SIZE);
    E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &v), "PMIx_Put");
}

/* The groups the query lists: is grp among them (and, if members >= 0, has it that many)? */
static bool listed(const char *grp, long members)
{
    pmix_query_t q[2];
    pmix_info_t *res = NULL;
    size_t nres = 0;
    bool found = false;
    pmix_status_t st;
    PMIX_QUERY_CONSTRUCT(&q[0]);
    PMIX_QUERY_CONSTRUCT(&q[1]);
    PMIX_ARGV_APPEND(st, q[0].keys, PMIX_QUERY_GROUP_NAMES);
    PMIX_ARGV_APPEND(st, q[1].keys, PMIX_QUERY_GROUP_MEMBERSHIP);
    PMIX_INFO_CREATE(q[1].qualifiers, 1);
    q[1].nqual = 1;
    PMIX_INFO_LOAD(&q[1].qualifiers[0], PMIX_GROUP_ID, grp, PMIX_STRING);
    st = PMIx_Query_info(q, members >= 0 ? 2 : 1, &res, &nres);
    for (size_t i = 0; PMIX_SUCCESS == st && i < nres; i++) {
        pmix_data_array_t *da = res[i].value.data.darray;
        if (PMIX_CHECK_KEY(&res[i], PMIX_QUERY_GROUP_NAMES) &&
            PMIX_DATA_ARRAY == res[i].value.type) {
            for (size_t k = 0; k < da->size; k++) {
                found = found || 0 == strcmp(((char **)da->array)[k], grp);
            }
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_QUERY_GROUP_MEMBERSHIP)) {
            E2E_CHECK(PMIX_DATA_ARRAY == res[i].value.type && PMIX_PROC == da->type &&
                          (long)da->size == members,
                      "membership of %s: %zu members, expected %ld", grp, da->size, members);
        }
    }
    if (NULL != res) {
        PMIX_INFO_FREE(res, nres);
    }
    PMIX_QUERY_DESTRUCT(&q[0]);
    PMIX_QUERY_DESTRUCT(&q[1]);
    return found;
}

typedef struct {
    volatile int done;
    pmix_status_t st;
    size_t ctx;
} nb_t;

static void pair_done(pmix_status_t st, pmix_info_t *info, size_t ninfo, void *cbdata,
                      pmix_release_cbfunc_t relfn, void *relcbdata)
{
    nb_t *nb = cbdata;
    nb->st = st;
    if (PMIX_SUCCESS == st) {
        nb->ctx = ctx_of(info, ninfo, 2, "wu.pair");
    }
    if (NULL != relfn) {
        relfn(relcbdata);
    }
    __atomic_store_n(&nb->done, 1, __ATOMIC_RELEASE);
}

static void job(void)
{
    pmix_proc_t all, two[2];
    pmix_info_t dir[2];
    pmix_info_t *res = NULL;
    size_t nres = 0, ctx_all, ctx_pair = 0;
    pmix_rank_t ranks[64];
    bool yes = true;
    nb_t nb = {0};
    pmix_value_t *sz;

    PMIX_LOAD_PROCID(&all, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Get(&all, PMIX_JOB_SIZE, NULL, 0, &sz), "PMIx_Get(PMIX_JOB_SIZE)");
    nprocs = sz->data.uint32;
    PMIX_VALUE_RELEASE(sz);
    E2E_CHECK(nprocs <= 64, "at most 64 ranks");
    PMIX_INFO_LOAD(&dir[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);

    e2e_step("construct all");
    E2E_RC(PMIx_Group_construct("wu.all", &all, 1, dir, 1, &res, &nres), "construct wu.all");
    ctx_all = ctx_of(res, nres, 1, "wu.all");
    PMIX_INFO_FREE(res, nres);

    if (nprocs >= 2 && e2e_me.rank < 2) {
        e2e_step("construct pair");
        PMIX_LOAD_PROCID(&two[0], e2e_me.nspace, 0);
        PMIX_LOAD_PROCID(&two[1], e2e_me.nspace, 1);
        E2E_RC(PMIx_Group_construct_nb("wu.pair", two, 2, dir, 1, pair_done, &nb),
               "construct_nb wu.pair");
        while (!__atomic_load_n(&nb.done, __ATOMIC_ACQUIRE)) {
            usleep(1000);
        }
        E2E_RC(nb.st, "wu.pair's callback");
        ctx_pair = nb.ctx;
        E2E_CHECK(ctx_pair != ctx_all, "two groups with the context id %zu", ctx_all);
        put_size("e2e.ctx.pair", ctx_pair);
    }

    e2e_step("compare");
    put_size("e2e.ctx.all", ctx_all);
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
    for (uint32_t r = 0; r < nprocs; r++) {
        ranks[r] = r;
    }
    same_everywhere("e2e.ctx.all", ctx_all, ranks, nprocs);
    if (0 != ctx_pair) {
        same_everywhere("e2e.ctx.pair", ctx_pair, ranks, 2);
    }

    e2e_step("query");
    E2E_CHECK(listed("wu.all", 1), "the query does not list wu.all");
    E2E_CHECK(listed("wu.pair", -1) == (nprocs >= 2 && e2e_me.rank < 2),
              "the query lists wu.pair wrongly");

    if (nprocs >= 2 && 0 == e2e_me.rank) {
        int tmo = 1;
        e2e_step("timeout");
        PMIX_LOAD_PROCID(&two[1], e2e_me.nspace, nprocs - 1);
        PMIX_INFO_LOAD(&dir[1], PMIX_TIMEOUT, &tmo, PMIX_INT);
        E2E_RC_IS(PMIx_Group_construct("wu.lonely", two, 2, dir, 2, NULL, NULL), PMIX_ERR_TIMEOUT,
                  "a construct the other member never joins");
        PMIX_INFO_DESTRUCT(&dir[1]);
    }

    e2e_step("destruct");
    if (0 != ctx_pair) {
        E2E_RC(PMIx_Group_destruct("wu.pair", NULL, 0), "destruct wu.pair");
    }
    E2E_RC(PMIx_Group_destruct("wu.all", NULL, 0), "destruct wu.all");
    E2E_RC_IS(PMIx_Group_destruct("wu.all", NULL, 0), PMIX_ERR_NOT_FOUND, "a second destruct");
    E2E_CHECK(!listed("wu.all", -1), "the query lists wu.all after its destruct");
    PMIX_INFO_DESTRUCT(&dir[0]);
}

/* What this process's handlers heard: an invitation to wu.inv (from whom), a member leaving. */
static volatile int invited, left;
static pmix_proc_t inviter;

static void on_event(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    bool ours = false;
    (void)ref, (void)results, (void)nresults;
    for (size_t i = 0; i < ninfo; i++) {
        ours =
            ours || (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ID) && PMIX_STRING == info[i].value.type &&
                     0 == strcmp(info[i].value.data.string, "wu.inv"));
    }
    if (ours && PMIX_GROUP_INVITED == status) {
        inviter = *source;
        __atomic_store_n(&invited, 1, __ATOMIC_RELEASE);
    } else if (ours && PMIX_GROUP_LEFT == status) {
        __atomic_store_n(&left, 1, __ATOMIC_RELEASE);
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void await_flag(volatile int *flag)
{
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
        usleep(1000);
    }
}

static void invite(void)
{
    pmix_status_t codes[] = {PMIX_GROUP_INVITED, PMIX_GROUP_LEFT};
    pmix_proc_t two[2], three[3], grp;
    pmix_info_t dir[2];
    pmix_info_t *res = NULL;
    size_t nres = 0, ctx = 0;
    pmix_rank_t pair[2] = {0, 1};
    bool yes = true;
    int tmo = 20;

    e2e_step("register");
    E2E_CHECK(0 <= PMIx_Register_event_handler(codes, 2, NULL, 0, on_event, NULL, NULL),
              "PMIx_Register_event_handler");
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence (handlers registered)");
    PMIX_INFO_LOAD(&dir[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dir[1], PMIX_TIMEOUT, &tmo, PMIX_INT);
    if (0 == e2e_me.rank) {
        e2e_step("invite");
        PMIX_LOAD_PROCID(&two[0], e2e_me.nspace, 1);
        PMIX_LOAD_PROCID(&two[1], e2e_me.nspace, 2);
        /* the leader may name itself among those invited (OpenPMIx's examples do) */
        PMIX_LOAD_PROCID(&three[0], e2e_me.nspace, 0);
        three[1] = two[0];
        three[2] = two[1];
        E2E_RC(PMIx_Group_invite("wu.inv", three, 3, dir, 2, &res, &nres), "PMIx_Group_invite");
        ctx = ctx_of(res, nres, 2, "wu.inv");
        PMIX_INFO_FREE(res, nres);
    } else if (1 == e2e_me.rank) {
        e2e_step("accept");
        await_flag(&invited);
        E2E_CHECK(0 == inviter.rank, "invited by rank %u", inviter.rank);
        E2E_RC(PMIx_Group_join("wu.inv", &inviter, PMIX_GROUP_ACCEPT, dir + 1, 1, &res, &nres),
               "PMIx_Group_join (accept)");
        ctx = ctx_of(res, nres, 2, "wu.inv");
        PMIX_INFO_FREE(res, nres);
    } else if (2 == e2e_me.rank) {
        e2e_step("decline");
        await_flag(&invited);
        E2E_RC(PMIx_Group_join("wu.inv", &inviter, PMIX_GROUP_DECLINE, NULL, 0, NULL, NULL),
               "PMIx_Group_join (decline)");
    }
    e2e_step("compare");
    if (e2e_me.rank < 2) {
        /* a fence over the group's name is a fence of its members */
        PMIX_LOAD_PROCID(&grp, "wu.inv", PMIX_RANK_WILDCARD);
        E2E_RC(PMIx_Fence(&grp, 1, NULL, 0), "PMIx_Fence over wu.inv");
        put_size("e2e.ctx.inv", ctx);
    }
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
    if (e2e_me.rank < 2) {
        same_everywhere("e2e.ctx.inv", ctx, pair, 2);
        E2E_CHECK(listed("wu.inv", 2), "the query does not list wu.inv with 2 members");
    } else {
        E2E_CHECK(!listed("wu.inv", -1), "a process that declined lists wu.inv");
    }

    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence (queried)"); /* before rank 1 leaves */
    e2e_step("leave");
    if (1 == e2e_me.rank) {
        E2E_RC(PMIx_Group_leave("wu.inv", NULL, 0), "PMIx_Group_leave");
        E2E_CHECK(!listed("wu.inv", -1), "wu.inv listed after leaving it");
    } else if (0 == e2e_me.rank) {
        await_flag(&left);
        E2E_CHECK(listed("wu.inv", 1), "wu.inv does not have 1 member after rank 1 left");
        E2E_RC(PMIx_Group_destruct("wu.inv", NULL, 0), "destruct wu.inv");
        e2e_step("unanswered");
        tmo = 1;
        PMIX_INFO_DESTRUCT(&dir[1]);
        PMIX_INFO_LOAD(&dir[1], PMIX_TIMEOUT, &tmo, PMIX_INT);
        E2E_RC_IS(PMIx_Group_invite("wu.inv2", two + 1, 1, dir, 2, NULL, NULL), PMIX_ERR_TIMEOUT,
                  "an invitation nobody answers");
    }
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence (end)");
    PMIX_INFO_DESTRUCT(&dir[0]);
    PMIX_INFO_DESTRUCT(&dir[1]);
}

static void meet(const char *side)
{
    bool a = 0 == strcmp(side, "a");
    char other[PMIX_MAX_NSLEN + 1], mine[32], theirs[32];
    pmix_proc_t both[2], grp, self;
    pmix_info_t dir[2], *res = NULL;
    size_t nres = 0, ctx, solo = 0;
    bool yes = true;
    int tmo = 60;

    PMIX_INFO_LOAD(&dir[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dir[1], PMIX_TIMEOUT, &tmo, PMIX_INT);
    if (a) {
        e2e_step("a group of job a alone");
        PMIX_LOAD_PROCID(&self, e2e_me.nspace, PMIX_RANK_WILDCARD);
        E2E_RC(PMIx_Group_construct("wu.solo", &self, 1, dir, 2, &res, &nres), "construct wu.solo");
        solo = ctx_of(res, nres, 1, "wu.solo");
        PMIX_INFO_FREE(res, nres);
    }
    e2e_step("find the other job");
    e2e_swap_str(a ? "wu.grp.a" : "wu.grp.b", a ? "wu.grp.b" : "wu.grp.a", e2e_me.nspace, other,
                 sizeof other);

    e2e_step("construct wu.meet");
    PMIX_LOAD_PROCID(&both[0], e2e_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&both[1], other, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Group_construct("wu.meet", both, 2, dir, 2, &res, &nres), "construct wu.meet");
    ctx = ctx_of(res, nres, 2, "wu.meet");
    PMIX_INFO_FREE(res, nres);
    E2E_CHECK(!a || ctx != solo, "wu.meet has wu.solo's context id %zu", ctx);

    e2e_step("compare with the other job");
    snprintf(mine, sizeof mine, "%zu", ctx);
    e2e_swap_str(a ? "wu.ctx.a" : "wu.ctx.b", a ? "wu.ctx.b" : "wu.ctx.a", mine, theirs,
                 sizeof theirs);
    E2E_CHECK(0 == strcmp(mine, theirs), "context id of wu.meet: %s here, %s in the other job",
              mine, theirs);
    E2E_CHECK(listed("wu.meet", 2), "the query does not list wu.meet with 2 members");

    e2e_step("fence over wu.meet");
    PMIX_LOAD_PROCID(&grp, "wu.meet", PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Fence(&grp, 1, dir + 1, 1), "PMIx_Fence over wu.meet");

    e2e_step("destruct wu.meet");
    E2E_RC(PMIx_Group_destruct("wu.meet", dir + 1, 1), "destruct wu.meet");
    E2E_CHECK(!listed("wu.meet", -1), "the query lists wu.meet after its destruct");
    if (a) {
        E2E_RC(PMIx_Group_destruct("wu.solo", NULL, 0), "destruct wu.solo");
    }
    PMIX_INFO_DESTRUCT(&dir[0]);
    PMIX_INFO_DESTRUCT(&dir[1]);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "job";
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    if (0 == strcmp(mode, "job")) {
        job();
    } else if (0 == strcmp(mode, "invite")) {
        invite();
    } else if (0 == strcmp(mode, "meet") && argc > 2) {
        meet(argv[2]);
    } else if (0 == strcmp(mode, "alone")) {
        pmix_proc_t other;
        pmix_info_t dir, *res = NULL;
        size_t nres = 0;
        bool yes = true;
        e2e_step("alone");
        PMIX_INFO_LOAD(&dir, PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
        E2E_RC(PMIx_Group_construct("wu.me", &e2e_me, 1, &dir, 1, &res, &nres), "construct wu.me");
        (void)ctx_of(res, nres, 1, "wu.me");
        PMIX_INFO_FREE(res, nres);
        E2E_RC(PMIx_Group_destruct("wu.me", NULL, 0), "destruct wu.me");
        PMIX_LOAD_PROCID(&other, "wu.elsewhere", 0);
        {
            pmix_proc_t two[2] = {e2e_me, other};
            E2E_RC_IS(PMIx_Group_construct("wu.two", two, 2, NULL, 0, NULL, NULL), PMIX_ERR_UNREACH,
                      "a singleton's group with another process");
        }
        PMIX_INFO_DESTRUCT(&dir);
    } else {
        e2e_fail("usage: e2e_group job | invite | meet a|b | alone");
    }
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("group %s: rank %u ok\n", mode, e2e_me.rank);
    return 0;
}
