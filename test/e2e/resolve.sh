#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Resolve_peers / PMIx_Resolve_nodes under `wrun -n 1, 3` for own host, NULL
# node, unknown host, unknown and NULL namespace (test/e2e/e2e_resolve.c; the cases a host
# without node or peer data produces are in the server's unit tests).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 2
e2e_mktemp
for n in 1 3; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_resolve"
    good=$(e2e_count_lines "$e2e_tmp/out" "^resolve rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: Resolve_peers and Resolve_nodes"
    else
        e2e_not_ok "wrun -n $n: resolve (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_exit
