#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: Gets from several threads at once (e2e_threads) while the main thread re-Puts,
# Commits and Fences, under `wrun -n 1, 2, 4` with 4 reader threads and `-n 2` with 16: every
# value read belongs to the rank asked about, none is older than one read before, and none is
# older than the last fence (no stale read after re-Put + fence). `-n 4` runs twice: once more
# with gds_shmem_segment_min=0, so that every fence's data comes as a shared segment (mapped,
# read in place and unmapped while the readers read). The CI's ThreadSanitizer build
# (contrib/test.sh) runs this test too, so a data race on the way fails it.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp
for spec in "1 4" "2 4" "4 4" "2 16" "4 4 segments"; do
    set -- $spec
    n=$1
    t=$2
    if [ -n "${3:-}" ]; then
        PMIX_MCA_gds_shmem_segment_min=0
        export PMIX_MCA_gds_shmem_segment_min
    fi
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_threads" $t 40
    unset PMIX_MCA_gds_shmem_segment_min
    good=$(e2e_count_lines "$e2e_tmp/out" "^threads: rank .* of $n: ok, [1-9][0-9]* gets, 0 stale")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: $t threads per rank Get while the main thread re-Puts and fences${3:+ (data in segments)}: no stale or wrong value"
    else
        e2e_not_ok "wrun -n $n, $t threads: (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_exit
