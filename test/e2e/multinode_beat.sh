#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only, issue 29): the heartbeats of the launch tree on a 4-node test/lab lab.
# A wired stopped with SIGSTOP keeps its TCP connections (its kernel still acknowledges), so
# only the heartbeats notice it: with the default parameters (2 s x 5) wrun exits within 15 s
# of the stop of node3's wired (first level), naming node3 and saying it stopped answering, with
# the status of a lost node; after SIGCONT the stopped daemon finds its parent gone and nothing
# is left on any node. With routed_radix 2 on 4 nodes (node2 starts node3's wired): the stop of
# node3's wired (second level) is noticed by its relay, which reports it (within 15 s too); with
# 1 s x 3 set by wrun's --mca (passed on to every wired) the stop of node2's (a relay) ends the
# job naming node2 within 8 s, and node3's wired, which lost its parent the same way, ends its
# ranks and exits by itself while node2 is still stopped. Busy nodes do not trip the check:
# ranks that spin on every core of each node for 14 s with the defaults end normally (0), and
# so does e2e_nodes (a 64 KiB-per-rank fence, direct modex, an event) with 2 s x 3. The lab is
# taken down at exit whatever happens.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=10
e2e_plan $lab_tests
e2e_mktemp
. "$s/test/e2e/lab_lib.sh"
lab_start wbt$$ 4
mkdir -p "$e2e_tmp/t"
pre=$lab_env

# leftovers WHAT: nothing of the job on any node
leftovers() {
    lab_left '^[^ ]*(wired --node|e2e_nodes)|^sleep 3141|^ssh .*wired|while :; do :; done' "$1"
}

# until_gone TENTHS [PATTERN]: wait up to TENTHS tenths of a second until nothing matching
# PATTERN (default: a rank or daemon of the test) runs; $i is how long it took
until_gone() {
    i=0
    while [ "$(lab_nours "${2:-^sleep 3141|^[^ ]*wired --node}")" -gt 0 ] && [ "$i" -lt "$1" ]; do
        sleep 0.1
        i=$((i + 1))
    done
}

# stop_daemon OUT HOSTS NP K [WRUN OPTIONS]: `wrun -H HOSTS -np NP sleep 3141` in the background,
# then kill -STOP of map node K's wired ($wd) once every rank runs; $rc is wrun's exit status,
# $took the seconds from the stop to wrun's end
stop_daemon() {
    out=$1
    hosts=$2
    np=$3
    k=$4
    shift 4
    # shellcheck disable=SC2086 # $pre is words
    (cd "$b" && TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 $pre ./wrun -H "$hosts" \
        -np "$np" "$@" sleep 3141) >"$out" 2>&1 &
    job=$!
    i=0
    while [ "$(lab_nours '^sleep 3141')" -lt "$np" ] && [ "$i" -lt 200 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    wd=$(lab_ours "^[^ ]*wired --node $k " | head -1)
    t0=$(date +%s.%N)
    [ -n "$wd" ] && kill -STOP "$wd"
    wait "$job"
    rc=$?
    took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
}

# resume_ok WHAT: kill -CONT of $wd; within 10 s nothing is left on any node
resume_ok() {
    held=$(lab_nours '^sleep 3141|^[^ ]*wired --node')
    [ -n "$wd" ] && kill -CONT "$wd"
    until_gone 100
    if leftovers "$1"; then
        e2e_ok "$1: after SIGCONT the $held ranks and daemons still there end ($((i / 10)).$((i % 10)) s); nothing is left on any node"
    else
        e2e_not_ok "$1: leftovers after SIGCONT"
    fi
}

# below SECONDS: $took is below SECONDS
below() {
    awk -v t="$took" -v m="$1" 'BEGIN { exit !(t < m) }'
}

# stop_ok OUT BOUND WANT WHAT: wrun exited with 1 (a lost node) within BOUND seconds of the stop,
# its message matching WANT
stop_ok() {
    if [ -n "$wd" ] && [ "$rc" -eq 1 ] && below "$2" && grep -q "$3" "$1"; then
        grep "lost contact" "$1" | sed 's/^/# /'
        e2e_ok "$4: wrun exits $rc after $took s naming the node, which stopped answering"
    else
        e2e_not_ok "$4 (pid '$wd'): exit $rc after $took s"
        e2e_diag "$1"
    fi
}
lost="lost contact with the daemon on node"

# 1-2: node3's wired (first level) stopped, default parameters
stop_daemon "$e2e_tmp/s1.out" node1,node2,node3 6 2
stop_ok "$e2e_tmp/s1.out" 15 "$lost node3 (stopped answering, no message for" \
    "kill -STOP of node3's wired, 2 s x 5"
resume_ok "node3's wired stopped"

# 3-4: routed_radix 2 on 4 nodes (wrun starts node2's and node4's wired, node2's starts
# node3's), default parameters: node3's wired stopped, its relay (node2's) reports it
PMIX_MCA_routed_radix=2
export PMIX_MCA_routed_radix
stop_daemon "$e2e_tmp/s2.out" node1,node2,node3,node4 8 2
stop_ok "$e2e_tmp/s2.out" 15 "$lost node3 (its daemon stopped answering its parent in the launch tree, the daemon of node2: no message for" \
    "routed_radix 2, 2 s x 5: kill -STOP of node3's wired (second level)"
resume_ok "node3's wired (second level) stopped"

# 5-7: node2's wired (node3's relay) stopped: wrun names node2; node3's wired notices its
# stopped parent by itself and takes its ranks along while node2 stays stopped
fast="--mca rte_base_heartbeat_interval 1 --mca rte_base_heartbeat_misses 3"
# shellcheck disable=SC2086 # $fast is words
stop_daemon "$e2e_tmp/s3.out" node1,node2,node3,node4 8 1 $fast
stop_ok "$e2e_tmp/s3.out" 8 "$lost node2 (stopped answering, no message for" \
    "routed_radix 2, 1 s x 3: kill -STOP of node2's wired (a relay)"
until_gone 100 "^[^ ]*wired --node 2 "
n3=$(lab_nours "^[^ ]*wired --node 2 ")
if [ -n "$wd" ] && [ "$n3" -eq 0 ] && [ "$(lab_nours '^sleep 3141')" -eq 2 ]; then
    e2e_ok "node3's wired, whose parent (node2's) stopped, exits with its ranks by itself (node2's 2 ranks remain)"
else
    e2e_not_ok "node3's wired still runs ($n3) or ranks are left: $(lab_nours '^sleep 3141') of node2's 2"
fi
resume_ok "node2's wired (a relay) stopped"
unset PMIX_MCA_routed_radix

# 8: ranks spin on every core of every node (2 per node) for 14 s, longer than the default
# detection time (2 s x 5): nothing is lost. Not in a sanitizer build: there, with another
# sanitized test beside it on the 2-core CI machine, a daemon once went 11 s without a message
# (not understood yet); the debug and Debian 13 legs check it.
if e2e_sanitized; then
    e2e_skip "busy ranks: a sanitizer build's daemons are not judged under 3x CPU oversubscription"
else
start=$(date +%s)
lab_on node1 "$e2e_tmp/busy.out" ./wrun -H node1,node2,node3 -np 6 sh -c \
    'timeout 14 sh -c "while :; do :; done"; exit 0'
busy=$(($(date +%s) - start))
if [ "$e2e_rc" -eq 0 ] && [ "$busy" -ge 14 ] && ! grep -q "stopped answering" "$e2e_tmp/busy.out" &&
    leftovers "busy ranks"; then
    e2e_ok "6 ranks spinning on every core of 3 nodes for 14 s with the default heartbeats: exit 0 (${busy} s)"
else
    e2e_not_ok "busy ranks with the default heartbeats (exit $e2e_rc after $busy s)"
    e2e_diag "$e2e_tmp/busy.out"
fi
fi

# 9-10: e2e_nodes (a 64 KiB-per-rank fence, direct modex, an event) with 2 s x 3, flat and in
# a chain
for radix in 64 1; do
    lab_on node1 "$e2e_tmp/nodes.out" ./wrun -H node1,node2,node3,node4 -np 8 \
        --mca rte_base_heartbeat_interval 2 --mca rte_base_heartbeat_misses 3 \
        --mca routed_radix $radix test/e2e/e2e_nodes 4
    n=$(e2e_count_lines "$e2e_tmp/nodes.out" "^nodes rank [0-9]*: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 8 ] && leftovers "e2e_nodes, radix $radix"; then
        e2e_ok "e2e_nodes on 4 nodes with routed_radix $radix and 2 s x 3 heartbeats: every rank ok"
    else
        e2e_not_ok "e2e_nodes with 2 s x 3 heartbeats, routed_radix $radix (exit $e2e_rc, $n ranks ok)"
        e2e_diag "$e2e_tmp/nodes.out"
    fi
done
lab_stop
e2e_exit
