/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_fuzz.c -- the decoder against hostile input: every truncation of a valid encoding
 * of every type, random byte flips, random buffers and hand-made corrupt headers. Each input
 * sits in a heap block of exactly its size, so under ASan any read past the end is caught; the
 * decoder must fail cleanly (rewound cursor, zeroed destination, nothing leaked). The random
 * generator has a fixed seed, so a failure reproduces. */
#include "pmix.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_value.h"
#include "test/support/wu_test.h"
#include "test/unit/pmix/pack_samples.h"

#include <check.h>
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#define NELEM         2
#define FLIP_ROUNDS   400
#define RANDOM_ROUNDS 30000

static uint64_t rng_state;

static uint64_t rng(void)
{
    /* xorshift64*: deterministic, good enough to spread flips */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static bool all_zero(const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (0 != ((const unsigned char *)p)[i]) {
            return false;
        }
    }
    return true;
}

/* decode `len` bytes (copied into an exact-size block) as up to NELEM elements of type t;
 * returns the status, checks the failure contract, releases any success */
static int try_decode(const void *bytes, size_t len, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);
    char *copy = malloc(len ? len : 1), *dst = calloc(NELEM, sz);
    int32_t n = NELEM;
    wu_buffer_t b;
    int rc;

    memcpy(copy, bytes, len);
    wu_buffer_construct(&b);
    b.base = copy;
    b.used = b.cap = len;
    rc = wu_unpack(&b, dst, &n, t);
    if (PMIX_SUCCESS == rc) {
        ck_assert_int_le(n, NELEM);
        ck_assert_uint_le(b.rpos, len);
        wu_data_elems_destruct(dst, (size_t)n, t);
    } else {
        ck_assert_uint_eq(0, b.rpos);
        ck_assert_msg(all_zero(dst, NELEM * sz), "failed decode of %s left data behind",
                      PMIx_Data_type_string(t));
        if (PMIX_ERR_UNPACK_INADEQUATE_SPACE != rc) {
            ck_assert_int_eq(0, n);
        }
    }
    free(dst);
    free(copy);
    return rc;
}

/* NELEM samples of t; a single topology, as each decode of an intact one costs an hwloc load */
static void encode(wu_buffer_t *b, pmix_data_type_t t)
{
    size_t n = PMIX_TOPO == t ? 1 : NELEM;
    void *in = sample_array(t, n);

    wu_buffer_construct(b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(b, in, (int32_t)n, t));
    sample_free(in, t, n);
}

/* every strict prefix of a valid encoding is refused (one test for all types: under ASan each
 * forked test pays a leak scan at exit) */
static void truncations_of(pmix_data_type_t t)
{
    wu_buffer_t b;

    encode(&b, t);
    for (size_t len = 0; len < b.used; len++) {
        int rc = try_decode(b.base, len, t);
        ck_assert_msg(
            PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc || PMIX_ERR_UNPACK_FAILURE == rc,
            "%s truncated to %zu of %zu bytes: %d", PMIx_Data_type_string(t), len, b.used, rc);
    }
    ck_assert_int_eq(PMIX_SUCCESS, try_decode(b.base, b.used, t));
    wu_buffer_destruct(&b);
}

START_TEST(every_truncation)
{
    for (size_t i = 0; i < N_SAMPLE_TYPES; i++) {
        truncations_of(sample_types[i]);
    }
}
END_TEST

/* random byte changes in a valid encoding: any outcome but a crash, leak or overread */
static void flips_of(pmix_data_type_t t)
{
    wu_buffer_t b;
    char *m;

    rng_state = 0x9e3779b97f4a7c15ull + t;
    encode(&b, t);
    m = malloc(b.used);
    for (int r = 0; r < FLIP_ROUNDS; r++) {
        int flips = 1 + (int)(rng() % 4);
        memcpy(m, b.base, b.used);
        for (int k = 0; k < flips; k++) {
            m[rng() % b.used] = (char)rng();
        }
        try_decode(m, b.used, t);
        try_decode(m, rng() % (b.used + 1), t); /* and a random cut of it */
    }
    free(m);
    wu_buffer_destruct(&b);
}

START_TEST(random_flips)
{
    for (size_t i = 0; i < N_SAMPLE_TYPES; i++) {
        flips_of(sample_types[i]);
    }
}
END_TEST

/* random bytes, often behind a valid header for the type asked for */
START_TEST(random_buffers)
{
    unsigned char buf[160];

    rng_state = 0x243f6a8885a308d3ull;
    for (int r = 0; r < RANDOM_ROUNDS; r++) {
        pmix_data_type_t t = sample_types[rng() % N_SAMPLE_TYPES];
        size_t len = rng() % sizeof(buf);
        for (size_t i = 0; i < len; i++) {
            buf[i] = (unsigned char)rng();
        }
        if (len >= 6 && rng() % 4 != 0) {
            uint16_t tag = htobe16(t);
            uint32_t cnt = htobe32((uint32_t)(rng() % (NELEM + 1)));
            memcpy(buf, &tag, 2);
            memcpy(buf + 2, &cnt, 4);
        }
        try_decode(buf, len, t);
    }
}
END_TEST

static size_t put16(unsigned char *p, uint16_t v)
{
    v = htobe16(v);
    memcpy(p, &v, 2);
    return 2;
}

static size_t put32(unsigned char *p, uint32_t v)
{
    v = htobe32(v);
    memcpy(p, &v, 4);
    return 4;
}

/* decodes one PMIX_PROC_CPUSET whose hwloc list is str */
static int try_cpuset(const char *str)
{
    unsigned char m[128];
    size_t k = put16(m, PMIX_PROC_CPUSET), len = strlen(str);

    k += put32(m + k, 1);
    k += put32(m + k, 6); /* the wire counts a terminator it does not carry */
    memcpy(m + k, "hwloc", 5);
    k += 5;
    k += put32(m + k, (uint32_t)len + 1);
    memcpy(m + k, str, len);
    return try_decode(m, k + len, PMIX_PROC_CPUSET);
}

/* hand-made headers with absurd counts and lengths: refused before any big allocation */
START_TEST(absurd_lengths)
{
    unsigned char m[64];
    size_t k;

    /* a string claiming 4 GiB */
    k = put16(m, PMIX_STRING);
    k += put32(m + k, 1);
    k += put32(m + k, 0xffffffffu);
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, try_decode(m, k, PMIX_STRING));
    /* a byte object claiming 4 GiB */
    k = put16(m, PMIX_BYTE_OBJECT);
    k += put32(m + k, 1);
    k += put32(m + k, 0xfffffff0u);
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, try_decode(m, k, PMIX_BYTE_OBJECT));
    /* a data array of 4 G infos */
    k = put16(m, PMIX_DATA_ARRAY);
    k += put32(m + k, 1);
    k += put16(m + k, PMIX_INFO);
    k += put32(m + k, 0xffffffffu);
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, try_decode(m, k, PMIX_DATA_ARRAY));
    /* an app whose argv claims 4 G entries */
    k = put16(m, PMIX_APP);
    k += put32(m + k, 1);
    k += put32(m + k, 0); /* cmd NULL */
    k += put32(m + k, 0xffffffffu);
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, try_decode(m, k, PMIX_APP));
    /* a group count beyond int32 */
    k = put16(m, PMIX_INT32);
    k += put32(m + k, 0x80000000u);
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_decode(m, k, PMIX_INT32));
    /* a string with a NUL inside, a bool that is neither 0 nor 1 */
    k = put16(m, PMIX_STRING);
    k += put32(m + k, 1);
    k += put32(m + k, 4);
    memcpy(m + k, "a\0b", 3);
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_decode(m, k + 3, PMIX_STRING));
    k = put16(m, PMIX_BOOL);
    k += put32(m + k, 1);
    m[k++] = 2;
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_decode(m, k, PMIX_BOOL));
    /* an nspace longer than PMIX_MAX_NSLEN */
    {
        unsigned char big[300 + 14];
        k = put16(big, PMIX_PROC_NSPACE);
        k += put32(big + k, 1);
        k += put32(big + k, 301);
        memset(big + k, 'x', 300);
        ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_decode(big, k + 300, PMIX_PROC_NSPACE));
    }
    /* a value of an unknown type, and a cpuset list that would need a huge bitmap */
    k = put16(m, PMIX_VALUE);
    k += put32(m + k, 1);
    k += put16(m + k, 333);
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_decode(m, k, PMIX_VALUE));
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_cpuset("0-999999999"));
    /* hwloc reads numbers as C literals: "09-81" is 0 then -81, a cpu near 2^32 */
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_cpuset("09-81"));
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_cpuset("010"));
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_cpuset("5-3"));
    ck_assert_int_eq(PMIX_SUCCESS, try_cpuset("0,10-12,1048576,100-"));
}
END_TEST

/* values nested in arrays far deeper than allowed: refused without exhausting the stack */
START_TEST(deep_nesting)
{
    const int levels = 5000;
    size_t cap = 16 + (size_t)levels * 9, k;
    unsigned char *m = malloc(cap);

    k = put16(m, PMIX_VALUE);
    k += put32(m + k, 1);
    for (int i = 0; i < levels; i++) {
        k += put16(m + k, PMIX_DATA_ARRAY); /* value of type data array */
        m[k++] = 1;                         /* present */
        k += put16(m + k, PMIX_VALUE);      /* array of values */
        k += put32(m + k, 1);               /* one element */
    }
    k += put16(m + k, PMIX_UNDEF);
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, try_decode(m, k, PMIX_VALUE));
    free(m);
}
END_TEST

/* the public API on a corrupt caller buffer: pointers outside the data are refused */
START_TEST(corrupt_caller_buffer)
{
    pmix_data_buffer_t buf;
    int32_t v = 1, n = 1;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, &buf, &v, 1, PMIX_INT32));
    buf.unpack_ptr = buf.base_ptr + buf.bytes_used + 1;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_unpack(NULL, &buf, &v, &n, PMIX_INT32));
    buf.unpack_ptr = buf.base_ptr - 1;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_unpack(NULL, &buf, &v, &n, PMIX_INT32));
    buf.unpack_ptr = buf.base_ptr;
    buf.bytes_used = buf.bytes_allocated + 1;
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_unpack(NULL, &buf, &v, &n, PMIX_INT32));
    buf.bytes_used = 10;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, &buf, &v, &n, PMIX_INT32));
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

static Suite *pmix_fuzz_suite(void)
{
    Suite *s = suite_create("pmix_fuzz");
    TCase *tc = tcase_create("truncation");

    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, every_truncation);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, random_flips);
    tcase_add_test(tc, random_buffers);
    suite_add_tcase(s, tc);

    tc = tcase_create("crafted");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, absurd_lengths);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, corrupt_caller_buffer);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_fuzz_suite)
