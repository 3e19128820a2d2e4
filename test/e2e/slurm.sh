#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 15, root only): Wireup as the PMIx library of Slurm 22.05 (Debian's slurm-wlm,
# mpi/pmix) and of Open MPI's mpirun across nodes. A 3-node lab runs munged, slurmctld and a
# slurmd per node, with our libpmix.so.2 bound over OpenPMIx's in every node, so that
# slurmstepd (the PMIx server), the tasks and Open MPI all load ours. Checked: srun -N 3; every
# slurmstepd maps our library; `srun -N 3 --mpi=pmix -n 6` of an Open MPI ring/collectives
# program; of a PMIx client exchanging data with a collecting fence, with a fence that does not
# collect, and by direct modex; Resolve_peers/Resolve_nodes across the nodes; Open MPI's mpirun
# over ssh on all three nodes; nothing of the jobs left on any node. Skipped in sanitizer builds
# (slurmstepd would need the sanitizer runtime) and where Slurm, munge or Open MPI are missing
# (contrib/deps.sh --test installs them).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=9
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

# 9
if lab_left "mpi_shapes|e2e_exchange|mapinfo|orted" "the jobs"; then
    e2e_ok "no task, orted or file of the jobs is left on any node"
else
    e2e_not_ok "the jobs left processes or files behind"
fi
e2e_exit
