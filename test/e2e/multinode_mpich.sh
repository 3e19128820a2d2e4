#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 31, root only): MPICH-family processes across the nodes of a 3-node test/lab
# lab, wrun on node1 and wired on node2 and node3 serving them PMI. By hand (e2e_pmi.py), 6 ranks
# by slot and by node: PMI-1 and PMI-2 puts reach every node through the barrier (the job's
# fence across nodes), PMI_process_mapping describes the placement ("(vector,(0,3,2))" and
# "(vector,(0,3,1),(0,3,1))"), node attributes stay on their node; the name service with the
# publisher on node1 and lookups from node2 and node3; spawn from a rank on node2, both
# protocols, the children getting the preput value; --timeout naming the ranks waiting in
# PMI's barrier on each node and the one missing. With Debian's MPICH
# (mpicc.mpich): the ring, Allreduce, Alltoall and Barrier of mpi_shapes.c on 6 ranks by slot and
# by node over TCP, through PMI-2 as well where MPICH chooses it at run time (4.1 and later);
# MPI_Publish_name on node1 found by the ranks of node2 and node3;
# MPI_Abort(comm, 7) of rank 3 (on node2) makes wrun exit 7 naming it; a crash of rank 5 (node3)
# ends the job with 139. Nothing of the jobs is left on any node. The lab is taken down at exit.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=14
e2e_plan $lab_tests
e2e_mktemp
. "$s/test/e2e/lab_lib.sh"
lab_start wmp$$ 3
py=$(command -v python3)

leftovers() {
    lab_left '^[^ ]*(wired --node|mpi_shapes|mpi_dpm|e2e_pmi)|^ssh .*wired' "$1"
}

# 1-4: the wire contract by hand across nodes
for how in "-H node1,node2,node3" "-H node1,node2,node3 --map-by node"; do
    case "$how" in
    *node) want='(vector,(0,3,1),(0,3,1))' ;;
    *) want='(vector,(0,3,2))' ;;
    esac
    for mode in v1 v2; do
        # shellcheck disable=SC2086 # $how is words
        lab_on node1 "$e2e_tmp/out" ./wrun $how -np 6 "$py" "$s/test/e2e/e2e_pmi.py" $mode
        if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" ": $mode ok$")" -eq 6 ] &&
            grep -qF "mapping: $want" "$e2e_tmp/out" && leftovers "e2e_pmi $mode $how"; then
            e2e_ok "PMI-$mode by hand, 6 ranks on 3 nodes ($how): puts seen everywhere, $want"
        else
            e2e_not_ok "PMI $mode by hand across nodes, $how (exit $e2e_rc)"
            e2e_diag "$e2e_tmp/out"
        fi
    done
done

# 5-7: the name service and spawn from a rank of node2 (its wired asks wrun)
WU_TEST_TAG=$$ lab_on node1 "$e2e_tmp/out" ./wrun -H node1,node2,node3 --map-by node -np 6 -x WU_TEST_TAG "$py" \
    "$s/test/e2e/e2e_pmi.py" names1
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" ": names1 ok$")" -eq 6 ] &&
    leftovers "e2e_pmi names1"; then
    e2e_ok "PMI-1 names across nodes: rank 0 publishes, the ranks of node2 and node3 look it up"
else
    e2e_not_ok "PMI-1 names across nodes (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
for mode in spawn1 spawn2; do
    E2E_SPAWNER=1 lab_on node1 "$e2e_tmp/out" ./wrun -H node1,node2,node3 --map-by node -np 3 \
        -x E2E_SPAWNER "$py" "$s/test/e2e/e2e_pmi.py" $mode
    if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" ": $mode ok$")" -eq 3 ] &&
        [ "$(e2e_count_lines "$e2e_tmp/out" ": child${mode#spawn} ok$")" -eq 2 ] &&
        leftovers "e2e_pmi $mode"; then
        e2e_ok "PMI $mode from rank 1 on node2: 2 children with the preput value"
    else
        e2e_not_ok "PMI $mode from node2 (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done

# 8: --timeout names, node by node, who waits in PMI's barrier for whom
lab_on node1 "$e2e_tmp/out" ./wrun -H node1,node2,node3 -np 6 --timeout 4 "$py" \
    "$s/test/e2e/e2e_pmi.py" stuck
if [ "$e2e_rc" -eq 110 ] &&
    grep -q "node1: ranks 0-1 in PMI's barrier, waiting for other nodes" "$e2e_tmp/out" &&
    grep -q "node3: rank 4 in PMI's barrier that rank 5 has not reached" "$e2e_tmp/out" &&
    leftovers "e2e_pmi stuck"; then
    e2e_ok "--timeout across nodes: exit 110, node3's rank 5 named as missing from PMI's barrier"
else
    e2e_not_ok "--timeout with a PMI barrier across nodes (exit $e2e_rc, want 110)"
    e2e_diag "$e2e_tmp/out"
fi

# 9-14: Debian's MPICH across the nodes
if ! command -v mpicc.mpich >/dev/null 2>&1 ||
    ! mpicc.mpich -o "$e2e_tmp/mpi_shapes" "$s/test/e2e/mpi_shapes.c" 2>"$e2e_tmp/cc.err"; then
    for k in 9 10 11 12 13 14; do
        e2e_skip "MPICH is not installed (mpicc.mpich; contrib/deps.sh --test installs it)"
    done
    e2e_exit
fi
prog="$e2e_tmp/mpi_shapes"
ver=$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p')
for how in "-H node1,node2,node3" "-H node1,node2,node3 --map-by node" pmi2; do
    pre=
    if [ "$how" = pmi2 ]; then
        case "$ver" in
        4.0* | 3.* | "")
            e2e_skip "MPICH ${ver:-of unknown version} chooses PMI-2 only when built for it"
            continue
            ;;
        esac
        how="-H node1,node2,node3 --map-by node"
        pre="-x MPIR_CVAR_PMI_VERSION=2"
    fi
    # shellcheck disable=SC2086 # $how and $pre are words
    lab_on node1 "$e2e_tmp/out" ./wrun $how -np 6 $pre "$prog"
    if [ "$e2e_rc" -eq 0 ] &&
        grep -q "^mpi_shapes: 6 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out" &&
        leftovers "MPICH $how $pre"; then
        e2e_ok "MPICH $ver ring, allreduce, alltoall, barrier, 6 ranks on 3 nodes, $how $pre"
    else
        e2e_not_ok "MPICH across 3 nodes, $how $pre (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
if mpicc.mpich -o "$e2e_tmp/mpi_dpm" "$s/test/e2e/mpi_dpm.c" 2>"$e2e_tmp/cc.err"; then
    lab_on node1 "$e2e_tmp/out" ./wrun -H node1,node2,node3 --map-by node -np 3 \
        "$e2e_tmp/mpi_dpm" names "wu-mpich-lab-$$"
    if [ "$e2e_rc" -eq 0 ] &&
        [ "$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm names: rank [0-2] ok")" -eq 3 ] &&
        leftovers "MPICH names"; then
        e2e_ok "MPICH publish on node1, lookups from node2 and node3, unpublish"
    else
        e2e_not_ok "MPICH name service across nodes (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
else
    e2e_not_ok "mpicc.mpich could not build mpi_dpm.c"
    e2e_diag "$e2e_tmp/cc.err"
fi
lab_on node1 "$e2e_tmp/out" ./wrun -H node1,node2,node3 -np 6 "$prog" abort 3 7
if [ "$e2e_rc" -eq 7 ] && grep -q "rank 3 of job .* with status 7" "$e2e_tmp/out" &&
    leftovers "MPICH abort"; then
    e2e_ok "MPICH MPI_Abort(comm, 7) of rank 3 on node2: wrun exits 7 naming it"
else
    e2e_not_ok "MPICH abort across nodes (exit $e2e_rc, want 7)"
    e2e_diag "$e2e_tmp/out"
fi
# (a sanitizer build preloads its runtime into the program, which then reports the crash and
# exits 1 instead of dying of the signal)
lab_on node1 "$e2e_tmp/out" ./wrun -H node1,node2,node3 -np 6 "$prog" crash 5
if { { [ "$e2e_rc" -eq 139 ] && grep -q "rank 5 .* node3 exited on signal 11" "$e2e_tmp/out"; } ||
    { e2e_sanitized && [ "$e2e_rc" -eq 1 ] &&
        grep -q "rank 5 .* node3 exited with status 1" "$e2e_tmp/out"; }; } &&
    leftovers "MPICH crash"; then
    e2e_ok "a crash of MPICH rank 5 on node3 ends the job: wrun exits 139 naming it"
else
    e2e_not_ok "MPICH crash across nodes (exit $e2e_rc, want 139)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
