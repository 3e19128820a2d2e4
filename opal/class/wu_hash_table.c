/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_hash_table.c -- open-addressing hash table with string or uint64 keys. */
#include "opal/class/wu_hash_table.h"
#include "opal/util/wu_error.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_NONE, KIND_STR, KIND_U64 };
enum { SLOT_EMPTY = 0, SLOT_LIVE, SLOT_DEAD }; /* calloc gives empty slots */

struct wu_hash_slot {
    uint64_t hash;
    union {
        char *str;
        uint64_t u64;
    } key;
    void *value;
    int state;
};

/* A key being looked up: its kind, hash and value. */
typedef struct {
    int kind;
    uint64_t hash;
    const char *str;
    uint64_t u64;
} lookup_key_t;

#define MIN_CAPACITY 8
/* Keeps the cursor's slot index within 32 bits and slots * sizeof(slot) far from overflow. */
#define MAX_CAPACITY ((size_t)1 << (SIZE_MAX > 0xffffffffu ? 30 : 24))

/* Rehash when live entries + tombstones would exceed 3/4 of the slots; after a rehash the
 * live entries fill at most half of them. */
static bool over_limit(size_t used, size_t capacity)
{
    return used > capacity / 4 * 3;
}

uint64_t wu_hash_u64(uint64_t v)
{
    /* 64-bit finalizer of MurmurHash3: every input bit affects every output bit. */
    v ^= v >> 33;
    v *= UINT64_C(0xff51afd7ed558ccd);
    v ^= v >> 33;
    v *= UINT64_C(0xc4ceb9fe1a85ec53);
    v ^= v >> 33;
    return v;
}

uint64_t wu_hash_str(const char *s)
{
    /* FNV-1a, then the finalizer above so that the low bits (the slot index) are well mixed. */
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= UINT64_C(0x100000001b3);
    }
    return wu_hash_u64(h);
}

static void table_ctor(wu_hash_table_t *t)
{
    t->slots = NULL;
    t->capacity = 0;
    t->count = 0;
    t->used = 0;
    t->generation = 0;
    t->kind = KIND_NONE;
}

static void free_keys(wu_hash_table_t *t)
{
    if (KIND_STR != t->kind) {
        return;
    }
    for (size_t i = 0; i < t->capacity; i++) {
        if (SLOT_LIVE == t->slots[i].state) {
            free(t->slots[i].key.str);
            t->slots[i].key.str = NULL;
        }
    }
}

static void table_dtor(wu_hash_table_t *t)
{
    free_keys(t);
    free(t->slots);
    table_ctor(t);
}
WU_CLASS_INSTANCE(wu_hash_table_t, wu_object_t, table_ctor, table_dtor);

/* Smallest power-of-two capacity that holds n entries at most half full; 0 if too large. */
static size_t capacity_for(size_t n)
{
    size_t cap = MIN_CAPACITY;
    while (cap / 2 < n) {
        if (cap >= MAX_CAPACITY) {
            return 0;
        }
        cap *= 2;
    }
    return cap;
}

/* Rebuild the slot array with room for n live entries, dropping tombstones. */
static int rehash(wu_hash_table_t *t, size_t n)
{
    size_t cap = capacity_for(n);
    struct wu_hash_slot *slots;
    if (0 == cap) {
        return WU_ERR_OUT_OF_RESOURCE;
    }
    slots = calloc(cap, sizeof(*slots));
    if (NULL == slots) {
        return WU_ERR_NOMEM;
    }
    for (size_t i = 0; i < t->capacity; i++) {
        size_t j;
        if (SLOT_LIVE != t->slots[i].state) {
            continue;
        }
        j = t->slots[i].hash & (cap - 1);
        while (SLOT_EMPTY != slots[j].state) {
            j = (j + 1) & (cap - 1);
        }
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = cap;
    t->used = t->count;
    t->generation++;
    return WU_SUCCESS;
}

int wu_hash_table_init(wu_hash_table_t *t, size_t initial_size)
{
    size_t cap;
    struct wu_hash_slot *slots;
    if (NULL == t) {
        return WU_ERR_BAD_PARAM;
    }
    if (0 != t->count) {
        return WU_ERR_EXISTS;
    }
    /* Room for initial_size entries below the 3/4 limit. */
    cap = MIN_CAPACITY;
    while (over_limit(initial_size, cap)) {
        if (cap >= MAX_CAPACITY) {
            return WU_ERR_BAD_PARAM;
        }
        cap *= 2;
    }
    slots = calloc(cap, sizeof(*slots));
    if (NULL == slots) {
        return WU_ERR_NOMEM;
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = cap;
    t->used = 0;
    t->kind = KIND_NONE;
    t->generation++;
    return WU_SUCCESS;
}

static bool key_equal(const struct wu_hash_slot *s, const lookup_key_t *k)
{
    if (s->hash != k->hash) {
        return false;
    }
    return KIND_STR == k->kind ? 0 == strcmp(s->key.str, k->str) : s->key.u64 == k->u64;
}

/* Probe for k. Returns the slot holding it or NULL; if free is not NULL, stores there the first
 * tombstone met on the way (NULL if none), the best place to insert k. */
static struct wu_hash_slot *find(const wu_hash_table_t *t, const lookup_key_t *k,
                                 struct wu_hash_slot **free_slot)
{
    struct wu_hash_slot *first_dead = NULL;
    size_t mask = t->capacity - 1;
    if (NULL != free_slot) {
        *free_slot = NULL;
    }
    if (0 == t->capacity) {
        return NULL;
    }
    /* Ends: the limit on used slots guarantees at least one empty slot. */
    for (size_t i = k->hash & mask;; i = (i + 1) & mask) {
        struct wu_hash_slot *s = &t->slots[i];
        if (SLOT_EMPTY == s->state) {
            break;
        }
        if (SLOT_DEAD == s->state) {
            if (NULL == first_dead) {
                first_dead = s;
            }
        } else if (key_equal(s, k)) {
            return s;
        }
    }
    if (NULL != free_slot) {
        *free_slot = first_dead;
    }
    return NULL;
}

/* WU_SUCCESS if a table may be asked about keys of kind k now. */
static int check_kind(const wu_hash_table_t *t, int kind)
{
    return 0 != t->count && t->kind != kind ? WU_ERR_BAD_PARAM : WU_SUCCESS;
}

static int do_set(wu_hash_table_t *t, const lookup_key_t *k, void *value)
{
    struct wu_hash_slot *s, *dead;
    char *copy = NULL;
    int rc = check_kind(t, k->kind);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    s = find(t, k, &dead);
    if (NULL != s) {
        s->value = value;
        return WU_SUCCESS;
    }
    if (KIND_STR == k->kind && NULL == (copy = strdup(k->str))) {
        return WU_ERR_NOMEM;
    }
    if (NULL != dead) {
        s = dead; /* reuse a tombstone: used does not change */
    } else {
        if (0 == t->capacity || over_limit(t->used + 1, t->capacity)) {
            rc = rehash(t, t->count + 1);
            if (WU_SUCCESS != rc) {
                free(copy);
                return rc;
            }
        }
        /* No tombstone lies on this path: find met none, or the rehash dropped them. */
        size_t mask = t->capacity - 1, i = k->hash & mask;
        while (SLOT_EMPTY != t->slots[i].state) {
            i = (i + 1) & mask;
        }
        s = &t->slots[i];
        t->used++;
    }
    s->hash = k->hash;
    if (KIND_STR == k->kind) {
        s->key.str = copy;
    } else {
        s->key.u64 = k->u64;
    }
    s->value = value;
    s->state = SLOT_LIVE;
    t->count++;
    t->kind = k->kind;
    return WU_SUCCESS;
}

static int do_get(const wu_hash_table_t *t, const lookup_key_t *k, void **value)
{
    struct wu_hash_slot *s;
    int rc = check_kind(t, k->kind);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    if (0 == t->count || NULL == (s = find(t, k, NULL))) {
        return WU_ERR_NOT_FOUND;
    }
    if (NULL != value) {
        *value = s->value;
    }
    return WU_SUCCESS;
}

static int do_remove(wu_hash_table_t *t, const lookup_key_t *k)
{
    struct wu_hash_slot *s;
    int rc = check_kind(t, k->kind);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    if (0 == t->count || NULL == (s = find(t, k, NULL))) {
        return WU_ERR_NOT_FOUND;
    }
    if (KIND_STR == k->kind) {
        free(s->key.str); /* k->str may be this very string: it is not used after this */
        s->key.str = NULL;
    }
    s->value = NULL;
    s->state = SLOT_DEAD;
    if (0 == --t->count) {
        t->kind = KIND_NONE;
    }
    return WU_SUCCESS;
}

int wu_hash_table_set_str(wu_hash_table_t *t, const char *key, void *value)
{
    if (NULL == t || NULL == key) {
        return WU_ERR_BAD_PARAM;
    }
    lookup_key_t k = {KIND_STR, wu_hash_str(key), key, 0};
    return do_set(t, &k, value);
}

int wu_hash_table_get_str(const wu_hash_table_t *t, const char *key, void **value)
{
    if (NULL == t || NULL == key) {
        return WU_ERR_BAD_PARAM;
    }
    lookup_key_t k = {KIND_STR, wu_hash_str(key), key, 0};
    return do_get(t, &k, value);
}

int wu_hash_table_remove_str(wu_hash_table_t *t, const char *key)
{
    if (NULL == t || NULL == key) {
        return WU_ERR_BAD_PARAM;
    }
    lookup_key_t k = {KIND_STR, wu_hash_str(key), key, 0};
    return do_remove(t, &k);
}

int wu_hash_table_set_u64(wu_hash_table_t *t, uint64_t key, void *value)
{
    if (NULL == t) {
        return WU_ERR_BAD_PARAM;
    }
    lookup_key_t k = {KIND_U64, wu_hash_u64(key), NULL, key};
    return do_set(t, &k, value);
}

int wu_hash_table_get_u64(const wu_hash_table_t *t, uint64_t key, void **value)
{
    if (NULL == t) {
        return WU_ERR_BAD_PARAM;
    }
    lookup_key_t k = {KIND_U64, wu_hash_u64(key), NULL, key};
    return do_get(t, &k, value);
}

int wu_hash_table_remove_u64(wu_hash_table_t *t, uint64_t key)
{
    if (NULL == t) {
        return WU_ERR_BAD_PARAM;
    }
    lookup_key_t k = {KIND_U64, wu_hash_u64(key), NULL, key};
    return do_remove(t, &k);
}

size_t wu_hash_table_count(const wu_hash_table_t *t)
{
    return NULL == t ? 0 : t->count;
}

void wu_hash_table_remove_all(wu_hash_table_t *t)
{
    if (NULL == t) {
        return;
    }
    free_keys(t);
    if (NULL != t->slots) {
        memset(t->slots, 0, t->capacity * sizeof(*t->slots));
    }
    t->count = 0;
    t->used = 0;
    t->kind = KIND_NONE;
}

/* The cursor holds the index of the slot to resume at (>= 1 once started, so never NULL) and,
 * on 64-bit hosts, the generation of the table in the upper half. */
#if UINTPTR_MAX > 0xffffffffu
#define CURSOR_HAS_GENERATION 1
#else
#define CURSOR_HAS_GENERATION 0
#endif

static void *cursor_make(size_t pos, uint32_t generation)
{
    uintptr_t c = (uintptr_t)pos;
#if CURSOR_HAS_GENERATION
    c |= (uintptr_t)generation << 32;
#else
    (void)generation;
#endif
    return (void *)c;
}

/* The next live slot at or after the cursor, or NULL; *rc tells why not. */
static struct wu_hash_slot *next_slot(const wu_hash_table_t *t, void **iter, int kind, int *rc)
{
    size_t pos = 0;
    *rc = WU_ERR_BAD_PARAM;
    if (NULL == t || NULL == iter) {
        return NULL;
    }
    *rc = WU_ERR_NOT_FOUND;
    if (0 == t->count) {
        return NULL;
    }
    if (kind != t->kind) {
        *rc = WU_ERR_BAD_PARAM;
        return NULL;
    }
    if (NULL != *iter) {
        uintptr_t c = (uintptr_t)*iter;
#if CURSOR_HAS_GENERATION
        if ((uint32_t)(c >> 32) != t->generation) {
            *rc = WU_ERR_BAD_PARAM; /* rehashed under the iteration */
            return NULL;
        }
        c &= 0xffffffffu;
#endif
        pos = (size_t)c;
    }
    for (; pos < t->capacity; pos++) {
        if (SLOT_LIVE == t->slots[pos].state) {
            *iter = cursor_make(pos + 1, t->generation);
            *rc = WU_SUCCESS;
            return &t->slots[pos];
        }
    }
    *iter = cursor_make(t->capacity, t->generation);
    return NULL;
}

int wu_hash_table_next_str(const wu_hash_table_t *t, void **iter, const char **key, void **value)
{
    int rc;
    struct wu_hash_slot *s = next_slot(t, iter, KIND_STR, &rc);
    if (NULL != s) {
        if (NULL != key) {
            *key = s->key.str;
        }
        if (NULL != value) {
            *value = s->value;
        }
    }
    return rc;
}

int wu_hash_table_next_u64(const wu_hash_table_t *t, void **iter, uint64_t *key, void **value)
{
    int rc;
    struct wu_hash_slot *s = next_slot(t, iter, KIND_U64, &rc);
    if (NULL != s) {
        if (NULL != key) {
            *key = s->key.u64;
        }
        if (NULL != value) {
            *value = s->value;
        }
    }
    return rc;
}
