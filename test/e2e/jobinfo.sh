#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: under `wrun -n N` (N = 1, 2, 3, 4, 8) every rank checks its identity, reference-
# counted Init/Finalize and every job key of the Open MPI contract with exact type and value
# (test/e2e/e2e_jobinfo.c).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp
for n in 1 2 3 4 8; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_jobinfo" $n
    good=$(e2e_count_lines "$e2e_tmp/out" "^jobinfo rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: identity, Init/Finalize refcount, job info of $n ranks"
    else
        e2e_not_ok "wrun -n $n: job info (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_exit
