/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_argv.c -- tests of string vectors, environment arrays and string helpers. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "test/support/wu_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Compare a vector against a NULL-terminated list of expected strings. */
static void assert_argv(char *const *got, const char *const *want)
{
    int n = 0;
    while (NULL != want[n]) {
        n++;
    }
    ck_assert_int_eq(n, wu_argv_count(got));
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(want[i], got[i]);
    }
    if (NULL != got) {
        ck_assert_ptr_null(got[n]);
    }
}

/* A vector from a literal list, built with wu_argv_append. */
static char **make(const char *const *items)
{
    char **v = NULL;
    for (int i = 0; NULL != items[i]; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, items[i]));
    }
    return v;
}

/* --- split / join --- */

#define MAXF 8
static const struct {
    const char *in;
    char delim;
    const char *dropped[MAXF];    /* wu_argv_split */
    const char *with_empty[MAXF]; /* wu_argv_split_with_empty */
} split_cases[] = {
    {"a:b:c", ':', {"a", "b", "c", NULL}, {"a", "b", "c", NULL}},
    {"", ':', {NULL}, {NULL}},
    {":", ':', {NULL}, {"", "", NULL}},
    {"::", ':', {NULL}, {"", "", "", NULL}},
    {":a", ':', {"a", NULL}, {"", "a", NULL}},
    {"a:", ':', {"a", NULL}, {"a", "", NULL}},
    {"::a::b::", ':', {"a", "b", NULL}, {"", "", "a", "", "b", "", "", NULL}},
    {"abc", ':', {"abc", NULL}, {"abc", NULL}},
    {" a  b ", ' ', {"a", "b", NULL}, {"", "a", "", "b", "", NULL}},
    {"a,b:c", ',', {"a", "b:c", NULL}, {"a", "b:c", NULL}},
    {"a:b", '\0', {"a:b", NULL}, {"a:b", NULL}},
};

START_TEST(split_table)
{
    char **v;
    char *s;

    v = wu_argv_split(split_cases[_i].in, split_cases[_i].delim);
    ck_assert_ptr_nonnull(v);
    assert_argv(v, split_cases[_i].dropped);
    wu_argv_free(v);

    v = wu_argv_split_with_empty(split_cases[_i].in, split_cases[_i].delim);
    ck_assert_ptr_nonnull(v);
    assert_argv(v, split_cases[_i].with_empty);
    /* keeping empty fields makes split and join inverse */
    s = wu_argv_join(v, split_cases[_i].delim);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(split_cases[_i].in, s);
    free(s);
    wu_argv_free(v);
}
END_TEST

START_TEST(split_join_long)
{
    const int n = 20000;
    char **v = NULL, **back, *joined, *big;
    size_t biglen = 1 << 20;

    for (int i = 0; i < n; i++) {
        char item[32];
        snprintf(item, sizeof item, "field%05d", i);
        ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, item));
    }
    joined = wu_argv_join(v, ',');
    ck_assert_uint_eq((size_t)n * 10 + (size_t)n - 1, strlen(joined));
    back = wu_argv_split(joined, ',');
    ck_assert_int_eq(n, wu_argv_count(back));
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(v[i], back[i]);
    }
    wu_argv_free(back);
    wu_argv_free(v);
    free(joined);

    /* one field of a megabyte between two delimiters */
    big = malloc(biglen + 3);
    ck_assert_ptr_nonnull(big);
    big[0] = ':';
    memset(big + 1, 'x', biglen);
    big[biglen + 1] = ':';
    big[biglen + 2] = '\0';
    v = wu_argv_split_with_empty(big, ':');
    ck_assert_int_eq(3, wu_argv_count(v));
    ck_assert_str_eq("", v[0]);
    ck_assert_uint_eq(biglen, strlen(v[1]));
    ck_assert_str_eq("", v[2]);
    joined = wu_argv_join(v, ':');
    ck_assert_str_eq(big, joined);
    free(joined);
    wu_argv_free(v);
    free(big);
}
END_TEST

START_TEST(split_join_null_and_empty)
{
    char *s;
    char *empty[] = {NULL};
    char *one[] = {"x", NULL};

    ck_assert_ptr_null(wu_argv_split(NULL, ':'));
    ck_assert_ptr_null(wu_argv_split_with_empty(NULL, ':'));
    s = wu_argv_join(NULL, ':');
    ck_assert_str_eq("", s);
    free(s);
    s = wu_argv_join(empty, ':');
    ck_assert_str_eq("", s);
    free(s);
    s = wu_argv_join(one, ':');
    ck_assert_str_eq("x", s);
    free(s);
    /* '\0' as delimiter concatenates */
    s = wu_argv_join((char *[]){"a", "b", "c", NULL}, '\0');
    ck_assert_str_eq("abc", s);
    free(s);
}
END_TEST

/* --- building --- */

START_TEST(append_prepend_unique)
{
    char **v = NULL;
    char buf[] = "mutable";

    ck_assert_int_eq(0, wu_argv_count(NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, "b"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_prepend(&v, "a"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, buf));
    buf[0] = 'X'; /* the vector holds a copy */
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append_unique(&v, "a"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append_unique(&v, "c"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append_unique(&v, "c"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, "a")); /* plain append keeps duplicates */
    assert_argv(v, (const char *[]){"a", "b", "mutable", "c", "a", NULL});
    wu_argv_free(v);

    v = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append_unique(&v, "only"));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_prepend(&v, ""));
    assert_argv(v, (const char *[]){"", "only", NULL});
    wu_argv_free(v);

    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_append(NULL, "x"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_append(&v, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_prepend(NULL, "x"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_append_unique(&v, NULL));
    wu_argv_free(NULL); /* no-op */
}
END_TEST

START_TEST(copy_deep)
{
    const char *items[] = {"one", "", "three", NULL};
    char **v = make(items), **c;
    char *none[] = {NULL};

    c = wu_argv_copy(v);
    assert_argv(c, items);
    ck_assert_ptr_ne(v, c);
    for (int i = 0; i < 3; i++) {
        ck_assert_ptr_ne(v[i], c[i]);
    }
    wu_argv_free(v);
    assert_argv(c, items); /* still valid after the original is gone */
    wu_argv_free(c);

    ck_assert_ptr_null(wu_argv_copy(NULL));
    c = wu_argv_copy(none);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(0, wu_argv_count(c));
    wu_argv_free(c);
}
END_TEST

static const struct {
    int start, count, rc;
    const char *want; /* comma-joined result */
} delete_cases[] = {
    {0, 1, WU_SUCCESS, "1,2,3,4"},
    {1, 2, WU_SUCCESS, "0,3,4"},
    {4, 1, WU_SUCCESS, "0,1,2,3"},
    {3, 10, WU_SUCCESS, "0,1,2"},
    {0, 5, WU_SUCCESS, ""},
    {0, 0, WU_SUCCESS, "0,1,2,3,4"},
    {5, 1, WU_SUCCESS, "0,1,2,3,4"},
    {6, 1, WU_ERR_BAD_PARAM, "0,1,2,3,4"},
    {-1, 1, WU_ERR_BAD_PARAM, "0,1,2,3,4"},
    {0, -1, WU_ERR_BAD_PARAM, "0,1,2,3,4"},
    {2, 3, WU_SUCCESS, "0,1"},
};

START_TEST(delete_ranges)
{
    char **v = make((const char *[]){"0", "1", "2", "3", "4", NULL});
    char *s;

    ck_assert_int_eq(delete_cases[_i].rc,
                     wu_argv_delete(&v, delete_cases[_i].start, delete_cases[_i].count));
    s = wu_argv_join(v, ',');
    ck_assert_str_eq(delete_cases[_i].want, s);
    free(s);
    /* the vector is still usable */
    ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, "z"));
    ck_assert_str_eq("z", v[wu_argv_count(v) - 1]);
    wu_argv_free(v);
}
END_TEST

START_TEST(delete_null)
{
    char **v = NULL;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_delete(NULL, 0, 1));
    ck_assert_int_eq(WU_SUCCESS, wu_argv_delete(&v, 0, 3));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_delete(&v, 1, 1));
    ck_assert_ptr_null(v);
}
END_TEST

static const struct {
    bool null_target;
    int start;
    int source; /* 0: NULL, 1: empty, 2: {"X", "Y"} */
    int rc;
    const char *want;
} insert_cases[] = {
    {false, 0, 2, WU_SUCCESS, "X,Y,a,b,c"},    {false, 1, 2, WU_SUCCESS, "a,X,Y,b,c"},
    {false, 3, 2, WU_SUCCESS, "a,b,c,X,Y"},    {false, 4, 2, WU_ERR_BAD_PARAM, "a,b,c"},
    {false, -1, 2, WU_ERR_BAD_PARAM, "a,b,c"}, {false, 1, 0, WU_SUCCESS, "a,b,c"},
    {false, 1, 1, WU_SUCCESS, "a,b,c"},        {true, 0, 2, WU_SUCCESS, "X,Y"},
    {true, 1, 2, WU_ERR_BAD_PARAM, ""},
};

START_TEST(insert_ranges)
{
    char src0[] = "X", src1[] = "Y";
    char *pair[] = {src0, src1, NULL}, *empty[] = {NULL};
    char *const *sources[] = {NULL, empty, pair};
    char **v = insert_cases[_i].null_target ? NULL : make((const char *[]){"a", "b", "c", NULL});
    char *s;

    ck_assert_int_eq(insert_cases[_i].rc,
                     wu_argv_insert(&v, insert_cases[_i].start, sources[insert_cases[_i].source]));
    src0[0] = '!'; /* the target holds copies */
    s = wu_argv_join(v, ',');
    ck_assert_str_eq(insert_cases[_i].want, s);
    free(s);
    wu_argv_free(v);
}
END_TEST

START_TEST(insert_self_and_null)
{
    char **v = make((const char *[]){"a", "b", NULL});
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_argv_insert(NULL, 0, v));
    /* inserting a vector into itself copies it first */
    ck_assert_int_eq(WU_SUCCESS, wu_argv_insert(&v, 1, v));
    assert_argv(v, (const char *[]){"a", "a", "b", "b", NULL});
    wu_argv_free(v);
}
END_TEST

/* --- environment arrays --- */

static const struct {
    const char *name, *value;
    bool overwrite;
    int rc;
    const char *want_foo, *want_new; /* FOO and NEW afterwards (NULL: unset) */
    int want_count;
} setenv_cases[] = {
    {"FOO", "2", true, WU_SUCCESS, "2", NULL, 3},
    {"FOO", "2", false, WU_ERR_EXISTS, "1", NULL, 3},
    {"NEW", "v", false, WU_SUCCESS, "1", "v", 4},
    {"NEW", "v", true, WU_SUCCESS, "1", "v", 4},
    {"NEW", "", true, WU_SUCCESS, "1", "", 4},
    {"FOO", "a=b=c", true, WU_SUCCESS, "a=b=c", NULL, 3},
    {"", "x", true, WU_ERR_BAD_PARAM, "1", NULL, 3},
    {"A=B", "x", true, WU_ERR_BAD_PARAM, "1", NULL, 3},
    {NULL, "x", true, WU_ERR_BAD_PARAM, "1", NULL, 3},
    {"NEW", NULL, true, WU_ERR_BAD_PARAM, "1", NULL, 3},
};

START_TEST(setenv_array)
{
    char **env = make((const char *[]){"FOOBAR=x", "FOO=1", "BAR=", NULL});
    const char *got;

    ck_assert_int_eq(setenv_cases[_i].rc, wu_setenv(setenv_cases[_i].name, setenv_cases[_i].value,
                                                    setenv_cases[_i].overwrite, &env));
    ck_assert_int_eq(setenv_cases[_i].want_count, wu_argv_count(env));
    ck_assert_str_eq(setenv_cases[_i].want_foo, wu_getenv("FOO", env));
    got = wu_getenv("NEW", env);
    if (NULL == setenv_cases[_i].want_new) {
        ck_assert_ptr_null(got);
    } else {
        ck_assert_str_eq(setenv_cases[_i].want_new, got);
    }
    /* neighbours sharing a prefix are untouched */
    ck_assert_str_eq("x", wu_getenv("FOOBAR", env));
    ck_assert_str_eq("", wu_getenv("BAR", env));
    wu_argv_free(env);
}
END_TEST

START_TEST(setenv_creates_and_unsetenv)
{
    char **env = NULL;

    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_setenv("A", "1", true, NULL));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_unsetenv("A", &env));
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("A", "1", false, &env));
    ck_assert_int_eq(WU_SUCCESS, wu_setenv("AB", "2", false, &env));
    assert_argv(env, (const char *[]){"A=1", "AB=2", NULL});
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_unsetenv("B", &env));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_unsetenv("A=1", &env));
    ck_assert_int_eq(WU_SUCCESS, wu_unsetenv("A", &env));
    assert_argv(env, (const char *[]){"AB=2", NULL});
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_unsetenv("A", &env));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_unsetenv(NULL, &env));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_unsetenv("A", NULL));
    ck_assert_ptr_null(wu_getenv("A", NULL));
    ck_assert_ptr_null(wu_getenv(NULL, env));
    wu_argv_free(env);

    /* numbers, overwriting */
    env = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_setenv_u32("N", 7, &env));
    ck_assert_int_eq(WU_SUCCESS, wu_setenv_u32("N", UINT32_MAX, &env));
    assert_argv(env, (const char *[]){"N=4294967295", NULL});
    wu_argv_free(env);

    /* every duplicate goes */
    env = make((const char *[]){"D=1", "E=2", "D=3", "D=4", NULL});
    ck_assert_int_eq(WU_SUCCESS, wu_unsetenv("D", &env));
    assert_argv(env, (const char *[]){"E=2", NULL});
    wu_argv_free(env);
}
END_TEST

START_TEST(setenv_process_environ)
{
    const char *name = "WU_CHECK_ARGV_VAR";

    unsetenv(name);
    ck_assert_int_eq(WU_SUCCESS, wu_setenv(name, "one", false, &environ));
    ck_assert_str_eq("one", getenv(name));
    ck_assert_str_eq("one", wu_getenv(name, environ));
    ck_assert_int_eq(WU_ERR_EXISTS, wu_setenv(name, "two", false, &environ));
    ck_assert_str_eq("one", getenv(name));
    ck_assert_int_eq(WU_SUCCESS, wu_setenv(name, "two", true, &environ));
    ck_assert_str_eq("two", getenv(name));
    ck_assert_int_eq(WU_SUCCESS, wu_unsetenv(name, &environ));
    ck_assert_ptr_null(getenv(name));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_unsetenv(name, &environ));
}
END_TEST

/* --- strings --- */

static const struct {
    const char *in, *want;
} trim_cases[] = {
    {"", ""},           {"   ", ""},     {"a", "a"},
    {"  a", "a"},       {"a  ", "a"},    {" \t a b \r\n", "a b"},
    {"\v\fx\f\v", "x"}, {"a \0 b", "a"},
};

START_TEST(trim_table)
{
    char buf[32];
    char *t;

    strcpy(buf, trim_cases[_i].in);
    t = wu_string_trim(buf);
    ck_assert_str_eq(trim_cases[_i].want, t);
    ck_assert(t >= buf && t < buf + sizeof buf); /* in place */
}
END_TEST

START_TEST(asprintf_basic)
{
    int (*fn)(char **, const char *, ...) = wu_asprintf; /* lets us pass a NULL format */
    char *s = (char *)"sentinel", *big;
    size_t n = 100 * 1024;

    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&s, "%s-%d-%c", "x", 42, 'z'));
    ck_assert_str_eq("x-42-z", s);
    free(s);
    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&s, "%s", ""));
    ck_assert_str_eq("", s);
    free(s);

    big = malloc(n + 1);
    memset(big, 'q', n);
    big[n] = '\0';
    ck_assert_int_eq(WU_SUCCESS, wu_asprintf(&s, "<%s>", big));
    ck_assert_uint_eq(n + 2, strlen(s));
    ck_assert_int_eq('>', s[n + 1]);
    free(s);
    free(big);

    s = (char *)"sentinel";
    ck_assert_int_eq(WU_ERR_BAD_PARAM, fn(&s, NULL));
    ck_assert_ptr_null(s);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, fn(NULL, "x"));
}
END_TEST

static Suite *argv_suite(void)
{
    Suite *s = suite_create("wu_argv");
    TCase *tc = tcase_create("vectors");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, split_table, 0, WU_NELEMS(split_cases));
    tcase_add_test(tc, split_join_long);
    tcase_add_test(tc, split_join_null_and_empty);
    tcase_add_test(tc, append_prepend_unique);
    tcase_add_test(tc, copy_deep);
    tcase_add_loop_test(tc, delete_ranges, 0, WU_NELEMS(delete_cases));
    tcase_add_test(tc, delete_null);
    tcase_add_loop_test(tc, insert_ranges, 0, WU_NELEMS(insert_cases));
    tcase_add_test(tc, insert_self_and_null);
    suite_add_tcase(s, tc);

    tc = tcase_create("env");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, setenv_array, 0, WU_NELEMS(setenv_cases));
    tcase_add_test(tc, setenv_creates_and_unsetenv);
    tcase_add_test(tc, setenv_process_environ);
    suite_add_tcase(s, tc);

    tc = tcase_create("strings");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, trim_table, 0, WU_NELEMS(trim_cases));
    tcase_add_test(tc, asprintf_basic);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(argv_suite)
