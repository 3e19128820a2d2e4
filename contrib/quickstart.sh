#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# quickstart.sh -- the README's first command: install what is missing, build Wireup into
# ./_install, show the installed components, and run a real job: 4 processes that exchange data
# through PMIx under wrun (contrib/examples/exchange.c).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh contrib/deps.sh
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
