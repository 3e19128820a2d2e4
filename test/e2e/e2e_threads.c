/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_threads.c -- `wrun -n N e2e_threads [THREADS [ROUNDS]]`: Gets from several threads at
 * once while the main thread Puts, Commits and Fences (MPI_THREAD_MULTIPLE style).
 *
 * Each rank puts "th.v" = round * 65536 + rank and a 1 KiB blob "th.b" whose bytes are
 * (round + rank) & 0xff, commits and fences with PMIX_COLLECT_DATA, ROUNDS times (default 20).
 * THREADS reader threads (default 4) Get all along: the job size (job-level), the own "th.v",
 * and every peer's "th.v" and "th.b". Before the first fence a peer's key can need the server
 * (direct modex); later the answers are in the process. Each reader checks that
 *  - every value belongs to the rank asked about and the blob matches its round's pattern;
 *  - no value is older than one it saw before for the same rank (a stale read);
 *  - after the main thread's fence of round k returned, no peer's value is older than round k
 *    (re-Put + fence never serves a stale value).
 * Each reader also Puts a key of its own ("th.t<id>", a counter) and Commits every 16 passes,
 * concurrently with the main thread's Puts and Commits, and Gets it back at once: Put and
 * Commit run in their callers' threads, and a thread reads its own last Put.
 * Rank prints "threads: rank R of N: ok, G gets, 0 stale" when all checks passed. Public PMIx
 * API only. */
#include "e2e_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define BLOB 1024

static uint32_t nprocs;
static int rounds = 20;
static atomic_int fenced = -1; /* the last round whose fence returned */
static atomic_bool done;

typedef struct {
    pthread_t tid;
    int id;
    long gets;
    long stale;
    char err[256];
} reader_t;

static void put_round(int round)
{
    pmix_value_t v;
    char blob[BLOB];
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT32;
    v.data.uint32 = (uint32_t)round * 65536u + e2e_me.rank;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "th.v", &v), "Put(th.v)");
    memset(blob, (int)((round + (int)e2e_me.rank) & 0xff), sizeof blob);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = blob;
    v.data.bo.size = sizeof blob;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "th.b", &v), "Put(th.b)");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
}

/* One reader's pass over every rank; false with r->err set on a failed check. */
static bool read_all(reader_t *r, int *last)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    int floor = atomic_load(&fenced); /* every value read below is at least this round's */
    PMIX_LOAD_PROCID(&p, e2e_me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&p, PMIX_JOB_SIZE, NULL, 0, &v);
    if (PMIX_SUCCESS != rc || PMIX_UINT32 != v->type || v->data.uint32 != nprocs) {
        snprintf(r->err, sizeof r->err, "Get(JOB_SIZE): %s", PMIx_Error_string(rc));
        return false;
    }
    PMIX_VALUE_RELEASE(v);
    r->gets++;
    for (uint32_t k = 0; k < nprocs; k++) {
        uint32_t rank = (e2e_me.rank + k) % nprocs;
        int round;
        p.rank = rank;
        rc = PMIx_Get(&p, "th.v", NULL, 0, &v);
        if (PMIX_SUCCESS != rc || PMIX_UINT32 != v->type || v->data.uint32 % 65536u != rank) {
            snprintf(r->err, sizeof r->err, "Get(rank %u, th.v): %s", rank,
                     PMIX_SUCCESS != rc ? PMIx_Error_string(rc) : "a value of another rank");
            return false;
        }
        round = (int)(v->data.uint32 / 65536u);
        PMIX_VALUE_RELEASE(v);
        r->gets++;
        if (round < last[rank] || (rank != e2e_me.rank && round < floor)) {
            r->stale++;
            snprintf(r->err, sizeof r->err,
                     "rank %u's th.v of round %d read after round %d (seen) / %d (fenced)", rank,
                     round, last[rank], floor);
            return false;
        }
        last[rank] = round;
        if (rank == e2e_me.rank) {
            continue; /* the own blob is checked by the main thread's puts */
        }
        rc = PMIx_Get(&p, "th.b", NULL, 0, &v);
        if (PMIX_SUCCESS != rc || PMIX_BYTE_OBJECT != v->type || BLOB != v->data.bo.size) {
            snprintf(r->err, sizeof r->err, "Get(rank %u, th.b): %s", rank,
                     PMIX_SUCCESS != rc ? PMIx_Error_string(rc) : "wrong type or size");
            return false;
        }
        /* the blob may be of a later round than th.v was (a fence in between), never older */
        int b = (unsigned char)v->data.bo.bytes[0];
        bool same = true;
        for (size_t i = 1; i < BLOB; i++) {
            same = same && (unsigned char)v->data.bo.bytes[i] == b;
        }
        PMIX_VALUE_RELEASE(v);
        r->gets++;
        if (!same || ((b - (int)rank) & 0xff) < (round & 0xff)) {
            snprintf(r->err, sizeof r->err, "rank %u's th.b: %s (round %d)", rank,
                     !same ? "mixed bytes" : "older than its th.v", round);
            return false;
        }
    }
    return true;
}

/* Put this reader's own key with the value n, commit, and read it back. */
static bool put_own(reader_t *r, uint32_t n)
{
    char key[32];
    pmix_value_t v, *got = NULL;
    pmix_status_t rc;
    snprintf(key, sizeof key, "th.t%d", r->id);
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT32;
    v.data.uint32 = n;
    if (PMIX_SUCCESS != (rc = PMIx_Put(PMIX_GLOBAL, key, &v)) ||
        PMIX_SUCCESS != (rc = PMIx_Commit()) ||
        PMIX_SUCCESS != (rc = PMIx_Get(&e2e_me, key, NULL, 0, &got))) {
        snprintf(r->err, sizeof r->err, "Put/Commit/Get(%s): %s", key, PMIx_Error_string(rc));
        return false;
    }
    if (PMIX_UINT32 != got->type || n != got->data.uint32) {
        snprintf(r->err, sizeof r->err, "Get(%s) after Put of %u: another value", key, n);
        PMIX_VALUE_RELEASE(got);
        return false;
    }
    PMIX_VALUE_RELEASE(got);
    return true;
}

static void *reader(void *arg)
{
    reader_t *r = arg;
    int *last = calloc(nprocs, sizeof *last);
    uint32_t n = 0;
    if (NULL == last) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return NULL;
    }
    for (long pass = 1; !atomic_load(&done) && read_all(r, last); pass++) {
        if (0 == pass % 16 && !put_own(r, ++n)) {
            break;
        }
    }
    free(last);
    return NULL;
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 4;
    reader_t *rd;
    pmix_info_t info;
    bool yes = true, ok = true;
    long gets = 0, stale = 0;

    rounds = argc > 2 ? atoi(argv[2]) : rounds;
    e2e_watchdog_secs = 120;
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    nprocs = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    E2E_CHECK(nthreads > 0 && nthreads <= 64 && rounds > 0 && rounds <= 200,
              "usage: e2e_threads [THREADS (1-64) [ROUNDS (1-200)]]");
    e2e_step("round 0 put + commit");
    put_round(0);
    rd = calloc((size_t)nthreads, sizeof *rd);
    E2E_CHECK(NULL != rd, "out of memory");
    e2e_step("starting the readers");
    for (int t = 0; t < nthreads; t++) {
        rd[t].id = t;
        E2E_CHECK(0 == pthread_create(&rd[t].tid, NULL, reader, &rd[t]), "pthread_create");
    }
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    for (int k = 0; k < rounds; k++) {
        e2e_step("put + commit + fence");
        if (k > 0) {
            put_round(k);
        }
        e2e_fence(&info, 1, "PMIx_Fence(collect)");
        atomic_store(&fenced, k);
    }
    usleep(100 * 1000); /* the readers read the last round for a while */
    atomic_store(&done, true);
    e2e_step("joining the readers");
    for (int t = 0; t < nthreads; t++) {
        pthread_join(rd[t].tid, NULL);
        gets += rd[t].gets;
        stale += rd[t].stale;
        if ('\0' != rd[t].err[0]) {
            fprintf(stderr, "threads: rank %u reader %d: %s\n", e2e_me.rank, t, rd[t].err);
            ok = false;
        }
    }
    free(rd);
    e2e_fence(NULL, 0, "PMIx_Fence");
    PMIX_INFO_DESTRUCT(&info);
    E2E_CHECK(ok && stale == 0 && gets > 0, "%ld stale reads, %ld gets", stale, gets);
    printf("threads: rank %u of %u: ok, %ld gets, %ld stale\n", e2e_me.rank, nprocs, gets, stale);
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
