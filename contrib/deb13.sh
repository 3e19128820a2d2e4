#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# deb13.sh -- a Debian 13 (trixie) root file system beside this Debian 12 machine, to build and
# test Wireup against what today's distributions ship: Open MPI 5, OpenPMIx 5 (its headers,
# library, example programs and tools), python3-pmix, mpi4py 4 and Slurm 24.11. Root only;
# docs/deb13.md explains it.
#
#   deb13.sh setup [ROOT]        make ROOT (default _build/deb13/root) with debootstrap from the
#                                Debian mirror this machine's apt sources name, and install the
#                                packages; an existing ROOT made with the same package list is
#                                reused as it is
#   deb13.sh build [ROOT]        build Wireup from this checkout inside ROOT (build tree
#                                /wireup/build, installed under /wireup/install)
#   deb13.sh check [ROOT] [TEST...]
#                                `make check` inside ROOT's build tree, of the tests named in
#                                test/deb13/tests (or of the TESTs given); TAP logs stay there
#   deb13.sh run ROOT CMD...     run CMD inside ROOT
#   deb13.sh remove [ROOT]       remove ROOT (only a directory this script made)
#
# Everything inside runs in a mount namespace of its own (unshare): ROOT with /proc, /sys, /dev,
# a fresh /tmp and /dev/shm, and this checkout bound at /wireup/src; when the command ends, the
# namespace and its mounts are gone. The network is the machine's (loopback is enough).
# Every apt and build step is bounded in time; a failure says which step and shows its log.
set -u
prog=${0##*/}
top=$(cd "$(dirname "$0")/.." && pwd)
stamp_name=.wireup-deb13
suite=trixie
# what the Debian 13 tests need: the build tools and libraries, the programs Wireup replaces or
# hosts (Open MPI 5, MPICH 4.2, OpenPMIx 5 with its examples and tools, python3-pmix, mpi4py,
# Slurm), the lab's sshd and ip, and dpkg-dev to unpack mpi4py's source package (its test suite)
packages="gcc g++ make perl autoconf automake libtool pkg-config libhwloc-dev libevent-dev
libltdl-dev check procps openmpi-bin libopenmpi-dev mpich libmpich-dev libpmix-dev libpmix-bin python3-pmix
python3-mpi4py slurm-wlm munge openssh-server openssh-client iproute2 util-linux dpkg-dev
binutils"

die() {
    echo "$prog: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mount namespaces)"

# The Debian mirror of this machine's own apt sources: the URI that serves its release's main
# suite (VERSION_CODENAME of /etc/os-release), from deb822 .sources files or one-line lists.
host_mirror() {
    codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null)
    [ -n "$codename" ] || return 1
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk -v want="$codename" '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uri != "")
                    { print uri; found = 1; exit }
                types = ""; suites = ""; uri = ""
            }
            /^[ \t]*$/ { flush(); next }
            /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
            /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
            /^URIs:/ { sub(/^URIs:[ \t]*/, ""); split($0, u, /[ \t]+/); uri = u[1] }
            END { if (!found) flush() }
        ' "$f"
    done | head -n 1 | grep . && return 0
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v want="$codename" '$1 == "deb" {
            i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
            if ($(i + 1) == want) { print $i; exit } }' | grep .
}

# run_in ROOT CMD...: CMD inside ROOT, in a private mount namespace (see the top)
run_in() {
    root=$1
    shift
    [ -x "$root/bin/sh" ] || die "$root is not a root file system (run: $prog setup $root)"
    mkdir -p "$root/wireup/src" || return 1
    # the namespace is made on the first CPU allowed (test/lab/lab.sh makes its nodes' there
    # too: the kernel binds a mount namespace's file only under a namespace with a lower id,
    # and ids come in per-CPU batches); the command then runs on every CPU allowed again
    cpus=$(taskset -pc $$ | sed 's/.*: *//')
    timeout "${run_limit:-0}" taskset -c "${cpus%%[-,]*}" unshare --mount --propagation private sh -c '
        r=$1; src=$2; cpus=$3; shift 3
        mount --bind "$r" "$r" && mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" &&
            mount --rbind /dev "$r/dev" && mount -t tmpfs -o mode=1777 tmpfs "$r/tmp" &&
            mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm" && mount --bind "$src" "$r/wireup/src" &&
            mount -t tmpfs tmpfs "$r/run" && mkdir -p "$r/run/lock" "$r/.oldroot" || exit 125
        # ROOT becomes the namespace'"'"'s root (pivot_root, not chroot): inside, network and mount
        # namespaces can be made and kept in files (ip netns, unshare --mount=FILE: the lab)
        cd "$r" && pivot_root . .oldroot && umount -l /.oldroot || exit 125
        exec taskset -c "$cpus" /usr/bin/env -i \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 TERM="${TERM:-dumb}" WU_IN_DEB13=1 ${WU_DEB13_ENV:-} "$@"
    ' sh "$root" "$top" "$cpus" "$@"
}

# step NAME LOG SECONDS CMD...: one step, ended after SECONDS (run_in and debootstrap honour
# run_limit); on failure, the log's end and exit 1
step() {
    name=$1 log=$2 run_limit=$3
    shift 3
    echo "$prog: $name" >&2
    if ! "$@" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "$name failed (log: $log)"
    fi
    run_limit=0
}

setup() {
    root=$1
    want=$(printf '%s\n' $packages | sort | tr '\n' ' ')
    if [ -r "$root/$stamp_name" ] && [ "$(cat "$root/$stamp_name")" = "$want" ]; then
        echo "$prog: reusing $root" >&2
        return 0
    fi
    command -v debootstrap >/dev/null 2>&1 || {
        apt-get update -q >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null 2>&1 ||
            die "cannot install debootstrap"
    }
    mirror=$(host_mirror) || die "no Debian mirror found in this machine's apt sources"
    if [ -e "$root" ]; then
        [ -r "$root/$stamp_name" ] || [ -r "$root/.wireup-deb13-partial" ] ||
            die "$root exists and was not made by $prog: remove it yourself"
        rm -rf "$root"
    fi
    mkdir -p "$root" && : >"$root/.wireup-deb13-partial" || die "cannot create $root"
    logd=$(dirname "$root")
    step "debootstrap $suite from $mirror" "$logd/debootstrap.log" 900 \
        timeout 900 debootstrap --variant=minbase "$suite" "$root" "$mirror"
    : >"$root/.wireup-deb13-partial"
    printf 'deb %s %s main\ndeb-src %s %s main\n' "$mirror" "$suite" "$mirror" "$suite" \
        >"$root/etc/apt/sources.list"
    # no daemon may start inside while packages are installed (slurm, munge, ssh)
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" &&
        chmod 755 "$root/usr/sbin/policy-rc.d"
    step "apt-get update (in $root)" "$logd/apt.log" 600 run_in "$root" apt-get update -q
    # shellcheck disable=SC2086
    step "apt-get install (in $root)" "$logd/apt.log" 1200 run_in "$root" env \
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages
    run_in "$root" apt-get clean >/dev/null 2>&1
    printf '%s' "$want" >"$root/$stamp_name" && rm -f "$root/.wireup-deb13-partial"
    echo "$prog: $root is ready ($(run_in "$root" cat /etc/debian_version))" >&2
}

build() {
    root=$1
    [ -r "$root/$stamp_name" ] || die "$root is not set up (run: $prog setup $root)"
    [ -x "$top/configure" ] || die "no configure in $top: run ./autogen.pl first"
    logd=$(dirname "$root")
    rm -rf "$root/wireup/build" "$root/wireup/install"
    mkdir -p "$root/wireup/build" || die "cannot create $root/wireup/build"
    step "configure (in $root)" "$logd/configure.log" 600 run_in "$root" sh -c \
        'cd /wireup/build && /wireup/src/configure --prefix=/wireup/install --enable-werror'
    step "make (in $root)" "$logd/make.log" 1800 run_in "$root" sh -c \
        "cd /wireup/build && make -j$(nproc) && make install"
    echo "$prog: Wireup built in $root/wireup/build, installed in $root/wireup/install" >&2
}

check() {
    root=$1
    shift
    [ -r "$root/wireup/build/Makefile" ] || die "$root has no build (run: $prog build $root)"
    if [ $# -eq 0 ]; then
        set -- $(grep -v '^[[:space:]]*\(#\|$\)' "$top/test/deb13/tests")
    fi
    # This machine's network (eth0 with an IPv6 address only) leaves Open MPI 5's TCP BTL no
    # usable pair of interfaces between two local processes: mpirun fails the same way
    # ("Unable to find reachable pairing"). The single-node tests use loopback.
    WU_DEB13_ENV="OMPI_MCA_btl_tcp_if_include=lo ${WU_DEB13_ENV:-}" run_in "$root" sh -c \
        'cd /wireup/build && make -j"$1" check TESTS="$2"' sh "$(nproc)" "$*"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
setup) setup "${1:-$top/_build/deb13/root}" ;;
build) build "${1:-$top/_build/deb13/root}" ;;
check)
    root=$top/_build/deb13/root
    if [ $# -gt 0 ] && [ -d "$1" ]; then
        root=$1
        shift
    fi
    check "$root" "$@"
    ;;
run)
    [ $# -ge 2 ] || die "usage: $prog run ROOT CMD..."
    root=$1
    shift
    run_in "$root" "$@"
    ;;
remove)
    root=${1:-$top/_build/deb13/root}
    [ -e "$root" ] || exit 0
    [ -r "$root/$stamp_name" ] || [ -r "$root/.wireup-deb13-partial" ] ||
        die "$root was not made by $prog: not removing it"
    rm -rf "$root"
    ;;
*)
    sed -n '3,25s/^# \{0,1\}//p' "$0" >&2
    exit 2
    ;;
esac
