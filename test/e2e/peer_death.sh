#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the last rank exits with status 3 without PMIx_Finalize while the others wait in a
# fence: the fence fails for them (or the launcher ends them first), wrun exits 3 (the first
# failing process's status), nothing hangs and no rank survives (test/e2e/e2e_fail.c die).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
for n in 2 4; do
    mkdir "$e2e_tmp/run$n" || exit 1
    start=$(date +%s)
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_fail" die "$e2e_tmp/run$n"
    took=$(($(date +%s) - start))
    if [ "$e2e_rc" -eq 3 ] && [ $took -lt 50 ]; then
        e2e_ok "wrun -n $n: a rank dies in a fence -> wrun exits 3 (${took} s)"
    else
        e2e_not_ok "wrun -n $n: a rank dies in a fence -> wrun exit $e2e_rc after ${took} s," \
            "expected 3"
        e2e_diag "$e2e_tmp/out"
    fi
    if grep -q 'the fence succeeded' "$e2e_tmp/out"; then
        e2e_not_ok "wrun -n $n: a fence succeeded without the dead rank"
        e2e_diag "$e2e_tmp/out"
    else
        failed=$(e2e_count_lines "$e2e_tmp/out" 'fence failed as expected')
        e2e_ok "wrun -n $n: no fence succeeded without the dead rank" \
            "($failed of $((n - 1)) saw it fail before the job ended)"
    fi
    sleep 1
    if e2e_pids_gone "$e2e_tmp/run$n" && [ "$(ls "$e2e_tmp/run$n" | wc -l)" -eq $n ]; then
        e2e_ok "wrun -n $n: no rank survives"
    else
        e2e_not_ok "wrun -n $n: ranks left after the job (or not all started)"
    fi
done
e2e_exit
