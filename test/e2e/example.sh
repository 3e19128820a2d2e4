#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the README's run command, `wrun -n 4 contrib/examples/exchange`, prints one line
# per rank saying it got every peer's value, and rank 0's summary.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 1
e2e_mktemp
e2e_wrun "$e2e_tmp/out" 4 "$b/contrib/examples/exchange"
good=$(e2e_count_lines "$e2e_tmp/out" '^rank [0-3] of 4: got .* from every peer$')
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 4 ] && grep -q '^summary: 4 ranks' "$e2e_tmp/out"; then
    e2e_ok "wrun -n 4 contrib/examples/exchange: 4 ranks exchanged data"
else
    e2e_not_ok "example (wrun exit $e2e_rc, $good of 4 rank lines)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
