/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_singleton.c -- run WITHOUT wrun (no server contact in the environment): PMIx_Init makes
 * a singleton: namespace "singleton.<host>.<pid>", rank 0, job size 1, and Put/Commit/Get of
 * its own data and a Fence over itself work. */
#include "e2e_util.h"

int main(void)
{
    char host[256], want[512];
    pmix_value_t v, *got;
    pmix_info_t info;
    pmix_proc_t self;
    bool yes = true;

    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';
    E2E_CHECK(getenv("PMIX_NAMESPACE") == NULL && getenv("WU_PMIX_SERVER_URI") == NULL,
              "run this without a server (PMIX_NAMESPACE / WU_PMIX_SERVER_URI are set)");
    e2e_step("PMIx_Init as a singleton");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    snprintf(want, sizeof(want), "singleton.%s.%ld", host, (long)getpid());
    E2E_CHECK(strcmp(e2e_me.nspace, want) == 0, "nspace '%s', expected '%s'", e2e_me.nspace, want);
    E2E_CHECK(e2e_me.rank == 0, "rank %u, expected 0", e2e_me.rank);
    E2E_CHECK(PMIx_Initialized(), "PMIx_Initialized() false");

    e2e_step("job size");
    uint32_t n = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    E2E_CHECK(n == 1, "pmix.job.size = %u, expected 1", n);

    e2e_step("Put/Commit/Get own data");
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = "singleton-value";
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "e2e.single", &v), "Put");
    v.type = PMIX_UINT64;
    v.data.uint64 = 0x0123456789abcdefULL;
    E2E_RC(PMIx_Put(PMIX_LOCAL, "e2e.single64", &v), "Put");
    E2E_RC(PMIx_Commit(), "Commit");
    got = e2e_get_typed(e2e_me.nspace, 0, "e2e.single", PMIX_STRING, NULL, 0);
    E2E_CHECK(strcmp(got->data.string, "singleton-value") == 0, "got '%s'", got->data.string);
    e2e_free_value(got);
    got = e2e_get_typed(e2e_me.nspace, 0, "e2e.single64", PMIX_UINT64, NULL, 0);
    E2E_CHECK(got->data.uint64 == 0x0123456789abcdefULL, "got %llx",
              (unsigned long long)got->data.uint64);
    e2e_free_value(got);

    e2e_step("Fence over itself");
    e2e_fence(NULL, 0, "PMIx_Fence(NULL)");
    PMIX_LOAD_PROCID(&self, e2e_me.nspace, 0);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    E2E_RC(PMIx_Fence(&self, 1, &info, 1), "PMIx_Fence(self, collect)");
    PMIX_LOAD_PROCID(&self, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Fence(&self, 1, &info, 1), "PMIx_Fence(WILDCARD, collect)");
    PMIX_INFO_DESTRUCT(&info);
    got = e2e_get_typed(e2e_me.nspace, 0, "e2e.single", PMIX_STRING, NULL, 0);
    e2e_free_value(got);

    e2e_step("missing key");
    pmix_status_t st;
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    got = e2e_get(e2e_me.nspace, 0, "e2e.never", &info, 1, &st);
    PMIX_INFO_DESTRUCT(&info);
    E2E_CHECK(got == NULL && st == PMIX_ERR_NOT_FOUND, "Get(missing) returned %s",
              PMIx_Error_string(st));

    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    E2E_CHECK(!PMIx_Initialized(), "PMIx_Initialized() true after Finalize");
    printf("singleton %s: ok\n", want);
    return 0;
}
