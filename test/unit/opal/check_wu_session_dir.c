/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_session_dir.c -- tests of private session directories: creation, naming, exact
 * removal that spares foreign files and link targets, fork and thread behaviour, and the
 * sweep of stale directories left by killed processes.
 *
 * Each test gets its own base directory (passed as tmpdir) below a per-case mkdtemp root, and
 * checks at its end that the base is empty: the module must leave nothing behind but what the
 * test planted, which the test removes itself. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_session_dir.h"
#include "test/support/wu_test.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmproot[4096];
static char *base; /* this test's tmpdir */

static void root_setup(void)
{
    char *t = wu_path_join(wu_tmpdir(), "check_wu_session_dir.XXXXXX", NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(mkdtemp(t));
    snprintf(tmproot, sizeof tmproot, "%s", t);
    free(t);
}

static void root_teardown(void)
{
    ck_assert_str_ne("", tmproot);
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(tmproot));
}

/* Checked fixture: a fresh base per test. */
static void base_setup(void)
{
    static int n;
    char name[32];
    snprintf(name, sizeof name, "base%d.%d", (int)getpid(), n++);
    base = wu_path_join(tmproot, name, NULL);
    ck_assert_int_eq(0, mkdir(base, 0700));
    umask(022);
}

static void base_teardown(void)
{
    free(base);
    base = NULL;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    ck_assert_ptr_nonnull(d);
    while (NULL != (de = readdir(d))) {
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    }
    closedir(d);
    return n;
}

static void assert_base_empty(void)
{
    ck_assert_int_eq(0, count_entries(base));
}

static void make_file(const char *path, const char *content)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_msg(fd >= 0, "cannot create %s", path);
    ck_assert_int_eq((ssize_t)strlen(content), write(fd, content, strlen(content)));
    close(fd);
}

static bool exists(const char *path)
{
    struct stat sb;
    return 0 == lstat(path, &sb);
}

/* session/rel, malloc'd */
static char *in(const char *session, const char *rel)
{
    char *p = wu_path_join(session, rel, NULL);
    ck_assert_ptr_nonnull(p);
    return p;
}

START_TEST(create_mode_and_name)
{
    char *s = NULL, *expect_start, *bn;
    struct stat sb;
    int dots = 0;

    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(0, lstat(s, &sb));
    ck_assert(S_ISDIR(sb.st_mode));
    ck_assert_int_eq(0700, sb.st_mode & 07777);
    ck_assert_int_eq(getuid(), sb.st_uid);
    expect_start = wu_path_join(base, "wutest.", NULL);
    ck_assert_int_eq(0, strncmp(s, expect_start, strlen(expect_start)));
    bn = strrchr(s, '/') + 1;
    for (const char *p = bn; *p; p++) {
        dots += '.' == *p;
    }
    if (strlen(s) <= 80) {
        ck_assert_int_eq(3, dots); /* prefix.host.uid.XXXXXX */
    }
    {
        char uidpart[32];
        snprintf(uidpart, sizeof uidpart, ".%u.", (unsigned)getuid());
        ck_assert_ptr_nonnull(strstr(bn, uidpart));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    ck_assert(!exists(s));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_session_dir_remove(s));
    free(expect_start);
    free(s);
    assert_base_empty();
}
END_TEST

/* A long tmpdir drops the host from the name to stay short. */
START_TEST(create_long_tmpdir)
{
    char *longdir = in(base, "a-rather-long-directory-name-to-push-the-session-path-past-80");
    char *s = NULL, *bn;
    int dots = 0;

    ck_assert_int_eq(0, mkdir(longdir, 0700));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(longdir, "wutest", &s));
    bn = strrchr(s, '/') + 1;
    for (const char *p = bn; *p; p++) {
        dots += '.' == *p;
    }
    ck_assert_int_eq(2, dots); /* prefix.uid.XXXXXX */
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    ck_assert_int_eq(0, rmdir(longdir));
    free(s);
    free(longdir);
    assert_base_empty();
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

START_TEST(create_unique)
{
    enum { N = 300 };
    char *paths[N];

    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, NULL, &paths[i]));
    }
    ck_assert_int_eq(N, count_entries(base));
    qsort(paths, N, sizeof(char *), cmp_str);
    for (int i = 1; i < N; i++) {
        ck_assert_str_ne(paths[i - 1], paths[i]);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove_all());
    for (int i = 0; i < N; i++) {
        ck_assert(!exists(paths[i]));
        free(paths[i]);
    }
    assert_base_empty();
}
END_TEST

START_TEST(create_errors)
{
    char *s = (char *)"sentinel", *missing = in(base, "missing"), *saved;
    char longprefix[40];
    int rc;

    memset(longprefix, 'p', sizeof longprefix - 1);
    longprefix[sizeof longprefix - 1] = '\0';
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_create(base, "x", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_create(base, "", &s));
    ck_assert_ptr_null(s);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_create(base, "a/b", &s));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_create(base, longprefix, &s));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_create("relative/dir", "x", &s));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_session_dir_create(missing, "x", &s));
    ck_assert_ptr_null(s);

    /* tmpdir NULL uses wu_tmpdir(): point it at base */
    saved = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", base, 1);
    rc = wu_session_dir_create(NULL, "viaenv", &s);
    if (NULL != saved) { /* restore, for CK_FORK=no runs */
        setenv("TMPDIR", saved, 1);
    } else {
        unsetenv("TMPDIR");
    }
    free(saved);
    ck_assert_int_eq(WU_SUCCESS, rc);
    ck_assert_int_eq(0, strncmp(s, base, strlen(base)));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    free(s);
    /* a trailing slash on tmpdir gives no "//" */
    {
        char *slashed = wu_path_join(base, "/", NULL);
        ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(slashed, "x", &s));
        ck_assert_ptr_null(strstr(s, "//"));
        /* the session is found with a trailing slash too */
        char *s2 = wu_path_join(s, "/", NULL);
        ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s2));
        free(s2);
        free(s);
        free(slashed);
    }
    free(missing);
    assert_base_empty();
}
END_TEST

/* Populate a session with made and tracked things plus a foreign file. */
static void populate(const char *s)
{
    char *p, *q;

    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_mkdir(s, "a", &p));
    ck_assert_str_eq(q = in(s, "a"), p);
    free(p);
    free(q);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_mkdir(s, "a/b//c/", NULL));
    p = in(s, "a/b/c/f");
    make_file(p, "ours");
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, p)); /* absolute */
    free(p);
    p = in(s, "a/x");
    make_file(p, "ours");
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "a/x")); /* relative */
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "a/x")); /* twice is harmless */
    free(p);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "sock")); /* never created */
    p = in(s, "a/b/foreign");
    make_file(p, "theirs");
    free(p);
}

/* Check that only the foreign file and its parents remain, then clean up by hand. */
static void assert_only_foreign_left(const char *s)
{
    char *p;
    ck_assert(exists(p = in(s, "a/b/foreign")));
    free(p);
    ck_assert(!exists(p = in(s, "a/b/c")));
    free(p);
    ck_assert(!exists(p = in(s, "a/x")));
    free(p);
    ck_assert_int_eq(1, count_entries(s));
    ck_assert_int_eq(1, count_entries(p = in(s, "a")));
    free(p);
    ck_assert_int_eq(1, count_entries(p = in(s, "a/b")));
    free(p);
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(s));
}

START_TEST(remove_spares_foreign)
{
    char *s;
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    populate(s);
    ck_assert_int_eq(WU_ERR_EXISTS, wu_session_dir_remove(s));
    assert_only_foreign_left(s);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_session_dir_remove(s)); /* forgotten */
    free(s);
    assert_base_empty();
}
END_TEST

START_TEST(remove_all_spares_foreign)
{
    char *s, *clean;
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "clean", &clean));
    populate(s);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_mkdir(clean, "d/e", NULL));
    ck_assert_int_eq(WU_ERR_EXISTS, wu_session_dir_remove_all());
    ck_assert(!exists(clean));
    assert_only_foreign_left(s);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove_all()); /* nothing left to do */
    free(s);
    free(clean);
    assert_base_empty();
}
END_TEST

START_TEST(remove_everything_tracked)
{
    char *s, *p;
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_mkdir(s, "x/y/z", NULL));
    p = in(s, "x/y/z/sock");
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, p));
    make_file(p, "");
    free(p);
    p = in(s, "x/link");
    /* Never point a link at "/" or any real system directory in a test that removes trees:
     * a bug would then delete the machine. A private canary directory proves the same thing. */
    {
        char *canary = wu_path_join(tmproot, "canary", NULL);
        ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(canary, 0700));
        ck_assert_int_eq(0, symlink(canary, p));
        free(canary);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "x/link"));
    free(p);
    p = in(s, "fifo");
    ck_assert_int_eq(0, mkfifo(p, 0600));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "fifo"));
    free(p);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    ck_assert(!exists(s));
    free(s);
    assert_base_empty();
}
END_TEST

/* A link inside the session pointing outside: tracked paths through it are not followed and
 * the target survives. */
START_TEST(remove_does_not_follow_links)
{
    char *s, *outside = in(base, "outside"), *victim = in(base, "outside/victim"), *p;

    ck_assert_int_eq(0, mkdir(outside, 0700));
    make_file(victim, "precious");
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    p = in(s, "link");
    ck_assert_int_eq(0, symlink(outside, p));
    free(p);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "link/victim"));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_track(s, "link"));
    /* mkdir through the link is refused */
    ck_assert_int_eq(WU_ERR_EXISTS, wu_session_dir_mkdir(s, "link/sub", NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    ck_assert(!exists(s));
    ck_assert(exists(victim));
    ck_assert_int_eq(1, count_entries(outside));
    ck_assert_int_eq(0, unlink(victim));
    ck_assert_int_eq(0, rmdir(outside));
    free(s);
    free(outside);
    free(victim);
    assert_base_empty();
}
END_TEST

static const struct {
    const char *name;
    int rc;
} mkdir_cases[] = {
    {"", WU_ERR_BAD_PARAM},       {"/abs", WU_ERR_BAD_PARAM},      {".", WU_ERR_BAD_PARAM},
    {"..", WU_ERR_BAD_PARAM},     {"../x", WU_ERR_BAD_PARAM},      {"a/../b", WU_ERR_BAD_PARAM},
    {"a/./b", WU_ERR_BAD_PARAM},  {"//", WU_ERR_BAD_PARAM},        {"plain", WU_ERR_EXISTS},
    {"plain/sub", WU_ERR_EXISTS}, {"foreign", WU_ERR_EXISTS},      {"foreign/sub", WU_SUCCESS},
    {"ok", WU_SUCCESS},           {"ok/deeper/still", WU_SUCCESS},
};

START_TEST(mkdir_table)
{
    char *s, *p, *got = (char *)"sentinel";
    int rc;

    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    p = in(s, "plain");
    make_file(p, "");
    free(p);
    p = in(s, "foreign");
    ck_assert_int_eq(0, mkdir(p, 0700)); /* a directory someone else made */
    free(p);

    rc = wu_session_dir_mkdir(s, mkdir_cases[_i].name, &got);
    ck_assert_int_eq(mkdir_cases[_i].rc, rc);
    if (WU_SUCCESS == rc) {
        struct stat sb;
        ck_assert_int_eq(0, lstat(got, &sb));
        ck_assert(S_ISDIR(sb.st_mode));
        ck_assert_int_eq(0700, sb.st_mode & 07777);
        /* again: idempotent */
        free(got);
        ck_assert_int_eq(WU_SUCCESS, wu_session_dir_mkdir(s, mkdir_cases[_i].name, &got));
    } else {
        ck_assert_ptr_null(got);
    }
    free(got);
    /* only what we made goes; plain and foreign remain */
    ck_assert_int_eq(WU_ERR_EXISTS, wu_session_dir_remove(s));
    ck_assert_int_eq(2, count_entries(s));
    p = in(s, "foreign");
    ck_assert_int_eq(0, count_entries(p));
    free(p);
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(s));
    free(s);
    assert_base_empty();
}
END_TEST

START_TEST(track_and_unknown_session_errors)
{
    char *s, *sibling, *other, *p, *canary;

    /* Paths outside the session point at a canary in the test's own base, never at system
     * files, so that a regression cannot reach beyond the sandbox. */
    canary = in(base, "canary");
    make_file(canary, "alive");
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, canary));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, s)); /* the session itself */
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, "../canary"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, ""));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(NULL, "x"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_mkdir(NULL, "x", NULL));
    p = wu_path_join(s, "..", "canary", NULL);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, p));
    free(p);
    /* a sibling sharing the session's name as a prefix is outside it */
    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&sibling, "%sX/file", s));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_track(s, sibling));
    free(sibling);

    other = in(base, "not-a-session");
    ck_assert_int_eq(0, mkdir(other, 0700));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_session_dir_track(other, "x"));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_session_dir_mkdir(other, "x", NULL));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_session_dir_remove(other));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_session_dir_remove(NULL));
    ck_assert_int_eq(0, count_entries(other));
    ck_assert_int_eq(0, rmdir(other));
    free(other);

    /* a session removed behind our back (its owner file, then itself) is not an error */
    p = in(s, WU_SESSION_DIR_OWNER);
    ck_assert_int_eq(0, unlink(p));
    free(p);
    ck_assert_int_eq(0, rmdir(s));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    free(s);
    ck_assert(exists(canary));
    ck_assert_int_eq(0, unlink(canary));
    free(canary);
    assert_base_empty();
}
END_TEST

/* A forked child's remove_all leaves the parent's session alone. */
START_TEST(fork_child_keeps_parent_session)
{
    char *s, *p;
    pid_t pid;
    int status;

    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &s));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_mkdir(s, "sub", NULL));
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (0 == pid) {
        char *mine = NULL;
        int ok = WU_SUCCESS == wu_session_dir_create(base, "child", &mine);
        ok = ok && WU_SUCCESS == wu_session_dir_remove_all() && !exists(mine);
        _exit(ok ? 0 : 1);
    }
    ck_assert_int_eq(pid, waitpid(pid, &status, 0));
    ck_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status));
    ck_assert(exists(p = in(s, "sub")));
    free(p);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(s));
    ck_assert(!exists(s));
    free(s);
    assert_base_empty();
}
END_TEST

#define NTHREADS 8
#define NROUNDS  50

static void *worker(void *arg)
{
    long failures = 0;
    (void)arg;
    for (int i = 0; i < NROUNDS; i++) {
        char *s = NULL, *f = NULL;
        int fd;
        failures += WU_SUCCESS != wu_session_dir_create(base, "thr", &s);
        if (NULL == s) {
            continue;
        }
        failures += WU_SUCCESS != wu_session_dir_mkdir(s, "d/e", &f);
        if (NULL != f) {
            char *file = wu_path_join(f, "file", NULL);
            failures += WU_SUCCESS != wu_session_dir_track(s, file);
            fd = open(file, O_WRONLY | O_CREAT, 0600);
            failures += fd < 0;
            if (fd >= 0) {
                close(fd);
            }
            free(file);
            free(f);
        }
        failures += WU_SUCCESS != wu_session_dir_remove(s);
        failures += exists(s);
        free(s);
    }
    return (void *)failures;
}

START_TEST(threads)
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        ck_assert_int_eq(0, pthread_create(&t[i], NULL, worker, NULL));
    }
    for (int i = 0; i < NTHREADS; i++) {
        void *ret;
        ck_assert_int_eq(0, pthread_join(t[i], &ret));
        ck_assert_int_eq(0, (long)ret);
    }
    assert_base_empty();
}
END_TEST

/* A planted session-like directory base/<name> (mode 0700) with an owner file holding line
 * (NULL: none). Returns its malloc'd path. */
static char *plant(const char *name, const char *line)
{
    char *d = in(base, name), *f;
    ck_assert_int_eq(0, mkdir(d, 0700));
    ck_assert_int_eq(0, chmod(d, 0700));
    if (NULL != line) {
        make_file(f = in(d, WU_SESSION_DIR_OWNER), line);
        free(f);
    }
    return d;
}

/* The owner line of a real session, with its pid and start time replaced. */
static char *owner_line(const char *real, long pid, long long start_delta, const char *host)
{
    char buf[512], boot[64], h[256], *f = in(real, WU_SESSION_DIR_OWNER), *out = NULL;
    unsigned long long start, ns;
    long mypid;
    int v, fd = open(f, O_RDONLY);
    ssize_t n;
    ck_assert_int_ge(fd, 0);
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    free(f);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_int_eq(6,
                     sscanf(buf, "%d %ld %llu %llu %63s %255s", &v, &mypid, &start, &ns, boot, h));
    ck_assert_int_eq(mypid, (long)getpid());
    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&out, "%d %ld %llu %llu %s %s\n", v, pid,
                                             start + (unsigned long long)start_delta, ns, boot,
                                             NULL != host ? host : h));
    return out;
}

/* Stale directories go; live, foreign, unjudgeable and odd ones stay; links are not followed. */
START_TEST(sweep_stale_only)
{
    char *real, *l, name[128], *dead_d, *reused_d, *zombie_d, *live_d, *none_d, *host_d, *uid_d,
        *mode_d, *link, *target, *canary, *p;
    unsigned uid = (unsigned)getuid(), removed = 99;
    pid_t dead, zombie;
    int st;

    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "live", &real));
    /* a process that is gone (reaped), and one that is a zombie */
    if (0 == (dead = fork())) {
        _exit(0);
    }
    ck_assert_int_eq(dead, waitpid(dead, &st, 0));
    if (0 == (zombie = fork())) {
        _exit(0);
    }
    for (int i = 0; i < 500; i++) { /* until it has exited (not reaped) */
        char path[64], buf[256] = "";
        FILE *f;
        snprintf(path, sizeof path, "/proc/%d/stat", (int)zombie);
        if (NULL != (f = fopen(path, "r"))) {
            ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
            fclose(f);
        }
        if (NULL != strstr(buf, ") Z ")) {
            break;
        }
        usleep(10 * 1000);
    }
    snprintf(name, sizeof name, "wutest.h.%u.dead01", uid);
    dead_d = plant(name, l = owner_line(real, dead, 0, NULL));
    free(l);
    snprintf(name, sizeof name, "wutest.%u.reuse1", uid); /* no host part */
    reused_d = plant(name, l = owner_line(real, getpid(), 1, NULL));
    free(l);
    snprintf(name, sizeof name, "wutest.h.%u.zombi1", uid);
    zombie_d = plant(name, l = owner_line(real, zombie, 0, NULL));
    free(l);
    snprintf(name, sizeof name, "wutest.h.%u.alive1", uid);
    live_d = plant(name, l = owner_line(real, getpid(), 0, NULL));
    free(l);
    snprintf(name, sizeof name, "wutest.h.%u.noown1", uid);
    none_d = plant(name, NULL);
    snprintf(name, sizeof name, "wutest.h.%u.other1", uid);
    host_d = plant(name, l = owner_line(real, dead, 0, "another-host"));
    free(l);
    snprintf(name, sizeof name, "wutest.h.%u.wuid01", uid + 1);
    uid_d = plant(name, l = owner_line(real, dead, 0, NULL));
    free(l);
    snprintf(name, sizeof name, "wutest.h.%u.mode01", uid);
    mode_d = plant(name, l = owner_line(real, dead, 0, NULL));
    free(l);
    ck_assert_int_eq(0, chmod(mode_d, 0755));
    /* a link named like a stale session, to a stale-looking directory elsewhere */
    target = plant("target", l = owner_line(real, dead, 0, NULL));
    free(l);
    snprintf(name, sizeof name, "wutest.h.%u.link01", uid);
    ck_assert_int_eq(0, symlink(target, link = in(base, name)));
    /* inside the dead one: subdirectories and a link out to a canary */
    canary = in(base, "canary");
    make_file(canary, "alive");
    ck_assert_int_eq(0, mkdir(p = in(dead_d, "job"), 0700));
    free(p);
    ck_assert_int_eq(0, symlink(canary, p = in(dead_d, "job/out")));
    free(p);

    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_sweep(base, "wutest", &removed));
    ck_assert_uint_eq(3, removed);
    ck_assert(!exists(dead_d));
    ck_assert(!exists(reused_d));
    ck_assert(!exists(zombie_d));
    ck_assert(exists(live_d) && exists(none_d) && exists(host_d) && exists(uid_d) &&
              exists(mode_d) && exists(target) && exists(canary));
    ck_assert_int_eq(0, access(link, F_OK));
    /* another prefix is not swept; the live session of ours is untouched */
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_sweep(base, "live", &removed));
    ck_assert_uint_eq(0, removed);
    ck_assert(exists(real));
    /* creating a session sweeps its prefix: plant a stale one, create, it is gone */
    snprintf(name, sizeof name, "wutest.h.%u.dead02", uid);
    free(dead_d);
    dead_d = plant(name, l = owner_line(real, dead, 0, NULL));
    free(l);
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_create(base, "wutest", &p));
    ck_assert(!exists(dead_d));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(p));
    free(p);

    ck_assert_int_eq(zombie, waitpid(zombie, &st, 0));
    ck_assert_int_eq(WU_SUCCESS, wu_session_dir_remove(real));
    ck_assert_int_eq(0, unlink(link));
    ck_assert_int_eq(0, unlink(canary));
    for (char **d = (char *[]){live_d, none_d, host_d, uid_d, mode_d, target, NULL}; *d; d++) {
        ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(*d));
        free(*d);
    }
    free(real);
    free(dead_d);
    free(reused_d);
    free(zombie_d);
    free(link);
    free(canary);
    assert_base_empty();
}
END_TEST

static Suite *session_dir_suite(void)
{
    Suite *s = suite_create("wu_session_dir");
    TCase *tc = tcase_create("session_dir");
    tcase_add_unchecked_fixture(tc, root_setup, root_teardown);
    tcase_add_checked_fixture(tc, base_setup, base_teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, create_mode_and_name);
    tcase_add_test(tc, create_long_tmpdir);
    tcase_add_test(tc, create_unique);
    tcase_add_test(tc, create_errors);
    tcase_add_test(tc, remove_spares_foreign);
    tcase_add_test(tc, remove_all_spares_foreign);
    tcase_add_test(tc, remove_everything_tracked);
    tcase_add_test(tc, remove_does_not_follow_links);
    tcase_add_loop_test(tc, mkdir_table, 0, WU_NELEMS(mkdir_cases));
    tcase_add_test(tc, track_and_unknown_session_errors);
    tcase_add_test(tc, fork_child_keeps_parent_session);
    tcase_add_test(tc, threads);
    tcase_add_test(tc, sweep_stale_only);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(session_dir_suite)
