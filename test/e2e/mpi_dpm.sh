#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 14 acceptance): Open MPI 4.1's dynamic process calls under wrun, with Debian's
# mpicc: MPI_Publish_name + MPI_Lookup_name + MPI_Comm_accept/MPI_Comm_connect between two
# ranks of one job (-np 2 to 8), and between two separate wrun jobs (2 ranks each, with the
# default BTLs and with TCP only), each followed by traffic over the intercommunicator and
# MPI_Comm_disconnect; MPI_Comm_spawn of 2 children by the last rank of -np 1 to 8 (an allreduce
# over the intercommunicator, MPI_Intercomm_merge, a barrier) and MPI_Comm_spawn_multiple of two
# commands. Skipped without mpicc.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
if ! command -v mpicc >/dev/null 2>&1; then
    echo "1..0 # SKIP Open MPI is not installed (mpicc not found)"
    exit 0
fi
e2e_plan 19
e2e_mktemp
e2e_foreign_preload
unset OMPI_MCA_btl
prog="$e2e_tmp/mpi_dpm"
if ! mpicc -o "$prog" "$s/test/e2e/mpi_dpm.c" 2>"$e2e_tmp/cc.err"; then
    e2e_diag "$e2e_tmp/cc.err"
    echo "Bail out! mpicc could not build test/e2e/mpi_dpm.c"
    exit 1
fi

for np in 2 3 4 5 6 7 8; do
    e2e_wrun "$e2e_tmp/out" $np "$prog" pair
    good=$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm pair: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $np ]; then
        e2e_ok "wrun -np $np: MPI_Publish_name, MPI_Lookup_name, accept/connect between ranks 0 and 1"
    else
        e2e_not_ok "wrun -np $np: publish/lookup/accept/connect (wrun exit $e2e_rc, $good ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

for btl in default self,tcp; do
    mca=
    [ "$btl" = default ] || mca="--mca btl $btl"
    # shellcheck disable=SC2086 # $mca is words
    TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" -n 2 --oversubscribe $mca "$prog" server wu-dpm-$btl \
        >"$e2e_tmp/s.out" 2>&1 &
    spid=$!
    # shellcheck disable=SC2086
    TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" -n 2 --oversubscribe $mca "$prog" client wu-dpm-$btl \
        >"$e2e_tmp/c.out" 2>&1
    crc=$?
    wait $spid
    src=$?
    ns=$(e2e_count_lines "$e2e_tmp/s.out" "^mpi_dpm server: rank [0-9]* ok")
    nc=$(e2e_count_lines "$e2e_tmp/c.out" "^mpi_dpm client: rank [0-9]* ok")
    e2e_check_leaks "two MPI jobs, btl $btl"
    if [ "$src" -eq 0 ] && [ "$crc" -eq 0 ] && [ "$ns" -eq 2 ] && [ "$nc" -eq 2 ]; then
        e2e_ok "two separate wrun jobs (btl $btl): accept/connect, allreduce over the intercommunicator, disconnect"
    else
        e2e_not_ok "two MPI jobs, btl $btl: server exit $src ($ns ok), client exit $crc ($nc ok)"
        e2e_diag "$e2e_tmp/s.out"
        e2e_diag "$e2e_tmp/c.out"
    fi
done
for np in 1 2 3 4 5 6 7 8; do
    root=$((np - 1)) # the last rank spawns
    e2e_wrun "$e2e_tmp/out" $np "$prog" spawn 2 $root
    good=$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm spawn: rank [0-9]* ok")
    kids=$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm child: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $np ] && [ "$kids" -eq 2 ]; then
        e2e_ok "wrun -np $np: MPI_Comm_spawn of 2 children by rank $root, allreduce, merge, barrier"
    else
        e2e_not_ok "wrun -np $np: MPI_Comm_spawn (wrun exit $e2e_rc, $good parents, $kids children ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
e2e_wrun "$e2e_tmp/out" 2 "$prog" multiple
good=$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm multiple: rank [0-9]* ok")
kids=$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm child: rank [0-9]* ok")
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 2 ] && [ "$kids" -eq 3 ]; then
    e2e_ok "wrun -np 2: MPI_Comm_spawn_multiple of two commands (1 + 2 children)"
else
    e2e_not_ok "wrun -np 2: MPI_Comm_spawn_multiple (wrun exit $e2e_rc, $good parents, $kids children ok)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_ok "mpi_dpm built with Open MPI's mpicc"
e2e_exit
