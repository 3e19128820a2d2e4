/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_path.c -- path helpers (see wu_path.h). */
#include "opal/util/wu_path.h"
#include "opal/util/wu_error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *wu_tmpdir(void)
{
    static const char *const vars[] = {"TMPDIR", "TEMP", "TMP"};
    for (size_t i = 0; i < WU_NELEMS(vars); i++) {
        const char *v = getenv(vars[i]);
        if (NULL != v && '\0' != v[0]) {
            return v;
        }
    }
    return "/tmp";
}

char *wu_path_join(const char *first, ...)
{
    va_list ap;
    size_t cap, len = 0;
    const char *part;
    char *out;

    if (NULL == first) {
        return NULL;
    }
    /* Upper bound: every part plus one separator each, plus the NUL. */
    cap = strlen(first) + 1;
    va_start(ap, first);
    while (NULL != (part = va_arg(ap, const char *))) {
        cap += strlen(part) + 1;
    }
    va_end(ap);
    out = malloc(cap);
    if (NULL == out) {
        return NULL;
    }
    memcpy(out, first, strlen(first));
    len = strlen(first);
    va_start(ap, first);
    while (NULL != (part = va_arg(ap, const char *))) {
        size_t plen;
        if ('\0' == part[0]) {
            continue;
        }
        if (len > 0) {
            /* "/" (or "//") as the text so far collapses to "" here and gets its '/' back. */
            while (len > 0 && '/' == out[len - 1]) {
                len--;
            }
            while ('/' == part[0]) {
                part++;
            }
            out[len++] = '/';
        }
        plen = strlen(part);
        memcpy(out + len, part, plen);
        len += plen;
    }
    va_end(ap);
    out[len] = '\0';
    return out;
}

bool wu_path_is_dir(const char *p)
{
    struct stat sb;
    return NULL != p && 0 == stat(p, &sb) && S_ISDIR(sb.st_mode);
}

bool wu_path_exists(const char *p)
{
    struct stat sb;
    return NULL != p && 0 == stat(p, &sb);
}

static int errno_to_rc(int e)
{
    return ENOTDIR == e ? WU_ERR_EXISTS : wu_status_from_errno(e);
}

/* mkdir one level; an existing directory is success. */
static int mkdir_one(const char *dir, mode_t mode)
{
    int e;
    if (0 == mkdir(dir, mode)) {
        return WU_SUCCESS;
    }
    e = errno;
    if (wu_path_is_dir(dir)) {
        return WU_SUCCESS; /* EEXIST, or EACCES on a directory that is already there */
    }
    return EEXIST == e ? WU_ERR_EXISTS : errno_to_rc(e);
}

int wu_path_mkdir_p(const char *path, mode_t mode)
{
    char *buf, *p;
    int rc = WU_SUCCESS;

    if (NULL == path || '\0' == path[0]) {
        return WU_ERR_BAD_PARAM;
    }
    if (wu_path_is_dir(path)) {
        return WU_SUCCESS;
    }
    buf = strdup(path);
    if (NULL == buf) {
        return WU_ERR_NOMEM;
    }
    /* Create every prefix ending before a '/', then the whole path. */
    for (p = buf + 1; WU_SUCCESS == rc && '\0' != *p; p++) {
        if ('/' == *p && '/' != p[-1]) {
            *p = '\0';
            rc = mkdir_one(buf, mode);
            *p = '/';
        }
    }
    if (WU_SUCCESS == rc) {
        rc = mkdir_one(buf, mode);
    }
    free(buf);
    return rc;
}

static int rm_at(int dirfd, const char *name, bool top);

/* Remove everything inside directory name (relative to dirfd). Entries are removed while the
 * directory is being read, which POSIX allows but may make readdir skip entries on some file
 * systems: so read again until a pass removes nothing. */
static int rm_contents(int dirfd, const char *name)
{
    int fd, rc = WU_SUCCESS, removed;
    struct dirent *de;
    DIR *d;

    fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return errno_to_rc(errno);
    }
    d = fdopendir(fd);
    if (NULL == d) {
        int e = errno;
        close(fd);
        return errno_to_rc(e);
    }
    do {
        removed = 0;
        rewinddir(d);
        while (NULL != (de = readdir(d))) {
            int r;
            if (0 == strcmp(de->d_name, ".") || 0 == strcmp(de->d_name, "..")) {
                continue;
            }
            r = rm_at(fd, de->d_name, false);
            if (WU_SUCCESS == r) {
                removed++;
            } else if (WU_SUCCESS == rc) {
                rc = r;
            }
        }
    } while (removed > 0 && WU_SUCCESS == rc);
    closedir(d);
    return rc;
}

/* Remove name (relative to dirfd) and, if it is a real directory, its contents. Below the top,
 * something that vanished meanwhile counts as removed. */
static int rm_at(int dirfd, const char *name, bool top)
{
    struct stat sb;
    int rc = WU_SUCCESS;

    if (0 != fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW)) {
        return ENOENT == errno && !top ? WU_SUCCESS : errno_to_rc(errno);
    }
    if (S_ISDIR(sb.st_mode)) {
        rc = rm_contents(dirfd, name);
    }
    if (0 != unlinkat(dirfd, name, S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0)) {
        if (WU_SUCCESS == rc && !(ENOENT == errno && !top)) {
            rc = errno_to_rc(errno);
        }
    }
    return rc;
}

/* Absolute, not the root, and no "." or ".." component. */
static bool rm_path_ok(const char *path)
{
    const char *p;

    if (NULL == path || '/' != path[0] || '\0' == path[strspn(path, "/")]) {
        return false;
    }
    for (p = path; '\0' != *p;) {
        size_t n;
        p += strspn(p, "/");
        n = strcspn(p, "/");
        if ((1 == n && '.' == p[0]) || (2 == n && 0 == strncmp(p, "..", 2))) {
            return false;
        }
        p += n;
    }
    return true;
}

int wu_path_rm_tree(const char *path)
{
    char *buf, *slash;
    const char *parent;
    size_t len;
    int fd, rc;

    if (!rm_path_ok(path)) {
        return WU_ERR_BAD_PARAM;
    }
    buf = strdup(path);
    if (NULL == buf) {
        return WU_ERR_NOMEM;
    }
    len = strlen(buf);
    while (len > 1 && '/' == buf[len - 1]) {
        buf[--len] = '\0'; /* "/a/link/" names the link, not its target */
    }
    slash = strrchr(buf, '/');
    *slash = '\0';
    parent = buf == slash ? "/" : buf;
    fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        rc = errno_to_rc(errno);
        if (WU_ERR_EXISTS == rc) {
            rc = WU_ERR_NOT_FOUND; /* a parent component is not a directory */
        }
    } else {
        rc = rm_at(fd, slash + 1, true);
        close(fd);
    }
    free(buf);
    return rc;
}

char *wu_path_home(void)
{
    const char *home = getenv("HOME");
    struct passwd pw, *res = NULL;
    size_t cap = 4096;
    char *buf = NULL, *out = NULL;

    if (NULL != home && '\0' != home[0]) {
        return strdup(home);
    }
    for (;;) {
        char *nb = realloc(buf, cap);
        int err;
        if (NULL == nb) {
            break;
        }
        buf = nb;
        err = getpwuid_r(getuid(), &pw, buf, cap, &res);
        if (ERANGE == err && cap < (1u << 20)) {
            cap *= 2;
            continue;
        }
        if (0 == err && NULL != res && NULL != pw.pw_dir && '\0' != pw.pw_dir[0]) {
            out = strdup(pw.pw_dir);
        }
        break;
    }
    free(buf);
    return out;
}

static bool is_executable(const char *p)
{
    struct stat sb;
    return 0 == stat(p, &sb) && S_ISREG(sb.st_mode) && 0 == access(p, X_OK);
}

char *wu_path_find_in_path(const char *prog, const char *path_var)
{
    const char *p;

    if (NULL == prog || '\0' == prog[0]) {
        return NULL;
    }
    if (NULL != strchr(prog, '/')) {
        return is_executable(prog) ? strdup(prog) : NULL;
    }
    if (NULL == path_var) {
        path_var = getenv("PATH");
        if (NULL == path_var) {
            path_var = "/usr/bin:/bin";
        }
    }
    for (p = path_var;;) {
        size_t n = strcspn(p, ":");
        char *dir = 0 == n ? strdup(".") : strndup(p, n);
        char *cand = NULL;
        if (NULL != dir) {
            cand = wu_path_join(dir, prog, NULL);
            free(dir);
        }
        if (NULL == cand) {
            return NULL; /* out of memory */
        }
        if (is_executable(cand)) {
            return cand;
        }
        free(cand);
        if ('\0' == p[n]) {
            return NULL;
        }
        p += n + 1;
    }
}
