/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_pack_int.h -- tables shared by the encoder (wu_pack.c) and decoder (wu_unpack.c). */
#ifndef WU_PACK_INT_H
#define WU_PACK_INT_H

#include "pmix/common/wu_pack.h"

/* Wire width (1, 2, 4, 8) of the fixed-size integer-like types, 0 for the others. */
int wu_pack_scalar_width(pmix_data_type_t t);

/* A lower bound of the encoded size of one element of type t (0: unknown type). The decoder
 * refuses counts that could not fit in the bytes left, before allocating for them. */
size_t wu_pack_min_wire(pmix_data_type_t t);

/* True for the types pmix_value_t holds through a pointer member (data.proc, data.darray...). */
bool wu_pack_value_is_ptr(pmix_data_type_t t);

/* True when a cpuset/topology source names hwloc: the only kind whose data can travel (and the
 * only kind the element destructor of wu_value.h releases). */
bool wu_pack_is_hwloc(const char *source);

/* FNV-1a hash of n bytes: the integrity check sent after a topology's XML, because hwloc's XML
 * importer can crash on corrupt input. It catches damage, not a hostile peer (peers are
 * authenticated at connection time). */
uint32_t wu_pack_hash(const void *p, size_t n);

#endif /* WU_PACK_INT_H */
