/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_buffer.c -- growable byte buffer with bounds-checked big-endian reads (see wu_buffer.h). */
#include "pmix/common/wu_buffer.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#define WU_BUFFER_MIN_ALLOC 64

void wu_buffer_construct(wu_buffer_t *b)
{
    memset(b, 0, sizeof(*b));
}

void wu_buffer_destruct(wu_buffer_t *b)
{
    if (NULL == b) {
        return;
    }
    free(b->base);
    wu_buffer_construct(b);
}

/* Make room for n more bytes; grows geometrically so appends are amortised O(1). */
int wu_buffer_reserve(wu_buffer_t *b, size_t n)
{
    size_t want, ncap;
    char *p;

    if (n > SIZE_MAX - b->used) {
        return PMIX_ERR_NOMEM;
    }
    want = b->used + n;
    if (want <= b->cap) {
        return PMIX_SUCCESS;
    }
    ncap = b->cap < WU_BUFFER_MIN_ALLOC ? WU_BUFFER_MIN_ALLOC : b->cap;
    while (ncap < want) {
        ncap = ncap > SIZE_MAX / 2 ? want : ncap * 2;
    }
    p = realloc(b->base, ncap);
    if (NULL == p) {
        return PMIX_ERR_NOMEM;
    }
    b->base = p;
    b->cap = ncap;
    return PMIX_SUCCESS;
}

int wu_buffer_put(wu_buffer_t *b, const void *src, size_t n)
{
    int rc;

    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (PMIX_SUCCESS != (rc = wu_buffer_reserve(b, n))) {
        return rc;
    }
    memcpy(b->base + b->used, src, n);
    b->used += n;
    return PMIX_SUCCESS;
}

int wu_buffer_put_u8(wu_buffer_t *b, uint8_t v)
{
    return wu_buffer_put(b, &v, 1);
}

int wu_buffer_put_u16(wu_buffer_t *b, uint16_t v)
{
    v = htobe16(v);
    return wu_buffer_put(b, &v, sizeof(v));
}

int wu_buffer_put_u32(wu_buffer_t *b, uint32_t v)
{
    v = htobe32(v);
    return wu_buffer_put(b, &v, sizeof(v));
}

int wu_buffer_put_u64(wu_buffer_t *b, uint64_t v)
{
    v = htobe64(v);
    return wu_buffer_put(b, &v, sizeof(v));
}

int wu_buffer_get(wu_buffer_t *b, void *dst, size_t n)
{
    if (n > wu_buffer_remaining(b)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (0 != n) {
        memcpy(dst, b->base + b->rpos, n);
        b->rpos += n;
    }
    return PMIX_SUCCESS;
}

int wu_buffer_get_u8(wu_buffer_t *b, uint8_t *v)
{
    return wu_buffer_get(b, v, 1);
}

int wu_buffer_get_u16(wu_buffer_t *b, uint16_t *v)
{
    int rc = wu_buffer_get(b, v, sizeof(*v));
    if (PMIX_SUCCESS == rc) {
        *v = be16toh(*v);
    }
    return rc;
}

int wu_buffer_get_u32(wu_buffer_t *b, uint32_t *v)
{
    int rc = wu_buffer_get(b, v, sizeof(*v));
    if (PMIX_SUCCESS == rc) {
        *v = be32toh(*v);
    }
    return rc;
}

int wu_buffer_get_u64(wu_buffer_t *b, uint64_t *v)
{
    int rc = wu_buffer_get(b, v, sizeof(*v));
    if (PMIX_SUCCESS == rc) {
        *v = be64toh(*v);
    }
    return rc;
}

int wu_buffer_from_pmix(wu_buffer_t *b, const pmix_data_buffer_t *pb)
{
    wu_buffer_construct(b);
    if (NULL == pb->base_ptr) {
        /* an empty (constructed or unloaded) buffer: no data may be claimed */
        return 0 == pb->bytes_used ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM;
    }
    if (pb->bytes_used > pb->bytes_allocated) {
        return PMIX_ERR_BAD_PARAM;
    }
    b->base = pb->base_ptr;
    b->used = pb->bytes_used;
    b->cap = pb->bytes_allocated;
    if (NULL == pb->unpack_ptr) {
        b->rpos = 0;
    } else if (pb->unpack_ptr < pb->base_ptr || pb->unpack_ptr > pb->base_ptr + pb->bytes_used) {
        return PMIX_ERR_BAD_PARAM;
    } else {
        b->rpos = (size_t)(pb->unpack_ptr - pb->base_ptr);
    }
    return PMIX_SUCCESS;
}

void wu_buffer_to_pmix(const wu_buffer_t *b, pmix_data_buffer_t *pb)
{
    pb->base_ptr = b->base;
    pb->pack_ptr = NULL == b->base ? NULL : b->base + b->used;
    pb->unpack_ptr = NULL == b->base ? NULL : b->base + b->rpos;
    pb->bytes_allocated = b->cap;
    pb->bytes_used = b->used;
}
