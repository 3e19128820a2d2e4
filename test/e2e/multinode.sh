#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only): jobs across the nodes of a 4-node test/lab lab (node4 only for the
# launch tree's chain), wrun on node1 starting wired on node2 and node3 over ssh. Placement by slot, by node and from a hostfile (2 ranks per node;
# each node runs 2 slots' worth, its core count); a PMIx client's fence with collected data, one
# without, direct modex across nodes, and keys put after the last fence (e2e_exchange); large
# command lines across 4 nodes (one argument of 131,000 characters; 8 arguments and a variable
# of 128 KiB each); WU_* variables of 131000 and 3 x 100 KiB characters in wrun's environment
# reach every rank; a daemon that never calls back (its agent hangs) ends wrun within
# rte_base_daemon_timeout + 3 s naming its node; Open MPI's ring/allreduce/alltoall over
# TCP when mpicc is installed; exit status and message of a remote rank that fails; kill -9 of
# node2's wired mid-job (wrun ends within 5 s naming node2); SIGKILL of wrun (the remote ranks
# and daemons are gone within 5 s); after every run no rank, daemon or session directory is left
# on any node. A PMIx client (e2e_nodes, also built against OpenPMIx's headers, and run on
# OpenPMIx's own library on two nodes and Wireup's on the third) checks its node's data,
# Resolve_nodes/Resolve_peers of every node, direct modex, a 64 KiB-per-rank collecting fence
# and a namespace event from rank 0 on every node. wrun's stdin reaches a rank on another
# node intact (5 MB), also when wrun's node runs no rank; SIGTERM to wrun ends the ranks of every
# node (exit 143). PMIx_Job_control kills a rank of another node, asked on the head's node and
# on a daemon's. A rank that leaves (finalizes and exits 0) while the others wait in a fence
# fails that fence on every node at once, named; a fence whose PMIX_TIMEOUT runs out fails on
# every node and a later fence of the same ranks succeeds. --prefix DIR runs DIR/bin/wired
# with DIR's bin and lib first in the remote ranks' paths; a --prefix without wired there is
# reported naming the node and the missing program. --report-bindings has a line for every
# rank, from its own node. With routed_radix 1 on 4 nodes the launch is a chain (node2 starts
# node3's daemon, node3 node4's), each daemon relays the messages of the next and combines the
# fences of its branch; jobs run and end as with the flat launch, a fence fails when a rank
# leaves it, one with PMIX_TIMEOUT times out and the next succeeds, and losing a daemon of the
# chain ends the job naming its node.
# --output-filename puts every node's ranks' output in wrun's files. Last, node2's network link
# is cut mid-job: wrun ends within 12 s naming node2, and node2's daemon and ranks go away by
# themselves. The lab is taken down at exit whatever happens.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=45
e2e_plan $lab_tests
e2e_mktemp
. "$s/test/e2e/lab_lib.sh"
# 4 nodes: node4 only for the launch tree's chain (the other checks use node1-node3)
lab_start wmn$$ 4
# programs not built here (Open MPI's, OpenPMIx-built) need the sanitizer runtimes our library
# needs loaded first in a sanitizer build (set for the wrun commands only: sshd and the lab's
# tools run without them); wrun passes LD_PRELOAD and ASAN_OPTIONS on to wired
pre=$lab_env

# on1 OUT CMD...: run CMD on node1 in the build tree with the test's TMPDIR; e2e_rc is its exit
# status
on1() {
    lab_on node1 "$@"
}

# leftovers WHAT: nothing of the job on any node (the nodes share the process table and the
# file system): no wired, no rank of the test's programs, nothing in the test's TMPDIR
leftovers() {
    lab_left '^[^ ]*(wired --node|e2e_exchange|e2e_nodes|e2e_fail|e2e_jobctl|mpi_shapes)|^sleep 3141|^ssh .*wired' "$1"
}

# The nodes and ranks of the helpers below: 2 ranks on each node (the chain checks use 4 nodes)
mn_hosts=node1,node2,node3
mn_nnodes=3
mn_np=6

# start_sleepers OUT: `wrun -H $mn_hosts -np $mn_np sleep 3141` in the background (output in
# OUT, its pid in $job); returns once the ranks run (20 s at most)
start_sleepers() {
    # shellcheck disable=SC2086 # $pre is words
    (cd "$b" && TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 $pre ./wrun -H $mn_hosts \
        -np $mn_np sleep 3141) >"$1" 2>&1 &
    job=$!
    i=0
    while [ "$(lab_nours '^sleep 3141')" -lt $mn_np ] && [ "$i" -lt 200 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}

# exchange MODE HOW [ARG]: e2e_exchange MODE [ARG] across the 3 nodes (HOW: words for the
# message)
exchange() {
    # shellcheck disable=SC2086 # $3 is empty or one word
    on1 "$e2e_tmp/x.$1.out" ./wrun -H $mn_hosts -np $mn_np test/e2e/e2e_exchange "$1" $3
    n=$(e2e_count_lines "$e2e_tmp/x.$1.out" "^exchange $1: rank [0-9]* of $mn_np: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq $mn_np ] && leftovers "e2e_exchange $1 $2"; then
        e2e_ok "e2e_exchange $1 across $mn_nnodes nodes${2:+ $2}: every rank checked every peer's values"
    else
        e2e_not_ok "e2e_exchange $1 across $mn_nnodes nodes${2:+ $2} (exit $e2e_rc, $n ranks ok)"
        e2e_diag "$e2e_tmp/x.$1.out"
    fi
}

# nodes_run OUT: e2e_nodes across the nodes; $n: how many ranks said ok
nodes_run() {
    on1 "$1" ./wrun -H $mn_hosts -np $mn_np test/e2e/e2e_nodes $mn_nnodes
    n=$(e2e_count_lines "$1" "^nodes rank [0-9]*: ok")
}

# tmo_run OUT: --timeout 4 with e2e_nodes blocked (its last rank, a sleep, never becomes a
# client); true if the report names the next-to-last node's ranks in a fence and the last
# node's rank waiting in a Get (node3: ranks 4-5 and node4: rank 6 with 4 nodes)
tmo_run() {
    on1 "$1" ./wrun -H $mn_hosts -np $((mn_np - 1)) --timeout 4 test/e2e/e2e_nodes $mn_nnodes : \
        -np 1 sleep 3141
    [ "$e2e_rc" -eq 110 ] &&
        grep -q "node$((mn_nnodes - 1)): ranks $((mn_np - 4))-$((mn_np - 3)) in a fence" "$1" &&
        grep -q "node$mn_nnodes: rank $((mn_np - 2)) in PMIx_Get, waiting for key 'nodes.early'" "$1"
}

# kill_daemon OUT K: sleepers on the 3 nodes, then kill -9 of map node K's wired ($wd); $rc is
# wrun's exit status, $t0/$t1 the seconds before the kill and after wrun ended
kill_daemon() {
    start_sleepers "$1"
    wd=$(lab_ours "^[^ ]*wired --node $2 " | head -1)
    t0=$(date +%s)
    [ -n "$wd" ] && kill -9 "$wd"
    wait "$job"
    rc=$?
    t1=$(date +%s)
}

# until_gone TENTHS: wait up to TENTHS tenths of a second until no rank (sleep 3141) or daemon of
# the test runs; $i is how long it took
until_gone() {
    i=0
    while [ "$(lab_nours '^sleep 3141|^[^ ]*wired --node')" -gt 0 ] && [ "$i" -lt "$1" ]; do
        sleep 0.1
        i=$((i + 1))
    done
}

# per_node OUT: "node1 node1 node2 node2 node3 node3"-style sorted list of hostnames in OUT
per_node() {
    grep -E '^node[0-9]$' "$1" | sort | tr '\n' ' '
}

# 1: by slot, 2 per node
on1 "$e2e_tmp/slot.out" ./wrun -H node1,node2,node3 -np 6 hostname
if [ "$e2e_rc" -eq 0 ] && [ "$(per_node "$e2e_tmp/slot.out")" = "node1 node1 node2 node2 node3 node3 " ] &&
    leftovers "wrun -H ... hostname"; then
    e2e_ok "wrun -H node1,node2,node3 -np 6 hostname: 2 ranks on each node"
else
    e2e_not_ok "by slot across 3 nodes (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/slot.out"
fi

# 2: by node: ranks dealt in turn (rank r on node r%3+1)
on1 "$e2e_tmp/node.out" ./wrun -H node1,node2,node3 -np 6 --map-by node --tag-output hostname
got=$(sed -n 's/^\[1,\([0-9]\)\]<stdout>:\(node[0-9]\)$/\1\2/p' "$e2e_tmp/node.out" | sort | tr '\n' ' ')
if [ "$e2e_rc" -eq 0 ] && [ "$got" = "0node1 1node2 2node3 3node1 4node2 5node3 " ] &&
    leftovers "--map-by node"; then
    e2e_ok "--map-by node: rank r on node (r mod 3) + 1, tagged output from every node"
else
    e2e_not_ok "--map-by node (exit $e2e_rc): $got"
    e2e_diag "$e2e_tmp/node.out"
fi

# 3: a hostfile
printf '# the lab\nnode1 slots=2\nnode2 slots=2\nnode3 slots=2\n' >"$e2e_tmp/hosts"
on1 "$e2e_tmp/hf.out" ./wrun --hostfile "$e2e_tmp/hosts" -np 6 hostname
if [ "$e2e_rc" -eq 0 ] && [ "$(per_node "$e2e_tmp/hf.out")" = "node1 node1 node2 node2 node3 node3 " ] &&
    leftovers "--hostfile"; then
    e2e_ok "--hostfile with slots=2 per node: 2 ranks on each node"
else
    e2e_not_ok "--hostfile (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/hf.out"
fi

# --report-bindings: one line per rank, each from the node that runs it
on1 "$e2e_tmp/rb.out" ./wrun -H node1,node2,node3 -np 6 --report-bindings hostname
got=$(sed -n 's/^\[\(node[0-9]\):[0-9]*\] MCW rank \([0-9]\) .*/\2\1/p' "$e2e_tmp/rb.out" | sort |
    tr '\n' ' ')
if [ "$e2e_rc" -eq 0 ] && [ "$got" = "0node1 1node1 2node2 3node2 4node3 5node3 " ] &&
    leftovers "--report-bindings"; then
    e2e_ok "--report-bindings across 3 nodes: a line for each of the 6 ranks, from its node"
else
    e2e_not_ok "--report-bindings across nodes (exit $e2e_rc): $got"
    e2e_diag "$e2e_tmp/rb.out"
fi

# --output-filename: the output of every node's ranks lands in DIR/1/rank.N on wrun's node
on1 "$e2e_tmp/of.out" ./wrun -H node1,node2,node3 -np 6 --output-filename "$e2e_tmp/of" sh -c \
    'echo "o$PMIX_RANK $(hostname)"; echo "e$PMIX_RANK" >&2'
good=1
for r in 0 1 2 3 4 5; do
    [ "$(cat "$e2e_tmp/of/1/rank.$r/stdout" 2>/dev/null)" = "o$r node$((r / 2 + 1))" ] || good=0
    [ "$(cat "$e2e_tmp/of/1/rank.$r/stderr" 2>/dev/null)" = "e$r" ] || good=0
done
if [ "$e2e_rc" -eq 0 ] && [ $good -eq 1 ] && [ ! -s "$e2e_tmp/of.out" ] && leftovers "--output-filename"; then
    e2e_ok "--output-filename across 3 nodes: DIR/1/rank.N/stdout and stderr for all 6 ranks"
else
    e2e_not_ok "--output-filename across nodes (exit $e2e_rc)"
    find "$e2e_tmp/of" -type f | sed 's/^/# /'
    e2e_diag "$e2e_tmp/of.out"
fi

# the launch tree, on 4 nodes: with routed_radix 1 wrun starts node2's daemon only, node2's
# starts node3's and node3's node4's (each ssh is a child of the daemon before it); each daemon
# connects to the one that started it, which relays its messages and combines the fences of
# its branch (node3 sends node4's contribution up in one FENCE_AGG, node2 combines it with
# node3's). Fences (also one with PMIX_TIMEOUT that times out because node4's last rank stays
# away, and the fence after it; one without that fails because a rank leaves), direct
# modex, events and the --timeout report work across the chain; SIGTERM ends it all; losing a
# daemon of the chain ends the job naming it, and the daemons below end by themselves.
PMIX_MCA_routed_radix=1
export PMIX_MCA_routed_radix
mn_hosts=node1,node2,node3,node4
mn_nnodes=4
mn_np=8
exchange collect "with routed_radix 1 (node1 -> node2 -> node3 -> node4)"
exchange direct "with routed_radix 1"
exchange fencetimeout "with routed_radix 1 (node4's rank 7 stays away)"
nodes_run "$e2e_tmp/tnodes.out"
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 8 ] && leftovers "e2e_nodes, routed_radix 1"; then
    e2e_ok "routed_radix 1: e2e_nodes on 4 nodes (64 KiB fence, direct modex, an event seen on every node)"
else
    e2e_not_ok "routed_radix 1: e2e_nodes (exit $e2e_rc, $n ranks ok)"
    e2e_diag "$e2e_tmp/tnodes.out"
fi
if tmo_run "$e2e_tmp/ttmo.out" && leftovers "--timeout, routed_radix 1"; then
    e2e_ok "routed_radix 1: the --timeout report has node3's and node4's lines, relayed"
else
    e2e_not_ok "routed_radix 1: --timeout (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/ttmo.out"
fi
mkdir -p "$e2e_tmp/fdir"
start=$(date +%s)
on1 "$e2e_tmp/tleave.out" ./wrun -H $mn_hosts -np 8 test/e2e/e2e_fail leave0 "$e2e_tmp/fdir"
took=$(($(date +%s) - start))
n=$(e2e_count_lines "$e2e_tmp/tleave.out" "fence failed as expected: \(PROC TERMINATED WITHOUT SYNC\|PMIX_ERR_PROC_TERM_WO_SYNC\)")
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 7 ] && [ "$took" -lt 30 ] &&
    grep -q "a fence across nodes failed for its other participants: .*rank [67] (node4)" \
        "$e2e_tmp/tleave.out" && leftovers "e2e_fail leave0, routed_radix 1"; then
    e2e_ok "routed_radix 1: rank 7 on node4 leaves a fence without timeout: it fails for the 7 others, named (${took} s)"
else
    e2e_not_ok "routed_radix 1: a rank leaving a fence (exit $e2e_rc, $n ranks saw it fail, ${took} s)"
    e2e_diag "$e2e_tmp/tleave.out"
fi
start_sleepers "$e2e_tmp/tree.out"
parents=
for h in node3 node4; do
    for a in $(lab_ours "^ssh .* $h "); do
        parents="$parents$(tr '\0' ' ' <"/proc/$(awk '/^PPid:/ { print $2 }' "/proc/$a/status")/cmdline" |
            sed -n 's/.*wired --node \([0-9]*\) .*/\1/p')"
    done
done
# node3's wired talks to node2's (198.18.0.12, its parent) and node4's (.14, its child) only,
# node4's to node3's (.13) only: none of them to wrun
peers=
for h in node3 node4; do
    peers="$peers$(timeout 20 "$lab" on $h ss -tnpH state established 2>/dev/null |
        awk '/"wired"/ { sub(/:[0-9]+$/, "", $4); print $4 }' | sort -u | tr '\n' ' ')"
done
w=$(lab_ours '^[^ ]*wrun -H .* sleep 3141' | head -1)
[ -n "$w" ] && kill -TERM "$w"
wait "$job"
rc=$?
if [ "$rc" -eq 143 ] && [ "$parents" = "12" ] &&
    [ "$peers" = "198.18.0.12 198.18.0.14 198.18.0.13 " ] && leftovers "the chain"; then
    e2e_ok "routed_radix 1: the ssh to node3 and node4 come from the daemons before them; each wired talks to its parent and child only; SIGTERM ends every node (143)"
else
    e2e_not_ok "routed_radix 1: exit $rc; the ssh to node3, node4 were started by the daemons of map nodes '$parents'; their wireds talk to '$peers'"
    e2e_diag "$e2e_tmp/tree.out"
fi
# kill -9 of a relay (node2's wired, which relays for node3 and node4), then of the last daemon
# (node4's, behind two relays): the job ends naming the node, and nothing is left
for victim in 1:node2 3:node4; do
    kill_daemon "$e2e_tmp/tk.out" "${victim%%:*}"
    until_gone 50
    if [ -n "$wd" ] && [ "$rc" -ne 0 ] && [ $((t1 - t0)) -le 5 ] &&
        grep -q "${victim#*:}" "$e2e_tmp/tk.out" && leftovers "kill -9, routed_radix 1"; then
        e2e_ok "routed_radix 1: kill -9 of ${victim#*:}'s wired: wrun exits $rc within $((t1 - t0)) s naming it; nothing left"
    else
        e2e_not_ok "routed_radix 1: kill -9 of ${victim#*:}'s wired (pid '$wd'): exit $rc after $((t1 - t0)) s"
        e2e_diag "$e2e_tmp/tk.out"
    fi
done
unset PMIX_MCA_routed_radix
mn_hosts=node1,node2,node3
mn_nnodes=3
mn_np=6

# 4-8: PMIx data exchange across nodes, large command lines
for mode in collect nocollect direct; do
    exchange "$mode" ""
done
# keys put after the last fence, by ranks of other nodes too, are waited for
exchange late "(keys put after the last fence)" 3

# large command lines across the 4 nodes (e2e_bigargs.py, run with the real wrun binary, not
# libtool's wrapper script, which would fail first): one argument of 131,000 characters, and 8
# arguments and a -x variable of 128 KiB less 8, reach every rank intact. (Arguments that only
# wrun itself can take end the job at once with 126 on every node: execfail.sh.)
big() {
    ab=$(cd "$b" && pwd)
    # shellcheck disable=SC2086 # $2 is words
    (cd "$b" && TMPDIR="$e2e_tmp/t" timeout 200 "$lab" on node1 env LD_LIBRARY_PATH="$ab/.libs" \
        /usr/bin/python3 "$s/test/e2e/e2e_bigargs.py" \
        "$ab/.libs/wrun -H node1,node2,node3,node4 --map-by node $1" 8 $2) >"$e2e_tmp/big.out" 2>&1
    if [ $? -eq 0 ] && leftovers "bigargs $2"; then
        e2e_ok "across 4 nodes: $(sed -n 's/^ok: //p' "$e2e_tmp/big.out" | head -1)"
    else
        e2e_not_ok "large command line across 4 nodes ($2)"
        e2e_diag "$e2e_tmp/big.out"
    fi
}
if [ -x /usr/bin/python3 ]; then
    big "" "intact 1 131000"
    big "-x BIG_VAR" "intact 8 131064 131060"
else
    e2e_skip "large command lines: /usr/bin/python3 is missing"
    e2e_skip "large command lines: /usr/bin/python3 is missing"
fi

# large WU_* variables in wrun's environment (one of 131000 characters, three of 100 KiB): too
# large for the daemons' command line, they reach the daemons in LAUNCH and every rank of
# every node sees them intact
xs() {
    head -c "$1" /dev/zero | tr '\0' x
}
on1 "$e2e_tmp/bigenv.out" env WU_TEST_BIG="$(xs 131000)" WU_TEST_B1="$(xs 102400)" \
    WU_TEST_B2="$(xs 102400)" WU_TEST_B3="$(xs 102400)" ./wrun -H node1,node2,node3 -np 3 \
    sh -c 'echo "${#WU_TEST_BIG} ${#WU_TEST_B1} ${#WU_TEST_B2} ${#WU_TEST_B3}"'
n=$(e2e_count_lines "$e2e_tmp/bigenv.out" "^131000 102400 102400 102400$")
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 3 ] && leftovers "large WU_* variables"; then
    e2e_ok "WU_* variables of 131000 and 3 x 102400 characters reach the ranks of 3 nodes intact"
else
    e2e_not_ok "large WU_* variables across 3 nodes (exit $e2e_rc, $n ranks saw them intact)"
    e2e_diag "$e2e_tmp/bigenv.out"
fi

# a daemon that never calls back (node4's agent hangs, a script that sleeps for it; --map-by
# node gives node4 a rank): with rte_base_daemon_timeout 10 wrun ends within 13 s naming node4,
# the hanging agent killed
cat >"$e2e_tmp/agent.sh" <<'EOF'
#!/bin/sh
for a; do
    if [ "$a" = node4 ]; then
        exec sleep 3142
    fi
done
exec ssh -x -o BatchMode=yes -- "$@"
EOF
chmod +x "$e2e_tmp/agent.sh"
start=$(date +%s)
on1 "$e2e_tmp/late.out" env PMIX_MCA_pls_rsh_agent="$e2e_tmp/agent.sh" ./wrun \
    --mca rte_base_daemon_timeout 10 --map-by node -H node1,node2,node4 -np 3 sleep 3141
took=$(($(date +%s) - start))
if [ "$e2e_rc" -ne 0 ] && [ "$took" -le 13 ] &&
    grep -q "did not call back within 10 seconds (rte_base_daemon_timeout): node4\." \
        "$e2e_tmp/late.out" && [ "$(lab_nours '^sleep 3142')" -eq 0 ] &&
    leftovers "a daemon that never calls back"; then
    e2e_ok "node4's daemon never calls back: wrun ends in ${took} s (timeout 10 s) naming node4"
else
    e2e_not_ok "a daemon that never calls back (exit $e2e_rc, ${took} s)"
    e2e_diag "$e2e_tmp/late.out"
fi

# 8-10: Open MPI across the nodes over TCP: by slot, by node, from the hostfile
if command -v mpicc >/dev/null 2>&1 && mpicc -o "$e2e_tmp/mpi_shapes" "$s/test/e2e/mpi_shapes.c" \
    2>"$e2e_tmp/cc.err"; then
    for how in "-H node1,node2,node3" "-H node1,node2,node3 --map-by node" \
        "--hostfile $e2e_tmp/hosts"; do
        # shellcheck disable=SC2086 # $how is words
        on1 "$e2e_tmp/mpi.out" ./wrun $how -np 6 -x OMPI_MCA_btl=tcp,self "$e2e_tmp/mpi_shapes"
        if [ "$e2e_rc" -eq 0 ] &&
            grep -q "6 ranks: ring allreduce alltoall barrier ok" "$e2e_tmp/mpi.out" &&
            leftovers "mpi_shapes $how"; then
            e2e_ok "Open MPI ring, allreduce, alltoall and barrier, 6 ranks on 3 nodes, $how"
        else
            e2e_not_ok "Open MPI across 3 nodes, $how (exit $e2e_rc)"
            e2e_diag "$e2e_tmp/mpi.out"
        fi
    done
else
    for _ in 1 2 3; do
        e2e_skip "Open MPI's mpicc is not installed"
    done
fi

# 8: a remote rank that fails decides the job's status, named with its node
on1 "$e2e_tmp/fail.out" ./wrun -H node1,node2,node3 -np 6 sh -c \
    'if [ "$OMPI_COMM_WORLD_RANK" = 4 ]; then exit 3; fi; exec sleep 3141'
if [ "$e2e_rc" -eq 3 ] && grep -q "rank 4 .*node node3 exited with status 3" "$e2e_tmp/fail.out" &&
    leftovers "a failing remote rank"; then
    e2e_ok "rank 4 on node3 exits 3: wrun exits 3, names node3, ends every node's ranks"
else
    e2e_not_ok "remote failure (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/fail.out"
fi

# a rank that leaves while the others wait in a fence: the fence fails on every node (not by
# the 60 s PMIX_TIMEOUT the others gave it), naming the rank; the job still ends normally
mkdir -p "$e2e_tmp/fdir"
start=$(date +%s)
on1 "$e2e_tmp/leave.out" ./wrun -H node1,node2,node3 -np 6 test/e2e/e2e_fail leave "$e2e_tmp/fdir"
took=$(($(date +%s) - start))
n=$(e2e_count_lines "$e2e_tmp/leave.out" "fence failed as expected: \(PROC TERMINATED WITHOUT SYNC\|PMIX_ERR_PROC_TERM_WO_SYNC\)")
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 5 ] && [ "$took" -lt 20 ] &&
    grep -q "a fence across nodes failed for its other participants: .*rank [45] (node3)" "$e2e_tmp/leave.out" &&
    leftovers "e2e_fail leave"; then
    e2e_ok "rank 5 on node3 leaves: the fence fails for the 5 others on 3 nodes, named (${took} s)"
else
    e2e_not_ok "a rank leaving a fence across nodes (exit $e2e_rc, $n ranks saw it fail, ${took} s)"
    e2e_diag "$e2e_tmp/leave.out"
fi

# --prefix DIR: the other nodes run DIR/bin/wired (here a script that runs the build's), and
# their ranks have DIR/bin first in PATH and DIR/lib in LD_LIBRARY_PATH
mkdir -p "$e2e_tmp/prefix/bin" "$e2e_tmp/prefix/lib"
printf '#!/bin/sh\necho wired-from-prefix >%s/prefix/used.$$\nexec %s/wired "$@"\n' \
    "$e2e_tmp" "$b" >"$e2e_tmp/prefix/bin/wired"
chmod +x "$e2e_tmp/prefix/bin/wired"
on1 "$e2e_tmp/prefix.out" ./wrun --prefix "$e2e_tmp/prefix" -H node1,node2,node3 -np 6 sh -c \
    'case ":$LD_LIBRARY_PATH:" in *":$0/lib:"*) l=lib ;; *) l=nolib ;; esac
     echo "paths $OMPI_COMM_WORLD_RANK ${PATH%%:*} $l"' "$e2e_tmp/prefix"
n=$(e2e_count_lines "$e2e_tmp/prefix.out" "^paths [2-5] $e2e_tmp/prefix/bin lib$")
used=$(ls "$e2e_tmp/prefix" | grep -c '^used\.')
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 4 ] && [ "$used" -eq 2 ] && leftovers "--prefix"; then
    e2e_ok "--prefix DIR: node2 and node3 run DIR/bin/wired; their 4 ranks have DIR/bin, DIR/lib first"
else
    e2e_not_ok "--prefix (exit $e2e_rc, $n remote ranks with the paths, $used wired from DIR)"
    e2e_diag "$e2e_tmp/prefix.out"
fi
start=$(date +%s)
on1 "$e2e_tmp/noprefix.out" ./wrun --prefix /nonexistent -H node1,node2 -np 4 hostname
took=$(($(date +%s) - start))
want="could not start wired on node node2: ssh exited with status 127 before wired called back"
want="$want, saying: env: .*/nonexistent/bin/wired.*: No such file or directory"
if [ "$e2e_rc" -ne 0 ] && [ "$took" -lt 30 ] &&
    grep -q "$want" "$e2e_tmp/noprefix.out" &&
    leftovers "--prefix /nonexistent"; then
    e2e_ok "--prefix without wired there: wrun exits $e2e_rc in ${took} s naming node2 and the path"
else
    e2e_not_ok "--prefix /nonexistent (exit $e2e_rc, ${took} s)"
    e2e_diag "$e2e_tmp/noprefix.out"
fi

# PMIX_TIMEOUT across nodes: the first fence times out everywhere; the second, same ranks,
# succeeds (no part of the first is left to mix with it)
on1 "$e2e_tmp/late.out" ./wrun -H node1,node2,node3 -np 6 test/e2e/e2e_fail late "$e2e_tmp/fdir"
n=$(e2e_count_lines "$e2e_tmp/late.out" "first fence timed out as expected")
n2=$(e2e_count_lines "$e2e_tmp/late.out" "second fence succeeded")
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 5 ] && [ "$n2" -eq 6 ] &&
    grep -q "timed out after 2 seconds (its PMIX_TIMEOUT) waiting for: node3 (ranks 4 5)" \
        "$e2e_tmp/late.out" && leftovers "e2e_fail late"; then
    e2e_ok "PMIX_TIMEOUT across nodes: 5 ranks time out, naming node3; then all 6 fence again"
else
    e2e_not_ok "PMIX_TIMEOUT across nodes (exit $e2e_rc, $n timed out, $n2 second fences)"
    e2e_diag "$e2e_tmp/late.out"
fi

# 9-10: kill -9 of node2's wired (map node 1) mid-job
kill_daemon "$e2e_tmp/kd.out" 1
if [ -n "$wd" ] && [ "$rc" -ne 0 ] && [ $((t1 - t0)) -le 5 ] && grep -q "node2" "$e2e_tmp/kd.out"; then
    e2e_ok "kill -9 of node2's wired: wrun exits $rc within $((t1 - t0)) s naming node2"
else
    e2e_not_ok "kill -9 of node2's wired (pid '$wd'): exit $rc after $((t1 - t0)) s"
    e2e_diag "$e2e_tmp/kd.out"
fi
# node2's ranks are ended by its daemon's watchdog (after a 2 s grace)
until_gone 50
if leftovers "kill -9 of wired"; then
    e2e_ok "after the daemon's death nothing is left on any node"
else
    e2e_not_ok "leftovers after the daemon's death"
fi

# 11-12: SIGKILL of wrun
start_sleepers "$e2e_tmp/kw.out"
w=$(lab_ours '^[^ ]*wrun -H .* sleep 3141' | head -1)
[ -n "$w" ] && kill -9 "$w"
until_gone 50
wait "$job"
if [ -n "$w" ] && [ "$i" -lt 50 ]; then
    e2e_ok "SIGKILL of wrun: every rank and daemon is gone within $((i / 10)).$((i % 10)) s"
else
    e2e_not_ok "SIGKILL of wrun (pid '$w'): ranks or daemons still run after 5 s"
    e2e_diag "$e2e_tmp/kw.out"
fi
if leftovers "SIGKILL of wrun"; then
    e2e_ok "after wrun's death nothing is left on any node"
else
    e2e_not_ok "leftovers after wrun's death"
fi
# 13-14: what a client sees across nodes, built on our headers and on OpenPMIx's
nodes_run "$e2e_tmp/nodes.out"
if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 6 ] &&
    grep -q "nodes rank 3 host node2 nodeid 1 local 1/2 peers 2,3" "$e2e_tmp/nodes.out" &&
    grep -q "nodes rank 4 host node3 nodeid 2 local 0/2 peers 4,5" "$e2e_tmp/nodes.out" &&
    leftovers "e2e_nodes"; then
    e2e_ok "e2e_nodes: node data, Resolve_nodes/peers, direct modex, 64 KiB fence, event on every node"
else
    e2e_not_ok "e2e_nodes across 3 nodes (exit $e2e_rc, $n ranks ok)"
    e2e_diag "$e2e_tmp/nodes.out"
fi
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
if [ -r "$sys_inc/pmix.h" ] && [ -r "$sys_libdir/libpmix.so" ] &&
    $cc -std=gnu11 -I"$sys_inc" -o "$e2e_tmp/e2e_nodes_ompix" "$s/test/e2e/e2e_nodes.c" \
        -L"$sys_libdir" -lpmix 2>"$e2e_tmp/cc2.err"; then
    # wrun puts our libpmix.so.2 first in the ranks' LD_LIBRARY_PATH on every node
    on1 "$e2e_tmp/nodes2.out" ./wrun -H node1,node2,node3 -np 6 "$e2e_tmp/e2e_nodes_ompix" 3
    n=$(e2e_count_lines "$e2e_tmp/nodes2.out" "^nodes rank [0-5]: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 6 ] && leftovers "e2e_nodes (OpenPMIx headers)"; then
        e2e_ok "e2e_nodes built against OpenPMIx's headers passes across 3 nodes on our library"
    else
        e2e_not_ok "e2e_nodes (OpenPMIx headers) across 3 nodes (exit $e2e_rc, $n ranks ok)"
        e2e_diag "$e2e_tmp/nodes2.out"
    fi
else
    e2e_skip "OpenPMIx development files not installed (libpmix-dev)"
fi
# 14b: one job, two libraries: 4 ranks on node1 and node2 load OpenPMIx's own library (an RPATH
# build under --keep-library-path: they speak OpenPMIx's protocol to wrun's and wired's
# servers), the 2 on node3 Wireup's; the same checks pass across them (direct modex between
# the two kinds, a 64 KiB-per-rank collecting fence, an event seen by every rank)
if [ -r "$sys_inc/pmix.h" ] && [ -r "$sys_libdir/libpmix.so" ] &&
    $cc -std=gnu11 -I"$sys_inc" -o "$e2e_tmp/e2e_nodes_wire" "$s/test/e2e/e2e_nodes.c" \
        -L"$sys_libdir" -Wl,--disable-new-dtags,-rpath,"$sys_libdir" -lpmix 2>"$e2e_tmp/cc3.err"; then
    on1 "$e2e_tmp/nodes3.out" ./wrun -H node1,node2,node3 --keep-library-path \
        --mca server_verbose 100 -np 4 "$e2e_tmp/e2e_nodes_wire" 3 : -np 2 test/e2e/e2e_nodes 3
    n=$(e2e_count_lines "$e2e_tmp/nodes3.out" "^nodes rank [0-5]: ok")
    # wrun's own server (node1) logs its two OpenPMIx clients
    o=$(e2e_count_lines "$e2e_tmp/nodes3.out" "OpenPMIx [^ ]* client .* connecting (")
    if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 6 ] && [ "$o" -eq 2 ] &&
        leftovers "e2e_nodes (OpenPMIx's library and ours)"; then
        e2e_ok "one job on OpenPMIx's library (node1, node2) and Wireup's (node3): e2e_nodes passes"
    else
        e2e_not_ok "mixed libraries across 3 nodes (exit $e2e_rc, $n ranks ok, $o OpenPMIx clients on node1)"
        grep -v 'server: server: .* request (tag' "$e2e_tmp/nodes3.out" | tail -n 20 | sed 's/^/# /'
    fi
else
    e2e_skip "OpenPMIx development files not installed (libpmix-dev)"
fi

# 15-16: PMIx_Job_control across nodes: rank 2 (node2: through its daemon) kills rank 5
# (node3), rank 0 (the head's node) kills rank 3 (node2); the others fence among themselves and
# exit 0
for req_victim in "2 5 node3" "0 3 node2"; do
    # shellcheck disable=SC2086 # three words
    set -- $req_victim
    on1 "$e2e_tmp/jc.out" ./wrun -H $mn_hosts -np $mn_np test/e2e/e2e_jobctl kill "$1" "$2"
    n=$(e2e_count_lines "$e2e_tmp/jc.out" "^jobctl rank [0-5]: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 5 ] &&
        grep -q "rank $2 of job .* killed at the request of rank $1" "$e2e_tmp/jc.out" &&
        leftovers "e2e_jobctl kill $1 $2"; then
        e2e_ok "Job_control: rank $1 kills rank $2 on $3, the other ranks go on, exit 0"
    else
        e2e_not_ok "Job_control: rank $1 kills rank $2 on $3 (exit $e2e_rc, $n ranks ok)"
        e2e_diag "$e2e_tmp/jc.out"
    fi
done

# 17-18: stdin to a rank on another node
head -c 5000000 /dev/urandom >"$e2e_tmp/in.bin"
want=$(md5sum <"$e2e_tmp/in.bin")
# shellcheck disable=SC2016 # for the ranks' shell
(cd "$b" && TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 $pre ./wrun -H node1,node2,node3 \
    -np 3 --map-by node --stdin 1 sh -c \
    'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then echo "$(md5sum) $(hostname)"; fi' \
    <"$e2e_tmp/in.bin") >"$e2e_tmp/stdin.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -qxF "$want node2" "$e2e_tmp/stdin.out" && leftovers "--stdin 1"; then
    e2e_ok "--stdin 1: 5 MB of wrun's stdin reach rank 1 on node2 intact"
else
    e2e_not_ok "--stdin 1 across nodes (exit $rc), want '$want node2'"
    e2e_diag "$e2e_tmp/stdin.out"
fi
(cd "$b" && echo "to node2" | TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 $pre ./wrun \
    -H node2,node3 -np 2 cat) >"$e2e_tmp/stdin2.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ "$(cat "$e2e_tmp/stdin2.out")" = "to node2" ] && leftovers "stdin, no rank here"; then
    e2e_ok "-H node2,node3 from node1: rank 0 on node2 reads wrun's stdin"
else
    e2e_not_ok "stdin when wrun's node runs no rank (exit $rc)"
    e2e_diag "$e2e_tmp/stdin2.out"
fi

# 19: SIGTERM to wrun reaches the ranks of every node
start_sleepers "$e2e_tmp/term.out"
w=$(lab_ours '^[^ ]*wrun -H .* sleep 3141' | head -1)
t0=$(date +%s)
[ -n "$w" ] && kill -TERM "$w"
wait "$job"
rc=$?
t1=$(date +%s)
if [ "$rc" -eq 143 ] && [ $((t1 - t0)) -le 5 ] && leftovers "SIGTERM"; then
    e2e_ok "SIGTERM to wrun: every node's ranks end, wrun exits 143 within $((t1 - t0)) s"
else
    e2e_not_ok "SIGTERM to wrun (pid '$w'): exit $rc after $((t1 - t0)) s"
    e2e_diag "$e2e_tmp/term.out"
fi

# 20: --timeout names what the ranks of every node wait in (rank 5 never becomes a client)
if tmo_run "$e2e_tmp/tmo.out" && grep -q "Ranks still running: 0-5" "$e2e_tmp/tmo.out" &&
    grep -q "node1: ranks 0-1 in a fence" "$e2e_tmp/tmo.out" &&
    leftovers "--timeout"; then
    e2e_ok "--timeout 4: exit 110, the report names each node's blocked ranks"
else
    e2e_not_ok "--timeout across nodes (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/tmo.out"
fi

# 21-22: node2's link is cut mid-job (no reset reaches anyone: only silence)
start_sleepers "$e2e_tmp/cut.out"
t0=$(date +%s)
timeout 20 "$lab" on node2 ip link set eth0 down
wait "$job"
rc=$?
t1=$(date +%s)
if [ "$rc" -ne 0 ] && [ $((t1 - t0)) -le 12 ] && grep -q "node2" "$e2e_tmp/cut.out" &&
    ! grep -q "see errno" "$e2e_tmp/cut.out"; then
    e2e_ok "node2's link cut: wrun exits $rc within $((t1 - t0)) s naming node2 and why: $(grep -m1 node2 "$e2e_tmp/cut.out")"
else
    e2e_not_ok "node2's link cut: exit $rc after $((t1 - t0)) s"
    e2e_diag "$e2e_tmp/cut.out"
fi
# node2's daemon notices by itself (keepalive) and takes its ranks along
until_gone 150
if leftovers "the cut link"; then
    e2e_ok "after the cut, node2's daemon and ranks end by themselves ($((i / 10)).$((i % 10)) s)"
else
    e2e_not_ok "leftovers after the cut link"
fi
lab_stop
e2e_exit
