/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_hash_table.c -- Check suite for the hash table: string and uint64 keys, growth,
 * colliding keys, tombstone reuse, iteration (with removal during it) and bad input. */
#include "opal/class/wu_hash_table.h"
#include "opal/util/wu_error.h"
#include "test/support/wu_test.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BIG 100000

/* Check's ck_assert_* record a checkpoint (a write to a pipe) for every passing assertion, which
 * dominates loops of 100k iterations; these complain only when the check fails. */
#define QUIET_EQ(a, b)                                                                \
    do {                                                                              \
        int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                                 \
        if (a_ != b_) {                                                               \
            ck_abort_msg("%s == %s failed: %" PRId64 " != %" PRId64, #a, #b, a_, b_); \
        }                                                                             \
    } while (0)
#define QUIET_LT(a, b)                                                               \
    do {                                                                             \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                             \
        if (!(a_ < b_)) {                                                            \
            ck_abort_msg("%s < %s failed: %" PRIu64 " >= %" PRIu64, #a, #b, a_, b_); \
        }                                                                            \
    } while (0)
#define QUIET_STR_EQ(a, b)                                                     \
    do {                                                                       \
        const char *a_ = (a), *b_ = (b);                                       \
        if (0 != strcmp(a_, b_)) {                                             \
            ck_abort_msg("%s == %s failed: \"%s\" != \"%s\"", #a, #b, a_, b_); \
        }                                                                      \
    } while (0)
#define QUIET_TRUE(x)                      \
    do {                                   \
        if (!(x)) {                        \
            ck_abort_msg("%s failed", #x); \
        }                                  \
    } while (0)

static wu_hash_table_t *t;

static void setup(void)
{
    t = WU_NEW(wu_hash_table_t);
    ck_assert_ptr_nonnull(t);
}

static void teardown(void)
{
    WU_RELEASE(t);
}

/* A value that encodes i and is never NULL. */
static void *val(size_t i)
{
    return (void *)(uintptr_t)(i + 1);
}
static size_t unval(void *v)
{
    return (size_t)(uintptr_t)v - 1;
}

static void keyname(char *buf, size_t len, size_t i)
{
    snprintf(buf, len, "key-%zu", i);
}

START_TEST(str_basic)
{
    void *v = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 0));
    ck_assert_uint_eq(0, wu_hash_table_count(t));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "a", &v));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "a", val(1)));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "b", val(2)));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "", val(3))); /* empty key is a key */
    ck_assert_uint_eq(3, wu_hash_table_count(t));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "a", &v));
    ck_assert_ptr_eq(val(1), v);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "", &v));
    ck_assert_ptr_eq(val(3), v);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "b", NULL)); /* existence only */
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "ab", &v));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "A", &v));

    /* replace keeps the count */
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "a", val(10)));
    ck_assert_uint_eq(3, wu_hash_table_count(t));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "a", &v));
    ck_assert_ptr_eq(val(10), v);

    /* NULL is a storable value */
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "null", NULL));
    v = val(99);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "null", &v));
    ck_assert_ptr_null(v);

    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_remove_str(t, "a"));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_remove_str(t, "a"));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "a", &v));
    ck_assert_uint_eq(3, wu_hash_table_count(t));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "b", &v));
    ck_assert_ptr_eq(val(2), v);
}
END_TEST

START_TEST(str_key_is_copied)
{
    char buf[32];
    void *v;
    strcpy(buf, "original");
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, buf, val(1)));
    strcpy(buf, "changed");
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "original", &v));
    ck_assert_ptr_eq(val(1), v);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "changed", &v));
}
END_TEST

START_TEST(works_without_init)
{
    /* a constructed table allocates on first use; also as an embedded object */
    wu_hash_table_t embedded;
    void *v;
    WU_CONSTRUCT(&embedded, wu_hash_table_t);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_u64(&embedded, 5, &v));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_remove_u64(&embedded, 5));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(&embedded, 5, val(5)));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "x", val(7)));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_u64(&embedded, 5, &v));
    ck_assert_ptr_eq(val(5), v);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "x", &v));
    ck_assert_ptr_eq(val(7), v);
    WU_DESTRUCT(&embedded);
}
END_TEST

START_TEST(init_rules)
{
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_init(NULL, 10));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_init(t, SIZE_MAX));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 1000));
    ck_assert_uint_ge(t->capacity * 3 / 4, 1000);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "k", val(1)));
    /* init would lose the entry (and maybe the only pointer to its value) */
    ck_assert_int_eq(WU_ERR_EXISTS, wu_hash_table_init(t, 10));
    ck_assert_uint_eq(1, wu_hash_table_count(t));
    wu_hash_table_remove_all(t);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 10));
    ck_assert_uint_eq(0, wu_hash_table_count(t));

    /* presizing: 1000 entries go in without a rehash */
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 1000));
    size_t cap = t->capacity;
    for (uint64_t i = 0; i < 1000; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, i, val(i)));
    }
    ck_assert_uint_eq(cap, t->capacity);
}
END_TEST

/* Calls with NULL where something is required. */
START_TEST(bad_params)
{
    void *v, *it = NULL;
    const char *k;
    uint64_t u;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_set_str(t, NULL, val(1)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_get_str(t, NULL, &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_remove_str(t, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_set_str(NULL, "k", val(1)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_get_str(NULL, "k", &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_remove_str(NULL, "k"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_set_u64(NULL, 1, val(1)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_get_u64(NULL, 1, &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_remove_u64(NULL, 1));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_next_str(NULL, &it, &k, &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_next_u64(NULL, &it, &u, &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_next_str(t, NULL, &k, &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_next_u64(t, NULL, &u, &v));
    ck_assert_uint_eq(0, wu_hash_table_count(NULL));
    wu_hash_table_remove_all(NULL); /* harmless */
    ck_assert_uint_eq(0, wu_hash_table_count(t));
}
END_TEST

START_TEST(mixed_kinds_refused)
{
    void *v, *it = NULL;
    uint64_t u;
    const char *k;
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "s", val(1)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_set_u64(t, 1, val(2)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_get_u64(t, 1, &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_remove_u64(t, 1));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_next_u64(t, &it, &u, &v));
    ck_assert_uint_eq(1, wu_hash_table_count(t));
    /* once empty, the other kind is accepted */
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_remove_str(t, "s"));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, 1, val(2)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_set_str(t, "s", val(1)));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_get_str(t, "s", &v));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_remove_str(t, "s"));
    it = NULL;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_hash_table_next_str(t, &it, &k, &v));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_u64(t, 1, &v));
    ck_assert_ptr_eq(val(2), v);
    wu_hash_table_remove_all(t);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "s", val(3)));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, "s", &v));
    ck_assert_ptr_eq(val(3), v);
}
END_TEST

/* Many string keys from a tiny start: every rehash on the way must keep every entry. */
START_TEST(str_growth)
{
    char key[32];
    void *v;
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 1));
    size_t cap0 = t->capacity;
    for (size_t i = 0; i < BIG; i++) {
        keyname(key, sizeof key, i);
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_str(t, key, val(i)));
    }
    QUIET_EQ(BIG, wu_hash_table_count(t));
    ck_assert_uint_gt(t->capacity, cap0);
    ck_assert_uint_le(BIG, t->capacity * 3 / 4); /* load factor respected */
    for (size_t i = 0; i < BIG; i++) {
        keyname(key, sizeof key, i);
        QUIET_EQ(WU_SUCCESS, wu_hash_table_get_str(t, key, &v));
        QUIET_EQ(i, unval(v));
    }
    QUIET_EQ(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "key-100000", &v));
    /* remove the odd ones */
    for (size_t i = 1; i < BIG; i += 2) {
        keyname(key, sizeof key, i);
        QUIET_EQ(WU_SUCCESS, wu_hash_table_remove_str(t, key));
    }
    QUIET_EQ(BIG / 2, wu_hash_table_count(t));
    for (size_t i = 0; i < BIG; i++) {
        keyname(key, sizeof key, i);
        QUIET_EQ(i % 2 ? WU_ERR_NOT_FOUND : WU_SUCCESS, wu_hash_table_get_str(t, key, &v));
    }
}
END_TEST

static const uint64_t edge_u64[] = {
    0, 1, 2, UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63, UINT32_MAX, (uint64_t)UINT32_MAX + 1,
};

START_TEST(u64_growth_and_edges)
{
    void *v;
    /* the edge keys first, then many keys around them */
    for (size_t i = 0; i < WU_NELEMS(edge_u64); i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, edge_u64[i], val(i)));
    }
    for (size_t i = 0; i < WU_NELEMS(edge_u64); i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_u64(t, edge_u64[i], &v));
        ck_assert_uint_eq(i, unval(v));
    }
    /* strided keys with identical low bits, which a weak hash would pile into a few slots;
     * none of them is an edge key */
    for (uint64_t i = 1; i <= BIG; i++) {
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_u64(t, i << 20 | 3, val(i)));
    }
    QUIET_EQ(BIG + WU_NELEMS(edge_u64), wu_hash_table_count(t));
    for (uint64_t i = 1; i <= BIG; i++) {
        QUIET_EQ(WU_SUCCESS, wu_hash_table_get_u64(t, i << 20 | 3, &v));
        QUIET_EQ(i, unval(v));
    }
    for (size_t i = 0; i < WU_NELEMS(edge_u64); i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_u64(t, edge_u64[i], &v));
        ck_assert_uint_eq(i, unval(v));
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_remove_u64(t, edge_u64[i]));
        ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_u64(t, edge_u64[i], &v));
    }
    ck_assert_uint_eq(BIG, wu_hash_table_count(t));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_u64(t, 3, &v));
}
END_TEST

/* nkeys string keys whose hashes agree in the low 16 bits: they collide in any table of up to
 * 65536 slots. Found by brute force over "c<n>". */
#define NCOLL 12
static void colliding_str_keys(char keys[][32], size_t nkeys)
{
    uint64_t want = 0;
    size_t found = 0;
    for (unsigned n = 0; found < nkeys; n++) {
        char buf[32];
        snprintf(buf, sizeof buf, "c%u", n);
        uint64_t h = wu_hash_str(buf) & 0xffff;
        if (0 == found) {
            want = h;
        }
        if (h == want) {
            strcpy(keys[found++], buf);
        }
    }
}

START_TEST(str_collisions)
{
    char keys[NCOLL][32];
    void *v;
    colliding_str_keys(keys, NCOLL);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 64)); /* room: no rehash below */
    size_t cap = t->capacity;
    for (size_t i = 0; i < NCOLL; i++) {
        ck_assert_uint_eq(wu_hash_str(keys[0]) & (cap - 1), wu_hash_str(keys[i]) & (cap - 1));
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, keys[i], val(i)));
    }
    ck_assert_uint_eq(cap, t->capacity);
    for (size_t i = 0; i < NCOLL; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, keys[i], &v));
        ck_assert_uint_eq(i, unval(v));
    }
    /* removing from the middle of the probe chain must not hide the keys behind it */
    for (size_t i = 1; i < NCOLL; i += 3) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_remove_str(t, keys[i]));
    }
    for (size_t i = 0; i < NCOLL; i++) {
        int want = (1 == i % 3) ? WU_ERR_NOT_FOUND : WU_SUCCESS;
        ck_assert_int_eq(want, wu_hash_table_get_str(t, keys[i], &v));
        if (WU_SUCCESS == want) {
            ck_assert_uint_eq(i, unval(v));
        }
    }
    /* replacing a key behind a tombstone must not create a duplicate */
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, keys[NCOLL - 1], val(100)));
    size_t count = wu_hash_table_count(t);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_remove_str(t, keys[NCOLL - 1]));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, keys[NCOLL - 1], &v));
    ck_assert_uint_eq(count - 1, wu_hash_table_count(t));
    /* re-adding fills tombstones */
    for (size_t i = 1; i < NCOLL; i += 3) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, keys[i], val(i + 50)));
    }
    for (size_t i = 1; i < NCOLL; i += 3) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_str(t, keys[i], &v));
        ck_assert_uint_eq(i + 50, unval(v));
    }
}
END_TEST

START_TEST(u64_collisions)
{
    uint64_t keys[NCOLL], want = wu_hash_u64(0) & 0xfff;
    size_t found = 0;
    void *v;
    for (uint64_t k = 0; found < NCOLL; k++) {
        if ((wu_hash_u64(k) & 0xfff) == want) {
            keys[found++] = k;
        }
    }
    for (size_t i = 0; i < NCOLL; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, keys[i], val(i)));
    }
    for (size_t i = 0; i < NCOLL; i += 2) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_remove_u64(t, keys[i]));
    }
    for (size_t i = 0; i < NCOLL; i++) {
        ck_assert_int_eq(i % 2 ? WU_SUCCESS : WU_ERR_NOT_FOUND,
                         wu_hash_table_get_u64(t, keys[i], &v));
        if (i % 2) {
            ck_assert_uint_eq(i, unval(v));
        }
    }
    ck_assert_uint_eq(NCOLL / 2, wu_hash_table_count(t));
}
END_TEST

START_TEST(tombstone_churn)
{
    /* insert/remove cycles with few live keys: tombstones must be cleaned up, not grow the
     * table without bound, and lookups must still end */
    void *v;
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 4));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, UINT64_MAX, val(0)));
    for (uint64_t i = 0; i < BIG; i++) {
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_u64(t, i, val(i)));
        QUIET_EQ(WU_SUCCESS, wu_hash_table_remove_u64(t, i));
        QUIET_EQ(WU_ERR_NOT_FOUND, wu_hash_table_get_u64(t, i + 1, &v));
    }
    QUIET_EQ(1, wu_hash_table_count(t));
    ck_assert_uint_le(t->capacity, 16);
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_get_u64(t, UINT64_MAX, &v));
    ck_assert_ptr_eq(val(0), v);
}
END_TEST

/* Iterate; every key must come exactly once. */
static void expect_str_iteration(size_t n, const unsigned char *present)
{
    unsigned char *seen = calloc(n, 1);
    void *it = NULL, *v;
    const char *k;
    size_t visits = 0;
    int rc;
    ck_assert_ptr_nonnull(seen);
    while (WU_SUCCESS == (rc = wu_hash_table_next_str(t, &it, &k, &v))) {
        size_t i = unval(v);
        char want[32];
        QUIET_LT(i, n);
        keyname(want, sizeof want, i);
        QUIET_STR_EQ(want, k);
        QUIET_EQ(0, seen[i]);
        QUIET_TRUE(NULL == present || present[i]);
        seen[i] = 1;
        visits++;
    }
    QUIET_EQ(WU_ERR_NOT_FOUND, rc);
    /* and it stays at the end */
    QUIET_EQ(WU_ERR_NOT_FOUND, wu_hash_table_next_str(t, &it, &k, &v));
    QUIET_EQ(wu_hash_table_count(t), visits);
    free(seen);
}

START_TEST(iterate_each_once)
{
    char key[32];
    void *it = NULL;
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_next_str(t, &it, NULL, NULL));
    for (size_t i = 0; i < BIG; i++) {
        keyname(key, sizeof key, i);
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_str(t, key, val(i)));
    }
    expect_str_iteration(BIG, NULL);
    ck_assert_uint_eq(BIG, wu_hash_table_count(t));
}
END_TEST

START_TEST(iterate_u64_each_once)
{
    enum { N = 5000 };
    static unsigned char seen[N];
    void *it = NULL, *v;
    uint64_t k;
    size_t visits = 0;
    /* keys N-1 .. 0 mapped as UINT64_MAX - i, so 0 and UINT64_MAX are both among them */
    for (size_t i = 0; i < N; i++) {
        uint64_t key = (0 == i) ? 0 : UINT64_MAX - (i - 1);
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_u64(t, key, val(i)));
    }
    while (WU_SUCCESS == wu_hash_table_next_u64(t, &it, &k, &v)) {
        size_t i = unval(v);
        QUIET_LT(i, N);
        QUIET_EQ((0 == i) ? 0 : UINT64_MAX - (i - 1), k);
        QUIET_EQ(0, seen[i]);
        seen[i] = 1;
        visits++;
    }
    QUIET_EQ(N, visits);
    /* key and value pointers are optional */
    it = NULL;
    visits = 0;
    while (WU_SUCCESS == wu_hash_table_next_u64(t, &it, NULL, NULL)) {
        visits++;
    }
    QUIET_EQ(N, visits);
}
END_TEST

START_TEST(remove_current_while_iterating)
{
    enum { N = 20000 };
    char key[32];
    static unsigned char present[N];
    void *it = NULL, *v;
    const char *k;
    size_t visits = 0;
    for (size_t i = 0; i < N; i++) {
        keyname(key, sizeof key, i);
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_str(t, key, val(i)));
        present[i] = 1;
    }
    /* remove every entry whose index is divisible by 3, passing the table's own key string */
    while (WU_SUCCESS == wu_hash_table_next_str(t, &it, &k, &v)) {
        size_t i = unval(v);
        QUIET_EQ(1, present[i]);
        present[i] = 2; /* visited */
        visits++;
        if (0 == i % 3) {
            QUIET_EQ(WU_SUCCESS, wu_hash_table_remove_str(t, k));
        }
    }
    QUIET_EQ(N, visits);
    QUIET_EQ(N - (N + 2) / 3, wu_hash_table_count(t));
    for (size_t i = 0; i < N; i++) {
        present[i] = i % 3 != 0;
    }
    expect_str_iteration(N, present);

    /* remove everything during one iteration */
    it = NULL;
    visits = 0;
    while (WU_SUCCESS == wu_hash_table_next_str(t, &it, &k, NULL)) {
        QUIET_EQ(WU_SUCCESS, wu_hash_table_remove_str(t, k));
        visits++;
    }
    QUIET_EQ(N - (N + 2) / 3, visits);
    QUIET_EQ(0, wu_hash_table_count(t));
}
END_TEST

START_TEST(remove_others_while_iterating)
{
    /* on visiting key i remove its partner i^1: each pair yields exactly one visit */
    enum { N = 4096 };
    static unsigned char visited[N];
    void *it = NULL, *v;
    uint64_t k;
    size_t visits = 0;
    for (uint64_t i = 0; i < N; i++) {
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_u64(t, i, val(i)));
    }
    while (WU_SUCCESS == wu_hash_table_next_u64(t, &it, &k, &v)) {
        QUIET_EQ(k, unval(v));
        QUIET_EQ(0, visited[k]);
        QUIET_EQ(0, visited[k ^ 1]); /* the partner was removed, never visited */
        visited[k] = 1;
        visits++;
        QUIET_EQ(WU_SUCCESS, wu_hash_table_remove_u64(t, k ^ 1));
        /* replacing a value during iteration is allowed as well */
        QUIET_EQ(WU_SUCCESS, wu_hash_table_set_u64(t, k, v));
    }
    QUIET_EQ(N / 2, visits);
    ck_assert_uint_eq(N / 2, wu_hash_table_count(t));
}
END_TEST

START_TEST(add_during_iteration_refused_after_rehash)
{
#if UINTPTR_MAX > 0xffffffffu
    void *it = NULL, *v;
    uint64_t k;
    int rc;
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_init(t, 4));
    for (uint64_t i = 0; i < 4; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, i, val(i)));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_next_u64(t, &it, &k, &v));
    size_t cap = t->capacity;
    for (uint64_t i = 100; t->capacity == cap; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_u64(t, i, val(i)));
    }
    rc = wu_hash_table_next_u64(t, &it, &k, &v);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, rc);
    /* a fresh iteration works */
    it = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_next_u64(t, &it, &k, &v));
#endif
}
END_TEST

typedef struct {
    wu_object_t super;
} payload_t;
static int payload_destroyed;
static void payload_dtor(WU_UNUSED payload_t *p)
{
    payload_destroyed++;
}
WU_CLASS_INSTANCE(payload_t, wu_object_t, NULL, payload_dtor);

START_TEST(values_not_owned)
{
    payload_t *p = WU_NEW(payload_t);
    char key[32];
    payload_destroyed = 0;
    for (size_t i = 0; i < 100; i++) {
        keyname(key, sizeof key, i);
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, key, p));
    }
    wu_hash_table_remove_all(t);
    ck_assert_uint_eq(0, wu_hash_table_count(t));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, "key-1", NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, "key-1", p));
    WU_RELEASE(t); /* frees its key copies (LeakSanitizer checks), not the value */
    ck_assert_int_eq(0, payload_destroyed);
    ck_assert_int_eq(1, WU_REFCOUNT(p));
    WU_RELEASE(p);
    ck_assert_int_eq(1, payload_destroyed);
    t = WU_NEW(wu_hash_table_t); /* for the teardown */
}
END_TEST

START_TEST(remove_all_then_reuse)
{
    char key[32];
    void *v;
    for (size_t i = 0; i < 1000; i++) {
        keyname(key, sizeof key, i);
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, key, val(i)));
    }
    wu_hash_table_remove_all(t);
    ck_assert_uint_eq(0, wu_hash_table_count(t));
    for (size_t i = 0; i < 1000; i++) {
        keyname(key, sizeof key, i);
        ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_get_str(t, key, &v));
    }
    void *it = NULL;
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_hash_table_next_str(t, &it, NULL, NULL));
    for (size_t i = 0; i < 10; i++) {
        keyname(key, sizeof key, i);
        ck_assert_int_eq(WU_SUCCESS, wu_hash_table_set_str(t, key, val(i)));
    }
    expect_str_iteration(1000, NULL);
    ck_assert_uint_eq(10, wu_hash_table_count(t));
}
END_TEST

static Suite *hash_table_suite(void)
{
    Suite *s = suite_create("wu_hash_table");
    TCase *tc = tcase_create("hash_table");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, str_basic);
    tcase_add_test(tc, str_key_is_copied);
    tcase_add_test(tc, works_without_init);
    tcase_add_test(tc, init_rules);
    tcase_add_test(tc, bad_params);
    tcase_add_test(tc, mixed_kinds_refused);
    tcase_add_test(tc, str_growth);
    tcase_add_test(tc, u64_growth_and_edges);
    tcase_add_test(tc, str_collisions);
    tcase_add_test(tc, u64_collisions);
    tcase_add_test(tc, tombstone_churn);
    tcase_add_test(tc, iterate_each_once);
    tcase_add_test(tc, iterate_u64_each_once);
    tcase_add_test(tc, remove_current_while_iterating);
    tcase_add_test(tc, remove_others_while_iterating);
    tcase_add_test(tc, add_during_iteration_refused_after_rehash);
    tcase_add_test(tc, values_not_owned);
    tcase_add_test(tc, remove_all_then_reuse);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(hash_table_suite)
