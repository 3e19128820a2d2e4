#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run.sh -- build (if needed) and run the PMIx-API-only benchmark under wrun.
#
#   contrib/bench/run.sh [-b BUILDDIR] [-n NPROCS] [-- wu_bench options]
#
# BUILDDIR is a configured Wireup build tree (default: the current directory if it has a
# Makefile, else _build/ci-debug). The benchmark is made there (`make contrib/bench/wu_bench`)
# and run as `BUILDDIR/wrun -n NPROCS BUILDDIR/contrib/bench/wu_bench [options]` (default 4
# processes; options: -i Get/Put iterations, -f Fence iterations). Output: one line per metric,
#   metric=<name> n=<iterations> value=<mean microseconds per operation> unit=us
#
# The same source runs against OpenPMIx and PRRTE, for comparison (not done by this script):
#   cc -O2 -I/usr/lib/x86_64-linux-gnu/pmix2/include -o /tmp/wu_bench_ompix \
#       contrib/bench/wu_bench.c -L/usr/lib/x86_64-linux-gnu/pmix2/lib -lpmix
#   prterun -n 4 /tmp/wu_bench_ompix          # PRRTE, if installed
#   mpirun --oversubscribe -n 4 /tmp/wu_bench_ompix   # Open MPI 4.1's launcher (Debian's
#                                             # openmpi-bin hosts OpenPMIx's server; as root add
#                                             # --allow-run-as-root)
# and the OpenPMIx-built binary on Wireup's library:
#   LD_LIBRARY_PATH=BUILDDIR/.libs BUILDDIR/wrun -n 4 /tmp/wu_bench_ompix
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=
np=4
while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -n) np=$2; shift 2 ;;
    --) shift; break ;;
    -h | --help) sed -n '3,/^set -u/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
if [ -z "$build" ]; then
    if [ -f Makefile ] && grep -q '^wu_bench\|contrib/bench' Makefile 2>/dev/null; then
        build=$(pwd)
    else
        build="$top/_build/ci-debug"
    fi
fi
if [ ! -f "$build/Makefile" ]; then
    echo "run.sh: $build is not a configured build tree (use -b BUILDDIR)" >&2
    exit 1
fi
(cd "$build" && make contrib/bench/wu_bench wrun >/dev/null) || {
    echo "run.sh: building wu_bench and wrun in $build failed" >&2
    exit 1
}
exec timeout 600 "$build/wrun" --oversubscribe -n "$np" "$build/contrib/bench/wu_bench" "$@"
