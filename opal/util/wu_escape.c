/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_escape.c -- printable, bounded forms of peer-supplied text (see wu_escape.h).
 *
 * One renderer does both jobs: measuring (out NULL) and writing. The text is cut only between
 * the renderings of whole input characters, so a cut never leaves half an escape ("\x1") or
 * half a UTF-8 sequence behind. */
#include "opal/util/wu_escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char ellipsis[] = "...";

/* Length of the well-formed UTF-8 sequence at p (n bytes available) if it encodes a character
 * that is safe to show; 0 otherwise (malformed, overlong, a surrogate, a C1 control, a line or
 * paragraph separator, a bidirectional formatting character). */
static size_t utf8_ok(const unsigned char *p, size_t n)
{
    uint32_t cp;
    size_t k;

    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        k = 2;
        cp = p[0] & 0x1fu;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        k = 3;
        cp = p[0] & 0x0fu;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        k = 4;
        cp = p[0] & 0x07u;
    } else {
        return 0;
    }
    if (k > n) {
        return 0;
    }
    for (size_t i = 1; i < k; i++) {
        if (0x80 != (p[i] & 0xc0)) {
            return 0;
        }
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    if ((3 == k && cp < 0x800) || (4 == k && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0; /* overlong, out of range, surrogate */
    }
    if (cp < 0xa0 || 0x61c == cp || 0x2028 == cp || 0x2029 == cp ||
        (cp >= 0x200e && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069) || 0xfeff == cp) {
        return 0; /* C1 controls, separators, bidi controls, BOM */
    }
    return k;
}

/* Render in[0..n) into out (room bytes, no NUL written; out NULL: measure only), stopping
 * before the first character whose rendering does not fit. Returns the rendered length;
 * *used (may be NULL) is the number of input bytes rendered. */
static size_t render(const unsigned char *in, size_t n, unsigned flags, char *out, size_t room,
                     size_t *used)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, len = 0;

    while (i < n) {
        unsigned char c = in[i];
        char esc[4];
        const char *src = esc;
        size_t k = 1, w;

        if ('\\' == c) {
            esc[0] = esc[1] = '\\';
            w = 2;
        } else if (c >= 0x20 && c < 0x7f) {
            esc[0] = (char)c;
            w = 1;
        } else if (('\n' == c || '\t' == c) && 0 != (flags & WU_ESC_KEEP_NL)) {
            esc[0] = (char)c;
            w = 1;
        } else if ('\n' == c || '\t' == c || '\r' == c) {
            esc[0] = '\\';
            esc[1] = '\n' == c ? 'n' : '\t' == c ? 't' : 'r';
            w = 2;
        } else if (c >= 0x80 && 0 != (flags & WU_ESC_KEEP_UTF8) &&
                   0 != (k = utf8_ok(in + i, n - i))) {
            src = (const char *)in + i;
            w = k;
        } else {
            k = 1;
            esc[0] = '\\';
            esc[1] = 'x';
            esc[2] = hex[c >> 4];
            esc[3] = hex[c & 0xf];
            w = 4;
        }
        if (w > room - len) {
            break;
        }
        if (NULL != out) {
            memcpy(out + len, src, w);
        }
        len += w;
        i += k;
    }
    if (NULL != used) {
        *used = i;
    }
    return len;
}

char *wu_str_escape(const char *in, size_t max, char *out, size_t outlen, unsigned flags)
{
    const unsigned char *u;
    size_t n, len, room;
    bool longer;

    if (NULL == out || 0 == outlen) {
        return out;
    }
    if (NULL == in) {
        in = "(null)";
    }
    u = (const unsigned char *)in;
    n = strnlen(in, max);
    longer = n == max && '\0' != in[n]; /* in[n] exists: in[0..n) held no NUL */
    if (!longer && render(u, n, flags, NULL, SIZE_MAX, NULL) < outlen) {
        len = render(u, n, flags, out, outlen - 1, NULL);
    } else {
        /* cut: keep room for the ellipsis, then as much of it as fits */
        room = outlen - 1 > strlen(ellipsis) ? outlen - 1 - strlen(ellipsis) : 0;
        len = render(u, n, flags, out, room, NULL);
        for (const char *e = ellipsis; '\0' != *e && len < outlen - 1; e++) {
            out[len++] = *e;
        }
    }
    out[len] = '\0';
    return out;
}

char *wu_str_escape_dup(const char *in, size_t max, unsigned flags)
{
    const char *s = NULL == in ? "(null)" : in;
    size_t size = render((const unsigned char *)s, strnlen(s, max), flags, NULL, SIZE_MAX, NULL) +
                  sizeof ellipsis;
    char *out = malloc(size);
    return NULL == out ? NULL : wu_str_escape(in, max, out, size, flags);
}
