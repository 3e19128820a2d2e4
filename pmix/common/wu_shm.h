/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_shm.h -- a read-only key/value segment: laid out once by one writer (a server), mapped
 * read-only by many readers (its clients), which look a (rank, key) up in place and unpack only
 * the value they return.
 *
 * Layout (integers little-endian as written by this host; a segment never leaves it):
 *   header   magic "WUSHM\0\0\2", u64 length of the whole segment, u32 buckets, u32 entries,
 *            u32 ranks, u32 offset of the bucket table, u32 offset of the rank table
 *   buckets  u32 offset of the first entry of each bucket (0: empty)
 *   ranks    u32 rank, u32 its entries, for every rank the segment holds (sorted by rank)
 *   entries  u32 offset of the next entry of the bucket (0: last), u32 rank, u32 offset and
 *            u32 length of the value, u16 key length, the key and its NUL, each entry 8-byte
 *            aligned
 *   values   each a wu_pack of one PMIX_VALUE, 8-byte aligned
 * The tables and entries come first, the values after them: opening a segment and walking its
 * keys touches only its first pages, and a lookup only the pages of the value it returns
 * (each page a reader touches costs it a fault).
 * A reader trusts nothing: every offset and length is checked against the segment's length,
 * a bucket chain is walked at most `entries` steps, a key must end with its NUL, and a value
 * is unpacked from its own bytes only. A bad segment gives PMIX_ERR_BAD_PARAM, never a read
 * outside it. */
#ifndef WU_SHM_H
#define WU_SHM_H

#include "opal/util/wu_macros.h"
#include "pmix_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The segment being built. */
typedef struct wu_shm_writer wu_shm_writer_t;

/* An empty writer: PMIX_SUCCESS or PMIX_ERR_NOMEM. */
WU_EXPORT int wu_shm_writer_new(wu_shm_writer_t **w);
/* Add rank's value under key (packed now: val is not kept). A key added twice for a rank
 * keeps the last value. PMIX_ERR_BAD_PARAM for a key that is empty or too long, or a rank
 * that is not a real rank or PMIX_RANK_WILDCARD. */
WU_EXPORT int wu_shm_writer_add(wu_shm_writer_t *w, pmix_rank_t rank, const char *key,
                                const pmix_value_t *val);
/* The whole segment, laid out: *base (the writer's, valid until the next image, reset or free)
 * of *len bytes, to be written to a file the readers map. The writer stays usable. */
WU_EXPORT int wu_shm_writer_image(wu_shm_writer_t *w, const char **base, size_t *len);
/* The segment written straight into a sealed memfd (as wu_shm_memfd makes) named name (what
 * /proc/PID/maps and /proc/PID/fd show after "memfd:"), without being whole in memory first:
 * *fd and its *len bytes, or PMIX_ERR_NOMEM, PMIX_ERR_NOT_SUPPORTED, PMIX_ERR_BAD_PARAM (over
 * 4 GiB). */
WU_EXPORT int wu_shm_writer_memfd(wu_shm_writer_t *w, const char *name, int *fd, size_t *len);
/* About how many bytes the segment would take now (keys, values and tables; a lower bound
 * within a few bytes per entry). */
WU_EXPORT size_t wu_shm_writer_bytes(const wu_shm_writer_t *w);
/* Empty the writer, keeping its memory for the next segment. */
WU_EXPORT void wu_shm_writer_reset(wu_shm_writer_t *w);
WU_EXPORT void wu_shm_writer_free(wu_shm_writer_t *w);

/* A memfd "wu-shm" holding len bytes of image, sealed so that nobody can write, grow or shrink it
 * again: what a server passes to its clients. The fd (close-on-exec) in *fd, or an error
 * (PMIX_ERR_NOMEM, PMIX_ERR_NOT_SUPPORTED where memfds or seals are missing). */
WU_EXPORT int wu_shm_memfd(const char *image, size_t len, int *fd);

/* A segment a reader looks at (mapped, or any memory the reader holds). */
typedef struct wu_shm_seg {
    const char *base;
    size_t len;
    uint32_t nbuckets, nentries, nranks;
    const char *buckets, *ranks;
} wu_shm_seg_t;

/* Check the header and tables of len bytes at base and describe them in *seg (base is not
 * copied: it must stay valid while seg is used). PMIX_ERR_BAD_PARAM for a bad segment. */
int wu_shm_open(const void *base, size_t len, wu_shm_seg_t *seg);
/* Map the segment in fd read-only (after checking it is sealed against writing and
 * shrinking, so that what is mapped cannot change or vanish under the reader) and open it.
 * The fd may be closed afterwards; wu_shm_unmap releases the mapping. PMIX_ERR_BAD_PARAM for
 * an unsealed or bad segment. */
WU_EXPORT int wu_shm_map(int fd, wu_shm_seg_t *seg);
WU_EXPORT void wu_shm_unmap(wu_shm_seg_t *seg);
/* rank's value under key, unpacked into a malloc'd value (PMIX_VALUE_RELEASE), or
 * PMIX_ERR_NOT_FOUND, or PMIX_ERR_BAD_PARAM for a damaged entry. */
WU_EXPORT int wu_shm_fetch(const wu_shm_seg_t *seg, pmix_rank_t rank, const char *key,
                           pmix_value_t **val);
/* Hand each entry's rank and key to fn (the key is the segment's: valid while it is mapped),
 * in no particular order; stops at the first status of fn other than PMIX_SUCCESS and returns
 * it. PMIX_ERR_BAD_PARAM for a damaged entry. */
WU_EXPORT int wu_shm_walk(const wu_shm_seg_t *seg,
                          int (*fn)(pmix_rank_t rank, const char *key, void *ctx), void *ctx);
/* Does the segment hold anything for rank (its rank table)? */
WU_EXPORT bool wu_shm_has_rank(const wu_shm_seg_t *seg, pmix_rank_t rank);
/* The i-th rank of the rank table (i < seg->nranks). */
WU_EXPORT pmix_rank_t wu_shm_rank_at(const wu_shm_seg_t *seg, uint32_t i);

#endif
