/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_pmi_wire.c -- the PMI-1/PMI-2 wire code (pmix/rte/svc/wu_rte_pmi_wire.c): framing of a
 * byte stream that arrives in pieces, parsing of what MPICH 4.0 and 4.2 send (escaped values,
 * the multi-line spawn, PMI-2's length prefix and subcmd segments), refusal of what is not a
 * message, and answers written as the clients read them. */
#include "opal/util/wu_error.h"
#include "pmix/rte/svc/wu_rte_pmi_wire.h"

#include "test/support/wu_test.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Parse the one message s (copied), wire as framed. */
static int parse(const char *s, bool v2, wu_pmi_msg_t *m, char **keep)
{
    wu_pmi_wire_t w;
    size_t n = strlen(s);
    ssize_t f = wu_pmi_frame(s, n, v2, &w);
    ck_assert_int_eq((ssize_t)n, f);
    *keep = strdup(s);
    return wu_pmi_parse(*keep, n, w, m);
}

START_TEST(v1_lines)
{
    wu_pmi_msg_t m;
    char *b;
    long v;
    ck_assert_int_eq(WU_SUCCESS,
                     parse("cmd=put kvsname=kvs_1 key=P0-bc value=a\\ b=c\n", false, &m, &b));
    ck_assert_str_eq("put", m.cmd);
    ck_assert_int_eq(3, m.nkv);
    ck_assert_str_eq("kvs_1", wu_pmi_find(&m, 0, "kvsname"));
    ck_assert_str_eq("a\\ b=c", wu_pmi_find(&m, 0, "value")); /* kept as it came */
    ck_assert_ptr_null(wu_pmi_find(&m, 0, "nothing"));
    wu_pmi_msg_free(&m);
    free(b);
    ck_assert_int_eq(WU_SUCCESS, parse("cmd=init pmi_version=2 pmi_subversion=0\n", false, &m, &b));
    ck_assert(wu_pmi_find_long(&m, 0, "pmi_version", 1, 2, &v) && 2 == v);
    ck_assert(!wu_pmi_find_long(&m, 0, "pmi_subversion", 1, 2, &v));
    wu_pmi_msg_free(&m);
    free(b);
}
END_TEST

START_TEST(v1_pieces)
{
    const char *s = "cmd=barrier_in\ncmd=get_maxes\n";
    wu_pmi_wire_t w;
    /* every prefix of the first line needs more; then it is exactly its line */
    for (size_t n = 0; n < 15; n++) {
        ck_assert_int_eq(0, wu_pmi_frame(s, n, false, &w));
    }
    ck_assert_int_eq(15, wu_pmi_frame(s, strlen(s), false, &w));
    ck_assert_int_eq(WU_PMI_V1, w);
    ck_assert_int_eq(-1, wu_pmi_frame("hello\n", 6, false, &w));
    ck_assert_int_eq(-1, wu_pmi_frame("cm?", 3, false, &w));
}
END_TEST

START_TEST(v1_bad)
{
    static const char *const bad[] = {"cmd=put key= value=x\n", "cmd=\n", "cmd=a cmd=b\n",
                                      "cmd=put =x\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wu_pmi_msg_t m;
        char *b;
        ck_assert_int_eq(WU_ERR_BAD_PARAM, parse(bad[i], false, &m, &b));
        ck_assert_int_eq(0, m.nkv);
        free(b);
    }
}
END_TEST

START_TEST(v1_spawn)
{
    const char *s = "mcmd=spawn\nnprocs=2\nexecname=./a\ntotspawns=2\nspawnssofar=1\narg1=x y\n"
                    "argcnt=1\nendcmd\nmcmd=spawn\nnprocs=1\nexecname=./b\ntotspawns=2\n"
                    "spawnssofar=2\nargcnt=0\nendcmd\n";
    wu_pmi_msg_t m;
    wu_pmi_wire_t w;
    char *b;
    /* the first segment alone is not the whole request */
    ck_assert_int_eq(0, wu_pmi_frame(s, strstr(s, "mcmd=spawn\nnprocs=1") - s, false, &w));
    ck_assert_int_eq(WU_SUCCESS, parse(s, false, &m, &b));
    ck_assert_str_eq("spawn", m.cmd);
    ck_assert_ptr_null(m.kv[0].key); /* the first segment starts */
    ck_assert_str_eq("x y", wu_pmi_find(&m, 0, "arg1"));
    ck_assert_str_eq("./b", wu_pmi_find(&m, 8, "execname"));
    wu_pmi_msg_free(&m);
    free(b);
    /* spawnssofar beyond totspawns: refused */
    s = "mcmd=spawn\ntotspawns=1\nspawnssofar=2\nendcmd\n";
    ck_assert_int_eq(-1, wu_pmi_frame(s, strlen(s), false, &w));
}
END_TEST

START_TEST(v2_messages)
{
    const char *s = "62    cmd=spawn;ncmds=2;subcmd=./a;maxprocs=1;subcmd=./b;maxprocs=2;";
    wu_pmi_msg_t m;
    wu_pmi_wire_t w;
    char *b;
    ck_assert_int_eq(WU_SUCCESS, parse("    28cmd=kvs-put;key=k;value=a b;", true, &m, &b));
    ck_assert_str_eq("kvs-put", m.cmd);
    ck_assert_str_eq("a b", wu_pmi_find(&m, 0, "value"));
    wu_pmi_msg_free(&m);
    free(b);
    ck_assert_int_eq(WU_SUCCESS, parse(s, true, &m, &b));
    ck_assert_int_eq(7, m.nkv); /* ncmds, then two segments: a mark, two attributes each */
    ck_assert_ptr_null(m.kv[1].key);
    ck_assert_ptr_null(m.kv[4].key);
    ck_assert_str_eq("./b", m.kv[5].val);
    wu_pmi_msg_free(&m);
    free(b);
    ck_assert_int_eq(0, wu_pmi_frame("28    cmd=kvs", 13, true, &w));
    ck_assert_int_eq(-1, wu_pmi_frame("2x    cmd=", 10, true, &w));
    ck_assert_int_eq(-1, wu_pmi_frame("999999cmd=", 10, true, &w)); /* past the limit */
    ck_assert_int_eq(-1, wu_pmi_frame("2 6   cmd=", 10, true, &w));
    /* an empty value (MPI_Comm_spawn's argv may hold ""), but not an empty command */
    ck_assert_int_eq(WU_SUCCESS,
                     parse("    39cmd=spawn;subcmd=./a;maxprocs=1;argv0=;", true, &m, &b));
    ck_assert_str_eq("", wu_pmi_find(&m, 0, "argv0"));
    wu_pmi_msg_free(&m);
    free(b);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, parse("    11cmd=;key=k;", true, &m, &b));
    free(b);
    b = strdup("14    cmd=kvs-fence");
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_pmi_parse(b, strlen(b), WU_PMI_V2, &m)); /* no ';' */
    free(b);
}
END_TEST

START_TEST(answers)
{
    wu_pmi_out_t o;
    wu_pmi_wire_t w;
    wu_pmi_out_begin(&o, WU_PMI_V1, "get_result");
    wu_pmi_out_add(&o, "rc", "0");
    wu_pmi_out_addl(&o, "n", -3);
    ck_assert_int_eq(WU_SUCCESS, wu_pmi_out_end(&o));
    ck_assert_str_eq("cmd=get_result rc=0 n=-3\n", o.buf);
    wu_pmi_out_free(&o);
    wu_pmi_out_begin(&o, WU_PMI_V2, "kvs-get-response");
    wu_pmi_out_add(&o, "found", "TRUE");
    ck_assert_int_eq(WU_SUCCESS, wu_pmi_out_end(&o));
    ck_assert_str_eq("32    cmd=kvs-get-response;found=TRUE;", o.buf);
    ck_assert_int_eq((ssize_t)o.len, wu_pmi_frame(o.buf, o.len, true, &w));
    wu_pmi_out_free(&o);
}
END_TEST

static Suite *pmi_wire_suite(void)
{
    Suite *s = suite_create("pmi_wire");
    TCase *tc = tcase_create("wire");
    tcase_add_test(tc, v1_lines);
    tcase_add_test(tc, v1_pieces);
    tcase_add_test(tc, v1_bad);
    tcase_add_test(tc, v1_spawn);
    tcase_add_test(tc, v2_messages);
    tcase_add_test(tc, answers);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(pmi_wire_suite)
