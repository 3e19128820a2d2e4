#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: large values (test/e2e/e2e_big.c) at `wrun -n 4`.
#  - 16 and 64 MiB per rank through a collecting fence and through direct modex Gets, every
#    byte checked; wrun's peak memory (VmHWM: wrun hosts the PMIx server) stays below
#    3 x the collected payload + 64 MiB;
#  - above ptl_base_max_msg_size (set to 1 MiB here), a commit and a fence result fail with
#    PMIX_ERR_OUT_OF_RESOURCE and a message naming the limit and its parameter, the peers that
#    wait for the data that could not be committed get that error, and the job ends by itself;
#    with gds shmem (the default) a fence's result is a shared segment, not a message, and the
#    same fence succeeds.
# The large runs use the limit of the environment (PMIX_MCA_ptl_base_max_msg_size, else the
# default). In a sanitizer build the 64 MiB runs are skipped (minutes under ASan) and so is the
# memory bound (ASan's quarantine keeps freed memory resident).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 11
e2e_mktemp
san=
if readelf -d "$b/.libs/libpmix.so.2" 2>/dev/null | grep -q 'NEEDED.*san\.so'; then
    san=yes
fi
np=4

# big MODE MIB: one large run, its verdict and (not under a sanitizer) the memory bound
big() {
    what="wrun -n $np: $2 MiB per rank, $1"
    if [ -n "$san" ] && [ "$2" -gt 16 ]; then
        e2e_skip "$what (sanitizer build)"
        e2e_skip "$what: server memory (sanitizer build)"
        return
    fi
    e2e_wrun "$e2e_tmp/out" $np --timeout 110 "$e2e/e2e_big" "$1" $(($2 * 1024))
    e2e_expect_ok "$what: every rank got every value intact" "$e2e_tmp/out"
    hwm=$(sed -n 's/^.*wrun VmHWM KB: \([0-9]*\).*$/\1/p' "$e2e_tmp/out" | head -1)
    bound=$((3 * np * $2 * 1024 + 65536))
    if [ -n "$san" ]; then
        e2e_skip "$what: server memory (sanitizer build)"
    elif [ -n "$hwm" ] && [ "$hwm" -gt 0 ] && [ "$hwm" -lt "$bound" ]; then
        e2e_ok "$what: wrun peak memory $hwm kB < $bound kB"
    else
        e2e_not_ok "$what: wrun peak memory ${hwm:-unknown} kB, bound $bound kB"
    fi
}

big collect 16
big direct 16
big collect 64
big direct 64

# the limit: 1 MiB
limit_run() {
    PMIX_MCA_ptl_base_max_msg_size=1m e2e_wrun "$e2e_tmp/out" $np --timeout 110 "$e2e/e2e_big" "$@"
}
named() {
    grep -q 'ptl_base_max_msg_size, 1048576 bytes' "$1" &&
        grep -q 'PMIX_MCA_ptl_base_max_msg_size=' "$1"
}

# rank 0 commits 2 MiB: its commit fails, the peers' Gets of it fail, nobody waits for ever
limit_run commit 2048
c=$(e2e_count_lines "$e2e_tmp/out" '^commit rank 0: OUT-OF-RESOURCE')
g=$(e2e_count_lines "$e2e_tmp/out" '^get rank [1-9]: OUT-OF-RESOURCE')
if [ "$e2e_rc" -eq 0 ] && [ "$c" -eq 1 ] && [ "$g" -eq $((np - 1)) ] && named "$e2e_tmp/out"; then
    e2e_ok "commit above the limit: PMIX_ERR_OUT_OF_RESOURCE, message names the limit"
else
    e2e_not_ok "commit above the limit (wrun exit $e2e_rc, commit lines $c, get lines $g)"
    e2e_diag "$e2e_tmp/out"
fi

# every rank commits 400 KiB: the fence's result (1.6 MiB) cannot be sent as a message (gds
# hash: the data goes to each rank through its socket)
PMIX_MCA_gds=hash
export PMIX_MCA_gds
limit_run fence 400
unset PMIX_MCA_gds
f=$(e2e_count_lines "$e2e_tmp/out" '^fence rank [0-9]: OUT-OF-RESOURCE')
if [ "$e2e_rc" -eq 0 ] && [ "$f" -eq $np ] && named "$e2e_tmp/out"; then
    e2e_ok "fence result above the limit (gds hash): PMIX_ERR_OUT_OF_RESOURCE, message names the limit"
else
    e2e_not_ok "fence result above the limit (wrun exit $e2e_rc, $f of $np fence lines)"
    e2e_diag "$e2e_tmp/out"
fi
# with gds shmem (the default) the result is a shared segment, not a message: no such limit
limit_run fence 400
f=$(e2e_count_lines "$e2e_tmp/out" '^fence rank [0-9]: SUCCESS')
if [ "$e2e_rc" -eq 0 ] && [ "$f" -eq $np ]; then
    e2e_ok "the same fence with gds shmem: its result is a segment, above the message limit"
else
    e2e_not_ok "the same fence with gds shmem (wrun exit $e2e_rc, $f of $np fence SUCCESS lines)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
