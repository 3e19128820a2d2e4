/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_keyval.h -- parser for MCA parameter files ("key = value" lines).
 *
 * Format, one setting per line:
 *   - "key = value"; spaces around '=' are optional ("key=value" works). The key is everything
 *     before the first '=', the value everything after it; both are trimmed of surrounding
 *     white space. The value may be empty and may contain '=' and '#'.
 *   - A key is made of [A-Za-z0-9_.-] only.
 *   - Comments are whole lines whose first non-blank character is '#'. A '#' after a value is
 *     part of the value ("a = x # y" sets a to "x # y"): parameter values such as colour codes
 *     or regular expressions may contain '#', and there is no quoting to protect them.
 *   - No quoting and no escapes: quotes are part of the value (a = "x" sets a to "x" with the
 *     quotes).
 *   - Blank lines are ignored; LF and CRLF line endings are both accepted; the last line needs
 *     no newline; lines may be of any length; a UTF-8 byte order mark at the start is skipped.
 * A malformed line (no '=', empty key, key with white space or other characters outside the
 * set above, a NUL byte) is reported and skipped; parsing goes on with the next line. Line
 * numbers count from 1.
 *
 * Reporting: through the warn callback set with wu_keyval_set_warn, or, when none is set, on
 * stderr as "FILE:LINE: <what is wrong>; line ignored". */
#ifndef WU_KEYVAL_H
#define WU_KEYVAL_H

#include "opal/util/wu_macros.h"

/* Called once per setting, in file order. key and value are valid only during the call. file is
 * the path (or name_for_messages), line the 1-based line number, ctx the caller's pointer. */
typedef void (*wu_keyval_fn_t)(const char *key, const char *value, const char *file, int line,
                               void *ctx);

/* Called once per malformed line. msg says what is wrong (without "line ignored"); ctx is the
 * ctx passed to the parse call. */
typedef void (*wu_keyval_warn_fn_t)(const char *file, int line, const char *msg, void *ctx);

/* Parse the file at path, calling fn for every setting.
 * WU_SUCCESS (also when lines were malformed: they are reported, not fatal),
 * WU_ERR_NOT_FOUND (the file does not exist: not an error for callers, parameter files are
 * optional), WU_ERR_NO_PERMISSIONS (not readable), WU_ERR_BAD_PARAM (path or fn NULL, path is a
 * directory), WU_ERR_NOMEM, WU_ERR_SYS (a read error; settings before it were delivered). */
int wu_keyval_parse(const char *path, wu_keyval_fn_t fn, void *ctx);

/* Parse a NUL-terminated string in the same format. name_for_messages is passed to fn and used
 * in messages (NULL: "<string>"). WU_SUCCESS, WU_ERR_BAD_PARAM (text or fn NULL),
 * WU_ERR_NOMEM. */
int wu_keyval_parse_string(const char *text, const char *name_for_messages, wu_keyval_fn_t fn,
                           void *ctx);

/* Set (or with NULL, clear) the process-wide warn callback used by later parse calls.
 * Setting it is atomic, but a parse running in another thread may still use the old one. */
void wu_keyval_set_warn(wu_keyval_warn_fn_t warn);

#endif
