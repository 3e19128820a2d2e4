/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_argv.h -- NULL-terminated string vectors (argv style), environment arrays and a few string
 * helpers.
 *
 * A vector is a malloc'd array of malloc'd strings ending with a NULL pointer; it owns its
 * strings. Functions that add strings always copy them. A NULL vector is accepted wherever a
 * vector is read and treated as empty; functions taking char ***argv create the vector when
 * *argv is NULL. Every allocation is checked: on WU_ERR_NOMEM the vector is left exactly as it
 * was. None of these functions is thread safe on the same vector; callers lock. */
#ifndef WU_ARGV_H
#define WU_ARGV_H

#include "opal/util/wu_macros.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* The longest argument or environment string (its terminating NUL included) that Linux's
 * execve accepts: 32 pages (MAX_ARG_STRLEN). */
#define WU_EXEC_STRING_MAX (32 * 4096)

/* Append a copy of arg to *argv (created when *argv is NULL).
 * WU_SUCCESS, WU_ERR_BAD_PARAM (argv or arg NULL), WU_ERR_NOMEM. */
WU_EXPORT int wu_argv_append(char ***argv, const char *arg);

/* Like wu_argv_append, but do nothing (and return WU_SUCCESS) when an equal string is already in
 * the vector. */
WU_EXPORT int wu_argv_append_unique(char ***argv, const char *arg);

/* Insert a copy of arg at the front of *argv (created when NULL). Same errors as append. */
int wu_argv_prepend(char ***argv, const char *arg);

/* Number of strings before the terminating NULL; 0 for a NULL vector. */
WU_EXPORT int wu_argv_count(char *const *argv);

/* Free every string and the vector. NULL is a no-op. */
WU_EXPORT void wu_argv_free(char **argv);

/* Split s at every delim into a new vector, dropping empty fields: "a::b:" -> {"a", "b"}.
 * Returns a vector the caller frees with wu_argv_free. An empty string (or one made only of
 * delimiters) gives an empty vector, not NULL. Returns NULL only when s is NULL or memory runs
 * out. */
WU_EXPORT char **wu_argv_split(const char *s, char delim);

/* Like wu_argv_split but keeps empty fields: "a::b:" -> {"a", "", "b", ""}, ":" -> {"", ""}.
 * A non-empty string with n delimiters gives n + 1 fields; the empty string gives an empty
 * vector. wu_argv_join(wu_argv_split_with_empty(s, d), d) reproduces s for every s. */
WU_EXPORT char **wu_argv_split_with_empty(const char *s, char delim);

/* Join the strings with delim between them (no delimiter at either end). Returns a malloc'd
 * string, "" for an empty or NULL vector, NULL only when memory runs out. A delim of '\0'
 * concatenates. */
WU_EXPORT char *wu_argv_join(char *const *argv, char delim);

/* Deep copy. NULL for a NULL vector or when memory runs out; an empty vector copies to an empty
 * vector. */
WU_EXPORT char **wu_argv_copy(char *const *argv);

/* Remove (and free) the strings at indices [start, start + count). count is clamped to the end
 * of the vector, so deleting past the end removes what is there. start == count of the vector
 * (or count == 0) removes nothing.
 * WU_SUCCESS, WU_ERR_BAD_PARAM (argv NULL, start or count negative, start beyond the end; the
 * vector is unchanged). */
int wu_argv_delete(char ***argv, int start, int count);

/* Insert copies of every string of source before index start of *target (start == count of
 * *target appends; *target NULL is an empty vector). source may be *target itself. The target
 * is unchanged on error.
 * WU_SUCCESS (also for a NULL or empty source), WU_ERR_BAD_PARAM (target NULL, start negative
 * or beyond the end), WU_ERR_NOMEM. */
int wu_argv_insert(char ***target, int start, char *const *source);

/* --- environment arrays: vectors of "NAME=value" strings ---
 * NAME must be non-empty and contain no '='. Passing env == &environ operates on the process
 * environment through setenv(3)/unsetenv(3)/getenv(3) instead of editing the array. */

/* Set NAME=value in *env (created when NULL). When NAME is already set and overwrite is false,
 * nothing changes and WU_ERR_EXISTS is returned (callers that do not care may ignore it).
 * WU_SUCCESS, WU_ERR_EXISTS, WU_ERR_BAD_PARAM (NULL name, value or env; bad NAME),
 * WU_ERR_NOMEM. A value may be empty. */
WU_EXPORT int wu_setenv(const char *name, const char *value, bool overwrite, char ***env);
/* wu_setenv of an unsigned number in decimal, overwriting. */
WU_EXPORT int wu_setenv_u32(const char *name, uint32_t value, char ***env);

/* Remove NAME from *env (every entry for it, should there be several).
 * WU_SUCCESS, WU_ERR_NOT_FOUND (not set; also for a NULL *env), WU_ERR_BAD_PARAM. */
WU_EXPORT int wu_unsetenv(const char *name, char ***env);

/* The value of NAME: a pointer into the array's string (valid until the array changes), or NULL
 * when NAME is not set, env is NULL or name is invalid. */
WU_EXPORT const char *wu_getenv(const char *name, char *const *env);

/* Remove leading and trailing white space (isspace) from s in place: trailing space is cut by
 * writing a NUL; the return value points at the first non-space character inside s. NULL gives
 * NULL. */
char *wu_string_trim(char *s);

/* Format into a new malloc'd string stored in *out. WU_SUCCESS, WU_ERR_NOMEM (*out is NULL),
 * WU_ERR_BAD_PARAM (out or fmt NULL; *out is NULL when out is not). */
WU_EXPORT int wu_asprintf(char **out, const char *fmt, ...) WU_PRINTF(2, 3);
/* The va_list form of wu_asprintf; ap is consumed as by vsnprintf. */
WU_EXPORT int wu_vasprintf(char **out, const char *fmt, va_list ap) WU_PRINTF(2, 0);

#endif
