#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: contrib/bench/wu_bench runs under `wrun -n 4` with tiny iteration counts and prints
# exactly one well-formed `metric=<name> n=<N> value=<x> unit=us` line per metric. Only the
# format is checked, never the timings.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 2
e2e_mktemp
e2e_wrun "$e2e_tmp/out" 4 "$b/contrib/bench/wu_bench" -i 20 -f 3
e2e_expect_ok "wrun -n 4 wu_bench -i 20 -f 3" "$e2e_tmp/out"
bad=0
for m in get_job_level get_own_proc_level get_peer_key put_commit fence_collect_0B \
    fence_collect_1KiB fence_collect_64KiB; do
    c=$(grep -cE "^metric=$m n=[0-9]+ value=[0-9]+(\.[0-9]+)? unit=us$" "$e2e_tmp/out")
    if [ "$c" -ne 1 ]; then
        echo "# metric $m: $c well-formed lines, expected 1"
        bad=1
    fi
done
if [ $bad -eq 0 ] && [ "$(grep -c '^metric=' "$e2e_tmp/out")" -eq 7 ]; then
    e2e_ok "one well-formed line for each of the 7 metrics"
else
    e2e_not_ok "metric lines malformed or missing"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
