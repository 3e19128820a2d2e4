/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_shm.c -- the read-only key/value segment (pmix/common/wu_shm.c): what the writer
 * lays out reads back value for value, rank for rank (job-level under PMIX_RANK_WILDCARD too),
 * a key added twice keeps its last value, a missing rank or key is NOT_FOUND, bad arguments
 * are refused; a damaged segment (every truncation, random byte changes) is refused or reads
 * back without a read outside it (run under the sanitizers in CI); a segment in a sealed
 * memfd cannot be changed, maps and reads back after its fd is closed, and an unsealed one is
 * refused; opening a segment and walking its keys reads only its first page (the values come
 * after the tables and entries), and a lookup only the pages of its value. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "pmix/common/wu_shm.h"
#include "test/support/wu_test.h"

#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NRANKS 7
#define NKEYS  40

static void value_of(pmix_value_t *v, pmix_rank_t r, int k, char *buf, size_t len)
{
    PMIX_VALUE_CONSTRUCT(v);
    switch (k % 3) {
    case 0:
        v->type = PMIX_UINT32;
        v->data.uint32 = r * 1000u + (uint32_t)k;
        break;
    case 1:
        snprintf(buf, len, "rank %u key %d", r, k);
        v->type = PMIX_STRING;
        v->data.string = buf;
        break;
    default:
        memset(buf, (int)(r + (pmix_rank_t)k), len);
        v->type = PMIX_BYTE_OBJECT;
        v->data.bo.bytes = buf;
        v->data.bo.size = len;
        break;
    }
}

/* A segment of NRANKS ranks (and the job level) with NKEYS keys each; *w stays open. */
static const char *make_image(size_t *len, wu_shm_writer_t **w)
{
    char key[32], buf[300];
    pmix_value_t v;
    const char *img = NULL;
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_new(w));
    for (pmix_rank_t r = 0; r <= NRANKS; r++) {
        pmix_rank_t rank = NRANKS == r ? PMIX_RANK_WILDCARD : r;
        for (int k = 0; k < NKEYS; k++) {
            snprintf(key, sizeof key, "k.%d", k);
            value_of(&v, rank, k, buf, sizeof buf);
            ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_add(*w, rank, key, &v));
        }
    }
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_image(*w, &img, len));
    return img;
}

START_TEST(round_trip)
{
    wu_shm_writer_t *w;
    wu_shm_seg_t seg;
    size_t len;
    const char *img = make_image(&len, &w);
    char key[32], buf[300];
    pmix_value_t want, *got;
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_open(img, len, &seg));
    ck_assert_uint_eq(NRANKS + 1, seg.nranks);
    ck_assert_uint_eq((NRANKS + 1) * NKEYS, seg.nentries);
    for (pmix_rank_t r = 0; r <= NRANKS; r++) {
        pmix_rank_t rank = NRANKS == r ? PMIX_RANK_WILDCARD : r;
        ck_assert(wu_shm_has_rank(&seg, rank));
        for (int k = 0; k < NKEYS; k++) {
            snprintf(key, sizeof key, "k.%d", k);
            value_of(&want, rank, k, buf, sizeof buf);
            ck_assert_int_eq(PMIX_SUCCESS, wu_shm_fetch(&seg, rank, key, &got));
            ck_assert_int_eq(PMIX_EQUAL, PMIx_Value_compare(got, &want));
            PMIX_VALUE_RELEASE(got);
        }
    }
    ck_assert(!wu_shm_has_rank(&seg, NRANKS));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, wu_shm_fetch(&seg, NRANKS, "k.0", &got));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, wu_shm_fetch(&seg, 0, "k.none", &got));
    ck_assert_ptr_null(got);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_fetch(&seg, 0, "", &got));
    wu_shm_writer_free(w);
}
END_TEST

START_TEST(last_value_and_args)
{
    wu_shm_writer_t *w;
    wu_shm_seg_t seg;
    pmix_value_t v, *got;
    const char *img;
    char longkey[PMIX_MAX_KEYLEN + 2];
    size_t len;
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_new(&w));
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT64;
    for (uint64_t i = 0; i < 100; i++) {
        v.data.uint64 = i;
        ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_add(w, 3, "re", &v));
    }
    memset(longkey, 'x', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_writer_add(w, 3, longkey, &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_writer_add(w, 3, "", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_writer_add(w, PMIX_RANK_UNDEF, "re", &v));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_writer_add(w, 3, "re", NULL));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_image(w, &img, &len));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_open(img, len, &seg));
    ck_assert_uint_eq(1, seg.nentries);
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_fetch(&seg, 3, "re", &got));
    ck_assert_uint_eq(99, got->data.uint64);
    PMIX_VALUE_RELEASE(got);
    /* reset: the next segment holds only what was added since */
    wu_shm_writer_reset(w);
    v.data.uint64 = 7;
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_add(w, 5, "other", &v));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_image(w, &img, &len));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_open(img, len, &seg));
    ck_assert_uint_eq(1, seg.nentries);
    ck_assert_uint_eq(1, seg.nranks);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, wu_shm_fetch(&seg, 3, "re", &got));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_fetch(&seg, 5, "other", &got));
    ck_assert_uint_eq(7, got->data.uint64);
    PMIX_VALUE_RELEASE(got);
    wu_shm_writer_free(w);
    /* an empty segment is a segment */
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_new(&w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_image(w, &img, &len));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_open(img, len, &seg));
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, wu_shm_fetch(&seg, 0, "re", &got));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_open(img, len - 1, &seg));
    wu_shm_writer_free(w);
}
END_TEST

/* Look up every key of a (perhaps damaged) segment: any answer but a read outside it. */
static void read_everything(const char *img, size_t len)
{
    wu_shm_seg_t seg;
    pmix_value_t *got;
    char key[32];
    if (PMIX_SUCCESS != wu_shm_open(img, len, &seg)) {
        return;
    }
    for (pmix_rank_t r = 0; r <= NRANKS; r++) {
        (void)wu_shm_has_rank(&seg, r);
        for (int k = 0; k < NKEYS; k += 7) {
            snprintf(key, sizeof key, "k.%d", k);
            if (PMIX_SUCCESS == wu_shm_fetch(&seg, r, key, &got)) {
                PMIX_VALUE_RELEASE(got);
            }
        }
    }
}

START_TEST(damaged)
{
    wu_shm_writer_t *w;
    size_t len;
    const char *img = make_image(&len, &w);
    unsigned seed = 12345;
    for (size_t cut = 0; cut < len; cut += 1 + cut / 16) {
        char *copy = malloc(cut > 0 ? cut : 1);
        memcpy(copy, img, cut);
        read_everything(copy, cut); /* exactly cut bytes: the sanitizers see any overread */
        free(copy);
    }
    for (int round = 0; round < 2000; round++) {
        char *copy = malloc(len);
        memcpy(copy, img, len);
        for (int j = 0; j < 4; j++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % len] = (char)(seed >> 24);
        }
        read_everything(copy, len);
        free(copy);
    }
    wu_shm_writer_free(w);
}
END_TEST

START_TEST(sealed_memfd)
{
    wu_shm_writer_t *w;
    wu_shm_seg_t seg;
    pmix_value_t *got;
    size_t len;
    const char *img = make_image(&len, &w);
    int fd, plain;
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_memfd(img, len, &fd));
    /* sealed: no writing, growing or shrinking, by anyone holding the fd */
    ck_assert_int_eq(-1, (int)write(fd, "x", 1));
    ck_assert_int_ne(0, ftruncate(fd, 1));
    ck_assert_int_ne(0, ftruncate(fd, (off_t)len * 2));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_map(fd, &seg));
    close(fd); /* the mapping stays */
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_fetch(&seg, 2, "k.3", &got));
    ck_assert_uint_eq(2003, got->data.uint32);
    PMIX_VALUE_RELEASE(got);
    wu_shm_unmap(&seg);
    ck_assert_ptr_null(seg.base);
    /* an unsealed file is refused: its writer could change it under the reader */
    plain = memfd_create("plain", MFD_CLOEXEC);
    ck_assert_int_ge(plain, 0);
    ck_assert_int_eq((int)len, (int)write(plain, img, len));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_shm_map(plain, &seg));
    close(plain);
    /* written straight to a memfd: the same bytes as the image, sealed the same way */
    {
        size_t flen = 0;
        char *back = malloc(len);
        ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_memfd(w, "wu-shm-test", &fd, &flen));
        ck_assert_uint_eq(len, flen);
        ck_assert_int_eq((int)len, (int)pread(fd, back, len, 0));
        ck_assert_int_eq(0, memcmp(back, img, len));
        ck_assert_int_eq(-1, (int)write(fd, "x", 1));
        ck_assert_int_eq(PMIX_SUCCESS, wu_shm_map(fd, &seg));
        ck_assert_int_eq(PMIX_SUCCESS, wu_shm_fetch(&seg, 2, "k.3", &got));
        ck_assert_uint_eq(2003, got->data.uint32);
        PMIX_VALUE_RELEASE(got);
        wu_shm_unmap(&seg);
        close(fd);
        free(back);
    }
    wu_shm_writer_free(w);
}
END_TEST

static int count_entry(pmix_rank_t rank, const char *key, void *ctx)
{
    (void)rank;
    (void)key;
    ++*(int *)ctx;
    return PMIX_SUCCESS;
}

/* Eight ranks with a 64 KiB value each (a fence of the benchmark): the tables and entries fit
 * in the first page, and every page after it may be unreadable for open, walk and rank checks;
 * a fetch reads its own value's pages only. */
START_TEST(values_after_entries)
{
    enum { VAL = 64 * 1024, RANKS = 8 };
    long page = sysconf(_SC_PAGESIZE);
    wu_shm_writer_t *w;
    wu_shm_seg_t seg;
    pmix_value_t v, *got;
    const char *img;
    char *val = malloc(VAL), *map;
    size_t len, maplen;
    int n = 0;
    ck_assert_ptr_nonnull(val);
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_new(&w));
    for (pmix_rank_t r = 0; r < RANKS; r++) {
        memset(val, (int)r + 1, VAL);
        PMIX_VALUE_CONSTRUCT(&v);
        v.type = PMIX_BYTE_OBJECT;
        v.data.bo.bytes = val;
        v.data.bo.size = VAL;
        ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_add(w, r, "bench.fence", &v));
    }
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_writer_image(w, &img, &len));
    maplen = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
    map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(MAP_FAILED, map);
    memcpy(map, img, len);
    ck_assert_int_eq(0, mprotect(map + page, maplen - (size_t)page, PROT_NONE));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_open(map, len, &seg));
    ck_assert_int_eq(PMIX_SUCCESS, wu_shm_walk(&seg, count_entry, &n));
    ck_assert_int_eq(RANKS, n);
    for (pmix_rank_t r = 0; r < RANKS; r++) {
        ck_assert(wu_shm_has_rank(&seg, r));
    }
    ck_assert(!wu_shm_has_rank(&seg, RANKS));
    {
        /* rank 3's value (its bytes are 4s) and the page before (the packed value's header
         * sits just before its bytes) readable again: its fetch reads nothing else */
        size_t at = (size_t)page, first, last;
        while (at + VAL <= len && !(4 == img[at] && 4 == img[at + 63] && 4 == img[at + VAL - 1])) {
            at++;
        }
        ck_assert_uint_le(at + VAL, len);
        first = at / (size_t)page * (size_t)page;
        first = first >= 2 * (size_t)page ? first - (size_t)page : (size_t)page;
        last = (at + VAL) / (size_t)page * (size_t)page + (size_t)page;
        last = last < maplen ? last : maplen;
        ck_assert_int_eq(0, mprotect(map + first, last - first, PROT_READ));
        ck_assert_int_eq(PMIX_SUCCESS, wu_shm_fetch(&seg, 3, "bench.fence", &got));
        ck_assert_uint_eq(VAL, got->data.bo.size);
        ck_assert_int_eq(4, got->data.bo.bytes[0]);
        ck_assert_int_eq(4, got->data.bo.bytes[VAL - 1]);
        PMIX_VALUE_RELEASE(got);
    }
    munmap(map, maplen);
    wu_shm_writer_free(w);
    free(val);
}
END_TEST

static Suite *shm_suite(void)
{
    Suite *s = suite_create("pmix_shm");
    TCase *tc = tcase_create("segment");
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, last_value_and_args);
    tcase_add_test(tc, damaged);
    tcase_add_test(tc, sealed_memfd);
    tcase_add_test(tc, values_after_entries);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(shm_suite)
