/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_output.c -- unit tests of the output streams: verbosity parsing and names, per-stream
 * filtering, prefixes, redirection, stream table limits, and intact lines under concurrency. */
#include "opal/util/wu_error.h"
#include "opal/util/wu_output.h"
#include "test/support/wu_test.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[256];
static char outpath[300];
static int outfd = -1;
static int saved_stderr = -1; /* tests redirect fd 2; restored for CK_FORK=no runs */

static void setup(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/wu-output-XXXXXX", NULL != base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(outpath, sizeof outpath, "%s/out.txt", tmpdir);
    outfd = open(outpath, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
    ck_assert_int_ge(outfd, 0);
    saved_stderr = dup(STDERR_FILENO);
    ck_assert_int_ge(saved_stderr, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_output_init());
}

static void teardown(void)
{
    wu_output_finalize();
    if (saved_stderr >= 0) {
        dup2(saved_stderr, STDERR_FILENO);
        close(saved_stderr);
        saved_stderr = -1;
    }
    if (outfd >= 0) {
        close(outfd);
        outfd = -1;
    }
    unlink(outpath); /* the only file tests create */
    rmdir(tmpdir);
}

/* Everything written to outpath so far; caller frees. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf;
    long n;

    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq((size_t)n, fread(buf, 1, (size_t)n, f));
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void assert_output(const char *want)
{
    char *got = slurp(outpath);
    ck_assert_str_eq(want, got);
    free(got);
}

/* ---- verbosity names and numbers */

static const struct {
    const char *s;
    int level;
} good_levels[] = {
    {"0", 0},        {"100", 100},     {"45", 45},   {"007", 7},        {"none", -1},
    {"NONE", -1},    {"error", 0},     {"Error", 0}, {"component", 10}, {"warn", 20},
    {"warning", 20}, {"WARNING", 20},  {"info", 40}, {"trace", 60},     {"debug", 80},
    {"max", 100},    {"  info\t", 40}, {" 60 ", 60}, {"DeBuG", 80},
};

START_TEST(parse_accepts)
{
    int level = 12345;
    ck_assert_int_eq(WU_SUCCESS, wu_output_verbosity_parse(good_levels[_i].s, &level));
    ck_assert_int_eq(good_levels[_i].level, level);
}
END_TEST

static const char *const bad_levels[] = {
    "",         "   ",   "101",    "-1",  "1000000000000000000000",
    "abc",      "info2", "4x",     "+5",  "0x10",
    "warn ing", "inf",   "errors", "4 5", "none,",
    "\n",
};

START_TEST(parse_rejects)
{
    int level = 12345;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_output_verbosity_parse(bad_levels[_i], &level));
    ck_assert_int_eq(12345, level); /* untouched on error */
}
END_TEST

START_TEST(parse_null_args)
{
    int level = 7;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_output_verbosity_parse(NULL, &level));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_output_verbosity_parse("info", NULL));
    ck_assert_int_eq(7, level);
}
END_TEST

static const struct {
    int level;
    const char *name;
} level_names[] = {
    {-100, "none"},    {-1, "none"},      {0, "error"},  {9, "error"},
    {10, "component"}, {19, "component"}, {20, "warn"},  {39, "warn"},
    {40, "info"},      {45, "info"},      {60, "trace"}, {79, "trace"},
    {80, "debug"},     {99, "debug"},     {100, "max"},  {1000, "max"},
};

START_TEST(level_name)
{
    ck_assert_str_eq(level_names[_i].name, wu_output_verbosity_name(level_names[_i].level));
}
END_TEST

START_TEST(name_parse_roundtrip)
{
    /* every name that wu_output_verbosity_name() returns parses back to its own level */
    for (int l = -1; l <= 100; l++) {
        int back = -42;
        const char *name = wu_output_verbosity_name(l);
        ck_assert_int_eq(WU_SUCCESS, wu_output_verbosity_parse(name, &back));
        ck_assert_int_le(back, l);
        ck_assert_str_eq(name, wu_output_verbosity_name(back));
    }
}
END_TEST

/* ---- filtering, prefixes, redirection */

START_TEST(filtering_per_stream)
{
    int a = wu_output_open("a: ");
    int b = wu_output_open("b: ");
    ck_assert_int_gt(a, 0);
    ck_assert_int_gt(b, 0);
    ck_assert_int_ne(a, b);
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(a, outfd));
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(b, outfd));

    ck_assert_int_eq(WU_VERB_ERROR, wu_output_get_verbosity(a)); /* the default */
    wu_output_set_verbosity(a, WU_VERB_INFO);
    ck_assert_int_eq(WU_VERB_INFO, wu_output_get_verbosity(a));
    ck_assert(wu_output_check(WU_VERB_INFO, a));
    ck_assert(wu_output_check(WU_VERB_ERROR, a));
    ck_assert(!wu_output_check(WU_VERB_INFO + 1, a));
    ck_assert(!wu_output_check(WU_VERB_INFO, b));
    ck_assert(wu_output_check(WU_VERB_ERROR, b));
    ck_assert(!wu_output_check(-1, a)); /* no such level */

    wu_output_verbose(WU_VERB_ERROR, a, "a error %d", 1);
    wu_output_verbose(WU_VERB_COMPONENT, a, "a component");
    wu_output_verbose(WU_VERB_INFO, a, "a info");
    wu_output_verbose(WU_VERB_TRACE, a, "a trace");
    wu_output_verbose(WU_VERB_DEBUG, a, "a debug");
    wu_output_verbose(WU_VERB_ERROR, b, "b error");
    wu_output_verbose(WU_VERB_WARN, b, "b warn");
    wu_output_verbose(-1, b, "negative level never prints");
    assert_output("a: a error 1\na: a component\na: a info\nb: b error\n");
    wu_output_close(a);
    wu_output_close(b);
}
END_TEST

START_TEST(verbosity_none_and_clamping)
{
    int s = wu_output_open(NULL);
    ck_assert_int_gt(s, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(s, outfd));
    wu_output_set_verbosity(s, WU_VERB_NONE);
    ck_assert(!wu_output_check(WU_VERB_ERROR, s));
    wu_output_verbose(WU_VERB_ERROR, s, "hidden");
    wu_output(s, "always %s", "shown"); /* wu_output ignores verbosity */
    wu_output_set_verbosity(s, -50);
    ck_assert_int_eq(WU_VERB_NONE, wu_output_get_verbosity(s));
    wu_output_set_verbosity(s, 5000);
    ck_assert_int_eq(WU_VERB_MAX, wu_output_get_verbosity(s));
    wu_output_verbose(WU_VERB_MAX, s, "max");
    wu_output_verbose(WU_VERB_MAX + 1, s, "beyond max");
    assert_output("always shown\nmax\n");
    wu_output_close(s);
}
END_TEST

static const struct {
    const char *prefix, *msg, *want;
} prefix_cases[] = {
    {"p: ", "one line", "p: one line\n"},
    {"p: ", "has newline\n", "p: has newline\n"},
    {"p: ", "two\nlines", "p: two\np: lines\n"},
    {"p: ", "two\nlines\n", "p: two\np: lines\n"},
    {"p: ", "blank\n\nline", "p: blank\np: \np: line\n"},
    {"p: ", "", "p: \n"},
    {"[x %d %s] ", "percent in prefix is verbatim", "[x %d %s] percent in prefix is verbatim\n"},
    {NULL, "no prefix\nat all", "no prefix\nat all\n"},
    {"", "", "\n"},
};

START_TEST(prefix_every_line)
{
    int s = wu_output_open(prefix_cases[_i].prefix);
    ck_assert_int_gt(s, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(s, outfd));
    wu_output(s, "%s", prefix_cases[_i].msg);
    assert_output(prefix_cases[_i].want);
    wu_output_close(s);
}
END_TEST

static void call_vverbose(int level, int stream, const char *fmt, ...) WU_PRINTF(3, 4);
static void call_vverbose(int level, int stream, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wu_output_vverbose(level, stream, fmt, ap);
    va_end(ap);
}

START_TEST(vverbose_and_long_message)
{
    char big[5000];
    char *want, *got;
    int s = wu_output_open("long: ");

    ck_assert_int_gt(s, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(s, outfd));
    wu_output_set_verbosity(s, WU_VERB_TRACE);
    call_vverbose(WU_VERB_TRACE, s, "%s=%d", "answer", 42);
    call_vverbose(WU_VERB_DEBUG, s, "not shown %d", 1);
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    big[2000] = '\n'; /* the long message has two lines */
    wu_output_verbose(WU_VERB_INFO, s, "%s", big);

    want = malloc(2 * sizeof big + 64);
    ck_assert_ptr_nonnull(want);
    big[2000] = '\0';
    snprintf(want, 2 * sizeof big + 64, "long: answer=42\nlong: %s\nlong: %s\n", big, big + 2001);
    got = slurp(outpath);
    /* not ck_assert_str_eq: Check cannot report a 10 kB string */
    ck_assert_uint_eq(strlen(want), strlen(got));
    ck_assert_msg(0 == strcmp(want, got), "long message differs");
    free(want);
    free(got);
    wu_output_close(s);
}
END_TEST

START_TEST(redirect_to_pipe)
{
    int p[2];
    char buf[256];
    ssize_t n;
    int s = wu_output_open("pipe: ");

    ck_assert_int_gt(s, 0);
    ck_assert_int_eq(0, pipe(p));
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(s, p[1]));
    wu_output(s, "hello %s", "pipe");
    n = read(p[0], buf, sizeof buf - 1); /* one message is one write: one read gets it all */
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_str_eq("pipe: hello pipe\n", buf);
    close(p[0]);
    close(p[1]);
    wu_output_close(s);
}
END_TEST

/* Stream 0 and restored streams go to whatever fd 2 is when they write. */
START_TEST(stderr_default_and_restore)
{
    int s = wu_output_open("s: ");
    ck_assert_int_gt(s, 0);
    ck_assert_int_eq(STDERR_FILENO, dup2(outfd, STDERR_FILENO)); /* this test runs forked */
    ck_assert_int_eq(WU_VERB_ERROR, wu_output_get_verbosity(0));
    wu_output(0, "stream zero");
    wu_output_verbose(WU_VERB_ERROR, 0, "zero error");
    wu_output_verbose(WU_VERB_COMPONENT, 0, "zero component, hidden");

    int p[2];
    ck_assert_int_eq(0, pipe(p));
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(s, p[1]));
    wu_output(s, "to the pipe");
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(s, -1));
    wu_output(s, "back on stderr");
    close(p[1]);
    char buf[64];
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_str_eq("s: to the pipe\n", buf);
    close(p[0]);
    assert_output("stream zero\nzero error\ns: back on stderr\n");
    wu_output_close(s);
}
END_TEST

START_TEST(invalid_streams_are_ignored)
{
    const int bad[] = {-1, -1000, WU_OUTPUT_MAX_STREAMS, WU_OUTPUT_MAX_STREAMS + 1, 1 << 30};
    int closed = wu_output_open(NULL);
    ck_assert_int_gt(closed, 0);
    wu_output_close(closed);

    ck_assert_int_eq(STDERR_FILENO, dup2(outfd, STDERR_FILENO));
    for (size_t i = 0; i <= WU_NELEMS(bad); i++) {
        int id = i < WU_NELEMS(bad) ? bad[i] : closed;
        wu_output(id, "must not appear %d", id);
        wu_output_verbose(WU_VERB_ERROR, id, "must not appear");
        wu_output_set_verbosity(id, WU_VERB_MAX);
        ck_assert_int_eq(WU_VERB_NONE, wu_output_get_verbosity(id));
        ck_assert(!wu_output_check(WU_VERB_ERROR, id));
        ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_output_set_fd(id, outfd));
        wu_output_close(id);
    }
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_output_set_fd(0, -2));
    wu_output_close(0); /* stream 0 cannot be closed */
    wu_output(0, "zero still works");
    wu_output(0, NULL); /* no format: ignored */
    assert_output("zero still works\n");
}
END_TEST

START_TEST(table_limits_and_reuse)
{
    int ids[WU_OUTPUT_MAX_STREAMS];
    int n = 0, id;

    while ((id = wu_output_open("many: ")) >= 0) {
        ck_assert_int_lt(n, WU_OUTPUT_MAX_STREAMS);
        for (int j = 0; j < n; j++) {
            ck_assert_int_ne(ids[j], id);
        }
        ids[n++] = id;
    }
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, id);
    ck_assert_int_ge(n + 1, 64); /* at least 64 streams, stream 0 included */
    ck_assert_int_eq(WU_OUTPUT_MAX_STREAMS - 1, n);

    wu_output_close(ids[10]);
    id = wu_output_open("again: ");
    ck_assert_int_eq(ids[10], id); /* the closed id is reused, fresh */
    ck_assert_int_eq(WU_VERB_ERROR, wu_output_get_verbosity(id));
    ck_assert_int_eq(WU_SUCCESS, wu_output_set_fd(id, outfd));
    wu_output(id, "reused");
    assert_output("again: reused\n");
    for (int j = 0; j < n; j++) {
        wu_output_close(ids[j]);
    }
}
END_TEST

START_TEST(init_is_refcounted)
{
    /* setup took one reference */
    ck_assert_int_eq(WU_SUCCESS, wu_output_init());
    int s = wu_output_open("rc: ");
    ck_assert_int_gt(s, 0);
    wu_output_set_verbosity(s, WU_VERB_DEBUG);
    wu_output_set_verbosity(0, WU_VERB_INFO);
    wu_output_finalize();
    ck_assert_int_eq(WU_VERB_DEBUG, wu_output_get_verbosity(s)); /* still open */
    wu_output_finalize();                                        /* the last reference */
    ck_assert_int_eq(WU_VERB_NONE, wu_output_get_verbosity(s));  /* closed */
    ck_assert_int_eq(WU_VERB_ERROR, wu_output_get_verbosity(0)); /* reset */
    wu_output_finalize();                                        /* extra: ignored */
    ck_assert_int_eq(WU_SUCCESS, wu_output_init());              /* for teardown */
}
END_TEST

/* ---- concurrency: every line intact and present exactly once */

#define NTHREADS 8
#define NLINES   400
#define PAD      150

struct writer {
    pthread_t tid;
    int index;
};

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    char prefix[32], pad[PAD + 1];
    int s;

    snprintf(prefix, sizeof prefix, "w%d: ", w->index);
    memset(pad, 'a' + w->index, PAD);
    pad[PAD] = '\0';
    s = wu_output_open(prefix);
    if (s < 0 || WU_SUCCESS != wu_output_set_fd(s, outfd)) {
        return NULL;
    }
    wu_output_set_verbosity(s, WU_VERB_TRACE);
    for (int i = 0; i < NLINES; i++) {
        wu_output_verbose(WU_VERB_TRACE, s, "line %d %s\nsecond %d %s", i, pad, i, pad);
    }
    wu_output_close(s);
    return w;
}

/* Check that outpath holds exactly nwriters * NLINES two-line messages, each intact. */
static void check_lines(int nwriters)
{
    char *all = slurp(outpath), *save = NULL;
    static unsigned char seen[NTHREADS][NLINES];
    int count = 0;

    memset(seen, 0, sizeof seen);
    for (char *line = strtok_r(all, "\n", &save); NULL != line;
         line = strtok_r(NULL, "\n", &save)) {
        int w, i, w2, i2, len;
        char pad[PAD + 1];
        char *second = strtok_r(NULL, "\n", &save);

        ck_assert_ptr_nonnull(second);
        ck_assert_int_eq(3, sscanf(line, "w%d: line %d %150s", &w, &i, pad));
        ck_assert_int_ge(w, 0);
        ck_assert_int_lt(w, nwriters);
        ck_assert_int_ge(i, 0);
        ck_assert_int_lt(i, NLINES);
        len = (int)strlen(pad);
        ck_assert_int_eq(PAD, len);
        ck_assert_int_eq(PAD, (int)strspn(pad, (char[]){(char)('a' + w), '\0'}));
        ck_assert_int_eq(3, sscanf(second, "w%d: second %d %150s", &w2, &i2, pad));
        ck_assert_int_eq(w, w2);
        ck_assert_int_eq(i, i2);
        ck_assert_int_eq(PAD, (int)strspn(pad, (char[]){(char)('a' + w), '\0'}));
        ck_assert_int_eq(0, seen[w][i]);
        seen[w][i] = 1;
        count++;
    }
    ck_assert_int_eq(nwriters * NLINES, count);
    free(all);
}

START_TEST(concurrent_threads)
{
    struct writer w[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        w[t].index = t;
        ck_assert_int_eq(0, pthread_create(&w[t].tid, NULL, writer_main, &w[t]));
    }
    for (int t = 0; t < NTHREADS; t++) {
        void *ret;
        ck_assert_int_eq(0, pthread_join(w[t].tid, &ret));
        ck_assert_ptr_eq(&w[t], ret);
    }
    check_lines(NTHREADS);
}
END_TEST

START_TEST(concurrent_processes)
{
    pid_t pids[4];
    for (int c = 0; c < 4; c++) {
        pids[c] = fork();
        ck_assert_int_ge(pids[c], 0);
        if (0 == pids[c]) {
            struct writer w = {.index = c};
            _exit(NULL == writer_main(&w) ? 1 : 0);
        }
    }
    for (int c = 0; c < 4; c++) {
        int status;
        ck_assert_int_eq(pids[c], waitpid(pids[c], &status, 0));
        ck_assert(WIFEXITED(status));
        ck_assert_int_eq(0, WEXITSTATUS(status));
    }
    check_lines(4);
}
END_TEST

static Suite *output_suite(void)
{
    Suite *s = suite_create("wu_output");
    TCase *tc = tcase_create("verbosity");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, parse_accepts, 0, (int)WU_NELEMS(good_levels));
    tcase_add_loop_test(tc, parse_rejects, 0, (int)WU_NELEMS(bad_levels));
    tcase_add_test(tc, parse_null_args);
    tcase_add_loop_test(tc, level_name, 0, (int)WU_NELEMS(level_names));
    tcase_add_test(tc, name_parse_roundtrip);
    suite_add_tcase(s, tc);

    tc = tcase_create("streams");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, filtering_per_stream);
    tcase_add_test(tc, verbosity_none_and_clamping);
    tcase_add_loop_test(tc, prefix_every_line, 0, (int)WU_NELEMS(prefix_cases));
    tcase_add_test(tc, vverbose_and_long_message);
    tcase_add_test(tc, redirect_to_pipe);
    tcase_add_test(tc, stderr_default_and_restore);
    tcase_add_test(tc, invalid_streams_are_ignored);
    tcase_add_test(tc, table_limits_and_reuse);
    tcase_add_test(tc, init_is_refcounted);
    suite_add_tcase(s, tc);

    tc = tcase_create("concurrency");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, concurrent_threads);
    tcase_add_test(tc, concurrent_processes);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(output_suite)
