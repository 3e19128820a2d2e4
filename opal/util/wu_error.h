/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_error.h -- the one status type used inside Wireup.
 *
 * Status values are plain ints. Values that have a PMIx Standard meaning use the PMIx number
 * (so they can cross the public API unchanged); values that only make sense inside Wireup live
 * in a reserved range below WU_INTERNAL_ERR_BASE and must never escape a PMIx_* call.
 * One X-macro table generates the enum, the names and the messages so they cannot drift. */
#ifndef WU_ERROR_H
#define WU_ERROR_H

#include "opal/util/wu_macros.h"

#define WU_INTERNAL_ERR_BASE (-2000)

/* X(name, value, message): name is used as WU_<name>. */
#define WU_STATUS_MAP(X)                                                                  \
    X(SUCCESS, 0, "success")                                                              \
    X(ERROR, -1, "general error")                                                         \
    X(ERR_SILENT, -2, "error already reported")                                           \
    X(ERR_EXISTS, -11, "already exists")                                                  \
    X(ERR_UNKNOWN_DATA_TYPE, -16, "unknown data type")                                    \
    X(ERR_TYPE_MISMATCH, -18, "type mismatch")                                            \
    X(ERR_NO_PERMISSIONS, -23, "permission denied")                                       \
    X(ERR_TIMEOUT, -24, "timed out")                                                      \
    X(ERR_BAD_PARAM, -27, "bad parameter")                                                \
    X(ERR_RESOURCE_BUSY, -28, "resource busy")                                            \
    X(ERR_OUT_OF_RESOURCE, -29, "out of resources")                                       \
    X(ERR_INIT, -31, "not initialized or initialization failed")                          \
    X(ERR_NOMEM, -32, "out of memory")                                                    \
    X(ERR_NOT_FOUND, -46, "not found")                                                    \
    X(ERR_NOT_SUPPORTED, -47, "not supported")                                            \
    X(ERR_NOT_IMPLEMENTED, -48, "not implemented")                                        \
    X(ERR_EMPTY, -60, "empty")                                                            \
    X(ERR_TAKE_NEXT, WU_INTERNAL_ERR_BASE - 1, "module declined; try the next one")       \
    X(ERR_FATAL, WU_INTERNAL_ERR_BASE - 2, "fatal; stop selection")                       \
    X(ERR_NOT_AVAILABLE, WU_INTERNAL_ERR_BASE - 3, "component not available")             \
    X(ERR_VALUE_OUT_OF_BOUNDS, WU_INTERNAL_ERR_BASE - 4, "value out of bounds")           \
    X(ERR_BAD_FORMAT, WU_INTERNAL_ERR_BASE - 5, "malformed input")                        \
    X(ERR_INTERFACE_MISMATCH, WU_INTERNAL_ERR_BASE - 6, "incompatible interface version") \
    X(ERR_SYS, WU_INTERNAL_ERR_BASE - 7, "system call failed (see errno)")

enum {
#define WU_STATUS_ENUM(n, v, m) WU_##n = (v),
    WU_STATUS_MAP(WU_STATUS_ENUM)
#undef WU_STATUS_ENUM
};

/* "WU_ERR_NOT_FOUND" style name, or "WU_UNKNOWN_STATUS" */
const char *wu_status_name(int status);
/* Human-readable message for a status, never NULL. */
WU_EXPORT const char *wu_strerror(int status);

/* The status for a failed system call's errno: ENOENT -> NOT_FOUND; EACCES, EPERM, EROFS ->
 * NO_PERMISSIONS; ENOMEM -> NOMEM; EEXIST, ENOTEMPTY -> EXISTS; ETIMEDOUT -> TIMEOUT;
 * EINVAL -> BAD_PARAM; anything else -> WU_ERR_SYS. */
WU_EXPORT int wu_status_from_errno(int e);

/* Debug trace of an unexpected status with file/line (not user output). */
void wu_error_log(int status, const char *file, int line);
#define WU_ERROR_LOG(rc) wu_error_log((rc), __FILE__, __LINE__)

#endif
