/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_buffer.h -- the growable byte buffer with a read cursor under every Wireup message.
 *
 * A buffer holds `used` bytes at `base` (capacity `cap`); writes append at the end, reads
 * consume from `rpos`. Every read is bounds-checked against `used`: a short buffer yields
 * PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER and never touches memory past the end. Integers are
 * written in network (big-endian) order so a message means the same on every host.
 *
 * The memory is plain malloc memory, so a buffer converts to and from the public
 * pmix_data_buffer_t (whose macros free base_ptr with free()) without copying. */
#ifndef WU_BUFFER_H
#define WU_BUFFER_H

#include "pmix_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wu_buffer {
    char *base;     /* malloc'd storage, NULL while empty */
    size_t used;    /* bytes written */
    size_t cap;     /* bytes allocated */
    size_t rpos;    /* read cursor, 0 <= rpos <= used */
    unsigned depth; /* nesting level of the current (un)pack, bounded by WU_BUFFER_MAX_DEPTH */
    bool local;     /* in-process use only (copy): PMIX_POINTER may be packed */
} wu_buffer_t;

/* Deepest nesting of values/arrays a buffer may hold: corrupt input cannot exhaust the stack. */
#define WU_BUFFER_MAX_DEPTH 32

/* Initialise an empty buffer (no allocation). */
void wu_buffer_construct(wu_buffer_t *b);

/* Free the storage and return the buffer to the empty state. NULL is ignored. */
void wu_buffer_destruct(wu_buffer_t *b);

/* Bytes left to read. */
static inline size_t wu_buffer_remaining(const wu_buffer_t *b)
{
    return b->used - b->rpos;
}

/* Make room for n more bytes after the used ones (used does not change). PMIX_SUCCESS or
 * PMIX_ERR_NOMEM. */
int wu_buffer_reserve(wu_buffer_t *b, size_t n);

/* Append n bytes from src (src may be NULL only when n is 0). Returns PMIX_SUCCESS or
 * PMIX_ERR_NOMEM (the buffer is unchanged then). */
int wu_buffer_put(wu_buffer_t *b, const void *src, size_t n);
int wu_buffer_put_u8(wu_buffer_t *b, uint8_t v);
int wu_buffer_put_u16(wu_buffer_t *b, uint16_t v);
int wu_buffer_put_u32(wu_buffer_t *b, uint32_t v);
int wu_buffer_put_u64(wu_buffer_t *b, uint64_t v);

/* Consume n bytes into dst. Returns PMIX_SUCCESS or, when fewer than n bytes remain,
 * PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER without moving the cursor. */
int wu_buffer_get(wu_buffer_t *b, void *dst, size_t n);
int wu_buffer_get_u8(wu_buffer_t *b, uint8_t *v);
int wu_buffer_get_u16(wu_buffer_t *b, uint16_t *v);
int wu_buffer_get_u32(wu_buffer_t *b, uint32_t *v);
int wu_buffer_get_u64(wu_buffer_t *b, uint64_t *v);

/* View a caller's pmix_data_buffer_t as a wu_buffer_t (no copy; the storage is shared).
 * Returns PMIX_ERR_BAD_PARAM when its pointers are inconsistent (cursor outside the data). */
int wu_buffer_from_pmix(wu_buffer_t *b, const pmix_data_buffer_t *pb);

/* Store b's state back into pb (after a pack/unpack on a view made by wu_buffer_from_pmix). */
void wu_buffer_to_pmix(const wu_buffer_t *b, pmix_data_buffer_t *pb);

#endif /* WU_BUFFER_H */
