#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only): jobs across the 3 nodes of a test/lab lab, wrun on node1 starting wired
# on node2 and node3 over ssh. Placement by slot, by node and from a hostfile (2 ranks per node;
# each node runs 2 slots' worth, its core count); a PMIx client's fence with collected data, one
# without, and direct modex across nodes (e2e_exchange); Open MPI's ring/allreduce/alltoall over
# TCP when mpicc is installed; exit status and message of a remote rank that fails; kill -9 of
# node2's wired mid-job (wrun ends within 5 s naming node2); SIGKILL of wrun (the remote ranks
# and daemons are gone within 5 s); after every run no rank, daemon or session directory is left
# on any node. The lab is taken down at exit whatever happens.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
ntests=12
e2e_plan $ntests
e2e_mktemp
lab="$s/test/lab/lab.sh"
name=wmn$$
WU_LAB_DIR=$e2e_tmp/lab
export WU_LAB_DIR

mn_skip() {
    i=0
    while [ "$i" -lt "$ntests" ]; do
        e2e_skip "$1"
        i=$((i + 1))
    done
    e2e_exit
}
[ "$(id -u)" -eq 0 ] || mn_skip "needs root (network, UTS and mount namespaces)"
for c in unshare nsenter ip ssh /usr/sbin/sshd; do
    command -v "$c" >/dev/null 2>&1 || mn_skip "$c is missing (contrib/deps.sh --test installs it)"
done
[ -x "$b/wired" ] || mn_skip "wired is not built in $b"
unshare --net --uts --mount true 2>/dev/null || mn_skip "cannot make namespaces here"

lab_made=0
mn_down() {
    [ "$lab_made" -eq 1 ] || return 0
    lab_made=0
    timeout 60 "$lab" down "$name" >"$e2e_tmp/down.out" 2>&1
}
trap 'mn_down; e2e_cleanup' EXIT
lab_made=1
if ! timeout 90 "$lab" up 3 "$name" >"$e2e_tmp/up.out" 2>&1; then
    e2e_diag "$e2e_tmp/up.out"
    mn_skip "the lab did not come up"
fi

# on1 OUT CMD...: run CMD on node1 in the build tree with the test's TMPDIR, 90 s at most;
# e2e_rc is its exit status
on1() {
    out=$1
    shift
    (cd "$b" && TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 "$@") >"$out" 2>&1
    e2e_rc=$?
}

# leftovers WHAT: nothing of the job on any node (the nodes share the process table and the
# file system): no wired, no rank of the test's programs, nothing in the test's TMPDIR
leftovers() {
    sleep 0.3
    left=$(env -u LD_PRELOAD pgrep -af '^[^ ]*(wired --node|e2e_exchange|mpi_shapes)|^sleep 3141')
    files=$(find "$e2e_tmp/t" -mindepth 1 2>/dev/null | head -5)
    if [ -n "$left" ] || [ -n "$files" ]; then
        echo "# left after $1: processes: $left; files: $files"
        env -u LD_PRELOAD pkill -9 -f '^[^ ]*wired --node|^sleep 3141' 2>/dev/null
        rm -rf "${e2e_tmp:?}/t/"*
        return 1
    fi
    return 0
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

# 4-6: PMIx data exchange across nodes
for mode in collect nocollect direct; do
    on1 "$e2e_tmp/x.$mode.out" ./wrun -H node1,node2,node3 -np 6 test/e2e/e2e_exchange "$mode"
    n=$(e2e_count_lines "$e2e_tmp/x.$mode.out" "^exchange $mode: rank [0-5] of 6: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$n" -eq 6 ] && leftovers "e2e_exchange $mode"; then
        e2e_ok "e2e_exchange $mode across 3 nodes: every rank checked every peer's values"
    else
        e2e_not_ok "e2e_exchange $mode across 3 nodes (exit $e2e_rc, $n ranks ok)"
        e2e_diag "$e2e_tmp/x.$mode.out"
    fi
done

# 7: Open MPI across the nodes over TCP
if command -v mpicc >/dev/null 2>&1 && mpicc -o "$e2e_tmp/mpi_shapes" "$s/test/e2e/mpi_shapes.c" \
    2>"$e2e_tmp/cc.err"; then
    on1 "$e2e_tmp/mpi.out" ./wrun -H node1,node2,node3 -np 6 -x OMPI_MCA_btl=tcp,self \
        "$e2e_tmp/mpi_shapes"
    if [ "$e2e_rc" -eq 0 ] && grep -q "6 ranks: ring allreduce alltoall barrier ok" "$e2e_tmp/mpi.out" &&
        leftovers "mpi_shapes"; then
        e2e_ok "Open MPI ring, allreduce, alltoall and barrier with 6 ranks on 3 nodes"
    else
        e2e_not_ok "Open MPI across 3 nodes (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/mpi.out"
    fi
else
    e2e_skip "Open MPI's mpicc is not installed"
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

# 9-10: kill -9 of node2's wired (map node 1) mid-job
(cd "$b" && TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 ./wrun -H node1,node2,node3 -np 6 \
    sleep 3141) >"$e2e_tmp/kd.out" 2>&1 &
job=$!
i=0
while [ "$(env -u LD_PRELOAD pgrep -fc '^sleep 3141')" -lt 6 ] && [ "$i" -lt 200 ]; do
    sleep 0.1
    i=$((i + 1))
done
wd=$(env -u LD_PRELOAD pgrep -f '^[^ ]*wired --node 1 ' | head -1)
t0=$(date +%s)
[ -n "$wd" ] && kill -9 "$wd"
wait "$job"
rc=$?
t1=$(date +%s)
if [ -n "$wd" ] && [ "$rc" -ne 0 ] && [ $((t1 - t0)) -le 5 ] && grep -q "node2" "$e2e_tmp/kd.out"; then
    e2e_ok "kill -9 of node2's wired: wrun exits $rc within $((t1 - t0)) s naming node2"
else
    e2e_not_ok "kill -9 of node2's wired (pid '$wd'): exit $rc after $((t1 - t0)) s"
    e2e_diag "$e2e_tmp/kd.out"
fi
if leftovers "kill -9 of wired"; then
    e2e_ok "after the daemon's death nothing is left on any node"
else
    e2e_not_ok "leftovers after the daemon's death"
fi

# 11-12: SIGKILL of wrun
(cd "$b" && TMPDIR="$e2e_tmp/t" timeout 90 "$lab" on node1 ./wrun -H node1,node2,node3 -np 6 \
    sleep 3141) >"$e2e_tmp/kw.out" 2>&1 &
job=$!
i=0
while [ "$(env -u LD_PRELOAD pgrep -fc '^sleep 3141')" -lt 6 ] && [ "$i" -lt 200 ]; do
    sleep 0.1
    i=$((i + 1))
done
w=$(env -u LD_PRELOAD pgrep -f '^[^ ]*wrun -H node1,node2,node3 -np 6 sleep' | head -1)
[ -n "$w" ] && kill -9 "$w"
i=0
while [ "$(env -u LD_PRELOAD pgrep -fc '^sleep 3141|^[^ ]*wired --node')" -gt 0 ] && [ "$i" -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
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
mn_down
e2e_exit
