/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_argv.c -- NULL-terminated string vectors, "NAME=value" environment arrays, string helpers.
 *
 * Every change allocates what it needs before touching the vector, so a failed allocation
 * leaves the caller's vector as it was. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Declared by <unistd.h> only with _GNU_SOURCE; we need it for the env == &environ case. */
extern char **environ;

/* Largest number of strings a vector may hold: counts are ints and one slot is the NULL. */
#define ARGV_MAX (INT_MAX - 1)

int wu_argv_count(char *const *argv)
{
    int n = 0;
    if (NULL == argv) {
        return 0;
    }
    while (NULL != argv[n]) {
        n++;
    }
    return n;
}

void wu_argv_free(char **argv)
{
    if (NULL == argv) {
        return;
    }
    for (char **p = argv; NULL != *p; p++) {
        free(*p);
    }
    free(argv);
}

/* Grow *argv by one slot and put the already allocated string dup at index pos (0..count).
 * On failure *argv is unchanged and the caller still owns dup. */
static int insert_owned(char ***argv, int pos, char *dup)
{
    int n = wu_argv_count(*argv);
    char **v;

    if (n >= ARGV_MAX) {
        return WU_ERR_OUT_OF_RESOURCE;
    }
    v = realloc(*argv, ((size_t)n + 2) * sizeof(char *));
    if (NULL == v) {
        return WU_ERR_NOMEM;
    }
    memmove(&v[pos + 1], &v[pos], ((size_t)n - (size_t)pos) * sizeof(char *));
    v[pos] = dup;
    v[n + 1] = NULL;
    *argv = v;
    return WU_SUCCESS;
}

static int add_copy(char ***argv, const char *arg, bool at_front)
{
    char *dup;
    int rc;

    if (NULL == argv || NULL == arg) {
        return WU_ERR_BAD_PARAM;
    }
    dup = strdup(arg);
    if (NULL == dup) {
        return WU_ERR_NOMEM;
    }
    rc = insert_owned(argv, at_front ? 0 : wu_argv_count(*argv), dup);
    if (WU_SUCCESS != rc) {
        free(dup);
    }
    return rc;
}

int wu_argv_append(char ***argv, const char *arg)
{
    return add_copy(argv, arg, false);
}

int wu_argv_prepend(char ***argv, const char *arg)
{
    return add_copy(argv, arg, true);
}

int wu_argv_append_unique(char ***argv, const char *arg)
{
    if (NULL == argv || NULL == arg) {
        return WU_ERR_BAD_PARAM;
    }
    for (char **p = *argv; NULL != p && NULL != *p; p++) {
        if (0 == strcmp(*p, arg)) {
            return WU_SUCCESS;
        }
    }
    return add_copy(argv, arg, false);
}

/* End of the field starting at p: the next delim or the terminating NUL. A delim of '\0'
 * never matches inside the string, so the whole string is one field. */
static const char *field_end(const char *p, char delim)
{
    while ('\0' != *p && delim != *p) {
        p++;
    }
    return p;
}

static char **split(const char *s, char delim, bool keep_empty)
{
    size_t n = 0, i = 0;
    const char *p, *e;
    char **v;

    if (NULL == s) {
        return NULL;
    }
    /* First pass counts the fields, the second copies them. "" has no fields at all. */
    for (p = s; '\0' != *s;) {
        e = field_end(p, delim);
        if (e != p || keep_empty) {
            n++;
        }
        if ('\0' == *e) {
            break;
        }
        p = e + 1;
    }
    if (n > ARGV_MAX) {
        return NULL;
    }
    v = calloc(n + 1, sizeof(char *));
    if (NULL == v) {
        return NULL;
    }
    for (p = s; i < n;) {
        e = field_end(p, delim);
        if (e != p || keep_empty) {
            v[i] = strndup(p, (size_t)(e - p));
            if (NULL == v[i]) {
                wu_argv_free(v);
                return NULL;
            }
            i++;
        }
        if ('\0' == *e) {
            break;
        }
        p = e + 1;
    }
    return v;
}

char **wu_argv_split(const char *s, char delim)
{
    return split(s, delim, false);
}

char **wu_argv_split_with_empty(const char *s, char delim)
{
    return split(s, delim, true);
}

char *wu_argv_join(char *const *argv, char delim)
{
    size_t len = 1, pos = 0;
    int n = wu_argv_count(argv);
    char *out;

    for (int i = 0; i < n; i++) {
        len += strlen(argv[i]) + ('\0' != delim && i > 0 ? 1 : 0);
    }
    out = malloc(len);
    if (NULL == out) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        size_t l = strlen(argv[i]);
        if (i > 0 && '\0' != delim) {
            out[pos++] = delim;
        }
        memcpy(out + pos, argv[i], l);
        pos += l;
    }
    out[pos] = '\0';
    return out;
}

char **wu_argv_copy(char *const *argv)
{
    int n = wu_argv_count(argv);
    char **v;

    if (NULL == argv) {
        return NULL;
    }
    v = calloc((size_t)n + 1, sizeof(char *));
    if (NULL == v) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        v[i] = strdup(argv[i]);
        if (NULL == v[i]) {
            wu_argv_free(v);
            return NULL;
        }
    }
    return v;
}

int wu_argv_delete(char ***argv, int start, int count)
{
    int n;

    if (NULL == argv || start < 0 || count < 0) {
        return WU_ERR_BAD_PARAM;
    }
    n = wu_argv_count(*argv);
    if (start > n) {
        return WU_ERR_BAD_PARAM;
    }
    if (count > n - start) {
        count = n - start;
    }
    if (0 == count) {
        return WU_SUCCESS;
    }
    for (int i = start; i < start + count; i++) {
        free((*argv)[i]);
    }
    /* Move the tail down, including the terminating NULL. The array keeps its size. */
    memmove(&(*argv)[start], &(*argv)[start + count],
            ((size_t)(n - start - count) + 1) * sizeof(char *));
    return WU_SUCCESS;
}

int wu_argv_insert(char ***target, int start, char *const *source)
{
    int n, m;
    char **copy, **v;

    if (NULL == target || start < 0) {
        return WU_ERR_BAD_PARAM;
    }
    n = wu_argv_count(*target);
    if (start > n) {
        return WU_ERR_BAD_PARAM;
    }
    m = wu_argv_count(source);
    if (0 == m) {
        return WU_SUCCESS;
    }
    if (m > ARGV_MAX - n) {
        return WU_ERR_OUT_OF_RESOURCE;
    }
    copy = wu_argv_copy(source);
    if (NULL == copy) {
        return WU_ERR_NOMEM;
    }
    v = realloc(*target, ((size_t)n + (size_t)m + 1) * sizeof(char *));
    if (NULL == v) {
        wu_argv_free(copy);
        return WU_ERR_NOMEM;
    }
    /* When *target was NULL, realloc gave fresh memory: n == 0 and start == 0 here. */
    memmove(&v[start + m], &v[start], (size_t)(n - start) * sizeof(char *));
    memcpy(&v[start], copy, (size_t)m * sizeof(char *));
    v[n + m] = NULL;
    free(copy); /* the strings now belong to v */
    *target = v;
    return WU_SUCCESS;
}

/* --- environment arrays --- */

static bool env_name_ok(const char *name)
{
    return NULL != name && '\0' != name[0] && NULL == strchr(name, '=');
}

/* Index of the first "name=..." entry at or after from, or -1. */
static int env_find(char *const *env, const char *name, int from)
{
    size_t len = strlen(name);
    if (NULL == env) {
        return -1;
    }
    for (int i = from; NULL != env[i]; i++) {
        if (0 == strncmp(env[i], name, len) && '=' == env[i][len]) {
            return i;
        }
    }
    return -1;
}

int wu_setenv_u32(const char *name, uint32_t value, char ***env)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%u", value);
    return wu_setenv(name, buf, true, env);
}

int wu_setenv(const char *name, const char *value, bool overwrite, char ***env)
{
    char *entry;
    int idx, rc;

    if (!env_name_ok(name) || NULL == value || NULL == env) {
        return WU_ERR_BAD_PARAM;
    }
    if (env == &environ) {
        if (!overwrite && NULL != getenv(name)) {
            return WU_ERR_EXISTS;
        }
        if (0 != setenv(name, value, 1)) {
            return ENOMEM == errno ? WU_ERR_NOMEM : WU_ERR_BAD_PARAM;
        }
        return WU_SUCCESS;
    }
    idx = env_find(*env, name, 0);
    if (idx >= 0 && !overwrite) {
        return WU_ERR_EXISTS;
    }
    rc = wu_asprintf(&entry, "%s=%s", name, value);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    if (idx >= 0) {
        free((*env)[idx]);
        (*env)[idx] = entry;
        return WU_SUCCESS;
    }
    rc = insert_owned(env, wu_argv_count(*env), entry);
    if (WU_SUCCESS != rc) {
        free(entry);
    }
    return rc;
}

int wu_unsetenv(const char *name, char ***env)
{
    int idx, removed = 0;

    if (!env_name_ok(name) || NULL == env) {
        return WU_ERR_BAD_PARAM;
    }
    if (env == &environ) {
        if (NULL == getenv(name)) {
            return WU_ERR_NOT_FOUND;
        }
        return 0 == unsetenv(name) ? WU_SUCCESS : WU_ERR_BAD_PARAM;
    }
    for (idx = env_find(*env, name, 0); idx >= 0; idx = env_find(*env, name, idx)) {
        (void)wu_argv_delete(env, idx, 1); /* cannot fail: idx is inside the vector */
        removed++;
    }
    return removed > 0 ? WU_SUCCESS : WU_ERR_NOT_FOUND;
}

const char *wu_getenv(const char *name, char *const *env)
{
    int idx;

    if (!env_name_ok(name) || NULL == env) {
        return NULL;
    }
    idx = env_find(env, name, 0);
    return idx < 0 ? NULL : env[idx] + strlen(name) + 1;
}

/* --- strings --- */

char *wu_string_trim(char *s)
{
    size_t len;

    if (NULL == s) {
        return NULL;
    }
    while (isspace((unsigned char)*s)) {
        s++;
    }
    len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1])) {
        len--;
    }
    s[len] = '\0';
    return s;
}

int wu_vasprintf(char **out, const char *fmt, va_list ap)
{
    va_list ap2;
    int len;

    if (NULL == out) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    if (NULL == fmt) {
        return WU_ERR_BAD_PARAM;
    }
    va_copy(ap2, ap);
    len = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (len < 0) {
        return WU_ERR_NOMEM; /* only EOVERFLOW: the result would exceed INT_MAX */
    }
    *out = malloc((size_t)len + 1);
    if (NULL == *out) {
        return WU_ERR_NOMEM;
    }
    (void)vsnprintf(*out, (size_t)len + 1, fmt, ap);
    return WU_SUCCESS;
}

int wu_asprintf(char **out, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = wu_vasprintf(out, fmt, ap);
    va_end(ap);
    return rc;
}
