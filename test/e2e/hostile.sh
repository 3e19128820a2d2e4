#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 11): peers that never authenticate attack a running wrun's socket from outside
# its job (test/e2e/hostile_peer.py) while its rank waits (test/e2e/e2e_hold.c): frames
# announcing 64 MiB cost wrun no memory and are dropped; of many half-sent headers wrun holds
# at most ptl_base_max_untrusted (64) at once (a newer one displaces the oldest) and drops each
# it holds after ptl_base_handshake_timeout (3 s here); the job then completes.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp
if ! command -v python3 >/dev/null 2>&1; then
    for _ in 1 2 3 4 5; do
        e2e_skip "python3 is not installed"
    done
    e2e_exit
fi
peer="$s/test/e2e/hostile_peer.py"

TMPDIR="$e2e_tmp/t" PMIX_MCA_ptl_base_handshake_timeout=3 \
    timeout 120 "$wrun" -n 1 "$e2e/e2e_hold" "$e2e_tmp" >"$e2e_tmp/out" 2>&1 &
job=$!
e2e_hold_wait "$job"

# 8 connections announcing 64 MiB frames and sending 48 MiB of each
python3 "$peer" big "$uri" "$pid" 8 >"$e2e_tmp/big" 2>&1
if grep -q '^skip' "$e2e_tmp/big"; then
    e2e_skip "$(cat "$e2e_tmp/big")"
    e2e_skip "$(cat "$e2e_tmp/big")"
    e2e_skip "$(cat "$e2e_tmp/big")"
else
    growth=$(sed -n 's/^rss_growth_kb //p' "$e2e_tmp/big")
    dropped=$(sed -n 's/^dropped //p' "$e2e_tmp/big")
    if [ -n "$growth" ] && [ "$growth" -lt 40000 ] && [ "$dropped" = 8 ]; then
        e2e_ok "8 peers announcing 64 MiB frames: dropped, wrun grew by ${growth} kB"
    else
        e2e_not_ok "8 peers announcing 64 MiB frames: wrun grew by ${growth:-?} kB (limit 40000), ${dropped:-?} of 8 dropped"
        e2e_diag "$e2e_tmp/big"
    fi
    # 80 connections sending 5 bytes of a header each
    python3 "$peer" slow "$uri" "$pid" 80 >"$e2e_tmp/slow" 2>&1
    fds=$(sed -n 's/^fds_growth //p' "$e2e_tmp/slow")
    dropped=$(sed -n 's/^dropped //p' "$e2e_tmp/slow")
    if [ -n "$fds" ] && [ "$fds" -le 68 ]; then
        e2e_ok "80 half-sent headers: wrun held at most $fds more descriptors (cap 64)"
    else
        e2e_not_ok "80 half-sent headers: wrun held ${fds:-?} more descriptors (cap 64)"
        e2e_diag "$e2e_tmp/slow"
    fi
    if [ "$dropped" = 80 ]; then
        e2e_ok "80 half-sent headers: all dropped (displaced, or at the handshake deadline)"
    else
        e2e_not_ok "80 half-sent headers: ${dropped:-?} of 80 dropped within 60 s"
    fi
fi
touch "$e2e_tmp/go"
wait "$job"
e2e_rc=$?
e2e_check_leaks "wrun -n 1 e2e_hold (attacked)"
e2e_expect_ok "the job completes after the attack" "$e2e_tmp/out"
if grep -q '^hold rank 0: ok' "$e2e_tmp/out"; then
    e2e_ok "the rank connected, fenced and finalized"
else
    e2e_not_ok "the rank did not finish"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
