/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_pointer_array.c -- growable pointer array with lowest-free-slot allocation. */
#include "opal/class/wu_pointer_array.h"
#include "opal/util/wu_error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BLOCK 8

static void array_ctor(wu_pointer_array_t *a)
{
    a->items = NULL;
    a->size = 0;
    a->count = 0;
    a->lowest_free = 0;
    a->max_size = INT_MAX;
    a->block = DEFAULT_BLOCK;
}

static void array_dtor(wu_pointer_array_t *a)
{
    free(a->items);
    array_ctor(a);
}
WU_CLASS_INSTANCE(wu_pointer_array_t, wu_object_t, array_ctor, array_dtor);

int wu_pointer_array_init(wu_pointer_array_t *a, int initial, int max_size, int block)
{
    void **items = NULL;
    if (NULL == a || initial < 0 || max_size < 1 || block < 1 || initial > max_size) {
        return WU_ERR_BAD_PARAM;
    }
    if (0 != a->count) {
        return WU_ERR_EXISTS;
    }
    if (initial > 0 && NULL == (items = calloc((size_t)initial, sizeof(*items)))) {
        return WU_ERR_NOMEM;
    }
    free(a->items);
    a->items = items;
    a->size = initial;
    a->lowest_free = 0;
    a->max_size = max_size;
    a->block = block;
    return WU_SUCCESS;
}

/* Grow so that idx (< max_size) is a valid slot: by at least one block, and to a multiple of
 * the block when jumping further, never beyond max_size. */
static int grow(wu_pointer_array_t *a, int idx)
{
    long long want = (long long)a->size + a->block;
    void **items;
    if (want <= idx) {
        want = ((long long)idx / a->block + 1) * a->block;
    }
    if (want > a->max_size) {
        want = a->max_size;
    }
    items = realloc(a->items, (size_t)want * sizeof(*items));
    if (NULL == items) {
        return WU_ERR_NOMEM;
    }
    memset(items + a->size, 0, (size_t)(want - a->size) * sizeof(*items));
    a->items = items;
    a->size = (int)want;
    return WU_SUCCESS;
}

int wu_pointer_array_add(wu_pointer_array_t *a, void *p)
{
    int i;
    if (NULL == a || NULL == p || a->count >= a->max_size) {
        return -1;
    }
    i = a->lowest_free;
    while (i < a->size && NULL != a->items[i]) {
        i++;
    }
    if (i == a->size && WU_SUCCESS != grow(a, i)) {
        return -1;
    }
    a->items[i] = p;
    a->count++;
    a->lowest_free = i + 1;
    return i;
}

int wu_pointer_array_set_item(wu_pointer_array_t *a, int idx, void *p)
{
    if (NULL == a || idx < 0 || idx >= a->max_size) {
        return WU_ERR_BAD_PARAM;
    }
    if (idx >= a->size) {
        if (NULL == p) {
            return WU_SUCCESS; /* already free */
        }
        if (WU_SUCCESS != grow(a, idx)) {
            return WU_ERR_NOMEM;
        }
    }
    if (NULL == a->items[idx] && NULL != p) {
        a->count++;
    } else if (NULL != a->items[idx] && NULL == p) {
        a->count--;
        if (idx < a->lowest_free) {
            a->lowest_free = idx;
        }
    }
    a->items[idx] = p;
    return WU_SUCCESS;
}

void *wu_pointer_array_get_item(const wu_pointer_array_t *a, int idx)
{
    if (NULL == a || idx < 0 || idx >= a->size) {
        return NULL;
    }
    return a->items[idx];
}

int wu_pointer_array_remove(wu_pointer_array_t *a, int idx)
{
    if (NULL == a || idx < 0 || idx >= a->max_size) {
        return WU_ERR_BAD_PARAM;
    }
    if (idx >= a->size || NULL == a->items[idx]) {
        return WU_ERR_NOT_FOUND;
    }
    return wu_pointer_array_set_item(a, idx, NULL);
}

int wu_pointer_array_size(const wu_pointer_array_t *a)
{
    return NULL == a ? 0 : a->size;
}

int wu_pointer_array_count(const wu_pointer_array_t *a)
{
    return NULL == a ? 0 : a->count;
}
