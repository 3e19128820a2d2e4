#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# deps.sh -- install the Debian packages Wireup needs to build and test, only those missing.
# Usage: contrib/deps.sh [--test|--mpi]   (--test adds what the test suite needs, --mpi Open MPI
# for the README's MPI example)
set -e
pkgs="gcc make perl autoconf automake libtool pkg-config libhwloc-dev libevent-dev libltdl-dev"
# --test: Check, the formatter, nm/readelf, OpenPMIx 4.2 (headers, library, python binding, tools) and mpi4py for
# the ABI comparison tests; Open MPI 4.1 (openmpi-bin, libopenmpi-dev) and procps for the MPI
# end-to-end tests; clang with its sanitizer and libFuzzer runtimes for contrib/fuzz.sh; for the
# multi-node lab (test/lab/lab.sh): ip, nsenter/unshare, sshd, ssh and ssh-keygen. The lab starts its
# own sshd per node; it neither needs nor touches a system sshd that openssh-server may start.
# slurm-wlm and munge for the Slurm tests (the lab runs its own munged, slurmctld and slurmds).
# groff-base renders the manual pages for test/unit/tools/man_pages.sh (which skips that check
# without it).
[ "${1:-}" = "--mpi" ] && pkgs="$pkgs openmpi-bin libopenmpi-dev"
[ "${1:-}" = "--test" ] && pkgs="$pkgs check clang-format binutils procps libpmix-dev libpmix-bin python3-pmix python3-mpi4py openmpi-bin libopenmpi-dev mpich libmpich-dev clang libclang-rt-dev openssh-server openssh-client iproute2 util-linux groff-base slurm-wlm munge"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps.sh: installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps.sh: apt-get not found; install these yourself:$missing" >&2
    exit 1
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null
