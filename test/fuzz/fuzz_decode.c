/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_decode.c -- fuzz target for the wire decoder (pmix/common/wu_unpack.c and the wu_proto.h
 * readers built on it). libFuzzer calls LLVMFuzzerTestOneInput; replay.c calls the same entry
 * point for the seeds in test/fuzz/corpus/decode/ under make check.
 *
 * Input: byte 0 picks the reader, byte 1 the PMIx data type (an index into the types of
 * pack_samples.h; for the readers of OpenPMIx's serialization, pmix/common/wu_obfr.h, into
 * obfr_types below), the rest is the buffer. The reader is applied until it fails or the buffer
 * is used up; whatever decodes is then checked for what a consumer does with it: it re-encodes
 * (and that encoding decodes again), it prints, it copies and it releases without a leak. Any
 * broken promise aborts, so libFuzzer reports it with the input. */
#include "pmix.h"
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_obfr_int.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "test/fuzz/fuzz.h"
#include "test/unit/pmix/pack_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMAX 4 /* elements asked for per wu_unpack call */

static void fail(const char *what, pmix_data_type_t t, int rc)
{
    fprintf(stderr, "fuzz_decode: %s (type %s): %s\n", what, PMIx_Data_type_string(t),
            PMIx_Error_string(rc));
    abort();
}

/* What a consumer does with n decoded elements of type t; releases them (not the array). */
static void consume(void *elems, size_t n, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);
    wu_buffer_t x;
    void *again;
    int32_t m = (int32_t)n;
    int rc;

    /* what was accepted encodes again, and that encoding decodes */
    wu_buffer_construct(&x);
    if (PMIX_SUCCESS != (rc = wu_pack(&x, elems, (int32_t)n, t))) {
        fail("decoded data does not encode again", t, rc);
    }
    if (NULL == (again = calloc(n, sz))) {
        abort();
    }
    if (PMIX_SUCCESS != (rc = wu_unpack(&x, again, &m, t)) || (size_t)m != n ||
        0 != wu_buffer_remaining(&x)) {
        fail("re-encoded data does not decode", t, rc);
    }
    wu_data_elems_destruct(again, n, t);
    free(again);
    wu_buffer_destruct(&x);
    for (size_t i = 0; i < n; i++) {
        char *e = (char *)elems + i * sz, *out = NULL;
        void *copy = NULL;
        if (PMIX_SUCCESS != (rc = PMIx_Data_print(&out, "> ", e, t)) || NULL == out) {
            fail("decoded data does not print", t, rc);
        }
        free(out);
        if (PMIX_SUCCESS == PMIx_Data_copy(&copy, e, t)) {
            wu_data_elems_destruct(copy, 1, t);
            free(copy);
        }
        wu_data_elems_destruct(e, 1, t);
    }
}

static void read_unpack(wu_buffer_t *b, pmix_data_type_t t)
{
    size_t sz = wu_data_elem_size(t);
    void *dst = calloc(NMAX, sz);
    int32_t n;

    do {
        n = NMAX;
        if (PMIX_SUCCESS != wu_unpack(b, dst, &n, t)) {
            break;
        }
        consume(dst, (size_t)n, t);
    } while (n > 0 && wu_buffer_remaining(b) > 0);
    free(dst);
}

static void read_list(wu_buffer_t *b, pmix_data_type_t t)
{
    void *arr;
    size_t n;

    while (wu_buffer_remaining(b) > 0 && PMIX_SUCCESS == wu_proto_unpack_list(b, &arr, &n, t)) {
        consume(arr, n, t);
        free(arr);
    }
}

static void read_blob(wu_buffer_t *b)
{
    pmix_proc_t proc;
    pmix_info_t *info;
    size_t n;

    while (PMIX_SUCCESS == wu_proto_blob_next(b, &proc, &info, &n)) {
        consume(&proc, 1, PMIX_PROC);
        consume(info, n, PMIX_INFO);
        free(info);
    }
}

/* the public API's view: PMIx_Data_unpack on a pmix_data_buffer_t */
static void read_public(const uint8_t *p, size_t len, pmix_data_type_t t)
{
    pmix_data_buffer_t pb;
    size_t sz = wu_data_elem_size(t);
    void *dst = calloc(NMAX, sz);
    int32_t n;

    PMIX_DATA_BUFFER_CONSTRUCT(&pb);
    pb.base_ptr = pb.unpack_ptr = (char *)p;
    pb.pack_ptr = (char *)p + len;
    pb.bytes_allocated = pb.bytes_used = len;
    do {
        n = NMAX;
        if (PMIX_SUCCESS != PMIx_Data_unpack(NULL, &pb, dst, &n, t)) {
            break;
        }
        consume(dst, (size_t)n, t);
    } while (n > 0);
    free(dst);
    /* the bytes are the caller's: take them back before the buffer frees them */
    pb.base_ptr = NULL;
    PMIX_DATA_BUFFER_DESTRUCT(&pb);
}

static void read_bo_view(wu_buffer_t *b)
{
    pmix_byte_object_t bo;
    size_t mark = b->rpos;

    while (PMIX_SUCCESS == wu_unpack_bo_view(b, &bo)) {
        if (b->rpos <= mark ||
            (bo.size > 0 && (bo.bytes < b->base || bo.bytes + bo.size > b->base + b->rpos))) {
            fail("byte object view outside its buffer", PMIX_BYTE_OBJECT, PMIX_ERROR);
        }
        mark = b->rpos;
    }
}

/* the types the OBFR readers decode: the main ones of OpenPMIx's commands */
static const pmix_data_type_t obfr_types[] = {
    PMIX_INFO,   PMIX_VALUE,       PMIX_KVAL,    PMIX_PDATA,    PMIX_DATA_ARRAY,  PMIX_APP,
    PMIX_QUERY,  PMIX_PROC,        PMIX_STRING,  PMIX_BUFFER,   PMIX_BYTE_OBJECT, PMIX_SIZE,
    PMIX_STATUS, PMIX_PROC_INFO,   PMIX_ENVAR,   PMIX_GEOMETRY, PMIX_DEVICE_DIST, PMIX_ENDPOINT,
    PMIX_PID,    PMIX_FLOAT,       PMIX_DOUBLE,  PMIX_TIMEVAL,  PMIX_UINT,        PMIX_INT16,
    PMIX_UINT64, PMIX_PROC_NSPACE, PMIX_COMMAND, PMIX_BOOL};

/* what wu_obfr_unpack accepted encodes again, that decodes, and encodes the same again */
static void obfr_consume(void *elems, int32_t n, pmix_data_type_t t, int btype)
{
    size_t sz = wu_obfr_elem_size(t);
    void *again = calloc((size_t)n + 1, sz);
    int32_t m = n;
    wu_buffer_t x, y;
    int rc;

    wu_buffer_construct(&x);
    wu_buffer_construct(&y);
    if (NULL == again) {
        abort();
    }
    if (PMIX_SUCCESS != (rc = wu_obfr_pack(&x, btype, elems, n, t))) {
        fail("OpenPMIx data decoded does not encode again", t, rc);
    }
    if (PMIX_SUCCESS != (rc = wu_obfr_unpack(&x, btype, again, &m, t)) || m != n ||
        0 != wu_buffer_remaining(&x)) {
        fail("re-encoded OpenPMIx data does not decode", t, rc);
    }
    if (PMIX_SUCCESS != wu_obfr_pack(&y, btype, again, m, t) || x.used != y.used ||
        0 != memcmp(x.base, y.base, x.used)) {
        fail("re-encoded OpenPMIx data decodes to something else", t, PMIX_ERROR);
    }
    wu_obfr_free(again, (size_t)m, t);
    wu_obfr_free(elems, (size_t)n, t);
    free(again);
    wu_buffer_destruct(&x);
    wu_buffer_destruct(&y);
}

/* OpenPMIx's serialization: calls, or a list (SIZE then a call) when the type byte is odd */
static void read_obfr(wu_buffer_t *b, int btype, uint8_t sel)
{
    pmix_data_type_t t = obfr_types[sel % (sizeof(obfr_types) / sizeof(obfr_types[0]))];
    void *dst = calloc(NMAX, wu_obfr_elem_size(t));
    size_t mark;
    int32_t n;

    do {
        mark = b->rpos;
        if (sel & 0x80) {
            void *arr;
            size_t k;
            if (PMIX_SUCCESS != wu_obfr_unpack_list(b, btype, &arr, &k, t)) {
                break;
            }
            obfr_consume(arr, (int32_t)k, t, btype);
            free(arr);
            continue;
        }
        n = NMAX;
        if (PMIX_SUCCESS != wu_obfr_unpack(b, btype, dst, &n, t)) {
            break;
        }
        obfr_consume(dst, n, t, btype);
    } while (b->rpos > mark && wu_buffer_remaining(b) > 0);
    if (b->rpos < mark) {
        fail("OpenPMIx reader moved the cursor back", t, PMIX_ERROR);
    }
    free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmix_data_type_t t;
    wu_buffer_t b;
    char *copy;

    if (size < 2) {
        return 0;
    }
    t = sample_types[data[1] % N_SAMPLE_TYPES];
    /* the buffer in a block of exactly its size: ASan sees any read past its end */
    if (NULL == (copy = malloc(size - 2 > 0 ? size - 2 : 1))) {
        return 0;
    }
    memcpy(copy, data + 2, size - 2);
    wu_buffer_construct(&b);
    b.base = copy;
    b.used = b.cap = size - 2;
    switch (data[0] % FZ_RD_MAX) {
    case FZ_RD_UNPACK:
        read_unpack(&b, t);
        break;
    case FZ_RD_LIST:
        read_list(&b, t);
        break;
    case FZ_RD_BLOB:
        read_blob(&b);
        break;
    case FZ_RD_PUBLIC:
        read_public((const uint8_t *)copy, b.used, t);
        break;
    case FZ_RD_OBFR_ND:
    case FZ_RD_OBFR_FD:
        read_obfr(&b, FZ_RD_OBFR_ND == data[0] % FZ_RD_MAX ? WU_OBFR_NON_DESC : WU_OBFR_FULLY_DESC,
                  data[1]);
        break;
    default:
        read_bo_view(&b);
        break;
    }
    if (b.rpos > b.used) {
        fail("read cursor past the end", t, PMIX_ERROR);
    }
    free(copy);
    return 0;
}
