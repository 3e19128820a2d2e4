/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_escape.c -- tests of wu_str_escape: every byte class, the flags, the input bound,
 * cuts at character boundaries with "...", tiny output buffers, and the malloc'd variant. */
#include "opal/util/wu_escape.h"
#include "opal/util/wu_macros.h"
#include "test/support/wu_test.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *in;
    size_t max;
    unsigned flags;
    const char *want;
} cases[] = {
    {"wireup-1", 64, 0, "wireup-1"},
    {"", 64, 0, ""},
    {"a\\b", 64, 0, "a\\\\b"},
    {"\033[2J\njob completed successfully\n", 64, 0, "\\x1b[2J\\njob completed successfully\\n"},
    {"t\tr\rdel\177", 64, 0, "t\\tr\\rdel\\x7f"},
    {"\x9b\xff", 64, 0, "\\x9b\\xff"},
    {"caf\xc3\xa9", 64, 0, "caf\\xc3\\xa9"},
    /* UTF-8 kept when asked, but not C1 controls, bidi overrides, or malformed bytes */
    {"caf\xc3\xa9", 64, WU_ESC_KEEP_UTF8, "caf\xc3\xa9"},
    {"\xc2\x9b"
     "1m",
     64, WU_ESC_KEEP_UTF8, "\\xc2\\x9b1m"},
    {"\xe2\x80\xae"
     "x",
     64, WU_ESC_KEEP_UTF8, "\\xe2\\x80\\xaex"},
    {"\xc0\xaf", 64, WU_ESC_KEEP_UTF8, "\\xc0\\xaf"},
    {"\xe2\x82", 64, WU_ESC_KEEP_UTF8, "\\xe2\\x82"},
    /* newline and tab kept when asked; other controls still escaped */
    {"line 1\n\tline 2\033]0;t\a", 64, WU_ESC_KEEP_NL, "line 1\n\tline 2\\x1b]0;t\\x07"},
    {"a\rb", 64, WU_ESC_KEEP_NL, "a\\rb"},
    /* the input bound */
    {"abcdef", 3, 0, "abc..."},
    {"abc", 3, 0, "abc"},
    {"ab\033", 3, 0, "ab\\x1b"},
    {"abcd", 0, 0, "..."},
};

START_TEST(escape_table)
{
    char out[256];
    char *dup;

    ck_assert_ptr_eq(out,
                     wu_str_escape(cases[_i].in, cases[_i].max, out, sizeof out, cases[_i].flags));
    ck_assert_str_eq(cases[_i].want, out);
    dup = wu_str_escape_dup(cases[_i].in, cases[_i].max, cases[_i].flags);
    ck_assert_ptr_nonnull(dup);
    ck_assert_str_eq(cases[_i].want, dup);
    free(dup);
}
END_TEST

/* A rendering that does not fit is cut between characters, and "..." marks the cut. */
START_TEST(escape_cut_to_buffer)
{
    char out[12];
    memset(out, 'Z', sizeof out);
    wu_str_escape("abcdefghijklmnop", 64, out, sizeof out, 0);
    ck_assert_str_eq("abcdefgh...", out);
    /* exactly fits: no ellipsis */
    wu_str_escape("abcdefghijk", 64, out, sizeof out, 0);
    ck_assert_str_eq("abcdefghijk", out);
    /* never half an escape */
    wu_str_escape("abcdef\033xyz", 64, out, sizeof out, 0);
    ck_assert_str_eq("abcdef...", out);
    /* never half a UTF-8 sequence */
    wu_str_escape("abcdef\xc3\xa9\xc3\xa9xyz", 64, out, sizeof out, WU_ESC_KEEP_UTF8);
    ck_assert_str_eq("abcdef\xc3\xa9...", out);
    wu_str_escape("abcdefg\xc3\xa9\xc3\xa9xyz", 64, out, sizeof out, WU_ESC_KEEP_UTF8);
    ck_assert_str_eq("abcdefg...", out);
}
END_TEST

START_TEST(escape_tiny_buffers)
{
    char out[4] = "QQQ";
    ck_assert_ptr_eq(out, wu_str_escape("x", 64, out, 0, 0));
    ck_assert_str_eq("QQQ", out); /* outlen 0: untouched */
    wu_str_escape("x", 64, out, 1, 0);
    ck_assert_str_eq("", out);
    wu_str_escape("xyz", 64, out, 3, 0);
    ck_assert_str_eq("..", out);
    wu_str_escape("xy", 64, out, 3, 0);
    ck_assert_str_eq("xy", out);
    wu_str_escape("\033", 64, out, 4, 0);
    ck_assert_str_eq("...", out);
    ck_assert_ptr_null(wu_str_escape(NULL, 64, NULL, 10, 0));
}
END_TEST

START_TEST(escape_null_and_no_control_byte_survives)
{
    char out[2048], in[256];
    char *dup;

    wu_str_escape(NULL, 64, out, sizeof out, 0);
    ck_assert_str_eq("(null)", out);
    dup = wu_str_escape_dup(NULL, 64, 0);
    ck_assert_str_eq("(null)", dup);
    free(dup);
    /* every byte value: the result is printable ASCII only */
    for (int i = 0; i < 255; i++) {
        in[i] = (char)(i + 1);
    }
    in[255] = '\0';
    wu_str_escape(in, sizeof in, out, sizeof out, 0);
    for (const char *p = out; '\0' != *p; p++) {
        ck_assert_msg(*p >= 0x20 && *p < 0x7f, "byte 0x%02x in the output", (unsigned char)*p);
    }
    /* 94 printable as is, '\\' doubled, \t \n \r as two characters, 157 others as \xHH */
    ck_assert_uint_eq(strlen(out), 94 + 2 + 3 * 2 + 157 * 4);
}
END_TEST

static Suite *escape_suite(void)
{
    Suite *s = suite_create("wu_escape");
    TCase *tc = tcase_create("escape");
    tcase_set_timeout(tc, 10);
    tcase_add_loop_test(tc, escape_table, 0, WU_NELEMS(cases));
    tcase_add_test(tc, escape_cut_to_buffer);
    tcase_add_test(tc, escape_tiny_buffers);
    tcase_add_test(tc, escape_null_and_no_control_byte_survives);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(escape_suite)
