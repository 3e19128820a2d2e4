#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only; issue 29): programs and daemons that cannot be started on some nodes of
# a 4-node test/lab lab, wrun on node1. Repeated runs (WU_EXECFAIL_RUNS, 50; 12 in a sanitizer build) of
# each case; none may hang, each must end with the status mpirun gives and name the node:
# - a program missing on node4 only (it is in node1-3's private /run, where it runs
#   e2e_exchange's collecting fence): 127 and "could not execute ... on node node4";
# - arguments that wrun itself can take but its ranks cannot (e2e_bigargs.py limit: execve fails
#   after the fork on node2-node4, or on node1-node3 with wrun's own ranks among them): 126 and
#   one line naming a node;
# - SIGKILL of wrun at varying moments of the first case: its watchdog, the daemons and their
#   watchdogs leave nothing on any node.
# Then launch failures: one node given under two names (its name and its address) is refused
# at once naming both; a node ssh cannot reach is the only one named, in one line without
# ssh's carriage returns; a daemon that got the job but does not start it within
# rte_base_launch_timeout is lost, named with the stage. After every run no rank, daemon or
# session directory is left on any node.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=6
e2e_plan $lab_tests
e2e_mktemp
. "$s/test/e2e/lab_lib.sh"
lab_start wef$$ 4

runs=${WU_EXECFAIL_RUNS:-50}
if [ -z "${WU_EXECFAIL_RUNS:-}" ] && e2e_sanitized; then
    runs=12
fi
hosts=node1,node2,node3,node4
ab=$(cd "$b" && pwd)
prog=/run/wu_ef/prog

# leftovers WHAT [PATTERN]: nothing of the job on any node (the launchers' watchdogs too with
# the second pattern)
job_pat='^[^ ]*(wired --node|e2e_exchange|wu_ef/prog)|^ssh .*wired'
all_pat='^[^ ]*(wired --node|wu-watchdog|e2e_exchange|wu_ef/prog)|^ssh .*wired'
leftovers() {
    lab_left "${2:-$job_pat}" "$1"
}

# the program exists on node1-node3 only (each node's /run is its own)
for n in node1 node2 node3; do
    "$lab" on "$n" sh -c "mkdir -p /run/wu_ef && printf '#!/bin/sh\nexec %s/test/e2e/e2e_exchange collect\n' '$ab' >$prog && chmod 755 $prog" ||
        e2e_diag "could not put $prog on $n"
done

# run_bad RUN WHAT OUT: one more run went wrong (the first few runs' output shown)
run_bad() {
    bad=$((bad + 1))
    echo "# run $1: $2"
    [ "$bad" -gt 3 ] || e2e_diag "$3"
}

# tally CASE GOOD: the TAP line of $runs runs of CASE, $bad of them wrong
tally() {
    if [ "$bad" -eq 0 ]; then
        e2e_ok "$1, $runs runs: $2"
    else
        e2e_not_ok "$1: $bad of $runs runs wrong"
    fi
}

# 1: a program missing on node4
bad=0
for i in $(seq "$runs"); do
    t0=$(date +%s)
    lab_on node1 "$e2e_tmp/miss.out" timeout 60 ./wrun -H $hosts --map-by node -n 8 $prog
    took=$(($(date +%s) - t0))
    said=$(grep -c "could not execute '$prog' on node node4: No such file or directory" \
        "$e2e_tmp/miss.out")
    if [ "$e2e_rc" -ne 127 ] || [ "$said" -ne 1 ] || ! leftovers "missing program, run $i"; then
        run_bad "$i" "exit $e2e_rc after $took s, node4 named $said times" "$e2e_tmp/miss.out"
    fi
done
tally "program missing on node4" "127 every time, node4 named once, nothing left"

# 2: arguments only wrun can take; the ranks of node2-node4 fail after the fork (odd runs: of
# node1-node3, wrun's own among them)
big_hosts() {
    if [ $(($1 % 2)) -eq 1 ]; then echo node1,node2,node3; else echo node2,node3,node4; fi
}
if [ -x /usr/bin/python3 ]; then
    bad=0
    for i in $(seq "$runs"); do
        (cd "$b" && TMPDIR="$e2e_tmp/t" timeout 200 "$lab" on node1 \
            env LD_LIBRARY_PATH="$ab/.libs" WU_BIGARGS_ENV=min /usr/bin/python3 "$s/test/e2e/e2e_bigargs.py" \
            "$ab/.libs/wrun -H $(big_hosts "$i") --map-by node" 6 limit) >"$e2e_tmp/big.out" 2>&1
        rc=$?
        if [ $rc -ne 0 ] || ! grep -q "^ok: .* on node node[1-4]: Argument list too long" \
            "$e2e_tmp/big.out" || ! leftovers "too many arguments, run $i ($(big_hosts "$i"))"; then
            run_bad "$i" "exit $rc" "$e2e_tmp/big.out"
        fi
    done
    tally "execve fails after the fork on 3 nodes" "126 at once, the node named, nothing left"
else
    e2e_skip "/usr/bin/python3 is missing"
fi

# 3: SIGKILL of wrun at varying moments of a job that fails on node4
bad=0
kills=$((runs / 5 + 2))
for i in $(seq "$kills"); do
    lab_on node1 "$e2e_tmp/kill.out" ./wrun -H $hosts --map-by node -n 8 $prog &
    job=$!
    # 0, 0.1, ... 0.9 s after wired first runs, or at once when the job is over already
    k=0
    while [ "$k" -lt 100 ] && [ "$(lab_nours '^[^ ]*wired --node')" -eq 0 ] &&
        kill -0 "$job" 2>/dev/null; do
        sleep 0.05
        k=$((k + 1))
    done
    sleep "0.$((i % 10))"
    # shellcheck disable=SC2046 # pids
    kill -9 $(lab_ours '^[^ ]*wrun -H') 2>/dev/null
    wait "$job"
    k=0
    while [ "$k" -lt 100 ] && [ "$(lab_nours "$all_pat")" -gt 0 ]; do
        sleep 0.1
        k=$((k + 1))
    done
    if ! leftovers "SIGKILL of wrun, run $i" "$all_pat"; then
        bad=$((bad + 1))
    fi
done
if [ "$bad" -eq 0 ]; then
    e2e_ok "SIGKILL of wrun during a failing job, $kills runs: nothing left on any node within 10 s"
else
    e2e_not_ok "SIGKILL of wrun during a failing job: something left in $bad of $kills runs"
fi
# 4: one node under two names (its name and its address): refused at once, both named
ip2=$("$lab" on node1 getent hosts node2 | awk '{print $1}')
t0=$(date +%s)
lab_on node1 "$e2e_tmp/twice.out" timeout 60 ./wrun -H "node1,node2,$ip2" --map-by node -n 3 hostname
took=$(($(date +%s) - t0))
if [ "$e2e_rc" -ne 0 ] && [ "$took" -le 5 ] && [ -n "$ip2" ] &&
    grep -q "are the same node (the daemons there run on host node2)" "$e2e_tmp/twice.out" &&
    grep -q "$ip2" "$e2e_tmp/twice.out" && leftovers "node2 twice"; then
    e2e_ok "node2 given as node2 and $ip2: exit $e2e_rc in $took s: $(grep 'same node' "$e2e_tmp/twice.out")"
else
    e2e_not_ok "node2 given as node2 and ${ip2:-?}: exit $e2e_rc in $took s"
    e2e_diag "$e2e_tmp/twice.out"
fi

# 5: ssh cannot reach one node: only that node is named (no "cannot reach its parent" from the
# healthy ones), and ssh's text comes without its carriage returns
lab_on node1 "$e2e_tmp/nossh.out" timeout 60 ./wrun -H node1,node2,node3,wu-no-such-node \
    --map-by node -n 4 hostname
if [ "$e2e_rc" -ne 0 ] && grep -q "could not start wired on node wu-no-such-node" "$e2e_tmp/nossh.out" &&
    ! grep -q "cannot reach\|\\\\r" "$e2e_tmp/nossh.out" && ! grep -q "$(printf '\r')" "$e2e_tmp/nossh.out" &&
    [ "$(grep -c '' "$e2e_tmp/nossh.out")" -eq 1 ] && leftovers "unreachable node"; then
    e2e_ok "a node ssh cannot reach: exit $e2e_rc, one line naming it"
else
    e2e_not_ok "a node ssh cannot reach: exit $e2e_rc"
    e2e_diag "$e2e_tmp/nossh.out"
fi
# 6: node3's daemon gets the job but does not start it (its set-up stalls, as on a hung file
# system: the daemon's test hook WU_TEST_LAUNCH_STALL): with rte_base_launch_timeout 3 wrun
# ends within a few seconds naming node3 and the stage, and nothing is left
t0=$(date +%s)
lab_on node1 "$e2e_tmp/stall.out" env WU_TEST_LAUNCH_STALL=node3:60 timeout 60 ./wrun \
    --mca rte_base_launch_timeout 3 -H node1,node2,node3 --map-by node -n 3 sleep 30
took=$(($(date +%s) - t0))
if [ "$e2e_rc" -eq 1 ] && [ "$took" -le 10 ] &&
    grep -q "did not start its processes within 3 seconds (rte_base_launch_timeout): node3;" \
        "$e2e_tmp/stall.out" && leftovers "a stalled launch"; then
    e2e_ok "node3's daemon stalls before starting the job: wrun exits 1 in $took s naming node3 and the stage"
else
    e2e_not_ok "node3's daemon stalls before starting the job: exit $e2e_rc in $took s"
    e2e_diag "$e2e_tmp/stall.out"
fi
e2e_exit
