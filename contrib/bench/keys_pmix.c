/* SPDX-License-Identifier: BSD-3-Clause */
/* keys_pmix.c -- the many-keys program contrib/bench/keys runs (issue 11, item 4): each rank
 * Puts K small keys "bk.0" ... "bk.<K-1>" (PMIX_GLOBAL, uint32 values), Commits, Fences with
 * PMIX_COLLECT_DATA, then Gets all K keys of the next rank and checks their values, then Fences
 * once more. An untimed fence without data precedes the puts and the collecting fence, so that
 * every rank starts each of these phases together. Rank 0 prints the wall time of its phases:
 *   keys_pmix: procs=N keys=K put_s=<s> commit_s=<s> fence_s=<s> get_s=<s>
 * Usage: keys_pmix K   (K >= 0 keys per rank)
 * Uses nothing but <pmix.h>: the same source builds against OpenPMIx (and runs under mpirun). */
#include <pmix.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pmix_proc_t me;

/* now_s: the monotonic clock in seconds */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* value_of: the value rank r puts under key i (differs between ranks and keys) */
static uint32_t value_of(uint32_t r, long i)
{
    return r * 2654435761u + (uint32_t)i;
}

/* fail: report what failed on this rank, end the PMIx session and exit 1 */
static void fail(const char *what, long i, pmix_status_t rc)
{
    fprintf(stderr, "keys_pmix rank %u: %s (key %ld) failed: %s\n", me.rank, what, i,
            PMIx_Error_string(rc));
    PMIx_Finalize(NULL, 0);
    exit(1);
}

/* fence: a fence over the whole job, collecting the committed data if COLLECT */
static void fence(bool collect)
{
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        fail(collect ? "PMIx_Fence(PMIX_COLLECT_DATA)" : "PMIx_Fence", -1, rc);
    }
}

int main(int argc, char **argv)
{
    pmix_proc_t wild, next;
    pmix_value_t val, *v = NULL;
    pmix_status_t rc;
    char key[PMIX_MAX_KEYLEN + 1], *end;
    uint32_t size;
    double t[5];
    long k;

    if (argc != 2 || (k = strtol(argv[1], &end, 10)) < 0 || *end != '\0' || end == argv[1]) {
        fprintf(stderr, "usage: keys_pmix K   (K >= 0 keys per rank)\n");
        return 2;
    }
    if ((rc = PMIx_Init(&me, NULL, 0)) != PMIX_SUCCESS) {
        fprintf(stderr, "keys_pmix: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v)) != PMIX_SUCCESS) {
        fail("Get(PMIX_JOB_SIZE)", -1, rc);
    }
    size = (v->type == PMIX_UINT32) ? v->data.uint32 : 0;
    PMIX_VALUE_RELEASE(v);
    if (size == 0) {
        fail("Get(PMIX_JOB_SIZE) type", -1, PMIX_ERR_BAD_PARAM);
    }
    PMIX_LOAD_PROCID(&next, me.nspace, (me.rank + 1) % size);

    fence(false);
    t[0] = now_s();
    for (long i = 0; i < k; i++) {
        snprintf(key, sizeof(key), "bk.%ld", i);
        PMIX_VALUE_CONSTRUCT(&val);
        val.type = PMIX_UINT32;
        val.data.uint32 = value_of(me.rank, i);
        if ((rc = PMIx_Put(PMIX_GLOBAL, key, &val)) != PMIX_SUCCESS) {
            fail("PMIx_Put", i, rc);
        }
    }
    t[1] = now_s();
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
        fail("PMIx_Commit", -1, rc);
    }
    t[2] = now_s();
    fence(false);
    t[3] = now_s();
    fence(true);
    t[4] = now_s();
    for (long i = 0; i < k; i++) {
        snprintf(key, sizeof(key), "bk.%ld", i);
        if ((rc = PMIx_Get(&next, key, NULL, 0, &v)) != PMIX_SUCCESS) {
            fail("PMIx_Get of the next rank", i, rc);
        }
        if (v->type != PMIX_UINT32 || v->data.uint32 != value_of(next.rank, i)) {
            fprintf(stderr, "keys_pmix rank %u: key %s of rank %u has a wrong value\n", me.rank,
                    key, next.rank);
            PMIX_VALUE_RELEASE(v);
            fail("checking a value", i, PMIX_ERROR);
        }
        PMIX_VALUE_RELEASE(v);
    }
    double t_get = now_s() - t[4];
    fence(false);
    if (me.rank == 0) {
        printf("keys_pmix: procs=%u keys=%ld put_s=%.6f commit_s=%.6f fence_s=%.6f get_s=%.6f\n",
               size, k, t[1] - t[0], t[2] - t[1], t[4] - t[3], t_get);
        fflush(stdout);
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
