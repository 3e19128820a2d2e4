#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the last rank calls PMIx_Abort(7) while the others wait in a fence: wrun exits with
# status 7, promptly, and no rank survives (test/e2e/e2e_fail.c abort).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
for n in 1 2 4; do
    mkdir "$e2e_tmp/run$n" || exit 1
    start=$(date +%s)
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_fail" abort "$e2e_tmp/run$n"
    took=$(($(date +%s) - start))
    if [ "$e2e_rc" -eq 7 ] && [ $took -lt 50 ]; then
        e2e_ok "wrun -n $n: PMIx_Abort(7) -> wrun exits 7 (${took} s)"
    else
        e2e_not_ok "wrun -n $n: PMIx_Abort(7) -> wrun exit $e2e_rc after ${took} s, expected 7"
        e2e_diag "$e2e_tmp/out"
    fi
    sleep 1
    if e2e_pids_gone "$e2e_tmp/run$n" && [ "$(ls "$e2e_tmp/run$n" | wc -l)" -eq $n ]; then
        e2e_ok "wrun -n $n: no rank survives the abort"
    else
        started=$(ls "$e2e_tmp/run$n" | wc -l)
        e2e_not_ok "wrun -n $n: ranks left after the abort (or not all started: $started of $n)"
    fi
done
e2e_exit
