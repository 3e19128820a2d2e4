/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_bench.c -- PMIx-API-only micro benchmark, run under a launcher (contrib/bench/run.sh):
 * Get latency of a job-level key, an own proc-level key and a peer's key (after a collecting
 * fence), Put+Commit, and a collecting Fence with 0 B, 1 KiB and 64 KiB put per rank. Rank 0
 * prints one line per metric:  metric=<name> n=<N> value=<mean microseconds per op> unit=us
 * Options: -i N  iterations of the Get and Put metrics (default 10000)
 *          -f N  iterations of the Fence metrics (default 200)
 * Uses nothing but <pmix.h>: the same source builds against OpenPMIx. */
#include <pmix.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t me;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "wu_bench rank %u: %s failed: %s\n", me.rank, what, PMIx_Error_string(rc));
    exit(1);
}

static void report(const char *name, long n, double total_us)
{
    if (me.rank == 0) {
        printf("metric=%s n=%ld value=%.3f unit=us\n", name, n, total_us / (double)n);
        fflush(stdout);
    }
}

static void get_loop(const char *name, const pmix_proc_t *who, const char *key, long iters)
{
    pmix_value_t *v;
    pmix_status_t rc;
    double t0 = now_us();
    for (long i = 0; i < iters; i++) {
        if ((rc = PMIx_Get(who, key, NULL, 0, &v)) != PMIX_SUCCESS) {
            die(name, rc);
        }
        PMIX_VALUE_RELEASE(v);
    }
    report(name, iters, now_us() - t0);
}

static void fence(bool collect)
{
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        die("PMIx_Fence", rc);
    }
}

static void fence_loop(const char *name, size_t bytes, long iters)
{
    pmix_value_t v;
    pmix_status_t rc;
    char *buf = calloc(1, bytes ? bytes : 1);
    if (buf == NULL) {
        die("calloc", PMIX_ERR_NOMEM);
    }
    memset(buf, (int)(me.rank & 0x7f), bytes);
    fence(false);
    double t0 = now_us();
    for (long i = 0; i < iters; i++) {
        if (bytes > 0) {
            PMIX_VALUE_CONSTRUCT(&v);
            v.type = PMIX_BYTE_OBJECT;
            v.data.bo.bytes = buf;
            v.data.bo.size = bytes;
            if ((rc = PMIx_Put(PMIX_GLOBAL, "bench.fence", &v)) != PMIX_SUCCESS) {
                die("PMIx_Put", rc);
            }
            if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
                die("PMIx_Commit", rc);
            }
        }
        fence(true);
    }
    report(name, iters, now_us() - t0);
    free(buf);
}

int main(int argc, char **argv)
{
    long iters = 10000, fiters = 200;
    pmix_proc_t wild, peer;
    pmix_value_t v, *got;
    pmix_status_t rc;
    int c;

    while ((c = getopt(argc, argv, "i:f:")) != -1) {
        if (c == 'i') {
            iters = strtol(optarg, NULL, 10);
        } else if (c == 'f') {
            fiters = strtol(optarg, NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [-i get/put iterations] [-f fence iterations]\n", argv[0]);
            return 2;
        }
    }
    if (iters < 1 || fiters < 1) {
        fprintf(stderr, "wu_bench: iteration counts must be positive\n");
        return 2;
    }
    if ((rc = PMIx_Init(&me, NULL, 0)) != PMIX_SUCCESS) {
        die("PMIx_Init", rc);
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &got)) != PMIX_SUCCESS) {
        die("PMIx_Get(job size)", rc);
    }
    uint32_t n = got->data.uint32;
    PMIX_VALUE_RELEASE(got);
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % n);

    /* the values the Gets read */
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT64;
    v.data.uint64 = 42u + me.rank;
    if ((rc = PMIx_Put(PMIX_GLOBAL, "bench.key", &v)) != PMIX_SUCCESS) {
        die("PMIx_Put", rc);
    }
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
        die("PMIx_Commit", rc);
    }
    fence(true);

    get_loop("get_job_level", &wild, PMIX_JOB_SIZE, iters);
    get_loop("get_own_proc_level", &me, "bench.key", iters);
    get_loop("get_peer_key", &peer, "bench.key", iters);

    double t0 = now_us();
    for (long i = 0; i < iters; i++) {
        v.data.uint64 = (uint64_t)i;
        if ((rc = PMIx_Put(PMIX_GLOBAL, "bench.put", &v)) != PMIX_SUCCESS) {
            die("PMIx_Put", rc);
        }
        if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
            die("PMIx_Commit", rc);
        }
    }
    report("put_commit", iters, now_us() - t0);

    fence_loop("fence_collect_0B", 0, fiters);
    fence_loop("fence_collect_1KiB", 1024, fiters);
    fence_loop("fence_collect_64KiB", 64 * 1024, fiters);

    if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS) {
        die("PMIx_Finalize", rc);
    }
    return 0;
}
