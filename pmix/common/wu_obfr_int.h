/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_obfr_int.h -- what the encoder (wu_obfr_pack.c) and the decoder (wu_obfr_unpack.c) of
 * OpenPMIx's serialization share: the classification of the types and the wire bounds. */
#ifndef WU_OBFR_INT_H
#define WU_OBFR_INT_H

#include "pmix/common/wu_obfr.h"

#include <locale.h>

/* run one step unless an earlier one failed; rc holds the first error */
#define WU_STEP(expr) (void)(PMIX_SUCCESS == rc ? (rc = (expr)) : rc)

/* The type tag OpenPMIx writes before the pids of every PMIX_PID call, in both buffer types:
 * the unsigned type as wide as pid_t. */
#define WU_OBFR_PID_TAG PMIX_UINT32

/* Longest FLOAT/DOUBLE text accepted: "%f" of the largest double is 317 characters. */
#define WU_OBFR_REAL_MAX 400

/* An integer-like type: its width in memory (1, 2, 4 or 8 bytes), and in *zigzag whether the
 * wire maps it as a signed integer; 0 for the other types. One byte travels as it is, the wider
 * ones as flex128 varints. */
int wu_obfr_scalar(pmix_data_type_t t, bool *zigzag);

/* Size of one element of type t in a caller's array; 0 for a type this codec refuses. */
size_t wu_obfr_elem_size(pmix_data_type_t t);

/* Can a pmix_value_t holding type t travel (PMIX_UNDEF included)? */
bool wu_obfr_value_type_ok(pmix_data_type_t t);

/* A lower bound of the bytes one element of type t takes: counts read from the wire are
 * refused when that many elements could not fit in what is left, before anything is allocated.
 * 0 for a type this codec refuses. */
size_t wu_obfr_min_wire(pmix_data_type_t t);

/* The "C" numeric locale for the "%f" text of FLOAT and DOUBLE (a host that chose another
 * locale would write "1,500000" otherwise), or (locale_t)0 when it cannot be had. */
locale_t wu_obfr_c_locale(void);

#endif /* WU_OBFR_INT_H */
