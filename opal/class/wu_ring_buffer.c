/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_ring_buffer.c -- fixed-capacity FIFO of pointers, evicting the oldest when full. */
#include "opal/class/wu_ring_buffer.h"
#include "opal/util/wu_error.h"

#include <stdint.h>
#include <stdlib.h>

static void ring_ctor(wu_ring_buffer_t *rb)
{
    rb->slots = NULL;
    rb->capacity = 0;
    rb->head = 0;
    rb->count = 0;
}

static void ring_dtor(wu_ring_buffer_t *rb)
{
    free(rb->slots);
    ring_ctor(rb);
}
WU_CLASS_INSTANCE(wu_ring_buffer_t, wu_object_t, ring_ctor, ring_dtor);

int wu_ring_buffer_init(wu_ring_buffer_t *rb, size_t capacity)
{
    void **slots;
    if (NULL == rb || 0 == capacity || capacity > SIZE_MAX / 2 / sizeof(void *)) {
        return WU_ERR_BAD_PARAM;
    }
    if (0 != rb->count) {
        return WU_ERR_EXISTS;
    }
    slots = calloc(capacity, sizeof(*slots));
    if (NULL == slots) {
        return WU_ERR_NOMEM;
    }
    free(rb->slots);
    rb->slots = slots;
    rb->capacity = capacity;
    rb->head = 0;
    return WU_SUCCESS;
}

/* Slot of the i-th oldest item (i < capacity). */
static size_t slot_of(const wu_ring_buffer_t *rb, size_t i)
{
    size_t s = rb->head + i; /* head, i < capacity <= SIZE_MAX / 2: no overflow */
    return s >= rb->capacity ? s - rb->capacity : s;
}

void *wu_ring_buffer_push(wu_ring_buffer_t *rb, void *p)
{
    void *evicted = NULL;
    if (NULL == rb || NULL == p) {
        return NULL;
    }
    if (0 == rb->capacity) {
        return p;
    }
    if (rb->count == rb->capacity) {
        evicted = wu_ring_buffer_pop(rb);
    }
    rb->slots[slot_of(rb, rb->count)] = p;
    rb->count++;
    return evicted;
}

void *wu_ring_buffer_pop(wu_ring_buffer_t *rb)
{
    void *p;
    if (NULL == rb || 0 == rb->count) {
        return NULL;
    }
    p = rb->slots[rb->head];
    rb->slots[rb->head] = NULL;
    rb->head = slot_of(rb, 1);
    rb->count--;
    return p;
}

void *wu_ring_buffer_peek(const wu_ring_buffer_t *rb, size_t i)
{
    if (NULL == rb || i >= rb->count) {
        return NULL;
    }
    return rb->slots[slot_of(rb, i)];
}

size_t wu_ring_buffer_count(const wu_ring_buffer_t *rb)
{
    return NULL == rb ? 0 : rb->count;
}

size_t wu_ring_buffer_capacity(const wu_ring_buffer_t *rb)
{
    return NULL == rb ? 0 : rb->capacity;
}
