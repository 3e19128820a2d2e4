#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Get_credential and PMIx_Validate_credential under wrun (issue 14): credentials
# of psec native name their process and validate at any rank of the job; altered, truncated and
# made-up ones are refused; PMIX_CRED_TYPE is honoured; a singleton has no server to ask.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 3
e2e_mktemp
p="$e2e/e2e_cred"

for n in 1 3; do
    e2e_wrun "$e2e_tmp/out" $n "$p" job
    good=$(e2e_count_lines "$e2e_tmp/out" "^cred job: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: credentials issued, validated at another rank, forgeries refused"
    else
        e2e_not_ok "wrun -n $n: credentials (wrun exit $e2e_rc, $good ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

TMPDIR="$e2e_tmp/t" timeout 60 "$p" alone >"$e2e_tmp/out" 2>&1
e2e_rc=$?
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^cred alone: rank 0 ok")" -eq 1 ]; then
    e2e_ok "a singleton: PMIX_ERR_UNREACH"
else
    e2e_not_ok "a singleton's credentials: exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
