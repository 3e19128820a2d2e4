/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_big.c -- `wrun ... e2e_big MODE KIB`: large values through Put, Commit, Fence and Get, for
 * bigdata.sh. Each rank puts one PMIX_BYTE_OBJECT of KIB KiB under "big" (PMIX_GLOBAL; bytes
 * from e2e_pattern, so a value of the wrong rank or a corrupted one is seen) and commits.
 *
 *   collect   fence with PMIX_COLLECT_DATA, then Get every peer's value and check its bytes
 *   direct    fence without collecting: every Get is a direct modex
 *   commit    only rank 0 puts the large value (the others a small one); prints
 *             "commit rank R: STATUS" and "get rank R: STATUS" for the Get of rank 0's "big"
 *             by every other rank (they may ask before rank 0's commit has failed: the
 *             answer must come anyway)
 *   fence     every rank commits its value, then fences with PMIX_COLLECT_DATA; prints
 *             "fence rank R: STATUS"
 *
 * After its checks rank 0 prints "wrun VmHWM KB: N", the peak resident memory of its parent,
 * wrun (the PMIx server), read from /proc while the job still runs. Public PMIx API only. */
#include "e2e_util.h"

#include <stdint.h>

#define KEY "big"

/* The value of rank r: a byte object of size bytes. */
static void make_value(pmix_value_t *v, pmix_rank_t r, size_t size)
{
    char *bytes = malloc(size);
    if (NULL == bytes) {
        e2e_fail("no memory for %zu bytes", size);
    }
    for (size_t i = 0; i < size; i++) {
        bytes[i] = (char)e2e_pattern(r, size, i);
    }
    PMIX_VALUE_CONSTRUCT(v);
    v->type = PMIX_BYTE_OBJECT;
    v->data.bo.bytes = bytes;
    v->data.bo.size = size;
}

/* Fail unless v is the value of rank r. */
static void check_value(const pmix_value_t *v, pmix_rank_t r, size_t size)
{
    E2E_CHECK(PMIX_BYTE_OBJECT == v->type, "value of rank %u has type %s", r,
              PMIx_Data_type_string(v->type));
    E2E_CHECK(size == v->data.bo.size, "value of rank %u has %zu bytes, expected %zu", r,
              v->data.bo.size, size);
    for (size_t i = 0; i < size; i++) {
        if ((unsigned char)v->data.bo.bytes[i] != e2e_pattern(r, size, i)) {
            e2e_fail("value of rank %u differs at byte %zu", r, i);
        }
    }
}

/* VmHWM (kB) of the parent process (wrun), or -1. */
static long parent_hwm(void)
{
    char path[64], line[256];
    long kb = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%ld/status", (long)getppid());
    if (NULL == (f = fopen(path, "r"))) {
        return -1;
    }
    while (NULL != fgets(line, sizeof line, f)) {
        if (1 == sscanf(line, "VmHWM: %ld", &kb)) {
            break;
        }
    }
    fclose(f);
    return kb;
}

static void put_commit(size_t size, pmix_status_t want)
{
    pmix_value_t v;
    pmix_status_t st;
    make_value(&v, e2e_me.rank, size);
    e2e_step("PMIx_Put");
    E2E_RC(PMIx_Put(PMIX_GLOBAL, KEY, &v), "PMIx_Put");
    PMIX_VALUE_DESTRUCT(&v);
    e2e_step("PMIx_Commit");
    st = PMIx_Commit();
    if (PMIX_SUCCESS != want) {
        printf("commit rank %u: %s\n", e2e_me.rank, PMIx_Error_string(st));
        fflush(stdout);
        E2E_CHECK(PMIX_SUCCESS != st, "PMIx_Commit of %zu bytes succeeded", size);
    } else {
        E2E_RC(st, "PMIx_Commit");
    }
}

static void get_all(size_t size)
{
    uint32_t n = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    for (uint32_t k = 1; k <= n; k++) {
        pmix_rank_t r = (e2e_me.rank + k) % n; /* own value last */
        pmix_value_t *v;
        e2e_step("PMIx_Get");
        v = e2e_get_typed(e2e_me.nspace, r, KEY, PMIX_BYTE_OBJECT, NULL, 0);
        check_value(v, r, size);
        e2e_free_value(v);
    }
}

int main(int argc, char **argv)
{
    const char *mode;
    size_t size;
    pmix_info_t collect;
    bool yes = true;

    if (3 != argc) {
        fprintf(stderr, "usage: e2e_big collect|direct|commit|fence KIB\n");
        return 2;
    }
    mode = argv[1];
    size = (size_t)strtoull(argv[2], NULL, 10) * 1024;
    e2e_watchdog_secs = 100;
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);

    if (0 == strcmp(mode, "collect") || 0 == strcmp(mode, "direct")) {
        put_commit(size, PMIX_SUCCESS);
        e2e_step("PMIx_Fence");
        e2e_fence(0 == strcmp(mode, "collect") ? &collect : NULL,
                  0 == strcmp(mode, "collect") ? 1 : 0, "PMIx_Fence");
        get_all(size);
    } else if (0 == strcmp(mode, "commit")) {
        pmix_status_t st;
        pmix_value_t *v;
        put_commit(0 == e2e_me.rank ? size : 1024, 0 == e2e_me.rank ? PMIX_ERROR : PMIX_SUCCESS);
        if (0 != e2e_me.rank) {
            e2e_step("PMIx_Get of the value whose commit failed");
            v = e2e_get(e2e_me.nspace, 0, KEY, NULL, 0, &st);
            E2E_CHECK(NULL == v, "Get of rank 0's value succeeded");
            printf("get rank %u: %s\n", e2e_me.rank, PMIx_Error_string(st));
            fflush(stdout);
        }
    } else if (0 == strcmp(mode, "fence")) {
        pmix_status_t st;
        put_commit(size, PMIX_SUCCESS);
        e2e_step("PMIx_Fence");
        st = PMIx_Fence(NULL, 0, &collect, 1);
        printf("fence rank %u: %s\n", e2e_me.rank, PMIx_Error_string(st));
        fflush(stdout);
    } else {
        e2e_fail("unknown mode %s", mode);
    }
    e2e_step("PMIx_Fence (the end)");
    e2e_fence(NULL, 0, "PMIx_Fence (the end)");
    if (0 == e2e_me.rank) {
        printf("wrun VmHWM KB: %ld\n", parent_hwm());
        fflush(stdout);
    }
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
