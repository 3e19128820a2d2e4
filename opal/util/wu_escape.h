/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_escape.h -- printable, bounded forms of text that came from another process.
 *
 * Text a peer sent (a protocol version, a namespace, a path, an abort message) must never reach
 * the user's terminal raw: an escape sequence could clear the screen or rewrite earlier lines,
 * and a newline could forge a line of our own ("job completed successfully"). wu_str_escape()
 * renders such text in a C-like escaped form in which every byte is visible:
 *
 *     printable ASCII (0x20-0x7e)   copied, except '\' which becomes "\\"
 *     newline, carriage return, tab "\n", "\r", "\t"
 *     any other byte                "\xHH" (two lowercase hex digits)
 *
 * so "v1\033[2J\nok" is shown as "v1\x1b[2J\nok". Text longer than a bound is cut, and the cut
 * is marked with "...". Flags relax the rules for text that legitimately spans lines or uses
 * other scripts (an authenticated client's abort message): WU_ESC_KEEP_NL lets newline and tab
 * through, WU_ESC_KEEP_UTF8 lets well-formed UTF-8 through except control and bidirectional
 * formatting characters. */
#ifndef WU_ESCAPE_H
#define WU_ESCAPE_H

#include "opal/util/wu_macros.h"

#include <stddef.h>

/* Flags of wu_str_escape() and wu_str_escape_dup(). */
#define WU_ESC_KEEP_NL   0x1u /* newline and tab pass unchanged */
#define WU_ESC_KEEP_UTF8 0x2u /* well-formed UTF-8 of printable characters passes unchanged */

/* Input bound that suits one-line items of peer text (versions, modes, names). */
#define WU_ESC_SHORT 64

/* Render the NUL-terminated string in (NULL: "(null)") into out, outlen bytes, always
 * NUL-terminated when outlen > 0. At most max bytes of in are rendered (in is never read past
 * its NUL); when in is longer, or its rendering does not fit in out, the rendering is cut at a
 * character boundary and ends in "..." (cut further when outlen < 4). Returns out. */
WU_EXPORT char *wu_str_escape(const char *in, size_t max, char *out, size_t outlen, unsigned flags);

/* The same into a malloc'd string of the size needed (the caller frees); NULL when out of
 * memory. */
WU_EXPORT char *wu_str_escape_dup(const char *in, size_t max, unsigned flags);

#endif
