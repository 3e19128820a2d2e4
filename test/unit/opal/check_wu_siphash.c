/* SPDX-License-Identifier: BSD-3-Clause */
/* check_wu_siphash.c -- SipHash-2-4 against the reference vectors of its paper (key 00..0f,
 * messages 00, 01, ... of every length up to 15 bytes: the first and the last published), and
 * that a key or message bit flipped changes the result. */
#include "opal/util/wu_siphash.h"

#include <check.h>
#include <stdlib.h>

static unsigned char key[16], msg[64];

static void setup(void)
{
    for (int i = 0; i < 16; i++) {
        key[i] = (unsigned char)i;
    }
    for (int i = 0; i < 64; i++) {
        msg[i] = (unsigned char)i;
    }
}

START_TEST(vectors)
{
    setup();
    ck_assert_uint_eq(wu_siphash24(key, msg, 0), 0x726fdb47dd0e0e31ULL);
    ck_assert_uint_eq(wu_siphash24(key, msg, 1), 0x74f839c593dc67fdULL);
    ck_assert_uint_eq(wu_siphash24(key, msg, 15), 0xa129ca6149be45e5ULL);
}
END_TEST

START_TEST(sensitive)
{
    uint64_t base;
    setup();
    base = wu_siphash24(key, msg, 40);
    msg[17] ^= 0x10;
    ck_assert_uint_ne(wu_siphash24(key, msg, 40), base);
    msg[17] ^= 0x10;
    key[9] ^= 0x01;
    ck_assert_uint_ne(wu_siphash24(key, msg, 40), base);
    key[9] ^= 0x01;
    ck_assert_uint_eq(wu_siphash24(key, msg, 40), base);
    ck_assert_uint_ne(wu_siphash24(key, msg, 41), base); /* the length counts */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wu_siphash");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, vectors);
    tcase_add_test(tc, sensitive);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}
