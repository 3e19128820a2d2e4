/* SPDX-License-Identifier: BSD-3-Clause */
/* pmix_wu_helpers.h -- the static inline memory, string, argv and environment helpers that the
 * PMIx 4.2 public header provides (pmix_malloc, pmix_strncpy, pmix_argv_split, pmix_setenv, ...)
 * and the PMIX_ARGV_* / PMIX_SETENV macros over them. Included by pmix_common.h only.
 *
 * These lowercase pmix_* names are part of the header contract that programs compiled against
 * OpenPMIx use; being static inline they are compiled into the caller and never exported.
 * An argv is a malloc'ed, NULL-terminated array of malloc'ed strings. */
#ifndef PMIX_WU_HELPERS_H
#define PMIX_WU_HELPERS_H

#ifndef PMIx_COMMON_H
#error "include pmix_common.h, not pmix_wu_helpers.h"
#endif

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

extern char **environ;

/* ---- memory ---- */

static inline void *pmix_malloc(size_t n)
{
    return malloc(n);
}

static inline void pmix_free(void *m)
{
    free(m);
}

static inline void *pmix_calloc(size_t n, size_t m)
{
    return calloc(n, m);
}

/* ---- strings ---- */

/* Copies at most len characters of src (which need not be NUL-terminated) into dest and always
 * terminates it: dest must hold len + 1 bytes. */
static inline void pmix_strncpy(char *dest, const char *src, size_t len)
{
    size_t i = 0;

    while (i < len && '\0' != src[i]) {
        dest[i] = src[i];
        i++;
    }
    dest[i] = '\0';
}

/* strnlen() without needing POSIX feature macros; 0 for NULL. */
static inline size_t wu_pmix_strnlen(const char *src, size_t max)
{
    size_t n = 0;

    while (NULL != src && n < max && '\0' != src[n]) {
        n++;
    }
    return n;
}

/* strdup() likewise; NULL when memory is short. */
static inline char *wu_pmix_strdup(const char *src)
{
    size_t len = strlen(src) + 1;
    char *s = (char *)malloc(len);

    if (NULL != s) {
        memcpy(s, src, len);
    }
    return s;
}

/* Length of a key / namespace, looking at most one byte past the maximum; 0 for NULL. */
static inline size_t pmix_keylen(const char *src)
{
    return wu_pmix_strnlen(src, PMIX_MAX_KEYLEN + 1);
}

static inline size_t pmix_nslen(const char *src)
{
    return wu_pmix_strnlen(src, PMIX_MAX_NSLEN + 1);
}

/* ---- argv ---- */

/* Number of entries (0 for NULL). */
static inline int pmix_argv_count(char **argv)
{
    int n = 0;

    while (NULL != argv && NULL != argv[n]) {
        n++;
    }
    return n;
}

/* Grows *argv (may be NULL) by one entry, a copy of arg, at the front or the end. */
static inline pmix_status_t wu_pmix_argv_insert(char ***argv, const char *arg, bool at_front)
{
    int n = pmix_argv_count(*argv);
    char *copy = wu_pmix_strdup(arg);
    char **grown;

    if (NULL == copy) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    grown = (char **)realloc(*argv, (size_t)(n + 2) * sizeof(char *));
    if (NULL == grown) {
        free(copy);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (at_front) {
        memmove(&grown[1], &grown[0], (size_t)n * sizeof(char *));
        grown[0] = copy;
    } else {
        grown[n] = copy;
    }
    grown[n + 1] = NULL;
    *argv = grown;
    return PMIX_SUCCESS;
}

/* Appends / prepends a copy of arg; *argv may be NULL. PMIX_ERR_OUT_OF_RESOURCE on failure. */
static inline pmix_status_t pmix_argv_append_nosize(char ***argv, const char *arg)
{
    return wu_pmix_argv_insert(argv, arg, false);
}

static inline pmix_status_t pmix_argv_prepend_nosize(char ***argv, const char *arg)
{
    return wu_pmix_argv_insert(argv, arg, true);
}

/* Appends a copy of arg unless an equal string is already there (then PMIX_SUCCESS). */
static inline pmix_status_t pmix_argv_append_unique_nosize(char ***argv, const char *arg)
{
    for (int i = 0; NULL != *argv && NULL != (*argv)[i]; i++) {
        if (0 == strcmp(arg, (*argv)[i])) {
            return PMIX_SUCCESS;
        }
    }
    return pmix_argv_append_nosize(argv, arg);
}

/* Frees every string and the array (NULL is fine). */
static inline void pmix_argv_free(char **argv)
{
    for (int i = 0; NULL != argv && NULL != argv[i]; i++) {
        free(argv[i]);
    }
    free(argv);
}

/* Splits src at each delimiter. Empty fields between delimiters are kept only when include_empty
 * is set; a trailing delimiter never yields an empty last field. NULL for an empty or NULL src,
 * or when memory is short. */
static inline char **pmix_argv_split_inter(const char *src, int delimiter, bool include_empty)
{
    char **argv = NULL;

    while (NULL != src && '\0' != *src) {
        const char *end = src;
        size_t len;

        while ('\0' != *end && (char)delimiter != *end) {
            end++;
        }
        len = (size_t)(end - src);
        if (0 < len || include_empty) {
            char *field = (char *)malloc(len + 1);
            pmix_status_t rc = PMIX_ERR_OUT_OF_RESOURCE;

            if (NULL != field) {
                memcpy(field, src, len);
                field[len] = '\0';
                rc = pmix_argv_append_nosize(&argv, field);
                free(field);
            }
            if (PMIX_SUCCESS != rc) {
                pmix_argv_free(argv);
                return NULL;
            }
        }
        if ('\0' == *end) {
            break;
        }
        src = end + 1;
    }
    return argv;
}

static inline char **pmix_argv_split_with_empty(const char *src_string, int delimiter)
{
    return pmix_argv_split_inter(src_string, delimiter, true);
}

static inline char **pmix_argv_split(const char *src_string, int delimiter)
{
    return pmix_argv_split_inter(src_string, delimiter, false);
}

/* The entries joined by delimiter, in a new string ("" for an empty or NULL argv); NULL when
 * memory is short. */
static inline char *pmix_argv_join(char **argv, int delimiter)
{
    size_t total = 0, pos = 0;
    char *s;

    if (NULL == argv || NULL == argv[0]) {
        return wu_pmix_strdup("");
    }
    for (int i = 0; NULL != argv[i]; i++) {
        total += strlen(argv[i]) + 1;
    }
    s = (char *)malloc(total);
    if (NULL == s) {
        return NULL;
    }
    for (int i = 0; NULL != argv[i]; i++) {
        size_t len = strlen(argv[i]);
        if (0 < i) {
            s[pos++] = (char)delimiter;
        }
        memcpy(s + pos, argv[i], len);
        pos += len;
    }
    s[pos] = '\0';
    return s;
}

/* A deep copy (an empty argv copies to an empty, non-NULL one); NULL for NULL or no memory. */
static inline char **pmix_argv_copy(char **argv)
{
    char **dup;

    if (NULL == argv) {
        return NULL;
    }
    dup = (char **)calloc(1, sizeof(char *));
    for (int i = 0; NULL != dup && NULL != argv[i]; i++) {
        if (PMIX_SUCCESS != pmix_argv_append_nosize(&dup, argv[i])) {
            pmix_argv_free(dup);
            return NULL;
        }
    }
    return dup;
}

#define PMIX_ARGV_COUNT(r, a)      (r) = pmix_argv_count(a)
#define PMIX_ARGV_APPEND(r, a, b)  (r) = pmix_argv_append_nosize(&(a), (b))
#define PMIX_ARGV_PREPEND(r, a, b) (r) = pmix_argv_prepend_nosize(&(a), (b))
/* note: a is the address of the argv here, unlike APPEND/PREPEND (as in OpenPMIx) */
#define PMIX_ARGV_APPEND_UNIQUE(r, a, b) (r) = pmix_argv_append_unique_nosize((a), (b))
#define PMIX_ARGV_FREE(a)                pmix_argv_free(a)
#define PMIX_ARGV_SPLIT(a, b, c)         (a) = pmix_argv_split((b), (c))
#define PMIX_ARGV_JOIN(a, b, c)          (a) = pmix_argv_join((b), (c))
#define PMIX_ARGV_COPY(a, b)             (a) = pmix_argv_copy(b)

/* ---- environment ---- */

/* Sets name=value in the environment array *env (value NULL gives "name="). When *env is the
 * process environment itself, setenv()/unsetenv() are used instead. An existing entry is replaced
 * only if overwrite, else PMIX_ERR_EXISTS. PMIX_ERR_BAD_PARAM for a NULL env or a value of 100000
 * characters or more; PMIX_ERR_OUT_OF_RESOURCE when memory is short. */
static inline pmix_status_t pmix_setenv(const char *name, const char *value, bool overwrite,
                                        char ***env)
{
    size_t nlen, vlen;
    char *entry;

    if (NULL == env || NULL == name) {
        return PMIX_ERR_BAD_PARAM;
    }
    vlen = wu_pmix_strnlen(value, 100000);
    if (100000 <= vlen) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (*env == environ) {
        if (NULL == value) {
            unsetenv(name);
        } else {
            setenv(name, value, overwrite);
        }
        return PMIX_SUCCESS;
    }
    nlen = strlen(name);
    entry = (char *)malloc(nlen + vlen + 2);
    if (NULL == entry) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    memcpy(entry, name, nlen);
    entry[nlen] = '=';
    memcpy(entry + nlen + 1, NULL == value ? "" : value, vlen + 1);
    for (int i = 0; NULL != *env && NULL != (*env)[i]; i++) {
        if (0 == strncmp((*env)[i], entry, nlen + 1)) {
            if (!overwrite) {
                free(entry);
                return PMIX_ERR_EXISTS;
            }
            free((*env)[i]);
            (*env)[i] = entry;
            return PMIX_SUCCESS;
        }
    }
    {
        pmix_status_t rc = pmix_argv_append_nosize(env, entry);
        free(entry);
        return rc;
    }
}

/* Always overwrites. */
#define PMIX_SETENV(r, a, b, c) (r) = pmix_setenv((a), (b), true, (c))

#ifdef __cplusplus
}
#endif

#endif /* PMIX_WU_HELPERS_H */
