/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_cred.c -- PMIx_Get_credential and PMIx_Validate_credential under wrun (psec native's
 * credentials).
 *   e2e_cred job    every rank gets a credential (blocking and _nb) and validates its own: it
 *                   names this process (PMIX_USERID, PMIX_GRPID, PMIX_PROCID) and its type
 *                   "native"; the ranks exchange their credentials with a fence and each
 *                   validates the next rank's; an altered, a truncated and a made-up credential
 *                   are PMIX_ERR_INVALID_CRED; PMIX_CRED_TYPE "munge" alone is
 *                   PMIX_ERR_NOT_SUPPORTED, "munge,native" gets one.
 *   e2e_cred alone  a singleton (no wrun): both calls are PMIX_ERR_UNREACH.
 * Prints "cred MODE: rank R ok". */
#include "pmix.h"
#include "e2e_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    pmix_status_t st;
    pmix_byte_object_t cred;
    char type[32];
    volatile int done;
} nb_t;

static void got(pmix_status_t st, pmix_byte_object_t *cred, pmix_info_t info[], size_t ninfo,
                void *cbdata)
{
    nb_t *nb = cbdata;
    nb->st = st;
    if (PMIX_SUCCESS == st) {
        nb->cred.bytes = malloc(cred->size);
        memcpy(nb->cred.bytes, cred->bytes, cred->size);
        nb->cred.size = cred->size;
    }
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_CRED_TYPE) && PMIX_STRING == info[i].value.type) {
            snprintf(nb->type, sizeof nb->type, "%s", info[i].value.data.string);
        }
    }
    __atomic_store_n(&nb->done, 1, __ATOMIC_RELEASE);
}

/* Validate cred and check that it names (ns, rank) of this user. */
static void expect_owner(const pmix_byte_object_t *cred, const char *ns, pmix_rank_t rank)
{
    pmix_info_t *res = NULL;
    size_t nres = 0;
    bool uid = false, gid = false, proc = false, type = false;
    E2E_RC(PMIx_Validate_credential(cred, NULL, 0, &res, &nres), "PMIx_Validate_credential");
    for (size_t i = 0; i < nres; i++) {
        pmix_value_t *v = &res[i].value;
        if (PMIX_CHECK_KEY(&res[i], PMIX_USERID)) {
            uid = PMIX_UINT32 == v->type && v->data.uint32 == (uint32_t)getuid();
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_GRPID)) {
            gid = PMIX_UINT32 == v->type && v->data.uint32 == (uint32_t)getgid();
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_PROCID)) {
            proc = PMIX_PROC == v->type && PMIX_CHECK_NSPACE(v->data.proc->nspace, ns) &&
                   v->data.proc->rank == rank;
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_CRED_TYPE)) {
            type = PMIX_STRING == v->type && 0 == strcmp(v->data.string, "native");
        }
    }
    E2E_CHECK(uid && gid && proc && type,
              "the credential of rank %u validates to uid %d gid %d proc %d type %d (of %zu)", rank,
              uid, gid, proc, type, nres);
    PMIX_INFO_FREE(res, nres);
}

static void expect_invalid(const char *bytes, size_t size, const char *what)
{
    pmix_byte_object_t bo = {(char *)bytes, size};
    pmix_info_t *res = NULL;
    size_t nres = 0;
    E2E_RC_IS(PMIx_Validate_credential(&bo, NULL, 0, &res, &nres), PMIX_ERR_INVALID_CRED, what);
    E2E_CHECK(NULL == res && 0 == nres, "%s: results with a failure", what);
}

static void job(void)
{
    pmix_byte_object_t mine, theirs;
    pmix_value_t v, *got_v = NULL;
    pmix_proc_t next, all;
    pmix_info_t dir;
    uint32_t size;
    nb_t nb = {0};
    char *bad;
    pmix_value_t *sz;
    pmix_status_t st;

    e2e_step("get");
    E2E_RC(PMIx_Get_credential(NULL, 0, &mine), "PMIx_Get_credential");
    E2E_CHECK(NULL != mine.bytes && 0 < mine.size, "an empty credential");
    expect_owner(&mine, e2e_me.nspace, e2e_me.rank);

    e2e_step("get_nb");
    E2E_RC(PMIx_Get_credential_nb(NULL, 0, got, &nb), "PMIx_Get_credential_nb");
    while (!__atomic_load_n(&nb.done, __ATOMIC_ACQUIRE)) {
        usleep(1000);
    }
    E2E_RC(nb.st, "PMIx_Get_credential_nb's callback");
    E2E_CHECK(0 == strcmp(nb.type, "native"), "PMIX_CRED_TYPE '%s'", nb.type);
    expect_owner(&nb.cred, e2e_me.nspace, e2e_me.rank);
    free(nb.cred.bytes);

    e2e_step("types");
    PMIX_INFO_LOAD(&dir, PMIX_CRED_TYPE, "munge", PMIX_STRING);
    E2E_RC_IS(PMIx_Get_credential(&dir, 1, &theirs), PMIX_ERR_NOT_SUPPORTED,
              "PMIx_Get_credential of type munge");
    PMIX_INFO_DESTRUCT(&dir);
    PMIX_INFO_LOAD(&dir, PMIX_CRED_TYPE, "munge,native", PMIX_STRING);
    E2E_RC(PMIx_Get_credential(&dir, 1, &theirs), "PMIx_Get_credential of type munge,native");
    PMIX_INFO_DESTRUCT(&dir);
    PMIX_BYTE_OBJECT_DESTRUCT(&theirs);

    e2e_step("forged");
    bad = malloc(mine.size);
    memcpy(bad, mine.bytes, mine.size);
    bad[mine.size / 2] ^= 0x01; /* one bit of the text */
    expect_invalid(bad, mine.size, "an altered credential");
    memcpy(bad, mine.bytes, mine.size);
    bad[mine.size - 1] = '0' == bad[mine.size - 1] ? '1' : '0'; /* one digit of the tag */
    expect_invalid(bad, mine.size, "a credential with another tag");
    expect_invalid(mine.bytes, mine.size - 1, "a truncated credential");
    expect_invalid("wucred1:0:0:0:0:x:00000000000000000000000000000000", 50, "a made-up one");
    free(bad);

    e2e_step("exchange");
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo = mine;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "e2e.cred", &v), "PMIx_Put");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
    PMIX_LOAD_PROCID(&all, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Get(&all, PMIX_JOB_SIZE, NULL, 0, &sz), "PMIx_Get(PMIX_JOB_SIZE)");
    size = sz->data.uint32;
    PMIX_VALUE_RELEASE(sz);
    PMIX_LOAD_PROCID(&next, e2e_me.nspace, (e2e_me.rank + 1) % size);
    st = PMIx_Get(&next, "e2e.cred", NULL, 0, &got_v);
    E2E_RC(st, "PMIx_Get of the next rank's credential");
    E2E_CHECK(PMIX_BYTE_OBJECT == got_v->type, "the credential's type %d", got_v->type);
    expect_owner(&got_v->data.bo, e2e_me.nspace, next.rank);
    PMIX_VALUE_RELEASE(got_v);
    PMIX_BYTE_OBJECT_DESTRUCT(&mine);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "job";
    pmix_status_t st;

    e2e_step("init");
    st = PMIx_Init(&e2e_me, NULL, 0);
    E2E_RC(st, "PMIx_Init");
    if (0 == strcmp(mode, "job")) {
        job();
    } else if (0 == strcmp(mode, "alone")) {
        pmix_byte_object_t bo = {"x", 1};
        pmix_info_t *res = NULL;
        size_t nres = 0;
        e2e_step("alone");
        E2E_RC_IS(PMIx_Get_credential(NULL, 0, &bo), PMIX_ERR_UNREACH, "a singleton's Get");
        bo.bytes = "x";
        bo.size = 1;
        E2E_RC_IS(PMIx_Validate_credential(&bo, NULL, 0, &res, &nres), PMIX_ERR_UNREACH,
                  "a singleton's Validate");
    } else {
        e2e_fail("usage: e2e_cred job | alone");
    }
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("cred %s: rank %u ok\n", mode, e2e_me.rank);
    return 0;
}
