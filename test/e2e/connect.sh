#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Connect / PMIx_Disconnect under wrun (issue 14): within one job of 2 and 3
# ranks; between two separate wrun jobs of 2 ranks each (the other job's data are known after
# the connect, a fence over both jobs completes, they disconnect); a connect with a namespace
# nobody runs times out. Nothing is left in TMPDIR.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 4
e2e_mktemp
p="$e2e/e2e_connect"

for n in 2 3; do
    e2e_wrun "$e2e_tmp/out" $n "$p" within
    good=$(e2e_count_lines "$e2e_tmp/out" "^connect within: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: connects and disconnects within the job"
    else
        e2e_not_ok "wrun -n $n: within the job (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

e2e_meet "$p" meet \
    "two separate wrun jobs connect, read each other's data, fence together, disconnect"

e2e_wrun "$e2e_tmp/out" 1 "$p" lonely
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^connect lonely: rank 0 ok")" -eq 1 ]; then
    e2e_ok "a connect with a namespace nobody runs ends with PMIX_ERR_TIMEOUT"
else
    e2e_not_ok "a connect with nobody: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
