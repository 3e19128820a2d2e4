/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_keyval.c -- "key = value" parameter file parser (format in wu_keyval.h). */
#include "opal/util/wu_keyval.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* At most this many characters of a bad line are quoted in a message. */
#define EXCERPT_MAX 40

static wu_keyval_warn_fn_t warn_fn;

void wu_keyval_set_warn(wu_keyval_warn_fn_t warn)
{
    __atomic_store_n(&warn_fn, warn, __ATOMIC_RELEASE);
}

typedef struct {
    const char *file;
    wu_keyval_fn_t fn;
    void *ctx;
} parse_state_t;

static void report(const parse_state_t *st, int line, const char *msg)
{
    wu_keyval_warn_fn_t warn = __atomic_load_n(&warn_fn, __ATOMIC_ACQUIRE);
    if (NULL != warn) {
        warn(st->file, line, msg, st->ctx);
    } else {
        fprintf(stderr, "%s:%d: %s; line ignored\n", st->file, line, msg);
    }
}

/* A printable, bounded copy of s for messages: control bytes become '?', long text ends in
 * "...". out must hold EXCERPT_MAX + 4 bytes. */
static const char *excerpt(const char *s, char *out)
{
    size_t i;
    for (i = 0; '\0' != s[i] && i < EXCERPT_MAX; i++) {
        out[i] = isprint((unsigned char)s[i]) || (unsigned char)s[i] >= 0x80 ? s[i] : '?';
    }
    if ('\0' != s[i]) {
        memcpy(out + i, "...", 3);
        i += 3;
    }
    out[i] = '\0';
    return out;
}

static bool key_char_ok(unsigned char c)
{
    return isalnum(c) || '_' == c || '.' == c || '-' == c;
}

/* Handle one line (without its '\n'); line[len] is a NUL and the buffer may be modified. */
static void parse_line(const parse_state_t *st, char *line, size_t len, int lineno)
{
    char msg[2 * EXCERPT_MAX + 64], ex[EXCERPT_MAX + 4];
    char *text, *eq, *key, *value;

    if (strlen(line) != len) {
        report(st, lineno, "line contains a NUL byte");
        return;
    }
    if (1 == lineno && 0 == strncmp(line, "\xEF\xBB\xBF", 3)) {
        line += 3; /* UTF-8 byte order mark */
    }
    text = wu_string_trim(line); /* also drops the '\r' of a CRLF ending */
    if ('\0' == *text || '#' == *text) {
        return;
    }
    eq = strchr(text, '=');
    if (NULL == eq) {
        snprintf(msg, sizeof msg, "missing '=' in \"%s\"", excerpt(text, ex));
        report(st, lineno, msg);
        return;
    }
    *eq = '\0';
    key = wu_string_trim(text);
    value = wu_string_trim(eq + 1);
    if ('\0' == *key) {
        report(st, lineno, "empty key before '='");
        return;
    }
    for (const char *k = key; '\0' != *k; k++) {
        unsigned char c = (unsigned char)*k;
        if (key_char_ok(c)) {
            continue;
        }
        if (isspace(c)) {
            snprintf(msg, sizeof msg, "white space in key \"%s\"", excerpt(key, ex));
        } else if (isprint(c)) {
            snprintf(msg, sizeof msg, "invalid character '%c' in key \"%s\"", c, excerpt(key, ex));
        } else {
            snprintf(msg, sizeof msg, "invalid byte 0x%02x in key \"%s\"", c, excerpt(key, ex));
        }
        report(st, lineno, msg);
        return;
    }
    st->fn(key, value, st->file, lineno, st->ctx);
}

int wu_keyval_parse_string(const char *text, const char *name_for_messages, wu_keyval_fn_t fn,
                           void *ctx)
{
    parse_state_t st = {name_for_messages ? name_for_messages : "<string>", fn, ctx};
    char *copy, *p;
    int lineno = 0;

    if (NULL == text || NULL == fn) {
        return WU_ERR_BAD_PARAM;
    }
    copy = strdup(text);
    if (NULL == copy) {
        return WU_ERR_NOMEM;
    }
    for (p = copy; '\0' != *p;) {
        char *nl = strchr(p, '\n');
        size_t len = NULL != nl ? (size_t)(nl - p) : strlen(p);
        p[len] = '\0';
        parse_line(&st, p, len, ++lineno);
        if (NULL == nl) {
            break;
        }
        p = nl + 1;
    }
    free(copy);
    return WU_SUCCESS;
}

int wu_keyval_parse(const char *path, wu_keyval_fn_t fn, void *ctx)
{
    parse_state_t st = {path, fn, ctx};
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    struct stat sb;
    int lineno = 0, rc = WU_SUCCESS;
    FILE *f;

    if (NULL == path || NULL == fn) {
        return WU_ERR_BAD_PARAM;
    }
    f = fopen(path, "re");
    if (NULL == f) {
        switch (errno) {
        case ENOENT:
        case ENOTDIR:
            return WU_ERR_NOT_FOUND;
        case EACCES:
        case EPERM:
            return WU_ERR_NO_PERMISSIONS;
        case ENOMEM:
            return WU_ERR_NOMEM;
        default:
            return WU_ERR_SYS;
        }
    }
    if (0 == fstat(fileno(f), &sb) && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return WU_ERR_BAD_PARAM;
    }
    while ((n = getline(&buf, &cap, f)) >= 0) {
        size_t len = (size_t)n;
        if (len > 0 && '\n' == buf[len - 1]) {
            buf[--len] = '\0';
        }
        parse_line(&st, buf, len, ++lineno);
    }
    if (!feof(f)) {
        rc = ENOMEM == errno ? WU_ERR_NOMEM : WU_ERR_SYS;
    }
    free(buf);
    fclose(f);
    return rc;
}
