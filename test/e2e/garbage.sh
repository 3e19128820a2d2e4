#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: junk written to the server's socket (random bytes, a 4 GiB frame header, a bogus
# first command, a wrong magic, a truncated frame, a silent connection) does not disturb the
# job: every rank still fences and gets (test/e2e/e2e_garbage.c), under `wrun -n 2, 4`.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 2
e2e_mktemp
for n in 2 4; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_garbage"
    good=$(e2e_count_lines "$e2e_tmp/out" "^garbage rank .* of $n: ok")
    if grep -q 'is not usock: skipped' "$e2e_tmp/out"; then
        e2e_skip "wrun -n $n: the server does not listen on usock"
    elif [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: server survives junk, the other clients unaffected"
    else
        e2e_not_ok "wrun -n $n: garbage (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_exit
