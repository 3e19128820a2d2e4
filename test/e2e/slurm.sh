#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 15, root only): Wireup as the PMIx library of Slurm 22.05 (Debian's slurm-wlm,
# mpi/pmix) and of Open MPI's mpirun across nodes. A 3-node lab runs munged, slurmctld and a
# slurmd per node, with our libpmix.so.2 bound over OpenPMIx's in every node, so that
# slurmstepd (the PMIx server), the tasks and Open MPI all load ours. Checked: srun -N 3; every
# slurmstepd maps our library; `srun -N 3 --mpi=pmix -n 6` of an Open MPI ring/collectives
# program; of a PMIx client exchanging data with a collecting fence, with a fence that does not
# collect, and by direct modex; Resolve_peers/Resolve_nodes across the nodes; Open MPI's mpirun
# over ssh on all three nodes; nothing of the jobs left on any node. wrun inside allocations:
# `salloc -N 3 wrun -np 6` of Open MPI's program, placement by node and the allocation's slots
# (with ssh disabled, so wired can only come through srun), -H among the allocation's nodes, an
# sbatch script running wrun, and scancel during a wrun job (salloc and sbatch) leaving no
# process or file on any node. Skipped in sanitizer builds
# (slurmstepd would need the sanitizer runtime) and where Slurm, munge or Open MPI are missing
# (contrib/deps.sh --test installs them).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=14
e2e_plan $lab_tests
e2e_mktemp
. "$s/test/e2e/lab_lib.sh"
for c in slurmd slurmctld munged srun mpicc mpirun; do
    command -v "$c" >/dev/null 2>&1 || lab_skip_all "$c is missing (contrib/deps.sh --test)"
done
lib="$b/.libs/libpmix.so.2"
cc=${CC:-cc}
. "$s/test/abi/lib.sh"
[ -z "$wu_abi_preload" ] || lab_skip_all "a sanitizer build: slurmstepd would need its runtime"
# our programs and Open MPI's, built before the lab comes up
for p in mpi_shapes; do
    mpicc -o "$e2e_tmp/$p" "$s/test/e2e/$p.c" 2>"$e2e_tmp/cc.err" ||
        lab_skip_all "mpicc could not build $p.c"
done
e2e_openpmix_build "$e2e_tmp/mapinfo" "$s/test/e2e/e2e_mapinfo.c" ||
    lab_skip_all "e2e_mapinfo.c needs OpenPMIx's headers (libpmix-dev)"
WU_LAB_SLURM=1 WU_LAB_PMIX_LIB=$(readlink -f "$lib")
export WU_LAB_SLURM WU_LAB_PMIX_LIB
lab_start wsl$$ 3

# 1
lab_on node1 "$e2e_tmp/out" srun -N 3 hostname
if [ "$e2e_rc" -eq 0 ] && [ "$(sort "$e2e_tmp/out" | tr '\n' ' ')" = "node1 node2 node3 " ]; then
    e2e_ok "srun -N 3 hostname runs on node1, node2 and node3"
else
    e2e_not_ok "srun -N 3 hostname (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 2: the PMIx server of each step is ours (the file bound over OpenPMIx's has our inode)
ino=$(stat -L -c %i "$WU_LAB_PMIX_LIB")
# shellcheck disable=SC2016 # expanded by the task's shell
lab_on node1 "$e2e_tmp/out" srun -N 3 -n 3 --mpi=pmix sh -c \
    'awk "/libpmix/ { print \$5 }" /proc/$PPID/maps | sort -u'
if [ "$e2e_rc" -eq 0 ] && [ "$(sort -u "$e2e_tmp/out")" = "$ino" ] &&
    [ "$(wc -l <"$e2e_tmp/out")" -eq 3 ]; then
    e2e_ok "slurmstepd maps our libpmix.so.2 on every node"
else
    e2e_not_ok "slurmstepd's libpmix is not ours everywhere (want inode $ino, exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 3: Open MPI, direct launch
lab_on node2 "$e2e_tmp/out" srun -N 3 --mpi=pmix -n 6 "$e2e_tmp/mpi_shapes"
if [ "$e2e_rc" -eq 0 ] &&
    grep -q "^mpi_shapes: 6 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
    e2e_ok "srun -N 3 --mpi=pmix -n 6: Open MPI ring, allreduce, alltoall, barrier"
else
    e2e_not_ok "srun --mpi=pmix of Open MPI's mpi_shapes (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 4-6: a PMIx client's data exchange across the nodes
for mode in collect nocollect direct; do
    lab_on node1 "$e2e_tmp/out" srun -N 3 --mpi=pmix -n 6 "$e2e/e2e_exchange" $mode
    good=$(e2e_count_lines "$e2e_tmp/out" "^exchange $mode: rank [0-5] of 6: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 6 ]; then
        e2e_ok "srun --mpi=pmix -n 6 e2e_exchange $mode: every rank's data on every node"
    else
        e2e_not_ok "srun --mpi=pmix e2e_exchange $mode (exit $e2e_rc, $good of 6 ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

# 7: Resolve_peers of the own node (2 ranks each, block distribution) and Resolve_nodes
lab_on node1 "$e2e_tmp/out" srun -N 3 --ntasks-per-node=2 --mpi=pmix "$e2e_tmp/mapinfo"
peers=$(grep -c "^[0-5] resolve peers: SUCCESS 2 " "$e2e_tmp/out")
nodes=$(grep "^[0-5] resolve nodes: SUCCESS " "$e2e_tmp/out" | sed 's/.*SUCCESS //' |
    tr ',' '\n' | sort -u | tr '\n' ' ')
if [ "$e2e_rc" -eq 0 ] && [ "$peers" -eq 6 ] && [ "$nodes" = "node1 node2 node3 " ]; then
    e2e_ok "Resolve_peers: 2 ranks on each node; Resolve_nodes: node1, node2, node3"
else
    e2e_not_ok "Resolve under srun (exit $e2e_rc, $peers of 6 peer lists right, nodes '$nodes')"
    e2e_diag "$e2e_tmp/out"
fi

# 8: Open MPI's own mpirun (over ssh, orted on each node) on our library
lab_on node1 "$e2e_tmp/out" mpirun --allow-run-as-root --host node1:2,node2:2,node3:2 -np 6 \
    "$e2e_tmp/mpi_shapes"
if [ "$e2e_rc" -eq 0 ] &&
    grep -q "^mpi_shapes: 6 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
    e2e_ok "mpirun --host node1:2,node2:2,node3:2 -np 6: ring, allreduce, alltoall, barrier"
else
    e2e_not_ok "mpirun across the lab's nodes (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 9-13: wrun inside allocations. ssh is disabled (the remote agent is false): wired can only
# be started through srun, by pls/slurm.
nossh="env PMIX_MCA_pls_rsh_agent=false"
lab_on node1 "$e2e_tmp/out" salloc -N 3 $nossh ./wrun -np 6 --map-by node "$e2e_tmp/mpi_shapes"
if [ "$e2e_rc" -eq 0 ] &&
    grep -q "^mpi_shapes: 6 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
    e2e_ok "salloc -N 3 wrun -np 6 --map-by node: Open MPI ring, allreduce, alltoall, barrier"
else
    e2e_not_ok "salloc -N 3 wrun -np 6 --map-by node mpi_shapes (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 10: the allocation's nodes and slots: by node, rank r on node (r mod 3)+1; without -np one
# rank per slot (4 CPUs a node, whole nodes); -H picks among the nodes; a node outside it, or
# more ranks than the tasks asked for, is refused with a message that says so
lab_on node1 "$e2e_tmp/out" salloc -N 3 $nossh ./wrun -np 6 --map-by node --tag-output hostname
bynode=$(sed -n 's/^\[1,\([0-9]\)\]<stdout>:\(node[0-9]\)$/\1 \2/p' "$e2e_tmp/out" | sort |
    tr '\n' ' ')
lab_on node1 "$e2e_tmp/out2" salloc -N 3 $nossh ./wrun hostname
lab_on node1 "$e2e_tmp/out3" salloc -N 3 $nossh ./wrun -H node2,node3 --map-by node -np 4 hostname
picked=$(grep '^node' "$e2e_tmp/out3" | sort | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')
lab_on node1 "$e2e_tmp/out4" salloc -N 3 $nossh ./wrun -H node1,node9 -np 2 hostname
rc4=$e2e_rc
lab_on node1 "$e2e_tmp/out5" salloc -N 3 --ntasks-per-node=1 $nossh ./wrun -np 6 hostname
rc5=$e2e_rc
if [ "$bynode" = "0 node1 1 node2 2 node3 3 node1 4 node2 5 node3 " ] &&
    [ "$(grep -c '^node[123]$' "$e2e_tmp/out2")" -eq 12 ] && [ "$picked" = "2node2 2node3 " ] &&
    [ "$rc4" -ne 0 ] && grep -q 'node9" given with -H is not in the slurm allocation' \
    "$e2e_tmp/out4" && [ "$rc5" -ne 0 ] &&
    grep -q "slots as the slurm allocation gives them" "$e2e_tmp/out5"; then
    e2e_ok "the allocation's nodes and slots: by node, one rank per slot, -H among them, errors"
else
    e2e_not_ok "wrun inside salloc: placement '$bynode', picked '$picked', exits $rc4 $rc5"
    for f in out out2 out3 out4 out5; do e2e_diag "$e2e_tmp/$f"; done
fi

# 11: an sbatch script running wrun (sbatch --wait: its exit is the script's)
printf '#!/bin/sh\n%s ./wrun -np 6 --map-by node %s\n' "$nossh" "$e2e_tmp/mpi_shapes" \
    >"$e2e_tmp/job.sh"
chmod +x "$e2e_tmp/job.sh"
lab_on node1 "$e2e_tmp/out" sbatch -N 3 --wait -o "$e2e_tmp/job.out" "$e2e_tmp/job.sh"
if [ "$e2e_rc" -eq 0 ] &&
    grep -q "^mpi_shapes: 6 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/job.out"; then
    e2e_ok "sbatch -N 3 of a script running wrun -np 6 --map-by node mpi_shapes"
else
    e2e_not_ok "sbatch of a script running wrun (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
    e2e_diag "$e2e_tmp/job.out"
fi

# 12-13: scancel while wrun runs a job on every node, from salloc and from sbatch
# running: the number of `sleep 3141` processes of this test on the lab's nodes
running() {
    n_run=0
    for p in $(env -u LD_PRELOAD pgrep -f "^sleep 3141"); do
        if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qxF "TMPDIR=$e2e_tmp/t"; then
            n_run=$((n_run + 1))
        fi
    done
    echo $n_run
}
# cancel_test HOW: start the job, wait for its 6 ranks, scancel it, wait until Slurm ended it
cancel_test() {
    rm -f "$e2e_tmp/c.job"
    if [ "$1" = salloc ]; then
        # shellcheck disable=SC2086 # $lab_env and $nossh are words
        (cd "$b" && TMPDIR="$e2e_tmp/t" timeout 120 "$lab" on node1 $lab_env salloc -N 3 \
            $nossh ./wrun -np 6 --map-by node sleep 3141) >"$e2e_tmp/c.out" 2>&1 &
    else
        printf '#!/bin/sh\n%s ./wrun -np 6 --map-by node sleep 3141\n' "$nossh" >"$e2e_tmp/c.sh"
        chmod +x "$e2e_tmp/c.sh"
        lab_on node1 "$e2e_tmp/c.out" sbatch -N 3 -o "$e2e_tmp/c.job" "$e2e_tmp/c.sh"
    fi
    k=0
    while [ "$(running)" -lt 6 ] && [ $k -lt 300 ]; do
        sleep 0.1
        k=$((k + 1))
    done
    seen=$(running)
    lab_on node1 "$e2e_tmp/c.ids" squeue -h -o %i
    # shellcheck disable=SC2046 # the job ids are words
    lab_on node1 "$e2e_tmp/c.cancel" scancel $(cat "$e2e_tmp/c.ids")
    k=0
    while [ $k -lt 300 ]; do
        lab_on node1 "$e2e_tmp/c.ids" squeue -h -o %i
        if [ ! -s "$e2e_tmp/c.ids" ] && [ "$(running)" -eq 0 ]; then
            break
        fi
        sleep 0.1
        k=$((k + 1))
    done
    wait
    if [ "$seen" -eq 6 ] && [ ! -s "$e2e_tmp/c.ids" ] &&
        lab_left "wrun|wired|sleep 3141|srun|salloc" "scancel of the $1 job"; then
        e2e_ok "scancel of a running wrun job ($1): no process or file left on any node"
    else
        e2e_not_ok "scancel of a wrun job ($1): $seen of 6 ranks ran; jobs left: $(cat "$e2e_tmp/c.ids")"
        e2e_diag "$e2e_tmp/c.out"
        [ ! -f "$e2e_tmp/c.job" ] || e2e_diag "$e2e_tmp/c.job"
    fi
}
cancel_test salloc
cancel_test sbatch

# 14
if lab_left "mpi_shapes|e2e_exchange|mapinfo|orted" "the jobs"; then
    e2e_ok "no task, orted or file of the jobs is left on any node"
else
    e2e_not_ok "the jobs left processes or files behind"
fi
e2e_exit
