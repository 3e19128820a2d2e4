#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# quickstart.sh -- the README's first command: install what is missing, build Wireup into
# ./_install, and show it working.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh contrib/deps.sh
[ -x configure ] || ./autogen.pl >/dev/null
mkdir -p _build
cd _build
[ -f Makefile ] || ../configure --prefix="$top/_install" >/dev/null
make -j"$(nproc)" >/dev/null
make install >/dev/null
echo "== Wireup built and installed in $top/_install"
"$top/_install/bin/wireup-info"
