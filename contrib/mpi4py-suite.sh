#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpi4py-suite.sh -- run mpi4py's own test suite (test/main.py of an mpi4py 4 source tree, or
# test/runtests.py of an mpi4py 3.1 one: the version the installed mpi4py was built from) under
# the MPI's own launcher (Open MPI's mpirun, MPICH's mpiexec.hydra) and under wrun, side by
# side, one test module per launch so that one crash or hang costs one module only.
#
#   mpi4py-suite.sh SRC [N...]     N: the job sizes (default 1 2 4)
#
# Prints one line per module and size: the module, N, and for each launcher its result
# ("ok", or the unittest failures/errors, "crash" with the exit status, "hang" past the
# limit) and the tests it ran; then the totals. Exits 1 when wrun fails a module mpirun passes.
# Environment: WRUN (default: wrun on PATH), MPIRUN (default: mpirun; Open MPI's gets
# --oversubscribe, and --allow-run-as-root as root, others nothing), PYTHON (default: python3),
# WU_MPI4PY_LIMIT seconds per module (default 300), WU_MPI4PY_OUT directory for each run's output
# (default: a temporary directory, removed at the end). docs/deb13.md runs it in the Debian 13
# root, docs/mpich.md with an MPICH build.
set -u
prog=${0##*/}
src=${1:-}
if [ -n "$src" ] && [ -r "$src/test/main.py" ]; then
    runner=main
elif [ -n "$src" ] && [ -r "$src/test/runtests.py" ]; then
    runner=runtests
else
    echo "usage: $prog MPI4PY-SOURCE-DIR [N...] (no test/main.py or test/runtests.py in '${src}')" >&2
    exit 2
fi
shift
[ $# -gt 0 ] || set -- 1 2 4
wrun=${WRUN:-$(command -v wrun)} || {
    echo "$prog: no wrun on PATH (set WRUN)" >&2
    exit 2
}
mpirun=${MPIRUN:-mpirun}
python=${PYTHON:-python3}
limit=${WU_MPI4PY_LIMIT:-300}
out=${WU_MPI4PY_OUT:-}
if [ -z "$out" ]; then
    out=$(mktemp -d "${TMPDIR:-/tmp}/mpi4py-suite.XXXXXX") || exit 1
    trap 'rm -rf -- "$out"' EXIT
fi
mkdir -p "$out" || exit 1
# Open MPI's mpirun refuses root and more ranks than cores unless told; hydra has no such options
mpirun_opts=
if "$mpirun" --version 2>&1 | grep -q 'Open MPI\|OpenRTE'; then
    mpirun_opts=--oversubscribe
    [ "$(id -u)" -eq 0 ] && mpirun_opts="--allow-run-as-root $mpirun_opts"
fi

# verdict FILE RC: one word for a module's run
verdict() {
    if [ "$2" -eq 124 ] || [ "$2" -eq 137 ]; then
        echo hang
    elif grep -q '^OK' "$1"; then
        [ "$2" -eq 0 ] && echo ok || echo "exit$2"
    elif grep -q '^FAILED' "$1"; then
        # (every rank prints its summary: the first one)
        sed -n 's/^FAILED (\(.*\))$/\1/p' "$1" | head -1 | tr -d ' ' |
            sed 's/skipped=[0-9]*,*//; s/,$//'
    else
        echo "crash$2"
    fi
}

ran() {
    sed -n 's/^Ran \([0-9]*\) test.*/\1/p' "$1" | head -1 | grep . || echo 0
}

bad=0
printf '%-24s %3s  %-22s %-22s\n' module n mpirun wrun
for n in "$@"; do
    mfail=0 wfail=0 mran=0 wran=0
    for f in "$src"/test/test_*.py; do
        m=${f##*/}
        m=${m%.py}
        for l in mpirun wrun; do
            if [ $l = mpirun ]; then
                # shellcheck disable=SC2086
                set -- "$mpirun" $mpirun_opts -n "$n"
            else
                set -- "$wrun" --oversubscribe -n "$n"
            fi
            log="$out/$m.$l.$n.out"
            if [ $runner = main ]; then
                set -- "$@" "$python" test/main.py -i "^$m\\.py\$"
            else
                set -- "$@" "$python" test/runtests.py --no-builddir -i "^$m\$"
            fi
            (cd "$src" && timeout -k 10 "$limit" "$@") >"$log" 2>&1
            rc=$?
            eval "v_$l=\$(verdict \"\$log\" $rc)"
            eval "r_$l=\$(ran \"\$log\")"
        done
        # shellcheck disable=SC2154
        printf '%-24s %3s  %-22s %-22s\n' "$m" "$n" "$v_mpirun ($r_mpirun)" "$v_wrun ($r_wrun)"
        [ "$v_mpirun" = ok ] || mfail=$((mfail + 1))
        [ "$v_wrun" = ok ] || wfail=$((wfail + 1))
        if [ "$v_wrun" != ok ] && [ "$v_mpirun" = ok ]; then
            bad=1
        fi
        mran=$((mran + r_mpirun))
        wran=$((wran + r_wrun))
    done
    echo "-n $n: mpirun ran $mran tests, $mfail modules not ok; wrun ran $wran tests," \
        "$wfail modules not ok"
done
exit $bad
