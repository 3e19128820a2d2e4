#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the server dies (wrun is killed with SIGKILL) while every rank waits in a Get: the
# pending Gets fail with PMIX_ERR_LOST_CONNECTION, promptly, each rank's handler for
# PMIX_ERR_LOST_CONNECTION is called, and the ranks exit on their own (test/e2e/e2e_fail.c
# lost). Ranks still alive at the end are killed by their recorded pids.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
lost_conn=-61

# ranks_gone DIR: no pid recorded in DIR is still running (zombies do not count)
ranks_gone() {
    for f in "$1"/pid.*; do
        [ -f "$f" ] || continue
        p=$(cat "$f")
        if kill -0 "$p" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
            return 1
        fi
    done
    return 0
}
for n in 2 4; do
    d="$e2e_tmp/run$n"
    mkdir "$d" || exit 1
    TMPDIR="$e2e_tmp/t" "$wrun" --oversubscribe -n $n "$e2e/e2e_fail" lost "$d" >"$e2e_tmp/out" 2>&1 &
    wpid=$!
    i=0
    while [ ! -f "$d/ready" ] && [ $i -lt 600 ] && kill -0 $wpid 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 0.5 # let the Gets reach the server
    kill -9 $wpid 2>/dev/null
    wait $wpid 2>/dev/null
    i=0
    while [ "$(find "$d" -name 'event.*' | wc -l)" -lt $n ] && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    good=0
    events=0
    r=0
    while [ $r -lt $n ]; do
        [ "$(cat "$d/result.$r" 2>/dev/null)" = "$lost_conn" ] && good=$((good + 1))
        [ "$(cat "$d/event.$r" 2>/dev/null)" = "$lost_conn" ] && events=$((events + 1))
        r=$((r + 1))
    done
    if [ $good -eq $n ]; then
        e2e_ok "wrun -n $n, server killed: every pending Get failed with PMIX_ERR_LOST_CONNECTION"
    else
        e2e_not_ok "wrun -n $n, server killed: $good of $n Gets failed with" \
            "PMIX_ERR_LOST_CONNECTION"
        for f in "$d"/result.*; do [ -f "$f" ] && echo "# ${f##*/}: status $(cat "$f")"; done
        e2e_diag "$e2e_tmp/out"
    fi
    if [ $events -eq $n ]; then
        e2e_ok "wrun -n $n, server killed: every rank's handler heard PMIX_ERR_LOST_CONNECTION"
    else
        e2e_not_ok "wrun -n $n, server killed: $events of $n handlers heard" \
            "PMIX_ERR_LOST_CONNECTION"
        for f in "$d"/event.*; do [ -f "$f" ] && echo "# ${f##*/}: status $(cat "$f")"; done
        e2e_diag "$e2e_tmp/out"
    fi
    # the ranks exit on their own once their Get failed: give them up to 10 s (a loaded machine
    # can take a while to schedule them), then count who is left
    i=0
    while [ $i -lt 100 ] && ! ranks_gone "$d"; do
        sleep 0.1
        i=$((i + 1))
    done
    # a server killed with SIGKILL cannot remove its session directory: not counted as a leak
    rm -rf -- "${e2e_tmp:?}/t" && mkdir "$e2e_tmp/t"
    if e2e_pids_gone "$d" && [ "$(find "$d" -name 'pid.*' | wc -l)" -eq $n ]; then
        e2e_ok "wrun -n $n, server killed: the ranks exited on their own"
    else
        e2e_not_ok "wrun -n $n, server killed: ranks left running (killed now) or not all started"
    fi
done
e2e_exit
