#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# quickstart.sh -- the README's first command: install what is missing (Open MPI included, for
# the MPI example), build Wireup into ./_install, show the installed components, and run real
# jobs under wrun: 4 processes that exchange data through PMIx (contrib/examples/exchange.c),
# then an unmodified Open MPI 4.1 program (contrib/examples/mpi_ring.c, built with Debian's
# mpicc) on Wireup's libpmix.so.2.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh contrib/deps.sh --mpi
if [ ! -x configure ] && ! ./autogen.pl >_autogen.log 2>&1; then
    cat _autogen.log; exit 1
fi
rm -f _autogen.log
mkdir -p _build
cd _build
if [ ! -f Makefile ] && ! ../configure --prefix="$top/_install" >configure.log 2>&1; then
    tail -30 configure.log; exit 1
fi
make -j"$(nproc)" >make.log 2>&1 || { tail -40 make.log; exit 1; }
make install >install.log 2>&1 || { tail -20 install.log; exit 1; }
echo "== Wireup built and installed in $top/_install"
"$top/_install/bin/wireup-info"
echo "== wrun --oversubscribe -n 4 contrib/examples/exchange (4 processes exchange data through PMIx)"
# --oversubscribe: a small machine may have fewer than 4 cores, and wrun, like mpirun, refuses to
# start more processes than cores without it
"$top/_install/bin/wrun" --oversubscribe -n 4 "$top/_build/contrib/examples/exchange"
echo "== wrun --oversubscribe -n 4 mpi_ring (Open MPI 4.1's mpicc, running on Wireup's libpmix)"
mpicc -o "$top/_build/mpi_ring" "$top/contrib/examples/mpi_ring.c"
"$top/_install/bin/wrun" --oversubscribe -n 4 "$top/_build/mpi_ring"
