#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: many small keys per rank (`wrun -n 4`): each rank Puts 100000 keys (20000 in a
# sanitizer build), half of them twice, commits, fences with collect and reads back all of the
# next rank's keys; and the launcher's memory grows in proportion to the keys it holds: its
# peak is measured at a tenth of the keys and at all of them, and the difference per key must
# stay under 640 bytes: the server keeps each key of a GLOBAL put for local and remote peers
# (about 420 bytes with the hash data store), and the default gds/shmem also lays a fence's
# data out once in the segment its clients map instead of copying it (about 90 bytes more);
# the small run's peak is sampled with some MiB of noise (+-15 bytes per key). A doubling fails.
# Time is not asserted here: contrib/bench/keys measures it.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 3
e2e_mktemp
keys=100000
e2e_sanitized && keys=20000
small=$((keys / 10))

e2e_wrun_hwm "$e2e_tmp/out" 4 "$e2e/e2e_exchange" manykeys $small
hwm_small=$e2e_hwm_kb
good=$(e2e_count_lines "$e2e_tmp/out" "^exchange manykeys: rank .* of 4: ok")
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 4 ]; then
    e2e_ok "wrun -n 4: $small keys per rank read back by the next rank"
else
    e2e_not_ok "wrun -n 4: $small keys per rank (wrun exit $e2e_rc, $good of 4 ranks ok)"
    e2e_diag "$e2e_tmp/out"
fi

e2e_wrun_hwm "$e2e_tmp/out" 4 "$e2e/e2e_exchange" manykeys $keys
hwm_big=$e2e_hwm_kb
good=$(e2e_count_lines "$e2e_tmp/out" "^exchange manykeys: rank .* of 4: ok")
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 4 ]; then
    e2e_ok "wrun -n 4: $keys keys per rank, half put twice, the next rank reads the last values"
else
    e2e_not_ok "wrun -n 4: $keys keys per rank (wrun exit $e2e_rc, $good of 4 ranks ok)"
    e2e_diag "$e2e_tmp/out"
fi

if e2e_sanitized; then
    e2e_skip "memory per key (a sanitizer build's allocator is not what is measured)"
elif [ "$hwm_small" -le 0 ] || [ "$hwm_big" -le 0 ]; then
    e2e_not_ok "memory per key: wrun's peak memory could not be read ($hwm_small kB, $hwm_big kB)"
else
    per_key=$(((hwm_big - hwm_small) * 1024 / ((keys - small) * 4)))
    if [ "$per_key" -lt 640 ]; then
        e2e_ok "wrun's peak grows by $per_key bytes per key ($hwm_small kB -> $hwm_big kB)"
    else
        e2e_not_ok "wrun's peak grows by $per_key bytes per key, 640 at most ($hwm_small kB -> $hwm_big kB)"
    fi
fi
e2e_exit
