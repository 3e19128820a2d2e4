#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the last rank exits with status 3 without PMIx_Finalize while the others wait in a
# fence: the fence fails for them (or the launcher ends them first), wrun exits 3 (the first
# failing process's status), nothing hangs and no rank survives (test/e2e/e2e_fail.c die).
# A rank that finalizes and exits 0 instead of joining fails the others' fence at once (leave);
# a fence whose PMIX_TIMEOUT runs out fails, and the next fence of the same ranks succeeds (late).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 8
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
mkdir "$e2e_tmp/leave" || exit 1
e2e_wrun "$e2e_tmp/out" 3 "$e2e/e2e_fail" leave "$e2e_tmp/leave"
n=$(e2e_count_lines "$e2e_tmp/out" "fence failed as expected: PROC TERMINATED WITHOUT SYNC")
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 2 ]; then
    e2e_ok "wrun -n 3: rank 2 finalizes instead of joining: the fence fails for the others"
else
    e2e_not_ok "wrun -n 3 e2e_fail leave: exit $e2e_rc, $n of 2 saw the fence fail"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 3 "$e2e/e2e_fail" late "$e2e_tmp/leave"
n=$(e2e_count_lines "$e2e_tmp/out" "first fence timed out as expected")
n2=$(e2e_count_lines "$e2e_tmp/out" "second fence succeeded")
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 2 ] && [ "$n2" -eq 3 ]; then
    e2e_ok "wrun -n 3: a fence times out (PMIX_TIMEOUT 2 s), the next one of the same ranks succeeds"
else
    e2e_not_ok "wrun -n 3 e2e_fail late: exit $e2e_rc, $n timed out, $n2 second fences"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
