/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_pointer_array.h -- growable array of pointers indexed by small ints, reusing free slots.
 *
 * Use it to hand out small integer handles for objects (peers, requests): wu_pointer_array_add
 * stores a pointer in the lowest free slot and returns its index. The array grows by `block`
 * slots at a time up to `max_size` slots. A slot holding NULL is free; NULL is never stored by
 * add. The array never frees or releases the pointers it holds, not even in its destructor.
 *
 * A constructed array works without init (no initial slots, max_size INT_MAX, block 8).
 * Not thread safe: callers serialize all access to one array. */
#ifndef WU_POINTER_ARRAY_H
#define WU_POINTER_ARRAY_H

#include "opal/class/wu_object.h"

typedef struct wu_pointer_array {
    wu_object_t super;
    void **items;    /* size slots */
    int size;        /* slots allocated */
    int count;       /* non-NULL slots */
    int lowest_free; /* no free slot has a lower index */
    int max_size;    /* size never exceeds this */
    int block;       /* growth step */
} wu_pointer_array_t;
WU_CLASS_DECLARATION(wu_pointer_array_t);

/* Allocate initial slots (0 allowed), and set the limit and the growth step. Returns WU_SUCCESS;
 * WU_ERR_BAD_PARAM if a is NULL, initial < 0, max_size < 1, block < 1 or initial > max_size;
 * WU_ERR_EXISTS if the array holds items; WU_ERR_NOMEM. */
int wu_pointer_array_init(wu_pointer_array_t *a, int initial, int max_size, int block);

/* Store p (not NULL) in the lowest free slot, growing the array if none is free. Returns the
 * index, or -1 if a or p is NULL, the array already holds max_size items, or memory ran out. */
int wu_pointer_array_add(wu_pointer_array_t *a, void *p);

/* Store p at idx, growing the array as needed; whatever was there is overwritten (not freed).
 * p may be NULL, which frees the slot. Returns WU_SUCCESS; WU_ERR_BAD_PARAM if a is NULL or
 * idx < 0 or idx >= max_size; WU_ERR_NOMEM. */
int wu_pointer_array_set_item(wu_pointer_array_t *a, int idx, void *p);

/* The pointer at idx; NULL if the slot is free or idx is out of range (or a is NULL). */
void *wu_pointer_array_get_item(const wu_pointer_array_t *a, int idx);

/* Free slot idx (its pointer is not freed; get it first if needed). Returns WU_SUCCESS;
 * WU_ERR_NOT_FOUND if the slot is already free or was never allocated; WU_ERR_BAD_PARAM if a is
 * NULL or idx < 0 or idx >= max_size. */
int wu_pointer_array_remove(wu_pointer_array_t *a, int idx);

/* Number of slots allocated: valid indices for get_item are 0 .. size-1 (0 if a is NULL). */
int wu_pointer_array_size(const wu_pointer_array_t *a);
/* Number of non-NULL items (0 if a is NULL). */
int wu_pointer_array_count(const wu_pointer_array_t *a);

#endif
