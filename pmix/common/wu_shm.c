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

static const char shm_magic[8] = {'W', 'U', 'S', 'H', 'M', 0, 0, 2};

#define HEAD_LEN   40u /* magic, length, buckets, entries, ranks, bucket and rank offsets */
#define ENTRY_HEAD 18u /* next, rank, value offset, value length, key length */
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
    uint32_t next;   /* index + 1 of the next entry of the writer's chain, 0: none */
    size_t key, val; /* offsets of the key (and its NUL) and of the packed value in the arena */
    size_t keylen, vallen;
} wentry_t;

/* Everything a writer allocates is kept by wu_shm_writer_reset, so a server that lays out a
 * segment per fence reuses warm memory: fresh pages cost a fault each. */
struct wu_shm_writer {
    wentry_t *e;
    uint32_t n, cap;
    uint32_t *heads;   /* per bucket of the writer's own index: entry index + 1 */
    uint32_t nheads;   /* a power of two */
    wu_buffer_t arena; /* keys and packed values */
    wu_buffer_t img;   /* the last image, or the tables of the last segment written to a file */
    wu_buffer_t stage; /* small pieces on their way to a file */
    pmix_rank_t *ranks;
    uint32_t ranks_cap;
};

int wu_shm_writer_new(wu_shm_writer_t **w)
{
    *w = calloc(1, sizeof **w);
    if (NULL == *w) {
        return PMIX_ERR_NOMEM;
    }
    wu_buffer_construct(&(*w)->arena);
    wu_buffer_construct(&(*w)->img);
    wu_buffer_construct(&(*w)->stage);
    return PMIX_SUCCESS;
}

size_t wu_shm_writer_bytes(const wu_shm_writer_t *w)
{
    /* the arena holds each key with its NUL and each packed value; every entry adds its head,
     * a bucket and alignment */
    return HEAD_LEN + w->arena.used + (size_t)w->n * (ENTRY_HEAD + 4u + 8u);
}

void wu_shm_writer_reset(wu_shm_writer_t *w)
{
    w->n = 0;
    w->arena.used = 0;
    if (NULL != w->heads) {
        memset(w->heads, 0, w->nheads * sizeof *w->heads);
    }
}

void wu_shm_writer_free(wu_shm_writer_t *w)
{
    if (NULL == w) {
        return;
    }
    wu_buffer_destruct(&w->arena);
    wu_buffer_destruct(&w->img);
    wu_buffer_destruct(&w->stage);
    free(w->e);
    free(w->heads);
    free(w->ranks);
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
    size_t keylen = NULL != key ? strnlen(key, PMIX_MAX_KEYLEN + 1) : 0, mark;
    uint32_t h, i;
    wentry_t *e = NULL;
    int rc;
    if (NULL == w || NULL == val || 0 == keylen || keylen > PMIX_MAX_KEYLEN ||
        (!PMIX_RANK_IS_VALID(rank) && PMIX_RANK_WILDCARD != rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    h = shm_hash(rank, key, keylen);
    for (i = 0 == w->nheads ? 0 : w->heads[h & (w->nheads - 1u)]; 0 != i; i = w->e[i - 1].next) {
        wentry_t *x = &w->e[i - 1];
        if (x->rank == rank && x->keylen == keylen &&
            0 == memcmp(w->arena.base + x->key, key, keylen)) {
            e = x; /* the last value is kept (the earlier one stays unused in the arena) */
            break;
        }
    }
    mark = w->arena.used;
    if (NULL == e && PMIX_SUCCESS != (rc = wu_buffer_put(&w->arena, key, keylen + 1))) {
        return rc;
    }
    if (PMIX_SUCCESS != (rc = wu_pack(&w->arena, val, 1, PMIX_VALUE)) ||
        w->arena.used - mark > UINT32_MAX / 2) {
        w->arena.used = mark;
        return PMIX_SUCCESS == rc ? PMIX_ERR_BAD_PARAM : rc; /* 32-bit offsets in a segment */
    }
    if (NULL != e) {
        e->val = mark;
        e->vallen = w->arena.used - mark;
        return PMIX_SUCCESS;
    }
    if (w->n == w->cap) {
        uint32_t cap = 0 == w->cap ? 16u : w->cap * 2u;
        wentry_t *ne = realloc(w->e, cap * sizeof *ne);
        if (NULL == ne) {
            w->arena.used = mark;
            return PMIX_ERR_NOMEM;
        }
        w->e = ne;
        w->cap = cap;
    }
    e = &w->e[w->n];
    *e = (wentry_t){.rank = rank,
                    .hash = h,
                    .key = mark,
                    .keylen = keylen,
                    .val = mark + keylen + 1,
                    .vallen = w->arena.used - mark - keylen - 1};
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

/* The rank table of w: each rank once, sorted, in w->ranks; their number. -1: no memory. */
static long w_ranks(wu_shm_writer_t *w)
{
    uint32_t nranks = 0;
    if (w->n > w->ranks_cap) {
        pmix_rank_t *r = realloc(w->ranks, w->n * sizeof *r);
        if (NULL == r) {
            return -1;
        }
        w->ranks = r;
        w->ranks_cap = w->n;
    }
    for (uint32_t i = 0; i < w->n; i++) {
        w->ranks[i] = w->e[i].rank;
    }
    if (w->n > 0) {
        qsort(w->ranks, w->n, sizeof *w->ranks, cmp_rank);
    }
    for (uint32_t i = 0; i < w->n; i++) {
        if (0 == i || w->ranks[i] != w->ranks[nranks - 1]) {
            w->ranks[nranks++] = w->ranks[i];
        }
    }
    return nranks;
}

/* Where a layout goes: appended to a buffer (the image) or written to a file. */
typedef struct {
    wu_buffer_t *buf; /* the image, or a staging buffer for fd */
    int fd;           /* -1: image */
} sink_t;

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && EINTR == errno) {
            continue;
        }
        if (k <= 0) {
            return PMIX_ERR_NOMEM; /* no room for the file */
        }
        p += k;
        n -= (size_t)k;
    }
    return PMIX_SUCCESS;
}

#define STAGE_LEN ((size_t)64 << 10)

static int sink_flush(sink_t *o)
{
    int rc = PMIX_SUCCESS;
    if (o->fd >= 0 && o->buf->used > 0) {
        rc = write_all(o->fd, o->buf->base, o->buf->used);
        o->buf->used = 0;
    }
    return rc;
}

static int sink_put(sink_t *o, const void *p, size_t n)
{
    int rc;
    if (o->fd < 0 || o->buf->used + n <= STAGE_LEN) {
        return wu_buffer_put(o->buf, p, n);
    }
    if (PMIX_SUCCESS != (rc = sink_flush(o))) {
        return rc;
    }
    return n >= STAGE_LEN ? write_all(o->fd, p, n) : wu_buffer_put(o->buf, p, n);
}

/* Lay the segment out into o: the tables (built in w->img), then the entries with their keys,
 * then the values from the arena, so that a segment written to a file is never whole in
 * memory. *len: its length. */
static int w_layout(wu_shm_writer_t *w, sink_t *o, size_t *len)
{
    static const char zeros[8];
    uint32_t nb = 1, nranks;
    long nr = w_ranks(w);
    size_t off_buckets = HEAD_LEN, off_ranks, off_entries, off_values, total, pos, vpos;
    char *tab;
    uint64_t len64;
    int rc;
    if (nr < 0) {
        return PMIX_ERR_NOMEM;
    }
    nranks = (uint32_t)nr;
    while (nb < w->n) {
        nb *= 2u;
    }
    off_ranks = align8(off_buckets + (size_t)nb * 4u);
    off_entries = align8(off_ranks + (size_t)nranks * RANK_LEN);
    off_values = off_entries;
    for (uint32_t i = 0; i < w->n; i++) {
        off_values += align8(ENTRY_HEAD + w->e[i].keylen + 1);
    }
    total = off_values;
    for (uint32_t i = 0; i < w->n; i++) {
        total += align8(w->e[i].vallen);
    }
    if (total > UINT32_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* the tables; each entry's chain link is kept in its writer entry's next (no longer needed
     * for the writer's own index once laid out: it is rebuilt below) */
    w->img.used = 0;
    if (PMIX_SUCCESS != wu_buffer_reserve(&w->img, off_entries)) {
        return PMIX_ERR_NOMEM;
    }
    tab = w->img.base;
    w->img.used = off_entries;
    memset(tab, 0, off_entries);
    len64 = total;
    memcpy(tab, shm_magic, sizeof shm_magic);
    memcpy(tab + 8, &len64, sizeof len64);
    put32(tab + 16, nb);
    put32(tab + 20, w->n);
    put32(tab + 24, nranks);
    put32(tab + 28, (uint32_t)off_buckets);
    put32(tab + 32, (uint32_t)off_ranks);
    for (uint32_t r = 0; r < nranks; r++) {
        put32(tab + off_ranks + r * RANK_LEN, w->ranks[r]);
    }
    pos = off_entries;
    for (uint32_t i = 0; i < w->n; i++) {
        wentry_t *e = &w->e[i];
        char *bucket = tab + off_buckets + (e->hash & (nb - 1u)) * 4u;
        pmix_rank_t *slot = bsearch(&e->rank, w->ranks, nranks, sizeof *w->ranks, cmp_rank);
        char *cnt = tab + off_ranks + (size_t)(slot - w->ranks) * RANK_LEN + 4;
        e->next = get32(bucket); /* chained in front of the bucket's first */
        put32(bucket, (uint32_t)pos);
        put32(cnt, get32(cnt) + 1u);
        pos += align8(ENTRY_HEAD + e->keylen + 1);
    }
    if (o->fd >= 0) {
        rc = write_all(o->fd, tab, off_entries);
    } else {
        rc = PMIX_SUCCESS; /* the image is w->img itself */
    }
    vpos = off_values;
    for (uint32_t i = 0; i < w->n && PMIX_SUCCESS == rc; i++) {
        const wentry_t *e = &w->e[i];
        char head[ENTRY_HEAD];
        uint16_t kl = (uint16_t)e->keylen;
        size_t elen = ENTRY_HEAD + e->keylen + 1;
        put32(head, e->next);
        put32(head + 4, e->rank);
        put32(head + 8, (uint32_t)vpos);
        put32(head + 12, (uint32_t)e->vallen);
        memcpy(head + 16, &kl, sizeof kl);
        vpos += align8(e->vallen);
        rc = sink_put(o, head, ENTRY_HEAD);
        if (PMIX_SUCCESS == rc) {
            rc = sink_put(o, w->arena.base + e->key, e->keylen + 1);
        }
        if (PMIX_SUCCESS == rc && align8(elen) > elen) {
            rc = sink_put(o, zeros, align8(elen) - elen);
        }
    }
    for (uint32_t i = 0; i < w->n && PMIX_SUCCESS == rc; i++) {
        const wentry_t *e = &w->e[i];
        rc = sink_put(o, w->arena.base + e->val, e->vallen);
        if (PMIX_SUCCESS == rc && align8(e->vallen) > e->vallen) {
            rc = sink_put(o, zeros, align8(e->vallen) - e->vallen);
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = sink_flush(o);
    }
    /* the chain links overwrote the writer's index: rebuild it */
    if (NULL != w->heads) {
        memset(w->heads, 0, w->nheads * sizeof *w->heads);
        for (uint32_t i = 0; i < w->n; i++) {
            uint32_t b = w->e[i].hash & (w->nheads - 1u);
            w->e[i].next = w->heads[b];
            w->heads[b] = i + 1u;
        }
    }
    *len = total;
    return rc;
}

int wu_shm_writer_image(wu_shm_writer_t *w, const char **base, size_t *len)
{
    sink_t o = {&w->img, -1};
    int rc = w_layout(w, &o, len);
    *base = PMIX_SUCCESS == rc ? w->img.base : NULL;
    return rc;
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

/* The entry at off, checked: its key length, value offset and value length. false for a bad
 * entry. */
static bool entry_ok(const wu_shm_seg_t *seg, uint32_t off, uint16_t *kl, uint32_t *voff,
                     uint32_t *vlen)
{
    const char *p = seg->base + off;
    if (0 != off % 8u || off > seg->len || seg->len - off < ENTRY_HEAD) {
        return false;
    }
    *voff = get32(p + 8);
    *vlen = get32(p + 12);
    memcpy(kl, p + 16, sizeof *kl);
    return *kl <= PMIX_MAX_KEYLEN && seg->len - off - ENTRY_HEAD >= (size_t)*kl + 1u &&
           '\0' == p[ENTRY_HEAD + *kl] && *voff <= seg->len && seg->len - *voff >= *vlen;
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
        uint32_t voff, vlen;
        uint16_t kl;
        if (++steps > seg->nentries || !entry_ok(seg, off, &kl, &voff, &vlen)) {
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
            b.base = (char *)seg->base + voff; /* a read-only view: not destructed */
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

int wu_shm_walk(const wu_shm_seg_t *seg, int (*fn)(pmix_rank_t rank, const char *key, void *ctx),
                void *ctx)
{
    uint32_t steps = 0;
    if (NULL == seg || NULL == seg->base || NULL == fn) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (uint32_t b = 0; b < seg->nbuckets; b++) {
        uint32_t off = get32(seg->buckets + b * 4u);
        while (0 != off) {
            const char *p = seg->base + off;
            uint32_t voff, vlen;
            uint16_t kl;
            int rc;
            if (++steps > seg->nentries || !entry_ok(seg, off, &kl, &voff, &vlen)) {
                return PMIX_ERR_BAD_PARAM;
            }
            if (PMIX_SUCCESS != (rc = fn(get32(p + 4), p + ENTRY_HEAD, ctx))) {
                return rc;
            }
            off = get32(p);
        }
    }
    return PMIX_SUCCESS;
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

/* A new memfd named name that can be sealed, in *f; *fd is set to -1 until it is sealed. */
static int memfd_open(const char *name, int *f, int *fd)
{
    *fd = -1;
    *f = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (*f < 0) {
        return ENOMEM == errno ? PMIX_ERR_NOMEM : PMIX_ERR_NOT_SUPPORTED;
    }
    return PMIX_SUCCESS;
}

static int memfd_seal(int f, int *fd)
{
    if (0 != fcntl(f, F_ADD_SEALS, SHM_SEALS)) {
        close(f);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    *fd = f;
    return PMIX_SUCCESS;
}

int wu_shm_writer_memfd(wu_shm_writer_t *w, const char *name, int *fd, size_t *len)
{
    sink_t o;
    int f, rc;
    if (PMIX_SUCCESS != (rc = memfd_open(name, &f, fd))) {
        return rc;
    }
    w->stage.used = 0;
    o.buf = &w->stage;
    o.fd = f;
    rc = wu_buffer_reserve(&w->stage, STAGE_LEN);
    if (PMIX_SUCCESS == rc) {
        rc = w_layout(w, &o, len);
    }
    if (PMIX_SUCCESS != rc) {
        close(f);
        return rc;
    }
    return memfd_seal(f, fd);
}

int wu_shm_memfd(const char *image, size_t len, int *fd)
{
    int f, rc;
    if (PMIX_SUCCESS != (rc = memfd_open("wu-shm", &f, fd))) {
        return rc;
    }
    if (PMIX_SUCCESS != (rc = write_all(f, image, len))) {
        close(f);
        return rc;
    }
    return memfd_seal(f, fd);
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
