/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_siphash.h -- SipHash-2-4 (Aumasson and Bernstein), a keyed 64-bit pseudo-random function:
 * the message authentication code of psec native's credentials. */
#ifndef WU_SIPHASH_H
#define WU_SIPHASH_H

#include "opal/util/wu_macros.h"

#include <stddef.h>
#include <stdint.h>

#define WU_SIPHASH_KEY_BYTES 16

/* SipHash-2-4 of the len bytes at data under the 16-byte key. */
WU_EXPORT uint64_t wu_siphash24(const unsigned char key[WU_SIPHASH_KEY_BYTES], const void *data,
                                size_t len);

#endif
