/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_value.h -- internal deep-copy and release helpers behind PMIx_Value_* and PMIx_Info_*.
 *
 * Every PMIx data type that can sit in a pmix_data_array_t has an element size, a deep copy and a
 * destructor here; the public value/info functions and the data-array code are built on them, so
 * that a value owning arrays of infos holding values holding arrays ... is copied and released
 * by one recursive walk. None of these symbols is exported from libpmix.so.2.
 */
#ifndef WU_VALUE_H
#define WU_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "opal/util/wu_macros.h"
#include "pmix.h"

/* Size of one element of type `t` in a pmix_data_array_t, or 0 if `t` cannot be an array
 * element (PMIX_UNDEF, removed or unknown types). */
size_t wu_data_elem_size(pmix_data_type_t t);

/* Deep-copy `n` elements of type `t` from `src` into `dst`, which must hold room for them and be
 * zeroed. Strings, byte objects, nested arrays, ... are duplicated; PMIX_POINTER elements are
 * copied as addresses. On error the elements copied so far are released and `dst` is zeroed.
 * Returns PMIX_SUCCESS, PMIX_ERR_NOMEM, PMIX_ERR_NOT_SUPPORTED (type without a copy rule, or a
 * cpuset/topology from a source other than hwloc) or PMIX_ERR_UNKNOWN_DATA_TYPE. */
pmix_status_t wu_data_elems_copy(void *dst, const void *src, size_t n, pmix_data_type_t t);

/* The node topology PMIx_Load_topology hands out is the library's, shared by its callers and
 * destroyed by the library (at the last PMIx_Finalize): wu_topo_lend records its address, and
 * releasing a PMIX_TOPO element that points at a topology lent (now or before) releases only
 * the element's source string. Any thread. */
void wu_topo_lend(const void *topology);
bool wu_topo_lent(const void *topology);

/* Release everything `n` elements of type `t` own (recursively), not the array itself, and zero
 * the elements. An info carrying PMIX_INFO_PERSISTENT keeps its value. Unknown types: no-op. */
void wu_data_elems_destruct(void *array, size_t n, pmix_data_type_t t);

/* Deep copy of a data array into a newly allocated one (*dst). NULL src gives *dst == NULL. */
pmix_status_t wu_darray_dup(pmix_data_array_t **dst, const pmix_data_array_t *src);

/* Release the elements of `d` and its array, leaving `d` empty (type kept undefined). */
void wu_darray_destruct(pmix_data_array_t *d);

/* A deep copy of one info into dest (constructed or destructed), also of a source marked
 * PMIX_INFO_PERSISTENT, which PMIx_Info_xfer copies shallow: what the library keeps beyond a
 * call is copied with this. PMIX_SUCCESS, PMIX_ERR_BAD_PARAM, PMIX_ERR_NOMEM. */
pmix_status_t wu_info_copy(pmix_info_t *dest, const pmix_info_t *src);
/* The first info of `n` (info may be NULL) whose key is `key`, or NULL. */
const pmix_info_t *wu_info_find(const pmix_info_t *info, size_t n, const char *key);
/* Is `key` among the `n` infos, with a value that reads as true (PMIX_INFO_TRUE)? */
bool wu_info_flag(const pmix_info_t *info, size_t n, const char *key);
/* A deep copy of n infos (*dst NULL and *ndst 0 for none, or on failure): PMIX_SUCCESS,
 * PMIX_ERR_NOMEM. Freed with PMIX_INFO_FREE(*dst, *ndst). */
pmix_status_t wu_info_dup(pmix_info_t **dst, size_t *ndst, const pmix_info_t *src, size_t n);
/* The infos of a PMIX_MODEL_DECLARED event for the programming model declared among info
 * (PMIX_PROGRAMMING_MODEL, PMIX_MODEL_LIBRARY_NAME, PMIX_MODEL_LIBRARY_VERSION,
 * PMIX_THREADING_MODEL; the first of each, copied), followed by PMIX_EVENT_NON_DEFAULT (the
 * event is for the handlers registered for it, as in OpenPMIx): their count, the array in *out
 * (PMIX_INFO_FREE). 0 and NULL when none is declared (or out of memory). */
size_t wu_model_event_info(const pmix_info_t *info, size_t n, pmix_info_t **out);
/* Can `key` name an info: not NULL, not empty, at most PMIX_MAX_KEYLEN characters? */
bool wu_key_ok(const char *key);
/* A new value holding info (n items, taken over: freed here on failure) as a PMIX_DATA_ARRAY of
 * PMIX_INFO, the answer of a Get of all of a process's data. PMIX_ERR_NOMEM. */
pmix_status_t wu_value_info_array(pmix_info_t *info, size_t n, pmix_value_t **out);
/* The rank a PMIX_PROC_DATA array (n items) is about: its first item, PMIX_RANK, as a
 * PMIX_PROC_RANK, PMIX_UINT32, PMIX_UINT16 or non-negative PMIX_INT; false if there is none or
 * it is not a valid rank. Exported: gds/shmem, a component, reads it too. */
WU_EXPORT bool wu_proc_data_rank(const pmix_info_t *a, size_t n, pmix_rank_t *rank);

/* Load an info with a value of a fixed-width type (the job-data tables of the client's singleton
 * and of the launcher's registration are long lists of these). */
static inline void wu_info_u32(pmix_info_t *i, const char *key, uint32_t v)
{
    PMIx_Info_load(i, key, &v, PMIX_UINT32);
}

static inline void wu_info_u16(pmix_info_t *i, const char *key, uint16_t v)
{
    PMIx_Info_load(i, key, &v, PMIX_UINT16);
}

static inline void wu_info_rank(pmix_info_t *i, const char *key, pmix_rank_t v)
{
    PMIx_Info_load(i, key, &v, PMIX_PROC_RANK);
}

#endif
