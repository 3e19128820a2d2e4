/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz.h -- the input formats of the fuzz targets, shared by the targets and the seed
 * generator (fuzz_seeds.c). See fuzz_decode.c and fuzz_server.c for what they mean. */
#ifndef WU_FUZZ_H
#define WU_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* fuzz_decode: byte 0 (modulo FZ_RD_MAX) picks the reader, byte 1 the type; the OBFR readers
 * decode OpenPMIx's serialization (wu_obfr.h) of a non-described or fully described buffer */
enum {
    FZ_RD_UNPACK,
    FZ_RD_LIST,
    FZ_RD_BLOB,
    FZ_RD_PUBLIC,
    FZ_RD_BO_VIEW,
    FZ_RD_OBFR_ND,
    FZ_RD_OBFR_FD,
    FZ_RD_MAX
};

/* fuzz_server: frames are separated by FZ_SEP; a first byte FZ_RAW sends the rest unframed;
 * a first byte FZ_OPMIX speaks as a client on OpenPMIx's library: the next byte holds the
 * FZ_OX_* options, the frames after it are OpenPMIx request payloads (command first) */
#define FZ_SEP      "WUFZ"
#define FZ_RAW      0xffu
#define FZ_OPMIX    0xfeu
#define FZ_OX_FDESC 0x01u      /* fully described buffers (else non-described) */
#define FZ_OX_HELLO 0x02u      /* the first frame is the handshake's body, sent as it is */
#define FZ_OX_RANK  1          /* the rank the harness's own OpenPMIx handshakes name */
#define FZ_NS       "fuzz-job" /* the namespace the server registers: ranks 0-3, 0 and 1 local */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* WU_FUZZ_H */
