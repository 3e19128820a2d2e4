/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_ompi_help.c -- the strings of an Open MPI show_help relay (format in wu_ompi_help.h). */
#include "pmix/common/wu_ompi_help.h"
#include "opal/util/wu_error.h"

#include <stdint.h>
#include <string.h>

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

size_t wu_ompi_help_strings(const pmix_byte_object_t *bo, const char **out, size_t max)
{
    const unsigned char *p;
    size_t pos = 0, size, n = 0;
    if (NULL == bo || NULL == bo->bytes) {
        return 0;
    }
    p = (const unsigned char *)bo->bytes;
    size = bo->size;
    while (pos + 4 <= size && n < max) {
        uint32_t len;
        if (1 != be32(p + pos)) {
            break; /* not a (count 1, value) field: the end of what we understand */
        }
        pos += 4;
        if (pos + 4 <= size && (len = be32(p + pos)) > 0 && len <= size - pos - 4 &&
            '\0' == p[pos + 4 + len - 1] && strlen((const char *)p + pos + 4) == len - 1) {
            out[n++] = (const char *)p + pos + 4;
            pos += 4 + len;
        } else {
            pos += 1; /* a one-byte value */
        }
    }
    return n;
}

size_t wu_ompi_help_item(const pmix_info_t *item, const char **out, size_t max)
{
    if (NULL == item || !PMIX_CHECK_KEY(item, PMIX_LOG_MSG) ||
        PMIX_BYTE_OBJECT != item->value.type) {
        return 0;
    }
    return wu_ompi_help_strings(&item->value.data.bo, out, max);
}

int wu_ompi_help_render(const pmix_info_t *item, const char **text, void *ctx)
{
    const char *str[4];
    size_t n = wu_ompi_help_item(item, str, 4);
    (void)ctx;
    if (0 == n) {
        return WU_ERR_NOT_SUPPORTED;
    }
    *text = str[n - 1]; /* the rendered text comes last */
    return WU_SUCCESS;
}
