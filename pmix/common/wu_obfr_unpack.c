/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_obfr_unpack.c -- the decoding half of OpenPMIx's serialization (wu_obfr.h), built for
 * hostile input: every read is bounds-checked, every count is checked against the bytes left
 * before anything is allocated, varints longer than their type allows are refused, strings must
 * end with their NUL, nesting is bounded by WU_BUFFER_MAX_DEPTH.
 *
 * As in wu_unpack.c, a decoder writes into a zeroed element and keeps it destructible at each
 * step (a pointer is stored together with its count), so on error unpack_one releases it, zeroes
 * it and rewinds the cursor. */
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_obfr_int.h"
#include "pmix/common/wu_pack_int.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>

/* ---- field decoders ---- */

static unsigned bit_length(uint8_t c)
{
    unsigned n = 0;

    for (; 0 != c; c >>= 1) {
        n++;
    }
    return n;
}

/* A flex128 varint of an integer `width` bytes wide. As OpenPMIx, the position of the highest
 * bit the encoding reaches (zero groups included) must be within the width; unlike it, a varint
 * cut off by the end of the buffer is never read as a shorter one. */
static int get_varint(wu_buffer_t *b, unsigned width, uint64_t *out)
{
    const uint8_t *p = (const uint8_t *)b->base + b->rpos;
    size_t left = wu_buffer_remaining(b), i = 0;
    uint64_t v = 0;
    unsigned bits;

    for (;;) {
        if (i == left) {
            return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
        }
        if (8 == i) { /* the 9th byte: 8 bits as they are */
            v |= (uint64_t)p[i] << 56;
            bits = 56 + bit_length(p[i++]);
            break;
        }
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (0 == (p[i++] & 0x80)) {
            bits = 7 * (unsigned)(i - 1) + bit_length(p[i - 1]);
            break;
        }
    }
    if (bits > 8 * width) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    b->rpos += i;
    *out = v;
    return PMIX_SUCCESS;
}

static int get_signed(wu_buffer_t *b, unsigned width, int64_t *out)
{
    uint64_t v = 0;
    int rc = get_varint(b, width, &v);

    *out = 0 != (v & 1) ? (int64_t) ~(v >> 1) : (int64_t)(v >> 1);
    return rc;
}

static int get_i32(wu_buffer_t *b, int32_t *out)
{
    int64_t v = 0;
    int rc = get_signed(b, 4, &v);

    *out = (int32_t)v; /* within range: the varint was checked against 4 bytes */
    return rc;
}

static int get_type(wu_buffer_t *b, pmix_data_type_t *t)
{
    uint64_t v = 0;
    int rc = get_varint(b, 2, &v);

    *t = (pmix_data_type_t)v;
    return rc;
}

static int get_size(wu_buffer_t *b, size_t *n)
{
    uint64_t v = 0;
    int rc = get_varint(b, 8, &v);

    *n = (size_t)v;
    return rc;
}

/* a SIZE count of elements of type t, refused if that many could not fit in what is left */
static int get_count(wu_buffer_t *b, size_t *n, pmix_data_type_t t)
{
    size_t minw = wu_obfr_min_wire(t);
    int rc = get_size(b, n);

    if (PMIX_SUCCESS == rc && 0 != *n &&
        (0 == minw || *n > INT32_MAX || *n > wu_buffer_remaining(b) / minw)) {
        rc = 0 == minw || *n > INT32_MAX ? PMIX_ERR_UNPACK_FAILURE
                                         : PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    return rc;
}

/* a string of at most maxlen characters; *out is NULL for a packed NULL */
static int get_str_max(wu_buffer_t *b, char **out, size_t maxlen)
{
    const char *p;
    int32_t len = 0;
    int rc = get_i32(b, &len);

    if (PMIX_SUCCESS != rc || 0 == len) {
        *out = NULL;
        return rc;
    }
    if (len < 0) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if ((size_t)len > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    p = b->base + b->rpos;
    /* the NUL travels: it must be the last byte and the only one */
    if ((size_t)len - 1 > maxlen || '\0' != p[len - 1] || strlen(p) != (size_t)len - 1) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (NULL == (*out = malloc((size_t)len))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(*out, p, (size_t)len);
    b->rpos += (size_t)len;
    return PMIX_SUCCESS;
}

static int get_str(wu_buffer_t *b, char **out)
{
    return get_str_max(b, out, SIZE_MAX);
}

/* a string into a fixed array of cap bytes (key, nspace); OpenPMIx refuses a NULL one too */
static int get_fixed(wu_buffer_t *b, char *dst, size_t cap)
{
    char *s = NULL;
    int rc = get_str_max(b, &s, cap - 1);

    if (PMIX_SUCCESS == rc && NULL == s) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS == rc) {
        memset(dst, 0, cap);
        memcpy(dst, s, strlen(s));
    }
    free(s);
    return rc;
}

static int get_bytes(wu_buffer_t *b, pmix_byte_object_t *bo)
{
    size_t n = 0;
    int rc = get_size(b, &n);

    if (PMIX_SUCCESS != rc || 0 == n) {
        return rc;
    }
    if (n > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (NULL == (bo->bytes = malloc(n))) {
        return PMIX_ERR_NOMEM;
    }
    bo->size = n;
    return wu_buffer_get(b, bo->bytes, n);
}

/* INT32 count, then that many strings, none of them NULL */
static int get_argv(wu_buffer_t *b, char ***out)
{
    int32_t n = 0;
    char **v;
    int rc = get_i32(b, &n);

    if (PMIX_SUCCESS != rc || 0 == n) {
        return rc;
    }
    if (n < 0) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if ((size_t)n > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (NULL == (v = calloc((size_t)n + 1, sizeof(*v)))) {
        return PMIX_ERR_NOMEM;
    }
    *out = v; /* NULL-terminated at every step, so the owner can always free it */
    for (int32_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = get_str(b, &v[i]);
        if (PMIX_SUCCESS == rc && NULL == v[i]) {
            rc = PMIX_ERR_UNPACK_FAILURE; /* an argv has no NULL inside */
        }
    }
    return rc;
}

/* the "%f" text of a FLOAT or DOUBLE; any text strtod reads whole is taken */
static int get_real(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    char *s = NULL, *end = NULL;
    locale_t loc = wu_obfr_c_locale(), old = (locale_t)0;
    double d = 0;
    float f = 0;
    int rc = get_str_max(b, &s, WU_OBFR_REAL_MAX);

    if (PMIX_SUCCESS != rc || NULL == s) {
        return PMIX_SUCCESS != rc ? rc : PMIX_ERR_UNPACK_FAILURE;
    }
    if ((locale_t)0 != loc) {
        old = uselocale(loc);
    }
    if (PMIX_FLOAT == t) {
        f = strtof(s, &end);
    } else {
        d = strtod(s, &end);
    }
    if ((locale_t)0 != loc) {
        uselocale(old);
    }
    if (end == s || '\0' != *end) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    } else if (PMIX_FLOAT == t) {
        memcpy(dst, &f, sizeof(f));
    } else {
        memcpy(dst, &d, sizeof(d));
    }
    free(s);
    return rc;
}

/* an integer-like element of width w (wu_obfr_scalar) into dst */
static int get_scalar(wu_buffer_t *b, void *dst, int w, bool zigzag)
{
    int64_t s = 0;
    uint64_t u = 0;
    int16_t i16;
    int32_t i32;
    uint16_t u16;
    uint32_t u32;
    int rc;

    if (1 == w) {
        return wu_buffer_get(b, dst, 1);
    }
    rc = zigzag ? get_signed(b, (unsigned)w, &s) : get_varint(b, (unsigned)w, &u);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (zigzag) {
        u = (uint64_t)s; /* the low w bytes are the value */
    }
    switch (w) {
    case 2:
        i16 = (int16_t)s;
        u16 = (uint16_t)u;
        memcpy(dst, zigzag ? (void *)&i16 : (void *)&u16, 2);
        break;
    case 4:
        i32 = (int32_t)s;
        u32 = (uint32_t)u;
        memcpy(dst, zigzag ? (void *)&i32 : (void *)&u32, 4);
        break;
    default:
        memcpy(dst, &u, 8);
        break;
    }
    return PMIX_SUCCESS;
}

/* ---- composite decoders ---- */

static int unpack_call(wu_buffer_t *b, void *dst, size_t n, pmix_data_type_t t);

/* SIZE count, then that many elements as one call; *arr and *n are set together, so the owner
 * can always destruct them */
static int get_list(wu_buffer_t *b, void **arr, size_t *n, pmix_data_type_t t)
{
    size_t cnt = 0;
    void *a;
    int rc = get_count(b, &cnt, t);

    if (PMIX_SUCCESS != rc || 0 == cnt) {
        return rc;
    }
    if (NULL == (a = calloc(cnt, wu_obfr_elem_size(t)))) {
        return PMIX_ERR_NOMEM;
    }
    *arr = a;
    *n = cnt;
    return unpack_call(b, a, cnt, t);
}

static int get_value(wu_buffer_t *b, pmix_value_t *v)
{
    pmix_data_type_t t = PMIX_UNDEF;
    void *p;
    int rc = get_type(b, &t);

    if (PMIX_SUCCESS != rc || PMIX_UNDEF == t) {
        return rc;
    }
    if (!wu_obfr_value_type_ok(t)) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    v->type = t;
    if (!wu_pack_value_is_ptr(t)) {
        return unpack_call(b, &v->data, 1, t);
    }
    if (NULL == (p = calloc(1, wu_obfr_elem_size(t)))) {
        v->type = PMIX_UNDEF;
        return PMIX_ERR_NOMEM;
    }
    v->data.ptr = p; /* an empty element: the value stays destructible */
    return unpack_call(b, p, 1, t);
}

static int get_proc(wu_buffer_t *b, pmix_proc_t *p)
{
    uint64_t rank = 0;
    int rc = get_fixed(b, p->nspace, sizeof(p->nspace));

    WU_STEP(get_varint(b, 4, &rank));
    p->rank = (pmix_rank_t)rank;
    return rc;
}

static int unpack_darray(wu_buffer_t *b, pmix_data_array_t *d)
{
    pmix_data_type_t t = PMIX_UNDEF;
    size_t n = 0;
    int rc = get_type(b, &t);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    d->type = t;
    if (PMIX_UNDEF != t && PMIX_KVAL != t && PMIX_BUFFER != t && 0 != wu_obfr_elem_size(t)) {
        return get_list(b, &d->array, &d->size, t);
    }
    /* no element of such a type can be decoded: only an empty array may name it */
    rc = get_size(b, &n);
    return PMIX_SUCCESS == rc && 0 != n ? PMIX_ERR_UNPACK_FAILURE : rc;
}

static int unpack_app(wu_buffer_t *b, pmix_app_t *a)
{
    int rc = get_str(b, &a->cmd);

    WU_STEP(get_argv(b, &a->argv));
    WU_STEP(get_argv(b, &a->env));
    WU_STEP(get_str(b, &a->cwd));
    WU_STEP(get_i32(b, &a->maxprocs));
    WU_STEP(get_list(b, (void **)&a->info, &a->ninfo, PMIX_INFO));
    return rc;
}

static int unpack_composite(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    int rc = PMIX_SUCCESS;
    uint64_t u = 0;

    switch (t) {
    case PMIX_PROC:
        return get_proc(b, dst);
    case PMIX_PROC_NSPACE:
        return get_fixed(b, dst, sizeof(pmix_nspace_t));
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        return get_bytes(b, dst);
    case PMIX_INFO: {
        pmix_info_t *i = dst;
        WU_STEP(get_fixed(b, i->key, sizeof(i->key)));
        WU_STEP(get_varint(b, 4, &u));
        /* the receiver owns the value it decoded, whatever the sender's flag said */
        i->flags = (pmix_info_directives_t)u & ~(pmix_info_directives_t)PMIX_INFO_PERSISTENT;
        WU_STEP(get_value(b, &i->value));
        return rc;
    }
    case PMIX_KVAL: {
        wu_obfr_kval_t *k = dst;
        WU_STEP(get_str(b, &k->key));
        if (PMIX_SUCCESS == rc && NULL == (k->value = calloc(1, sizeof(pmix_value_t)))) {
            rc = PMIX_ERR_NOMEM;
        }
        WU_STEP(unpack_call(b, k->value, 1, PMIX_VALUE));
        return rc;
    }
    case PMIX_PDATA: {
        pmix_pdata_t *p = dst;
        WU_STEP(get_proc(b, &p->proc));
        WU_STEP(get_fixed(b, p->key, sizeof(p->key)));
        WU_STEP(get_value(b, &p->value));
        return rc;
    }
    case PMIX_APP:
        return unpack_app(b, dst);
    case PMIX_QUERY: {
        pmix_query_t *q = dst;
        WU_STEP(get_argv(b, &q->keys));
        WU_STEP(get_list(b, (void **)&q->qualifiers, &q->nqual, PMIX_INFO));
        return rc;
    }
    case PMIX_PROC_INFO: {
        pmix_proc_info_t *p = dst;
        WU_STEP(get_proc(b, &p->proc));
        WU_STEP(get_str(b, &p->hostname));
        WU_STEP(get_str(b, &p->executable_name));
        WU_STEP(unpack_call(b, &p->pid, 1, PMIX_PID));
        WU_STEP(wu_buffer_get_u8(b, &p->state));
        return rc;
    }
    case PMIX_ENVAR: {
        pmix_envar_t *e = dst;
        WU_STEP(get_str(b, &e->envar));
        WU_STEP(get_str(b, &e->value));
        WU_STEP(wu_buffer_get(b, &e->separator, 1));
        return rc;
    }
    case PMIX_COORD: {
        pmix_coord_t *c = dst;
        uint8_t view = 0;
        WU_STEP(wu_buffer_get_u8(b, &view));
        c->view = (pmix_coord_view_t)view;
        WU_STEP(get_list(b, (void **)&c->coord, &c->dims, PMIX_UINT32));
        return rc;
    }
    case PMIX_DEVICE_DIST: {
        pmix_device_distance_t *d = dst;
        WU_STEP(get_str(b, &d->uuid));
        WU_STEP(get_str(b, &d->osname));
        WU_STEP(get_varint(b, 8, &u));
        d->type = (pmix_device_type_t)u;
        WU_STEP(get_scalar(b, &d->mindist, 2, false));
        WU_STEP(get_scalar(b, &d->maxdist, 2, false));
        return rc;
    }
    case PMIX_ENDPOINT: {
        pmix_endpoint_t *e = dst;
        WU_STEP(get_str(b, &e->uuid));
        WU_STEP(get_str(b, &e->osname));
        WU_STEP(get_bytes(b, &e->endpt));
        return rc;
    }
    case PMIX_GEOMETRY: {
        pmix_geometry_t *g = dst;
        WU_STEP(get_size(b, &g->fabric));
        WU_STEP(get_str(b, &g->uuid));
        WU_STEP(get_str(b, &g->osname));
        WU_STEP(get_list(b, (void **)&g->coordinates, &g->ncoords, PMIX_COORD));
        return rc;
    }
    case PMIX_BUFFER: {
        wu_obfr_nested_t *n = dst;
        WU_STEP(wu_buffer_get_u8(b, &n->btype));
        WU_STEP(get_bytes(b, &n->bytes));
        return rc;
    }
    default:
        return PMIX_ERR_UNPACK_FAILURE;
    }
}

static int unpack_elem(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    struct timeval *tv = dst;
    int64_t s = 0;
    uint64_t u = 0;
    uint8_t c = 0;
    bool zigzag;
    int w = wu_obfr_scalar(t, &zigzag), rc;

    if (0 != w) {
        return get_scalar(b, dst, w, zigzag);
    }
    switch (t) {
    case PMIX_BOOL:
        rc = wu_buffer_get_u8(b, &c);
        *(bool *)dst = 1 == c;
        return PMIX_SUCCESS == rc && c > 1 ? PMIX_ERR_UNPACK_FAILURE : rc;
    case PMIX_POINTER: /* the sentinel byte: the receiver gets a NULL pointer */
        *(void **)dst = NULL;
        return wu_buffer_get_u8(b, &c);
    case PMIX_STRING:
        return get_str(b, dst);
    case PMIX_FLOAT:
    case PMIX_DOUBLE:
        return get_real(b, dst, t);
    case PMIX_TIMEVAL:
        rc = get_signed(b, 8, &s);
        tv->tv_sec = (time_t)s;
        WU_STEP(get_signed(b, 8, &s));
        tv->tv_usec = (suseconds_t)s;
        return rc;
    case PMIX_PID:
        rc = get_varint(b, 4, &u);
        *(pid_t *)dst = (pid_t)(uint32_t)u;
        return rc;
    case PMIX_VALUE:
    case PMIX_DATA_ARRAY:
        if (b->depth >= WU_BUFFER_MAX_DEPTH) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        b->depth++;
        rc = PMIX_VALUE == t ? get_value(b, dst) : unpack_darray(b, dst);
        b->depth--;
        return rc;
    default:
        return unpack_composite(b, dst, t);
    }
}

/* one element into a zeroed dst; on error it is released and zeroed, the cursor rewound */
static int unpack_one(wu_buffer_t *b, void *dst, pmix_data_type_t t)
{
    size_t mark = b->rpos;
    int rc = unpack_elem(b, dst, t);

    if (PMIX_SUCCESS != rc) {
        wu_obfr_free(dst, 1, t);
        b->rpos = mark;
    }
    return rc;
}

/* n elements of type t as one call wrote them (zeroed dst): the elements decoded stay there on
 * error too, for their owner to release */
static int unpack_call(wu_buffer_t *b, void *dst, size_t n, pmix_data_type_t t)
{
    size_t sz = wu_obfr_elem_size(t);
    pmix_data_type_t tag = PMIX_UNDEF;
    int rc = PMIX_SUCCESS;

    if (PMIX_PID == t) {
        rc = get_type(b, &tag);
        if (PMIX_SUCCESS == rc && WU_OBFR_PID_TAG != tag) {
            rc = PMIX_ERR_UNPACK_FAILURE; /* another width of pid_t: not on Linux */
        }
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = unpack_one(b, (char *)dst + i * sz, t);
    }
    return rc;
}

/* ---- the interface ---- */

static bool args_ok(const wu_buffer_t *b, int btype)
{
    return NULL != b && (WU_OBFR_NON_DESC == btype || WU_OBFR_FULLY_DESC == btype);
}

/* The head of a call: [INT32 tag] count [type tag]. On error the cursor is unchanged;
 * PMIX_ERR_UNPACK_INADEQUATE_SPACE (more than room) still sets *cnt. */
static int get_head(wu_buffer_t *b, int btype, pmix_data_type_t t, size_t room, size_t *cnt)
{
    size_t mark = b->rpos, minw = wu_obfr_min_wire(t);
    pmix_data_type_t tag = PMIX_INT32;
    int32_t n = 0;
    int rc = WU_OBFR_FULLY_DESC == btype ? get_type(b, &tag) : PMIX_SUCCESS;

    if (PMIX_SUCCESS == rc && PMIX_INT32 != tag) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    WU_STEP(get_i32(b, &n));
    tag = t;
    if (WU_OBFR_FULLY_DESC == btype) {
        WU_STEP(get_type(b, &tag));
    }
    *cnt = n < 0 ? 0 : (size_t)n;
    if (PMIX_SUCCESS == rc && n < 0) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    } else if (PMIX_SUCCESS == rc && tag != t) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    } else if (PMIX_SUCCESS == rc && *cnt > room) {
        rc = PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    } else if (PMIX_SUCCESS == rc && *cnt > wu_buffer_remaining(b) / minw) {
        rc = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (PMIX_SUCCESS != rc) {
        b->rpos = mark;
    }
    return rc;
}

int wu_obfr_unpack(wu_buffer_t *b, int btype, void *dst, int32_t *n, pmix_data_type_t t)
{
    size_t sz = wu_obfr_elem_size(t), mark, cnt = 0;
    int rc;

    if (!args_ok(b, btype) || NULL == n || *n < 0 || (0 < *n && NULL == dst)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == sz) {
        *n = 0;
        return PMIX_ERR_UNPACK_FAILURE;
    }
    mark = b->rpos;
    rc = get_head(b, btype, t, (size_t)*n, &cnt);
    if (PMIX_ERR_UNPACK_INADEQUATE_SPACE == rc) {
        *n = (int32_t)cnt;
        return rc;
    }
    if (PMIX_SUCCESS == rc) {
        memset(dst, 0, cnt * sz);
        if (PMIX_SUCCESS != (rc = unpack_call(b, dst, cnt, t))) {
            wu_obfr_free(dst, cnt, t);
        }
    }
    if (PMIX_SUCCESS != rc) {
        b->rpos = mark;
        cnt = 0;
    }
    *n = (int32_t)cnt;
    return rc;
}

int wu_obfr_unpack_list(wu_buffer_t *b, int btype, void **arr, size_t *n, pmix_data_type_t t)
{
    size_t sz = wu_obfr_elem_size(t), minw = wu_obfr_min_wire(t), mark, cnt = 0;
    int32_t m = 1;
    void *a = NULL;
    int rc;

    if (!args_ok(b, btype) || NULL == arr || NULL == n) {
        return PMIX_ERR_BAD_PARAM;
    }
    *arr = NULL;
    *n = 0;
    if (0 == sz) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    mark = b->rpos;
    rc = wu_obfr_unpack(b, btype, &cnt, &m, PMIX_SIZE);
    if (PMIX_SUCCESS != rc || 0 == cnt) {
        return PMIX_ERR_UNPACK_INADEQUATE_SPACE == rc ? PMIX_ERR_UNPACK_FAILURE : rc;
    }
    if (cnt > INT32_MAX || cnt > wu_buffer_remaining(b) / minw) {
        rc = cnt > INT32_MAX ? PMIX_ERR_UNPACK_FAILURE : PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    } else if (NULL == (a = calloc(cnt, sz))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        m = (int32_t)cnt;
        rc = wu_obfr_unpack(b, btype, a, &m, t);
        if (PMIX_SUCCESS == rc && (size_t)m != cnt) {
            wu_obfr_free(a, (size_t)m, t);
            rc = PMIX_ERR_UNPACK_FAILURE; /* fewer elements than announced */
        }
    }
    if (PMIX_SUCCESS != rc) {
        free(a);
        b->rpos = mark;
        return PMIX_ERR_UNPACK_INADEQUATE_SPACE == rc ? PMIX_ERR_UNPACK_FAILURE : rc;
    }
    *arr = a;
    *n = cnt;
    return PMIX_SUCCESS;
}

int wu_obfr_unpack_one(wu_buffer_t *b, int btype, void *elem, pmix_data_type_t t)
{
    size_t sz = wu_obfr_elem_size(t), mark;
    int rc;

    if (!args_ok(b, btype) || NULL == elem) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == sz) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    memset(elem, 0, sz);
    mark = b->rpos;
    if (PMIX_SUCCESS != (rc = unpack_call(b, elem, 1, t))) {
        wu_obfr_free(elem, 1, t);
        b->rpos = mark;
    }
    return rc;
}

void wu_obfr_free(void *arr, size_t n, pmix_data_type_t t)
{
    if (NULL == arr) {
        return;
    }
    for (size_t i = 0; i < n && PMIX_KVAL == t; i++) {
        wu_obfr_kval_t *k = (wu_obfr_kval_t *)arr + i;
        free(k->key);
        if (NULL != k->value) {
            wu_data_elems_destruct(k->value, 1, PMIX_VALUE);
            free(k->value);
        }
        memset(k, 0, sizeof(*k));
    }
    for (size_t i = 0; i < n && PMIX_BUFFER == t; i++) {
        wu_obfr_nested_t *nb = (wu_obfr_nested_t *)arr + i;
        free(nb->bytes.bytes);
        memset(nb, 0, sizeof(*nb));
    }
    if (PMIX_KVAL != t && PMIX_BUFFER != t) {
        wu_data_elems_destruct(arr, n, t);
    }
}
