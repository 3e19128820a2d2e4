#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: Open MPI-style help messages sent with PMIx_Log_nb reach the user's stderr once, with
# a count of the other ranks that sent the same one (test/e2e/e2e_log.c), and the callback
# comes back with success.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 3
e2e_mktemp
e2e_wrun "$e2e_tmp/out" 4 "$e2e/e2e_log"
e2e_expect_ok "4 ranks log the same help message; their callbacks succeed" "$e2e_tmp/out"
if [ "$(grep -c '^e2e: the thing you asked for does not exist.$' "$e2e_tmp/out")" -eq 1 ]; then
    e2e_ok "the message is printed once"
else
    e2e_not_ok "the message is not printed exactly once:"
    e2e_diag "$e2e_tmp/out"
fi
if grep -q '^wrun: 3 more processes sent help message help-e2e-test.txt / no-such-thing$' \
    "$e2e_tmp/out"; then
    e2e_ok "the end of the job counts the 3 other senders"
else
    e2e_not_ok "no count of the other senders:"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
