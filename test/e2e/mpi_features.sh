#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 28): Open MPI programs (4.1 on Debian 12, 5.0 on Debian 13, built with its
# mpicc) using MPI_THREAD_MULTIPLE, a shared-memory window and MPI-IO under wrun -np 1, 2, 4
# and 8 on our libpmix.so.2 (mpi_features.c); the MPI-IO file is gone afterwards. Skipped
# when mpicc is not installed.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
if ! command -v mpicc >/dev/null 2>&1; then
    echo "1..0 # SKIP Open MPI is not installed (mpicc not found)"
    exit 0
fi
e2e_plan 6
e2e_mktemp
e2e_foreign_preload
e2e_ompi_local_tcp
prog="$e2e_tmp/mpi_features"
if mpicc -pthread -o "$prog" "$s/test/e2e/mpi_features.c" 2>"$e2e_tmp/cc.err"; then
    e2e_ok "mpi_features built with Open MPI's mpicc"
else
    e2e_not_ok "mpicc could not build test/e2e/mpi_features.c"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
fi
mkdir -p "$e2e_tmp/io"
for np in 1 2 4 8; do
    e2e_wrun "$e2e_tmp/out" "$np" "$prog" "$e2e_tmp/io"
    if [ "$e2e_rc" -eq 0 ] &&
        grep -q "^mpi_features: $np ranks: threads shmwin io ok$" "$e2e_tmp/out"; then
        e2e_ok "wrun -np $np: MPI_THREAD_MULTIPLE, shared-memory window, MPI-IO"
    else
        e2e_not_ok "wrun -np $np: mpi_features (wrun exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
if [ -z "$(ls -A "$e2e_tmp/io")" ]; then
    e2e_ok "the MPI-IO file was removed (MPI_File_delete)"
else
    e2e_not_ok "left in the MPI-IO directory: $(ls -A "$e2e_tmp/io" | tr '\n' ' ')"
fi
e2e_exit
