/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_obfr.c -- Wireup's codec of OpenPMIx's serialization (pmix/common/wu_obfr.h): the
 * golden bytes of docs/openpmix-wire.md (sections 4.2, 5.2, 5.5), round trips of every type in
 * both buffer types, the types refused, and hostile input: truncation at every byte, corrupt
 * counts, lengths, varints and tags, deep nesting, garbage. Byte-exactness against the real
 * OpenPMIx library is tested by test/compat/obfr_openpmix.sh. */
#include "pmix.h"
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_obfr_int.h"
#include "pmix/common/wu_value.h"
#include "test/support/wu_test.h"
#include "test/unit/pmix/pack_samples.h"

#include <check.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#define NELEM 3
#define ND    WU_OBFR_NON_DESC
#define FD    WU_OBFR_FULLY_DESC

/* the bytes of b equal the n bytes given */
static void expect_bytes(const wu_buffer_t *b, const char *what, const uint8_t *want, size_t n)
{
    ck_assert_msg(b->used == n && 0 == memcmp(b->base, want, n),
                  "%s: %zu bytes, not the %zu expected", what, b->used, n);
}

#define EXPECT(b, what, ...)                             \
    do {                                                 \
        const uint8_t want_[] = {__VA_ARGS__};           \
        expect_bytes((b), (what), want_, sizeof(want_)); \
    } while (0)

/* pack one call of n elements of type t into a fresh buffer b */
static void pack_into(wu_buffer_t *b, int btype, const void *src, int32_t n, pmix_data_type_t t)
{
    wu_buffer_construct(b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack(b, btype, src, n, t));
}

/* a buffer holding a copy of n bytes, in a block of exactly that size (ASan sees overreads) */
static void load(wu_buffer_t *b, const void *p, size_t n)
{
    wu_buffer_construct(b);
    b->base = malloc(n > 0 ? n : 1);
    ck_assert_ptr_nonnull(b->base);
    if (n > 0) {
        memcpy(b->base, p, n);
    }
    b->used = b->cap = n;
}

START_TEST(golden)
{
    int32_t i32 = -1, one = 1;
    size_t sz = 300;
    uint32_t wild = PMIX_RANK_WILDCARD;
    uint16_t u16 = 3;
    pmix_status_t st = -46;
    unsigned u = 5;
    uint64_t max = UINT64_MAX;
    pid_t pid = 1;
    char *ab = "ab";
    bool yes = true;
    uint8_t fin = 5; /* PMIX_FINALIZE_CMD */
    pmix_info_t info;
    wu_obfr_kval_t kv;
    pmix_value_t v;
    wu_obfr_nested_t nb = {WU_OBFR_NON_DESC, {"ab", 2}};
    wu_buffer_t b;

    /* 5.2: the varints, element alone */
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&b, ND, &i32, PMIX_INT32));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&b, ND, &one, PMIX_INT32));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&b, ND, &st, PMIX_STATUS));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&b, ND, &sz, PMIX_SIZE));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&b, ND, &wild, PMIX_UINT32));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&b, ND, &u16, PMIX_UINT16));
    EXPECT(&b, "5.2 examples", 0x01, 0x02, 0x5b, 0xac, 0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x03);
    wu_buffer_destruct(&b);
    /* a UINT goes through OpenPMIx's int function: zigzag; a PID carries its UINT32 tag */
    pack_into(&b, ND, &u, 1, PMIX_UINT);
    EXPECT(&b, "UINT 5", 0x02, 0x0a);
    wu_buffer_destruct(&b);
    pack_into(&b, ND, &pid, 1, PMIX_PID);
    EXPECT(&b, "PID 1", 0x02, 0x0e, 0x01);
    wu_buffer_destruct(&b);
    pack_into(&b, ND, &pid, 0, PMIX_PID);
    EXPECT(&b, "no PID", 0x00, 0x0e);
    wu_buffer_destruct(&b);
    pack_into(&b, ND, &max, 1, PMIX_UINT64); /* 8 groups of 7 bits, then 8 bits whole */
    EXPECT(&b, "UINT64 max", 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    wu_buffer_destruct(&b);
    /* 5.5: a string, an info */
    pack_into(&b, ND, &ab, 1, PMIX_STRING);
    EXPECT(&b, "STRING ab", 0x02, 0x06, 0x61, 0x62, 0x00);
    wu_buffer_destruct(&b);
    pack_into(&b, FD, &ab, 1, PMIX_STRING);
    EXPECT(&b, "STRING ab, fully described", 0x09, 0x02, 0x03, 0x06, 0x61, 0x62, 0x00);
    wu_buffer_destruct(&b);
    PMIX_INFO_LOAD(&info, "k", &yes, PMIX_BOOL);
    pack_into(&b, ND, &info, 1, PMIX_INFO);
    EXPECT(&b, "INFO k", 0x02, 0x04, 0x6b, 0x00, 0x00, 0x01, 0x01);
    wu_buffer_destruct(&b);
    PMIx_Info_destruct(&info);
    /* 4.2: a FINALIZE request and a success reply */
    pack_into(&b, ND, &fin, 1, PMIX_COMMAND);
    st = PMIX_SUCCESS;
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack(&b, ND, &st, 1, PMIX_STATUS));
    EXPECT(&b, "FINALIZE and its reply", 0x02, 0x05, 0x02, 0x00);
    wu_buffer_destruct(&b);
    /* KVAL, BUFFER, and a list */
    v.type = PMIX_INT32;
    v.data.int32 = -1;
    kv.key = "k";
    kv.value = &v;
    pack_into(&b, ND, &kv, 1, PMIX_KVAL);
    EXPECT(&b, "KVAL", 0x02, 0x04, 0x6b, 0x00, 0x09, 0x01);
    wu_buffer_destruct(&b);
    pack_into(&b, ND, &nb, 1, PMIX_BUFFER);
    EXPECT(&b, "BUFFER", 0x02, 0x01, 0x02, 0x61, 0x62);
    wu_buffer_destruct(&b);
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_list(&b, ND, NULL, 0, PMIX_PROC));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_list(&b, FD, &ab, 1, PMIX_STRING));
    EXPECT(&b, "lists", 0x02, 0x00, 0x09, 0x02, 0x04, 0x01, 0x09, 0x02, 0x03, 0x06, 0x61, 0x62,
           0x00);
    wu_buffer_destruct(&b);
}
END_TEST

/* the encoding of n elements of type t (for comparing decoded data) */
static void encode(wu_buffer_t *b, int btype, const void *src, int32_t n, pmix_data_type_t t)
{
    wu_buffer_construct(b);
    ck_assert_msg(PMIX_SUCCESS == wu_obfr_pack(b, btype, src, n, t), "%s does not pack",
                  PMIx_Data_type_string(t));
}

static void roundtrip(int btype, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);
    void *in = sample_array(t, NELEM), *out = calloc(NELEM + 1, sz);
    int32_t n = NELEM + 1;
    wu_buffer_t b, again;

    encode(&b, btype, in, NELEM, t);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, btype, out, &n, t));
    ck_assert_int_eq(NELEM, n);
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));
    encode(&again, btype, out, n, t);
    ck_assert_msg(again.used == b.used && 0 == memcmp(again.base, b.base, b.used),
                  "%s encodes differently after a round trip", PMIx_Data_type_string(t));
    /* what travels arrives: all of it but a proc info's exit code */
    if (PMIX_PROC_INFO != t) {
        ck_assert_msg(sample_equal(in, out, t, NELEM), "%s differs after a round trip",
                      PMIx_Data_type_string(t));
    }
    /* the same through pack_one/unpack_one, element by element */
    wu_obfr_free(out, NELEM, t);
    wu_buffer_destruct(&again);
    wu_buffer_construct(&again);
    for (int i = 0; i < NELEM; i++) {
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_one(&again, btype, (char *)in + i * sz, t));
    }
    for (int i = 0; i < NELEM; i++) {
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack_one(&again, btype, (char *)out + i * sz, t));
    }
    ck_assert_uint_eq(0, wu_buffer_remaining(&again));
    wu_buffer_destruct(&b);
    encode(&b, btype, out, NELEM, t);
    wu_buffer_destruct(&again);
    encode(&again, btype, in, NELEM, t);
    ck_assert(again.used == b.used && 0 == memcmp(again.base, b.base, b.used));
    sample_free(in, t, NELEM);
    wu_obfr_free(out, NELEM, t);
    free(out);
    wu_buffer_destruct(&b);
    wu_buffer_destruct(&again);
}

/* a value holding t, when a value can */
static void roundtrip_value(int btype, pmix_data_type_t t)
{
    pmix_value_t in, out;
    int32_t n = 1;
    wu_buffer_t b, again;

    if (!sample_value_type_ok(t)) {
        return;
    }
    sample_value(&in, t, 2);
    memset(&out, 0, sizeof(out));
    encode(&b, btype, &in, 1, PMIX_VALUE);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, btype, &out, &n, PMIX_VALUE));
    ck_assert_int_eq(t, out.type);
    encode(&again, btype, &out, 1, PMIX_VALUE);
    ck_assert(again.used == b.used && 0 == memcmp(again.base, b.base, b.used));
    PMIx_Value_destruct(&in);
    PMIx_Value_destruct(&out);
    wu_buffer_destruct(&b);
    wu_buffer_destruct(&again);
}

/* every sample type: supported ones round-trip in both buffer types, the others are refused */
START_TEST(every_type)
{
    pmix_data_type_t t = sample_types[_i];
    void *in = sample_array(t, 1), *out = calloc(2, wu_data_elem_size(t));
    const uint8_t some[] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    int32_t n = 2;
    wu_buffer_t b;

    if (0 != wu_obfr_elem_size(t)) {
        roundtrip(ND, t);
        roundtrip(FD, t);
        roundtrip_value(ND, t);
        roundtrip_value(FD, t);
    } else {
        wu_buffer_construct(&b);
        ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, wu_obfr_pack(&b, ND, in, 1, t));
        ck_assert_uint_eq(0, b.used);
        wu_buffer_destruct(&b);
        load(&b, some, sizeof(some));
        ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, wu_obfr_unpack(&b, ND, out, &n, t));
        ck_assert_uint_eq(0, b.rpos);
        wu_buffer_destruct(&b);
    }
    sample_free(in, t, 1);
    free(out);
}
END_TEST

START_TEST(kval_and_buffer)
{
    pmix_value_t v1, v2;
    wu_obfr_kval_t kv[2] = {{"key", &v1}, {NULL, &v2}}, kout[3];
    wu_obfr_nested_t nb[2] = {{WU_OBFR_FULLY_DESC, {"\x09\x02", 2}}, {WU_OBFR_NON_DESC, {NULL, 0}}},
                     nout[2];
    int32_t n = 3;
    wu_buffer_t b;

    sample_value(&v1, PMIX_DATA_ARRAY, 1);
    sample_value(&v2, PMIX_UNDEF, 0);
    for (int btype = ND; btype <= FD; btype++) {
        encode(&b, btype, kv, 2, PMIX_KVAL);
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, btype, kout, &n, PMIX_KVAL));
        ck_assert_int_eq(2, n);
        ck_assert_str_eq("key", kout[0].key);
        ck_assert_ptr_null(kout[1].key);
        ck_assert(sample_equal(&v1, kout[0].value, PMIX_VALUE, 1));
        ck_assert_int_eq(PMIX_UNDEF, kout[1].value->type);
        wu_obfr_free(kout, 2, PMIX_KVAL);
        wu_buffer_destruct(&b);
        n = 2;
        encode(&b, btype, nb, 2, PMIX_BUFFER);
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, btype, nout, &n, PMIX_BUFFER));
        ck_assert_int_eq(WU_OBFR_FULLY_DESC, nout[0].btype);
        ck_assert_uint_eq(2, nout[0].bytes.size);
        ck_assert_mem_eq("\x09\x02", nout[0].bytes.bytes, 2);
        ck_assert_uint_eq(0, nout[1].bytes.size);
        wu_obfr_free(nout, 2, PMIX_BUFFER);
        wu_buffer_destruct(&b);
        n = 3;
    }
    PMIx_Value_destruct(&v1);
}
END_TEST

START_TEST(lists)
{
    pmix_proc_t *procs = sample_array(PMIX_PROC, NELEM);
    void *arr = NULL;
    size_t n = 99;
    wu_buffer_t b;

    for (int btype = ND; btype <= FD; btype++) {
        wu_buffer_construct(&b);
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_list(&b, btype, procs, NELEM, PMIX_PROC));
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack_list(&b, btype, NULL, 0, PMIX_INFO));
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack_list(&b, btype, &arr, &n, PMIX_PROC));
        ck_assert_uint_eq(NELEM, n);
        ck_assert(sample_equal(procs, arr, PMIX_PROC, NELEM));
        wu_obfr_free(arr, n, PMIX_PROC);
        free(arr);
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack_list(&b, btype, &arr, &n, PMIX_INFO));
        ck_assert_ptr_null(arr);
        ck_assert_uint_eq(0, n);
        ck_assert_uint_eq(0, wu_buffer_remaining(&b));
        wu_buffer_destruct(&b);
    }
    /* a count of 3 followed by a call of 2: refused, nothing read */
    wu_buffer_construct(&b);
    n = 3;
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack(&b, ND, &n, 1, PMIX_SIZE));
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack(&b, ND, procs, 2, PMIX_PROC));
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, wu_obfr_unpack_list(&b, ND, &arr, &n, PMIX_PROC));
    ck_assert_uint_eq(0, b.rpos);
    ck_assert_ptr_null(arr);
    wu_buffer_destruct(&b);
    sample_free(procs, PMIX_PROC, NELEM);
}
END_TEST

/* the samples whose truncation is tried at every byte */
static const pmix_data_type_t trunc_types[] = {PMIX_INFO,     PMIX_VALUE,      PMIX_APP,
                                               PMIX_QUERY,    PMIX_DATA_ARRAY, PMIX_PDATA,
                                               PMIX_GEOMETRY, PMIX_PROC_INFO};

START_TEST(truncated)
{
    pmix_data_type_t t = trunc_types[_i];
    void *in = sample_array(t, NELEM), *out = calloc(NELEM, wu_data_elem_size(t));

    for (int btype = ND; btype <= FD; btype++) {
        wu_buffer_t full, cut;
        encode(&full, btype, in, NELEM, t);
        for (size_t len = 0; len < full.used; len++) {
            int32_t n = NELEM;
            load(&cut, full.base, len);
            ck_assert_int_ne(PMIX_SUCCESS, wu_obfr_unpack(&cut, btype, out, &n, t));
            ck_assert_uint_eq(0, cut.rpos);
            ck_assert_int_eq(0, n);
            wu_buffer_destruct(&cut);
        }
        wu_buffer_destruct(&full);
    }
    sample_free(in, t, NELEM);
    free(out);
}
END_TEST

/* bytes that must be refused with rc as type t (room for 64), cursor unchanged */
static void refuse(int line, int btype, pmix_data_type_t t, int rc, const uint8_t *p, size_t len)
{
    void *out = calloc(64, wu_obfr_elem_size(t));
    int32_t n = 64;
    wu_buffer_t b;
    int got;

    load(&b, p, len);
    got = wu_obfr_unpack(&b, btype, out, &n, t);
    ck_assert_msg(rc == got, "line %d: %s, not %s", line, PMIx_Error_string(got),
                  PMIx_Error_string(rc));
    ck_assert_uint_eq(0, b.rpos);
    wu_buffer_destruct(&b);
    free(out);
}

#define REFUSE(btype, t, rc, ...)                                     \
    do {                                                              \
        const uint8_t bytes_[] = {__VA_ARGS__};                       \
        refuse(__LINE__, (btype), (t), (rc), bytes_, sizeof(bytes_)); \
    } while (0)

START_TEST(hostile)
{
    const int past = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, bad = PMIX_ERR_UNPACK_FAILURE;
    uint8_t deep[2 + 3 * 40 + 2];
    pmix_proc_t procs[3];
    int32_t n;
    wu_buffer_t b;

    refuse(__LINE__, ND, PMIX_INT32, past, NULL, 0);
    /* varints: cut off, too long for their type */
    REFUSE(ND, PMIX_UINT16, past, 0x02, 0x80);
    REFUSE(ND, PMIX_UINT16, bad, 0x02, 0x80, 0x80, 0x04);       /* 0x10000 */
    REFUSE(ND, PMIX_UINT16, bad, 0x02, 0x80, 0x80, 0x80, 0x00); /* 0, but 4 bytes long */
    REFUSE(ND, PMIX_INT32, bad, 0x02, 0xff, 0xff, 0xff, 0xff, 0x1f);
    REFUSE(ND, PMIX_INT32, bad, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00); /* the count itself */
    REFUSE(ND, PMIX_INT32, bad, 0x01);                               /* a count of -1 */
    /* strings: no NUL at the end, a NUL inside, negative or huge lengths */
    REFUSE(ND, PMIX_STRING, bad, 0x02, 0x06, 0x61, 0x62, 0x63);
    REFUSE(ND, PMIX_STRING, bad, 0x02, 0x06, 0x61, 0x00, 0x00);
    REFUSE(ND, PMIX_STRING, bad, 0x02, 0x01);
    REFUSE(ND, PMIX_STRING, past, 0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x61, 0x00);
    /* counts beyond what is left, before anything is allocated */
    REFUSE(ND, PMIX_INFO, past, 0x80, 0x01, 0x02, 0x6b, 0x00, 0x00, 0x00); /* 64 of them */
    REFUSE(ND, PMIX_INFO, PMIX_ERR_UNPACK_INADEQUATE_SPACE, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00);
    REFUSE(ND, PMIX_APP, past, 0x02, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00);
    REFUSE(ND, PMIX_BYTE_OBJECT, past, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    REFUSE(ND, PMIX_DATA_ARRAY, past, 0x02, 0x18, 0xff, 0xff, 0xff, 0x07, 0x00);
    /* tags: a fully described call's, a pid's, a value's, a data array's */
    REFUSE(FD, PMIX_INT32, bad, 0x0a, 0x02, 0x09, 0x01);
    REFUSE(FD, PMIX_INT32, PMIX_ERR_TYPE_MISMATCH, 0x09, 0x02, 0x0a, 0x01);
    REFUSE(ND, PMIX_PID, bad, 0x02, 0x0d, 0x01);
    REFUSE(ND, PMIX_VALUE, bad, 0x02, 0x15, 0x00);            /* a value holding a value */
    REFUSE(ND, PMIX_VALUE, bad, 0x02, 0x38, 0x00);            /* a topology: not spoken here */
    REFUSE(ND, PMIX_DATA_ARRAY, bad, 0x02, 0x00, 0x01);       /* elements of no type */
    REFUSE(ND, PMIX_DATA_ARRAY, bad, 0x02, 0x1c, 0x01, 0x00); /* of KVAL */
    REFUSE(ND, PMIX_BOOL, bad, 0x02, 0x02);
    REFUSE(ND, PMIX_INFO, bad, 0x02, 0x00, 0x00, 0x00, 0x00); /* a NULL key */
    REFUSE(ND, PMIX_FLOAT, bad, 0x02, 0x08, '1', ',', '5', 0x00);
    REFUSE(ND, PMIX_APP, bad, 0x02, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00); /* NULL in argv */
    /* nesting deeper than WU_BUFFER_MAX_DEPTH: value, array of values, value, ... */
    deep[0] = 0x02;
    deep[1] = 0x27;
    for (int i = 0; i < 40; i++) {
        deep[2 + 3 * i] = 0x15;
        deep[3 + 3 * i] = 0x01;
        deep[4 + 3 * i] = 0x27;
    }
    deep[sizeof(deep) - 2] = 0x00; /* ends the last array: empty, of no type */
    deep[sizeof(deep) - 1] = 0x00;
    refuse(__LINE__, ND, PMIX_VALUE, bad, deep, sizeof(deep));
    /* an empty array may name a type that is not spoken here */
    load(&b, (const uint8_t[]){0x02, 0x38, 0x00}, 3);
    n = 1;
    {
        pmix_data_array_t d;
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, ND, &d, &n, PMIX_DATA_ARRAY));
        ck_assert_int_eq(PMIX_TOPO, d.type);
        ck_assert_uint_eq(0, d.size);
    }
    wu_buffer_destruct(&b);
    /* more elements than room: the count, nothing read */
    memset(procs, 0, sizeof(procs));
    encode(&b, FD, procs, 3, PMIX_PROC);
    n = 2;
    ck_assert_int_eq(PMIX_ERR_UNPACK_INADEQUATE_SPACE,
                     wu_obfr_unpack(&b, FD, procs, &n, PMIX_PROC));
    ck_assert_int_eq(3, n);
    ck_assert_uint_eq(0, b.rpos);
    wu_buffer_destruct(&b);
}
END_TEST

/* a pointer travels as OpenPMIx's one-byte sentinel and arrives as a NULL pointer (how
 * PMIx_Heartbeat's PMIX_SEND_HEARTBEAT and a heartbeat monitor come) */
START_TEST(pointer_sentinel)
{
    static const unsigned char want[] = {0x02, 0x06, 'h', 'b', 0x00, 0x00, 0x1f, 0x01};
    pmix_info_t in, out;
    int32_t n = 1;
    wu_buffer_t b;

    wu_buffer_construct(&b);
    PMIX_INFO_LOAD(&in, "hb", NULL, PMIX_POINTER);
    in.value.data.ptr = &in;
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack(&b, ND, &in, 1, PMIX_INFO));
    ck_assert_uint_eq(sizeof want, b.used);
    ck_assert_mem_eq(want, b.base, sizeof want);
    PMIX_INFO_CONSTRUCT(&out);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, ND, &out, &n, PMIX_INFO));
    ck_assert_int_eq(PMIX_POINTER, out.value.type);
    ck_assert_ptr_null(out.value.data.ptr);
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));
    PMIX_INFO_DESTRUCT(&out);
    wu_buffer_destruct(&b);
}
END_TEST

START_TEST(pack_refusals)
{
    pmix_info_t info[2];
    pmix_value_t v;
    pmix_data_array_t *d = calloc(1, sizeof(*d)), *top = d;
    wu_obfr_kval_t kv = {"k", NULL};
    wu_buffer_t b;

    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_pack(&b, ND, &info, 0, PMIX_INFO));
    ck_assert_uint_eq(1, b.used);
    /* all or nothing: the second info cannot travel */
    PMIX_INFO_LOAD(&info[0], "a", "x", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], "b", NULL, PMIX_BOOL);
    info[1].value.type = PMIX_REGATTR;
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, wu_obfr_pack(&b, FD, info, 2, PMIX_INFO));
    memset(info[1].key, 'k', sizeof(info[1].key)); /* unterminated */
    info[1].value.type = PMIX_BOOL;
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_obfr_pack(&b, ND, info, 2, PMIX_INFO));
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_obfr_pack(&b, ND, &kv, 1, PMIX_KVAL));
    v.type = PMIX_PROC;
    v.data.proc = NULL;
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_obfr_pack(&b, ND, &v, 1, PMIX_VALUE));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_obfr_pack(&b, 3, &v, 1, PMIX_VALUE));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_obfr_pack(&b, ND, NULL, 1, PMIX_VALUE));
    ck_assert_uint_eq(1, b.used);
    /* nesting deeper than the decoder takes is not sent */
    for (int i = 0; i < WU_BUFFER_MAX_DEPTH + 2; i++) {
        d->type = PMIX_DATA_ARRAY;
        d->size = 1;
        d->array = calloc(1, sizeof(*d));
        d = d->array;
    }
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_obfr_pack(&b, ND, top, 1, PMIX_DATA_ARRAY));
    ck_assert_uint_eq(1, b.used);
    wu_darray_destruct(top);
    free(top);
    PMIx_Info_destruct(&info[0]);
    wu_buffer_destruct(&b);
}
END_TEST

/* FLOAT/DOUBLE are "%f" text whatever locale the host chose */
START_TEST(real_text)
{
    double d = 1.5, out = 0;
    int32_t n = 1;
    wu_buffer_t b;

    if (NULL != setlocale(LC_NUMERIC, "de_DE.UTF-8") ||
        NULL != setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        ck_assert(0 != strcmp(".", localeconv()->decimal_point));
    }
    pack_into(&b, ND, &d, 1, PMIX_DOUBLE);
    EXPECT(&b, "DOUBLE 1.5", 0x02, 0x12, '1', '.', '5', '0', '0', '0', '0', '0', 0x00);
    ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&b, ND, &out, &n, PMIX_DOUBLE));
    ck_assert(1.5 == out);
    setlocale(LC_NUMERIC, "C");
    wu_buffer_destruct(&b);
}
END_TEST

/* xorshift: the same garbage every run */
static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* what decodes from bytes encodes again, and that decodes to the same */
static void decode_any(const uint8_t *p, size_t len, int btype, pmix_data_type_t t)
{
    size_t sz = wu_obfr_elem_size(t);
    void *out = calloc(4, sz), *again = calloc(4, sz);
    int32_t n = 4, m = 4;
    wu_buffer_t b, x, y;

    load(&b, p, len);
    if (PMIX_SUCCESS == wu_obfr_unpack(&b, btype, out, &n, t)) {
        encode(&x, btype, out, n, t);
        ck_assert_int_eq(PMIX_SUCCESS, wu_obfr_unpack(&x, btype, again, &m, t));
        ck_assert_int_eq(n, m);
        encode(&y, btype, again, m, t);
        ck_assert(x.used == y.used && 0 == memcmp(x.base, y.base, x.used));
        wu_obfr_free(out, (size_t)n, t);
        wu_obfr_free(again, (size_t)m, t);
        wu_buffer_destruct(&x);
        wu_buffer_destruct(&y);
    } else {
        ck_assert_uint_eq(0, b.rpos);
    }
    wu_buffer_destruct(&b);
    free(out);
    free(again);
}

START_TEST(garbage)
{
    static const pmix_data_type_t types[] = {PMIX_INFO,  PMIX_VALUE,      PMIX_APP,    PMIX_QUERY,
                                             PMIX_PDATA, PMIX_DATA_ARRAY, PMIX_STRING, PMIX_PROC,
                                             PMIX_KVAL,  PMIX_GEOMETRY};
    uint32_t seed = 0x9e3779b9u;

    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        pmix_data_type_t t = types[ti];
        for (int btype = ND; btype <= FD; btype++) {
            wu_buffer_t valid;
            if (PMIX_KVAL == t) {
                pmix_value_t v;
                wu_obfr_kval_t kv = {"key", &v};
                sample_value(&v, PMIX_DATA_ARRAY, 3);
                encode(&valid, btype, &kv, 1, t);
                PMIx_Value_destruct(&v);
            } else {
                void *in = sample_array(t, 2);
                encode(&valid, btype, in, 2, t);
                sample_free(in, t, 2);
            }
            /* valid bytes with a few flipped, and pure noise */
            for (int round = 0; round < 400; round++) {
                uint8_t buf[512];
                size_t len = valid.used < sizeof(buf) ? valid.used : sizeof(buf);
                memcpy(buf, valid.base, len);
                for (int k = 0; k < 1 + round % 4; k++) {
                    buf[rnd(&seed) % len] ^= (uint8_t)(1u << (rnd(&seed) % 8));
                }
                decode_any(buf, len, btype, t);
                for (size_t k = 0; k < len; k++) {
                    buf[k] = (uint8_t)rnd(&seed);
                }
                buf[0] = (uint8_t)(rnd(&seed) % 8);
                decode_any(buf, rnd(&seed) % (len + 1), btype, t);
            }
            wu_buffer_destruct(&valid);
        }
    }
}
END_TEST

static Suite *pmix_obfr_suite(void)
{
    Suite *s = suite_create("pmix_obfr");
    TCase *tc = tcase_create("format");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, golden);
    tcase_add_loop_test(tc, every_type, 0, N_SAMPLE_TYPES);
    tcase_add_test(tc, kval_and_buffer);
    tcase_add_test(tc, lists);
    tcase_add_test(tc, real_text);
    suite_add_tcase(s, tc);

    tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, truncated, 0, sizeof(trunc_types) / sizeof(trunc_types[0]));
    tcase_add_test(tc, hostile);
    tcase_add_test(tc, pack_refusals);
    tcase_add_test(tc, pointer_sentinel);
    tcase_add_test(tc, garbage);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_obfr_suite)
