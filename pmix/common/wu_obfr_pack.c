/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_obfr_pack.c -- the encoding half of OpenPMIx's serialization (wu_obfr.h; the format is in
 * docs/openpmix-wire.md, section 5), and the type tables the decoder (wu_obfr_unpack.c) shares.
 *
 * The functions follow OpenPMIx's own structure: a "call" is what one of its internal pack calls
 * writes for n elements of a type (no count, no tag; PMIX_PID alone writes its tag once per call,
 * even for no pid), an element is one value of that type. Nested arrays are a SIZE count and then
 * one call of their elements. */
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_obfr_int.h"
#include "pmix/common/wu_pack_int.h"
#include "pmix/common/wu_value.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ---- the tables shared with the decoder ---- */

int wu_obfr_scalar(pmix_data_type_t t, bool *zigzag)
{
    *zigzag = false;
    switch (t) {
    case PMIX_PID: /* it carries a type tag: a case of its own */
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
    case PMIX_STOR_ACCESS_TYPE: /* v41 only: not spoken here */
        return 0;
    case PMIX_INT16:
        *zigzag = true;
        return 2;
    case PMIX_INT:
    case PMIX_INT32:
    case PMIX_STATUS:
    case PMIX_UINT: /* OpenPMIx sends an unsigned int through its int function, signed */
        *zigzag = true;
        return 4;
    case PMIX_INT64:
        *zigzag = true;
        return 8;
    case PMIX_TIME: /* as a UINT64 */
        return (int)sizeof(time_t);
    default:
        return wu_pack_scalar_width(t);
    }
}

size_t wu_obfr_elem_size(pmix_data_type_t t)
{
    bool z;

    switch (t) {
    case PMIX_KVAL:
        return sizeof(wu_obfr_kval_t);
    case PMIX_BUFFER:
        return sizeof(wu_obfr_nested_t);
    case PMIX_POINTER: /* a one-byte sentinel on the wire: a pointer means nothing elsewhere */
        return sizeof(void *);
    case PMIX_BOOL:
    case PMIX_STRING:
    case PMIX_FLOAT:
    case PMIX_DOUBLE:
    case PMIX_TIMEVAL:
    case PMIX_PID:
    case PMIX_PROC:
    case PMIX_PROC_NSPACE:
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
    case PMIX_VALUE:
    case PMIX_INFO:
    case PMIX_PDATA:
    case PMIX_DATA_ARRAY:
    case PMIX_APP:
    case PMIX_QUERY:
    case PMIX_PROC_INFO:
    case PMIX_ENVAR:
    case PMIX_COORD:
    case PMIX_DEVICE_DIST:
    case PMIX_ENDPOINT:
    case PMIX_GEOMETRY:
        return wu_data_elem_size(t);
    default:
        return 0 != wu_obfr_scalar(t, &z) ? wu_data_elem_size(t) : 0;
    }
}

bool wu_obfr_value_type_ok(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_UNDEF:
        return true;
    case PMIX_VALUE: /* no member of pmix_value_t holds these */
    case PMIX_INFO:
    case PMIX_PDATA:
    case PMIX_APP:
    case PMIX_QUERY:
    case PMIX_KVAL:
    case PMIX_BUFFER:
        return false;
    default:
        return 0 != wu_obfr_elem_size(t);
    }
}

size_t wu_obfr_min_wire(pmix_data_type_t t)
{
    switch (t) {
    case PMIX_FLOAT: /* a string that is never NULL: a length and at least its NUL */
    case PMIX_DOUBLE:
    case PMIX_PROC_NSPACE:
    case PMIX_TIMEVAL:
    case PMIX_KVAL:
    case PMIX_BUFFER:
    case PMIX_DATA_ARRAY:
    case PMIX_QUERY:
    case PMIX_COORD:
        return 2;
    case PMIX_PROC:
    case PMIX_ENVAR:
    case PMIX_ENDPOINT:
        return 3;
    case PMIX_INFO:
    case PMIX_GEOMETRY:
        return 4;
    case PMIX_DEVICE_DIST:
        return 5;
    case PMIX_PDATA:
    case PMIX_APP:
        return 6;
    case PMIX_PROC_INFO:
        return 8;
    default:
        return 0 != wu_obfr_elem_size(t) ? 1 : 0;
    }
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_make(void)
{
    c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

locale_t wu_obfr_c_locale(void)
{
    pthread_once(&c_locale_once, c_locale_make);
    return c_locale;
}

/* ---- field encoders ---- */

/* flex128: 7 bits a byte, least significant first, bit 7 set on every byte but the last; after
 * 8 such bytes a 9th holds the 8 bits left as they are */
static int put_varint(wu_buffer_t *b, uint64_t v)
{
    uint8_t out[9];
    size_t n = 0;

    while (n < 8 && v > 0x7f) {
        out[n++] = (uint8_t)(0x80 | (v & 0x7f));
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return wu_buffer_put(b, out, n);
}

/* signed types: 2v for v >= 0, 2|v| - 1 for v < 0 */
static int put_signed(wu_buffer_t *b, int64_t v)
{
    return put_varint(b, v < 0 ? (~(uint64_t)v << 1) | 1 : (uint64_t)v << 1);
}

static int put_str(wu_buffer_t *b, const char *s)
{
    size_t len;
    int rc;

    if (NULL == s) {
        return put_signed(b, 0);
    }
    len = strlen(s) + 1; /* the NUL travels */
    if (len > INT32_MAX) {
        return PMIX_ERR_PACK_FAILURE;
    }
    rc = put_signed(b, (int64_t)len);
    WU_STEP(wu_buffer_put(b, s, len));
    return rc;
}

/* a string kept in a fixed array (key, nspace): it must end inside the array */
static int put_fixed(wu_buffer_t *b, const char *s, size_t cap)
{
    return strnlen(s, cap) == cap ? PMIX_ERR_PACK_FAILURE : put_str(b, s);
}

static int put_bytes(wu_buffer_t *b, const void *p, size_t n)
{
    int rc;

    if (0 != n && NULL == p) {
        return PMIX_ERR_PACK_FAILURE;
    }
    rc = put_varint(b, n);
    WU_STEP(wu_buffer_put(b, p, n));
    return rc;
}

static int put_argv(wu_buffer_t *b, char *const *argv)
{
    size_t n = 0;
    int rc;

    while (NULL != argv && NULL != argv[n]) {
        n++;
    }
    if (n > INT32_MAX) {
        return PMIX_ERR_PACK_FAILURE;
    }
    rc = put_signed(b, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        WU_STEP(put_str(b, argv[i]));
    }
    return rc;
}

/* FLOAT and DOUBLE travel as the "%f" text: six decimals, so precision is lost as in OpenPMIx */
static int put_real(wu_buffer_t *b, double d)
{
    char text[WU_OBFR_REAL_MAX];
    locale_t loc = wu_obfr_c_locale(), old = (locale_t)0;
    int len;

    if ((locale_t)0 != loc) {
        old = uselocale(loc);
    }
    len = snprintf(text, sizeof(text), "%f", d);
    if ((locale_t)0 != loc) {
        uselocale(old);
    }
    if (len < 0 || (size_t)len >= sizeof(text)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    return put_str(b, text);
}

/* an integer-like element of width w (wu_obfr_scalar) read from src */
static int put_scalar(wu_buffer_t *b, const void *src, int w, bool zigzag)
{
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;

    switch (w) {
    case 1:
        return wu_buffer_put(b, src, 1);
    case 2:
        memcpy(&i16, src, 2);
        memcpy(&u16, src, 2);
        return zigzag ? put_signed(b, i16) : put_varint(b, u16);
    case 4:
        memcpy(&i32, src, 4);
        memcpy(&u32, src, 4);
        return zigzag ? put_signed(b, i32) : put_varint(b, u32);
    default:
        memcpy(&i64, src, 8);
        memcpy(&u64, src, 8);
        return zigzag ? put_signed(b, i64) : put_varint(b, u64);
    }
}

/* ---- composite encoders ---- */

static int pack_call(wu_buffer_t *b, const void *src, size_t n, pmix_data_type_t t);
static int pack_elem(wu_buffer_t *b, const void *src, pmix_data_type_t t);

/* SIZE n, then the n elements as one call (none when n is 0) */
static int put_list(wu_buffer_t *b, const void *arr, size_t n, pmix_data_type_t t)
{
    int rc;

    if (n > INT32_MAX || (0 != n && NULL == arr)) {
        return PMIX_ERR_PACK_FAILURE;
    }
    rc = put_varint(b, n);
    if (0 != n) {
        WU_STEP(pack_call(b, arr, n, t));
    }
    return rc;
}

/* a value's type, then its payload (pointed to for the pointer members) */
static int put_value(wu_buffer_t *b, const pmix_value_t *v)
{
    const void *p = wu_pack_value_is_ptr(v->type) ? v->data.ptr : &v->data;

    if (!wu_obfr_value_type_ok(v->type)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL == p) {
        return PMIX_ERR_PACK_FAILURE;
    }
    int rc = put_varint(b, v->type);
    if (PMIX_UNDEF != v->type) {
        WU_STEP(pack_call(b, p, 1, v->type));
    }
    return rc;
}

static int put_proc(wu_buffer_t *b, const pmix_proc_t *p)
{
    int rc = put_fixed(b, p->nspace, sizeof(p->nspace));
    WU_STEP(put_varint(b, p->rank));
    return rc;
}

static int pack_darray(wu_buffer_t *b, const pmix_data_array_t *d)
{
    int rc;

    if (0 == d->size) {
        rc = put_varint(b, d->type);
        WU_STEP(put_varint(b, 0));
        return rc;
    }
    if (PMIX_UNDEF == d->type) {
        return PMIX_ERR_PACK_FAILURE; /* elements of no type */
    }
    if (PMIX_KVAL == d->type || PMIX_BUFFER == d->type || 0 == wu_obfr_elem_size(d->type)) {
        return PMIX_ERR_NOT_SUPPORTED; /* the first two are this codec's, not array types */
    }
    rc = put_varint(b, d->type);
    WU_STEP(put_list(b, d->array, d->size, d->type));
    return rc;
}

static int pack_app(wu_buffer_t *b, const pmix_app_t *a)
{
    int rc = put_str(b, a->cmd);

    WU_STEP(put_argv(b, a->argv)); /* argc as an INT, which is a signed varint as INT32 */
    WU_STEP(put_argv(b, a->env));
    WU_STEP(put_str(b, a->cwd));
    WU_STEP(put_signed(b, a->maxprocs));
    WU_STEP(put_list(b, a->info, a->ninfo, PMIX_INFO));
    return rc;
}

static int pack_composite(wu_buffer_t *b, const void *src, pmix_data_type_t t)
{
    int rc = PMIX_SUCCESS;

    switch (t) {
    case PMIX_PROC:
        return put_proc(b, src);
    case PMIX_PROC_NSPACE:
        return put_fixed(b, src, sizeof(pmix_nspace_t));
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT: {
        const pmix_byte_object_t *bo = src;
        return put_bytes(b, bo->bytes, bo->size);
    }
    case PMIX_INFO: {
        const pmix_info_t *i = src;
        WU_STEP(put_fixed(b, i->key, sizeof(i->key)));
        WU_STEP(put_varint(b, i->flags));
        WU_STEP(put_value(b, &i->value));
        return rc;
    }
    case PMIX_KVAL: {
        const wu_obfr_kval_t *k = src;
        if (NULL == k->value) {
            return PMIX_ERR_PACK_FAILURE;
        }
        WU_STEP(put_str(b, k->key));
        WU_STEP(pack_elem(b, k->value, PMIX_VALUE));
        return rc;
    }
    case PMIX_PDATA: {
        const pmix_pdata_t *p = src;
        WU_STEP(put_proc(b, &p->proc));
        WU_STEP(put_fixed(b, p->key, sizeof(p->key)));
        WU_STEP(put_value(b, &p->value));
        return rc;
    }
    case PMIX_APP:
        return pack_app(b, src);
    case PMIX_QUERY: {
        const pmix_query_t *q = src;
        WU_STEP(put_argv(b, q->keys));
        WU_STEP(put_list(b, q->qualifiers, q->nqual, PMIX_INFO));
        return rc;
    }
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t *p = src;
        WU_STEP(put_proc(b, &p->proc));
        WU_STEP(put_str(b, p->hostname));
        WU_STEP(put_str(b, p->executable_name));
        WU_STEP(pack_call(b, &p->pid, 1, PMIX_PID)); /* exit_code does not travel */
        WU_STEP(wu_buffer_put_u8(b, p->state));
        return rc;
    }
    case PMIX_ENVAR: {
        const pmix_envar_t *e = src;
        WU_STEP(put_str(b, e->envar));
        WU_STEP(put_str(b, e->value));
        WU_STEP(wu_buffer_put_u8(b, (uint8_t)e->separator));
        return rc;
    }
    case PMIX_COORD: {
        const pmix_coord_t *c = src;
        WU_STEP(wu_buffer_put_u8(b, (uint8_t)c->view));
        WU_STEP(put_list(b, c->coord, c->dims, PMIX_UINT32));
        return rc;
    }
    case PMIX_DEVICE_DIST: {
        const pmix_device_distance_t *d = src;
        WU_STEP(put_str(b, d->uuid));
        WU_STEP(put_str(b, d->osname));
        WU_STEP(put_varint(b, d->type));
        WU_STEP(put_varint(b, d->mindist));
        WU_STEP(put_varint(b, d->maxdist));
        return rc;
    }
    case PMIX_ENDPOINT: {
        const pmix_endpoint_t *e = src;
        WU_STEP(put_str(b, e->uuid));
        WU_STEP(put_str(b, e->osname));
        WU_STEP(put_bytes(b, e->endpt.bytes, e->endpt.size));
        return rc;
    }
    case PMIX_GEOMETRY: {
        const pmix_geometry_t *g = src;
        WU_STEP(put_varint(b, g->fabric));
        WU_STEP(put_str(b, g->uuid));
        WU_STEP(put_str(b, g->osname));
        WU_STEP(put_list(b, g->coordinates, g->ncoords, PMIX_COORD));
        return rc;
    }
    case PMIX_BUFFER: {
        const wu_obfr_nested_t *n = src;
        WU_STEP(wu_buffer_put_u8(b, n->btype));
        WU_STEP(put_bytes(b, n->bytes.bytes, n->bytes.size));
        return rc;
    }
    default:
        return PMIX_ERR_NOT_SUPPORTED;
    }
}

static int pack_elem(wu_buffer_t *b, const void *src, pmix_data_type_t t)
{
    const struct timeval *tv = src;
    bool zigzag;
    int w = wu_obfr_scalar(t, &zigzag), rc;

    if (0 != w) {
        return put_scalar(b, src, w, zigzag);
    }
    switch (t) {
    case PMIX_BOOL:
        return wu_buffer_put_u8(b, *(const bool *)src ? 1 : 0);
    case PMIX_POINTER:
        return wu_buffer_put_u8(b, 1);
    case PMIX_STRING:
        return put_str(b, *(char *const *)src);
    case PMIX_FLOAT:
        return put_real(b, *(const float *)src);
    case PMIX_DOUBLE:
        return put_real(b, *(const double *)src);
    case PMIX_TIMEVAL:
        rc = put_signed(b, (int64_t)tv->tv_sec);
        WU_STEP(put_signed(b, (int64_t)tv->tv_usec));
        return rc;
    case PMIX_PID:
        return put_varint(b, (uint32_t) * (const pid_t *)src);
    case PMIX_VALUE:
    case PMIX_DATA_ARRAY:
        /* the recursive types: bounded, so that decoding what is sent stays bounded too */
        if (b->depth >= WU_BUFFER_MAX_DEPTH) {
            return PMIX_ERR_PACK_FAILURE;
        }
        b->depth++;
        rc = PMIX_VALUE == t ? put_value(b, src) : pack_darray(b, src);
        b->depth--;
        return rc;
    default:
        return pack_composite(b, src, t);
    }
}

static int pack_call(wu_buffer_t *b, const void *src, size_t n, pmix_data_type_t t)
{
    size_t sz = wu_obfr_elem_size(t);
    int rc = PMIX_PID == t ? put_varint(b, WU_OBFR_PID_TAG) : PMIX_SUCCESS;

    if (0 == sz) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = pack_elem(b, (const char *)src + i * sz, t);
    }
    return rc;
}

/* ---- the interface ---- */

static bool args_ok(const wu_buffer_t *b, int btype)
{
    return NULL != b && (WU_OBFR_NON_DESC == btype || WU_OBFR_FULLY_DESC == btype);
}

int wu_obfr_pack(wu_buffer_t *b, int btype, const void *src, int32_t n, pmix_data_type_t t)
{
    size_t mark;
    int rc = PMIX_SUCCESS;

    if (!args_ok(b, btype) || n < 0 || (0 < n && NULL == src)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == wu_obfr_elem_size(t)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    mark = b->used;
    if (WU_OBFR_FULLY_DESC == btype) {
        rc = put_varint(b, PMIX_INT32);
    }
    WU_STEP(put_signed(b, n));
    if (WU_OBFR_FULLY_DESC == btype) {
        WU_STEP(put_varint(b, t));
    }
    WU_STEP(pack_call(b, src, (size_t)n, t));
    if (PMIX_SUCCESS != rc) {
        b->used = mark; /* all or nothing */
    }
    return rc;
}

int wu_obfr_pack_list(wu_buffer_t *b, int btype, const void *arr, size_t n, pmix_data_type_t t)
{
    size_t mark;
    int rc;

    if (!args_ok(b, btype) || n > INT32_MAX || (0 < n && NULL == arr)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == wu_obfr_elem_size(t)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    mark = b->used;
    rc = wu_obfr_pack(b, btype, &n, 1, PMIX_SIZE);
    if (0 != n) {
        WU_STEP(wu_obfr_pack(b, btype, arr, (int32_t)n, t));
    }
    if (PMIX_SUCCESS != rc) {
        b->used = mark;
    }
    return rc;
}

int wu_obfr_pack_one(wu_buffer_t *b, int btype, const void *elem, pmix_data_type_t t)
{
    size_t mark;
    int rc;

    if (!args_ok(b, btype) || NULL == elem) {
        return PMIX_ERR_BAD_PARAM;
    }
    mark = b->used;
    if (PMIX_SUCCESS != (rc = pack_call(b, elem, 1, t))) {
        b->used = mark;
    }
    return rc;
}
