/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_obfr.h -- OpenPMIx's serialization ("bfrops" modules v4 and v41 with the flex128 integer
 * encoding), so that Wireup's server and client can talk to processes on OpenPMIx's own library
 * (docs/openpmix-wire.md, section 5).
 *
 * It converts between the bytes of an OpenPMIx buffer and the same in-memory PMIx types that
 * wu_pack/wu_unpack use (element layouts of wu_value.h: char * for PMIX_STRING, pmix_value_t for
 * PMIX_VALUE, pmix_info_t for PMIX_INFO, ...). The buffer is a wu_buffer_t (its read cursor,
 * bounds checks and nesting depth); the buffer type is passed with every call:
 *   WU_OBFR_NON_DESC   one pack call = INT32 count, then the values;
 *   WU_OBFR_FULLY_DESC one pack call = UINT16 tag PMIX_INT32, INT32 count, UINT16 tag of the
 *                      type, then the values (and the nested tags OpenPMIx writes there).
 * Integers wider than a byte are flex128 varints (signed ones zigzag-mapped first).
 *
 * Types: every type of docs/openpmix-wire.md 5.5 that the client/server commands carry
 * (integers, BOOL, BYTE, STRING, FLOAT/DOUBLE as text, TIMEVAL, TIME, STATUS, PROC_RANK,
 * DATA_RANGE, SCOPE, COMMAND, PERSIST, PROC_STATE, JOB_STATE, ALLOC_DIRECTIVE, LINK_STATE,
 * INFO_DIRECTIVES, DATA_TYPE, IOF_CHANNEL, LOCTYPE, DEVTYPE, PID, PROC, PROC_NSPACE,
 * BYTE_OBJECT, COMPRESSED_STRING, COMPRESSED_BYTE_OBJECT, VALUE, INFO, KVAL (element:
 * wu_obfr_kval_t), PDATA, DATA_ARRAY, APP, QUERY, PROC_INFO, ENVAR, COORD, DEVICE_DIST,
 * ENDPOINT, GEOMETRY, and PMIX_BUFFER (element: wu_obfr_nested_t). Others are refused with
 * PMIX_ERR_NOT_SUPPORTED (pack) or PMIX_ERR_UNPACK_FAILURE (unpack) -- never guessed.
 *
 * Unpacking is all-or-nothing, as wu_unpack: on error the cursor is where it was and nothing
 * the call allocated is left; counts and lengths are checked against the bytes left before
 * anything is allocated; nesting is bounded by WU_BUFFER_MAX_DEPTH. Hostile input never
 * crashes, hangs nor allocates more than a small multiple of its own size. */
#ifndef WU_OBFR_H
#define WU_OBFR_H

#include "pmix/common/wu_buffer.h"

/* OpenPMIx's buffer types, as its peers announce them in the handshake. */
#define WU_OBFR_NON_DESC   1
#define WU_OBFR_FULLY_DESC 2

/* OpenPMIx's command numbers (pmix_cmd_t, the first field of every request) that Wireup's
 * server answers and its client sends. */
enum {
    WU_OCMD_REQ = 0,
    WU_OCMD_ABORT = 1,
    WU_OCMD_COMMIT = 2,
    WU_OCMD_FENCE = 3,
    WU_OCMD_GET = 4,
    WU_OCMD_FINALIZE = 5,
    WU_OCMD_PUBLISH = 6,
    WU_OCMD_LOOKUP = 7,
    WU_OCMD_UNPUBLISH = 8,
    WU_OCMD_SPAWN = 9,
    WU_OCMD_CONNECT = 10,
    WU_OCMD_DISCONNECT = 11,
    WU_OCMD_NOTIFY = 12,
    WU_OCMD_REGEVENTS = 13,
    WU_OCMD_DEREGEVENTS = 14,
    WU_OCMD_QUERY = 15,
    WU_OCMD_LOG = 16,
    WU_OCMD_JOB_CONTROL = 18,
    WU_OCMD_MONITOR = 19,
    WU_OCMD_GET_CRED = 20,
    WU_OCMD_VALIDATE_CRED = 21,
    WU_OCMD_GROUP_CONSTRUCT = 24,
    WU_OCMD_GROUP_DESTRUCT = 28,
    WU_OCMD_HEARTBEAT = 255 /* not a command: a heartbeat, whose reply is not sent */
};

/* A KVAL: a key and a value (OpenPMIx's pmix_kval_t, whose value is a pointer). */
typedef struct wu_obfr_kval {
    char *key;           /* malloc'd */
    pmix_value_t *value; /* malloc'd; its content owned too */
} wu_obfr_kval_t;

/* A nested buffer (PMIX_BUFFER): its buffer type byte and its raw content. */
typedef struct wu_obfr_nested {
    uint8_t btype;
    pmix_byte_object_t bytes; /* malloc'd */
} wu_obfr_nested_t;

/* Append n elements of type t from the array src as one pack call. PMIX_SUCCESS,
 * PMIX_ERR_BAD_PARAM, PMIX_ERR_NOT_SUPPORTED (type), PMIX_ERR_PACK_FAILURE, PMIX_ERR_NOMEM; on
 * error the buffer's content is unchanged. */
int wu_obfr_pack(wu_buffer_t *b, int btype, const void *src, int32_t n, pmix_data_type_t t);

/* Read one pack call's elements into dst, which has room for *n elements of type t; *n is set
 * to the number read. Errors as wu_unpack (PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER when nothing
 * or too little is left, PMIX_ERR_TYPE_MISMATCH for a fully described buffer whose tag names
 * another type, PMIX_ERR_UNPACK_INADEQUATE_SPACE with *n the count, PMIX_ERR_UNPACK_FAILURE
 * for corrupt data). */
int wu_obfr_unpack(wu_buffer_t *b, int btype, void *dst, int32_t *n, pmix_data_type_t t);

/* "A list of X" as OpenPMIx's commands send it: one call SIZE n, then, only if n > 0, one call
 * with the n elements. unpack_list allocates *arr (NULL when n is 0; free the elements with
 * wu_obfr_free and the array with free). */
int wu_obfr_pack_list(wu_buffer_t *b, int btype, const void *arr, size_t n, pmix_data_type_t t);
int wu_obfr_unpack_list(wu_buffer_t *b, int btype, void **arr, size_t *n, pmix_data_type_t t);

/* Release what n elements of type t own (not the array itself); KVAL and BUFFER included. */
void wu_obfr_free(void *arr, size_t n, pmix_data_type_t t);

/* One element without the call's count (and tags): for composing nested buffers such as
 * the byte objects of a GET reply. */
int wu_obfr_pack_one(wu_buffer_t *b, int btype, const void *elem, pmix_data_type_t t);
int wu_obfr_unpack_one(wu_buffer_t *b, int btype, void *elem, pmix_data_type_t t);

#endif /* WU_OBFR_H */
