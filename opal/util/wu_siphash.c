/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_siphash.c -- SipHash-2-4: two compression rounds per 8-byte word, four finalization
 * rounds; key and words read little-endian, as the algorithm defines them. */
#include "opal/util/wu_siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

typedef struct {
    uint64_t v0, v1, v2, v3;
} sip_t;

static void sip_round(sip_t *s)
{
    s->v0 += s->v1;
    s->v1 = ROTL(s->v1, 13);
    s->v1 ^= s->v0;
    s->v0 = ROTL(s->v0, 32);
    s->v2 += s->v3;
    s->v3 = ROTL(s->v3, 16);
    s->v3 ^= s->v2;
    s->v0 += s->v3;
    s->v3 = ROTL(s->v3, 21);
    s->v3 ^= s->v0;
    s->v2 += s->v1;
    s->v1 = ROTL(s->v1, 17);
    s->v1 ^= s->v2;
    s->v2 = ROTL(s->v2, 32);
}

static uint64_t le64(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static void compress(sip_t *s, uint64_t m)
{
    s->v3 ^= m;
    sip_round(s);
    sip_round(s);
    s->v0 ^= m;
}

uint64_t wu_siphash24(const unsigned char key[WU_SIPHASH_KEY_BYTES], const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t k0 = le64(key, 8), k1 = le64(key + 8, 8);
    sip_t s = {0x736f6d6570736575ULL ^ k0, 0x646f72616e646f6dULL ^ k1, 0x6c7967656e657261ULL ^ k0,
               0x7465646279746573ULL ^ k1};
    size_t whole = len - len % 8;

    for (size_t i = 0; i < whole; i += 8) {
        compress(&s, le64(p + i, 8));
    }
    /* the last word: the remaining bytes, and the length's low byte on top */
    compress(&s, le64(p + whole, len % 8) | ((uint64_t)(len & 0xff) << 56));
    s.v2 ^= 0xff;
    for (int i = 0; i < 4; i++) {
        sip_round(&s);
    }
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
