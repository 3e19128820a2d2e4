#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 28): mpi4py (Debian's python3-mpi4py: 3.1 on Open MPI 4.1 in Debian 12, 4.0 on
# Open MPI 5 in Debian 13) under wrun on our libpmix.so.2 (e2e_mpi4py.py): collectives at
# -n 1, 2, 4; Spawn and Spawn_multiple at -n 1 and 2; Publish_name/Lookup_name with
# Accept/Connect between the halves of a job at -n 2 and 4; mpi4py.futures' pool (spawned
# workers) at -n 1; Abort(5) at -n 3 makes wrun exit 5. Skipped without python3-mpi4py.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_python mpi4py python3-mpi4py
e2e_plan 10
e2e_mktemp
e2e_foreign_preload
e2e_ompi_local_tcp
prog="$s/test/e2e/e2e_mpi4py.py"

# run_mode MODE N: every one of the N ranks reports "mpi4py MODE: rank R ok" and wrun exits 0
run_mode() {
    e2e_wrun "$e2e_tmp/out" "$2" "$py" "$prog" "$1"
    good=$(e2e_count_lines "$e2e_tmp/out" "^mpi4py $1: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq "$2" ]; then
        e2e_ok "mpi4py $1 under wrun -n $2"
    else
        e2e_not_ok "mpi4py $1 under wrun -n $2 (wrun exit $e2e_rc, $good of $2 ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
}

for n in 1 2 4; do run_mode world $n; done
for n in 1 2; do run_mode spawn $n; done
for n in 2 4; do run_mode dpm $n; done
run_mode futures 1

e2e_wrun "$e2e_tmp/out" 3 "$py" "$prog" abort
if [ "$e2e_rc" -eq 5 ] && grep -q '^mpi4py abort: rank 2 aborting' "$e2e_tmp/out"; then
    e2e_ok "mpi4py Abort(5) under wrun -n 3: wrun exits 5"
else
    e2e_not_ok "mpi4py Abort(5) under wrun -n 3: wrun exit $e2e_rc, not 5"
    e2e_diag "$e2e_tmp/out"
fi
# (pgrep without the sanitizer runtimes e2e_foreign_preload may have preloaded: procps's pgrep
# deadlocks under libasan)
left=$(env -u LD_PRELOAD pgrep -f "$prog" | tr '\n' ' ')
if [ -z "$left" ]; then
    e2e_ok "no mpi4py process left running"
else
    e2e_not_ok "mpi4py processes left running: $left"
    env -u LD_PRELOAD pkill -9 -f "$prog"
fi
e2e_exit
