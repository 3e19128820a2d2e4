/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_data.c -- the PMIx_Data_* API: buffers the caller owns (pmix_data_buffer_t), packed and
 * unpacked through the serialization layer of wu_pack.h, plus copy and print of one element. */
#include "pmix.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_pack_int.h"
#include "pmix/common/wu_value.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The caller's pmix_data_buffer_t is viewed as a wu_buffer_t in place (same malloc storage), so
 * buffers made with PMIX_DATA_BUFFER_CREATE/CONSTRUCT/LOAD and released with the macros work.
 * `target`/`source` are ignored: every peer speaks the one wire format of wu_pack.h. */
PMIX_EXPORT pmix_status_t PMIx_Data_pack(const pmix_proc_t *target, pmix_data_buffer_t *buffer,
                                         void *src, int32_t num_vals, pmix_data_type_t type)
{
    wu_buffer_t b;
    int rc;

    (void)target; /* one wire format for every peer */
    if (NULL == buffer) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_from_pmix(&b, buffer))) {
        return rc;
    }
    rc = wu_pack(&b, src, num_vals, type);
    wu_buffer_to_pmix(&b, buffer); /* even on error: the storage may have moved */
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Data_unpack(const pmix_proc_t *source, pmix_data_buffer_t *buffer,
                                           void *dest, int32_t *max_num_values,
                                           pmix_data_type_t type)
{
    wu_buffer_t b;
    int rc;

    (void)source;
    if (NULL == buffer || NULL == max_num_values) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_from_pmix(&b, buffer))) {
        return rc;
    }
    rc = wu_unpack(&b, dest, max_num_values, type);
    wu_buffer_to_pmix(&b, buffer);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Data_copy(void **dest, void *src, pmix_data_type_t type)
{
    size_t sz = wu_data_elem_size(type);
    void *p;
    int rc;

    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == sz) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    /* the same deep copy as PMIx_Value_xfer (wu_value.h), into a new element */
    if (NULL == (p = calloc(1, sz))) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = wu_data_elems_copy(p, src, 1, type))) {
        free(p);
        return rc;
    }
    *dest = p;
    return PMIX_SUCCESS;
}

/* ---- print ---- */

static void print_elem(FILE *f, const void *src, pmix_data_type_t t);

static void print_str(FILE *f, const char *s)
{
    fputs(NULL == s ? "NULL" : s, f);
}

static void print_proc(FILE *f, const pmix_proc_t *p)
{
    switch (p->rank) {
    case PMIX_RANK_WILDCARD:
        fprintf(f, "%.*s:WILDCARD", PMIX_MAX_NSLEN, p->nspace);
        break;
    case PMIX_RANK_UNDEF:
        fprintf(f, "%.*s:UNDEF", PMIX_MAX_NSLEN, p->nspace);
        break;
    default:
        fprintf(f, "%.*s:%" PRIu32, PMIX_MAX_NSLEN, p->nspace, p->rank);
        break;
    }
}

static void print_value(FILE *f, const pmix_value_t *v)
{
    fprintf(f, "%s ", PMIx_Data_type_string(v->type));
    if (PMIX_UNDEF == v->type) {
        fputs("(none)", f);
    } else if (PMIX_POINTER == v->type) {
        fprintf(f, "%p", v->data.ptr);
    } else if (wu_pack_value_is_ptr(v->type)) {
        if (NULL == v->data.ptr) {
            fputs("NULL", f);
        } else {
            print_elem(f, v->data.ptr, v->type);
        }
    } else {
        print_elem(f, &v->data, v->type);
    }
}

static void print_elem(FILE *f, const void *src, pmix_data_type_t t)
{
    switch (t) {
    case PMIX_BOOL:
        fputs(*(const bool *)src ? "true" : "false", f);
        break;
    case PMIX_BYTE:
    case PMIX_UINT8:
        fprintf(f, "%u", (unsigned)*(const uint8_t *)src);
        break;
    case PMIX_INT8:
        fprintf(f, "%d", (int)*(const int8_t *)src);
        break;
    case PMIX_INT16:
        fprintf(f, "%d", (int)*(const int16_t *)src);
        break;
    case PMIX_UINT16:
        fprintf(f, "%u", (unsigned)*(const uint16_t *)src);
        break;
    case PMIX_INT:
    case PMIX_INT32:
    case PMIX_PID:
        fprintf(f, "%" PRId32, *(const int32_t *)src);
        break;
    case PMIX_UINT:
    case PMIX_UINT32:
    case PMIX_PROC_RANK:
        fprintf(f, "%" PRIu32, *(const uint32_t *)src);
        break;
    case PMIX_INT64:
        fprintf(f, "%" PRId64, *(const int64_t *)src);
        break;
    case PMIX_UINT64:
    case PMIX_SIZE:
        fprintf(f, "%" PRIu64, *(const uint64_t *)src);
        break;
    case PMIX_FLOAT:
        fprintf(f, "%f", (double)*(const float *)src);
        break;
    case PMIX_DOUBLE:
        fprintf(f, "%f", *(const double *)src);
        break;
    case PMIX_TIMEVAL: {
        const struct timeval *tv = src;
        fprintf(f, "%lld.%06ld", (long long)tv->tv_sec, (long)tv->tv_usec);
        break;
    }
    case PMIX_TIME:
        fprintf(f, "%lld", (long long)*(const time_t *)src);
        break;
    case PMIX_STATUS:
        fprintf(f, "%s (%d)", PMIx_Error_string(*(const pmix_status_t *)src),
                *(const pmix_status_t *)src);
        break;
    case PMIX_DATA_TYPE:
        fputs(PMIx_Data_type_string(*(const pmix_data_type_t *)src), f);
        break;
    case PMIX_STRING:
        print_str(f, *(char *const *)src);
        break;
    case PMIX_PROC_NSPACE:
        fprintf(f, "%.*s", PMIX_MAX_NSLEN, (const char *)src);
        break;
    case PMIX_PROC:
        print_proc(f, src);
        break;
    case PMIX_VALUE:
        print_value(f, src);
        break;
    case PMIX_INFO: {
        const pmix_info_t *i = src;
        fprintf(f, "key %.*s flags 0x%x value ", PMIX_MAX_KEYLEN, i->key, (unsigned)i->flags);
        print_value(f, &i->value);
        break;
    }
    case PMIX_PDATA: {
        const pmix_pdata_t *p = src;
        fputs("proc ", f);
        print_proc(f, &p->proc);
        fprintf(f, " key %.*s value ", PMIX_MAX_KEYLEN, p->key);
        print_value(f, &p->value);
        break;
    }
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_REGEX:
    case PMIX_COMPRESSED_BYTE_OBJECT:
        fprintf(f, "%zu bytes", ((const pmix_byte_object_t *)src)->size);
        break;
    case PMIX_POINTER:
        fprintf(f, "%p", *(void *const *)src);
        break;
    case PMIX_ENVAR: {
        const pmix_envar_t *e = src;
        print_str(f, e->envar);
        fputc('=', f);
        print_str(f, e->value);
        if ('\0' != e->separator) {
            fprintf(f, " (separator '%c')", e->separator);
        }
        break;
    }
    case PMIX_PROC_INFO: {
        const pmix_proc_info_t *p = src;
        print_proc(f, &p->proc);
        fputs(" host ", f);
        print_str(f, p->hostname);
        fputs(" exe ", f);
        print_str(f, p->executable_name);
        fprintf(f, " pid %d exit %d state %u", (int)p->pid, p->exit_code, (unsigned)p->state);
        break;
    }
    case PMIX_DATA_ARRAY: {
        const pmix_data_array_t *d = src;
        size_t sz = wu_data_elem_size(d->type);
        fprintf(f, "%zu x %s [", d->size, PMIx_Data_type_string(d->type));
        for (size_t i = 0; 0 != sz && NULL != d->array && i < d->size; i++) {
            fputs(0 == i ? "" : ", ", f);
            print_elem(f, (const char *)d->array + i * sz, d->type);
        }
        fputc(']', f);
        break;
    }
    case PMIX_APP: {
        const pmix_app_t *a = src;
        fputs("cmd ", f);
        print_str(f, a->cmd);
        fprintf(f, " maxprocs %d ninfo %zu", a->maxprocs, a->ninfo);
        break;
    }
    default: {
        /* enums print as their number; the rarer structured types say how big they travel */
        int w = wu_pack_scalar_width(t);
        uint64_t u = 0;
        wu_buffer_t b;
        if (0 != w) {
            memcpy((char *)&u + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 8 - w : 0), src,
                   (size_t)w);
            fprintf(f, "%" PRIu64, u);
            break;
        }
        wu_buffer_construct(&b);
        b.local = true;
        if (PMIX_SUCCESS == wu_pack_one(&b, src, t)) {
            fprintf(f, "(%zu bytes packed)", b.used);
        } else {
            fputs("(unprintable)", f);
        }
        wu_buffer_destruct(&b);
        break;
    }
    }
}

/* "<prefix>Data type: <name>\tValue: <value>" in a malloc'd string the caller frees. */
PMIX_EXPORT pmix_status_t PMIx_Data_print(char **output, char *prefix, void *src,
                                          pmix_data_type_t type)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    if (NULL == output) {
        return PMIX_ERR_BAD_PARAM;
    }
    *output = NULL;
    if (0 == wu_data_elem_size(type)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (NULL == (f = open_memstream(&buf, &len))) {
        return PMIX_ERR_NOMEM;
    }
    fprintf(f, "%sData type: %s\tValue: ", NULL == prefix ? "" : prefix,
            PMIx_Data_type_string(type));
    if (NULL == src) {
        fputs("NULL", f);
    } else {
        print_elem(f, src, type);
    }
    if (0 != fclose(f)) {
        free(buf);
        return PMIX_ERR_NOMEM;
    }
    *output = buf;
    return PMIX_SUCCESS;
}

/* Human-readable forms of one value or info (malloc'd; NULL on a NULL argument or no memory).
 * The layout is ours; only the leading words follow OpenPMIx, which tools may search for. */
static char *print_to_string(void (*fn)(FILE *, const void *), const void *src)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    if (NULL == src || NULL == (f = open_memstream(&buf, &len))) {
        return NULL;
    }
    fn(f, src);
    if (0 != fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void value_line(FILE *f, const void *v)
{
    fputs(" PMIX_VALUE: ", f);
    print_value(f, v);
}

static void info_line(FILE *f, const void *src)
{
    const pmix_info_t *i = src;
    fprintf(f, " KEY: %.*s flags 0x%x", PMIX_MAX_KEYLEN, i->key, (unsigned)i->flags);
    if (PMIX_INFO_IS_REQUIRED(i)) {
        fputs(" REQUIRED", f);
    }
    value_line(f, &i->value);
}

PMIX_EXPORT char *PMIx_Value_string(const pmix_value_t *value)
{
    return print_to_string(value_line, value);
}

PMIX_EXPORT char *PMIx_Info_string(const pmix_info_t *info)
{
    return print_to_string(info_line, info);
}

/* ---- whole payloads ---- */

/* Append the unread part of src to dest (dest may be src). */
PMIX_EXPORT pmix_status_t PMIx_Data_copy_payload(pmix_data_buffer_t *dest, pmix_data_buffer_t *src)
{
    wu_buffer_t d, s;
    char *tmp;
    size_t n;
    int rc;

    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_from_pmix(&s, src)) ||
        PMIX_SUCCESS != (rc = wu_buffer_from_pmix(&d, dest))) {
        return rc;
    }
    n = wu_buffer_remaining(&s);
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    /* copy first: dest may be src, whose storage the append can move */
    if (NULL == (tmp = malloc(n))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(tmp, s.base + s.rpos, n);
    rc = wu_buffer_put(&d, tmp, n);
    free(tmp);
    wu_buffer_to_pmix(&d, dest);
    return rc;
}

/* The unread part of the buffer becomes the payload (the storage itself if nothing was read,
 * else a copy) and the buffer is left empty; an empty buffer gives {NULL, 0}. */
PMIX_EXPORT pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    wu_buffer_t b;
    size_t n;
    int rc;

    if (NULL == buffer || NULL == payload) {
        return PMIX_ERR_BAD_PARAM;
    }
    payload->bytes = NULL;
    payload->size = 0;
    if (PMIX_SUCCESS != (rc = wu_buffer_from_pmix(&b, buffer))) {
        return rc;
    }
    n = wu_buffer_remaining(&b);
    if (0 != n && 0 == b.rpos) {
        /* nothing read yet: hand over the storage itself */
        payload->bytes = b.base;
        payload->size = n;
        b.base = NULL;
    } else if (0 != n) {
        if (NULL == (payload->bytes = malloc(n))) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(payload->bytes, b.base + b.rpos, n);
        payload->size = n;
    }
    /* the buffer is left empty either way */
    free(b.base);
    memset(buffer, 0, sizeof(*buffer));
    return PMIX_SUCCESS;
}

/* The buffer drops its old content and takes ownership of payload->bytes (malloc memory);
 * the payload is emptied. PMIx_Data_embed does the same with a copy. */
PMIX_EXPORT pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    if (NULL == buffer || NULL == payload) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_DATA_BUFFER_DESTRUCT(buffer);
    if (NULL != payload->bytes && 0 != payload->size) {
        buffer->base_ptr = payload->bytes;
        buffer->pack_ptr = payload->bytes + payload->size;
        buffer->unpack_ptr = payload->bytes;
        buffer->bytes_allocated = payload->size;
        buffer->bytes_used = payload->size;
    } else {
        free(payload->bytes); /* an empty payload: still ours to release */
    }
    payload->bytes = NULL; /* the buffer owns the bytes now */
    payload->size = 0;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Data_embed(pmix_data_buffer_t *buffer,
                                          const pmix_byte_object_t *payload)
{
    pmix_byte_object_t copy = {NULL, 0};

    if (NULL == buffer || NULL == payload || (0 != payload->size && NULL == payload->bytes)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 != payload->size) {
        if (NULL == (copy.bytes = malloc(payload->size))) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(copy.bytes, payload->bytes, payload->size);
        copy.size = payload->size;
    }
    return PMIx_Data_load(buffer, &copy);
}

/* No compressor is built in (yet): per the Standard a false return means "not compressed", and
 * callers then send the data as it is. */
PMIX_EXPORT bool PMIx_Data_compress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                    size_t *nbytes)
{
    (void)inbytes;
    (void)size;
    if (NULL != outbytes) {
        *outbytes = NULL;
    }
    if (NULL != nbytes) {
        *nbytes = 0;
    }
    return false;
}

PMIX_EXPORT bool PMIx_Data_decompress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                      size_t *nbytes)
{
    return PMIx_Data_compress(inbytes, size, outbytes, nbytes);
}
