/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_shmem.c -- fence data and registered data in shared segments (gds/shmem), seen from a
 * client, and the ways a job that mapped them can end.
 *
 *   e2e_shmem normal|abort|crash|hold|job DIR
 *
 * job: right after PMIx_Init the rank counts the job segments it has mapped (memfds
 * "wu-shm-job": the job's registered per-process data, when the server laid it out as one) and
 * writes the count to DIR/jobseg.RANK;
 * it reads every rank's registered data (PMIX_RANK's kin, PMIX_LOCAL_RANK, PMIX_NODE_RANK,
 * PMIX_HOSTNAME, PMIX_NODEID, PMIX_APPNUM) and checks it, then does one round as below and reads
 * it all again (a fence segment that holds a rank does not hide its registered data), prints
 * "shm job: rank R of N: ok, job segments=S" and finalizes.
 * The others:
 *
 * Every rank writes its pid to DIR/pid.RANK, Puts a 64 KiB blob and a small integer, commits and
 * fences with PMIX_COLLECT_DATA, then reads every rank's values and checks them byte for byte.
 * It counts the fence segments it has mapped (lines of /proc/self/maps naming a memfd
 * "wu-shm-fence") and prints "shm: rank R of N: ok, segments=S", and writes S to DIR/seg.RANK. Then:
 *   normal  a second round (new values) to show the newest segment wins, and PMIx_Finalize;
 *   abort   the last rank calls PMIx_Abort(7), the others wait;
 *   crash   the last rank kills itself with SIGKILL (a client that mapped a segment dies), the
 *           others wait in a fence that cannot complete;
 *   hold    every rank sleeps (the test kills wrun with SIGKILL). */
#include "e2e_util.h"

#include <signal.h>

#define BLOB (64 * 1024)

static void write_file(const char *dir, const char *what, pmix_rank_t r, long value)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.%u", dir, what, r);
    f = fopen(path, "w");
    E2E_CHECK(f != NULL, "cannot create %s", path);
    fprintf(f, "%ld\n", value);
    E2E_CHECK(fclose(f) == 0, "cannot write %s", path);
}

/* The memfds named what ("wu-shm-fence", "wu-shm-job") this process has mapped. */
static long segments(const char *what)
{
    char line[4096], name[64];
    long n = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    E2E_CHECK(f != NULL, "cannot read /proc/self/maps");
    snprintf(name, sizeof name, "/memfd:%s ", what);
    while (fgets(line, sizeof line, f) != NULL) {
        n += strstr(line, name) != NULL ? 1 : 0;
    }
    fclose(f);
    return n;
}

static unsigned char byte_of(pmix_rank_t r, int round)
{
    return (unsigned char)(0x20 + r * 7 + round * 13);
}

/* Every rank's registered per-process data, checked against what one node (wrun -n N, no
 * mapping options) gives: local and node rank equal the rank, one host, node 0, app 0. */
static int check_registered(const char *ns, uint32_t n)
{
    char *host = e2e_get_str(ns, e2e_me.rank, PMIX_HOSTNAME);
    int checked = 0;
    for (pmix_rank_t r = 0; r < n; r++) {
        pmix_value_t *v = e2e_get_typed(ns, r, PMIX_GLOBAL_RANK, PMIX_PROC_RANK, NULL, 0);
        char *h;
        E2E_CHECK(v->data.rank == r, "rank %u's PMIX_GLOBAL_RANK is %u", r, v->data.rank);
        e2e_free_value(v);
        E2E_CHECK(e2e_get_u16(ns, r, PMIX_LOCAL_RANK) == r, "rank %u's PMIX_LOCAL_RANK", r);
        E2E_CHECK(e2e_get_u16(ns, r, PMIX_NODE_RANK) == r, "rank %u's PMIX_NODE_RANK", r);
        E2E_CHECK(e2e_get_u32(ns, r, PMIX_NODEID) == 0, "rank %u's PMIX_NODEID", r);
        E2E_CHECK(e2e_get_u32(ns, r, PMIX_APPNUM) == 0, "rank %u's PMIX_APPNUM", r);
        h = e2e_get_str(ns, r, PMIX_HOSTNAME);
        E2E_CHECK(h != NULL && host != NULL && strcmp(h, host) == 0,
                  "rank %u's PMIX_HOSTNAME is %s, rank %u's %s", r, h ? h : "(null)", e2e_me.rank,
                  host ? host : "(null)");
        free(h);
        checked += 6;
    }
    free(host);
    return checked;
}

/* Put, commit, collecting fence, read and check everyone's values of this round. */
static int round_trip(const char *ns, uint32_t n, int round)
{
    static char blob[BLOB];
    pmix_value_t v, *got;
    pmix_info_t info;
    bool yes = true;
    int checked = 0;
    uint32_t u = 1000 * (uint32_t)round + e2e_me.rank;

    memset(blob, byte_of(e2e_me.rank, round), sizeof blob);
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = blob;
    v.data.bo.size = sizeof blob;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "shm.blob", &v), "PMIx_Put(shm.blob)");
    PMIX_VALUE_LOAD(&v, &u, PMIX_UINT32);
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "shm.u32", &v), "PMIx_Put(shm.u32)");
    PMIX_VALUE_DESTRUCT(&v);
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&info, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&info);
    for (pmix_rank_t r = 0; r < n; r++) {
        got = e2e_get_typed(ns, r, "shm.blob", PMIX_BYTE_OBJECT, NULL, 0);
        E2E_CHECK(got->data.bo.size == BLOB, "rank %u's shm.blob has %zu bytes", r,
                  got->data.bo.size);
        for (size_t i = 0; i < BLOB; i++) {
            E2E_CHECK((unsigned char)got->data.bo.bytes[i] == byte_of(r, round),
                      "round %d: byte %zu of rank %u's shm.blob is 0x%02x, not 0x%02x", round, i, r,
                      (unsigned char)got->data.bo.bytes[i], byte_of(r, round));
        }
        e2e_free_value(got);
        E2E_CHECK(e2e_get_u32(ns, r, "shm.u32") == 1000 * (uint32_t)round + r,
                  "round %d: rank %u's shm.u32 is stale", round, r);
        checked += 2;
    }
    return checked;
}

int main(int argc, char **argv)
{
    const char *end = argc > 1 ? argv[1] : "";
    int checked;
    long segs;
    uint32_t n;

    if (argc != 3 ||
        (strcmp(end, "normal") != 0 && strcmp(end, "abort") != 0 && strcmp(end, "crash") != 0 &&
         strcmp(end, "hold") != 0 && strcmp(end, "job") != 0)) {
        fprintf(stderr, "usage: %s normal|abort|crash|hold|job DIR\n", argv[0]);
        return 2;
    }
    e2e_watchdog_secs = 100;
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    n = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    write_file(argv[2], "pid", e2e_me.rank, (long)getpid());
    if (strcmp(end, "job") == 0) {
        segs = segments("wu-shm-job");
        write_file(argv[2], "jobseg", e2e_me.rank, segs);
        e2e_step("registered data");
        checked = check_registered(e2e_me.nspace, n);
        e2e_step("one round");
        checked += round_trip(e2e_me.nspace, n, 1);
        e2e_step("registered data after the fence");
        checked += check_registered(e2e_me.nspace, n);
        e2e_step("PMIx_Finalize");
        E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
        printf("shm job: rank %u of %u: ok, job segments=%ld (%d values checked)\n", e2e_me.rank, n,
               segs, checked);
        return 0;
    }
    e2e_step("first round");
    checked = round_trip(e2e_me.nspace, n, 1);
    segs = segments("wu-shm-fence");
    write_file(argv[2], "seg", e2e_me.rank, segs);
    printf("shm: rank %u of %u: ok, segments=%ld\n", e2e_me.rank, n, segs);
    fflush(stdout);

    if (strcmp(end, "hold") == 0) {
        e2e_step("holding until killed");
        sleep(90);
        e2e_fail("still alive 90 s after the hold began");
    }
    if (strcmp(end, "abort") == 0 || strcmp(end, "crash") == 0) {
        if (e2e_me.rank == n - 1) {
            usleep(300 * 1000); /* the others enter the fence */
            if (strcmp(end, "abort") == 0) {
                e2e_step("PMIx_Abort");
                (void)PMIx_Abort(7, "e2e_shmem: deliberate abort", NULL, 0);
                sleep(60);
                e2e_fail("still alive 60 s after PMIx_Abort");
            }
            e2e_step("SIGKILL of itself");
            fflush(NULL);
            raise(SIGKILL);
        }
        e2e_step("fence that the last rank never joins");
        (void)PMIx_Fence(NULL, 0, NULL, 0);
        sleep(60); /* the job is ended for us */
        e2e_fail("still alive 60 s after the last rank ended");
    }
    e2e_step("second round");
    checked += round_trip(e2e_me.nspace, n, 2);
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("shm normal: rank %u of %u: ok (%d values checked)\n", e2e_me.rank, n, checked);
    return 0;
}
