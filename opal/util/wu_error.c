/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_error.c -- names and messages for the Wireup status table. */
#include "opal/util/wu_error.h"

#include <errno.h>
#include <stdio.h>

const char *wu_status_name(int status)
{
    switch (status) {
#define WU_STATUS_NAME(n, v, m) \
    case (v):                   \
        return "WU_" #n;
        WU_STATUS_MAP(WU_STATUS_NAME)
#undef WU_STATUS_NAME
    default:
        return "WU_UNKNOWN_STATUS";
    }
}

const char *wu_strerror(int status)
{
    switch (status) {
#define WU_STATUS_MSG(n, v, m) \
    case (v):                  \
        return m;
        WU_STATUS_MAP(WU_STATUS_MSG)
#undef WU_STATUS_MSG
    default:
        return "unknown status";
    }
}

void wu_error_log(int status, const char *file, int line)
{
#if WU_ENABLE_DEBUG
    fprintf(stderr, "wireup: %s (%d) at %s:%d\n", wu_status_name(status), status, file, line);
#else
    (void)status;
    (void)file;
    (void)line;
#endif
}

int wu_status_from_errno(int e)
{
    switch (e) {
    case ENOENT:
        return WU_ERR_NOT_FOUND;
    case EACCES:
    case EPERM:
    case EROFS:
        return WU_ERR_NO_PERMISSIONS;
    case ENOMEM:
        return WU_ERR_NOMEM;
    case EEXIST:
    case ENOTEMPTY:
        return WU_ERR_EXISTS;
    case ETIMEDOUT:
        return WU_ERR_TIMEOUT;
    case EINVAL:
        return WU_ERR_BAD_PARAM;
    default:
        return WU_ERR_SYS;
    }
}
