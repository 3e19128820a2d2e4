/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_session_dir.c -- registry of private session directories and their exact removal.
 *
 * Each session remembers the relative paths of what was made or registered in it. Removal
 * walks to each one through directory file descriptors opened with O_NOFOLLOW from the session
 * directory, so a link planted inside cannot send an unlink elsewhere, and removes directories
 * only with rmdir, which fails on anything left inside. */
#include "opal/util/wu_session_dir.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define PREFIX_MAX     32
#define HOST_MAX       32
#define SHORT_NAME_MAX 80  /* leaves room below the 107-byte sun_path limit for socket names */
#define OWNER_MAX      512 /* largest owner file we read */
#define OWNER_VERSION  1

typedef struct {
    char *rel;   /* canonical relative path: components joined by single '/' */
    int depth;   /* number of components */
    size_t seq;  /* registration order, for a stable deepest-first sort */
    bool is_dir; /* made by wu_session_dir_mkdir */
} entry_t;

typedef struct session {
    struct session *next;
    char *path;
    pid_t pid; /* creator: remove_all leaves other processes' sessions alone */
    entry_t *entries;
    size_t n, cap;
} session_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static session_t *sessions;

static int errno_to_rc(int e)
{
    return ENOTDIR == e ? WU_ERR_NOT_FOUND : wu_status_from_errno(e);
}

static void session_free(session_t *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->entries[i].rel);
    }
    free(s->entries);
    free(s->path);
    free(s);
}

/* Length of p without trailing slashes (but "/" stays "/"). */
static size_t trimmed_len(const char *p)
{
    size_t len = strlen(p);
    while (len > 1 && '/' == p[len - 1]) {
        len--;
    }
    return len;
}

/* Caller holds the lock. link (may be NULL) receives the pointer that points at the session. */
static session_t *session_find(const char *path, session_t ***link)
{
    size_t len;
    session_t **pp;

    if (NULL == path) {
        return NULL;
    }
    len = trimmed_len(path);
    for (pp = &sessions; NULL != *pp; pp = &(*pp)->next) {
        if (strlen((*pp)->path) == len && 0 == strncmp((*pp)->path, path, len)) {
            if (NULL != link) {
                *link = pp;
            }
            return *pp;
        }
    }
    return NULL;
}

/* Canonical form of a relative path: empty components dropped, "." and ".." refused.
 * *out is malloc'd; *depth counts components. */
static int canon_rel(const char *rel, char **out, int *depth)
{
    size_t len = strlen(rel), pos = 0;
    char *buf;
    int d = 0;

    *out = NULL;
    if ('/' == rel[0]) {
        return WU_ERR_BAD_PARAM;
    }
    buf = malloc(len + 1);
    if (NULL == buf) {
        return WU_ERR_NOMEM;
    }
    for (const char *p = rel; '\0' != *p;) {
        size_t n;
        p += strspn(p, "/");
        n = strcspn(p, "/");
        if (0 == n) {
            break;
        }
        if ((1 == n && '.' == p[0]) || (2 == n && 0 == strncmp(p, "..", 2)) || n > NAME_MAX) {
            free(buf);
            return WU_ERR_BAD_PARAM;
        }
        if (pos > 0) {
            buf[pos++] = '/';
        }
        memcpy(buf + pos, p, n);
        pos += n;
        p += n;
        d++;
    }
    buf[pos] = '\0';
    if (0 == d) {
        free(buf);
        return WU_ERR_BAD_PARAM;
    }
    *out = buf;
    *depth = d;
    return WU_SUCCESS;
}

static entry_t *entry_find(session_t *s, const char *rel)
{
    for (size_t i = 0; i < s->n; i++) {
        if (0 == strcmp(s->entries[i].rel, rel)) {
            return &s->entries[i];
        }
    }
    return NULL;
}

/* Register rel (taking ownership of it on success). */
static int entry_add(session_t *s, char *rel, int depth, bool is_dir)
{
    static size_t seq;
    entry_t *e = entry_find(s, rel);

    if (NULL != e) {
        e->is_dir = e->is_dir || is_dir;
        free(rel);
        return WU_SUCCESS;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        entry_t *ne = realloc(s->entries, cap * sizeof(*ne));
        if (NULL == ne) {
            return WU_ERR_NOMEM;
        }
        s->entries = ne;
        s->cap = cap;
    }
    s->entries[s->n++] = (entry_t){.rel = rel, .depth = depth, .seq = seq++, .is_dir = is_dir};
    return WU_SUCCESS;
}

/* Short host name for the directory name: up to the first '.', [A-Za-z0-9-] only. */
static void short_host(char *out, size_t cap)
{
    char host[256] = "";
    size_t i;

    if (0 != gethostname(host, sizeof host - 1)) {
        strcpy(host, "localhost");
    }
    for (i = 0; i + 1 < cap && '\0' != host[i] && '.' != host[i]; i++) {
        char c = host[i];
        bool ok = ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9');
        out[i] = ok ? c : '-';
    }
    out[i] = '\0';
}

static void keep_first(int *rc, int r)
{
    if (WU_SUCCESS == *rc) {
        *rc = r;
    }
}

/* ---- owners and stale directories ---------------------------------------------------------- */

/* Who made a session directory: enough to tell later, from another process, whether that
 * process still runs (pid plus its start time guards against pid reuse; boot id, pid namespace
 * and host say whether the pid can be judged from here at all). */
typedef struct {
    long pid;
    unsigned long long start; /* /proc/PID/stat field 22, clock ticks after boot; 0 unknown */
    unsigned long long pidns; /* inode of /proc/self/ns/pid; 0 unknown */
    char boot[64];            /* /proc/sys/kernel/random/boot_id; "-" unknown */
    char host[256];           /* gethostname; "-" unknown */
} owner_t;

/* State (field 3) and start time (field 22) of process pid from /proc/PID/stat.
 * 0, ENOENT (no such process) or another errno. */
static int proc_stat(long pid, char *state, unsigned long long *start)
{
    char path[64], buf[1024], *p;
    ssize_t n;
    int fd, field;

    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        return errno;
    }
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) {
        return n < 0 ? errno : EIO;
    }
    buf[n] = '\0';
    /* "pid (comm) S ppid ...": comm may hold spaces and parentheses; fields follow the last ')' */
    if (NULL == (p = strrchr(buf, ')')) || ' ' != p[1]) {
        return EIO;
    }
    p += 2;
    *state = *p;
    for (field = 3; field < 22 && NULL != p; field++) {
        p = strchr(p, ' ');
        p = NULL != p ? p + 1 : NULL;
    }
    if (NULL == p || 1 != sscanf(p, "%llu", start)) {
        return EIO;
    }
    return 0;
}

/* One line of a small file into buf, newline removed; "-" if it cannot be read. */
static void read_word(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;
    if (fd >= 0) {
        close(fd);
    }
    if (n <= 0) {
        snprintf(buf, size, "-");
        return;
    }
    buf[n] = '\0';
    buf[strcspn(buf, "\n \t")] = '\0';
    if ('\0' == buf[0]) {
        snprintf(buf, size, "-");
    }
}

static void owner_self(owner_t *o)
{
    struct stat sb;
    char state;

    memset(o, 0, sizeof *o);
    o->pid = (long)getpid();
    if (0 != proc_stat(o->pid, &state, &o->start)) {
        o->start = 0;
    }
    o->pidns = 0 == stat("/proc/self/ns/pid", &sb) ? (unsigned long long)sb.st_ino : 0;
    read_word("/proc/sys/kernel/random/boot_id", o->boot, sizeof o->boot);
    if (0 != gethostname(o->host, sizeof o->host - 1) || '\0' == o->host[0]) {
        snprintf(o->host, sizeof o->host, "-");
    }
    o->host[strcspn(o->host, " \t\n")] = '\0';
}

/* Write the owner file into the new session directory (fd). */
static int owner_write(int dfd)
{
    char line[OWNER_MAX];
    owner_t o;
    int fd, len, rc = WU_SUCCESS;

    owner_self(&o);
    len = snprintf(line, sizeof line, "%d %ld %llu %llu %s %s\n", OWNER_VERSION, o.pid, o.start,
                   o.pidns, o.boot, o.host);
    if (len <= 0 || (size_t)len >= sizeof line) {
        return WU_ERR_SYS;
    }
    fd = openat(dfd, WU_SESSION_DIR_OWNER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                0600);
    if (fd < 0) {
        return errno_to_rc(errno);
    }
    if (write(fd, line, (size_t)len) != len) {
        rc = WU_ERR_SYS;
    }
    if (0 != close(fd) && WU_SUCCESS == rc) {
        rc = WU_ERR_SYS;
    }
    return rc;
}

/* Read the owner file of the session directory dfd. False when there is none (being created,
 * or made by a Wireup that wrote none) or it is not a small regular file of ours. */
static bool owner_read(int dfd, owner_t *o)
{
    char buf[OWNER_MAX];
    struct stat sb;
    ssize_t n;
    int fd, version;

    fd = openat(dfd, WU_SESSION_DIR_OWNER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        return false;
    }
    if (0 != fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid()) {
        close(fd);
        return false;
    }
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0 || '\n' != buf[n - 1]) {
        return false; /* empty or cut short: still being written */
    }
    buf[n] = '\0';
    memset(o, 0, sizeof *o);
    return 6 == sscanf(buf, "%d %ld %llu %llu %63s %255s", &version, &o->pid, &o->start, &o->pidns,
                       o->boot, o->host) &&
           OWNER_VERSION == version && o->pid > 0;
}

/* Is the process that wrote o certainly gone? False whenever it cannot be told from here. */
static bool owner_gone(const owner_t *o, const owner_t *me)
{
    unsigned long long start;
    char state;
    int err;

    if (0 != strcmp(o->host, me->host) || o->pidns != me->pidns) {
        return false; /* another host or container: its pids are not ours to judge */
    }
    if (0 != strcmp(o->boot, "-") && 0 != strcmp(me->boot, "-") && 0 != strcmp(o->boot, me->boot)) {
        return true; /* the machine rebooted since */
    }
    if (0 == me->start) {
        /* no /proc here: only whether the pid exists */
        return 0 != kill((pid_t)o->pid, 0) && ESRCH == errno;
    }
    err = proc_stat(o->pid, &state, &start);
    if (ENOENT == err) {
        return true;
    }
    if (0 != err) {
        return false;
    }
    /* a zombie has ended; another start time is another process under the same pid */
    return 'Z' == state || 'X' == state || (0 != o->start && start != o->start);
}

/* Does name have the form create() gives, "<prefix>.[<host>.]<uid>.XXXXXX", for this uid? */
static bool name_matches(const char *name, const char *prefix, unsigned uid)
{
    char uidtext[16];
    size_t nl = strlen(name), pl = strlen(prefix), ul;
    const char *tail, *u;

    ul = (size_t)snprintf(uidtext, sizeof uidtext, "%u", uid);
    if (nl < pl + 1 + ul + 1 + 6 || 0 != strncmp(name, prefix, pl) || '.' != name[pl]) {
        return false;
    }
    tail = name + nl - 6;
    for (int i = 0; i < 6; i++) {
        if (!isalnum((unsigned char)tail[i])) {
            return false;
        }
    }
    u = tail - 1 - ul;
    if ('.' != tail[-1] || u < name + pl + 1 || 0 != strncmp(u, uidtext, ul)) {
        return false;
    }
    if (u == name + pl + 1) {
        return true; /* no host part */
    }
    if ('.' != u[-1] || u - 1 - (name + pl + 1) > HOST_MAX || u - 1 == name + pl + 1) {
        return false;
    }
    for (const char *h = name + pl + 1; h < u - 1; h++) {
        if (!isalnum((unsigned char)*h) && '-' != *h) {
            return false;
        }
    }
    return true;
}

/* Is entry name of the directory tfd a stale session directory of ours? */
static bool is_stale(int tfd, const char *name, const char *prefix, const owner_t *me)
{
    struct stat sb, db;
    owner_t o;
    bool stale;
    int dfd;

    if (!name_matches(name, prefix, (unsigned)getuid()) ||
        0 != fstatat(tfd, name, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(sb.st_mode) ||
        sb.st_uid != geteuid() || 0 != (sb.st_mode & 077)) {
        return false;
    }
    dfd = openat(tfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        return false;
    }
    stale = 0 == fstat(dfd, &db) && db.st_dev == sb.st_dev && db.st_ino == sb.st_ino &&
            owner_read(dfd, &o) && owner_gone(&o, me);
    close(dfd);
    return stale;
}

int wu_session_dir_sweep(const char *tmpdir, const char *prefix, unsigned *removed)
{
    struct dirent *de;
    owner_t me;
    DIR *d;
    int tfd, rc = WU_SUCCESS;

    if (NULL != removed) {
        *removed = 0;
    }
    if (NULL == tmpdir) {
        tmpdir = wu_tmpdir();
    }
    if (NULL == prefix) {
        prefix = "wireup";
    }
    if ('/' != tmpdir[0] || '\0' == prefix[0] || NULL != strchr(prefix, '/')) {
        return WU_ERR_BAD_PARAM;
    }
    if ((tfd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        return errno_to_rc(errno);
    }
    if (NULL == (d = fdopendir(tfd))) {
        rc = errno_to_rc(errno);
        close(tfd);
        return rc;
    }
    owner_self(&me);
    while (NULL != (de = readdir(d))) {
        char *path;
        int r;
        if (!is_stale(tfd, de->d_name, prefix, &me)) {
            continue;
        }
        /* rm_tree never follows a link: a directory swapped for one since is safe */
        if (NULL == (path = wu_path_join(tmpdir, de->d_name, NULL))) {
            keep_first(&rc, WU_ERR_NOMEM);
            continue;
        }
        r = wu_path_rm_tree(path);
        free(path);
        if (WU_SUCCESS == r && NULL != removed) {
            (*removed)++;
        }
        if (WU_ERR_NOT_FOUND != r) {
            keep_first(&rc, r);
        }
    }
    closedir(d);
    return rc;
}

int wu_session_dir_create(const char *tmpdir, const char *prefix, char **path)
{
    char host[HOST_MAX + 1], *tmpl = NULL, *owner = NULL;
    size_t tlen;
    session_t *s;
    int rc;

    if (NULL == path) {
        return WU_ERR_BAD_PARAM;
    }
    *path = NULL;
    if (NULL == prefix) {
        prefix = "wireup";
    }
    if ('\0' == prefix[0] || strlen(prefix) > PREFIX_MAX || NULL != strchr(prefix, '/')) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == tmpdir) {
        tmpdir = wu_tmpdir();
    }
    if ('/' != tmpdir[0]) {
        return WU_ERR_BAD_PARAM;
    }
    tlen = trimmed_len(tmpdir);
    if (1 == tlen) {
        tlen = 0; /* tmpdir "/": avoid "//name" */
    }
    short_host(host, sizeof host);
    rc = wu_asprintf(&tmpl, "%.*s/%s.%s.%u.XXXXXX", (int)tlen, tmpdir, prefix, host,
                     (unsigned)getuid());
    if (WU_SUCCESS == rc && strlen(tmpl) > SHORT_NAME_MAX) {
        free(tmpl);
        rc = wu_asprintf(&tmpl, "%.*s/%s.%u.XXXXXX", (int)tlen, tmpdir, prefix, (unsigned)getuid());
    }
    if (WU_SUCCESS != rc) {
        return rc;
    }
    /* leftovers of our own killed processes go first; a failure there is not ours to report */
    (void)wu_session_dir_sweep(tmpdir, prefix, NULL);
    if (NULL == mkdtemp(tmpl)) {
        rc = errno_to_rc(errno);
        free(tmpl);
        return WU_ERR_EXISTS == rc ? WU_ERR_SYS : rc;
    }
    s = calloc(1, sizeof(*s));
    *path = strdup(tmpl);
    owner = strdup(WU_SESSION_DIR_OWNER);
    rc = NULL == s || NULL == *path || NULL == owner ? WU_ERR_NOMEM : WU_SUCCESS;
    if (WU_SUCCESS == rc) {
        int dfd = open(tmpl, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        rc = dfd < 0 ? errno_to_rc(errno) : owner_write(dfd);
        if (dfd >= 0) {
            if (WU_SUCCESS != rc) {
                (void)unlinkat(dfd, WU_SESSION_DIR_OWNER, 0);
            }
            close(dfd);
        }
    }
    if (WU_SUCCESS == rc && WU_SUCCESS != (rc = entry_add(s, owner, 1, false))) {
        char *p = wu_path_join(tmpl, WU_SESSION_DIR_OWNER, NULL);
        if (NULL != p) {
            (void)unlink(p);
        }
        free(p);
    }
    if (WU_SUCCESS != rc) {
        (void)rmdir(tmpl);
        free(tmpl);
        if (NULL != s) {
            free(s->entries);
        }
        free(s);
        free(owner);
        free(*path);
        *path = NULL;
        return rc;
    }
    s->path = tmpl;
    s->pid = getpid();
    pthread_mutex_lock(&lock);
    s->next = sessions;
    sessions = s;
    pthread_mutex_unlock(&lock);
    return WU_SUCCESS;
}

/* Open directory component name below dirfd without following a link. */
static int open_dir_at(int dirfd, const char *name)
{
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int mkdir_locked(session_t *s, const char *name, char **path)
{
    char *rel = NULL, *comp;
    int depth, fd, rc, d = 0;

    rc = canon_rel(name, &rel, &depth);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    fd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        free(rel);
        return errno_to_rc(errno);
    }
    /* rel is walked component by component; prefix rel[0..end) names the current level. */
    for (comp = rel; WU_SUCCESS == rc && d < depth; d++) {
        char *slash = strchr(comp, '/');
        bool last = d + 1 == depth;
        int next;

        if (NULL != slash) {
            *slash = '\0';
        }
        if (0 == mkdirat(fd, comp, 0700)) {
            char *mine = strdup(rel); /* rel is cut at this component: the prefix so far */
            rc = NULL == mine ? WU_ERR_NOMEM : entry_add(s, mine, d + 1, true);
            if (WU_SUCCESS != rc) {
                free(mine);
                (void)unlinkat(fd, comp, AT_REMOVEDIR);
            }
        } else if (EEXIST != errno) {
            rc = errno_to_rc(errno);
        } else if (last) {
            entry_t *e = entry_find(s, rel);
            rc = NULL != e && e->is_dir ? WU_SUCCESS : WU_ERR_EXISTS;
        }
        if (WU_SUCCESS == rc && !last) {
            next = open_dir_at(fd, comp);
            if (next < 0) {
                rc = ELOOP == errno || ENOTDIR == errno ? WU_ERR_EXISTS : errno_to_rc(errno);
            } else {
                close(fd);
                fd = next;
            }
        }
        if (NULL != slash) {
            *slash = '/';
            comp = slash + 1;
        }
    }
    close(fd);
    if (WU_SUCCESS == rc && NULL != path) {
        *path = wu_path_join(s->path, rel, NULL);
        rc = NULL == *path ? WU_ERR_NOMEM : WU_SUCCESS;
    }
    free(rel);
    return rc;
}

int wu_session_dir_mkdir(const char *session, const char *name, char **path)
{
    session_t *s;
    int rc;

    if (NULL != path) {
        *path = NULL;
    }
    if (NULL == session || NULL == name) {
        return WU_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&lock);
    s = session_find(session, NULL);
    rc = NULL == s ? WU_ERR_NOT_FOUND : mkdir_locked(s, name, path);
    pthread_mutex_unlock(&lock);
    return rc;
}

int wu_session_dir_track(const char *session, const char *path)
{
    session_t *s;
    char *rel = NULL;
    int rc, depth;

    if (NULL == session || NULL == path) {
        return WU_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&lock);
    s = session_find(session, NULL);
    if (NULL == s) {
        rc = WU_ERR_NOT_FOUND;
    } else if ('/' == path[0]) {
        size_t len = strlen(s->path);
        if (0 != strncmp(path, s->path, len) || '/' != path[len]) {
            rc = WU_ERR_BAD_PARAM;
        } else {
            rc = canon_rel(path + len + 1 + strspn(path + len + 1, "/"), &rel, &depth);
        }
    } else {
        rc = canon_rel(path, &rel, &depth);
    }
    if (WU_SUCCESS == rc) {
        rc = entry_add(s, rel, depth, false);
        if (WU_SUCCESS != rc) {
            free(rel);
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Deepest first; among equals, the later registration first. */
static int entry_cmp(const void *a, const void *b)
{
    const entry_t *x = a, *y = b;
    if (x->depth != y->depth) {
        return x->depth > y->depth ? -1 : 1;
    }
    return x->seq > y->seq ? -1 : (x->seq < y->seq ? 1 : 0);
}

/* Remove one registered entry below the session directory fd. */
static int remove_entry(int sfd, const entry_t *e)
{
    char *rel = strdup(e->rel), *base, *comp, *save = NULL;
    int fd = sfd, rc = WU_SUCCESS;
    struct stat sb;

    if (NULL == rel) {
        return WU_ERR_NOMEM;
    }
    base = strrchr(rel, '/');
    if (NULL != base) {
        /* Walk down to the parent; a missing or replaced level means the entry is not there. */
        *base++ = '\0';
        for (comp = strtok_r(rel, "/", &save); NULL != comp; comp = strtok_r(NULL, "/", &save)) {
            int next = open_dir_at(fd, comp);
            if (fd != sfd) {
                close(fd);
            }
            fd = next;
            if (fd < 0) {
                free(rel);
                return WU_SUCCESS;
            }
        }
    } else {
        base = rel;
    }
    if (0 != fstatat(fd, base, &sb, AT_SYMLINK_NOFOLLOW)) {
        if (ENOENT != errno) {
            rc = errno_to_rc(errno);
        }
    } else if (0 != unlinkat(fd, base, S_ISDIR(sb.st_mode) ? AT_REMOVEDIR : 0)) {
        if (ENOENT != errno) {
            rc = errno_to_rc(errno); /* ENOTEMPTY: someone else's files are inside */
        }
    }
    if (fd != sfd) {
        close(fd);
    }
    free(rel);
    return rc;
}

/* The disk side of a removal. The caller holds the lock and frees s afterwards. */
static int remove_locked(session_t *s)
{
    int sfd, rc = WU_SUCCESS;

    sfd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sfd < 0) {
        /* Already gone: nothing of ours is left. A link in its place is not ours to follow. */
        return ENOENT == errno ? WU_SUCCESS : errno_to_rc(errno);
    }
    if (s->n > 1) {
        qsort(s->entries, s->n, sizeof(entry_t), entry_cmp);
    }
    for (size_t i = 0; i < s->n; i++) {
        keep_first(&rc, remove_entry(sfd, &s->entries[i]));
    }
    close(sfd);
    if (0 != rmdir(s->path) && ENOENT != errno) {
        keep_first(&rc, errno_to_rc(errno));
    }
    return rc;
}

int wu_session_dir_remove(const char *session)
{
    session_t *s, **link = NULL;
    int rc;

    pthread_mutex_lock(&lock);
    s = session_find(session, &link);
    if (NULL == s) {
        pthread_mutex_unlock(&lock);
        return NULL == session ? WU_ERR_BAD_PARAM : WU_ERR_NOT_FOUND;
    }
    *link = s->next;
    rc = remove_locked(s);
    pthread_mutex_unlock(&lock);
    session_free(s);
    return rc;
}

int wu_session_dir_remove_all(void)
{
    pid_t me = getpid();
    int rc = WU_SUCCESS;

    pthread_mutex_lock(&lock);
    while (NULL != sessions) {
        session_t *s = sessions;
        sessions = s->next;
        if (s->pid == me) {
            keep_first(&rc, remove_locked(s));
        }
        session_free(s);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
