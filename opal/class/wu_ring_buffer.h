/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_ring_buffer.h -- fixed-capacity FIFO of pointers where a push into a full ring evicts the
 * oldest item (the PMIx server's cache of recent events uses it).
 *
 * The ring never frees or releases the pointers it holds, not even in its destructor: push
 * hands an evicted pointer back to the caller, and a ring should be drained with pop before it
 * is released. NULL is never stored. A constructed ring has capacity 0 until init.
 * Not thread safe: callers serialize all access to one ring. */
#ifndef WU_RING_BUFFER_H
#define WU_RING_BUFFER_H

#include "opal/class/wu_object.h"

#include <stddef.h>

typedef struct wu_ring_buffer {
    wu_object_t super;
    void **slots; /* capacity slots */
    size_t capacity;
    size_t head; /* index of the oldest item */
    size_t count;
} wu_ring_buffer_t;
WU_CLASS_DECLARATION(wu_ring_buffer_t);

/* Allocate room for capacity items. Returns WU_SUCCESS; WU_ERR_BAD_PARAM if rb is NULL or
 * capacity is 0 or absurdly large; WU_ERR_EXISTS if the ring holds items; WU_ERR_NOMEM. */
int wu_ring_buffer_init(wu_ring_buffer_t *rb, size_t capacity);

/* Append p as the newest item. If the ring was full, the oldest item is dropped from it and
 * returned so the caller can free or release it; otherwise returns NULL. If p cannot be stored
 * at all (a ring of capacity 0, i.e. not initialized), p itself is returned. Pushing NULL (or
 * to a NULL ring) does nothing and returns NULL. */
void *wu_ring_buffer_push(wu_ring_buffer_t *rb, void *p);

/* Remove and return the oldest item; NULL when empty (or rb is NULL). */
void *wu_ring_buffer_pop(wu_ring_buffer_t *rb);

/* The i-th item without removing it, i = 0 being the oldest and count-1 the newest; NULL if
 * i >= count (or rb is NULL). */
void *wu_ring_buffer_peek(const wu_ring_buffer_t *rb, size_t i);

/* Items held, and the most it can hold (0 for a NULL ring). */
size_t wu_ring_buffer_count(const wu_ring_buffer_t *rb);
size_t wu_ring_buffer_capacity(const wu_ring_buffer_t *rb);

#endif
