/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_pack.h -- typed serialization of every PMIx data type into a wu_buffer_t.
 *
 * Wire format (all integers big-endian):
 *   one wu_pack call   = u16 type tag, u32 count, then `count` elements of that type
 *   integers/enums     = their natural width (int, pid_t, pmix_status_t: 4 bytes; size_t: 8)
 *   bool               = 1 byte, 0 or 1;  float/double = IEEE bits as u32/u64
 *   timeval            = i64 seconds, i64 microseconds;  time_t = i64
 *   string             = u32 (length + 1, 0 for NULL), then the bytes without the NUL
 *   byte object        = u32 size, then the bytes (also compressed string/byte object, regex)
 *   argv               = u32 count, then count strings
 *   value              = u16 type, then the payload of that type (pointer members: u8 present
 *                        flag first)
 *   data array         = u16 element type, u32 size, then the elements
 *   structs            = their fields in declaration order, each in the form above;
 *                        cpusets and topologies travel as strings (hwloc list / XML; the
 *                        XML is followed by a u32 FNV-1a hash checked before hwloc parses it)
 * A reader therefore always knows the type it is decoding: wu_unpack checks the tag and each
 * nested value carries its own. PMIX_POINTER never crosses a process boundary: packing one is
 * refused (PMIX_ERR_PACK_FAILURE) unless the buffer is `local` (an in-process scratch buffer).
 *
 * Element layouts and sizes, and the release of what elements own, are those of wu_value.h
 * (wu_data_elem_size, wu_data_elems_destruct), shared with PMIx_Value_* and PMIx_Data_copy.
 *
 * Unpacking is all-or-nothing: on any error the read cursor is where it was, and everything the
 * call allocated is freed again. Counts and lengths read from the wire are checked against the
 * bytes remaining before anything is allocated, and nesting is bounded by WU_BUFFER_MAX_DEPTH. */
#ifndef WU_PACK_H
#define WU_PACK_H

#include "pmix/common/wu_buffer.h"

/* Append n elements of type t from the array src (element layout: the C type PMIx uses for t,
 * e.g. char * for PMIX_STRING, pmix_value_t for PMIX_VALUE). Returns PMIX_SUCCESS,
 * PMIX_ERR_BAD_PARAM (NULL buffer, n < 0, src NULL with n > 0), PMIX_ERR_UNKNOWN_DATA_TYPE,
 * PMIX_ERR_PACK_FAILURE (pointer, unterminated nspace/key, lengths beyond 32 bits, NULL array
 * with a non-zero count, nesting deeper than WU_BUFFER_MAX_DEPTH), PMIX_ERR_NOT_SUPPORTED (a
 * cpuset/topology whose source is not hwloc) or PMIX_ERR_NOMEM. On error the buffer's content is
 * unchanged (its storage may have grown). */
int wu_pack(wu_buffer_t *b, const void *src, int32_t n, pmix_data_type_t t);

/* Read the next packed group into dst, which has room for *n elements of type t. On success
 * *n is the number of elements stored and the caller owns what they point to. Errors (cursor
 * unchanged, nothing left allocated, *n set to 0 except as noted):
 *   PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER  nothing, or not enough, left to read
 *   PMIX_ERR_TYPE_MISMATCH                   the next group holds another type
 *   PMIX_ERR_UNPACK_INADEQUATE_SPACE         more elements than *n; *n is set to that count
 *   PMIX_ERR_UNPACK_FAILURE                  corrupt data
 *   PMIX_ERR_UNKNOWN_DATA_TYPE, PMIX_ERR_BAD_PARAM, PMIX_ERR_NOMEM */
int wu_unpack(wu_buffer_t *b, void *dst, int32_t *n, pmix_data_type_t t);

/* Encode/decode one element without the group header (for callers composing their own
 * messages). wu_unpack_one expects *elem to be zeroed; on error it releases what it decoded,
 * leaves *elem zeroed and the cursor where it was. */
int wu_pack_one(wu_buffer_t *b, const void *elem, pmix_data_type_t t);
int wu_unpack_one(wu_buffer_t *b, void *elem, pmix_data_type_t t);
/* A group written element by element, for callers that do not hold the elements in one array:
 * wu_pack_group_begin writes the group header with a count of 0 and sets *mark; the caller
 * appends elements with wu_pack_one; wu_pack_group_end stores their number n in the header. */
int wu_pack_group_begin(wu_buffer_t *b, pmix_data_type_t t, size_t *mark);
int wu_pack_group_end(wu_buffer_t *b, size_t mark, size_t n);
/* Read a group header of type t: *n is its element count (checked against the bytes left, as
 * wu_unpack does), the cursor is on the first element, to be read with wu_unpack_one. On error
 * the cursor is unchanged: PMIX_ERR_TYPE_MISMATCH, PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
 * PMIX_ERR_UNPACK_FAILURE, PMIX_ERR_BAD_PARAM. */
int wu_unpack_group(wu_buffer_t *b, int32_t *n, pmix_data_type_t t);
/* One PMIX_BYTE_OBJECT (packed with count 1) as a view into b, without copying: bo->bytes
 * points into b's storage and stays valid as long as b does. On error the cursor is unchanged. */
int wu_unpack_bo_view(wu_buffer_t *b, pmix_byte_object_t *bo);
/* Pieces of wu_pack's format for messages sent in parts (iovecs), so that large byte objects
 * are sent from where they are instead of copied into a buffer:
 *  - wu_pack_bo_header: the start of one PMIX_BYTE_OBJECT (packed with count 1) of size bytes,
 *    without the bytes, which the caller sends right after;
 *  - wu_pack_group_header: the header of wu_pack alone (type t, n elements), the elements
 *    following (wu_pack_one, wu_pack_info_bo_head);
 *  - wu_pack_info_bo_head: one PMIX_INFO whose value has a byte-object type (PMIX_BYTE_OBJECT,
 *    PMIX_COMPRESSED_BYTE_OBJECT, PMIX_COMPRESSED_STRING, PMIX_REGEX), as wu_pack_one packs it,
 *    without the object's bytes (info->value.data.bo.size of them), which follow;
 *  - wu_pack_value_bo_head: the same for one PMIX_VALUE (wu_pack_one). */
int wu_pack_bo_header(wu_buffer_t *b, size_t size);
int wu_pack_group_header(wu_buffer_t *b, pmix_data_type_t t, int32_t n);
int wu_pack_info_bo_head(wu_buffer_t *b, const pmix_info_t *info);
int wu_pack_value_bo_head(wu_buffer_t *b, const pmix_value_t *v);

#endif /* WU_PACK_H */
