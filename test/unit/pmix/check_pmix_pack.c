/* SPDX-License-Identifier: BSD-3-Clause */
/* check_pmix_pack.c -- the serialization layer (wu_pack/wu_unpack) and the PMIx_Data_* API:
 * round trips of every type, the wire format, error returns, caller-created buffers. */
#include "pmix.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "test/support/wu_test.h"
#include "test/unit/pmix/pack_samples.h"

#include <check.h>
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#define NELEM 3

/* pack NELEM samples of type t, unpack them, compare */
static void roundtrip(pmix_data_type_t t)
{
    void *in = sample_array(t, NELEM), *out = calloc(NELEM + 1, wu_data_elem_size(t));
    int32_t n = NELEM + 1;
    wu_buffer_t b;

    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, in, NELEM, t));
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, out, &n, t));
    ck_assert_int_eq(NELEM, n);
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));
    ck_assert_msg(sample_equal(in, out, t, NELEM), "type %s differs after a round trip",
                  PMIx_Data_type_string(t));
    sample_free(in, t, NELEM);
    sample_free(out, t, NELEM);
    wu_buffer_destruct(&b);
}

/* the same through the public API on a buffer made with the public macro */
static void roundtrip_public(pmix_data_type_t t)
{
    void *in = sample_array(t, NELEM), *out = calloc(NELEM, wu_data_elem_size(t));
    pmix_data_buffer_t *buf;
    int32_t n = NELEM;

    PMIX_DATA_BUFFER_CREATE(buf);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, buf, in, NELEM, t));
    ck_assert_ptr_eq(buf->pack_ptr, buf->base_ptr + buf->bytes_used);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, buf, out, &n, t));
    ck_assert_int_eq(NELEM, n);
    ck_assert_ptr_eq(buf->unpack_ptr, buf->pack_ptr);
    ck_assert_msg(sample_equal(in, out, t, NELEM), "%s differs via PMIx_Data_*",
                  PMIx_Data_type_string(t));
    n = NELEM;
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
                     PMIx_Data_unpack(NULL, buf, out, &n, t));
    sample_free(in, t, NELEM);
    sample_free(out, t, NELEM);
    PMIX_DATA_BUFFER_RELEASE(buf);
}

/* a pmix_value_t holding t, if it can */
static void roundtrip_value(pmix_data_type_t t)
{
    pmix_value_t in, out;
    int32_t n = 1;
    wu_buffer_t b;

    if (!sample_value_type_ok(t)) {
        return;
    }
    sample_value(&in, t, 2);
    memset(&out, 0, sizeof(out));
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &in, 1, PMIX_VALUE));
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &out, &n, PMIX_VALUE));
    ck_assert_int_eq(t, out.type);
    ck_assert_msg(sample_equal(&in, &out, PMIX_VALUE, 1), "value of %s differs",
                  PMIx_Data_type_string(t));
    PMIx_Value_destruct(&in);
    PMIx_Value_destruct(&out);
    wu_buffer_destruct(&b);
}

/* one forked test per type (not three: under ASan each fork pays a leak scan at exit) */
START_TEST(every_type)
{
    roundtrip(sample_types[_i]);
    roundtrip_public(sample_types[_i]);
    roundtrip_value(sample_types[_i]);
}
END_TEST

START_TEST(fields_survive)
{
    pmix_app_t *app = sample_array(PMIX_APP, 1), app2;
    pmix_data_array_t *da = sample_array(PMIX_DATA_ARRAY, 1), da2;
    pmix_cpuset_t *cs = sample_array(PMIX_PROC_CPUSET, 1), cs2;
    pmix_topology_t *tp = sample_array(PMIX_TOPO, 1), tp2;
    pmix_info_t *inner;
    int32_t n = 1;
    wu_buffer_t b;

    memset(&app2, 0, sizeof(app2));
    memset(&da2, 0, sizeof(da2));
    memset(&cs2, 0, sizeof(cs2));
    memset(&tp2, 0, sizeof(tp2));
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, app, 1, PMIX_APP));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, da, 1, PMIX_DATA_ARRAY));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, cs, 1, PMIX_PROC_CPUSET));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, tp, 1, PMIX_TOPO));

    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &app2, &n, PMIX_APP));
    ck_assert_str_eq("/bin/app-0", app2.cmd);
    ck_assert_str_eq("arg-1", app2.argv[1]);
    ck_assert_ptr_null(app2.argv[2]);
    ck_assert_str_eq("arg-5", app2.env[0]);
    ck_assert_str_eq("/tmp", app2.cwd);
    ck_assert_int_eq(-1, app2.maxprocs);
    ck_assert_uint_eq(2, app2.ninfo);
    ck_assert_str_eq("wu.test.key1", app2.info[1].key);
    ck_assert_uint_eq(PMIX_INFO_REQD, app2.info[1].flags);
    ck_assert_int_eq(PMIX_UINT64, app2.info[1].value.type);
    ck_assert(0x1122334455667789ull == app2.info[1].value.data.uint64);
    ck_assert_str_eq("val-0", app2.info[0].value.data.string);

    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &da2, &n, PMIX_DATA_ARRAY));
    ck_assert_int_eq(PMIX_INFO, da2.type);
    ck_assert_uint_eq(3, da2.size);
    inner = da2.array;
    ck_assert_str_eq("nested", inner[2].key);
    ck_assert_int_eq(PMIX_DATA_ARRAY, inner[2].value.type);
    ck_assert_int_eq(PMIX_UINT16, inner[2].value.data.darray->type);
    ck_assert_uint_eq(4, inner[2].value.data.darray->size);
    ck_assert_uint_eq(0xfff3, ((uint16_t *)inner[2].value.data.darray->array)[3]);

    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &cs2, &n, PMIX_PROC_CPUSET));
    ck_assert_str_eq("hwloc", cs2.source);
    ck_assert(hwloc_bitmap_isequal(cs->bitmap, cs2.bitmap));

    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &tp2, &n, PMIX_TOPO));
    ck_assert_str_eq("hwloc", tp2.source);
    ck_assert_ptr_nonnull(tp2.topology);
    ck_assert_int_eq(2, hwloc_get_nbobjs_by_type(tp2.topology, HWLOC_OBJ_CORE));

    sample_free(app, PMIX_APP, 1);
    sample_free(da, PMIX_DATA_ARRAY, 1);
    sample_free(cs, PMIX_PROC_CPUSET, 1);
    sample_free(tp, PMIX_TOPO, 1);
    wu_data_elems_destruct(&app2, 1, PMIX_APP);
    wu_data_elems_destruct(&da2, 1, PMIX_DATA_ARRAY);
    wu_data_elems_destruct(&cs2, 1, PMIX_PROC_CPUSET);
    wu_data_elems_destruct(&tp2, 1, PMIX_TOPO);
    wu_buffer_destruct(&b);
}
END_TEST

/* the documented wire format, byte for byte */
START_TEST(wire_format)
{
    static const unsigned char want[] = {
        0x00, PMIX_INT32,  0x00, 0x00, 0x00, 0x01, 0x01, 0x02,      0x03, 0x04, /* int32 */
        0x00, PMIX_STRING, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,      0x00, 0x03,
        'h',  'i',         0x00, 0x00, 0x00, 0x00,                        /* "hi", NULL */
        0x00, PMIX_VALUE,  0x00, 0x00, 0x00, 0x01, 0x00, PMIX_BOOL, 0x01, /* value true */
    };
    int32_t v = 0x01020304;
    char *strs[2] = {"hi", NULL};
    pmix_value_t val = {.type = PMIX_BOOL, .data.flag = true};
    wu_buffer_t b;

    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &v, 1, PMIX_INT32));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, strs, 2, PMIX_STRING));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &val, 1, PMIX_VALUE));
    ck_assert_uint_eq(sizeof(want), b.used);
    ck_assert_mem_eq(want, b.base, sizeof(want));
    wu_buffer_destruct(&b);
}
END_TEST

START_TEST(unpack_errors)
{
    int32_t v[3] = {1, 2, 3}, out[3] = {0}, n;
    char *s = NULL;
    wu_buffer_t b;

    wu_buffer_construct(&b);
    n = 1;
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, wu_unpack(&b, out, &n, PMIX_INT32));
    ck_assert_int_eq(0, n);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, v, 3, PMIX_INT32));

    n = 1; /* wrong type: refused, nothing consumed */
    ck_assert_int_eq(PMIX_ERR_TYPE_MISMATCH, wu_unpack(&b, &s, &n, PMIX_STRING));
    ck_assert_int_eq(0, n);
    ck_assert_uint_eq(0, b.rpos);
    n = 1;
    ck_assert_int_eq(PMIX_ERR_TYPE_MISMATCH, wu_unpack(&b, out, &n, PMIX_UINT32));

    n = 2; /* too little room: told how much is needed, nothing consumed */
    ck_assert_int_eq(PMIX_ERR_UNPACK_INADEQUATE_SPACE, wu_unpack(&b, out, &n, PMIX_INT32));
    ck_assert_int_eq(3, n);
    ck_assert_uint_eq(0, b.rpos);
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, out, &n, PMIX_INT32));
    ck_assert_int_eq(3, out[2]);

    n = 1; /* bad arguments */
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_unpack(NULL, out, &n, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_unpack(&b, NULL, &n, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_unpack(&b, out, NULL, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, wu_unpack(&b, out, &n, 400));
    wu_buffer_destruct(&b);
}
END_TEST

START_TEST(bo_view)
{
    char bytes[300];
    pmix_byte_object_t in = {bytes, sizeof bytes}, out = {NULL, 0}, empty = {NULL, 0};
    uint32_t u = 7;
    int32_t one = 1;
    wu_buffer_t b;
    size_t mark;
    for (size_t i = 0; i < sizeof bytes; i++) {
        bytes[i] = (char)i;
    }
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &in, 1, PMIX_BYTE_OBJECT));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &empty, 1, PMIX_BYTE_OBJECT));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &u, 1, PMIX_UINT32));
    /* a view into the buffer, no copy */
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack_bo_view(&b, &out));
    ck_assert_uint_eq(sizeof bytes, out.size);
    ck_assert(out.bytes >= b.base && out.bytes + out.size <= b.base + b.used);
    ck_assert_int_eq(0, memcmp(bytes, out.bytes, sizeof bytes));
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack_bo_view(&b, &out));
    ck_assert_uint_eq(0, out.size);
    ck_assert_ptr_null(out.bytes);
    /* a wrong type leaves the cursor where it was */
    mark = b.rpos;
    ck_assert_int_eq(PMIX_ERR_TYPE_MISMATCH, wu_unpack_bo_view(&b, &out));
    ck_assert_uint_eq(mark, b.rpos);
    u = 0;
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &u, &one, PMIX_UINT32));
    ck_assert_uint_eq(7, u);
    /* truncated: refused, cursor unchanged */
    wu_buffer_destruct(&b);
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &in, 1, PMIX_BYTE_OBJECT));
    b.used -= 1;
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, wu_unpack_bo_view(&b, &out));
    ck_assert_uint_eq(0, b.rpos);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_unpack_bo_view(NULL, &out));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_unpack_bo_view(&b, NULL));
    wu_buffer_destruct(&b);
}
END_TEST

START_TEST(pack_errors)
{
    void *p = &p;
    int32_t v = 1;
    pmix_value_t val = {.type = PMIX_POINTER, .data.ptr = &v};
    pmix_data_buffer_t buf;
    wu_buffer_t b;

    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &v, 1, PMIX_INT32));
    /* addresses do not cross processes, and a failed pack leaves the buffer as it was */
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_pack(&b, &p, 1, PMIX_POINTER));
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_pack(&b, &val, 1, PMIX_VALUE));
    ck_assert_uint_eq(10, b.used);
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, wu_pack(&b, &v, 1, 400));
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, wu_pack(&b, &v, 1, PMIX_KVAL));
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, wu_pack(&b, &v, 1, PMIX_UNDEF));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_pack(&b, &v, -1, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_pack(&b, NULL, 1, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_pack(NULL, &v, 1, PMIX_INT32));
    ck_assert_uint_eq(10, b.used);
    wu_buffer_destruct(&b);

    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_pack(NULL, NULL, &v, 1, PMIX_INT32));
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    buf.bytes_used = 5; /* claims data it does not have */
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_pack(NULL, &buf, &v, 1, PMIX_INT32));
}
END_TEST

/* 1 MiB blobs as byte object, string and data array of bytes */
START_TEST(big_blobs)
{
    const size_t big = 1u << 20;
    pmix_byte_object_t bo = {malloc(big), big}, bo2 = {NULL, 0};
    char *s = malloc(big + 1), *s2 = NULL;
    pmix_data_array_t da = {.type = PMIX_BYTE, .size = big, .array = bo.bytes}, da2;
    int32_t n = 1;
    wu_buffer_t b;

    for (size_t i = 0; i < big; i++) {
        bo.bytes[i] = (char)(i * 7);
        s[i] = (char)('a' + i % 26);
    }
    s[big] = '\0';
    memset(&da2, 0, sizeof(da2));
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &bo, 1, PMIX_BYTE_OBJECT));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &s, 1, PMIX_STRING));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, &da, 1, PMIX_DATA_ARRAY));
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &bo2, &n, PMIX_BYTE_OBJECT));
    ck_assert_uint_eq(big, bo2.size);
    ck_assert_mem_eq(bo.bytes, bo2.bytes, big);
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &s2, &n, PMIX_STRING));
    ck_assert_str_eq(s, s2);
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &da2, &n, PMIX_DATA_ARRAY));
    ck_assert_uint_eq(big, da2.size);
    ck_assert_mem_eq(bo.bytes, da2.array, big);
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo2);
    free(s);
    free(s2);
    PMIx_Data_array_destruct(&da2);
    wu_buffer_destruct(&b);
}
END_TEST

/* data arrays nested `depth` deep: values inside arrays inside values ... */
static pmix_value_t *nest(int depth)
{
    pmix_value_t *v = calloc(1, sizeof(*v));
    if (0 == depth) {
        v->type = PMIX_INT64;
        v->data.int64 = -42;
        return v;
    }
    v->type = PMIX_DATA_ARRAY;
    v->data.darray = calloc(1, sizeof(pmix_data_array_t));
    v->data.darray->type = PMIX_VALUE;
    v->data.darray->size = 1;
    v->data.darray->array = nest(depth - 1);
    return v;
}

static void nest_free(pmix_value_t *v)
{
    PMIx_Value_destruct(v);
    free(v);
}

START_TEST(nested_arrays)
{
    pmix_value_t *ok = nest(10), *deep = nest(40), out, *p;
    int32_t n = 1;
    wu_buffer_t b;

    wu_buffer_construct(&b);
    memset(&out, 0, sizeof(out));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&b, ok, 1, PMIX_VALUE));
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&b, &out, &n, PMIX_VALUE));
    p = &out;
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(PMIX_DATA_ARRAY, p->type);
        ck_assert_int_eq(PMIX_VALUE, p->data.darray->type);
        p = p->data.darray->array;
    }
    ck_assert_int_eq(PMIX_INT64, p->type);
    ck_assert(-42 == p->data.int64);
    /* too deep to decode safely: refused at the sending side */
    ck_assert_int_eq(PMIX_ERR_PACK_FAILURE, wu_pack(&b, deep, 1, PMIX_VALUE));
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));
    PMIx_Value_destruct(&out);
    nest_free(ok);
    nest_free(deep);
    wu_buffer_destruct(&b);
}
END_TEST

/* several types in sequence on a caller-constructed (stack) buffer */
START_TEST(sequence_on_caller_buffer)
{
    pmix_data_buffer_t buf;
    pmix_proc_t proc, proc2;
    char *str = "hello", *str2 = NULL;
    uint64_t u = 0xdeadbeefcafef00dull, u2 = 0;
    bool flag = true, flag2 = false;
    int32_t n;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    PMIX_PROC_LOAD(&proc, "seq", 7);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(&proc, &buf, &proc, 1, PMIX_PROC));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, &buf, &str, 1, PMIX_STRING));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, &buf, &u, 1, PMIX_UINT64));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, &buf, &flag, 1, PMIX_BOOL));
    n = 1;
    ck_assert_int_eq(PMIX_ERR_TYPE_MISMATCH, PMIx_Data_unpack(NULL, &buf, &str2, &n, PMIX_STRING));
    ck_assert_ptr_eq(buf.base_ptr, buf.unpack_ptr);
    n = 1;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, &buf, &proc2, &n, PMIX_PROC));
    ck_assert(PMIX_CHECK_PROCID(&proc, &proc2));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, &buf, &str2, &n, PMIX_STRING));
    ck_assert_str_eq(str, str2);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, &buf, &u2, &n, PMIX_UINT64));
    ck_assert(u == u2);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, &buf, &flag2, &n, PMIX_BOOL));
    ck_assert(flag2);
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
                     PMIx_Data_unpack(NULL, &buf, &flag2, &n, PMIX_BOOL));
    free(str2);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    ck_assert_ptr_null(buf.base_ptr);
}
END_TEST

/* unload/load/embed/copy_payload, and their interplay with the public macros */
START_TEST(load_unload)
{
    pmix_data_buffer_t *a, b2, c;
    pmix_byte_object_t bo;
    int32_t v[4] = {10, 20, 30, 40}, out[4], n;
    char *data;
    size_t size;

    PMIX_DATA_BUFFER_CREATE(a);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, a, v, 1, PMIX_INT32));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_pack(NULL, a, v + 1, 3, PMIX_INT32));
    /* unload untouched: the storage itself moves out and the buffer is empty */
    PMIX_DATA_BUFFER_UNLOAD(a, data, size);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(10 + 18, size);
    ck_assert_ptr_null(a->base_ptr);
    ck_assert_uint_eq(0, a->bytes_used);
    /* load it back through the macro */
    PMIX_DATA_BUFFER_LOAD(a, data, size);
    ck_assert_uint_eq(28, a->bytes_used);
    n = 1;
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL, a, out, &n, PMIX_INT32));
    ck_assert_int_eq(10, out[0]);

    /* unload after a partial read: only the rest comes out, as a copy */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unload(a, &bo));
    ck_assert_uint_eq(18, bo.size);
    ck_assert_ptr_null(a->base_ptr);
    PMIX_DATA_BUFFER_CONSTRUCT(&b2);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&b2, &bo)); /* copies */
    ck_assert_ptr_nonnull(bo.bytes);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_load(a, &bo)); /* takes over */
    ck_assert_ptr_null(bo.bytes);
    ck_assert_uint_eq(0, bo.size);

    /* copy_payload appends the unread part, also onto itself */
    PMIX_DATA_BUFFER_CONSTRUCT(&c);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_copy_payload(&c, &b2));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_copy_payload(&c, &c));
    for (int k = 0; k < 4; k++) {
        n = 4;
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unpack(NULL,
                                                        k < 2    ? &c
                                                        : k == 2 ? a
                                                                 : &b2,
                                                        out, &n, PMIX_INT32));
        ck_assert_int_eq(3, n);
        ck_assert_int_eq(40, out[2]);
    }
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_copy_payload(NULL, &c));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_load(NULL, &bo));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_unload(a, NULL));
    /* an empty buffer unloads to an empty payload */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_unload(&b2, &bo));
    ck_assert_ptr_null(bo.bytes);
    ck_assert_uint_eq(0, bo.size);
    PMIX_DATA_BUFFER_RELEASE(a);
    PMIX_DATA_BUFFER_DESTRUCT(&b2);
    PMIX_DATA_BUFFER_DESTRUCT(&c);
}
END_TEST

static const pmix_data_type_t copy_types[] = {
    PMIX_INT32,      PMIX_STRING,      PMIX_PROC,      PMIX_VALUE, PMIX_INFO,     PMIX_APP,
    PMIX_DATA_ARRAY, PMIX_BYTE_OBJECT, PMIX_PROC_INFO, PMIX_ENVAR, PMIX_GEOMETRY, PMIX_NODE_STATS,
};

START_TEST(data_copy)
{
    pmix_data_type_t t = copy_types[_i];
    void *src = sample_array(t, 1), *dst = NULL;

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_copy(&dst, src, t));
    ck_assert_ptr_nonnull(dst);
    ck_assert_ptr_ne(src, dst);
    ck_assert(sample_equal(src, dst, t, 1));
    sample_free(src, t, 1);
    sample_free(dst, t, 1);
}
END_TEST

START_TEST(data_copy_edges)
{
    void *p = &p, *dst = NULL;
    int32_t v = 5;

    /* a pointer copies as the address itself, inside the process */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_copy(&dst, &p, PMIX_POINTER));
    ck_assert_ptr_eq(p, *(void **)dst);
    free(dst);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_copy(NULL, &v, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_copy(&dst, NULL, PMIX_INT32));
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Data_copy(&dst, &v, 999));
}
END_TEST

START_TEST(data_print)
{
    int32_t v = -17;
    char *str = "text", *out = NULL;
    pmix_proc_t proc;
    pmix_info_t *info = sample_array(PMIX_INFO, 1);
    pmix_data_array_t *da = sample_array(PMIX_DATA_ARRAY, 1);
    pmix_value_t val = {.type = PMIX_BOOL, .data.flag = true};

    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_print(&out, "PRE ", &v, PMIX_INT32));
    ck_assert_ptr_nonnull(strstr(out, "PRE "));
    ck_assert_ptr_nonnull(strstr(out, "-17"));
    free(out);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_print(&out, NULL, &str, PMIX_STRING));
    ck_assert_ptr_nonnull(strstr(out, "text"));
    free(out);
    PMIX_PROC_LOAD(&proc, "printns", 3);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_print(&out, NULL, &proc, PMIX_PROC));
    ck_assert_ptr_nonnull(strstr(out, "printns:3"));
    free(out);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_print(&out, NULL, info, PMIX_INFO));
    ck_assert_ptr_nonnull(strstr(out, "wu.test.key0"));
    ck_assert_ptr_nonnull(strstr(out, "val-0"));
    free(out);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_print(&out, NULL, &val, PMIX_VALUE));
    ck_assert_ptr_nonnull(strstr(out, "true"));
    free(out);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_print(&out, NULL, da, PMIX_DATA_ARRAY));
    ck_assert_ptr_nonnull(strstr(out, "3 x"));
    ck_assert_ptr_nonnull(strstr(out, "65521")); /* an element of the nested uint16 array */
    free(out);
    ck_assert_int_eq(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Data_print(&out, NULL, &v, 999));
    ck_assert_ptr_null(out);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Data_print(NULL, NULL, &v, PMIX_INT32));
    sample_free(info, PMIX_INFO, 1);
    sample_free(da, PMIX_DATA_ARRAY, 1);
}
END_TEST

START_TEST(compress_declines)
{
    uint8_t in[64] = {0}, *out = (uint8_t *)1;
    size_t n = 99;

    ck_assert(!PMIx_Data_compress(in, sizeof(in), &out, &n));
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(0, n);
    ck_assert(!PMIx_Data_decompress(in, sizeof(in), &out, &n));
}
END_TEST

/* ---- lists written and read element by element (wu_proto_list_*, *_each) ------------------ */

typedef struct {
    size_t n;
    uint64_t sum;
    pmix_rank_t rank;
    size_t stop_at; /* 0: never */
} each_t;

static int count_one(const pmix_proc_t *proc, pmix_info_t *info, void *ctx)
{
    each_t *e = ctx;
    ck_assert_uint_eq(PMIX_UINT32, info->value.type);
    ck_assert_int_eq(0, strncmp(info->key, "k.", 2));
    if (NULL != proc) {
        e->rank = proc->rank;
    }
    e->sum += info->value.data.uint32;
    info->value.type = PMIX_UNDEF; /* taken: a scalar, nothing to move */
    return ++e->n == e->stop_at ? PMIX_ERR_EXISTS : PMIX_SUCCESS;
}

static void list_of(wu_buffer_t *b, size_t n)
{
    wu_proto_list_t l;
    char key[32];
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_list_begin(&l, b));
    for (size_t i = 0; i < n; i++) {
        pmix_value_t v;
        uint32_t x = (uint32_t)i;
        snprintf(key, sizeof key, "k.%zu", i);
        PMIx_Value_load(&v, &x, PMIX_UINT32);
        ck_assert_int_eq(PMIX_SUCCESS, wu_proto_list_add(key, &v, &l));
    }
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_list_end(&l));
}

START_TEST(streamed_lists)
{
    wu_buffer_t b, blob;
    pmix_info_t *arr = NULL;
    pmix_proc_t proc;
    size_t n = 0, mark;
    int32_t cnt;
    each_t e = {0};

    /* written key by key, read back as an array: the same wire form as wu_proto_pack_list */
    wu_buffer_construct(&b);
    list_of(&b, 1000);
    list_of(&b, 0);
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_list(&b, (void **)&arr, &n, PMIX_INFO));
    ck_assert_uint_eq(1000, n);
    ck_assert_str_eq("k.999", arr[999].key);
    ck_assert_uint_eq(999, arr[999].value.data.uint32);
    PMIX_INFO_FREE(arr, n);
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_list(&b, (void **)&arr, &n, PMIX_INFO));
    ck_assert_uint_eq(0, n);
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));

    /* read element by element: every one handed over, in order; a check-only pass */
    b.rpos = 0;
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_info_each(&b, NULL, NULL, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_info_each(&b, NULL, NULL, NULL));
    ck_assert_uint_eq(0, wu_buffer_remaining(&b));
    b.rpos = 0;
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_info_each(&b, NULL, count_one, &e));
    ck_assert_uint_eq(1000, e.n);
    ck_assert_uint_eq(999u * 1000u / 2u, e.sum);
    /* the callback's error stops the walk */
    b.rpos = 0;
    memset(&e, 0, sizeof e);
    e.stop_at = 10;
    ck_assert_int_eq(PMIX_ERR_EXISTS, wu_proto_unpack_info_each(&b, NULL, count_one, &e));
    ck_assert_uint_eq(10, e.n);
    /* cut short: an error, and the cursor back where the list started */
    mark = b.used;
    b.used = mark / 2;
    b.rpos = 0;
    memset(&e, 0, sizeof e);
    ck_assert_int_ne(PMIX_SUCCESS, wu_proto_unpack_info_each(&b, NULL, count_one, &e));
    ck_assert_uint_eq(0, b.rpos);
    b.used = mark;
    /* a group of another type */
    b.rpos = 0;
    ck_assert_int_eq(PMIX_ERR_TYPE_MISMATCH, wu_unpack_group(&b, &cnt, PMIX_PROC));
    ck_assert_uint_eq(0, b.rpos);
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack_group(&b, &cnt, PMIX_INFO));
    ck_assert_int_eq(1000, cnt);
    wu_buffer_destruct(&b);

    /* a count the buffer cannot hold is refused before anything is read */
    wu_buffer_construct(&b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack_group_begin(&b, PMIX_INFO, &mark));
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack_group_end(&b, mark, 1u << 30));
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
                     wu_proto_unpack_info_each(&b, NULL, count_one, &e));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_pack_group_end(&b, mark, (size_t)INT32_MAX + 1));
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, wu_pack_group_end(&b, b.used, 1));
    wu_buffer_destruct(&b);

    /* blob records read element by element carry their proc */
    wu_buffer_construct(&blob);
    PMIX_PROC_LOAD(&proc, "ns.each", 5);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(&blob, &proc, 1, PMIX_PROC));
    list_of(&blob, 3);
    memset(&e, 0, sizeof e);
    memset(&proc, 0, sizeof proc);
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_blob_next_each(&blob, &proc, count_one, &e));
    ck_assert_str_eq("ns.each", proc.nspace);
    ck_assert_uint_eq(5, e.rank);
    ck_assert_uint_eq(3, e.n);
    ck_assert_int_eq(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
                     wu_proto_blob_next_each(&blob, &proc, count_one, &e));
    /* a record cut short is malformed, not the clean end */
    blob.rpos = 0;
    blob.used -= 3;
    ck_assert_int_eq(PMIX_ERR_UNPACK_FAILURE, wu_proto_blob_next_each(&blob, &proc, NULL, NULL));
    ck_assert_uint_eq(0, blob.rpos);
    wu_buffer_destruct(&blob);
}
END_TEST

static Suite *pmix_pack_suite(void)
{
    Suite *s = suite_create("pmix_pack");
    TCase *tc = tcase_create("types");

    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, every_type, 0, N_SAMPLE_TYPES);
    tcase_add_test(tc, fields_survive);
    tcase_add_test(tc, wire_format);
    tcase_add_test(tc, nested_arrays);
    tcase_add_test(tc, big_blobs);
    suite_add_tcase(s, tc);

    tc = tcase_create("api");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, unpack_errors);
    tcase_add_test(tc, pack_errors);
    tcase_add_test(tc, bo_view);
    tcase_add_test(tc, sequence_on_caller_buffer);
    tcase_add_test(tc, load_unload);
    tcase_add_loop_test(tc, data_copy, 0, sizeof(copy_types) / sizeof(copy_types[0]));
    tcase_add_test(tc, data_copy_edges);
    tcase_add_test(tc, data_print);
    tcase_add_test(tc, compress_declines);
    tcase_add_test(tc, streamed_lists);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmix_pack_suite)
