/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_bench.c -- PMIx-API-only micro benchmark, run under a launcher (contrib/bench/run.sh, and
 * contrib/bench/pmix next to mpirun): Get latency of a job-level key, an own proc-level key and
 * a peer's key (after a collecting fence; rank 0 alone Gets while the others wait), Put+Commit, a collecting Fence with 0 B, 1 KiB and
 * 64 KiB put per rank, and re-Put + fence + Get of the peer's new value, counting the Gets that
 * returned an older value (stale_reads, to stay 0). Rank 0 prints one line per metric:
 *   metric=<name> n=<N> value=<mean microseconds per op> unit=us
 * and, read from /proc right after PMIx_Init, the memory of the process and of its parent (the
 * launcher that hosts the PMIx server when everything runs on one node):
 *   metric=mem_client_private_dirty n=1 value=<kB> unit=kB
 *   metric=mem_server_rss n=1 value=<kB> unit=kB
 * Options: -i N  iterations of the Get and Put metrics (default 10000)
 *          -f N  iterations of the Fence metrics (default 200)
 * Uses nothing but <pmix.h> of PMIx: the same source builds against OpenPMIx. */
#include <pmix.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t me;
static uint32_t nprocs;

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

/* The kB of the first line of /proc/<path> that starts with field, or -1. */
static long proc_kb(const char *path, const char *field)
{
    char fn[64], line[256];
    long kb = -1;
    size_t len = strlen(field);
    FILE *f;
    snprintf(fn, sizeof fn, "/proc/%s", path);
    if ((f = fopen(fn, "r")) == NULL) {
        return -1;
    }
    while (kb < 0 && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, field, len) == 0) {
            kb = strtol(line + len, NULL, 10);
        }
    }
    fclose(f);
    return kb;
}

static void report_memory(void)
{
    char path[64];
    long client = proc_kb("self/smaps_rollup", "Private_Dirty:"), server;
    snprintf(path, sizeof path, "%ld/status", (long)getppid());
    server = proc_kb(path, "VmRSS:");
    if (me.rank == 0 && client >= 0 && server >= 0) {
        printf("metric=mem_client_private_dirty n=1 value=%ld unit=kB\n", client);
        printf("metric=mem_server_rss n=1 value=%ld unit=kB\n", server);
        fflush(stdout);
    }
}

static void fence(bool collect)
{
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    /* OpenPMIx 4.2 answers some collecting fences after re-Puts with PMIX_ERR_PARTIAL_SUCCESS; the
     * rounds go on (a value that did not arrive is counted as a stale read) */
    if (rc != PMIX_SUCCESS && rc != PMIX_ERR_PARTIAL_SUCCESS) {
        die("PMIx_Fence", rc);
    }
}

/* The latency of a Get answered in the process: rank 0 alone loops while the others wait in a
 * fence, so that ranks sharing the cores do not stretch its time. */
static void get_loop(const char *name, const pmix_proc_t *who, const char *key, long iters)
{
    pmix_value_t *v;
    pmix_status_t rc;
    if (me.rank == 0) {
        double t0 = now_us();
        for (long i = 0; i < iters; i++) {
            if ((rc = PMIx_Get(who, key, NULL, 0, &v)) != PMIX_SUCCESS) {
                die(name, rc);
            }
            PMIX_VALUE_RELEASE(v);
        }
        report(name, iters, now_us() - t0);
    }
    fence(false);
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

/* Each rank re-Puts "bench.re" = i, commits and fences with collect; then Gets the peer's: a
 * value other than i, or none, is a stale read. Rank 0 reports the time per round and the stale reads of
 * all ranks. */
static void reput_loop(const pmix_proc_t *peer, long iters)
{
    pmix_value_t v, *got;
    pmix_status_t rc;
    long stale = 0;
    double t0 = now_us();
    for (long i = 0; i < iters; i++) {
        PMIX_VALUE_CONSTRUCT(&v);
        v.type = PMIX_UINT64;
        v.data.uint64 = (uint64_t)i;
        if ((rc = PMIx_Put(PMIX_GLOBAL, "bench.re", &v)) != PMIX_SUCCESS) {
            die("PMIx_Put(bench.re)", rc);
        }
        if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
            die("PMIx_Commit", rc);
        }
        fence(true);
        if ((rc = PMIx_Get(peer, "bench.re", NULL, 0, &got)) != PMIX_SUCCESS) {
            stale++; /* the value the fence should have brought is not there */
            continue;
        }
        stale += got->type != PMIX_UINT64 || got->data.uint64 != (uint64_t)i;
        PMIX_VALUE_RELEASE(got);
    }
    report("reput_fence_get", iters, now_us() - t0);
    /* every rank's count, put under a new key and collected: rank 0 reports the sum */
    v.type = PMIX_INT64;
    v.data.int64 = stale;
    if ((rc = PMIx_Put(PMIX_GLOBAL, "bench.stale", &v)) != PMIX_SUCCESS ||
        (rc = PMIx_Commit()) != PMIX_SUCCESS) {
        die("PMIx_Put(bench.stale)", rc);
    }
    fence(true);
    if (me.rank == 0) {
        pmix_proc_t p = *peer;
        for (p.rank = 1; p.rank < nprocs; p.rank++) {
            if ((rc = PMIx_Get(&p, "bench.stale", NULL, 0, &got)) != PMIX_SUCCESS) {
                die("PMIx_Get(bench.stale)", rc);
            }
            stale += got->type == PMIX_INT64 ? got->data.int64 : 0;
            PMIX_VALUE_RELEASE(got);
        }
        printf("metric=stale_reads n=%ld value=%ld unit=count\n", iters * (long)nprocs, stale);
        fflush(stdout);
    }
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
    report_memory();
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &got)) != PMIX_SUCCESS) {
        die("PMIx_Get(job size)", rc);
    }
    nprocs = got->data.uint32;
    PMIX_VALUE_RELEASE(got);
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % nprocs);

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
    reput_loop(&peer, fiters);

    if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS) {
        die("PMIx_Finalize", rc);
    }
    return 0;
}
