#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: Put scopes on one node. PMIX_LOCAL and PMIX_GLOBAL data are visible to the peers
# on the node; PMIX_REMOTE data ("intended solely for processes on remote nodes", PMIx
# Standard) is not: a Get of it, with or without PMIX_OPTIONAL, returns PMIX_ERR_NOT_FOUND at
# once. A key a peer has not committed is waited for, until PMIX_TIMEOUT, and, when the peer has
# committed other keys already, until the server's grace ends (mode modex); a key a peer puts
# and commits after the last fence is found by a Get that comes first (mode late, as OpenPMIx's
# doubleget).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 7
e2e_mktemp
for n in 2 4 8; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_exchange" scopes
    good=$(e2e_count_lines "$e2e_tmp/out" "^exchange scopes: rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: LOCAL and GLOBAL seen by local peers, REMOTE not"
    else
        e2e_not_ok "wrun -n $n: scopes (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
for n in 2 3; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_exchange" modex
    good=$(e2e_count_lines "$e2e_tmp/out" "^exchange modex: rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: missing keys waited for (PMIX_TIMEOUT, or the grace), REMOTE ones not"
    else
        e2e_not_ok "wrun -n $n: modex wait rules (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
for n in 2 4; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_exchange" late 5
    good=$(e2e_count_lines "$e2e_tmp/out" "^exchange late: rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: 5 rounds of put + commit without a fence, each peer's key found"
    else
        e2e_not_ok "wrun -n $n: keys put after the last fence (wrun exit $e2e_rc, $good of $n ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_exit
