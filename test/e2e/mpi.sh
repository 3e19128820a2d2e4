#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 5 acceptance; issue 28 on Debian 13): unmodified Open MPI programs (Debian's
# openmpi-bin, 4.1 on Debian 12 and 5.0 on Debian 13, built with its mpicc) run under wrun on our
# libpmix.so.2: ring, Allreduce, Alltoall and Barrier at -np 1, 2, 4, 8 and 16 (oversubscribed)
# with the default BTLs, shared memory only (self,vader; self,sm in Open MPI 5) and TCP only
# (self,tcp); shared memory is really used then; MPI_Abort(comm, 7) makes
# wrun exit 7 with the other ranks killed; no session directory (TMPDIR) and no shared-memory
# segment (/dev/shm) is left behind. Skipped when mpicc is not installed (contrib/deps.sh --test
# installs openmpi-bin and libopenmpi-dev).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
if ! command -v mpicc >/dev/null 2>&1; then
    echo "1..0 # SKIP Open MPI is not installed (mpicc not found)"
    exit 0
fi
nps="1 2 4 8 16"
e2e_plan 23
e2e_mktemp
e2e_foreign_preload
unset OMPI_MCA_btl

prog="$e2e_tmp/mpi_shapes"
if mpicc -o "$prog" "$s/test/e2e/mpi_shapes.c" 2>"$e2e_tmp/cc.err"; then
    e2e_ok "mpi_shapes built with Open MPI's mpicc"
else
    e2e_not_ok "mpicc could not build test/e2e/mpi_shapes.c"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
fi

shm_list() {
    ls /dev/shm 2>/dev/null | grep -E "^(vader|sm)_segment\.$(hostname)\." | sort
}
shm_before=$(shm_list)

# 2-16: every shape, every size, every BTL choice
sm=$(e2e_ompi_sm)
for btl in default self,$sm self,tcp; do
    for np in $nps; do
        if [ "$btl" = default ]; then
            e2e_wrun "$e2e_tmp/out" "$np" "$prog"
        else
            e2e_wrun "$e2e_tmp/out" "$np" --mca btl "$btl" "$prog"
        fi
        if [ "$e2e_rc" -eq 0 ] &&
            grep -q "^mpi_shapes: $np ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
            e2e_ok "wrun -np $np, btl $btl: ring, allreduce, alltoall, barrier"
        else
            e2e_not_ok "wrun -np $np, btl $btl (wrun exit $e2e_rc)"
            e2e_diag "$e2e_tmp/out"
        fi
    done
done

# 17: MPMD, two contexts of the same program form one MPI_COMM_WORLD
e2e_wrun "$e2e_tmp/out" 2 "$prog" : -n 2 "$prog"
if [ "$e2e_rc" -eq 0 ] &&
    grep -q "^mpi_shapes: 4 ranks: ring allreduce alltoall barrier ok$" "$e2e_tmp/out"; then
    e2e_ok "wrun -np 2 prog : -np 2 prog: one world of 4 ranks"
else
    e2e_not_ok "MPMD MPI job (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 18: with self,vader (self,sm) the ranks really use shared memory (a segment per local rank)
OMPI_MCA_btl=self,$sm e2e_wrun "$e2e_tmp/out" 4 "$prog" shm
segs=$(sed -n 's/^shm segments: //p' "$e2e_tmp/out")
if [ "$e2e_rc" -eq 0 ] && [ "${segs:-0}" -ge 4 ]; then
    e2e_ok "OMPI_MCA_btl=self,$sm wrun -np 4: $segs shared-memory segments in use"
else
    e2e_not_ok "OMPI_MCA_btl=self,$sm wrun -np 4: shared memory not seen (segments: ${segs:-none}," \
        "wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 19-20: MPI_Abort(MPI_COMM_WORLD, 7) from rank 1 of 4: wrun exits 7, promptly
start=$(date +%s)
e2e_wrun "$e2e_tmp/out" 4 "$prog" abort 1 7
took=$(($(date +%s) - start))
if [ "$e2e_rc" -eq 7 ]; then
    e2e_ok "MPI_Abort(comm, 7) -> wrun exits 7 (${took} s)"
else
    e2e_not_ok "MPI_Abort(comm, 7) -> wrun exit $e2e_rc after ${took} s, expected 7"
    e2e_diag "$e2e_tmp/out"
fi
if grep -q 'barrier completed after an abort' "$e2e_tmp/out"; then
    e2e_not_ok "a rank got past the barrier after MPI_Abort"
else
    e2e_ok "no rank got past the barrier after MPI_Abort"
fi

# 21: a rank that crashes (SIGSEGV) ends the job with 139
# (a sanitizer runtime, preloaded in a sanitizer build, would catch the SIGSEGV and exit 1)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" e2e_wrun "$e2e_tmp/out" 4 "$prog" crash 2
if [ "$e2e_rc" -eq 139 ] && ! grep -q 'completed after a crash' "$e2e_tmp/out"; then
    e2e_ok "a rank dies of SIGSEGV -> wrun exits 139, the others are ended"
else
    e2e_not_ok "crash of rank 2: wrun exit $e2e_rc, expected 139"
    e2e_diag "$e2e_tmp/out"
fi

# 22: no rank of any run survives (every run above was waited for; look for strays)
# (procps tools run without the sanitizer preload: under it pgrep hangs)
if env -u LD_PRELOAD pgrep -f "$prog" >/dev/null 2>&1; then
    e2e_not_ok "processes of mpi_shapes still running after the jobs:"
    env -u LD_PRELOAD pgrep -af "$prog" | sed 's/^/# /'
    env -u LD_PRELOAD pkill -9 -f "$prog"
else
    e2e_ok "no mpi_shapes process left running"
fi

# 23: no shared-memory segment left in /dev/shm (Open MPI registers them for cleanup), after the
# abort and the crash too. Every rank of this test has ended (22), so a new segment that a live
# process still maps is another test's job running beside this one (make check -j), not ours;
# so is one that goes within 10 s (a job of another test that ended, its ranks gone, its
# launcher about to remove the segments it registered for cleanup).
shm_left() {
    left=
    for x in $(shm_list | grep -vxF "$shm_before"); do
        if ! grep -qsF "/dev/shm/$x" /proc/[0-9]*/maps; then
            left="$left $x"
        fi
    done
}
shm_left
tries=0
while [ -n "$left" ] && [ $tries -lt 10 ]; do
    sleep 1
    tries=$((tries + 1))
    shm_left
done
if [ -z "$left" ]; then
    e2e_ok "no shared-memory segment left in /dev/shm"
else
    e2e_not_ok "shared-memory segments left in /dev/shm, mapped by no process:"
    echo "$left" | tr ' ' '\n' | sed '/^$/d' | head -5 | sed 's/^/# /'
fi
e2e_exit
