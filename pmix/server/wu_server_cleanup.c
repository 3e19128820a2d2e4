/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_cleanup.c -- removal of the paths clients registered with PMIX_REGISTER_CLEANUP
 * (files) and PMIX_REGISTER_CLEANUP_DIR (directories) when their namespace is deregistered.
 *
 * The server may run with more rights than its clients (as root, for other users' jobs), so a
 * registered path is removed only when it is safe: it must be absolute, at least two levels
 * deep, without "." or ".." components, not the home directory or the temporary directory
 * itself, and owned by the uid the host registered for the client that asked (a path owned by
 * someone else is left alone with a message). Links are never followed: a link is removed
 * itself. A directory is emptied of its files (not its subdirectories) and removed if then
 * empty; with PMIX_CLEANUP_RECURSIVE its whole tree goes (wu_path_rm_tree). */
#include "opal/util/wu_escape.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_show_help.h"
#include "pmix/server/wu_server.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The same directory, ignoring trailing slashes. */
static bool same_dir(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    while (la > 1 && '/' == a[la - 1]) {
        la--;
    }
    while (lb > 1 && '/' == b[lb - 1]) {
        lb--;
    }
    return la == lb && 0 == strncmp(a, b, la);
}

/* Why path must not be removed, or NULL. */
static const char *refuse_reason(const char *path)
{
    int depth = 0;
    const char *p = path;
    char *home;
    bool bad;

    if ('/' != path[0]) {
        return "not an absolute path";
    }
    while ('\0' != *p) {
        const char *s;
        size_t n;
        while ('/' == *p) {
            p++;
        }
        s = p;
        while ('\0' != *p && '/' != *p) {
            p++;
        }
        n = (size_t)(p - s);
        if ((1 == n && '.' == s[0]) || (2 == n && 0 == strncmp(s, "..", 2))) {
            return "has a \".\" or \"..\" component";
        }
        depth += n > 0;
    }
    if (depth < 2) {
        return "is a top-level directory";
    }
    home = wu_path_home();
    bad = (NULL != home && same_dir(home, path)) || same_dir(wu_tmpdir(), path);
    free(home);
    return bad ? "is the home or temporary directory itself" : NULL;
}

/* Remove the non-directory entries of the directory path, then the directory if empty. */
static int remove_flat(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc = WU_SUCCESS;
    DIR *d;
    struct dirent *e;

    if (fd < 0) {
        return wu_status_from_errno(errno);
    }
    if (NULL == (d = fdopendir(fd))) {
        close(fd);
        return wu_status_from_errno(errno);
    }
    while (NULL != (e = readdir(d))) {
        struct stat st;
        if (0 == strcmp(e->d_name, ".") || 0 == strcmp(e->d_name, "..")) {
            continue;
        }
        if (0 != fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || S_ISDIR(st.st_mode)) {
            continue;
        }
        if (0 != unlinkat(dirfd(d), e->d_name, 0) && WU_SUCCESS == rc) {
            rc = wu_status_from_errno(errno);
        }
    }
    closedir(d);
    if (0 != rmdir(path) && ENOTEMPTY != errno && EEXIST != errno && WU_SUCCESS == rc) {
        rc = wu_status_from_errno(errno);
    }
    return rc;
}

static void cleanup_one(const wu_srv_cleanup_t *c)
{
    const char *why = refuse_reason(c->path);
    uid_t owner = (uid_t)-1 == c->owner ? geteuid() : c->owner;
    struct stat st;
    char *shown; /* the path as a client gave it: escaped for messages */
    int rc;

    if (NULL == why && 0 != lstat(c->path, &st)) {
        if (ENOENT == errno) {
            return; /* already gone */
        }
        why = strerror(errno);
    }
    if (NULL == why && st.st_uid != owner) {
        why = "is not owned by the user who registered it";
    }
    if (NULL == why && !c->dir && S_ISDIR(st.st_mode)) {
        why = "is a directory registered as a file";
    }
    if (NULL != why) {
        shown = wu_str_escape_dup(c->path, PATH_MAX, WU_ESC_KEEP_UTF8);
        wu_show_help(WU_SRV_HELP, "cleanup-refused", true, NULL != shown ? shown : "(a path)", why);
        free(shown);
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = c->recursive ? wu_path_rm_tree(c->path) : remove_flat(c->path);
    } else {
        rc = 0 == unlink(c->path) ? WU_SUCCESS : wu_status_from_errno(errno);
    }
    shown = wu_str_escape_dup(c->path, PATH_MAX, WU_ESC_KEEP_UTF8);
    wu_output_verbose(WU_SUCCESS == rc ? WU_VERB_INFO : WU_VERB_WARN, wu_srv.out,
                      "server: cleanup of %s: %s", NULL != shown ? shown : "(a path)",
                      wu_strerror(rc));
    free(shown);
}

void wu_srv_cleanup_run(wu_srv_nspace_t *ns)
{
    /* registered last first: a file inside a registered directory goes before the directory */
    for (wu_srv_cleanup_t *c = ns->cleanups; NULL != c; c = c->next) {
        cleanup_one(c);
    }
}
