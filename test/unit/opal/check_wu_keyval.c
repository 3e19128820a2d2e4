/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_keyval.c -- tests of the "key = value" parameter file parser. Every case runs twice:
 * from a string and from a file written under a private temporary directory. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_keyval.h"
#include "opal/util/wu_path.h"
#include "test/support/wu_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Private directory for the files of one test case; made in the (unforked) fixture. */
static char tmproot[4096];

static void tmp_setup(void)
{
    wu_test_tmpdir_make("check_wu_keyval", tmproot, sizeof tmproot);
}

static void tmp_teardown(void)
{
    wu_test_tmpdir_remove(tmproot);
}

/* What the callbacks saw. */
#define MAXREC 16
typedef struct {
    int nitems, nwarn;
    char *key[MAXREC], *value[MAXREC];
    int line[MAXREC], warn_line[MAXREC];
    char *warn_msg[MAXREC];
    const char *expect_file;
} record_t;

static void on_item(const char *key, const char *value, const char *file, int line, void *ctx)
{
    record_t *r = ctx;
    ck_assert_str_eq(r->expect_file, file);
    ck_assert_int_lt(r->nitems, MAXREC);
    r->key[r->nitems] = strdup(key);
    r->value[r->nitems] = strdup(value);
    r->line[r->nitems] = line;
    r->nitems++;
}

static void on_warn(const char *file, int line, const char *msg, void *ctx)
{
    record_t *r = ctx;
    ck_assert_str_eq(r->expect_file, file);
    ck_assert_int_lt(r->nwarn, MAXREC);
    r->warn_line[r->nwarn] = line;
    r->warn_msg[r->nwarn] = strdup(msg);
    r->nwarn++;
}

static void record_free(record_t *r)
{
    for (int i = 0; i < r->nitems; i++) {
        free(r->key[i]);
        free(r->value[i]);
    }
    for (int i = 0; i < r->nwarn; i++) {
        free(r->warn_msg[i]);
    }
    memset(r, 0, sizeof *r);
}

static char *write_file(const char *name, const char *data, size_t len)
{
    char *p = wu_path_join(tmproot, name, NULL);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(len, fwrite(data, 1, len, f));
    ck_assert_int_eq(0, fclose(f));
    return p;
}

typedef struct {
    const char *key, *value;
    int line;
} kv_t;

static const struct {
    const char *text;
    kv_t want[6];            /* terminated by a NULL key */
    int warn_lines[6];       /* terminated by 0 */
    const char *warn_has[6]; /* a piece of each message */
} cases[] = {
    {"a = 1\nb=2\n", {{"a", "1", 1}, {"b", "2", 2}}, {0}, {NULL}},
    {"# c\n\n  \t\na=1\n  # indented\n#x=2\n", {{"a", "1", 4}}, {0}, {NULL}},
    {"a = x # y\n", {{"a", "x # y", 1}}, {0}, {NULL}},
    {"a = \"q  v\"\n", {{"a", "\"q  v\"", 1}}, {0}, {NULL}},
    {"a =\nb=\nc =   \n", {{"a", "", 1}, {"b", "", 2}, {"c", "", 3}}, {0}, {NULL}},
    {"a = b = c\n", {{"a", "b = c", 1}}, {0}, {NULL}},
    {"a=1\r\nb = 2 \r\n\r\nc=3\r\n", {{"a", "1", 1}, {"b", "2", 2}, {"c", "3", 4}}, {0}, {NULL}},
    {"a=1\nb=2", {{"a", "1", 1}, {"b", "2", 2}}, {0}, {NULL}},
    {"a=1\n# last comment", {{"a", "1", 1}}, {0}, {NULL}},
    {"", {{NULL}}, {0}, {NULL}},
    {"\n\n\n", {{NULL}}, {0}, {NULL}},
    {"  key  =   value with  spaces   \n", {{"key", "value with  spaces", 1}}, {0}, {NULL}},
    {"\tk.x-1_Y\t=\tv\n", {{"k.x-1_Y", "v", 1}}, {0}, {NULL}},
    {"a=1\na=2\n", {{"a", "1", 1}, {"a", "2", 2}}, {0}, {NULL}},
    {"\xEF\xBB\xBF"
     "a=1\n",
     {{"a", "1", 1}},
     {0},
     {NULL}},
    {"good=1\nno equals here\n= value\nbad key=1\nbad$key=2\nok.key-1_x = 3\n",
     {{"good", "1", 1}, {"ok.key-1_x", "3", 6}},
     {2, 3, 4, 5},
     {"missing '='", "empty key", "white space in key", "'$'"}},
    {"  = \nk\x01=v\n#ok\nx=1\n", {{"x", "1", 4}}, {1, 2}, {"empty key", "0x01"}},
};

static void check_record(const record_t *r, int c)
{
    int n = 0, w = 0;
    while (NULL != cases[c].want[n].key) {
        n++;
    }
    while (0 != cases[c].warn_lines[w]) {
        w++;
    }
    ck_assert_int_eq(n, r->nitems);
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(cases[c].want[i].key, r->key[i]);
        ck_assert_str_eq(cases[c].want[i].value, r->value[i]);
        ck_assert_int_eq(cases[c].want[i].line, r->line[i]);
    }
    ck_assert_int_eq(w, r->nwarn);
    for (int i = 0; i < w; i++) {
        ck_assert_int_eq(cases[c].warn_lines[i], r->warn_line[i]);
        ck_assert_msg(NULL != strstr(r->warn_msg[i], cases[c].warn_has[i]),
                      "message \"%s\" lacks \"%s\"", r->warn_msg[i], cases[c].warn_has[i]);
    }
}

START_TEST(table_string)
{
    record_t r = {.expect_file = "inline"};
    wu_keyval_set_warn(on_warn);
    ck_assert_int_eq(WU_SUCCESS, wu_keyval_parse_string(cases[_i].text, "inline", on_item, &r));
    check_record(&r, _i);
    record_free(&r);
    wu_keyval_set_warn(NULL);
}
END_TEST

START_TEST(table_file)
{
    char *path = write_file("params.conf", cases[_i].text, strlen(cases[_i].text));
    record_t r = {.expect_file = path};
    wu_keyval_set_warn(on_warn);
    ck_assert_int_eq(WU_SUCCESS, wu_keyval_parse(path, on_item, &r));
    check_record(&r, _i);
    record_free(&r);
    wu_keyval_set_warn(NULL);
    free(path);
}
END_TEST

/* A 100 KB value, then a normal line: both delivered with the right line numbers. */
START_TEST(long_line)
{
    const size_t n = 100 * 1024;
    size_t len;
    char *text = malloc(n + 64), *path;
    record_t r = {0};

    strcpy(text, "# first\nbig = ");
    len = strlen(text);
    memset(text + len, 'v', n);
    strcpy(text + len + n, "  \nnext=1\n");

    r.expect_file = "long";
    ck_assert_int_eq(WU_SUCCESS, wu_keyval_parse_string(text, "long", on_item, &r));
    ck_assert_int_eq(2, r.nitems);
    ck_assert_uint_eq(n, strlen(r.value[0]));
    ck_assert_int_eq(2, r.line[0]);
    ck_assert_str_eq("next", r.key[1]);
    ck_assert_int_eq(3, r.line[1]);
    record_free(&r);

    path = write_file("long.conf", text, strlen(text));
    r.expect_file = path;
    ck_assert_int_eq(WU_SUCCESS, wu_keyval_parse(path, on_item, &r));
    ck_assert_int_eq(2, r.nitems);
    ck_assert_uint_eq(n, strlen(r.value[0]));
    ck_assert_int_eq('v', r.value[0][n - 1]);
    ck_assert_int_eq(3, r.line[1]);
    record_free(&r);
    free(path);
    free(text);
}
END_TEST

/* A NUL byte inside a line (files only) makes that line malformed, not the rest. */
START_TEST(nul_byte_in_file)
{
    static const char data[] = "a=1\nb\0=2\nc=3\n";
    char *path = write_file("nul.conf", data, sizeof data - 1);
    record_t r = {.expect_file = path};

    wu_keyval_set_warn(on_warn);
    ck_assert_int_eq(WU_SUCCESS, wu_keyval_parse(path, on_item, &r));
    wu_keyval_set_warn(NULL);
    ck_assert_int_eq(2, r.nitems);
    ck_assert_str_eq("c", r.key[1]);
    ck_assert_int_eq(3, r.line[1]);
    ck_assert_int_eq(1, r.nwarn);
    ck_assert_int_eq(2, r.warn_line[0]);
    ck_assert_ptr_nonnull(strstr(r.warn_msg[0], "NUL"));
    record_free(&r);
    free(path);
}
END_TEST

/* Without a warn callback, messages go to stderr as "FILE:LINE: what; line ignored". */
START_TEST(default_warning_on_stderr)
{
    char *errpath = wu_path_join(tmproot, "stderr.txt", NULL), buf[512];
    record_t r = {.expect_file = "cfg"};
    int fd, saved;
    ssize_t n;

    wu_keyval_set_warn(NULL);
    fd = open(errpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    saved = dup(2);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_eq(2, dup2(fd, 2));
    ck_assert_int_eq(WU_SUCCESS,
                     wu_keyval_parse_string("a=1\n\nbroken line\n", "cfg", on_item, &r));
    fflush(stderr);
    ck_assert_int_eq(2, dup2(saved, 2));
    close(saved);
    n = pread(fd, buf, sizeof buf - 1, 0);
    close(fd);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_str_eq("cfg:3: missing '=' in \"broken line\"; line ignored\n", buf);
    ck_assert_int_eq(1, r.nitems);
    record_free(&r);
    free(errpath);
}
END_TEST

START_TEST(file_errors)
{
    record_t r = {0};
    char *missing = wu_path_join(tmproot, "does-not-exist.conf", NULL);
    char *under_file, *secret;

    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_keyval_parse(missing, on_item, &r));
    /* a path "through" a regular file is just as absent */
    free(write_file("plain", "x=1\n", 4));
    under_file = wu_path_join(tmproot, "plain", "sub.conf", NULL);
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_keyval_parse(under_file, on_item, &r));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_keyval_parse(tmproot, on_item, &r));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_keyval_parse(NULL, on_item, &r));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_keyval_parse(missing, NULL, &r));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_keyval_parse_string(NULL, "x", on_item, &r));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_keyval_parse_string("a=1", "x", NULL, &r));
    ck_assert_int_eq(0, r.nitems);

    /* name_for_messages NULL is "<string>" */
    r.expect_file = "<string>";
    ck_assert_int_eq(WU_SUCCESS, wu_keyval_parse_string("a=1", NULL, on_item, &r));
    ck_assert_int_eq(1, r.nitems);
    record_free(&r);

    /* unreadable: root reads anything, so only meaningful for other users */
    secret = write_file("secret.conf", "a=1\n", 4);
    ck_assert_int_eq(0, chmod(secret, 0));
    if (0 != geteuid()) {
        ck_assert_int_eq(WU_ERR_NO_PERMISSIONS, wu_keyval_parse(secret, on_item, &r));
        ck_assert_int_eq(0, r.nitems);
    }
    free(secret);
    free(under_file);
    free(missing);
}
END_TEST

static Suite *keyval_suite(void)
{
    Suite *s = suite_create("wu_keyval");
    TCase *tc = tcase_create("parse");
    tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, table_string, 0, WU_NELEMS(cases));
    tcase_add_loop_test(tc, table_file, 0, WU_NELEMS(cases));
    tcase_add_test(tc, long_line);
    tcase_add_test(tc, nul_byte_in_file);
    tcase_add_test(tc, default_warning_on_stderr);
    tcase_add_test(tc, file_errors);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(keyval_suite)
