/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_list.c -- intrusive doubly linked list. */
#include "opal/class/wu_list.h"

#include <stdio.h>

static void item_ctor(wu_list_item_t *it)
{
    it->next = it->prev = NULL;
    it->owner = NULL;
}
WU_CLASS_INSTANCE(wu_list_item_t, wu_object_t, item_ctor, NULL);

static void list_ctor(wu_list_t *l)
{
    WU_CONSTRUCT(&l->sentinel, wu_list_item_t);
    l->sentinel.next = l->sentinel.prev = &l->sentinel;
    l->length = 0;
}

static void list_dtor(wu_list_t *l)
{
    wu_list_item_t *it;
    while (NULL != (it = wu_list_remove_first(l))) {
        WU_RELEASE(it);
    }
    WU_DESTRUCT(&l->sentinel);
}
WU_CLASS_INSTANCE(wu_list_t, wu_object_t, list_ctor, list_dtor);

static void link_between(wu_list_t *l, wu_list_item_t *prev, wu_list_item_t *it)
{
#if WU_ENABLE_DEBUG
    if (NULL != it->owner) {
        fprintf(stderr, "wireup: list item %p inserted twice (already on list %p)\n", (void *)it,
                it->owner);
        abort();
    }
#endif
    it->owner = l;
    it->prev = prev;
    it->next = prev->next;
    prev->next->prev = it;
    prev->next = it;
    l->length++;
}

void wu_list_append(wu_list_t *l, wu_list_item_t *it)
{
    link_between(l, l->sentinel.prev, it);
}

void wu_list_prepend(wu_list_t *l, wu_list_item_t *it)
{
    link_between(l, &l->sentinel, it);
}

void wu_list_insert_after(wu_list_t *l, wu_list_item_t *pos, wu_list_item_t *it)
{
    link_between(l, NULL == pos ? &l->sentinel : pos, it);
}

void wu_list_remove(wu_list_t *l, wu_list_item_t *it)
{
#if WU_ENABLE_DEBUG
    if (it->owner != l) {
        fprintf(stderr, "wireup: list item %p removed from list %p that does not hold it\n",
                (void *)it, (void *)l);
        abort();
    }
#endif
    it->owner = NULL;
    it->prev->next = it->next;
    it->next->prev = it->prev;
    it->next = it->prev = NULL;
    l->length--;
}

wu_list_item_t *wu_list_remove_first(wu_list_t *l)
{
    wu_list_item_t *it = wu_list_first(l);
    if (NULL != it) {
        wu_list_remove(l, it);
    }
    return it;
}

wu_list_item_t *wu_list_remove_last(wu_list_t *l)
{
    wu_list_item_t *it = wu_list_last(l);
    if (NULL != it) {
        wu_list_remove(l, it);
    }
    return it;
}

void wu_list_join(wu_list_t *dst, wu_list_t *src)
{
    wu_list_item_t *it;
    if (dst == src) {
        return; /* already all there; moving would never end */
    }
    while (NULL != (it = wu_list_remove_first(src))) {
        wu_list_append(dst, it);
    }
}

void wu_list_sort(wu_list_t *l, int (*cmp)(const wu_list_item_t *a, const wu_list_item_t *b))
{
    /* Bottom-up merge sort on a temporary array of pointers: simple and stable. */
    size_t n = l->length, i = 0;
    wu_list_item_t **a, **tmp, *it;
    if (n < 2) {
        return;
    }
    a = malloc(2 * n * sizeof(*a));
    if (NULL == a) {
        return; /* leave unsorted rather than lose items */
    }
    tmp = a + n;
    while (NULL != (it = wu_list_remove_first(l))) {
        a[i++] = it;
    }
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t x = lo, y = mid, k = lo;
            while (x < mid && y < hi) {
                tmp[k++] = cmp(a[y], a[x]) < 0 ? a[y++] : a[x++];
            }
            while (x < mid) {
                tmp[k++] = a[x++];
            }
            while (y < hi) {
                tmp[k++] = a[y++];
            }
        }
        for (size_t k = 0; k < n; k++) {
            a[k] = tmp[k];
        }
    }
    for (i = 0; i < n; i++) {
        wu_list_append(l, a[i]);
    }
    free(a);
}
