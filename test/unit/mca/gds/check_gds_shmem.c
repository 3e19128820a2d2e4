/* SPDX-License-Identifier: BSD-3-Clause */
/* check_gds_shmem.c -- the gds shmem component: a fence blob laid out as a segment (seg_make) and
 * mapped by a store (seg_attach); lookups in the hash tables first, then the newest segment of
 * the rank; older data superseded, the caller's own rank kept; blobs that cannot be one segment
 * refused; purge_key of the hash component; a registration's per-process data as a job segment
 * (job_seg_make, job_seg_attach) looked up after the hash tables and the fence segments. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "mca/gds/gds.h"
#include "pmix/common/wu_proto.h"
#include "test/support/wu_test.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const wu_gds_module_t *gds;
static wu_gds_store_t *st;

static void setup(void)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    setenv("PMIX_MCA_gds", "shmem", 1);
    setenv("PMIX_MCA_gds_shmem_segment_min", "0", 1);
    setenv("PMIX_MCA_gds_shmem_segment_max", "1m", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_gds_base_open());
    gds = wu_gds_base_module();
    ck_assert_ptr_nonnull(gds);
    ck_assert_str_eq("shmem", gds->name);
    ck_assert_int_eq(PMIX_SUCCESS, gds->store_create(&st));
}

static void teardown(void)
{
    gds->store_release(st);
    st = NULL;
    wu_gds_base_close();
    wu_mca_base_close();
    unsetenv("PMIX_MCA_gds");
    unsetenv("PMIX_MCA_gds_shmem_segment_min");
    unsetenv("PMIX_MCA_gds_shmem_segment_max");
}

/* A blob record of (ns, rank) with keys "a" = base + rank and "b" = a string of len bytes. */
static void add_record(wu_buffer_t *blob, const char *ns, pmix_rank_t rank, uint32_t base,
                       size_t len)
{
    pmix_proc_t p;
    pmix_info_t info[2];
    uint32_t a = base + rank;
    char *s = malloc(len + 1);
    memset(s, 'a' + (int)(rank % 26), len);
    s[len] = '\0';
    PMIX_LOAD_PROCID(&p, ns, rank);
    PMIX_INFO_LOAD(&info[0], "a", &a, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], "b", s, PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_blob_add(blob, &p, info, 2));
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    free(s);
}

/* seg_make of a blob of ranks [0, n) of ns and attach it to st, keeping rank keep. */
static void attach(const char *ns, uint32_t n, uint32_t base, pmix_rank_t keep)
{
    wu_buffer_t blob;
    char got[PMIX_MAX_NSLEN + 1];
    int fd = -1;
    wu_buffer_construct(&blob);
    for (pmix_rank_t r = 0; r < n; r++) {
        add_record(&blob, ns, r, base, 100);
    }
    ck_assert_int_eq(PMIX_SUCCESS, gds->seg_make(blob.base, blob.used, got, &fd));
    ck_assert_str_eq(ns, got);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(PMIX_SUCCESS, gds->seg_attach(st, ns, fd, keep));
    close(fd); /* the mapping stays */
    wu_buffer_destruct(&blob);
}

static void want_u32(const char *ns, pmix_rank_t r, const char *key, pmix_status_t rc, uint32_t v)
{
    pmix_value_t *val = NULL;
    ck_assert_int_eq(rc, gds->fetch(st, ns, r, key, &val));
    if (PMIX_SUCCESS == rc) {
        ck_assert_int_eq(PMIX_UINT32, val->type);
        ck_assert_uint_eq(v, val->data.uint32);
        PMIX_VALUE_RELEASE(val);
    }
}

static int mapped_segments(void)
{
    char line[4096];
    int n = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    ck_assert_ptr_nonnull(f);
    while (NULL != fgets(line, sizeof line, f)) {
        n += NULL != strstr(line, "/memfd:wu-shm") ? 1 : 0;
    }
    fclose(f);
    return n;
}

START_TEST(lookup_order)
{
    pmix_value_t v, *got = NULL;
    uint32_t x = 77;
    int before = mapped_segments();
    /* before: a value cached in the hash tables for rank 1, and the caller's (rank 0) own */
    PMIx_Value_load(&v, &x, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 1, "a", &v));
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 0, "mine", &v));
    ck_assert_int_eq(PMIX_SUCCESS,
                     gds->put(st, "ns", 1, PMIX_LOCALITY_STRING, &v)); /* registered */
    attach("ns", 4, 100, 0);
    ck_assert_int_eq(before + 1, mapped_segments());
    /* rank 1's older value of "a" is gone: the segment answers; its other keys stay */
    want_u32("ns", 1, "a", PMIX_SUCCESS, 101);
    want_u32("ns", 1, PMIX_LOCALITY_STRING, PMIX_SUCCESS, 77);
    want_u32("ns", 3, "a", PMIX_SUCCESS, 103);
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "ns", 2, "b", &got));
    ck_assert_int_eq(PMIX_STRING, got->type);
    ck_assert_uint_eq(100, strlen(got->data.string));
    ck_assert_int_eq('c', got->data.string[99]);
    PMIX_VALUE_RELEASE(got);
    /* the caller's own data stays; a key the segment lacks is not found */
    want_u32("ns", 0, "mine", PMIX_SUCCESS, 77);
    want_u32("ns", 2, "nope", PMIX_ERR_NOT_FOUND, 0);
    want_u32("ns", 4, "a", PMIX_ERR_NOT_FOUND, 0);
    want_u32("other", 1, "a", PMIX_ERR_NOT_FOUND, 0);
    ck_assert(gds->has_proc(st, "ns", 3));
    ck_assert(!gds->has_proc(st, "ns", 4));
    /* stored after the segment: the hash tables win */
    x = 5;
    PMIx_Value_load(&v, &x, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 2, "a", &v));
    want_u32("ns", 2, "a", PMIX_SUCCESS, 5);
    ck_assert_int_eq(PMIX_SUCCESS, gds->fetch(st, "ns", 2, "b", &got)); /* still the segment's */
    ck_assert_int_eq(PMIX_STRING, got->type);
    PMIX_VALUE_RELEASE(got);
}
END_TEST

START_TEST(newest_wins_and_unmap)
{
    int before = mapped_segments();
    attach("ns", 4, 100, PMIX_RANK_UNDEF);
    attach("ns", 2, 200, PMIX_RANK_UNDEF); /* ranks 0-1 newer; 2-3 still from the first */
    want_u32("ns", 0, "a", PMIX_SUCCESS, 200);
    want_u32("ns", 1, "a", PMIX_SUCCESS, 201);
    want_u32("ns", 2, "a", PMIX_SUCCESS, 102);
    want_u32("ns", 3, "a", PMIX_SUCCESS, 103);
    attach("ns", 4, 300, PMIX_RANK_UNDEF); /* supersedes both: they are no longer looked at */
    for (pmix_rank_t r = 0; r < 4; r++) {
        want_u32("ns", r, "a", PMIX_SUCCESS, 300 + r);
    }
    /* many rounds: superseded segments are unmapped in batches (at most 64 wait) */
    for (uint32_t k = 0; k < 200; k++) {
        attach("ns", 4, 1000 * k, PMIX_RANK_UNDEF);
    }
    want_u32("ns", 3, "a", PMIX_SUCCESS, 1000 * 199 + 3);
    ck_assert_int_le(mapped_segments() - before, 65);
    ck_assert_int_eq(PMIX_SUCCESS, gds->purge_nspace(st, "ns"));
    ck_assert_int_eq(before, mapped_segments());
    want_u32("ns", 3, "a", PMIX_ERR_NOT_FOUND, 0);
    ck_assert(!gds->has_proc(st, "ns", 3));
}
END_TEST

START_TEST(not_one_segment)
{
    wu_buffer_t blob;
    char ns[PMIX_MAX_NSLEN + 1];
    int fd = -1;
    wu_buffer_construct(&blob);
    /* records of two namespaces */
    add_record(&blob, "one", 0, 0, 10);
    add_record(&blob, "two", 0, 0, 10);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, gds->seg_make(blob.base, blob.used, ns, &fd));
    ck_assert_int_eq(-1, fd);
    wu_buffer_destruct(&blob);
    /* more than gds_shmem_segment_max (1m) */
    wu_buffer_construct(&blob);
    for (pmix_rank_t r = 0; r < 3; r++) {
        add_record(&blob, "big", r, 0, 400 * 1024);
    }
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, gds->seg_make(blob.base, blob.used, ns, &fd));
    /* a damaged blob */
    blob.used = blob.used / 2;
    ck_assert_int_ne(PMIX_SUCCESS, gds->seg_make(blob.base, blob.used, ns, &fd));
    wu_buffer_destruct(&blob);
    /* an unsealed file is not attached */
    fd = memfd_create("plain", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->seg_attach(st, "ns", fd, 0));
    close(fd);
}
END_TEST

START_TEST(purge_key)
{
    pmix_value_t v;
    uint32_t x = 9;
    PMIx_Value_load(&v, &x, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 6, "k", &v));
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 6, "j", &v));
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 7, "k", &v));
    ck_assert_int_eq(PMIX_SUCCESS, gds->purge_key(st, "ns", 6, "k"));
    want_u32("ns", 6, "k", PMIX_ERR_NOT_FOUND, 0);
    want_u32("ns", 6, "j", PMIX_SUCCESS, 9);
    want_u32("ns", 7, "k", PMIX_SUCCESS, 9);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->purge_key(st, "ns", 6, "k"));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->purge_key(st, "ns", 8, "k"));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->purge_key(st, "ns", PMIX_RANK_WILDCARD, "k"));
}
END_TEST

/* A registration of ns: job-level "size" = n, and PMIX_PROC_DATA of ranks [0, n) each with
 * "a" = base + rank and "c" = rank * 2; *info holds ninfo entries (PMIX_INFO_FREE). */
static void registration(uint32_t n, uint32_t base, pmix_info_t **info, size_t *ninfo)
{
    PMIX_INFO_CREATE(*info, n + 1);
    *ninfo = n + 1;
    PMIX_INFO_LOAD(&(*info)[0], "size", &n, PMIX_UINT32);
    for (pmix_rank_t r = 0; r < n; r++) {
        pmix_data_array_t *d;
        pmix_info_t *a;
        uint32_t va = base + r, vc = r * 2;
        PMIX_DATA_ARRAY_CREATE(d, 3, PMIX_INFO);
        a = d->array;
        PMIX_INFO_LOAD(&a[0], PMIX_RANK, &r, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&a[1], "a", &va, PMIX_UINT32);
        PMIX_INFO_LOAD(&a[2], "c", &vc, PMIX_UINT32);
        PMIX_INFO_LOAD(&(*info)[r + 1], PMIX_PROC_DATA, d, PMIX_DATA_ARRAY);
        PMIX_DATA_ARRAY_FREE(d);
    }
}

/* The memfds named "wu-shm-job" this process has open. */
static int job_fds(void)
{
    char path[64], link[256];
    int n = 0;
    for (int fd = 0; fd < 1024; fd++) {
        ssize_t len;
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        len = readlink(path, link, sizeof link - 1);
        if (len > 0) {
            link[len] = '\0';
            n += NULL != strstr(link, "memfd:wu-shm-job") ? 1 : 0;
        }
    }
    return n;
}

START_TEST(job_segment)
{
    pmix_info_t *info, *small;
    size_t ninfo, nsmall;
    pmix_value_t v, *got = NULL;
    uint32_t x = 77;
    int fd = -1, fd2 = -1, before = mapped_segments();

    registration(5, 100, &info, &ninfo);
    ck_assert_int_eq(PMIX_SUCCESS, gds->job_seg_make(info, ninfo, &fd));
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(1, job_fds());
    /* the client: the job-level part registered, the per-process part mapped */
    ck_assert_int_eq(PMIX_SUCCESS, gds->register_nspace(st, "ns", info, 1));
    ck_assert_int_eq(PMIX_SUCCESS, gds->job_seg_attach(st, "ns", fd));
    close(fd);
    ck_assert_int_eq(0, job_fds());
    ck_assert_int_eq(before + 1, mapped_segments());
    want_u32("ns", PMIX_RANK_WILDCARD, "size", PMIX_SUCCESS, 5);
    for (pmix_rank_t r = 0; r < 5; r++) {
        want_u32("ns", r, "a", PMIX_SUCCESS, 100 + r);
        want_u32("ns", r, "c", PMIX_SUCCESS, r * 2);
        ck_assert(gds->has_proc(st, "ns", r));
    }
    want_u32("ns", 5, "a", PMIX_ERR_NOT_FOUND, 0);
    ck_assert(!gds->has_proc(st, "ns", 5));
    want_u32("other", 0, "a", PMIX_ERR_NOT_FOUND, 0);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, gds->fetch(st, "ns", 0, PMIX_RANK, &got));

    /* a fence segment holding ranks 0-1 ("a" and "b") comes first; "c" still from the job's */
    attach("ns", 2, 500, PMIX_RANK_UNDEF);
    want_u32("ns", 1, "a", PMIX_SUCCESS, 501);
    want_u32("ns", 1, "c", PMIX_SUCCESS, 2);
    want_u32("ns", 3, "a", PMIX_SUCCESS, 103);
    /* and the hash tables before both */
    PMIx_Value_load(&v, &x, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, gds->put(st, "ns", 3, "c", &v));
    want_u32("ns", 3, "c", PMIX_SUCCESS, 77);

    /* a second job segment replaces the first */
    registration(3, 900, &small, &nsmall);
    ck_assert_int_eq(PMIX_SUCCESS, gds->job_seg_make(small, nsmall, &fd2));
    ck_assert_int_eq(PMIX_SUCCESS, gds->job_seg_attach(st, "ns", fd2));
    close(fd2);
    want_u32("ns", 2, "a", PMIX_SUCCESS, 902);
    want_u32("ns", 4, "a", PMIX_ERR_NOT_FOUND, 0);
    ck_assert_int_eq(before + 2, mapped_segments()); /* the job's, the fence's */

    /* purge unmaps both */
    ck_assert_int_eq(PMIX_SUCCESS, gds->purge_nspace(st, "ns"));
    ck_assert_int_eq(before, mapped_segments());
    want_u32("ns", 2, "a", PMIX_ERR_NOT_FOUND, 0);
    PMIX_INFO_FREE(info, ninfo);
    PMIX_INFO_FREE(small, nsmall);
}
END_TEST

START_TEST(job_segment_refused)
{
    pmix_info_t *info, *none;
    size_t ninfo;
    pmix_data_array_t *bad;
    uint32_t x = 1;
    int fd = -1;

    /* no per-process data: nothing to lay out */
    PMIX_INFO_CREATE(none, 1);
    PMIX_INFO_LOAD(&none[0], "size", &x, PMIX_UINT32);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, gds->job_seg_make(none, 1, &fd));
    ck_assert_int_eq(-1, fd);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, gds->job_seg_make(NULL, 0, &fd));
    /* a PMIX_PROC_DATA array that does not start with PMIX_RANK */
    PMIX_DATA_ARRAY_CREATE(bad, 1, PMIX_INFO);
    PMIX_INFO_LOAD(&((pmix_info_t *)bad->array)[0], "a", &x, PMIX_UINT32);
    PMIX_INFO_DESTRUCT(&none[0]);
    PMIX_INFO_LOAD(&none[0], PMIX_PROC_DATA, bad, PMIX_DATA_ARRAY);
    PMIX_DATA_ARRAY_FREE(bad);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->job_seg_make(none, 1, &fd));
    ck_assert_int_eq(-1, fd);
    PMIX_INFO_FREE(none, 1);
    /* more than segment_max (1m) */
    registration(20000, 0, &info, &ninfo);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, gds->job_seg_make(info, ninfo, &fd));
    ck_assert_int_eq(-1, fd);
    ck_assert_int_eq(0, job_fds());
    PMIX_INFO_FREE(info, ninfo);
    /* an unsealed memfd is not a segment */
    fd = memfd_create("wu-shm-job", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, gds->job_seg_attach(st, "ns", fd));
    close(fd);
    ck_assert(!gds->has_proc(st, "ns", 0));
}
END_TEST

static Suite *shmem_suite(void)
{
    Suite *s = suite_create("gds_shmem");
    TCase *tc = tcase_create("shmem");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, lookup_order);
    tcase_add_test(tc, newest_wins_and_unmap);
    tcase_add_test(tc, not_one_segment);
    tcase_add_test(tc, purge_key);
    tcase_add_test(tc, job_segment);
    tcase_add_test(tc, job_segment_refused);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(shmem_suite)
