#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of wrun's output forwarding against readers that are stopped, gone or slow (issue
# 10): with a reader that stopped reading (`wrun ... | sleep 30`, also with 2>&1), SIGINT,
# SIGTERM and --timeout still end the job within seconds and leave no process behind, and
# wrun's memory stays bounded (it stops reading the processes' pipes); a reader that goes away
# (`| head -n 5`) still ends the job; a slow reader gets every line, whole and in order.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 11
e2e_mktemp
chatty="$e2e/e2e_chatty"
readers=
# how long a signal may take to end wrun: 2 s, or 10 s in a sanitizer build, whose slower
# processes on a loaded CI machine (make -j2 check) have taken more than 5 s to end a log
# flood (the point is an end, not a hang)
quit=20
e2e_sanitized && quit=100

iof_cleanup() {
    for p in $readers; do
        kill "$p" 2>/dev/null
    done
    for d in "$e2e_tmp"/*/; do
        [ -d "$d" ] && e2e_pids_gone "$d" >/dev/null
    done
    e2e_cleanup
}
trap iof_cleanup EXIT

# alive PID: PID runs (a zombie does not count)
alive() {
    kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# wait_gone PID TENTHS: wait up to TENTHS tenths of a second for PID to end; waited=tenths taken
wait_gone() {
    waited=0
    while alive "$1" && [ $waited -lt "$2" ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    ! alive "$1"
}

# wait_files TENTHS FILE...: wait up to TENTHS tenths of a second until every FILE is non-empty
wait_files() {
    t=0
    lim=$1
    shift
    for f in "$@"; do
        while [ ! -s "$f" ] && [ $t -lt "$lim" ]; do
            sleep 0.1
            t=$((t + 1))
        done
        [ -s "$f" ] || return 1
    done
}

# blocked DIR: wait up to 15 s (45 s sanitized) until every rank of DIR waits in a pipe write
# (wrun stopped reading its pipes; on a loaded machine filling wrun's queue first takes a
# while); false if they do not, or if /proc/PID/wchan says nothing here
blocked() {
    t=0
    lim=150
    e2e_sanitized && lim=450 # a sanitized wrun on a loaded machine fills its queue slowly
    for f in "$1"/pid.*; do
        p=$(cat "$f")
        while ! grep -q pipe_write "/proc/$p/wchan" 2>/dev/null && [ $t -lt $lim ]; do
            sleep 0.1
            t=$((t + 1))
        done
        grep -q pipe_write "/proc/$p/wchan" 2>/dev/null || return 1
    done
}

# rss PID: resident memory in kB
rss() {
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# stuck NAME MERGE WRUN-ARGS...: start `wrun WRUN-ARGS | sleep 30` in the background, with
# wrun's stderr in $e2e_tmp/NAME.err (MERGE=merged: in the pipe too, 2>&1). Sets wpid (wrun)
# and dir ($e2e_tmp/NAME, where the ranks leave their pids); wrun's exit status lands in
# $e2e_tmp/NAME.st when it ends.
stuck() {
    name=$1
    merge=$2
    shift 2
    dir="$e2e_tmp/$name"
    mkdir "$dir" || exit 1
    # shellcheck disable=SC2216 # sleep is the reader that never reads
    {
        if [ "$merge" = merged ]; then
            exec 2>&1
        else
            exec 2>"$dir.err"
        fi
        TMPDIR="$e2e_tmp/t" "$wrun" --oversubscribe "$@" &
        echo $! >"$dir.pid"
        wait $!
        echo $? >"$dir.st"
    } | sleep 30 &
    readers="$readers $!"
    wait_files 100 "$dir.pid" || exit 1
    wpid=$(cat "$dir.pid")
}

# nothing_left DIR: no rank of DIR runs (pid files and pgrep; survivors are killed)
nothing_left() {
    ok=0
    e2e_pids_gone "$1" || ok=1
    # procps tools run without the sanitizer preload: under it pgrep hangs
    if env -u LD_PRELOAD pgrep -f "$chatty $1" >/dev/null 2>&1; then
        env -u LD_PRELOAD pgrep -af "$chatty $1" | sed 's/^/# left: /'
        env -u LD_PRELOAD pkill -9 -f "$chatty $1"
        ok=1
    fi
    return $ok
}

# 1-3: a stopped reader: the ranks wait in their writes and wrun's memory stays bounded (wrun
# holds their pipes once its queue is full), and SIGINT ends the job within 2 s ($quit)
stuck sigint sep -n 2 "$chatty" "$e2e_tmp/sigint" 0
if ! wait_files 100 "$dir/pid.0" "$dir/pid.1"; then
    echo "# the ranks of 'wrun -n 2 e2e_chatty | sleep 30' did not start"
    e2e_diag "$dir.err"
fi
blocked "$dir"
held=$?
r1=$(rss "$wpid")
sleep 1 # a window to measure growth in, not a synchronization
r2=$(rss "$wpid")
if [ -n "$r1" ] && [ -n "$r2" ] && [ $((r2 - r1)) -lt 8192 ] && [ $held -eq 0 ]; then
    e2e_ok "a stopped reader: the ranks wait in their writes, wrun stays at ${r2} kB"
elif [ -n "$r1" ] && [ -n "$r2" ] && [ $((r2 - r1)) -lt 8192 ] &&
    ! grep -q '[a-z]' "/proc/$wpid/wchan" 2>/dev/null; then
    e2e_ok "a stopped reader: wrun stays at ${r2} kB (no /proc/PID/wchan to see the ranks wait)"
else
    e2e_not_ok "a stopped reader: wrun went from ${r1:-?} kB to ${r2:-?} kB in 1 s, ranks blocked: $held"
fi
kill -INT "$wpid"
if wait_gone "$wpid" $quit; then
    e2e_ok "a stopped reader: SIGINT ends wrun within $((quit / 10)) s ($waited tenths)"
else
    e2e_not_ok "a stopped reader: wrun still runs $((quit / 10)) s after SIGINT"
    e2e_diag "$dir.err"
    kill -9 "$wpid" 2>/dev/null
fi
if nothing_left "$dir"; then
    e2e_ok "a stopped reader: no rank is left after SIGINT"
else
    e2e_not_ok "a stopped reader: ranks were left running after SIGINT"
fi

# 4-5: the same with stderr in the stopped pipe too (2>&1), and SIGTERM
stuck sigterm merged -n 2 --tag-output "$chatty" "$e2e_tmp/sigterm" 0
wait_files 100 "$dir/pid.0" "$dir/pid.1"
blocked "$dir"
kill -TERM "$wpid"
if wait_gone "$wpid" $quit; then
    e2e_ok "2>&1 into a stopped reader: SIGTERM ends wrun within $((quit / 10)) s ($waited tenths)"
else
    e2e_not_ok "2>&1 into a stopped reader: wrun still runs $((quit / 10)) s after SIGTERM"
    kill -9 "$wpid" 2>/dev/null
fi
if nothing_left "$dir"; then
    e2e_ok "2>&1 into a stopped reader: no rank is left after SIGTERM"
else
    e2e_not_ok "2>&1 into a stopped reader: ranks were left running after SIGTERM"
fi

# 6: --timeout still fires, and its report (on the stopped stderr, 2>&1) does not stop it
stuck timeout merged --timeout 2 -n 2 "$chatty" "$e2e_tmp/timeout" 0
if wait_files 150 "$dir.st" && [ "$(cat "$dir.st")" -eq 110 ] && nothing_left "$dir"; then
    e2e_ok "2>&1 into a stopped reader: --timeout 2 ends the job (exit 110)"
else
    e2e_not_ok "2>&1 into a stopped reader: --timeout 2 gave exit '$(cat "$dir.st" 2>/dev/null)' within 15 s"
    kill -9 "$(cat "$dir.pid")" 2>/dev/null
    nothing_left "$dir"
fi

# 7-8: what the ranks log through PMIx_Log goes to wrun's stdout too: with the reader stopped,
# the log writes do not block wrun's server thread, so SIGINT still ends everything
stuck logflood sep -n 2 "$e2e/e2e_log" flood "$e2e_tmp/logflood"
wait_files 100 "$dir/pid.0" "$dir/pid.1"
sleep 1 # let the queue fill up: a window, not a synchronization
kill -INT "$wpid"
if wait_gone "$wpid" $quit; then
    e2e_ok "PMIx_Log into a stopped reader: SIGINT ends wrun within $((quit / 10)) s ($waited tenths)"
else
    e2e_not_ok "PMIx_Log into a stopped reader: wrun still runs $((quit / 10)) s after SIGINT"
    e2e_diag "$dir.err"
    kill -9 "$wpid" 2>/dev/null
fi
if e2e_pids_gone "$dir"; then
    e2e_ok "PMIx_Log into a stopped reader: no rank is left"
else
    e2e_not_ok "PMIx_Log into a stopped reader: ranks were left running"
fi

# 9: a reader that goes away ends the job (EPIPE, then SIGPIPE for the ranks)
mkdir "$e2e_tmp/head" || exit 1
start=$(date +%s)
{
    TMPDIR="$e2e_tmp/t" timeout 60 "$wrun" --oversubscribe -n 2 "$chatty" "$e2e_tmp/head" 0 \
        2>"$e2e_tmp/head.err"
    echo $? >"$e2e_tmp/head.st"
} | head -n 5 >"$e2e_tmp/head.out"
took=$(($(date +%s) - start))
st=$(cat "$e2e_tmp/head.st" 2>/dev/null)
if [ "$(wc -l <"$e2e_tmp/head.out")" -eq 5 ] && [ -n "$st" ] && [ "$st" -ne 124 ] &&
    [ $took -lt 30 ] && nothing_left "$e2e_tmp/head"; then
    e2e_ok "'wrun -n 2 e2e_chatty | head -n 5' ends (${took} s, exit $st)"
else
    e2e_not_ok "'wrun -n 2 e2e_chatty | head -n 5': exit ${st:-?} after $took s"
    e2e_diag "$e2e_tmp/head.err"
fi

# 10-11: a slow reader gets everything: 2 x 30000 tagged lines (6.8 MB, more than wrun queues
# before it holds the pipes), each whole, each rank's in order
mkdir "$e2e_tmp/slow" || exit 1
{
    TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" --oversubscribe -n 2 --tag-output "$chatty" \
        "$e2e_tmp/slow" 30000 2>"$e2e_tmp/slow.err"
    echo $? >"$e2e_tmp/slow.st"
} | {
    sleep 2
    cat
} >"$e2e_tmp/slow.out"
if [ "$(cat "$e2e_tmp/slow.st" 2>/dev/null)" = 0 ] && [ "$(wc -l <"$e2e_tmp/slow.out")" -eq 60000 ]; then
    e2e_ok "a slow reader: wrun exits 0 and all 60000 lines arrive"
else
    e2e_not_ok "a slow reader: exit $(cat "$e2e_tmp/slow.st" 2>/dev/null), $(wc -l <"$e2e_tmp/slow.out") lines"
    e2e_diag "$e2e_tmp/slow.err"
fi
bad=$(awk '{
    r = substr($0, 4, 1)
    want = sprintf("[1,%s]<stdout>:R:%s N:%07d ", r, r, ++n[r])
    if (length($0) != 113 || index($0, want) != 1 || $0 !~ /x$/) { bad++; if (bad < 4) print "# " $0 > "/dev/stderr" }
} END { print bad + 0 }' "$e2e_tmp/slow.out")
if [ "$bad" = 0 ]; then
    e2e_ok "a slow reader: every line whole, tagged, and each rank's in order"
else
    e2e_not_ok "a slow reader: $bad lines mixed, cut or out of order"
fi

nothing_left "$e2e_tmp/slow" >/dev/null
e2e_check_leaks "the runs above"
e2e_exit
