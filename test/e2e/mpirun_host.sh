#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 15): Open MPI 4.1's own mpirun (Debian's openmpi-bin, ORTE) as the host of our
# PMIx server, with our libpmix.so.2 in place of OpenPMIx's (LD_LIBRARY_PATH), on one node.
# mpirun and its ranks load our library; `mpirun -np 1 hostname` runs (ORTE stores its contact
# URI in the server with PMIx_Store_internal right after PMIx_server_init, and reads it back);
# the ring/allreduce/alltoall/barrier program at -np 1, 2, 4 and 8; MPI_Comm_spawn and
# MPI_Comm_spawn_multiple; publish/lookup/accept/connect between two ranks; the clients' socket
# is in the directory mpirun names (PMIX_SERVER_TMPDIR, under its session directory); nothing is
# left in TMPDIR. Skipped when mpicc is not installed.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    echo "1..0 # SKIP Open MPI is not installed (mpicc or mpirun not found)"
    exit 0
fi
e2e_plan 10
e2e_mktemp
e2e_foreign_preload
unset OMPI_MCA_btl
libdir=$(cd "$b/.libs" && pwd)
for p in mpi_shapes mpi_dpm; do
    if ! mpicc -o "$e2e_tmp/$p" "$s/test/e2e/$p.c" 2>"$e2e_tmp/cc.err"; then
        e2e_diag "$e2e_tmp/cc.err"
        echo "Bail out! mpicc could not build test/e2e/$p.c"
        exit 1
    fi
done

# mpi_run OUT ARGS...: Open MPI's mpirun on our library, 120 s at most; sets e2e_rc
mpi_run() {
    out=$1
    shift
    TMPDIR="$e2e_tmp/t" LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout 120 mpirun --allow-run-as-root --oversubscribe "$@" >"$out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "mpirun $*"
}

# 1: the library mpirun (the host) and a rank really use is ours
LD_DEBUG=libs mpi_run "$e2e_tmp/out" -np 1 "$e2e_tmp/mpi_shapes"
inits=$(e2e_count_lines "$e2e_tmp/out" "calling init: $libdir/libpmix.so.2\$")
others=$(grep "calling init: .*libpmix.so" "$e2e_tmp/out" | grep -vc "$libdir/" || true)
if [ "$e2e_rc" -eq 0 ] && [ "$inits" -ge 2 ] && [ "$others" -eq 0 ]; then
    e2e_ok "mpirun and its rank load our libpmix.so.2 ($inits processes)"
else
    e2e_not_ok "mpirun on our library (exit $e2e_rc, $inits processes load ours, $others another)"
    grep "libpmix\|^mpi_shapes\|rror" "$e2e_tmp/out" | head -20 | sed 's/^/# /'
fi

# 2: the first thing ORTE does after PMIx_server_init
mpi_run "$e2e_tmp/out" -np 1 hostname
if [ "$e2e_rc" -eq 0 ] && [ "$(cat "$e2e_tmp/out")" = "$(hostname)" ]; then
    e2e_ok "mpirun -np 1 hostname"
else
    e2e_not_ok "mpirun -np 1 hostname (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 3-6: MPI traffic
for np in 1 2 4 8; do
    mpi_run "$e2e_tmp/out" -np $np "$e2e_tmp/mpi_shapes"
    if [ "$e2e_rc" -eq 0 ] &&
        grep -q "^mpi_shapes: $np ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
        e2e_ok "mpirun -np $np: ring, allreduce, alltoall, barrier"
    else
        e2e_not_ok "mpirun -np $np mpi_shapes (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done

# 7-9: dynamic processes through the host's spawn, publish and lookup
dpm() { # DESC WANT ARGS...: WANT lines "mpi_dpm ...: rank N ok"
    desc=$1
    want=$2
    shift 2
    mpi_run "$e2e_tmp/out" "$@"
    good=$(e2e_count_lines "$e2e_tmp/out" "^mpi_dpm [a-z]*: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq "$want" ]; then
        e2e_ok "$desc"
    else
        e2e_not_ok "$desc (exit $e2e_rc, $good of $want ok)"
        e2e_diag "$e2e_tmp/out"
    fi
}
dpm "mpirun -np 2: MPI_Comm_spawn of 2 children by rank 1" 4 -np 2 "$e2e_tmp/mpi_dpm" spawn 2 1
dpm "mpirun -np 2: MPI_Comm_spawn_multiple" 5 -np 2 "$e2e_tmp/mpi_dpm" multiple
dpm "mpirun -np 2: publish, lookup, accept/connect" 2 -np 2 "$e2e_tmp/mpi_dpm" pair

# 10: where the clients connect: inside the directory mpirun gave the server
mpi_run "$e2e_tmp/out" -np 1 sh -c 'echo "uri=$WU_PMIX_SERVER_URI"'
if [ "$e2e_rc" -eq 0 ] && grep -q "^uri=usock:$e2e_tmp/t/ompi\.[^/]*/.*/wu-ptl\.[^/]*/sock\$" "$e2e_tmp/out"; then
    e2e_ok "the server's socket is in mpirun's session directory"
else
    e2e_not_ok "the server's socket is not in mpirun's session directory (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
