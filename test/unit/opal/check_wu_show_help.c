/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_show_help.c -- unit tests of the help catalog: lookup, rendering and framing, the
 * missing-topic message, aggregation and its summary, relayed (norender) messages, and the
 * converter config/wu_help_to_c.pl run on crafted help files. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* program_invocation_short_name */
#endif
#include "opal/util/wu_error.h"
#include "opal/util/wu_show_help.h"
#include "test/support/wu_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WU_TEST_SRCDIR
#error "WU_TEST_SRCDIR must name the top source directory"
#endif
#ifndef WU_TEST_PERL
#define WU_TEST_PERL "perl"
#endif
#ifndef WU_TEST_CC
#define WU_TEST_CC "cc"
#endif

#define DASHES "--------------------------------------------------------------------------\n"
#define UTIL   "help-wu-util.txt"

static char tmpdir[256];
static char outpath[300];
static int outfd = -1;

static void make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/wu-help-XXXXXX", NULL != base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(outpath, sizeof outpath, "%s/out.txt", tmpdir);
}

static void remove_tmpdir(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if ('\0' != tmpdir[0] && 0 != system(cmd)) {
        fprintf(stderr, "could not remove %s\n", tmpdir);
    }
}

/* A private directory and an output file in it, where messages go. */
static void setup_output(void)
{
    make_tmpdir();
    outfd = open(outpath, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
    ck_assert_int_ge(outfd, 0);
    wu_show_help_set_fd(outfd);
}

static void setup(void)
{
    setup_output();
    wu_show_help_set_aggregate(true);
}

static void teardown(void)
{
    wu_show_help_set_aggregate(false); /* forget what was printed (matters with CK_FORK=no) */
    wu_show_help_set_fd(-1);
    close(outfd);
    outfd = -1;
    remove_tmpdir();
}

/* Whole content of a file (binary safe, NUL-terminated); *len gets its size. Caller frees. */
static char *slurp_len(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    ck_assert_msg(NULL != f, "cannot open %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq((size_t)n, fread(buf, 1, (size_t)n, f));
    buf[n] = '\0';
    fclose(f);
    if (NULL != len) {
        *len = (size_t)n;
    }
    return buf;
}

static char *slurp(const char *path)
{
    return slurp_len(path, NULL);
}

static void assert_output(const char *want)
{
    char *got = slurp(outpath);
    ck_assert_str_eq(want, got);
    free(got);
}

static size_t count_substr(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); NULL != p; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

/* ---- the catalog */

START_TEST(catalog_well_formed)
{
    size_t n = 0;
    const wu_help_entry_t *e;

    for (e = wu_help_catalog; NULL != e->file; e++, n++) {
        size_t len;
        ck_assert_ptr_nonnull(e->topic);
        ck_assert_ptr_nonnull(e->text);
        ck_assert_msg(0 == strncmp(e->file, "help-", 5), "bad file name %s", e->file);
        len = strlen(e->text);
        ck_assert_msg(len > 0 && '\n' == e->text[len - 1], "%s/%s: no final newline", e->file,
                      e->topic);
        ck_assert_msg(len < 2 || '\n' != e->text[len - 2], "%s/%s: trailing blank line", e->file,
                      e->topic);
        for (const wu_help_entry_t *f = wu_help_catalog; f != e; f++) {
            ck_assert_msg(0 != strcmp(e->file, f->file) || 0 != strcmp(e->topic, f->topic),
                          "duplicate %s/%s", e->file, e->topic);
        }
        /* every entry can be found the public way */
        ck_assert_ptr_eq(e->text, wu_help_lookup(e->file, e->topic));
    }
    ck_assert_ptr_null(e->topic); /* an all-NULL terminator */
    ck_assert_ptr_null(e->text);
    ck_assert_uint_ge(n, 4);
}
END_TEST

START_TEST(lookup)
{
    const char *t = wu_help_lookup(UTIL, "unknown-option");
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "does not know the option \"%s\""));
    /* a path is reduced to its basename */
    ck_assert_ptr_eq(t, wu_help_lookup("/any/dir/" UTIL, "unknown-option"));
    ck_assert_ptr_nonnull(wu_help_lookup(UTIL, "sys-call-failed"));

    ck_assert_ptr_null(wu_help_lookup(UTIL, "no-such-topic"));
    ck_assert_ptr_null(wu_help_lookup(UTIL, "unknown-optio"));
    ck_assert_ptr_null(wu_help_lookup(UTIL, "Unknown-Option")); /* case matters */
    ck_assert_ptr_null(wu_help_lookup("help-no-such-file.txt", "unknown-option"));
    ck_assert_ptr_null(wu_help_lookup("help-wu-util", "unknown-option"));
    ck_assert_ptr_null(wu_help_lookup(NULL, "unknown-option"));
    ck_assert_ptr_null(wu_help_lookup(UTIL, NULL));
    ck_assert_ptr_null(wu_help_lookup(UTIL, ""));
}
END_TEST

/* ---- rendering */

START_TEST(substitution_and_framing)
{
    char *s = wu_show_help_string(UTIL, "unknown-option", false, "wrun", "--npx");
    char want[4096];

    ck_assert_ptr_nonnull(s);
    /* framed: first and last lines are 74 dashes, the text comes right after the first */
    ck_assert_int_eq(75, (int)strlen(DASHES));
    const char *head = DASHES "wrun does not know the option \"--npx\".\n";
    ck_assert_int_eq(0, strncmp(s, head, strlen(head)));
    ck_assert_str_eq(DASHES, s + strlen(s) - strlen(DASHES));
    ck_assert_uint_eq(2, count_substr(s, "-----\n"));
    ck_assert_ptr_null(strstr(s, "%s"));
    /* and the whole of it is the topic formatted */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    char body[2048];
    snprintf(body, sizeof body, wu_help_lookup(UTIL, "unknown-option"), "wrun", "--npx");
#pragma GCC diagnostic pop
    snprintf(want, sizeof want, "%s%s%s", DASHES, body, DASHES);
    ck_assert_str_eq(want, s);
    free(s);

    s = wu_show_help_string(UTIL, "bad-verbosity", false, "lots", "gds_base_verbose", 7);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(strstr(s, "The value \"lots\" of the parameter gds_base_verbose is"));
    ck_assert_ptr_nonnull(strstr(s, "keeps its previous value (7)."));
    free(s);

    s = wu_show_help_string(UTIL, "sys-call-failed", false, "wired", "mkdir", "/tmp/x",
                            "Permission denied", 13);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(strstr(s, "Error:     Permission denied (errno 13)\n"));
    free(s);
}
END_TEST

static char *call_vstring(const char *file, const char *topic, bool hdr, ...)
{
    va_list ap;
    char *s;
    va_start(ap, hdr);
    s = wu_show_help_vstring(file, topic, hdr, ap);
    va_end(ap);
    return s;
}

START_TEST(error_header)
{
    char *s = call_vstring(UTIL, "missing-argument", true, "wrun", "-n");
    char want[128];

    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(0, strncmp(s, DASHES "Error in ", strlen(DASHES) + 9));
    snprintf(want, sizeof want, " (PID %ld) on host ", (long)getpid());
    ck_assert_ptr_nonnull(strstr(s, want));
    snprintf(want, sizeof want, "Error in %s (PID", program_invocation_short_name);
    ck_assert_ptr_nonnull(strstr(s, want)); /* the program's name */
    /* the header is one line, followed by the text */
    ck_assert_ptr_nonnull(strstr(s, ":\nwrun: the option \"-n\" needs a value"));
    free(s);

    s = call_vstring(UTIL, "missing-argument", false, "wrun", "-n");
    ck_assert_ptr_null(strstr(s, "Error in "));
    free(s);
}
END_TEST

static const struct {
    const char *file, *topic, *want_file, *want_topic;
} missing[] = {
    {UTIL, "no-such-topic", "\"" UTIL "\"", "[no-such-topic]"},
    {"help-nowhere.txt", "unknown-option", "\"help-nowhere.txt\"", "[unknown-option]"},
    {"/a/b/help-nowhere.txt", "x", "\"help-nowhere.txt\"", "[x]"},
    {NULL, "t", "\"(null)\"", "[t]"},
    {UTIL, NULL, "\"" UTIL "\"", "[(null)]"},
};

START_TEST(missing_topic_message)
{
    char *s = wu_show_help_string(missing[_i].file, missing[_i].topic, false, "unused");
    ck_assert_ptr_nonnull(s); /* never NULL for a missing topic */
    ck_assert_int_eq(0, strncmp(s, DASHES, strlen(DASHES)));
    ck_assert_str_eq(DASHES, s + strlen(s) - strlen(DASHES));
    ck_assert_ptr_nonnull(strstr(s, missing[_i].want_file));
    ck_assert_ptr_nonnull(strstr(s, missing[_i].want_topic));
    ck_assert_ptr_nonnull(strstr(s, "compiled-in help catalog has no such message"));
    free(s);
}
END_TEST

START_TEST(show_help_prints_once)
{
    char *want = wu_show_help_string(UTIL, "unknown-option", false, "wired", "--bogus");
    ck_assert_ptr_nonnull(want);
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wired", "--bogus"));
    assert_output(want);
    free(want);
}
END_TEST

START_TEST(show_help_bad_args)
{
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_show_help(NULL, "t", false));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_show_help(UTIL, NULL, true));
    /* the user still sees what went wrong */
    char *got = slurp(outpath);
    ck_assert_uint_eq(2, count_substr(got, "no such message"));
    free(got);
    /* a missing topic is not a bad argument: printed, and success */
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "not-there", false));
}
END_TEST

/* ---- aggregation */

START_TEST(aggregation_counts_and_flush)
{
    char *first_a = wu_show_help_string(UTIL, "unknown-option", false, "wrun", "--a");
    char *first_b = wu_show_help_string(UTIL, "bad-verbosity", false, "x", "p", 1);
    char *first_c = wu_show_help_string(UTIL, "missing-argument", false, "wrun", "-c");
    char want[8192], *got;

    ck_assert_ptr_nonnull(first_a);
    ck_assert_ptr_nonnull(first_b);
    ck_assert_ptr_nonnull(first_c);
    /* repeats count by file+topic; their arguments do not matter */
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "bad-verbosity", false, "x", "p", 1));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--z"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", true, "wrun", "--y"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "missing-argument", false, "wrun", "-c"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "bad-verbosity", false, "y", "q", 2));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help("/elsewhere/" UTIL, "unknown-option", false, "a",
                                              "b")); /* same basename: same message */
    snprintf(want, sizeof want, "%s%s%s", first_a, first_b, first_c);
    assert_output(want);

    wu_show_help_flush();
    got = slurp(outpath);
    const char *summary = got + strlen(want);
    ck_assert_int_eq(0, strncmp(got, want, strlen(want)));
    ck_assert_ptr_nonnull(strstr(summary, "help message " UTIL " / unknown-option was reported 3 "
                                          "more times, not shown\n"));
    ck_assert_ptr_nonnull(strstr(
        summary, "help message " UTIL " / bad-verbosity was reported 1 more time, not shown\n"));
    ck_assert_ptr_null(strstr(summary, "missing-argument")); /* never repeated */
    ck_assert_uint_eq(1, count_substr(summary, "parameter base_help_aggregate=0"));
    ck_assert_uint_eq(1, count_substr(summary, "PMIX_MCA_base_help_aggregate=0"));
    ck_assert_uint_eq(3, count_substr(summary, "\n")); /* two counts and one hint */
    size_t after_first_flush = strlen(got);
    free(got);

    /* nothing new: a second flush prints nothing */
    wu_show_help_flush();
    got = slurp(outpath);
    ck_assert_uint_eq(after_first_flush, strlen(got));
    free(got);

    /* a topic shown before the flush stays known: repeats are counted afresh */
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "missing-argument", false, "wrun", "-c"));
    wu_show_help_flush();
    got = slurp(outpath);
    summary = got + after_first_flush;
    ck_assert_ptr_nonnull(strstr(summary, " / missing-argument was reported 1 more time"));
    ck_assert_ptr_null(strstr(summary, "unknown-option"));
    ck_assert_uint_eq(2, count_substr(summary, "\n"));
    free(got);
    free(first_a);
    free(first_b);
    free(first_c);
}
END_TEST

START_TEST(aggregation_off)
{
    char *one = wu_show_help_string(UTIL, "unknown-option", false, "wrun", "--a");
    char want[8192];

    ck_assert_ptr_nonnull(one);
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    /* turning aggregation off flushes the counted repeat, then every message prints */
    wu_show_help_set_aggregate(false);
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    wu_show_help_flush(); /* nothing counted */
    char *got = slurp(outpath);
    ck_assert_uint_eq(3, count_substr(got, "does not know the option"));
    ck_assert_uint_eq(1, count_substr(got, "was reported 1 more time"));
    ck_assert_uint_eq(1, count_substr(got, "PMIX_MCA_base_help_aggregate=0"));
    free(got);

    /* back on: the topic printed earlier is forgotten, so it prints once more */
    wu_show_help_set_aggregate(true);
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "wrun", "--a"));
    got = slurp(outpath);
    ck_assert_uint_eq(4, count_substr(got, "does not know the option"));
    snprintf(want, sizeof want, "%s", one);
    ck_assert_str_eq(want, got + strlen(got) - strlen(one));
    free(got);
    free(one);
}
END_TEST

/* The environment decides while nobody called wu_show_help_set_aggregate(); needs a fresh
 * process, so these tests do nothing under CK_FORK=no. */
static const struct {
    const char *value;
    int printed;
} env_cases[] = {
    {NULL, 1}, {"1", 1}, {"true", 1}, {"0", 3}, {"false", 3}, {"No", 3}, {"OFF", 3},
};

START_TEST(aggregation_from_environment)
{
    const char *fork_mode = getenv("CK_FORK");
    if (NULL != fork_mode && 0 == strcmp(fork_mode, "no")) {
        return;
    }
    if (NULL == env_cases[_i].value) {
        unsetenv("PMIX_MCA_base_help_aggregate");
    } else {
        setenv("PMIX_MCA_base_help_aggregate", env_cases[_i].value, 1);
    }
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "w", "-x"));
    }
    char *got = slurp(outpath);
    ck_assert_uint_eq((size_t)env_cases[_i].printed, count_substr(got, "does not know"));
    free(got);
}
END_TEST

START_TEST(norender)
{
    ck_assert_int_eq(WU_SUCCESS, wu_show_help_norender("help-remote.txt", "boom", "relayed %s"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help_norender("help-remote.txt", "other", "two\n"));
    assert_output("relayed %s\ntwo\n"); /* verbatim, newline added only if missing */
    ck_assert_int_eq(WU_SUCCESS, wu_show_help_norender("help-remote.txt", "boom", "again"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help_norender("/x/help-remote.txt", "boom", "again"));
    /* norender and wu_show_help share the file+topic keys */
    ck_assert_int_eq(WU_SUCCESS, wu_show_help(UTIL, "unknown-option", false, "a", "b"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help_norender(UTIL, "unknown-option", "remote copy"));
    ck_assert_int_eq(WU_SUCCESS, wu_show_help_norender("help-remote.txt", "empty", ""));

    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_show_help_norender(NULL, "t", "x"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_show_help_norender("f", NULL, "x"));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_show_help_norender("f", "t", NULL));

    wu_show_help_flush();
    char *got = slurp(outpath);
    ck_assert_ptr_null(strstr(got, "again"));
    ck_assert_ptr_null(strstr(got, "remote copy"));
    ck_assert_ptr_nonnull(strstr(got, "\n\n")); /* the empty message is one empty line */
    ck_assert_ptr_nonnull(strstr(got, "help-remote.txt / boom was reported 2 more times"));
    ck_assert_ptr_nonnull(strstr(got, UTIL " / unknown-option was reported 1 more time"));
    ck_assert_ptr_null(strstr(got, " / other was reported"));
    free(got);
}
END_TEST

#define NTHREADS 8
#define NCALLS   50

static void *shower(void *arg)
{
    for (int i = 0; i < NCALLS; i++) {
        if (WU_SUCCESS != wu_show_help(UTIL, "bad-verbosity", false, "v", "p", i)) {
            return NULL;
        }
    }
    return arg;
}

START_TEST(aggregation_threads)
{
    pthread_t tid[NTHREADS];
    int token[NTHREADS];
    char want[128];

    for (int t = 0; t < NTHREADS; t++) {
        ck_assert_int_eq(0, pthread_create(&tid[t], NULL, shower, &token[t]));
    }
    for (int t = 0; t < NTHREADS; t++) {
        void *ret;
        ck_assert_int_eq(0, pthread_join(tid[t], &ret));
        ck_assert_ptr_eq(&token[t], ret); /* every call succeeded */
    }
    wu_show_help_flush();
    char *got = slurp(outpath);
    ck_assert_uint_eq(1, count_substr(got, "is not a verbosity level"));
    snprintf(want, sizeof want, " / bad-verbosity was reported %d more times",
             NTHREADS * NCALLS - 1);
    ck_assert_ptr_nonnull(strstr(got, want));
    free(got);
}
END_TEST

/* ---- the converter, config/wu_help_to_c.pl */

static void write_file(const char *name, const char *text)
{
    char path[400];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(strlen(text), fwrite(text, 1, strlen(text), f));
    ck_assert_int_eq(0, fclose(f));
}

/* Run the converter on files of tmpdir; output to tmpdir/out (a name), messages to log.txt.
 * Returns its exit status. */
static int convert(const char *out, const char *in1, const char *in2)
{
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' '%s/config/wu_help_to_c.pl' '%s' %s %s >log.txt 2>&1", tmpdir,
             WU_TEST_PERL, WU_TEST_SRCDIR, out, in1, NULL == in2 ? "" : in2);
    st = system(cmd);
    ck_assert_msg(-1 != st && WIFEXITED(st), "cannot run: %s", cmd);
    return WEXITSTATUS(st);
}

static char *log_text(void)
{
    char path[400];
    snprintf(path, sizeof path, "%s/log.txt", tmpdir);
    return slurp(path);
}

static const char crafted[] =
    "# SPDX-License-Identifier: BSD-3-Clause\n"
    "# a comment with \"quotes\", a \\ and 100% of nothing\r\n"
    "\n"
    "[quotes]\n"
    "He said \"hi\" and 'bye'.\n"
    "[backslash]\n"
    "C:\\path\\to\\file \\n is not a newline\\\\\n"
    "\n"
    "[percent]\n"
    "100%% done: %s has %d items, %-5.2f%%\n"
    "[trigraph]\n"
    "Trigraphs ?\?= ?\?/ ?\?' ?\?( ?\?) ?\?! ?\?< ?\?> ?\?- stay as they are?\?\?\n"
    "[mixed.topic-name_2]\n"
    "\ttab:\t|\n"
    "CRLF line\r\n"
    "# not a comment inside a topic\n"
    "UTF-8: caf\xc3\xa9 \x01\x7f\n"
    "/* not a C comment */ \"\\\"\n"
    "\n"
    "  indented after a blank line\n"
    "\n"
    "   \n"
    "\n"
    "[last]\n"
    "no newline at the end of the file";

static const wu_help_entry_t crafted_want[] = {
    {"help-a-crafted.txt", "quotes", "He said \"hi\" and 'bye'.\n"},
    {"help-a-crafted.txt", "backslash", "C:\\path\\to\\file \\n is not a newline\\\\\n"},
    {"help-a-crafted.txt", "percent", "100%% done: %s has %d items, %-5.2f%%\n"},
    {"help-a-crafted.txt", "trigraph",
     "Trigraphs ?\?= ?\?/ ?\?' ?\?( ?\?) ?\?! ?\?< ?\?> ?\?- stay as they are?\?\?\n"},
    {"help-a-crafted.txt", "mixed.topic-name_2",
     "\ttab:\t|\nCRLF line\n# not a comment inside a topic\nUTF-8: caf\xc3\xa9 \x01\x7f\n"
     "/* not a C comment */ \"\\\"\n\n  indented after a blank line\n"},
    {"help-a-crafted.txt", "last", "no newline at the end of the file\n"},
    {"help-b-second.txt", "quotes", "same topic name, another file\n"},
};

/* A program that prints the catalog it is linked with, each field followed by a NUL. */
static const char dump_c[] =
    "#include <stdio.h>\n"
    "#include \"opal/util/wu_show_help.h\"\n"
    "int main(void)\n"
    "{\n"
    "    for (const wu_help_entry_t *e = wu_help_catalog; e->file; e++)\n"
    "        printf(\"%s%c%s%c%s%c\", e->file, 0, e->topic, 0, e->text, 0);\n"
    "    return 0;\n"
    "}\n";

START_TEST(converter_escapes)
{
    char cmd[2048], path[400], *got, *p;
    size_t len, i;
    int st;

    write_file("help-a-crafted.txt", crafted);
    write_file("help-b-second.txt", "[quotes]\nsame topic name, another file\n\n");
    write_file("dump.c", dump_c);
    /* inputs in reverse order: the catalog is sorted by file name anyway */
    ck_assert_int_eq(0, convert("cat.c", "help-b-second.txt", "help-a-crafted.txt"));

    /* Compile in strict ISO C (trigraphs on), warnings as errors, and run. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && %s -std=c11 -Wall -Wextra -Werror -I'%s' -o dump dump.c cat.c "
             ">>log.txt 2>&1 && ./dump >dump.out",
             tmpdir, WU_TEST_CC, WU_TEST_SRCDIR);
    st = system(cmd);
    if (0 != st) {
        char *log = log_text();
        ck_abort_msg("compiling the generated catalog failed: %s\n%s", cmd, log);
    }
    snprintf(path, sizeof path, "%s/dump.out", tmpdir);
    got = slurp_len(path, &len);
    p = got;
    for (i = 0; i < WU_NELEMS(crafted_want) && p < got + len; i++) {
        ck_assert_str_eq(crafted_want[i].file, p);
        p += strlen(p) + 1;
        ck_assert_str_eq(crafted_want[i].topic, p);
        p += strlen(p) + 1;
        ck_assert_msg(0 == strcmp(crafted_want[i].text, p), "topic %s: got \"%s\"",
                      crafted_want[i].topic, p);
        p += strlen(p) + 1;
    }
    ck_assert_uint_eq(WU_NELEMS(crafted_want), i);
    ck_assert_ptr_eq(got + len, p); /* nothing else */
    free(got);
}
END_TEST

START_TEST(converter_deterministic)
{
    char a[400], b[400], *ta, *tb;

    write_file("help-a-crafted.txt", crafted);
    write_file("help-b-second.txt", "[quotes]\nsecond\n");
    ck_assert_int_eq(0, convert("one.c", "help-a-crafted.txt", "help-b-second.txt"));
    ck_assert_int_eq(0, convert("two.c", "help-b-second.txt", "help-a-crafted.txt"));
    snprintf(a, sizeof a, "%s/one.c", tmpdir);
    snprintf(b, sizeof b, "%s/two.c", tmpdir);
    ta = slurp(a);
    tb = slurp(b);
    ck_assert_str_eq(ta, tb);
    ck_assert_ptr_null(strstr(ta, tmpdir)); /* no paths in the output */
    free(ta);
    free(tb);
    /* no inputs at all: just the terminator */
    ck_assert_int_eq(0, convert("empty.c", "", NULL));
    snprintf(a, sizeof a, "%s/empty.c", tmpdir);
    ta = slurp(a);
    ck_assert_ptr_nonnull(strstr(ta, "wu_help_catalog[] = {\n    {NULL, NULL, NULL},\n};"));
    free(ta);
}
END_TEST

static const struct {
    const char *name, *content, *second, *want_msg;
} bad_inputs[] = {
    {"help-dup.txt", "[one]\ntext\n[two]\ntext\n\n[one]\nagain\n", NULL,
     "help-dup.txt:6: duplicate topic [one] (first defined at line 1)"},
    {"help-none.txt", NULL, NULL, "cannot read help file 'help-none.txt'"},
    {"help-pre.txt", "# fine\nstray text\n[t]\nx\n", NULL,
     "help-pre.txt:2: text before the first [topic]"},
    {"help-empty-topic.txt", "[t]\n\n\n[u]\nx\n", NULL,
     "help-empty-topic.txt:1: topic [t] has no text"},
    {"help-bad-name.txt", "[has space]\nx\n", NULL, "help-bad-name.txt:1: bad topic name"},
    {"help-bad-name2.txt", "[]\nx\n", NULL, "bad topic name []"},
    {"help-same.txt", "[t]\nx\n", "sub/help-same.txt", "two help files named 'help-same.txt'"},
};

START_TEST(converter_rejects)
{
    char path[400], *log, *old;

    write_file("cat.c", "previous catalog\n");
    if (NULL != bad_inputs[_i].content) {
        write_file(bad_inputs[_i].name, bad_inputs[_i].content);
    }
    if (NULL != bad_inputs[_i].second) {
        snprintf(path, sizeof path, "%s/sub", tmpdir);
        ck_assert_int_eq(0, mkdir(path, 0700));
        write_file(bad_inputs[_i].second, "[t]\ny\n");
    }
    ck_assert_int_ne(0, convert("cat.c", bad_inputs[_i].name, bad_inputs[_i].second));
    log = log_text();
    ck_assert_msg(NULL != strstr(log, bad_inputs[_i].want_msg), "message was: %s", log);
    ck_assert_int_eq(0, strncmp(log, "wu_help_to_c.pl: error: ", 24));
    free(log);
    /* the previous output is untouched and no temporary file is left behind */
    snprintf(path, sizeof path, "%s/cat.c", tmpdir);
    old = slurp(path);
    ck_assert_str_eq("previous catalog\n", old);
    free(old);
    DIR *d = opendir(tmpdir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *de = readdir(d); NULL != de; de = readdir(d)) {
        ck_assert_msg(NULL == strstr(de->d_name, ".tmp"), "left behind: %s", de->d_name);
    }
    closedir(d);
}
END_TEST

static Suite *show_help_suite(void)
{
    Suite *s = suite_create("wu_show_help");
    TCase *tc = tcase_create("catalog");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, catalog_well_formed);
    tcase_add_test(tc, lookup);
    tcase_add_test(tc, substitution_and_framing);
    tcase_add_test(tc, error_header);
    tcase_add_loop_test(tc, missing_topic_message, 0, (int)WU_NELEMS(missing));
    suite_add_tcase(s, tc);

    tc = tcase_create("print");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, show_help_prints_once);
    tcase_add_test(tc, show_help_bad_args);
    tcase_add_test(tc, aggregation_counts_and_flush);
    tcase_add_test(tc, aggregation_off);
    tcase_add_test(tc, norender);
    tcase_add_test(tc, aggregation_threads);
    suite_add_tcase(s, tc);

    tc = tcase_create("environment");
    tcase_add_checked_fixture(tc, setup_output, teardown);
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, aggregation_from_environment, 0, (int)WU_NELEMS(env_cases));
    suite_add_tcase(s, tc);

    tc = tcase_create("converter");
    tcase_add_checked_fixture(tc, make_tmpdir, remove_tmpdir);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, converter_escapes);
    tcase_add_test(tc, converter_deterministic);
    tcase_add_loop_test(tc, converter_rejects, 0, (int)WU_NELEMS(bad_inputs));
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(show_help_suite)
