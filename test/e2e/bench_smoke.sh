#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: contrib/bench/wu_bench runs under `wrun -n 4` with tiny iteration counts and prints
# exactly one well-formed `metric=<name> n=<N> value=<x> unit=<unit>` line per metric, with no
# stale read; contrib/bench/keys with a few keys per rank under wrun alone exits 0 with a
# measured value in each of its metric lines; contrib/bench/pmix, tiny, prints one line per
# metric with wrun's median (and mpirun's when Open MPI and OpenPMIx are installed). Only the
# format is checked, never the timings.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp
e2e_wrun "$e2e_tmp/out" 4 "$b/contrib/bench/wu_bench" -i 20 -f 3
e2e_expect_ok "wrun -n 4 wu_bench -i 20 -f 3" "$e2e_tmp/out"
bad=0
metrics="mem_client_private_dirty:kB mem_server_rss:kB get_job_level:us get_own_proc_level:us
    get_peer_key:us put_commit:us fence_collect_0B:us fence_collect_1KiB:us
    fence_collect_64KiB:us reput_fence_get:us stale_reads:count"
for mu in $metrics; do
    m=${mu%:*}
    c=$(grep -cE "^metric=$m n=[0-9]+ value=[0-9]+(\.[0-9]+)? unit=${mu#*:}$" "$e2e_tmp/out")
    if [ "$c" -ne 1 ]; then
        echo "# metric $m: $c well-formed lines, expected 1"
        bad=1
    fi
done
if [ $bad -eq 0 ] && [ "$(grep -c '^metric=' "$e2e_tmp/out")" -eq 11 ] &&
    grep -qE '^metric=stale_reads n=12 value=0 unit=count$' "$e2e_tmp/out"; then
    e2e_ok "one well-formed line for each of the 11 metrics, and no stale read"
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

# 5: wu_bench under wrun and mpirun side by side, tiny: one line per metric with wrun's median
TMPDIR="$e2e_tmp/t" timeout 300 "$s/contrib/bench/pmix" -b "$b" -n 2 -r 1 -i 50 -f 3 \
    >"$e2e_tmp/pmix" 2>"$e2e_tmp/pmix.err"
rc=$?
e2e_check_leaks "contrib/bench/pmix"
form='^metric=[a-zA-Z0-9_]+ n=2 wrun=[0-9.]+ mpirun=([0-9.e+-]+|-) ratio=([0-9.e+-]+|-)'
form="$form"' wrun_openpmix=([0-9.e+-]+|-) ratio_openpmix=([0-9.e+-]+|-) unit=(us|kB|count)$'
good=$(grep -cE "$form" "$e2e_tmp/pmix")
if [ "$rc" -eq 0 ] && [ "$good" -eq 11 ] && [ "$(wc -l <"$e2e_tmp/pmix")" -eq 11 ] &&
    grep -q '^metric=stale_reads n=2 wrun=0 ' "$e2e_tmp/pmix"; then
    # (OpenPMIx's client caches a peer's values across fences, under mpirun too: its stale
    # reads are its own)
    e2e_ok "contrib/bench/pmix -n 2 -r 1: 11 well-formed lines, wrun's stale reads 0"
else
    e2e_not_ok "contrib/bench/pmix: exit $rc, $good well-formed lines of 11"
    e2e_diag "$e2e_tmp/pmix"
    e2e_diag "$e2e_tmp/pmix.err"
fi
e2e_exit
