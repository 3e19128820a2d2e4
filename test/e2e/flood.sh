#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 29): 1000 connections that never authenticate, held on wrun's listener from
# outside its job (test/e2e/hostile_peer.py flood; each one wrun closes is made again), delay
# none of the job's own processes: two ranks that start PMIx_Init once the flood is in place
# (test/e2e/e2e_hold.c) finish it within 1 s (5 s in a sanitizer build). Over the Unix socket
# (the flooder has wrun's uid, as it must to reach the socket; each connection sends 5 bytes of
# a header); 1000 silent connections held and not made again, over the Unix socket and over TCP
# (PMIX_MCA_ptl=tcp; the flooder runs as uid 65534; root only), when wrun must also stay idle
# (no busy loop: under 25% of a core over 2 s); and over the Unix socket 1000 connections made
# and closed at once, again and again. The measured times are in the TAP lines. (Over TCP the
# flood is not made again: tens of thousands of connections closed by wrun would use up the
# flooder's ephemeral ports.)
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 10
e2e_mktemp
if ! command -v python3 >/dev/null 2>&1; then
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        e2e_skip "python3 is not installed"
    done
    e2e_exit
fi
peer="$s/test/e2e/hostile_peer.py"
n=1000
np=2
limit=1
e2e_sanitized && limit=5

# cpu_ticks PID: user and system CPU ticks of PID so far
cpu_ticks() {
    sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# flood_case NAME PTL USER MODE: wrun -n $np e2e_hold over PTL (usock or tcp), $n connections
# by a flooder running as USER (self or nobody) with hostile_peer.py's flood options MODE, then
# the ranks go; two TAP lines: their PMIx_Init times, and the job's end; with MODE silent (held,
# none made again) first a third: wrun's CPU over 2 s while they are held
flood_case() {
    rm -f "$e2e_tmp/go" "$e2e_tmp"/uri.* "$e2e_tmp/wrun.pid"
    TMPDIR="$e2e_tmp/t" PMIX_MCA_ptl=$2 timeout 120 "$wrun" --oversubscribe -n $np \
        "$e2e/e2e_hold" "$e2e_tmp" >"$e2e_tmp/out" 2>&1 &
    job=$!
    e2e_hold_wait "$job"
    if [ "$3" = nobody ]; then
        # the script on stdin and the results on stdout: uid 65534 cannot open files here
        (cd / && exec $as_nobody "$nobody_py" - flood "$uri" "$pid" $n "$4") <"$peer" \
            >"$e2e_tmp/flood" 2>&1 &
    else
        python3 "$peer" flood "$uri" "$pid" $n "$4" >"$e2e_tmp/flood" 2>&1 &
    fi
    flooder=$!
    for _ in $(seq 300); do
        grep -q '^ready\|^skip' "$e2e_tmp/flood" && break
        sleep 0.1
    done
    held=$(sed -n 's/^ready //p' "$e2e_tmp/flood")
    if [ "$4" = silent ]; then
        sleep 1 # wrun takes them in
        c0=$(cpu_ticks "$pid")
        sleep 2
        c1=$(cpu_ticks "$pid")
        pct=$(((${c1:-0} - ${c0:-0}) * 100 / $(getconf CLK_TCK) / 2))
        if [ -n "$c0" ] && [ -n "$c1" ] && [ "$pct" -lt 25 ]; then
            e2e_ok "$1: wrun used ${pct}% of a core over 2 s, $n connections held (no busy loop)"
        else
            e2e_not_ok "$1: wrun used ${pct}% of a core over 2 s, $n connections held (limit 25%)"
        fi
    else
        sleep 1 # connections made again and again: the ranks start into a flood under way
    fi
    touch "$e2e_tmp/go" # the ranks start PMIx_Init now, with the flood in place
    wait "$job"
    e2e_rc=$?
    kill -TERM "$flooder" 2>/dev/null
    wait "$flooder"
    e2e_check_leaks "$1: wrun -n $np e2e_hold (flooded)"
    closed=$(sed -n 's/^closed //p' "$e2e_tmp/flood")
    total=$(sed -n 's/^made //p' "$e2e_tmp/flood")
    if grep -q '^skip' "$e2e_tmp/flood"; then
        e2e_skip "$1: $(grep '^skip' "$e2e_tmp/flood")"
    else
        times=$(sed -n 's/^hold rank [0-9]*: init \([0-9.]*\) s$/\1/p' "$e2e_tmp/out" | tr '\n' ' ')
        worst=$(printf '%s\n' $times | sort -n | tail -n 1)
        got=$(printf '%s\n' $times | grep -c .)
        what="$1: $got of $np late ranks in PMIx_Init ${times}s under a flood of $n"
        what="$what (flooder: ${held:-?} made before the ranks started, ${total:-?} in all,"
        what="$what ${closed:-?} closed by wrun)"
        if [ "$held" = $n ] && [ "$got" -eq $np ] &&
            awk -v w="$worst" -v l="$limit" 'BEGIN { exit !(w < l) }'; then
            e2e_ok "$what, limit $limit s"
        else
            e2e_not_ok "$what, limit $limit s"
            e2e_diag "$e2e_tmp/flood"
            e2e_diag "$e2e_tmp/out"
        fi
    fi
    e2e_expect_ok "$1: the job completes" "$e2e_tmp/out"
}

flood_case "Unix socket, partial headers, made again" usock self partial,refill
flood_case "Unix socket, silent, held" usock self silent
# a python3 that uid 65534 can run (the one on PATH may live in root's home)
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
nobody_py=
for p in /usr/bin/python3 "$(command -v python3)"; do
    if [ -z "$nobody_py" ] && [ "$(id -u)" -eq 0 ] && (cd / && $as_nobody "$p" -c pass) 2>/dev/null
    then
        nobody_py=$p
    fi
done
if [ "$(id -u)" -ne 0 ]; then
    for _ in 1 2 3; do
        e2e_skip "TCP: needs root to flood as uid 65534"
    done
elif [ -z "$nobody_py" ]; then
    for _ in 1 2 3; do
        e2e_skip "TCP: no python3 that uid 65534 can run (setpriv)"
    done
else
    flood_case "TCP, uid 65534, silent, held" tcp nobody silent
fi
flood_case "Unix socket, connections closed at once" usock self churn
e2e_exit
