#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: contrib/bench/wu_bench runs under `wrun -n 4` with tiny iteration counts and prints
# exactly one well-formed `metric=<name> n=<N> value=<x> unit=us` line per metric; and
# contrib/bench/keys with a few keys per rank under wrun alone exits 0 with a measured value in
# each of its metric lines. Only the format is checked, never the timings.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 4
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

# 3: the many-keys benchmark, tiny: 2 processes, K = 10 and 50, wrun only
TMPDIR="$e2e_tmp/t" timeout 300 "$s/contrib/bench/keys" -b "$b" -n 2 -k "10 50" -t 120 -L wrun \
    >"$e2e_tmp/keys" 2>"$e2e_tmp/keys.err"
rc=$?
e2e_check_leaks "contrib/bench/keys"
if [ "$rc" -eq 0 ]; then
    e2e_ok "keys -n 2 -k \"10 50\" -L wrun exits 0"
else
    e2e_not_ok "keys -n 2 -k \"10 50\" -L wrun: exit $rc"
    e2e_diag "$e2e_tmp/keys.err"
fi

# 4: its lines: K = 0 (total, peak), K = 10 and 50 (4 phases, total, peak, MB per 1000 keys),
# one linearity line; every value measured
form='^metric=keys_wrun_(put|commit|fence|get|total|peak|mb_per_1000_keys|linearity) '
form="${form}n=(0|10|50) value=-?[0-9]+\.[0-9]+ unit=(us|s|MB|ratio)\$"
total=$(wc -l <"$e2e_tmp/keys")
good=$(grep -cE "$form" "$e2e_tmp/keys")
if [ "$total" -eq 17 ] && [ "$good" -eq 17 ]; then
    e2e_ok "keys: 17 well-formed metric lines with values"
else
    e2e_not_ok "keys: $good of $total lines well-formed, 17 expected"
    e2e_diag "$e2e_tmp/keys"
    e2e_diag "$e2e_tmp/keys.err"
fi
e2e_exit
