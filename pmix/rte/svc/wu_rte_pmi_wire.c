/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pmi_wire.c -- framing, parsing and writing of PMI-1 and PMI-2 messages (formats in
 * wu_rte_pmi_wire.h). Everything here works on bytes only, so the fuzz targets feed it
 * directly. */
#include "pmix/rte/svc/wu_rte_pmi_wire.h"
#include "opal/util/wu_error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- framing --------------------------------------------------------------------------------- */

/* The end (one past its '\n') of the line starting at p, or NULL when it has not come yet. */
static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return NULL == nl ? NULL : nl + 1;
}

static bool line_is(const char *p, const char *e, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(e - p) == n + 1 && 0 == memcmp(p, word, n);
}

/* A number after "key=" on the line [p, e), or -1. */
static long line_num(const char *p, const char *e, const char *key)
{
    size_t n = strlen(key);
    long v = 0;
    if ((size_t)(e - p) <= n + 1 || 0 != memcmp(p, key, n) || '=' != p[n]) {
        return -1;
    }
    for (p += n + 1; p < e - 1; p++) {
        if (*p < '0' || *p > '9' || v > 100000000) {
            return -1;
        }
        v = v * 10 + (*p - '0');
    }
    return v;
}

/* A v1 spawn: complete at the "endcmd" line closing the segment whose spawnssofar is its
 * totspawns. */
static ssize_t frame_mcmd(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len, *e;
    long tot = -1, sofar = -1;
    while (NULL != (e = line_end(p, end))) {
        long v;
        if (line_is(p, e, "endcmd")) {
            if (tot < 1 || sofar < 1 || sofar > tot) {
                return -1;
            }
            if (sofar == tot) {
                return e - buf > WU_PMI_MSG_MAX ? -1 : e - buf;
            }
            tot = sofar = -1;
        } else if ((v = line_num(p, e, "totspawns")) >= 0) {
            tot = v;
        } else if ((v = line_num(p, e, "spawnssofar")) >= 0) {
            sofar = v;
        }
        p = e;
    }
    return len > WU_PMI_MSG_MAX ? -1 : 0;
}

ssize_t wu_pmi_frame(const char *buf, size_t len, bool v2, wu_pmi_wire_t *wire)
{
    if (!v2) {
        const char *e;
        *wire = WU_PMI_V1;
        if (len >= 5 && 0 == memcmp(buf, "mcmd=", 5)) {
            return frame_mcmd(buf, len);
        }
        if (len >= 4 && 0 != memcmp(buf, "cmd=", 4)) {
            return -1;
        }
        if (len < 4 && 0 != memcmp(buf, "cmd=", len) && 0 != memcmp(buf, "mcmd=", len)) {
            return -1;
        }
        e = line_end(buf, buf + len);
        if (NULL == e) {
            return len >= WU_PMI_MSG_MAX ? -1 : 0;
        }
        return e - buf > WU_PMI_MSG_MAX ? -1 : e - buf;
    }
    /* v2: the length in six characters, digits with spaces before or after */
    *wire = WU_PMI_V2;
    size_t n = 0;
    bool digits = false, after = false;
    for (size_t i = 0; i < 6 && i < len; i++) {
        char c = buf[i];
        if (c >= '0' && c <= '9' && !after) {
            n = n * 10 + (size_t)(c - '0');
            digits = true;
        } else if (' ' == c) {
            after = digits;
        } else {
            return -1;
        }
    }
    if (len < 6) {
        return 0;
    }
    if (!digits || n < 5 || n + 6 > WU_PMI_MSG_MAX) {
        return -1;
    }
    return len >= n + 6 ? (ssize_t)(n + 6) : 0;
}

/* --- parsing --------------------------------------------------------------------------------- */

static int add_kv(wu_pmi_msg_t *m, size_t *cap, const char *key, const char *val)
{
    if (m->nkv == *cap) {
        size_t ncap = 0 == *cap ? 16 : 2 * *cap;
        wu_pmi_kv_t *kv;
        if (ncap > WU_PMI_KV_MAX) {
            return WU_ERR_BAD_PARAM;
        }
        if (NULL == (kv = realloc(m->kv, ncap * sizeof *kv))) {
            return WU_ERR_NOMEM;
        }
        m->kv = kv;
        *cap = ncap;
    }
    m->kv[m->nkv++] = (wu_pmi_kv_t){.key = key, .val = val};
    return WU_SUCCESS;
}

/* Undo a value's backslashes in place. */
static void unescape(char *v)
{
    char *w = v;
    for (; '\0' != *v; v++) {
        if ('\\' == *v && '\0' != v[1]) {
            v++;
        }
        *w++ = *v;
    }
    *w = '\0';
}

/* "key=value" words separated by sep (v1: ' ', v2: ';'), up to the end of s. v1 values take
 * the character after a backslash as it is. Returns WU_SUCCESS or an error. */
static int parse_words(wu_pmi_msg_t *m, size_t *cap, char *s, char sep, bool v2)
{
    int rc = WU_SUCCESS;
    while (WU_SUCCESS == rc) {
        char *key, *val = NULL;
        while (' ' == *s || (v2 && ';' == *s)) {
            s++;
        }
        if ('\0' == *s) {
            break;
        }
        key = s;
        while ('\0' != *s && '=' != *s && sep != *s && ' ' != *s) {
            s++;
        }
        if (s == key) {
            return WU_ERR_BAD_PARAM;
        }
        if ('=' == *s) {
            *s++ = '\0';
            val = s;
            while ('\0' != *s && sep != *s) {
                s += ('\\' == *s && !v2 && '\0' != s[1]) ? 2 : 1;
            }
            if (s == val && !v2) {
                /* "key=" with nothing: not PMI-1 (where MPICH's spawn, whose arguments may be
                 * empty strings, comes as mcmd lines); PMI-2 carries such an argument as
                 * "argvN=;" */
                return WU_ERR_BAD_PARAM;
            }
        }
        if ('\0' != *s) {
            *s++ = '\0';
        }
        if (0 == strcmp(key, "cmd")) {
            if (NULL == val || '\0' == *val || NULL != m->cmd) {
                return WU_ERR_BAD_PARAM;
            }
            m->cmd = val;
            continue;
        }
        if (v2 && 0 == strcmp(key, "subcmd")) {
            rc = add_kv(m, cap, NULL, NULL); /* a spawn's next command */
        }
        rc = WU_SUCCESS == rc ? add_kv(m, cap, key, val) : rc;
    }
    return rc;
}

/* v1 spawn: each line one attribute; "mcmd=spawn" opens a segment (a NULL key). */
static int parse_mcmd(wu_pmi_msg_t *m, size_t *cap, char *s)
{
    int rc = WU_SUCCESS;
    m->cmd = "spawn";
    while ('\0' != *s && WU_SUCCESS == rc) {
        char *nl = strchr(s, '\n'), *eq;
        if (NULL != nl) {
            *nl = '\0';
        }
        eq = strchr(s, '=');
        if ('\0' == *s) {
            /* an empty line: nothing */
        } else if (0 == strcmp(s, "mcmd=spawn")) {
            rc = add_kv(m, cap, NULL, NULL);
        } else if (NULL == eq) {
            rc = add_kv(m, cap, s, NULL); /* endcmd */
        } else if (eq == s) {
            rc = WU_ERR_BAD_PARAM;
        } else {
            *eq = '\0';
            unescape(eq + 1);
            rc = add_kv(m, cap, s, eq + 1);
        }
        if (NULL == nl) {
            break;
        }
        s = nl + 1;
    }
    return rc;
}

int wu_pmi_parse(char *buf, size_t len, wu_pmi_wire_t wire, wu_pmi_msg_t *m)
{
    size_t cap = 0;
    int rc;
    *m = (wu_pmi_msg_t){.wire = wire};
    if (0 == len || NULL != memchr(buf, '\0', len)) {
        return WU_ERR_BAD_PARAM;
    }
    if (WU_PMI_V2 == wire) {
        /* "      cmd=...;...;": the last ';' becomes the terminator */
        if (len < 7 || ';' != buf[len - 1]) {
            return WU_ERR_BAD_PARAM;
        }
        buf[len - 1] = '\0';
    }
    char *s = buf;
    if (WU_PMI_V1 == wire) {
        if ('\n' != buf[len - 1]) {
            return WU_ERR_BAD_PARAM;
        }
        buf[len - 1] = '\0';
        if (0 == strncmp(buf, "mcmd=", 5)) {
            rc = parse_mcmd(m, &cap, buf);
        } else if (NULL != strchr(buf, '\n')) {
            rc = WU_ERR_BAD_PARAM; /* one line only */
        } else {
            rc = parse_words(m, &cap, s, ' ', false);
        }
    } else {
        rc = parse_words(m, &cap, s + 6, ';', true);
    }
    if (WU_SUCCESS == rc && NULL == m->cmd) {
        rc = WU_ERR_BAD_PARAM;
    }
    if (WU_SUCCESS != rc) {
        wu_pmi_msg_free(m);
    }
    return rc;
}

void wu_pmi_msg_free(wu_pmi_msg_t *m)
{
    free(m->kv);
    *m = (wu_pmi_msg_t){.wire = m->wire};
}

const char *wu_pmi_find(const wu_pmi_msg_t *m, size_t from, const char *key)
{
    for (size_t i = from; i < m->nkv; i++) {
        if (NULL != m->kv[i].key && 0 == strcmp(m->kv[i].key, key)) {
            return m->kv[i].val;
        }
    }
    return NULL;
}

bool wu_pmi_find_long(const wu_pmi_msg_t *m, size_t from, const char *key, long lo, long hi,
                      long *out)
{
    const char *v = wu_pmi_find(m, from, key);
    char *end;
    long n;
    if (NULL == v || '\0' == *v) {
        return false;
    }
    errno = 0;
    n = strtol(v, &end, 10);
    if (0 != errno || '\0' != *end || n < lo || n > hi) {
        return false;
    }
    *out = n;
    return true;
}

/* --- writing --------------------------------------------------------------------------------- */

static void put(wu_pmi_out_t *o, const char *s, size_t n)
{
    if (o->failed) {
        return;
    }
    if (o->len + n + 1 > o->cap) {
        size_t ncap = o->cap < 256 ? 256 : o->cap;
        char *nb;
        while (ncap < o->len + n + 1) {
            ncap *= 2;
        }
        if (ncap > 2 * (size_t)WU_PMI_MSG_MAX || NULL == (nb = realloc(o->buf, ncap))) {
            o->failed = true;
            return;
        }
        o->buf = nb;
        o->cap = ncap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

void wu_pmi_out_begin(wu_pmi_out_t *o, wu_pmi_wire_t wire, const char *cmd)
{
    *o = (wu_pmi_out_t){.wire = wire};
    if (WU_PMI_V2 == wire) {
        put(o, "      ", 6);
    }
    put(o, "cmd=", 4);
    put(o, cmd, strlen(cmd));
    if (WU_PMI_V2 == wire) {
        put(o, ";", 1);
    }
}

void wu_pmi_out_add(wu_pmi_out_t *o, const char *key, const char *val)
{
    if (WU_PMI_V1 == o->wire) {
        put(o, " ", 1);
    }
    put(o, key, strlen(key));
    put(o, "=", 1);
    put(o, val, strlen(val));
    if (WU_PMI_V2 == o->wire) {
        put(o, ";", 1);
    }
}

void wu_pmi_out_addl(wu_pmi_out_t *o, const char *key, long val)
{
    char b[24];
    snprintf(b, sizeof b, "%ld", val);
    wu_pmi_out_add(o, key, b);
}

int wu_pmi_out_end(wu_pmi_out_t *o)
{
    if (WU_PMI_V1 == o->wire) {
        put(o, "\n", 1);
    }
    if (o->failed) {
        return WU_ERR_NOMEM;
    }
    if (o->len > WU_PMI_MSG_MAX) {
        return WU_ERR_BAD_PARAM;
    }
    if (WU_PMI_V2 == o->wire) {
        char b[8];
        snprintf(b, sizeof b, "%-6zu", o->len - 6);
        memcpy(o->buf, b, 6);
    }
    return WU_SUCCESS;
}

void wu_pmi_out_free(wu_pmi_out_t *o)
{
    free(o->buf);
    *o = (wu_pmi_out_t){.wire = o->wire};
}
