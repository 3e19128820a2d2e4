/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_path.c -- tests of the path helpers: join, tmpdir precedence, mkdir -p, the
 * symlink-safe rm_tree, home and PATH search. Files live under a private mkdtemp directory. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"
#include "test/support/wu_test.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmproot[4096];

static void tmp_setup(void)
{
    wu_test_tmpdir_make("check_wu_path", tmproot, sizeof tmproot);
}

static void tmp_teardown(void)
{
    wu_test_tmpdir_remove(tmproot);
}

/* tmproot/<rel>, malloc'd */
static char *at(const char *rel)
{
    char *p = wu_path_join(tmproot, rel, NULL);
    ck_assert_ptr_nonnull(p);
    return p;
}

static void make_file(const char *path, const char *content, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
    ck_assert_int_eq((ssize_t)strlen(content), write(fd, content, strlen(content)));
    close(fd);
    ck_assert_int_eq(0, chmod(path, mode));
}

static void assert_content(const char *path, const char *content)
{
    char buf[256];
    int fd = open(path, O_RDONLY);
    ssize_t n;
    ck_assert_msg(fd >= 0, "%s is gone", path);
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    ck_assert_int_ge(n, 0);
    buf[n] = '\0';
    ck_assert_str_eq(content, buf);
}

/* --- join --- */

static const struct {
    const char *a, *b, *c, *want;
} join_cases[] = {
    {"a", "b", NULL, "a/b"},  {"/a/", "/b", NULL, "/a/b"}, {"/a//", "//b//", NULL, "/a/b//"},
    {"/", "x", NULL, "/x"},   {"//", "x", NULL, "/x"},     {"a", "", "b", "a/b"},
    {"", "b", NULL, "b"},     {"", "", NULL, ""},          {"/only", NULL, NULL, "/only"},
    {"a", "b", "c", "a/b/c"}, {"a", "/", NULL, "a/"},      {"/", "/", NULL, "/"},
};

START_TEST(join_table)
{
    char *got;
    if (NULL == join_cases[_i].b) {
        got = wu_path_join(join_cases[_i].a, NULL);
    } else {
        got = wu_path_join(join_cases[_i].a, join_cases[_i].b, join_cases[_i].c, NULL);
    }
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(join_cases[_i].want, got);
    free(got);
}
END_TEST

START_TEST(join_null)
{
    ck_assert_ptr_null(wu_path_join(NULL, NULL));
}
END_TEST

/* --- tmpdir --- */

static const struct {
    const char *tmpdir, *temp, *tmp, *want; /* NULL: unset */
} tmpdir_cases[] = {
    {NULL, NULL, NULL, "/tmp"}, {"/t1", "/t2", "/t3", "/t1"}, {NULL, "/t2", "/t3", "/t2"},
    {NULL, NULL, "/t3", "/t3"}, {"", "/t2", "/t3", "/t2"},    {"", "", "/t3", "/t3"},
    {"", "", "", "/tmp"},       {"/t1", NULL, NULL, "/t1"},
};

/* Set or (value NULL) unset a variable. */
static void put_env(const char *name, const char *value)
{
    if (NULL == value) {
        unsetenv(name);
    } else {
        setenv(name, value, 1);
    }
}

START_TEST(tmpdir_precedence)
{
    const char *names[] = {"TMPDIR", "TEMP", "TMP"};
    const char *vals[] = {tmpdir_cases[_i].tmpdir, tmpdir_cases[_i].temp, tmpdir_cases[_i].tmp};
    char *saved[3];
    bool same;

    for (int i = 0; i < 3; i++) {
        saved[i] = getenv(names[i]) ? strdup(getenv(names[i])) : NULL;
        put_env(names[i], vals[i]);
    }
    same = 0 == strcmp(tmpdir_cases[_i].want, wu_tmpdir());
    for (int i = 0; i < 3; i++) { /* restore, for CK_FORK=no runs */
        put_env(names[i], saved[i]);
        free(saved[i]);
    }
    ck_assert_msg(same, "case %d: wanted %s", _i, tmpdir_cases[_i].want);
}
END_TEST

/* --- exists / is_dir / mkdir_p --- */

START_TEST(exists_and_is_dir)
{
    char *f = at("file"), *l = at("dangling"), *ld = at("linkdir");

    make_file(f, "x", 0600);
    ck_assert_int_eq(0, symlink("/nonexistent/wu-path-test", l));
    ck_assert_int_eq(0, symlink(tmproot, ld));
    ck_assert(wu_path_exists(tmproot) && wu_path_is_dir(tmproot));
    ck_assert(wu_path_exists(f) && !wu_path_is_dir(f));
    ck_assert(!wu_path_exists(l) && !wu_path_is_dir(l));
    ck_assert(wu_path_exists(ld) && wu_path_is_dir(ld));
    ck_assert(!wu_path_exists(NULL) && !wu_path_is_dir(NULL));
    unlink(f);
    unlink(l);
    unlink(ld);
    free(f);
    free(l);
    free(ld);
}
END_TEST

START_TEST(mkdir_p_cases)
{
    char *deep = at("m/a/b//c/"), *c = at("m/a/b/c"), *file = at("m/file"), *under = at("m/file/x");
    struct stat sb;

    umask(022);
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(deep, 0750));
    ck_assert(wu_path_is_dir(c));
    ck_assert_int_eq(0, stat(c, &sb));
    ck_assert_int_eq(0750, sb.st_mode & 07777);
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(c, 0700)); /* existing is fine */
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p("/", 0700));
    make_file(file, "x", 0600);
    ck_assert_int_eq(WU_ERR_EXISTS, wu_path_mkdir_p(file, 0700));
    ck_assert_int_eq(WU_ERR_EXISTS, wu_path_mkdir_p(under, 0700));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_path_mkdir_p("", 0700));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_path_mkdir_p(NULL, 0700));

    /* relative paths work from the current directory */
    ck_assert_int_eq(0, chdir(tmproot));
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p("rel/x/y", 0700));
    ck_assert(wu_path_is_dir("rel/x/y"));
    free(deep);
    free(c);
    free(file);
    free(under);
}
END_TEST

/* --- rm_tree --- */

START_TEST(rm_tree_keeps_symlink_targets)
{
    char *outside = at("outside"), *ofile = at("outside/keep.txt"), *olone = at("lonely.txt");
    char *tree = at("tree"), *p;
    struct stat sb;

    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(outside, 0700));
    make_file(ofile, "precious", 0600);
    make_file(olone, "also precious", 0600);
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(tree, 0700));
    p = at("tree/a/b/c");
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(p, 0700));
    free(p);
    p = at("tree/a/b/c/f1");
    make_file(p, "1", 0600);
    free(p);
    p = at("tree/a/f2");
    make_file(p, "2", 0000); /* unreadable file: unlink does not care */
    free(p);
    p = at("tree/a/b/to-dir"); /* link to a directory outside: must not be walked */
    ck_assert_int_eq(0, symlink(outside, p));
    free(p);
    p = at("tree/to-file");
    ck_assert_int_eq(0, symlink(olone, p));
    free(p);
    p = at("tree/dangling");
    ck_assert_int_eq(0, symlink("/nonexistent/x", p));
    free(p);
    p = at("tree/fifo");
    ck_assert_int_eq(0, mkfifo(p, 0600));
    free(p);

    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(tree));
    ck_assert_int_eq(-1, lstat(tree, &sb));
    assert_content(ofile, "precious");
    assert_content(olone, "also precious");
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_path_rm_tree(tree));
    free(outside);
    free(ofile);
    free(olone);
    free(tree);
}
END_TEST

/* The path itself a link (also with a trailing slash): only the link goes. */
START_TEST(rm_tree_on_symlink)
{
    char *target = at("target"), *inner = at("target/inner"), *link = at("link");
    char *slash;
    struct stat sb;

    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(target, 0700));
    make_file(inner, "stay", 0600);
    for (int round = 0; round < 2; round++) {
        ck_assert_int_eq(0, symlink(target, link));
        slash = round ? wu_path_join(link, "/", NULL) : strdup(link);
        ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(slash));
        ck_assert_int_eq(-1, lstat(link, &sb));
        assert_content(inner, "stay");
        free(slash);
    }
    /* a single file */
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(inner));
    ck_assert(!wu_path_exists(inner));
    ck_assert(wu_path_is_dir(target));
    free(target);
    free(inner);
    free(link);
}
END_TEST

START_TEST(rm_tree_deep)
{
    char *p = strdup(tmproot), *top = at("deep");
    for (int i = 0; i < 200; i++) {
        char *n = wu_path_join(p, "deep", NULL);
        free(p);
        p = n;
    }
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(p, 0700));
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(top));
    ck_assert(!wu_path_exists(top));
    free(p);
    free(top);
}
END_TEST

/* Many entries in one directory: removal while reading must not miss any. */
START_TEST(rm_tree_wide)
{
    char *top = at("wide");
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(top, 0700));
    for (int i = 0; i < 2000; i++) {
        char name[64], *p;
        snprintf(name, sizeof name, "entry-%04d-with-a-longish-name", i);
        p = wu_path_join(top, name, NULL);
        if (i % 3) {
            make_file(p, "x", 0600);
        } else {
            ck_assert_int_eq(0, mkdir(p, 0700));
        }
        free(p);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(top));
    ck_assert(!wu_path_exists(top));
    free(top);
}
END_TEST

/* Paths rm_tree must refuse. They are tried in a child confined to a sandbox ("jail") under
 * tmproot: with chroot when the jail flag is set (so a regression that stops refusing "/" or
 * "/.." removes the sandbox, not the machine; skipped without root), and always from inside the
 * jail as the current directory. '@' at the start stands for the jail's absolute path. Each
 * case then checks that the canaries planted in the jail survived. */
static const struct {
    const char *path;
    bool jail;
} refused[] = {
    {"", false},         {"relative", false}, {"./x", false},   {"x/y", false},
    {"@/a/..", false},   {"@/a/../", false},  {"@/.", false},   {"@/a/./b", false},
    {"@/a/../b", false}, {"/", true},         {"//", true},     {"///", true},
    {"/tmp/..", true},   {"/tmp/../", true},  {"/a/./b", true}, {"/a/../b", true},
    {"/.", true},        {"/..", true},
};

static const char *const canaries[] = {"canary", "tmp/canary", "a/b/canary", "x/y/canary",
                                       "relative/canary"};

START_TEST(rm_tree_refuses)
{
    char *jail = at("jail"), *path;
    pid_t pid;
    int status;

    for (size_t i = 0; i < WU_NELEMS(canaries); i++) {
        char *c = wu_path_join(jail, canaries[i], NULL), *dir = strdup(c);
        *strrchr(dir, '/') = '\0';
        ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(dir, 0700));
        make_file(c, "alive", 0600);
        free(dir);
        free(c);
    }
    if ('@' == refused[_i].path[0]) {
        path = wu_path_join(jail, refused[_i].path + 1, NULL); /* keeps a trailing '/' */
    } else {
        path = strdup(refused[_i].path);
    }
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (0 == pid) {
        if (0 != chdir(jail)) {
            _exit(2);
        }
        if (refused[_i].jail && (0 != chroot(jail) || 0 != chdir("/"))) {
            _exit(77); /* no chroot (not root): cannot confine this case, so skip it */
        }
        _exit(WU_ERR_BAD_PARAM == wu_path_rm_tree(path) ? 0 : 1);
    }
    ck_assert_int_eq(pid, waitpid(pid, &status, 0));
    ck_assert(WIFEXITED(status));
    ck_assert_msg(0 == WEXITSTATUS(status) || 77 == WEXITSTATUS(status),
                  "\"%s\" not refused (child status %d)", path, WEXITSTATUS(status));
    for (size_t i = 0; i < WU_NELEMS(canaries); i++) {
        char *c = wu_path_join(jail, canaries[i], NULL);
        assert_content(c, "alive");
        free(c);
    }
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(jail));
    free(path);
    free(jail);
}
END_TEST

START_TEST(rm_tree_refuses_null)
{
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_path_rm_tree(NULL));
    /* names that merely contain dots are fine */
    char *p = at("..dots.");
    ck_assert_int_eq(0, mkdir(p, 0700));
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(p));
    ck_assert(!wu_path_exists(p));
    free(p);
}
END_TEST

/* Not root: a directory we cannot write keeps its contents and the error says so. */
START_TEST(rm_tree_permission)
{
    char *d = at("locked"), *f = at("locked/f");

    if (0 == geteuid()) {
        free(d);
        free(f);
        return; /* root may remove anything */
    }
    ck_assert_int_eq(0, mkdir(d, 0700));
    make_file(f, "x", 0600);
    ck_assert_int_eq(0, chmod(d, 0500));
    ck_assert_int_eq(WU_ERR_NO_PERMISSIONS, wu_path_rm_tree(d));
    ck_assert(wu_path_exists(f));
    ck_assert_int_eq(0, chmod(d, 0700));
    ck_assert_int_eq(WU_SUCCESS, wu_path_rm_tree(d));
    free(d);
    free(f);
}
END_TEST

/* --- home --- */

START_TEST(home_from_env_and_passwd)
{
    struct passwd *pw;
    char *h, *saved = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

    setenv("HOME", "/some/where", 1);
    h = wu_path_home();
    ck_assert_str_eq("/some/where", h);
    free(h);

    unsetenv("HOME");
    pw = getpwuid(getuid());
    h = wu_path_home();
    if (NULL != pw && NULL != pw->pw_dir && '\0' != pw->pw_dir[0]) {
        ck_assert_str_eq(pw->pw_dir, h);
    } else {
        ck_assert_ptr_null(h);
    }
    free(h);
    setenv("HOME", "", 1); /* empty counts as unset */
    h = wu_path_home();
    if (NULL != pw && NULL != pw->pw_dir && '\0' != pw->pw_dir[0]) {
        ck_assert_str_eq(pw->pw_dir, h);
    }
    free(h);
    put_env("HOME", saved);
    free(saved);
}
END_TEST

/* --- find in PATH --- */

START_TEST(find_in_path_cases)
{
    char *bin = at("bin"), *bin2 = at("bin2"), *prog = at("bin/wu-prog"),
         *prog2 = at("bin2/wu-prog");
    char *noexec = at("bin/wu-noexec"), *dir = at("bin/wu-dir"), *pathv, *got;

    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(bin, 0700));
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(bin2, 0700));
    ck_assert_int_eq(WU_SUCCESS, wu_path_mkdir_p(dir, 0755));
    make_file(prog, "#!/bin/sh\n", 0755);
    make_file(prog2, "#!/bin/sh\n", 0755);
    make_file(noexec, "#!/bin/sh\n", 0644);

    /* first match wins, missing directories are skipped */
    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&pathv, "/nonexistent-wu:%s:%s", bin, bin2));
    got = wu_path_find_in_path("wu-prog", pathv);
    ck_assert_str_eq(prog, got);
    free(got);
    free(pathv);
    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&pathv, "%s:%s", bin2, bin));
    got = wu_path_find_in_path("wu-prog", pathv);
    ck_assert_str_eq(prog2, got);
    free(got);
    ck_assert_ptr_null(wu_path_find_in_path("wu-noexec", pathv));
    ck_assert_ptr_null(wu_path_find_in_path("wu-dir", pathv));
    ck_assert_ptr_null(wu_path_find_in_path("wu-none", pathv));
    ck_assert_ptr_null(wu_path_find_in_path("", pathv));
    ck_assert_ptr_null(wu_path_find_in_path(NULL, pathv));

    /* a name with a slash is checked, not searched */
    got = wu_path_find_in_path(prog, "/nonexistent-wu");
    ck_assert_str_eq(prog, got);
    free(got);
    ck_assert_ptr_null(wu_path_find_in_path(noexec, pathv));

    /* NULL means $PATH */
    setenv("PATH", pathv, 1);
    got = wu_path_find_in_path("wu-prog", NULL);
    ck_assert_str_eq(prog2, got);
    free(got);
    free(pathv);

    /* an empty entry is the current directory */
    ck_assert_int_eq(0, chdir(bin));
    got = wu_path_find_in_path("wu-prog", "/nonexistent-wu::");
    ck_assert_str_eq("./wu-prog", got);
    free(got);
    got = wu_path_find_in_path("wu-prog", "");
    ck_assert_str_eq("./wu-prog", got);
    free(got);
    ck_assert_ptr_null(wu_path_find_in_path("wu-prog", "/nonexistent-wu"));

    free(bin);
    free(bin2);
    free(prog);
    free(prog2);
    free(noexec);
    free(dir);
}
END_TEST

static Suite *path_suite(void)
{
    Suite *s = suite_create("wu_path");
    TCase *tc = tcase_create("names");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, join_table, 0, WU_NELEMS(join_cases));
    tcase_add_test(tc, join_null);
    tcase_add_loop_test(tc, tmpdir_precedence, 0, WU_NELEMS(tmpdir_cases));
    tcase_add_test(tc, home_from_env_and_passwd);
    suite_add_tcase(s, tc);

    tc = tcase_create("fs");
    tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, exists_and_is_dir);
    tcase_add_test(tc, mkdir_p_cases);
    tcase_add_test(tc, rm_tree_keeps_symlink_targets);
    tcase_add_test(tc, rm_tree_on_symlink);
    tcase_add_test(tc, rm_tree_deep);
    tcase_add_test(tc, rm_tree_wide);
    tcase_add_loop_test(tc, rm_tree_refuses, 0, WU_NELEMS(refused));
    tcase_add_test(tc, rm_tree_refuses_null);
    tcase_add_test(tc, rm_tree_permission);
    tcase_add_test(tc, find_in_path_cases);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(path_suite)
