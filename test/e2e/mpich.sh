#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 31): programs of the MPICH family under wrun, through its PMI-1/PMI-2 server
# (PMI_FD). With Debian's MPICH (mpicc.mpich; 4.0.2 on Debian 12, 4.2.1 on Debian 13):
# mpi_shapes.c's ring, Allreduce, Alltoall and Barrier at -np 1, 2, 4 and 8 as one job (not
# singletons), MPMD contexts forming one world, mpi_features.c (threads, a shared-memory window,
# MPI-IO) at -np 1 and 4, mpi_dpm.c's name service (publish, lookup by every rank, unpublish;
# Debian's MPICH, on UCX, cannot open ports, so spawn and connect/accept fail there under any
# launcher), MPI_Abort(comm, 7) making wrun exit 7, a rank's crash ending the job
# with 128+signal, and, with MPICH 4.1 or later, the same ring through PMI-2
# (MPIR_CVAR_PMI_VERSION=2). Without MPICH: the wire contract by hand (e2e_pmi.py: every PMI-1
# and PMI-2 command MPICH sends, answers checked word for word; the name service; spawn with a
# preput value, through both protocols; --timeout naming who waits in a barrier for whom), a
# fullinit naming another rank
# refused, a message that is not PMI and one longer than 64 KiB each closing only that
# process's connection with a message naming it, the variables (PMI_RANK, PMI_SIZE, PMI_FD) set
# and removed with pmdl_mpich_serve 0. Nothing is left in the job's TMPDIR.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 25
e2e_mktemp
py=$(command -v python3)
pmi="$s/test/e2e/e2e_pmi.py"

# 1-4: the wire contract by hand, 3 ranks
for mode in v1 v2; do
    e2e_wrun "$e2e_tmp/out" 3 "$py" "$pmi" $mode
    if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^pmi [0-2]: $mode ok$")" -eq 3 ] &&
        grep -q '^mapping: (vector,(0,1,3))$' "$e2e_tmp/out"; then
        e2e_ok "PMI-$mode by hand: every command answered as MPICH expects, 3 ranks"
    else
        e2e_not_ok "PMI $mode by hand (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
# the name service and spawn by hand, through both protocols
for mode in names1 names2; do
    WU_TEST_TAG=$$ e2e_wrun "$e2e_tmp/out" 3 "$py" "$pmi" $mode
    if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^pmi [0-2]: $mode ok$")" -eq 3 ]; then
        e2e_ok "PMI $mode: publish (a second time refused), lookup by every rank, unpublish"
    else
        e2e_not_ok "PMI $mode (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
for mode in spawn1 spawn2; do
    e2e_wrun "$e2e_tmp/out" 2 "$py" "$pmi" $mode
    if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^pmi [0-1]: $mode ok$")" -eq 2 ] &&
        [ "$(e2e_count_lines "$e2e_tmp/out" "^pmi [0-1]: child${mode#spawn} ok$")" -eq 2 ]; then
        e2e_ok "PMI $mode: 2 children with PMI_SPAWNED and the parent's preput value"
    else
        e2e_not_ok "PMI $mode (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
# --timeout names the ranks waiting in a PMI barrier and the one that never came
e2e_wrun "$e2e_tmp/out" 3 --timeout 3 "$py" "$pmi" stuck
if [ "$e2e_rc" -eq 110 ] &&
    grep -q "ranks 0-1 in PMI's barrier that rank 2 has not reached" "$e2e_tmp/out"; then
    e2e_ok "--timeout 3: exit 110, ranks 0-1 named in PMI's barrier that rank 2 has not reached"
else
    e2e_not_ok "--timeout with a PMI barrier (wrun exit $e2e_rc, want 110)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 2 "$py" "$pmi" badrank
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "badrank ok$")" -eq 2 ]; then
    e2e_ok "PMI-2 fullinit naming another rank is refused (rc=-1)"
else
    e2e_not_ok "fullinit with another rank (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
for mode in garbage huge; do
    e2e_wrun "$e2e_tmp/out" 2 "$py" "$pmi" $mode
    if [ "$mode" = garbage ]; then
        what="a message that is not PMI"
    else
        what="a message longer than 64 KiB"
    fi
    if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "$mode ok$")" -eq 2 ] &&
        grep -q "process rank 1 on node .* sent $what on its PMI connection" "$e2e_tmp/out"; then
        e2e_ok "$what closes that process's PMI connection, named; the job goes on"
    else
        e2e_not_ok "$mode on the PMI connection (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done

# 11-12: the variables, and pmdl_mpich_serve 0
e2e_wrun "$e2e_tmp/out" 2 sh -c 'echo "vars $PMI_RANK $PMI_SIZE $MPI_LOCALRANKID $MPI_LOCALNRANKS" \
    "$(test -S /proc/self/fd/$PMI_FD && echo socket)"'
if [ "$e2e_rc" -eq 0 ] && grep -q '^vars 0 2 0 2 socket$' "$e2e_tmp/out" &&
    grep -q '^vars 1 2 1 2 socket$' "$e2e_tmp/out"; then
    e2e_ok "every process has PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS and PMI_FD"
else
    e2e_not_ok "PMI variables (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
PMI_PORT=elsewhere:1 e2e_wrun "$e2e_tmp/out" 1 --mca pmdl_mpich_serve 0 sh -c \
    'echo "vars ${PMI_FD:-none} ${PMI_RANK:-none} ${PMI_PORT:-none}"'
if [ "$e2e_rc" -eq 0 ] && grep -q '^vars none none none$' "$e2e_tmp/out"; then
    e2e_ok "pmdl_mpich_serve 0: no PMI connection, an enclosing launcher's PMI_PORT removed"
else
    e2e_not_ok "pmdl_mpich_serve 0 (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 13-25: Debian's MPICH
if ! command -v mpicc.mpich >/dev/null 2>&1; then
    k=13
    while [ "$k" -le 25 ]; do
        e2e_skip "MPICH is not installed (mpicc.mpich; contrib/deps.sh --test installs it)"
        k=$((k + 1))
    done
    e2e_exit
fi
prog="$e2e_tmp/mpi_shapes"
feat="$e2e_tmp/mpi_features"
dpm="$e2e_tmp/mpi_dpm"
if mpicc.mpich -o "$prog" "$s/test/e2e/mpi_shapes.c" 2>"$e2e_tmp/cc.err" &&
    mpicc.mpich -o "$feat" "$s/test/e2e/mpi_features.c" -lpthread 2>>"$e2e_tmp/cc.err" &&
    mpicc.mpich -o "$dpm" "$s/test/e2e/mpi_dpm.c" 2>>"$e2e_tmp/cc.err"; then
    e2e_ok "mpi_shapes, mpi_features and mpi_dpm built with MPICH's mpicc.mpich"
else
    e2e_not_ok "mpicc.mpich could not build the test programs"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
fi
for np in 1 2 4 8; do
    e2e_wrun "$e2e_tmp/out" "$np" "$prog"
    if [ "$e2e_rc" -eq 0 ] &&
        grep -q "^mpi_shapes: $np ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
        e2e_ok "MPICH wrun -np $np: ring, allreduce, alltoall, barrier as one job"
    else
        e2e_not_ok "MPICH wrun -np $np (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_wrun "$e2e_tmp/out" 2 "$prog" : -n 2 "$prog"
if [ "$e2e_rc" -eq 0 ] &&
    grep -q "^mpi_shapes: 4 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
    e2e_ok "MPICH MPMD, wrun -np 2 prog : -np 2 prog: one world of 4 ranks"
else
    e2e_not_ok "MPICH MPMD (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
for np in 1 4; do
    e2e_wrun "$e2e_tmp/out" "$np" "$feat" "$e2e_tmp"
    if [ "$e2e_rc" -eq 0 ] &&
        grep -q "^mpi_features: $np ranks: threads shmwin io ok$" "$e2e_tmp/out"; then
        e2e_ok "MPICH wrun -np $np: MPI_THREAD_MULTIPLE, shared-memory window, MPI-IO"
    else
        e2e_not_ok "MPICH mpi_features -np $np (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_wrun "$e2e_tmp/out" 3 "$dpm" names "wu-mpich-$$"
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm names: rank [0-2] ok")" -eq 3 ]; then
    e2e_ok "MPICH MPI_Publish_name, MPI_Lookup_name by 3 ranks, MPI_Unpublish_name"
else
    e2e_not_ok "MPICH name service (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 4 "$prog" abort 1 7
if [ "$e2e_rc" -eq 7 ] && grep -q "rank 1 of job .* with status 7" "$e2e_tmp/out"; then
    e2e_ok "MPICH MPI_Abort(MPI_COMM_WORLD, 7) from rank 1 of 4: wrun exits 7, naming rank 1"
else
    e2e_not_ok "MPICH MPI_Abort (wrun exit $e2e_rc, want 7)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 4 "$prog" crash 2
if [ "$e2e_rc" -eq 139 ] && grep -q "rank 2 .* exited on signal 11" "$e2e_tmp/out"; then
    e2e_ok "an MPICH rank's crash ends the job: wrun exits 139, naming rank 2"
else
    e2e_not_ok "MPICH crash (wrun exit $e2e_rc, want 139)"
    e2e_diag "$e2e_tmp/out"
fi
# PMI-2: MPICH chooses it at run time from 4.1 on
ver=$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p')
case "$ver" in
4.0* | 3.* | "")
    e2e_skip "MPICH ${ver:-of unknown version} chooses PMI-2 only when built for it"
    e2e_skip "MPICH ${ver:-of unknown version} chooses PMI-2 only when built for it"
    ;;
*)
    for np in 2 4; do
        MPIR_CVAR_PMI_VERSION=2 e2e_wrun "$e2e_tmp/out" "$np" "$prog"
        if [ "$e2e_rc" -eq 0 ] &&
            grep -q "^mpi_shapes: $np ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
            e2e_ok "MPICH $ver through PMI-2, -np $np: ring, allreduce, alltoall, barrier"
        else
            e2e_not_ok "MPICH $ver PMI-2 -np $np (wrun exit $e2e_rc)"
            e2e_diag "$e2e_tmp/out"
        fi
    done
    ;;
esac
e2e_exit
