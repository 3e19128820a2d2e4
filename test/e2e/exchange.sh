#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: Put/Commit/Fence/Get under `wrun -n 1, 2, 4, 8`, fence with PMIX_COLLECT_DATA,
# without, and no fence at all (direct modex: a Get waits for a peer that commits late);
# values include blobs of 1 B, 1 KiB, 64 KiB and 1 MiB checked byte for byte. Also a fence with
# PMIX_TIMEOUT that one rank never joins, followed by a fence of all ranks (`-n 2, 4`),
# 20000 keys per rank, half of them put twice, collected and read back (`-n 2`), and 300 rounds
# of re-Put of one 64 KiB key + collecting fence + Get of the peer's (`-n 4`): never a stale
# value, and the ranks' and wrun's resident memory stay bounded; and 2000 commits of a 64 KiB
# key without a fence (`-n 4`): the last one arrives and the ranks' memory stays bounded (memory
# not checked in a sanitizer build, whose allocator keeps freed memory on purpose).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 17
e2e_mktemp
for mode in collect nocollect direct; do
    for n in 1 2 4 8; do
        e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_exchange" $mode
        good=$(e2e_count_lines "$e2e_tmp/out" "^exchange $mode: rank .* of $n: ok")
        if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
            e2e_ok "wrun -n $n: exchange ($mode), every rank read every rank's values"
        else
            e2e_not_ok "wrun -n $n: exchange ($mode) (wrun exit $e2e_rc, $good of $n ranks ok)"
            e2e_diag "$e2e_tmp/out"
        fi
    done
done
for n in 2 4; do
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_exchange" fencetimeout
    good=$(e2e_count_lines "$e2e_tmp/out" "^exchange fencetimeout: rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: fence with PMIX_TIMEOUT times out without a rank, the next one works"
    else
        e2e_not_ok "wrun -n $n: fence timeout (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
if e2e_sanitized; then
    E2E_NO_MEMORY=1
    export E2E_NO_MEMORY
fi
# memory_run MODE ROUNDS WHAT: `wrun -n 4 e2e_exchange MODE ROUNDS`, each rank ok; WHAT says
# what passed. Rank 0's note (MODE: ... RSS ...) goes to the log.
memory_run() {
    e2e_wrun "$e2e_tmp/out" 4 "$e2e/e2e_exchange" "$1" "$2"
    good=$(e2e_count_lines "$e2e_tmp/out" "^exchange $1: rank .* of 4: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 4 ]; then
        e2e_ok "wrun -n 4: $3"
        sed -n "s/.*\($1: [0-9]* rounds.*\)/# \1/p" "$e2e_tmp/out" | head -1
    else
        e2e_not_ok "wrun -n 4: $1 $2 (wrun exit $e2e_rc, $good of 4 ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
}
memory_run reput 300 "300 rounds of re-Put + fence + Get of a 64 KiB key: no stale value, memory bounded"
memory_run commits 2000 "2000 commits of a 64 KiB key without a fence: the last arrives, memory bounded"
unset E2E_NO_MEMORY
e2e_wrun "$e2e_tmp/out" 2 "$e2e/e2e_exchange" manykeys 20000
good=$(e2e_count_lines "$e2e_tmp/out" "^exchange manykeys: rank .* of 2: ok")
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 2 ]; then
    e2e_ok "wrun -n 2: 20000 keys per rank, half put twice, the peer reads the last values"
else
    e2e_not_ok "wrun -n 2: many keys (wrun exit $e2e_rc, $good of 2 ranks ok)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
