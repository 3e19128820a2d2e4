#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: contrib/bench/launch -n "1 2" -r 1 against this build tree prints only well-formed
# `metric=launch_<launcher>_<prog> n=<N> value=<ms> unit=ms` lines, one per launcher, program
# and N, with real values for wrun (the PMIx program always; the MPI hello when mpicc is
# installed; MPICH's when mpicc.mpich is) and lines for mpirun (and mpiexec.hydra) when they
# are installed. Only the format is checked, never the timings; a few seconds in all.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 7
e2e_mktemp
launch="$s/contrib/bench/launch"
ns="1 2"

# 1: -h prints the usage
if "$launch" -h >"$e2e_tmp/help" 2>&1 &&
    grep -q 'metric=launch_<launcher>_<prog>' "$e2e_tmp/help"; then
    e2e_ok "launch -h prints the usage"
else
    e2e_not_ok "launch -h"
    e2e_diag "$e2e_tmp/help"
fi

# 2: the run; exit 0 exactly when no metric failed
TMPDIR="$e2e_tmp/t" timeout 300 "$launch" -b "$b" -n "$ns" -r 1 >"$e2e_tmp/out" 2>"$e2e_tmp/err"
rc=$?
e2e_check_leaks "contrib/bench/launch"
nfailed=$(e2e_count_lines "$e2e_tmp/out" 'value=failed ')
if { [ "$rc" -eq 0 ] && [ "$nfailed" -eq 0 ]; } ||
    { [ "$rc" -eq 1 ] && [ "$nfailed" -gt 0 ]; }; then
    e2e_ok "launch -n \"$ns\" -r 1: exit $rc, $nfailed failed metrics"
else
    e2e_not_ok "launch -n \"$ns\" -r 1: exit $rc with $nfailed failed metrics"
    e2e_diag "$e2e_tmp/err"
fi

# 3: every stdout line has the metric format, and the right number of lines
metrics=launch_wrun_pmix
if command -v mpicc >/dev/null 2>&1; then
    metrics="$metrics launch_wrun_mpi"
    if command -v mpirun >/dev/null 2>&1; then
        metrics="$metrics launch_mpirun_mpi"
    fi
fi
if command -v mpicc.mpich >/dev/null 2>&1 && command -v mpiexec.hydra >/dev/null 2>&1; then
    metrics="$metrics launch_wrun_mpich launch_hydra_mpich"
fi
if command -v mpirun >/dev/null 2>&1 && [ -f /usr/lib/x86_64-linux-gnu/pmix2/include/pmix.h ]; then
    metrics="$metrics launch_mpirun_pmix"
fi
form='^metric=launch_(wrun|mpirun|hydra)_(pmix|mpi|mpich) n=[0-9]+ value=([0-9]+\.[0-9]|failed) unit=ms$'
total=$(wc -l <"$e2e_tmp/out")
good=$(grep -cE "$form" "$e2e_tmp/out")
want=$(($(echo "$metrics" | wc -w) * 2))
if [ "$total" -eq "$good" ] && [ "$total" -eq "$want" ]; then
    e2e_ok "$total well-formed metric lines ($metrics, n = $ns)"
else
    e2e_not_ok "$good of $total lines well-formed, $want expected ($metrics)"
    e2e_diag "$e2e_tmp/out"
    e2e_diag "$e2e_tmp/err"
fi

# has_value METRIC: one line for METRIC at each N, with a measured value
has_value() {
    for n in $ns; do
        c=$(grep -cE "^metric=$1 n=$n value=[0-9]+\.[0-9] unit=ms$" "$e2e_tmp/out")
        [ "$c" -eq 1 ] || return 1
    done
}

# 4: wrun ran the PMIx program
if has_value launch_wrun_pmix; then
    e2e_ok "launch_wrun_pmix measured at n = $ns"
else
    e2e_not_ok "launch_wrun_pmix missing or failed"
    e2e_diag "$e2e_tmp/out"
    e2e_diag "$e2e_tmp/err"
fi

# 5: wrun ran the MPI hello
if ! command -v mpicc >/dev/null 2>&1; then
    e2e_skip "Open MPI is not installed (mpicc not found)"
elif has_value launch_wrun_mpi; then
    e2e_ok "launch_wrun_mpi measured at n = $ns"
else
    e2e_not_ok "launch_wrun_mpi missing or failed"
    e2e_diag "$e2e_tmp/err"
fi

# 6: wrun ran MPICH's hello (through its PMI server)
if ! command -v mpicc.mpich >/dev/null 2>&1 || ! command -v mpiexec.hydra >/dev/null 2>&1; then
    e2e_skip "MPICH is not installed (mpicc.mpich, mpiexec.hydra)"
elif has_value launch_wrun_mpich; then
    e2e_ok "launch_wrun_mpich measured at n = $ns"
else
    e2e_not_ok "launch_wrun_mpich missing or failed"
    e2e_diag "$e2e_tmp/err"
fi

# 7: mpirun lines are there (a failing mpirun is the host's business, shown as a comment)
if ! command -v mpirun >/dev/null 2>&1; then
    e2e_skip "mpirun not found"
elif grep -q '^metric=launch_mpirun_' "$e2e_tmp/out"; then
    e2e_ok "launch_mpirun_* lines present"
    grep '^metric=launch_mpirun_.*value=failed' "$e2e_tmp/out" | sed 's/^/# /'
else
    e2e_not_ok "no launch_mpirun_* lines although mpirun is installed"
    e2e_diag "$e2e_tmp/err"
fi
e2e_exit
