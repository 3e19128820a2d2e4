/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_list.h -- intrusive doubly linked list of objects.
 *
 * Items derive from wu_list_item_t (embed it first). The list does not retain items: appending
 * transfers the caller's reference to the list, removing hands it back. WU_LIST_DESTRUCT of a
 * list releases whatever items remain. Not thread safe; callers lock. */
#ifndef WU_LIST_H
#define WU_LIST_H

#include "opal/class/wu_object.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct wu_list_item {
    wu_object_t super;
    struct wu_list_item *next, *prev;
    const void *owner; /* the list holding it (checked in debug builds) */
} wu_list_item_t;
WU_EXPORT WU_CLASS_DECLARATION(wu_list_item_t);

typedef struct wu_list {
    wu_object_t super;
    wu_list_item_t sentinel;
    size_t length;
} wu_list_t;
WU_EXPORT WU_CLASS_DECLARATION(wu_list_t);

static inline size_t wu_list_length(const wu_list_t *l)
{
    return l->length;
}
static inline bool wu_list_is_empty(const wu_list_t *l)
{
    return 0 == l->length;
}
static inline wu_list_item_t *wu_list_first(const wu_list_t *l)
{
    return l->length ? l->sentinel.next : NULL;
}
static inline wu_list_item_t *wu_list_last(const wu_list_t *l)
{
    return l->length ? l->sentinel.prev : NULL;
}
/* Next/previous item, or NULL at the end. */
static inline wu_list_item_t *wu_list_next(const wu_list_t *l, const wu_list_item_t *it)
{
    return it->next == &l->sentinel ? NULL : it->next;
}
static inline wu_list_item_t *wu_list_prev(const wu_list_t *l, const wu_list_item_t *it)
{
    return it->prev == &l->sentinel ? NULL : it->prev;
}

WU_EXPORT void wu_list_append(wu_list_t *l, wu_list_item_t *it);
WU_EXPORT void wu_list_prepend(wu_list_t *l, wu_list_item_t *it);
/* Insert it after pos (pos NULL: at the front). */
WU_EXPORT void wu_list_insert_after(wu_list_t *l, wu_list_item_t *pos, wu_list_item_t *it);
WU_EXPORT wu_list_item_t *wu_list_remove_first(wu_list_t *l);
WU_EXPORT wu_list_item_t *wu_list_remove_last(wu_list_t *l);
/* Unlink it from l; the caller now owns its reference. */
WU_EXPORT void wu_list_remove(wu_list_t *l, wu_list_item_t *it);
/* Stable merge sort; cmp returns <0, 0, >0 like strcmp. */
WU_EXPORT void wu_list_sort(wu_list_t *l,
                            int (*cmp)(const wu_list_item_t *a, const wu_list_item_t *b));
/* Move every item of src to the end of dst. */
WU_EXPORT void wu_list_join(wu_list_t *dst, wu_list_t *src);

/* Iterate: WU_LIST_FOREACH(item, list, my_item_t) { ... } */
#define WU_LIST_FOREACH(item, list, type)                                                     \
    for (item = (type *)(list)->sentinel.next; (wu_list_item_t *)(item) != &(list)->sentinel; \
         item = (type *)((wu_list_item_t *)(item))->next)
/* Safe against removal of item inside the loop body. */
#define WU_LIST_FOREACH_SAFE(item, nxt, list, type)                                            \
    for (item = (type *)(list)->sentinel.next, nxt = (type *)((wu_list_item_t *)(item))->next; \
         (wu_list_item_t *)(item) != &(list)->sentinel;                                        \
         item = nxt, nxt = (type *)((wu_list_item_t *)(item))->next)

#endif
