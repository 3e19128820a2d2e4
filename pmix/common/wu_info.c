/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_info.c -- PMIx_Info_load and PMIx_Info_xfer: an info is a key, directive flags and a value.
 *
 * As in OpenPMIx 4.2: loading resets the flags (so it also clears PMIX_INFO_ARRAY_END on the last
 * element of a PMIX_INFO_CREATE array), keys longer than PMIX_MAX_KEYLEN are truncated, and a
 * transfer copies the flags; a source marked PMIX_INFO_PERSISTENT lends its value (shallow copy)
 * instead of duplicating it. Also the lookups every role makes in the info arrays it is given.
 */
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

PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src)
{
    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (dest != src) {
        memcpy(dest->key, src->key, sizeof(dest->key));
    }
    dest->key[PMIX_MAX_KEYLEN] = '\0';
    dest->flags = src->flags;
    if (0 != (src->flags & PMIX_INFO_PERSISTENT)) {
        dest->value = src->value; /* the owner keeps the value alive */
        return PMIX_SUCCESS;
    }
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

bool wu_key_ok(const char *key)
{
    return NULL != key && '\0' != key[0] && strnlen(key, PMIX_MAX_KEYLEN + 1) <= PMIX_MAX_KEYLEN;
}
