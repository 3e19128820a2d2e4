/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_hash_table.h -- hash table from string or uint64 keys to opaque pointers.
 *
 * Open addressing with linear probing over a power-of-two array of slots. A removed entry
 * leaves a tombstone; the table is rehashed (grown when needed) on an insertion that would
 * push live entries plus tombstones above 3/4 of the slots, so lookups stay short and there is
 * always an empty slot to end a probe. Removal never moves entries, which is what makes
 * removal during iteration safe.
 *
 * Key kinds: a table holds keys of one kind at a time, either strings or uint64 values. While
 * it holds at least one entry, a call with the other kind of key returns WU_ERR_BAD_PARAM
 * (set, get, remove and next alike). Once it is empty again, either kind may be used.
 *
 * Ownership: string keys are copied on insertion and freed on removal. Values are opaque: the
 * table never frees or releases them, not even in its destructor, so empty it (or iterate and
 * free) before releasing the table if it holds the only reference.
 *
 * Iteration: wu_hash_table_next_str/_u64 with an opaque cursor, NULL to start. During an
 * iteration the caller may remove any entry (the current one included) and replace values;
 * every entry present for the whole iteration is visited exactly once. Keys added during an
 * iteration may or may not be visited, and if an addition made the table rehash, the next call
 * returns WU_ERR_BAD_PARAM (on 64-bit hosts; on 32-bit hosts this is not detected) instead of
 * visiting entries twice: do not add keys while iterating.
 *
 * Not thread safe: callers serialize all access to one table. */
#ifndef WU_HASH_TABLE_H
#define WU_HASH_TABLE_H

#include "opal/class/wu_object.h"

#include <stddef.h>
#include <stdint.h>

struct wu_hash_slot; /* private to wu_hash_table.c */

typedef struct wu_hash_table {
    wu_object_t super;
    struct wu_hash_slot *slots; /* capacity slots, or NULL before first use */
    size_t capacity;            /* 0 or a power of two */
    size_t count;               /* live entries */
    size_t used;                /* live entries + tombstones */
    uint32_t generation;        /* bumped by every rehash; checked by iteration cursors */
    int kind;                   /* kind of the keys held (private) */
} wu_hash_table_t;
WU_EXPORT WU_CLASS_DECLARATION(wu_hash_table_t);

/* Size the table for initial_size entries before it first grows (0: a small default). A
 * constructed table works without init (it allocates on the first insertion); init is the way
 * to presize it and to learn about allocation failure early.
 * Returns WU_SUCCESS; WU_ERR_BAD_PARAM if t is NULL or initial_size exceeds what a table can
 * hold; WU_ERR_EXISTS if the table holds entries (call wu_hash_table_remove_all first);
 * WU_ERR_NOMEM. */
int wu_hash_table_init(wu_hash_table_t *t, size_t initial_size);

/* Map key to value, replacing the value of an existing key (the old value is not freed). The
 * key is copied. Returns WU_SUCCESS; WU_ERR_BAD_PARAM for a NULL table or key or a table that
 * holds uint64 keys; WU_ERR_NOMEM or WU_ERR_OUT_OF_RESOURCE (the table is at its maximum size),
 * in which case the table is unchanged. */
WU_EXPORT int wu_hash_table_set_str(wu_hash_table_t *t, const char *key, void *value);
/* Look key up. On WU_SUCCESS stores the value in *value if value is not NULL. Returns
 * WU_ERR_NOT_FOUND if absent; WU_ERR_BAD_PARAM for a NULL table or key or a table that holds
 * uint64 keys. */
WU_EXPORT int wu_hash_table_get_str(const wu_hash_table_t *t, const char *key, void **value);
/* Remove key (its value is not freed). WU_SUCCESS, WU_ERR_NOT_FOUND or WU_ERR_BAD_PARAM as for
 * get. key may point to the table's own copy, as returned by wu_hash_table_next_str. */
WU_EXPORT int wu_hash_table_remove_str(wu_hash_table_t *t, const char *key);

/* The same for uint64 keys; every value, 0 and UINT64_MAX included, is a valid key. */
WU_EXPORT int wu_hash_table_set_u64(wu_hash_table_t *t, uint64_t key, void *value);
WU_EXPORT int wu_hash_table_get_u64(const wu_hash_table_t *t, uint64_t key, void **value);
WU_EXPORT int wu_hash_table_remove_u64(wu_hash_table_t *t, uint64_t key);

/* Number of entries (0 for a NULL table). */
WU_EXPORT size_t wu_hash_table_count(const wu_hash_table_t *t);
/* Remove every entry, keeping the allocated slots. Values are not freed. */
WU_EXPORT void wu_hash_table_remove_all(wu_hash_table_t *t);

/* Iterate over a table of string keys:
 *     void *it = NULL; const char *k; void *v;
 *     while (WU_SUCCESS == wu_hash_table_next_str(t, &it, &k, &v)) { ... }
 * Stores the next entry's key (the table's copy: valid until that entry is removed) and value
 * through key and value (either may be NULL) and advances *iter. Returns WU_SUCCESS for an
 * entry; WU_ERR_NOT_FOUND at the end (also for an empty table); WU_ERR_BAD_PARAM for a NULL
 * table or iter, a table holding uint64 keys, or a table rehashed since the iteration began.
 * The order is unspecified. */
WU_EXPORT int wu_hash_table_next_str(const wu_hash_table_t *t, void **iter, const char **key,
                                     void **value);
/* The same for uint64 keys. */
WU_EXPORT int wu_hash_table_next_u64(const wu_hash_table_t *t, void **iter, uint64_t *key,
                                     void **value);

/* The hash functions the table uses (slot = hash & (capacity - 1)); exposed for tests and for
 * code that wants the same distribution. */
uint64_t wu_hash_str(const char *s);
uint64_t wu_hash_u64(uint64_t v);

#endif
