#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the PMIx_Get rules of RFC0009 (job-level data under WILDCARD only, proc-level data
# under the rank only, the reserved "pmix" key prefix) and PMIX_OPTIONAL / PMIX_IMMEDIATE /
# PMIX_TIMEOUT, under `wrun -n 1, 2, 4` (test/e2e/e2e_rfc0009.c).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 3
e2e_mktemp
for n in 1 2 4; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_rfc0009"
    good=$(e2e_count_lines "$e2e_tmp/out" "^rfc0009 rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: RFC0009 rules and Get directives"
    else
        e2e_not_ok "wrun -n $n: RFC0009 rules (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_exit
