/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_rdv.c -- the rendezvous directory of the wrun instances of one user (wu_rte_rdv.h).
 *
 * A file holds: the magic line, then packed (PMIx_Data_pack) the key, the publisher, the uid,
 * the persistence, the writing wrun's pid and start time (clock ticks since boot, from
 * /proc/PID/stat: a pid that was reused by another program does not look alive) and the value.
 * It is written under a temporary name and linked to its final name, which fails when the name
 * is taken: the exclusive publish. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pmix/rte/svc/wu_rte_rdv.h"
#include "mca/base/wu_mca_param.h"
#include "opal/class/wu_hash_table.h"
#include "opal/event/wu_progress.h"
#include "opal/util/wu_path.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix.h"

#include <dirent.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define RDV_MAGIC    "wireup-rdv-1\n"
#define RDV_FILE_MAX ((size_t)64 << 20) /* a larger file is not ours */

static char *rdv_dir_param = NULL; /* rte_rdv_dir */
static char *dir;                  /* the directory in use, once made */
static bool unusable;              /* it cannot be used: said once */
static unsigned long long my_start;
static unsigned tmp_seq;

/* The files this wrun wrote and still owns, by path (made with the first). */
typedef struct {
    pmix_persistence_t persist;
    bool other; /* a file of another kind (wu_rte_rdv_put) */
} mine_t;
static wu_hash_table_t *mine;

/* path is ours now; PMIX_ERR_NOMEM: it is removed. */
static pmix_status_t mine_add(const char *path, pmix_persistence_t persist, bool other)
{
    mine_t *m = calloc(1, sizeof *m);
    if (NULL == m || (NULL == mine && NULL == (mine = WU_NEW(wu_hash_table_t))) ||
        WU_SUCCESS != wu_hash_table_set_str(mine, path, m)) {
        free(m);
        (void)unlink(path);
        return PMIX_ERR_NOMEM;
    }
    m->persist = persist;
    m->other = other;
    return PMIX_SUCCESS;
}

/* path is no longer ours: its record (to free), or NULL if it was not. */
static mine_t *mine_take(const char *path)
{
    void *m = NULL;
    if (NULL == mine || WU_SUCCESS != wu_hash_table_get_str(mine, path, &m)) {
        return NULL;
    }
    (void)wu_hash_table_remove_str(mine, path);
    return m;
}

/* Watching. */
#define MAX_WATCHERS 4
static struct event *inev, *tick;
static int infd = -1;
static void (*watchers[MAX_WATCHERS])(void);

static const wu_mca_param_t rdv_params[] = {
    WU_PARAM_STRING("dir", &rdv_dir_param, WU_INFO_LVL_5,
                    "Directory where the wrun instances of a user on one machine share the data "
                    "their jobs publish into the session and global ranges (PMIx_Publish, "
                    "MPI_Publish_name), so that separate jobs can look them up; empty: "
                    "wu-rdv.<uid> in the temporary directory. Instances that should meet must "
                    "use the same directory"),
    WU_PARAM_END};

int wu_rte_rdv_register(void)
{
    static bool done = false;
    int rc = WU_SUCCESS;
    if (!done) {
        rc = wu_mca_param_register_table("rte", "rdv", rdv_params);
        done = WU_SUCCESS == rc;
    }
    return rc;
}

/* Clock ticks since boot at which process pid started, or 0 if it does not exist. */
static unsigned long long start_time(pid_t pid)
{
    char path[64], buf[1024], *p;
    unsigned long long v = 0;
    ssize_t n;
    int fd;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        return 0;
    }
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) {
        return 0;
    }
    buf[n] = '\0';
    if (NULL == (p = strrchr(buf, ')'))) {
        return 0;
    }
    /* fields after the command: state is the 3rd field, the start time the 22nd */
    for (int field = 2; field < 22 && NULL != p; field++) {
        p = strchr(p + 1, ' ');
    }
    if (NULL != p) {
        v = strtoull(p + 1, NULL, 10);
    }
    return v;
}

static bool wrun_alive(int32_t pid, unsigned long long started)
{
    if (pid <= 0 || (0 != kill((pid_t)pid, 0) && EPERM != errno)) {
        return false;
    }
    return start_time((pid_t)pid) == started;
}

/* Make (or check) the directory; false when it cannot be used (said once). */
static bool have_dir(void)
{
    struct stat st;
    char *d = NULL;
    if (NULL != dir) {
        return true;
    }
    if (unusable) {
        return false;
    }
    if (NULL != rdv_dir_param && '\0' != rdv_dir_param[0]) {
        d = strdup(rdv_dir_param);
    } else {
        char name[64];
        snprintf(name, sizeof name, "wu-rdv.%u", (unsigned)getuid());
        d = wu_path_join(wu_tmpdir(), name, NULL);
    }
    if (NULL == d) {
        return false;
    }
    if (0 != mkdir(d, 0700) && EEXIST != errno) {
        wu_rte_say("rdv-mkdir", wu_rte_tool, d, strerror(errno));
        unusable = true;
    } else if (0 != lstat(d, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
               0 != (st.st_mode & 022)) {
        wu_rte_say("rdv-unsafe", wu_rte_tool, d);
        unusable = true;
    }
    if (unusable) {
        free(d);
        return false;
    }
    dir = d;
    my_start = start_time(getpid());
    return true;
}

/* The file name of key (range) in buf: the key in hex when short enough, else a hash of it
 * (the file holds the key, which readers compare). */
static void file_name(char *buf, size_t len, const char *key, pmix_data_range_t range)
{
    size_t klen = strlen(key);
    int off = snprintf(buf, len, "%s/k%u-", dir, (unsigned)range);
    if (2 * klen <= 160) {
        for (size_t i = 0; i < klen && (size_t)off + 3 < len; i++) {
            off += snprintf(buf + off, len - (size_t)off, "%02x", (unsigned char)key[i]);
        }
    } else {
        uint64_t h1 = 1469598103934665603ull, h2 = 1099511628211ull * 31u;
        for (size_t i = 0; i < klen; i++) {
            h1 = (h1 ^ (unsigned char)key[i]) * 1099511628211ull;
            h2 = (h2 ^ (unsigned char)key[i]) * 0x100000001b3ull + 7u;
        }
        snprintf(buf + off, len - (size_t)off, "h%016llx%016llx", (unsigned long long)h1,
                 (unsigned long long)h2);
    }
}

typedef struct {
    char *key;
    pmix_proc_t owner;
    uint32_t uid;
    uint8_t persist;
    int32_t pid;
    uint64_t started;
    pmix_value_t value;
} rec_t;

static void rec_destruct(rec_t *r)
{
    free(r->key);
    PMIX_VALUE_DESTRUCT(&r->value);
}

/* Read the file at path into r. */
static pmix_status_t rec_read(const char *path, rec_t *r)
{
    pmix_data_buffer_t b;
    pmix_byte_object_t bo = {NULL, 0};
    struct stat st;
    int32_t one = 1;
    pmix_status_t rc = PMIX_SUCCESS;
    ssize_t got = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    memset(r, 0, sizeof *r);
    if (fd < 0) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (0 != fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > RDV_FILE_MAX ||
        (size_t)st.st_size < sizeof RDV_MAGIC - 1 || NULL == (bo.bytes = malloc(st.st_size))) {
        close(fd);
        return PMIX_ERR_NOT_FOUND;
    }
    while ((size_t)got < (size_t)st.st_size) {
        ssize_t n = read(fd, bo.bytes + got, (size_t)st.st_size - (size_t)got);
        if (n <= 0) {
            break;
        }
        got += n;
    }
    close(fd);
    if (got != st.st_size || 0 != memcmp(bo.bytes, RDV_MAGIC, sizeof RDV_MAGIC - 1)) {
        free(bo.bytes);
        return PMIX_ERR_NOT_FOUND;
    }
    memmove(bo.bytes, bo.bytes + sizeof RDV_MAGIC - 1, (size_t)got - (sizeof RDV_MAGIC - 1));
    bo.size = (size_t)got - (sizeof RDV_MAGIC - 1);
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    (void)PMIx_Data_load(&b, &bo);
    rc = PMIx_Data_unpack(NULL, &b, &r->key, &one, PMIX_STRING);
    rc = PMIX_SUCCESS == rc ? PMIx_Data_unpack(NULL, &b, &r->owner, &one, PMIX_PROC) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_unpack(NULL, &b, &r->uid, &one, PMIX_UINT32) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_unpack(NULL, &b, &r->persist, &one, PMIX_UINT8) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_unpack(NULL, &b, &r->pid, &one, PMIX_INT32) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_unpack(NULL, &b, &r->started, &one, PMIX_UINT64) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_unpack(NULL, &b, &r->value, &one, PMIX_VALUE) : rc;
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    if (PMIX_SUCCESS != rc || NULL == r->key) {
        rec_destruct(r);
        return PMIX_ERR_NOT_FOUND;
    }
    return PMIX_SUCCESS;
}

/* Is r of a wrun that has ended, with data that do not outlive it? Such a file is removed. */
static bool stale(const rec_t *r)
{
    return PMIX_PERSIST_INDEF != r->persist && !wrun_alive(r->pid, r->started);
}

static bool is_mine(const rec_t *r)
{
    return r->pid == (int32_t)getpid() && r->started == my_start;
}

static pmix_status_t write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && EINTR == errno) {
            continue;
        }
        if (w <= 0) {
            return PMIX_ERROR;
        }
        p += w;
        n -= (size_t)w;
    }
    return PMIX_SUCCESS;
}

pmix_status_t wu_rte_rdv_publish(const char *key, pmix_data_range_t range,
                                 pmix_persistence_t persist, const pmix_proc_t *owner, uint32_t uid,
                                 const pmix_value_t *value)
{
    char path[PATH_MAX], tmp[PATH_MAX];
    pmix_data_buffer_t b;
    int32_t pid = (int32_t)getpid();
    uint8_t p8 = (uint8_t)persist;
    pmix_status_t rc;
    int fd;
    if (!have_dir()) {
        return PMIX_ERR_NOT_AVAILABLE;
    }
    file_name(path, sizeof path, key, range);
    snprintf(tmp, sizeof tmp, "%s/t%d.%u", dir, (int)pid, ++tmp_seq);
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    rc = PMIx_Data_pack(NULL, &b, (void *)&key, 1, PMIX_STRING);
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, (void *)owner, 1, PMIX_PROC) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, &uid, 1, PMIX_UINT32) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, &p8, 1, PMIX_UINT8) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, &pid, 1, PMIX_INT32) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, &my_start, 1, PMIX_UINT64) : rc;
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, (void *)value, 1, PMIX_VALUE) : rc;
    if (PMIX_SUCCESS != rc) {
        PMIX_DATA_BUFFER_DESTRUCT(&b);
        return rc;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        PMIX_DATA_BUFFER_DESTRUCT(&b);
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    rc = write_all(fd, RDV_MAGIC, sizeof RDV_MAGIC - 1);
    rc = PMIX_SUCCESS == rc ? write_all(fd, b.base_ptr, b.bytes_used) : rc;
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    if (0 != close(fd)) {
        rc = PMIX_ERROR;
    }
    for (int tries = 0; PMIX_SUCCESS == rc && tries < 2; tries++) {
        rec_t old;
        if (0 == link(tmp, path)) {
            break;
        }
        if (EEXIST != errno) {
            rc = PMIX_ERROR;
        } else if (PMIX_SUCCESS != rec_read(path, &old)) {
            rc = PMIX_ERR_DUPLICATE_KEY; /* not readable (yet): taken */
        } else {
            bool gone = stale(&old);
            rec_destruct(&old);
            if (!gone || 1 == tries) {
                rc = PMIX_ERR_DUPLICATE_KEY;
            } else {
                (void)unlink(path); /* its wrun has ended: the name is free again */
            }
        }
    }
    (void)unlink(tmp);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return mine_add(path, persist, false);
}

void wu_rte_rdv_unpublish(const char *key, pmix_data_range_t range)
{
    char path[PATH_MAX];
    mine_t *m;
    if (NULL == dir) {
        return;
    }
    file_name(path, sizeof path, key, range);
    if (NULL != (m = mine_take(path))) {
        rec_t r;
        if (PMIX_SUCCESS == rec_read(path, &r)) {
            if (is_mine(&r)) {
                (void)unlink(path); /* a reader may have taken a first-read one already */
            }
            rec_destruct(&r);
        }
        free(m);
    }
}

/* Read another wrun's record of key (range) into r: PMIX_SUCCESS, or PMIX_ERR_NOT_FOUND (none,
 * ours, not for uid, stale: removed, or a hash's other key). */
static pmix_status_t other(const char *key, pmix_data_range_t range, uint32_t uid, char *path,
                           size_t plen, rec_t *r)
{
    if (NULL == dir && !have_dir()) {
        return PMIX_ERR_NOT_FOUND;
    }
    file_name(path, plen, key, range);
    if (PMIX_SUCCESS != rec_read(path, r)) {
        return PMIX_ERR_NOT_FOUND;
    }
    (void)uid; /* the directory is the user's own */
    if (0 != strcmp(r->key, key) || is_mine(r)) {
        rec_destruct(r);
        return PMIX_ERR_NOT_FOUND;
    }
    if (stale(r)) {
        (void)unlink(path);
        rec_destruct(r);
        return PMIX_ERR_NOT_FOUND;
    }
    return PMIX_SUCCESS;
}

bool wu_rte_rdv_has(const char *key, pmix_data_range_t range, uint32_t uid)
{
    char path[PATH_MAX];
    rec_t r;
    if (PMIX_SUCCESS != other(key, range, uid, path, sizeof path, &r)) {
        return false;
    }
    rec_destruct(&r);
    return true;
}

pmix_status_t wu_rte_rdv_lookup(const char *key, pmix_data_range_t range, uint32_t uid,
                                pmix_proc_t *owner, pmix_value_t *value)
{
    char path[PATH_MAX], claim[PATH_MAX];
    rec_t r;
    if (PMIX_SUCCESS != other(key, range, uid, path, sizeof path, &r)) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (PMIX_PERSIST_FIRST_READ == r.persist) {
        /* the first reader takes it: whoever renames it away first */
        snprintf(claim, sizeof claim, "%s/c%d.%u", dir, (int)getpid(), ++tmp_seq);
        if (0 != rename(path, claim)) {
            rec_destruct(&r);
            return PMIX_ERR_NOT_FOUND;
        }
        (void)unlink(claim);
    }
    *owner = r.owner;
    *value = r.value; /* handed over */
    PMIX_VALUE_CONSTRUCT(&r.value);
    rec_destruct(&r);
    return PMIX_SUCCESS;
}

/* ---- watching ----------------------------------------------------------------------------- */

static void changed_cb(evutil_socket_t fd, short what, void *arg)
{
    char buf[4096];
    (void)what;
    (void)arg;
    if (fd >= 0 && fd == infd) {
        while (read(infd, buf, sizeof buf) > 0) {
        }
    }
    for (int i = 0; i < MAX_WATCHERS; i++) {
        if (NULL != watchers[i]) {
            watchers[i]();
        }
    }
}

static void watch_stop(void)
{
    if (NULL != inev) {
        event_free(inev);
        inev = NULL;
    }
    if (NULL != tick) {
        event_free(tick);
        tick = NULL;
    }
    if (infd >= 0) {
        close(infd);
        infd = -1;
    }
}

void wu_rte_rdv_watch(bool on, void (*changed)(void))
{
    struct event_base *base;
    struct timeval second = {1, 0};
    bool any = false;
    for (int i = 0; i < MAX_WATCHERS; i++) {
        if (watchers[i] == changed) {
            watchers[i] = NULL;
        }
    }
    for (int i = 0; on && i < MAX_WATCHERS; i++) {
        if (NULL == watchers[i]) {
            watchers[i] = changed;
            break;
        }
    }
    for (int i = 0; i < MAX_WATCHERS; i++) {
        any = any || NULL != watchers[i];
    }
    if (!any) {
        watch_stop();
        return;
    }
    if (NULL != tick || !have_dir() || NULL == wu_rte_progress()) {
        return;
    }
    base = wu_progress_base(wu_rte_progress());
    /* a look every second in any case (network file systems tell inotify nothing) */
    tick = event_new(base, -1, EV_PERSIST, changed_cb, NULL);
    if (NULL != tick) {
        (void)event_add(tick, &second);
    }
    infd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (infd >= 0 && inotify_add_watch(infd, dir, IN_CREATE | IN_MOVED_TO) < 0) {
        close(infd);
        infd = -1;
    }
    if (infd >= 0 &&
        NULL != (inev = event_new(base, infd, EV_READ | EV_PERSIST, changed_cb, NULL))) {
        (void)event_add(inev, NULL);
    }
}

/* ---- files of other kinds ----------------------------------------------------------------- */

/* Header of such a file: the magic line, then packed INT32 pid and UINT64 start time of the
 * wrun that wrote it; its bytes follow. */
#define RDV_XMAGIC "wireup-rdv-x1\n"

pmix_status_t wu_rte_rdv_put(const char *name, const void *p, size_t n)
{
    char path[PATH_MAX], tmp[PATH_MAX];
    pmix_data_buffer_t b;
    int32_t pid = (int32_t)getpid();
    pmix_status_t rc;
    int fd;
    if (!have_dir()) {
        return PMIX_ERR_NOT_AVAILABLE;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s/t%d.%u", dir, (int)pid, ++tmp_seq);
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    rc = PMIx_Data_pack(NULL, &b, &pid, 1, PMIX_INT32);
    rc = PMIX_SUCCESS == rc ? PMIx_Data_pack(NULL, &b, &my_start, 1, PMIX_UINT64) : rc;
    if (PMIX_SUCCESS != rc || (fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0) {
        PMIX_DATA_BUFFER_DESTRUCT(&b);
        return PMIX_SUCCESS != rc ? rc : PMIX_ERR_FILE_OPEN_FAILURE;
    }
    rc = write_all(fd, RDV_XMAGIC, sizeof RDV_XMAGIC - 1);
    rc = PMIX_SUCCESS == rc ? write_all(fd, b.base_ptr, b.bytes_used) : rc;
    rc = PMIX_SUCCESS == rc ? write_all(fd, p, n) : rc;
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    if (0 != close(fd)) {
        rc = PMIX_ERROR;
    }
    if (PMIX_SUCCESS == rc && 0 != rename(tmp, path)) {
        rc = PMIX_ERROR;
    }
    if (PMIX_SUCCESS != rc) {
        (void)unlink(tmp);
        return rc;
    }
    return mine_add(path, PMIX_PERSIST_SESSION, true);
}

void wu_rte_rdv_remove(const char *name)
{
    char path[PATH_MAX];
    mine_t *m;
    if (NULL == dir) {
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (NULL != (m = mine_take(path))) {
        (void)unlink(path);
        free(m);
    }
}

/* The whole file at path (malloc'd), or NULL. */
static char *slurp(const char *path, size_t *n)
{
    struct stat st;
    char *p;
    ssize_t got = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return NULL;
    }
    if (0 != fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > RDV_FILE_MAX ||
        NULL == (p = malloc((size_t)st.st_size + 1))) {
        close(fd);
        return NULL;
    }
    while (got < st.st_size) {
        ssize_t r = read(fd, p + got, (size_t)(st.st_size - got));
        if (r <= 0) {
            break;
        }
        got += r;
    }
    close(fd);
    if (got != st.st_size) {
        free(p);
        return NULL;
    }
    *n = (size_t)got;
    return p;
}

void wu_rte_rdv_scan(const char *prefix,
                     bool (*fn)(const char *name, const char *p, size_t n, void *arg), void *arg)
{
    DIR *d;
    struct dirent *de;
    size_t plen = strlen(prefix);
    bool go = true;
    if (!have_dir() || NULL == (d = opendir(dir))) {
        return;
    }
    while (go && NULL != (de = readdir(d))) {
        char path[PATH_MAX], *all;
        size_t n = 0, hl = sizeof RDV_XMAGIC - 1;
        pmix_data_buffer_t b;
        pmix_byte_object_t bo;
        int32_t pid = 0, one = 1;
        uint64_t started = 0;
        if (0 != strncmp(de->d_name, prefix, plen)) {
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (NULL == (all = slurp(path, &n))) {
            continue;
        }
        if (n < hl || 0 != memcmp(all, RDV_XMAGIC, hl)) {
            free(all);
            continue;
        }
        bo.bytes = all + hl;
        bo.size = n - hl;
        PMIX_DATA_BUFFER_CONSTRUCT(&b);
        if (PMIX_SUCCESS == PMIx_Data_embed(&b, &bo) &&
            PMIX_SUCCESS == PMIx_Data_unpack(NULL, &b, &pid, &one, PMIX_INT32) &&
            PMIX_SUCCESS == PMIx_Data_unpack(NULL, &b, &started, &one, PMIX_UINT64)) {
            size_t used = (size_t)(b.unpack_ptr - b.base_ptr);
            if (pid == (int32_t)getpid() && started == my_start) {
                /* ours */
            } else if (!wrun_alive(pid, started)) {
                (void)unlink(path); /* its wrun has ended */
            } else {
                go = fn(de->d_name, all + hl + used, n - hl - used, arg);
            }
        }
        PMIX_DATA_BUFFER_DESTRUCT(&b);
        free(all);
    }
    closedir(d);
}

void wu_rte_rdv_finalize(void)
{
    memset(watchers, 0, sizeof watchers);
    watch_stop();
    void *it = NULL, *value;
    const char *name;
    while (NULL != mine && WU_SUCCESS == wu_hash_table_next_str(mine, &it, &name, &value)) {
        mine_t *m = value;
        rec_t r;
        if (m->other) {
            (void)unlink(name);
        } else if (PMIX_PERSIST_INDEF != m->persist && PMIX_SUCCESS == rec_read(name, &r)) {
            if (is_mine(&r)) {
                (void)unlink(name);
            }
            rec_destruct(&r);
        }
        free(m);
    }
    if (NULL != mine) {
        WU_RELEASE(mine);
    }
    if (NULL != dir) {
        (void)rmdir(dir); /* only when empty: other instances may still use it */
        free(dir);
        dir = NULL;
    }
}
