/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_shm.c -- the read-only key/value segment of wu_shm.h: the writer that lays it out, the
 * reader that checks it and looks (rank, key) up in place. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include "pmix/common/wu_shm.h"
#include "pmix/common/wu_buffer.h"
#include "pmix/common/wu_pack.h"

#include "pmix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char shm_magic[8] = {'W', 'U', 'S', 'H', 'M', 0, 0, 1};

#define HEAD_LEN   40u /* magic, length, buckets, entries, ranks, bucket and rank offsets */
#define ENTRY_HEAD 14u /* next, rank, value length, key length */
#define RANK_LEN   8u  /* rank, entries */

/* ---- shared ------------------------------------------------------------------------------ */

static uint32_t shm_hash(pmix_rank_t rank, const char *key, size_t keylen)
{
    uint32_t h = 2166136261u; /* FNV-1a over the key, then the rank mixed in */
    for (size_t i = 0; i < keylen; i++) {
        h = (h ^ (unsigned char)key[i]) * 16777619u;
    }
    return h ^ (rank * 2654435761u);
}

static size_t align8(size_t n)
{
    return (n + 7u) & ~(size_t)7u;
}

static uint32_t get32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void put32(char *p, uint32_t v)
{
    memcpy(p, &v, sizeof v);
}

/* ---- the writer -------------------------------------------------------------------------- */

typedef struct {
    pmix_rank_t rank;
    uint32_t hash;
    uint32_t next; /* index + 1 of the next entry of the writer's chain, 0: none */
    char *key;
    size_t keylen;
    wu_buffer_t val; /* packed value */
} wentry_t;

struct wu_shm_writer {
    wentry_t *e;
    uint32_t n, cap;
    uint32_t *heads; /* per bucket of the writer's own index: entry index + 1 */
    uint32_t nheads; /* a power of two */
};

int wu_shm_writer_new(wu_shm_writer_t **w)
{
    *w = calloc(1, sizeof **w);
    return NULL == *w ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

void wu_shm_writer_free(wu_shm_writer_t *w)
{
    if (NULL == w) {
        return;
    }
    for (uint32_t i = 0; i < w->n; i++) {
        free(w->e[i].key);
        wu_buffer_destruct(&w->e[i].val);
    }
    free(w->e);
    free(w->heads);
    free(w);
}

/* Rebuild the writer's index with twice the buckets. */
static int w_grow_index(wu_shm_writer_t *w)
{
    uint32_t nh = 0 == w->nheads ? 64u : w->nheads * 2u;
    uint32_t *heads = calloc(nh, sizeof *heads);
    if (NULL == heads) {
        return PMIX_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < w->n; i++) {
        uint32_t b = w->e[i].hash & (nh - 1u);
        w->e[i].next = heads[b];
        heads[b] = i + 1u;
    }
    free(w->heads);
    w->heads = heads;
    w->nheads = nh;
    return PMIX_SUCCESS;
}

int wu_shm_writer_add(wu_shm_writer_t *w, pmix_rank_t rank, const char *key,
                      const pmix_value_t *val)
{
    size_t keylen = NULL != key ? strnlen(key, PMIX_MAX_KEYLEN + 1) : 0;
    uint32_t h, i;
    wu_buffer_t packed;
    wentry_t *e;
    int rc;
    if (NULL == w || NULL == val || 0 == keylen || keylen > PMIX_MAX_KEYLEN ||
        (!PMIX_RANK_IS_VALID(rank) && PMIX_RANK_WILDCARD != rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    wu_buffer_construct(&packed);
    if (PMIX_SUCCESS != (rc = wu_pack(&packed, val, 1, PMIX_VALUE))) {
        wu_buffer_destruct(&packed);
        return rc;
    }
    if (packed.used > UINT32_MAX / 2) {
        wu_buffer_destruct(&packed);
        return PMIX_ERR_BAD_PARAM; /* a segment is addressed with 32-bit offsets */
    }
    h = shm_hash(rank, key, keylen);
    for (i = 0 == w->nheads ? 0 : w->heads[h & (w->nheads - 1u)]; 0 != i; i = w->e[i - 1].next) {
        e = &w->e[i - 1];
        if (e->rank == rank && e->keylen == keylen && 0 == memcmp(e->key, key, keylen)) {
            wu_buffer_destruct(&e->val); /* the last value is kept */
            e->val = packed;
            return PMIX_SUCCESS;
        }
    }
    if (w->n == w->cap) {
        uint32_t cap = 0 == w->cap ? 16u : w->cap * 2u;
        wentry_t *ne = realloc(w->e, cap * sizeof *ne);
        if (NULL == ne) {
            wu_buffer_destruct(&packed);
            return PMIX_ERR_NOMEM;
        }
        w->e = ne;
        w->cap = cap;
    }
    e = &w->e[w->n];
    memset(e, 0, sizeof *e);
    if (NULL == (e->key = malloc(keylen + 1))) {
        wu_buffer_destruct(&packed);
        return PMIX_ERR_NOMEM;
    }
    memcpy(e->key, key, keylen + 1);
    e->keylen = keylen;
    e->rank = rank;
    e->hash = h;
    e->val = packed;
    w->n++;
    if (w->n > w->nheads) {
        return w_grow_index(w); /* links the new entry too */
    }
    e->next = w->heads[h & (w->nheads - 1u)];
    w->heads[h & (w->nheads - 1u)] = w->n;
    return PMIX_SUCCESS;
}

static int cmp_rank(const void *a, const void *b)
{
    pmix_rank_t x = *(const pmix_rank_t *)a, y = *(const pmix_rank_t *)b;
    return x < y ? -1 : x > y;
}

int wu_shm_writer_image(wu_shm_writer_t *w, char **base, size_t *len)
{
    uint32_t nb = 1, nranks = 0;
    pmix_rank_t *ranks;
    size_t off_buckets = HEAD_LEN, off_ranks, off_entries, total, pos;
    char *img;
    uint64_t len64;
    while (nb < w->n) {
        nb *= 2u;
    }
    /* the rank table: each rank once, sorted, with its number of entries */
    if (NULL == (ranks = malloc((w->n > 0 ? w->n : 1) * sizeof *ranks))) {
        return PMIX_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < w->n; i++) {
        ranks[i] = w->e[i].rank;
    }
    qsort(ranks, w->n, sizeof *ranks, cmp_rank);
    for (uint32_t i = 0; i < w->n; i++) {
        if (0 == i || ranks[i] != ranks[nranks - 1]) {
            ranks[nranks++] = ranks[i];
        }
    }
    off_ranks = align8(off_buckets + (size_t)nb * 4u);
    off_entries = align8(off_ranks + (size_t)nranks * RANK_LEN);
    total = off_entries;
    for (uint32_t i = 0; i < w->n; i++) {
        total += align8(ENTRY_HEAD + w->e[i].keylen + 1 + w->e[i].val.used);
    }
    if (total > UINT32_MAX || NULL == (img = calloc(1, total))) {
        free(ranks);
        return total > UINT32_MAX ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOMEM;
    }
    len64 = total;
    memcpy(img, shm_magic, sizeof shm_magic);
    memcpy(img + 8, &len64, sizeof len64);
    put32(img + 16, nb);
    put32(img + 20, w->n);
    put32(img + 24, nranks);
    put32(img + 28, (uint32_t)off_buckets);
    put32(img + 32, (uint32_t)off_ranks);
    for (uint32_t r = 0; r < nranks; r++) {
        put32(img + off_ranks + r * RANK_LEN, ranks[r]);
    }
    pos = off_entries;
    for (uint32_t i = 0; i < w->n; i++) {
        const wentry_t *e = &w->e[i];
        char *p = img + pos, *bucket = img + off_buckets + (e->hash & (nb - 1u)) * 4u;
        pmix_rank_t *slot = bsearch(&e->rank, ranks, nranks, sizeof *ranks, cmp_rank);
        char *cnt = img + off_ranks + (size_t)(slot - ranks) * RANK_LEN + 4;
        uint16_t kl = (uint16_t)e->keylen;
        put32(p, get32(bucket)); /* chained in front of the bucket's first */
        put32(bucket, (uint32_t)pos);
        put32(p + 4, e->rank);
        put32(p + 8, (uint32_t)e->val.used);
        memcpy(p + 12, &kl, sizeof kl);
        memcpy(p + ENTRY_HEAD, e->key, e->keylen + 1);
        memcpy(p + ENTRY_HEAD + e->keylen + 1, e->val.base, e->val.used);
        put32(cnt, get32(cnt) + 1u);
        pos += align8(ENTRY_HEAD + e->keylen + 1 + e->val.used);
    }
    free(ranks);
    *base = img;
    *len = total;
    return PMIX_SUCCESS;
}

/* ---- the reader -------------------------------------------------------------------------- */

int wu_shm_open(const void *base, size_t len, wu_shm_seg_t *seg)
{
    const char *b = base;
    uint64_t len64;
    uint32_t nb, ne, nr, ob, orr;
    memset(seg, 0, sizeof *seg);
    if (NULL == b || len < HEAD_LEN || 0 != memcmp(b, shm_magic, sizeof shm_magic)) {
        return PMIX_ERR_BAD_PARAM;
    }
    memcpy(&len64, b + 8, sizeof len64);
    nb = get32(b + 16);
    ne = get32(b + 20);
    nr = get32(b + 24);
    ob = get32(b + 28);
    orr = get32(b + 32);
    /* the tables within the segment, the bucket count a power of two */
    if (len64 != len || 0 == nb || 0 != (nb & (nb - 1u)) || ob < HEAD_LEN || ob > len ||
        (len - ob) / 4u < nb || orr < ob || orr > len || (len - orr) / RANK_LEN < nr ||
        ne > len / ENTRY_HEAD) {
        return PMIX_ERR_BAD_PARAM;
    }
    *seg = (wu_shm_seg_t){.base = b,
                          .len = len,
                          .nbuckets = nb,
                          .nentries = ne,
                          .nranks = nr,
                          .buckets = b + ob,
                          .ranks = b + orr};
    return PMIX_SUCCESS;
}

int wu_shm_fetch(const wu_shm_seg_t *seg, pmix_rank_t rank, const char *key, pmix_value_t **val)
{
    size_t keylen = NULL != key ? strnlen(key, PMIX_MAX_KEYLEN + 1) : 0;
    uint32_t off, steps = 0;
    *val = NULL;
    if (NULL == seg || NULL == seg->base || 0 == keylen || keylen > PMIX_MAX_KEYLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    off = get32(seg->buckets + (shm_hash(rank, key, keylen) & (seg->nbuckets - 1u)) * 4u);
    while (0 != off) {
        const char *p = seg->base + off;
        uint32_t vlen;
        uint16_t kl;
        if (++steps > seg->nentries || 0 != off % 8u || off > seg->len ||
            seg->len - off < ENTRY_HEAD) {
            return PMIX_ERR_BAD_PARAM;
        }
        vlen = get32(p + 8);
        memcpy(&kl, p + 12, sizeof kl);
        if (kl > PMIX_MAX_KEYLEN || seg->len - off - ENTRY_HEAD < (size_t)kl + 1u + vlen ||
            '\0' != p[ENTRY_HEAD + kl]) {
            return PMIX_ERR_BAD_PARAM;
        }
        if (get32(p + 4) == rank && kl == keylen && 0 == memcmp(p + ENTRY_HEAD, key, keylen)) {
            wu_buffer_t b;
            pmix_value_t *v = calloc(1, sizeof *v);
            int32_t one = 1;
            int rc;
            if (NULL == v) {
                return PMIX_ERR_NOMEM;
            }
            wu_buffer_construct(&b);
            b.base = (char *)p + ENTRY_HEAD + kl + 1; /* a read-only view: not destructed */
            b.used = b.cap = vlen;
            rc = wu_unpack(&b, v, &one, PMIX_VALUE);
            if (PMIX_SUCCESS != rc) {
                PMIX_VALUE_RELEASE(v);
                return PMIX_ERR_BAD_PARAM;
            }
            *val = v;
            return PMIX_SUCCESS;
        }
        off = get32(p);
    }
    return PMIX_ERR_NOT_FOUND;
}

pmix_rank_t wu_shm_rank_at(const wu_shm_seg_t *seg, uint32_t i)
{
    return get32(seg->ranks + (size_t)i * RANK_LEN);
}

bool wu_shm_has_rank(const wu_shm_seg_t *seg, pmix_rank_t rank)
{
    uint32_t lo = 0, hi = NULL != seg ? seg->nranks : 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        pmix_rank_t r = wu_shm_rank_at(seg, mid);
        if (r == rank) {
            return true;
        }
        if (r < rank) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* ---- sealed memory files ------------------------------------------------------------------ */

#define SHM_SEALS (F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

int wu_shm_memfd(const char *image, size_t len, int *fd)
{
    size_t done = 0;
    int f = memfd_create("wu-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    *fd = -1;
    if (f < 0) {
        return ENOMEM == errno ? PMIX_ERR_NOMEM : PMIX_ERR_NOT_SUPPORTED;
    }
    while (done < len) {
        ssize_t n = write(f, image + done, len - done);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            close(f);
            return PMIX_ERR_NOMEM;
        }
        done += (size_t)n;
    }
    if (0 != fcntl(f, F_ADD_SEALS, SHM_SEALS)) {
        close(f);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    *fd = f;
    return PMIX_SUCCESS;
}

int wu_shm_map(int fd, wu_shm_seg_t *seg)
{
    struct stat st;
    void *base;
    int seals = fcntl(fd, F_GET_SEALS);
    int rc;
    memset(seg, 0, sizeof *seg);
    if (seals < 0 || (F_SEAL_WRITE | F_SEAL_SHRINK) != (seals & (F_SEAL_WRITE | F_SEAL_SHRINK)) ||
        0 != fstat(fd, &st) || st.st_size < (off_t)HEAD_LEN || (uint64_t)st.st_size > UINT32_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (MAP_FAILED == base) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = wu_shm_open(base, (size_t)st.st_size, seg))) {
        munmap(base, (size_t)st.st_size);
        memset(seg, 0, sizeof *seg);
    }
    return rc;
}

void wu_shm_unmap(wu_shm_seg_t *seg)
{
    if (NULL != seg && NULL != seg->base) {
        munmap((void *)seg->base, seg->len);
        memset(seg, 0, sizeof *seg);
    }
}
