/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_info_list.c -- PMIx_Info_list_*: build an info array incrementally, then convert it.
 *
 * The opaque handle is a growable array of pmix_info_t. "add" and "xfer" store deep copies;
 * "insert" stores a shallow copy marked PMIX_INFO_PERSISTENT, so the caller keeps owning the
 * value (release leaves it alone and convert lends it on). Convert deep-copies into a
 * PMIX_INFO data array the caller owns; an empty list gives PMIX_ERR_EMPTY (as OpenPMIx 4.2).
 * PMIx 5 adds prepend and a walk over the items (get_info).
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

#include "pmix/common/wu_value.h"

typedef struct {
    pmix_info_t *items;
    size_t n, cap;
} wu_info_list_t;

/* Append an uninitialised slot; NULL on allocation failure. */
static pmix_info_t *list_slot(wu_info_list_t *l)
{
    if (l->n == l->cap) {
        size_t cap = 0 == l->cap ? 8 : 2 * l->cap;
        pmix_info_t *items = realloc(l->items, cap * sizeof(*items));
        if (NULL == items) {
            return NULL;
        }
        l->items = items;
        l->cap = cap;
    }
    pmix_info_t *slot = &l->items[l->n];
    memset(slot, 0, sizeof(*slot));
    return slot;
}

PMIX_EXPORT void *PMIx_Info_list_start(void)
{
    return calloc(1, sizeof(wu_info_list_t));
}

/* The shared first step of add, insert and xfer: check the arguments and reserve the next slot.
 * The caller fills the slot and counts it (l->n++) only when filling succeeded. */
static pmix_status_t list_reserve(wu_info_list_t *l, const void *arg, pmix_info_t **slot)
{
    if (NULL == l || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    *slot = list_slot(l);
    return NULL == *slot ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value,
                                             pmix_data_type_t type)
{
    wu_info_list_t *l = ptr;
    pmix_info_t *slot;
    pmix_status_t rc = list_reserve(l, key, &slot);

    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = PMIx_Info_load(slot, key, value, type))) {
        l->n++;
    }
    return rc;
}

/* PMIx 5: add at the front. The new info is loaded into the slot at the end, then rotated to the
 * front. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_prepend(void *ptr, const char *key, const void *value,
                                                 pmix_data_type_t type)
{
    wu_info_list_t *l = ptr;
    pmix_info_t *slot, first;
    pmix_status_t rc = list_reserve(l, key, &slot);

    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = PMIx_Info_load(slot, key, value, type))) {
        first = *slot;
        memmove(&l->items[1], &l->items[0], l->n * sizeof(pmix_info_t));
        l->items[0] = first;
        l->n++;
    }
    return rc;
}

/* PMIx 5: a walk over the list. A position is the address of an item in the array. */
PMIX_EXPORT pmix_info_t *PMIx_Info_list_get_info(void *ptr, void *prev, void **next)
{
    wu_info_list_t *l = ptr;
    pmix_info_t *cur = prev;

    if (NULL != next) {
        *next = NULL;
    }
    if (NULL == l || 0 == l->n) {
        return NULL;
    }
    if (NULL == cur) {
        cur = &l->items[0];
    } else if (cur < l->items || cur >= l->items + l->n) {
        return NULL; /* not a position in this list (or the list grew since) */
    }
    if (NULL != next && cur + 1 < l->items + l->n) {
        *next = cur + 1;
    }
    return cur;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info)
{
    wu_info_list_t *l = ptr;
    pmix_info_t *slot;
    pmix_status_t rc = list_reserve(l, info, &slot);

    if (PMIX_SUCCESS == rc) {
        *slot = *info; /* shallow: the caller keeps owning the value */
        slot->flags |= PMIX_INFO_PERSISTENT;
        l->n++;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info)
{
    wu_info_list_t *l = ptr;
    pmix_info_t *slot;
    pmix_status_t rc = list_reserve(l, info, &slot);

    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = PMIx_Info_xfer(slot, info))) {
        l->n++;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par)
{
    wu_info_list_t *l = ptr;

    if (NULL == l || NULL == par) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == l->n) {
        return PMIX_ERR_EMPTY;
    }
    pmix_info_t *infos = calloc(l->n, sizeof(*infos));
    if (NULL == infos) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = wu_data_elems_copy(infos, l->items, l->n, PMIX_INFO);
    if (PMIX_SUCCESS != rc) {
        free(infos);
        return rc;
    }
    par->type = PMIX_INFO;
    par->size = l->n;
    par->array = infos;
    return PMIX_SUCCESS;
}

PMIX_EXPORT void PMIx_Info_list_release(void *ptr)
{
    wu_info_list_t *l = ptr;

    if (NULL == l) {
        return;
    }
    wu_data_elems_destruct(l->items, l->n, PMIX_INFO);
    free(l->items);
    free(l);
}
