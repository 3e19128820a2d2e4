/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_exchange.c -- `wrun -n N e2e_exchange MODE`: Put/Commit/Fence/Get between all ranks.
 *   collect    fence with PMIX_COLLECT_DATA, then Get every peer's values
 *   nocollect  fence without collecting, Gets fetch from the server
 * collect, nocollect and direct end with a collecting fence (under Slurm a fence that does not
 * collect completes per node, and a node's server goes with its last process).
 *   direct     no fence before the Gets: the last rank commits after a delay, the others'
 *              Gets wait for it (direct modex)
 *   scopes     LOCAL and GLOBAL puts are visible to local peers, REMOTE ones are not (a Get
 *              of a peer's REMOTE key is PMIX_ERR_NOT_FOUND at once, with or without
 *              PMIX_OPTIONAL)
 *   modex      rank 0 asks rank 1 before its commit (PMIX_TIMEOUT=1: PMIX_ERR_TIMEOUT), then
 *              after a fence (the value, waited for), then for a key rank 1 put REMOTE only
 *              (PMIX_ERR_NOT_FOUND at once although PMIX_TIMEOUT allows a minute: it exists,
 *              out of scope), and for a key rank 1 never put: with PMIX_TIMEOUT=1
 *              PMIX_ERR_TIMEOUT, without one PMIX_ERR_NOT_FOUND after the server's grace
 *              (a committed peer may still put it, as OpenPMIx's doubleget does)
 *   late N     doubleget: N rounds of a Put and Commit of a new key per rank, without a fence,
 *              then a Get of every peer's key of that round (rank 0 commits last, after a
 *              pause): each Get waits for the peer's later commit and finds the value; then a
 *              key the next rank never put: PMIX_TIMEOUT=1 gives PMIX_ERR_TIMEOUT, no
 *              timeout PMIX_ERR_NOT_FOUND after the grace (peers on this node or another)
 *   manykeys N each rank Puts N small keys, Puts every other one again with a new value,
 *              commits, fences with collect and Gets all N keys of the next rank
 *   fencetimeout  a fence with PMIX_TIMEOUT that one rank never joins fails with
 *              PMIX_ERR_TIMEOUT, and the next fence of all ranks works
 *   reput N    N rounds of re-Put of one 64 KiB key, commit, collecting fence and Get of the
 *              next rank's value: never stale, and neither this process nor the server keeps
 *              the old values (resident memory bounded)
 *   commits N  N rounds of re-Put of one 64 KiB key and commit without a fence (PMIx_Commit
 *              does not wait for the data to be sent), then one collecting fence: the next
 *              rank's value is its last round's (commits keep their order), and this process's
 *              resident memory stays bounded (commits not yet sent do not pile up)
 * Values: a string, a uint32, an int64 and blobs of 1 B, 1 KiB, 64 KiB and 1 MiB checked byte
 * for byte. Public PMIx API only: also built against OpenPMIx's headers (openpmix_headers.sh).
 * With E2E_SHOW_VERSION set, rank 0 prints PMIx_Get_version() to stderr. */
#include "e2e_util.h"

#include <stdint.h>

static const size_t blob_sizes[] = {1, 1024, 64 * 1024, 1024 * 1024};
#define NBLOBS (sizeof(blob_sizes) / sizeof(blob_sizes[0]))

static void put_all(pmix_rank_t me, pmix_scope_t scope)
{
    char key[64], str[64];
    pmix_value_t v;

    snprintf(str, sizeof(str), "hello from rank %u", me);
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = str;
    E2E_RC(PMIx_Put(scope, "e2e.str", &v), "Put(e2e.str)");
    v.type = PMIX_UINT32;
    v.data.uint32 = 1000u + me;
    E2E_RC(PMIx_Put(scope, "e2e.u32", &v), "Put(e2e.u32)");
    v.type = PMIX_INT64;
    v.data.int64 = -((int64_t)me << 40) - 5;
    E2E_RC(PMIx_Put(scope, "e2e.i64", &v), "Put(e2e.i64)");
    for (size_t b = 0; b < NBLOBS; b++) {
        size_t sz = blob_sizes[b];
        char *bytes = malloc(sz);
        E2E_CHECK(bytes != NULL, "out of memory");
        for (size_t i = 0; i < sz; i++) {
            bytes[i] = (char)e2e_pattern(me, sz, i);
        }
        snprintf(key, sizeof(key), "e2e.blob.%zu", sz);
        v.type = PMIX_BYTE_OBJECT;
        v.data.bo.bytes = bytes;
        v.data.bo.size = sz;
        E2E_RC(PMIx_Put(scope, key, &v), "Put(blob)");
        free(bytes);
    }
}

/* Get and check every value rank r put; returns the number of values checked. */
static int check_all(const char *ns, pmix_rank_t r, const pmix_info_t *info, size_t ninfo)
{
    char key[64], str[64];
    pmix_value_t *v;

    snprintf(str, sizeof(str), "hello from rank %u", r);
    v = e2e_get_typed(ns, r, "e2e.str", PMIX_STRING, info, ninfo);
    E2E_CHECK(v->data.string != NULL && strcmp(v->data.string, str) == 0,
              "e2e.str of rank %u is '%s', expected '%s'", r,
              v->data.string ? v->data.string : "(null)", str);
    e2e_free_value(v);
    v = e2e_get_typed(ns, r, "e2e.u32", PMIX_UINT32, info, ninfo);
    E2E_CHECK(v->data.uint32 == 1000u + r, "e2e.u32 of rank %u is %u", r, v->data.uint32);
    e2e_free_value(v);
    v = e2e_get_typed(ns, r, "e2e.i64", PMIX_INT64, info, ninfo);
    E2E_CHECK(v->data.int64 == -((int64_t)r << 40) - 5, "e2e.i64 of rank %u is %lld", r,
              (long long)v->data.int64);
    e2e_free_value(v);
    for (size_t b = 0; b < NBLOBS; b++) {
        size_t sz = blob_sizes[b];
        snprintf(key, sizeof(key), "e2e.blob.%zu", sz);
        v = e2e_get_typed(ns, r, key, PMIX_BYTE_OBJECT, info, ninfo);
        E2E_CHECK(v->data.bo.size == sz, "%s of rank %u has %zu bytes, expected %zu", key, r,
                  v->data.bo.size, sz);
        for (size_t i = 0; i < sz; i++) {
            if ((unsigned char)v->data.bo.bytes[i] != e2e_pattern(r, sz, i)) {
                e2e_fail("%s of rank %u differs at byte %zu: 0x%02x, expected 0x%02x", key, r, i,
                         (unsigned char)v->data.bo.bytes[i], e2e_pattern(r, sz, i));
            }
        }
        e2e_free_value(v);
    }
    return 3 + (int)NBLOBS;
}

static int run_scopes(const char *ns, pmix_rank_t me, uint32_t n)
{
    pmix_value_t v, *got;
    pmix_info_t opt;
    pmix_status_t st;
    char buf[64];
    int checked = 0;
    bool yes = true;

    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = buf;
    snprintf(buf, sizeof(buf), "local-%u", me);
    E2E_RC(PMIx_Put(PMIX_LOCAL, "sc.local", &v), "Put(PMIX_LOCAL)");
    snprintf(buf, sizeof(buf), "remote-%u", me);
    E2E_RC(PMIx_Put(PMIX_REMOTE, "sc.remote", &v), "Put(PMIX_REMOTE)");
    snprintf(buf, sizeof(buf), "global-%u", me);
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "sc.global", &v), "Put(PMIX_GLOBAL)");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    e2e_step("scopes: fence with collect");
    PMIX_INFO_LOAD(&opt, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&opt, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&opt);

    e2e_step("scopes: gets");
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    for (pmix_rank_t r = 0; r < n; r++) {
        if (r == me) {
            continue;
        }
        got = e2e_get_typed(ns, r, "sc.local", PMIX_STRING, NULL, 0);
        snprintf(buf, sizeof(buf), "local-%u", r);
        E2E_CHECK(strcmp(got->data.string, buf) == 0, "sc.local of %u is '%s'", r,
                  got->data.string);
        e2e_free_value(got);
        got = e2e_get_typed(ns, r, "sc.global", PMIX_STRING, NULL, 0);
        snprintf(buf, sizeof(buf), "global-%u", r);
        E2E_CHECK(strcmp(got->data.string, buf) == 0, "sc.global of %u is '%s'", r,
                  got->data.string);
        e2e_free_value(got);
        /* PMIX_REMOTE: "data is intended solely for application processes on remote nodes",
         * so a peer on the same node must not see it. */
        got = e2e_get(ns, r, "sc.remote", &opt, 1, &st);
        E2E_CHECK(got == NULL,
                  "PMIX_REMOTE key of rank %u (same node) is visible to a local peer: '%s'", r,
                  got->type == PMIX_STRING ? got->data.string : "(not a string)");
        E2E_CHECK(st == PMIX_ERR_NOT_FOUND,
                  "Get(PMIX_OPTIONAL) of rank %u's PMIX_REMOTE key returned %s, expected "
                  "PMIX_ERR_NOT_FOUND",
                  r, PMIx_Error_string(st));
        /* the same without PMIX_OPTIONAL: the peer has committed, so the server knows the key
         * is not there for us and says so (the test's watchdog fails a Get that waits) */
        got = e2e_get(ns, r, "sc.remote", NULL, 0, &st);
        E2E_CHECK(got == NULL && st == PMIX_ERR_NOT_FOUND,
                  "Get of rank %u's PMIX_REMOTE key returned %s, expected PMIX_ERR_NOT_FOUND", r,
                  PMIx_Error_string(st));
        /* a key the peer never put: after the server's grace for a later commit (one peer:
         * each such Get takes that long) */
        if (r == (me + 1) % n) {
            got = e2e_get(ns, r, "sc.never", NULL, 0, &st);
            E2E_CHECK(got == NULL && st == PMIX_ERR_NOT_FOUND,
                      "Get of a key rank %u never put returned %s, expected PMIX_ERR_NOT_FOUND", r,
                      PMIx_Error_string(st));
            checked++;
        }
        checked += 4;
    }
    PMIX_INFO_DESTRUCT(&opt);
    return checked;
}

/* The kB of field (e.g. "VmRSS:") in /proc/<who>/status, or -1. */
static long status_kb(const char *who, const char *field)
{
    char path[64], line[256];
    long kb = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%s/status", who);
    if (NULL == (f = fopen(path, "r"))) {
        return -1;
    }
    while (kb < 0 && NULL != fgets(line, sizeof line, f)) {
        if (0 == strncmp(line, field, strlen(field))) {
            kb = strtol(line + strlen(field), NULL, 10);
        }
    }
    fclose(f);
    return kb;
}

/* Put sz bytes of value fill under key (a byte object) and commit. */
static void put_commit_blob(const char *key, char *bytes, size_t sz, int fill)
{
    pmix_value_t v;
    memset(bytes, fill & 0xff, sz);
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = bytes;
    v.data.bo.size = sz;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &v), "PMIx_Put");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
}

/* N rounds of: re-Put the same 64 KiB key with this round's bytes, commit, fence with collect,
 * Get the next rank's value (it must be this round's: no stale read). The old values are
 * released: the process's and its server's (the parent, wrun) resident memory after the last
 * round exceed what they were after round 20 by less than 16 MB, where keeping every value
 * would take N x ranks x 64 KiB (not checked with E2E_NO_MEMORY set: sanitizer builds). */
static int run_reput(const char *ns, pmix_rank_t me, uint32_t n, long rounds)
{
    pmix_value_t *got;
    pmix_info_t opt;
    pmix_rank_t peer = (me + 1) % n;
    bool yes = true;
    size_t sz = 64 * 1024;
    char *bytes = malloc(sz), parent[32];
    long mine0 = -1, server0 = -1, mine1, server1;

    E2E_CHECK(NULL != bytes && rounds > 20, "reput needs more than 20 rounds");
    snprintf(parent, sizeof parent, "%ld", (long)getppid());
    PMIX_INFO_LOAD(&opt, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_step("reput: rounds of put, commit, fence, get");
    for (long r = 0; r < rounds; r++) {
        put_commit_blob("rp.blob", bytes, sz, (int)(r + (long)me));
        e2e_fence(&opt, 1, "PMIx_Fence(collect)");
        got = e2e_get_typed(ns, peer, "rp.blob", PMIX_BYTE_OBJECT, NULL, 0);
        E2E_CHECK(got->data.bo.size == sz &&
                      (unsigned char)got->data.bo.bytes[0] == ((r + (long)peer) & 0xff) &&
                      (unsigned char)got->data.bo.bytes[sz - 1] == ((r + (long)peer) & 0xff),
                  "round %ld: rank %u's rp.blob is not this round's (a stale read)", r, peer);
        e2e_free_value(got);
        if (20 == r) {
            mine0 = status_kb("self", "VmRSS:");
            server0 = status_kb(parent, "VmRSS:");
        }
    }
    PMIX_INFO_DESTRUCT(&opt);
    free(bytes);
    mine1 = status_kb("self", "VmRSS:");
    server1 = status_kb(parent, "VmRSS:");
    if (NULL == getenv("E2E_NO_MEMORY")) {
        E2E_CHECK(mine0 > 0 && mine1 > 0 && mine1 - mine0 < 16 * 1024,
                  "this process grew from %ld kB to %ld kB over %ld rounds", mine0, mine1, rounds);
        E2E_CHECK(server0 > 0 && server1 > 0 && server1 - server0 < 16 * 1024,
                  "the server grew from %ld kB to %ld kB over %ld rounds", server0, server1,
                  rounds);
    }
    if (0 == me) {
        e2e_note("reput: %ld rounds; RSS of rank 0 %ld -> %ld kB, of the server %ld -> %ld kB",
                 rounds, mine0, mine1, server0, server1);
    }
    e2e_fence(NULL, 0, "PMIx_Fence");
    return (int)rounds;
}

/* N rounds of Put + Commit of a 64 KiB value without a fence, then one fence: the peer's last
 * value arrives, and the process's resident memory after the last round exceeds what it was
 * after round 20 by less than 16 MB, where commits piling up would take N x 64 KiB (not
 * checked with E2E_NO_MEMORY set: sanitizer builds). */
static int run_commits(const char *ns, pmix_rank_t me, uint32_t n, long rounds)
{
    pmix_value_t *got;
    pmix_info_t opt;
    pmix_rank_t peer = (me + 1) % n;
    bool yes = true;
    size_t sz = 64 * 1024;
    char *bytes = malloc(sz);
    long mine0 = -1, mine1;

    E2E_CHECK(NULL != bytes && rounds > 20, "commits needs more than 20 rounds");
    e2e_step("commits: rounds of put and commit");
    for (long r = 0; r < rounds; r++) {
        put_commit_blob("cm.blob", bytes, sz, (int)(r + (long)me));
        if (20 == r) {
            mine0 = status_kb("self", "VmRSS:");
        }
    }
    mine1 = status_kb("self", "VmRSS:");
    free(bytes);
    PMIX_INFO_LOAD(&opt, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&opt, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&opt);
    got = e2e_get_typed(ns, peer, "cm.blob", PMIX_BYTE_OBJECT, NULL, 0);
    E2E_CHECK(got->data.bo.size == sz &&
                  (unsigned char)got->data.bo.bytes[0] == ((rounds - 1 + (long)peer) & 0xff) &&
                  (unsigned char)got->data.bo.bytes[sz - 1] == ((rounds - 1 + (long)peer) & 0xff),
              "rank %u's cm.blob is not of its last round (%u)", peer,
              (unsigned)(unsigned char)got->data.bo.bytes[0]);
    e2e_free_value(got);
    if (NULL == getenv("E2E_NO_MEMORY")) {
        E2E_CHECK(mine0 > 0 && mine1 > 0 && mine1 - mine0 < 16 * 1024,
                  "this process grew from %ld kB to %ld kB over %ld commits", mine0, mine1, rounds);
    }
    if (0 == me) {
        e2e_note("commits: %ld rounds; RSS of rank 0 %ld -> %ld kB", rounds, mine0, mine1);
    }
    e2e_fence(NULL, 0, "PMIx_Fence");
    return (int)rounds;
}

/* N keys per rank, every other one replaced before the commit: the peer sees the last values. */
static int run_manykeys(const char *ns, pmix_rank_t me, uint32_t n, long nkeys)
{
    pmix_value_t v, *got;
    pmix_info_t opt;
    pmix_rank_t peer = (me + 1) % n;
    bool yes = true;
    char key[64];

    E2E_CHECK(nkeys > 0, "manykeys needs a positive number of keys");
    e2e_step("manykeys: put");
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT32;
    for (long i = 0; i < nkeys; i++) {
        snprintf(key, sizeof key, "mk.%ld", i);
        v.data.uint32 = (uint32_t)(me * 1000003u + (uint32_t)i);
        E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &v), "Put(mk)");
    }
    for (long i = 0; i < nkeys; i += 2) {
        snprintf(key, sizeof key, "mk.%ld", i);
        v.data.uint32 = (uint32_t)(me * 1000003u + (uint32_t)i) ^ 0x5a5a5a5au;
        E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &v), "Put(mk) again");
    }
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    e2e_step("manykeys: fence with collect");
    PMIX_INFO_LOAD(&opt, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&opt, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&opt);
    e2e_step("manykeys: get the next rank's keys");
    for (long i = 0; i < nkeys; i++) {
        uint32_t want = (uint32_t)(peer * 1000003u + (uint32_t)i) ^ (0 == i % 2 ? 0x5a5a5a5au : 0);
        snprintf(key, sizeof key, "mk.%ld", i);
        got = e2e_get_typed(ns, peer, key, PMIX_UINT32, NULL, 0);
        E2E_CHECK(got->data.uint32 == want, "%s of rank %u = %u, expected %u", key, peer,
                  got->data.uint32, want);
        e2e_free_value(got);
    }
    e2e_step("manykeys: final fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    return (int)nkeys;
}

/* doubleget: rounds of Put + Commit without a fence, each followed by Gets of the peers' keys
 * of that round; rank 0 commits each round last. */
static int run_late(const char *ns, pmix_rank_t me, uint32_t n, long rounds)
{
    pmix_value_t v, *got;
    char key[32];
    int checked = 0;

    e2e_step("late: first fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    for (long r = 0; r < rounds; r++) {
        snprintf(key, sizeof key, "late.%ld", r);
        if (0 == me) {
            usleep(300 * 1000); /* the others ask before this commit */
        }
        PMIX_VALUE_CONSTRUCT(&v);
        v.type = PMIX_UINT32;
        v.data.uint32 = (uint32_t)(me * 1000 + r);
        e2e_step("late: put and commit");
        E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &v), "Put");
        E2E_RC(PMIx_Commit(), "PMIx_Commit");
        e2e_step("late: get of every peer's key of this round");
        for (uint32_t p = 0; p < n; p++) {
            if (p == me) {
                continue;
            }
            got = e2e_get_typed(ns, p, key, PMIX_UINT32, NULL, 0);
            E2E_CHECK(got->data.uint32 == p * 1000 + r, "%s of rank %u = %u", key, p,
                      got->data.uint32);
            e2e_free_value(got);
            checked++;
        }
    }
    if (n > 1) {
        pmix_rank_t next = (me + 1) % n;
        pmix_info_t tmo_info;
        pmix_status_t st;
        int tmo = 1;
        double t0;
        e2e_step("late: a key the next rank never put, PMIX_TIMEOUT=1");
        PMIX_INFO_LOAD(&tmo_info, PMIX_TIMEOUT, &tmo, PMIX_INT);
        got = e2e_get(ns, next, "late.never", &tmo_info, 1, &st);
        PMIX_INFO_DESTRUCT(&tmo_info);
        E2E_CHECK(got == NULL && st == PMIX_ERR_TIMEOUT,
                  "Get of a key rank %u never put, PMIX_TIMEOUT=1, returned %s, expected "
                  "PMIX_ERR_TIMEOUT",
                  next, PMIx_Error_string(st));
        e2e_step("late: a key the next rank never put, no timeout");
        t0 = e2e_now();
        got = e2e_get(ns, next, "late.never", NULL, 0, &st);
        E2E_CHECK(got == NULL && st == PMIX_ERR_NOT_FOUND,
                  "Get of a key rank %u never put returned %s, expected PMIX_ERR_NOT_FOUND", next,
                  PMIx_Error_string(st));
        e2e_note("a key never put: PMIX_ERR_NOT_FOUND after %.2f s", e2e_now() - t0);
        checked += 2;
    }
    e2e_step("late: final fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    return checked;
}

/* Rank 1 commits only after a fence that rank 0 joins after asking for its data. */
static int run_modex(const char *ns, pmix_rank_t me, uint32_t n)
{
    pmix_value_t v, *got;
    pmix_info_t tmo_info;
    pmix_status_t st;
    int tmo = 1, checked = 0;

    E2E_CHECK(n >= 2, "mode modex needs at least 2 ranks");
    PMIX_VALUE_CONSTRUCT(&v);
    if (me == 0) {
        e2e_step("modex: get of rank 1 before it committed, PMIX_TIMEOUT=1");
        PMIX_INFO_LOAD(&tmo_info, PMIX_TIMEOUT, &tmo, PMIX_INT);
        got = e2e_get(ns, 1, "mx.key", &tmo_info, 1, &st);
        PMIX_INFO_DESTRUCT(&tmo_info);
        E2E_CHECK(got == NULL && st == PMIX_ERR_TIMEOUT,
                  "Get of uncommitted rank 1's key with PMIX_TIMEOUT=1 returned %s, expected "
                  "PMIX_ERR_TIMEOUT",
                  PMIx_Error_string(st));
        checked++;
    }
    e2e_step("modex: fence before rank 1 commits");
    e2e_fence(NULL, 0, "PMIx_Fence");
    if (me == 1) {
        v.type = PMIX_UINT32;
        v.data.uint32 = 4242;
        E2E_RC(PMIx_Put(PMIX_GLOBAL, "mx.key", &v), "Put(mx.key)");
        E2E_RC(PMIx_Put(PMIX_REMOTE, "mx.remote", &v), "Put(mx.remote)");
        E2E_RC(PMIx_Commit(), "PMIx_Commit");
    } else if (me == 0) {
        e2e_step("modex: get of rank 1's key, waiting for its commit");
        got = e2e_get_typed(ns, 1, "mx.key", PMIX_UINT32, NULL, 0);
        E2E_CHECK(got->data.uint32 == 4242, "mx.key of rank 1 = %u", got->data.uint32);
        e2e_free_value(got);
        e2e_step("modex: a key rank 1 committed out of scope");
        tmo = 60;
        PMIX_INFO_LOAD(&tmo_info, PMIX_TIMEOUT, &tmo, PMIX_INT);
        double t0 = e2e_now();
        got = e2e_get(ns, 1, "mx.remote", &tmo_info, 1, &st);
        E2E_CHECK(got == NULL && st == PMIX_ERR_NOT_FOUND && e2e_now() - t0 < 30,
                  "Get of rank 1's PMIX_REMOTE key on its node returned %s after %.1f s, "
                  "expected PMIX_ERR_NOT_FOUND at once",
                  PMIx_Error_string(st), e2e_now() - t0);
        PMIX_INFO_DESTRUCT(&tmo_info);
        e2e_step("modex: a key rank 1 never put, PMIX_TIMEOUT=1");
        tmo = 1;
        PMIX_INFO_LOAD(&tmo_info, PMIX_TIMEOUT, &tmo, PMIX_INT);
        got = e2e_get(ns, 1, "mx.never", &tmo_info, 1, &st);
        E2E_CHECK(got == NULL && st == PMIX_ERR_TIMEOUT,
                  "Get of a key committed rank 1 never put, PMIX_TIMEOUT=1, returned %s, "
                  "expected PMIX_ERR_TIMEOUT",
                  PMIx_Error_string(st));
        PMIX_INFO_DESTRUCT(&tmo_info);
        e2e_step("modex: a key rank 1 never put, no timeout");
        got = e2e_get(ns, 1, "mx.never", NULL, 0, &st);
        E2E_CHECK(got == NULL && st == PMIX_ERR_NOT_FOUND,
                  "Get of a key committed rank 1 never put returned %s, expected "
                  "PMIX_ERR_NOT_FOUND",
                  PMIx_Error_string(st));
        checked += 4;
    }
    e2e_step("modex: final fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    return checked;
}

/* After a fence of all ranks, ranks 0..n-2 fence with PMIX_TIMEOUT=1 while the last rank stays
 * away: PMIX_ERR_TIMEOUT.
 * The timed-out fence leaves nothing behind: the next fence of all ranks succeeds, and data
 * committed before and after it is seen by everybody. */
static int run_fence_timeout(const char *ns, pmix_rank_t me, uint32_t n)
{
    pmix_info_t info[2];
    pmix_value_t v, *got;
    bool yes = true;
    int tmo = 1, checked = 0;

    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT32;
    v.data.uint32 = me;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "ft.a", &v), "Put(ft.a)");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &tmo, PMIX_INT);
    /* every rank starts the timed fence at about the same time: its timeout counts from the
     * first contribution, which on another node can come well before this rank's call */
    e2e_fence(NULL, 0, "PMIx_Fence before the timed one");
    if (me == n - 1) {
        e2e_step("last rank: staying away from the first fence");
        usleep(2500 * 1000);
    } else {
        e2e_step("fence with PMIX_TIMEOUT=1 that the last rank never joins");
        double t0 = e2e_now();
        pmix_status_t rc = PMIx_Fence(NULL, 0, info, 2);
        double dt = e2e_now() - t0;
        E2E_RC_IS(rc, PMIX_ERR_TIMEOUT, "PMIx_Fence(PMIX_TIMEOUT=1) without the last rank");
        E2E_CHECK(dt >= 0.8 && dt < 10.0, "fence with PMIX_TIMEOUT=1 returned after %.2f s", dt);
    }
    PMIX_INFO_DESTRUCT(&info[1]);
    e2e_step("put + fence of all ranks after the timed-out fence");
    v.data.uint32 = 100u + me;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "ft.b", &v), "Put(ft.b)");
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
    e2e_fence(info, 1, "PMIx_Fence(collect) after the timed-out one");
    PMIX_INFO_DESTRUCT(&info[0]);
    for (pmix_rank_t r = 0; r < n; r++) {
        got = e2e_get_typed(ns, r, "ft.a", PMIX_UINT32, NULL, 0);
        E2E_CHECK(got->data.uint32 == r, "ft.a of rank %u = %u", r, got->data.uint32);
        e2e_free_value(got);
        got = e2e_get_typed(ns, r, "ft.b", PMIX_UINT32, NULL, 0);
        E2E_CHECK(got->data.uint32 == 100u + r, "ft.b of rank %u = %u", r, got->data.uint32);
        e2e_free_value(got);
        checked += 2;
    }
    e2e_step("one more fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    return checked;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "collect";
    pmix_info_t info;
    bool yes = true;
    int checked = 0;

    e2e_watchdog_secs = 90;
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    const char *ns = e2e_me.nspace;
    pmix_rank_t me = e2e_me.rank;
    if (getenv("E2E_SHOW_VERSION") != NULL && me == 0) {
        fprintf(stderr, "library: %s\n", PMIx_Get_version());
    }
    uint32_t n = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);

    if (strcmp(mode, "scopes") == 0) {
        checked = run_scopes(ns, me, n);
    } else if (strcmp(mode, "modex") == 0) {
        checked = run_modex(ns, me, n);
    } else if (strcmp(mode, "late") == 0 && argc > 2) {
        checked = run_late(ns, me, n, strtol(argv[2], NULL, 10));
    } else if (strcmp(mode, "reput") == 0 && argc > 2) {
        checked = run_reput(ns, me, n, strtol(argv[2], NULL, 10));
    } else if (strcmp(mode, "commits") == 0 && argc > 2) {
        checked = run_commits(ns, me, n, strtol(argv[2], NULL, 10));
    } else if (strcmp(mode, "manykeys") == 0 && argc > 2) {
        checked = run_manykeys(ns, me, n, strtol(argv[2], NULL, 10));
    } else if (strcmp(mode, "collect") == 0 || strcmp(mode, "nocollect") == 0) {
        bool collect = strcmp(mode, "collect") == 0;
        e2e_step("put + commit");
        put_all(me, PMIX_GLOBAL);
        E2E_RC(PMIx_Commit(), "PMIx_Commit");
        e2e_step(collect ? "fence with PMIX_COLLECT_DATA" : "fence without collecting");
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
        e2e_fence(&info, 1, "PMIx_Fence");
        PMIX_INFO_DESTRUCT(&info);
        e2e_step("get every rank's values");
        for (pmix_rank_t r = 0; r < n; r++) {
            checked += check_all(ns, r, NULL, 0);
        }
        /* nobody leaves before everyone has its data: a node's server may go with its last
         * process (Slurm's does), and under Slurm only a collecting fence spans the nodes */
        e2e_step("final fence");
        collect = true;
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
        e2e_fence(&info, 1, "PMIx_Fence");
        PMIX_INFO_DESTRUCT(&info);
    } else if (strcmp(mode, "direct") == 0) {
        pmix_rank_t late = n - 1;
        if (me == late && n > 1) {
            e2e_step("late rank: sleeping before put");
            usleep(1500 * 1000);
        }
        e2e_step("put + commit");
        put_all(me, PMIX_GLOBAL);
        E2E_RC(PMIx_Commit(), "PMIx_Commit");
        e2e_step("get every rank's values before any fence (direct modex)");
        double t0 = e2e_now();
        for (pmix_rank_t r = 0; r < n; r++) {
            pmix_rank_t peer = (me + 1 + r) % n; /* the late rank first for rank late-1 */
            checked += check_all(ns, peer, NULL, 0);
        }
        double dt = e2e_now() - t0;
        if (me == 0 && n > 1) {
            /* a Get that did not wait for the late rank would have failed above */
            e2e_note("gets before the late rank's commit waited %.3f s in all", dt);
        }
        /* a PMIX_TIMEOUT that is long enough does not change the answer */
        int tmo = 30;
        PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &tmo, PMIX_INT);
        checked += check_all(ns, late, &info, 1);
        PMIX_INFO_DESTRUCT(&info);
        e2e_step("final fence"); /* collecting: it spans the nodes under Slurm too */
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
        e2e_fence(&info, 1, "PMIx_Fence");
        PMIX_INFO_DESTRUCT(&info);
    } else if (strcmp(mode, "fencetimeout") == 0) {
        checked = run_fence_timeout(ns, me, n);
    } else {
        fprintf(stderr, "usage: %s collect|nocollect|direct|scopes|modex|manykeys N|fencetimeout\n",
                argv[0]);
        return 2;
    }
    (void)yes;

    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("exchange %s: rank %u of %u: ok (%d values checked)\n", mode, me, n, checked);
    return 0;
}
