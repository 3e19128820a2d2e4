/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_info.c -- PMIx_Info_load and PMIx_Info_xfer: an info is a key, directive flags and a value.
 *
 * As in OpenPMIx 4.2: loading resets the flags (so it also clears PMIX_INFO_ARRAY_END on the last
 * element of a PMIX_INFO_CREATE array), keys longer than PMIX_MAX_KEYLEN are truncated, and a
 * transfer copies the flags; a source marked PMIX_INFO_PERSISTENT lends its value (shallow copy)
 * instead of duplicating it; the copies the library keeps (wu_info_copy, wu_info_dup) are always
 * deep. Also the lookups every role makes in the info arrays it is given,
 * and the programming-model declaration a client makes in PMIx_Init.
 */
#include <stdlib.h>
#include <string.h>

#include "pmix_common.h"

#include "pmix/common/wu_value.h"

PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data,
                                         pmix_data_type_t type)
{
    if (NULL == info || NULL == key) {
        return PMIX_ERR_BAD_PARAM;
    }
    memset(info->key, 0, sizeof(info->key));
    memcpy(info->key, key, strnlen(key, PMIX_MAX_KEYLEN));
    info->flags = 0;
    /* a NULL datum with PMIX_BOOL loads "true" (the value loader handles it) */
    return PMIx_Value_load(&info->value, data, type);
}

static void key_copy(pmix_info_t *dest, const pmix_info_t *src)
{
    if (dest != src) {
        memcpy(dest->key, src->key, sizeof(dest->key));
    }
    dest->key[PMIX_MAX_KEYLEN] = '\0';
}

PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src)
{
    if (NULL == dest || NULL == src || 0 == (src->flags & PMIX_INFO_PERSISTENT)) {
        return wu_info_copy(dest, src);
    }
    key_copy(dest, src);
    dest->flags = src->flags;
    dest->value = src->value; /* the owner keeps the value alive */
    return PMIX_SUCCESS;
}

pmix_status_t wu_info_copy(pmix_info_t *dest, const pmix_info_t *src)
{
    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    key_copy(dest, src);
    /* the copy owns its value, whatever the source's flags say (callers' arrays made with
     * malloc, as python3-pmix's are, may carry any bits there) */
    dest->flags = src->flags & ~(pmix_info_directives_t)PMIX_INFO_PERSISTENT;
    return PMIx_Value_xfer(&dest->value, &src->value);
}

const pmix_info_t *wu_info_find(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; NULL != info && i < n; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return &info[i];
        }
    }
    return NULL;
}

bool wu_info_flag(const pmix_info_t *info, size_t n, const char *key)
{
    const pmix_info_t *i = wu_info_find(info, n, key);
    return NULL != i && PMIX_INFO_TRUE(i);
}

pmix_status_t wu_info_dup(pmix_info_t **dst, size_t *ndst, const pmix_info_t *src, size_t n)
{
    pmix_status_t rc = PMIX_SUCCESS;
    *dst = NULL;
    *ndst = 0;
    if (NULL == src || 0 == n) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(*dst, n);
    if (NULL == *dst) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = wu_info_copy(&(*dst)[i], &src[i]);
    }
    if (PMIX_SUCCESS != rc) {
        PMIX_INFO_FREE(*dst, n);
        *dst = NULL;
        return rc;
    }
    *ndst = n;
    return PMIX_SUCCESS;
}

bool wu_key_ok(const char *key)
{
    return NULL != key && '\0' != key[0] && strnlen(key, PMIX_MAX_KEYLEN + 1) <= PMIX_MAX_KEYLEN;
}

pmix_status_t wu_value_info_array(pmix_info_t *info, size_t n, pmix_value_t **out)
{
    pmix_value_t *v = calloc(1, sizeof *v);
    if (NULL == v || NULL == (v->data.darray = calloc(1, sizeof(pmix_data_array_t)))) {
        free(v);
        if (NULL != info) {
            PMIX_INFO_FREE(info, n);
        }
        *out = NULL;
        return PMIX_ERR_NOMEM;
    }
    v->type = PMIX_DATA_ARRAY;
    v->data.darray->type = PMIX_INFO;
    v->data.darray->array = info;
    v->data.darray->size = n;
    *out = v;
    return PMIX_SUCCESS;
}

bool wu_proc_data_rank(const pmix_info_t *a, size_t n, pmix_rank_t *rank)
{
    const pmix_value_t *v;
    if (n < 1 || 0 != strncmp(a[0].key, PMIX_RANK, PMIX_MAX_KEYLEN)) {
        return false;
    }
    v = &a[0].value;
    switch (v->type) {
    case PMIX_PROC_RANK:
        *rank = v->data.rank;
        break;
    case PMIX_UINT32:
        *rank = v->data.uint32;
        break;
    case PMIX_UINT16:
        *rank = v->data.uint16;
        break;
    case PMIX_INT:
        if (v->data.integer < 0) {
            return false;
        }
        *rank = (pmix_rank_t)v->data.integer;
        break;
    default:
        return false;
    }
    return PMIX_RANK_IS_VALID(*rank);
}

size_t wu_model_event_info(const pmix_info_t *info, size_t n, pmix_info_t **out)
{
    static const char *const keys[] = {PMIX_PROGRAMMING_MODEL, PMIX_MODEL_LIBRARY_NAME,
                                       PMIX_MODEL_LIBRARY_VERSION, PMIX_THREADING_MODEL};
    const size_t nkeys = sizeof keys / sizeof keys[0];
    const pmix_info_t *found[sizeof keys / sizeof keys[0]];
    pmix_info_t *ev;
    size_t m = 0;
    bool yes = true;

    *out = NULL;
    for (size_t k = 0; k < nkeys; k++) {
        if (NULL != (found[m] = wu_info_find(info, n, keys[k]))) {
            m++;
        }
    }
    if (0 == m) {
        return 0;
    }
    PMIX_INFO_CREATE(ev, m + 1);
    if (NULL == ev) {
        return 0;
    }
    for (size_t i = 0; i < m; i++) {
        if (PMIX_SUCCESS != wu_info_copy(&ev[i], found[i])) {
            PMIX_INFO_FREE(ev, m + 1);
            return 0;
        }
    }
    PMIx_Info_load(&ev[m], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
    *out = ev;
    return m + 1;
}
