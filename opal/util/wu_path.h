/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_path.h -- file system path helpers: temporary directory, joining, existence, mkdir -p, a
 * symlink-safe recursive remove, the home directory and a PATH search. */
#ifndef WU_PATH_H
#define WU_PATH_H

#include "opal/util/wu_macros.h"

#include <stdbool.h>
#include <sys/types.h>

/* The directory for temporary files: the first of $TMPDIR, $TEMP, $TMP that is set and
 * non-empty, else "/tmp". The string belongs to the environment (or is a literal): do not free
 * it, and copy it if the environment may change. */
WU_EXPORT const char *wu_tmpdir(void);

/* Join a NULL-terminated list of parts with exactly one '/' between them: trailing slashes of
 * the text so far and leading slashes of the next part are collapsed into one. Empty parts are
 * skipped. The first part keeps its leading slashes (so the result stays absolute) and the last
 * part keeps its trailing ones. Examples: ("/a/", "/b", NULL) -> "/a/b"; ("/", "x", NULL) ->
 * "/x"; ("a", "", "b", NULL) -> "a/b". Returns a malloc'd string, NULL when first is NULL or
 * memory runs out. No "." or ".." processing. */
WU_EXPORT char *wu_path_join(const char *first, ...) __attribute__((sentinel));

/* True when p names a directory (symlinks followed, like `test -d`). False for NULL. */
WU_EXPORT bool wu_path_is_dir(const char *p);
/* True when p names anything (symlinks followed, like `test -e`: a dangling link is false). */
bool wu_path_exists(const char *p);

/* Create path and any missing parents, like `mkdir -p`; mode applies (minus the umask) to the
 * directories created. An existing directory is fine.
 * WU_SUCCESS, WU_ERR_BAD_PARAM (NULL or empty), WU_ERR_EXISTS (a component exists and is not a
 * directory), WU_ERR_NO_PERMISSIONS, WU_ERR_NOMEM, WU_ERR_SYS (other mkdir errors). */
WU_EXPORT int wu_path_mkdir_p(const char *path, mode_t mode);

/* Remove path and, when it is a directory, everything below it, like `rm -rf` but never
 * following a symlink: a link is removed itself, its target is untouched. When path itself is a
 * symlink, only the link goes. The walk uses directory file descriptors (openat with
 * O_NOFOLLOW), so renaming a directory into a link during the walk cannot redirect it.
 * Refuses (WU_ERR_BAD_PARAM) NULL, "", relative paths, "/" (also spelled "//"), and paths with a
 * "." or ".." component. Removes what it can and returns the first error: WU_ERR_NOT_FOUND (path
 * does not exist), WU_ERR_NO_PERMISSIONS, WU_ERR_NOMEM, WU_ERR_SYS; WU_SUCCESS when all is
 * gone. Each directory level holds one file descriptor while it is walked. */
WU_EXPORT int wu_path_rm_tree(const char *path);

/* The user's home directory: $HOME when set and non-empty, else the password database entry of
 * the real uid. malloc'd; NULL when neither gives one or memory runs out. */
char *wu_path_home(void);

/* Find an executable regular file named prog, like `which`. path_var is a PATH-style value
 * ("dir:dir:..."; an empty entry means the current directory); NULL means $PATH, and when that
 * is unset, "/usr/bin:/bin". A prog containing '/' is not searched: it is returned (copied) if
 * it is executable. Returns a malloc'd path (dir joined with prog), NULL when not found, when
 * prog is NULL or empty, or memory runs out. */
WU_EXPORT char *wu_path_find_in_path(const char *prog, const char *path_var);

#endif
