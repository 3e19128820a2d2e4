#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 14 acceptance): OpenPMIx 4.2's own example programs, whose sources Debian ships
# in libpmix-dev (/usr/share/doc/libpmix-dev/examples, without their examples.h: ours is in
# test/e2e/openpmix_examples/), built against OpenPMIx's headers and -lpmix and run under wrun
# with our libpmix.so.2 first in LD_LIBRARY_PATH, as a user would try them. Each must exit 0
# and print what it prints under Open MPI's mpirun: every rank finalizes, the data exchange,
# node data, publish/lookup with PMIX_WAIT, spawn (the children too), groups (a construct with
# a context id, and one by invitation with a fence over the group's name), job control, and
# the ABI-version queries with and without PMIx_Init. Where a program prints an error that is
# a known gap, the test names it (fabric coordinates: none on this
# machine). Skipped when libpmix-dev is not installed (contrib/deps.sh --test installs it).
# With WU_EXAMPLES_WIRE=1 (openpmix_examples_wire.sh) the same programs are built with an RPATH
# to OpenPMIx's library and run under `wrun --keep-library-path`: they run on OpenPMIx's own
# library and talk to wrun's server in OpenPMIx's protocol, and must pass all the same.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
exdir=${WU_OPENPMIX_EXAMPLES:-/usr/share/doc/libpmix-dev/examples}
if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ] || [ ! -r "$exdir/client.c" ]; then
    echo "1..0 # SKIP OpenPMIx's headers, library or example sources are not installed (libpmix-dev)"
    exit 0
fi
e2e_plan 15
e2e_mktemp
wire=${WU_EXAMPLES_WIRE:-0}
keep=""
rpath=""
if [ "$wire" = 1 ]; then
    keep=--keep-library-path
    rpath="-Wl,--disable-new-dtags,-rpath,$sys_libdir"
fi

# build NAME: compile examples/NAME.c against OpenPMIx (e2e_openpmix_build: our library first in
# LD_LIBRARY_PATH, the sanitizer runtimes preloaded); false, with the compiler's words, if not
build() {
    # shellcheck disable=SC2086 # $rpath: one word or none
    e2e_openpmix_build "$e2e_tmp/$1" "$exdir/$1.c" -I"$s/test/e2e/openpmix_examples" -lpthread \
        $rpath || {
        e2e_diag "$e2e_tmp/cc.err"
        return 1
    }
}

# example NAME N WHAT [PATTERN COUNT]...: build NAME and run it under `wrun -n N`; it passes
# when wrun exits 0, each PATTERN matches COUNT lines and no line says "fail" but the known gaps
# (the last test checks that the programs load our library)
example() {
    name=$1
    np=$2
    what=$3
    shift 3
    if ! build "$name"; then
        e2e_not_ok "$name: could not build $exdir/$name.c against OpenPMIx"
        return
    fi
    # shellcheck disable=SC2086 # $keep: one word or none
    e2e_wrun "$e2e_tmp/$name.out" "$np" $keep "$e2e_tmp/$name"
    out="$e2e_tmp/$name.out"
    why=""
    [ "$e2e_rc" -eq 0 ] || why="wrun exit $e2e_rc"
    while [ $# -ge 2 ]; do
        got=$(e2e_count_lines "$out" "$1")
        [ "$got" -eq "$2" ] || why="$why; $got lines of '$1', not $2"
        shift 2
    done
    bad=$(grep -i 'fail' "$out" | grep -v -e 'PMIx_Get coordinates.* failed: NOT-FOUND' | head -1)
    [ -z "$bad" ] || why="$why; it says: $bad"
    if [ -z "$why" ]; then
        e2e_ok "OpenPMIx's examples/$name.c, wrun -n $np: $what"
    else
        e2e_not_ok "OpenPMIx's examples/$name.c, wrun -n $np: ${why#; }"
        e2e_diag "$out"
    fi
}

fin='PMIx_Finalize successfully completed'
example hello 2 "local rank, init and finalize" "$fin" 2 ': Running on host .* localrank [01]$' 2
example client 4 "topology loaded, puts, fence, every peer's values" "$fin" 4 \
    ':[0-3] topology loaded$' 4
example client2 2 "job size, events, data exchange" "$fin" 2
example dmodex 4 "data by direct modex (no collecting fence)" "$fin" 1 'World size 4$' 1
example nodeinfo 4 "node list, peers' hosts, node-level Gets" "$fin" 4 'Rank [0-3] is on host ' 4
example pub 2 "publish, lookup with PMIX_WAIT, unpublish" "$fin" 2 \
    '^PUBLISH-LOOKUP SUCCEEDED$' 1 '^UNPUBLISH SUCCEEDED$' 1
example pubi 2 "publish and lookup of info arrays" "$fin" 2 '^PUBLISH-LOOKUP SUCCEEDED$' 1
# dynamic spawns ./client (built above) from its working directory
here=$(pwd)
cd "$e2e_tmp" || exit 1
example dynamic 2 "PMIx_Spawn of 2 children, which run and finalize" "$fin" 4 \
    'rank 0: calling PMIx_Spawn$' 1 '\.2:[01] num procs 2$' 2
cd "$here" || exit 1
example group 4 "group construct with a context id, destruct" "$fin" 4 ':[0-3] COMPLETE$' 4
example asyncgroup 4 "group by invitation, fence over the group's name, destruct" "$fin" 4 \
    ':[0-3] COMPLETE$' 4 'Group invite complete with status SUCCESS!$' 1
example jctrl 2 "job control, a heartbeat monitor and a heartbeat" "$fin" 2
example log 2 "PMIx_Log to stderr and syslog" "$fin" 2
example abi_with_init 2 "ABI versions queried after init" '^----> ABI (Stable): String: ' 2

# abi_no_init: a plain program (no wrun) that queries the ABI versions without PMIx_Init
if build abi_no_init; then
    timeout 60 "$e2e_tmp/abi_no_init" >"$e2e_tmp/abi_no_init.out" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^----> ABI (Stable): String: ' "$e2e_tmp/abi_no_init.out" &&
        grep -q '^----> ABI (Provisional): String: ' "$e2e_tmp/abi_no_init.out"; then
        e2e_ok "OpenPMIx's examples/abi_no_init.c: ABI versions queried before PMIx_Init"
    else
        e2e_not_ok "OpenPMIx's examples/abi_no_init.c (exit $rc)"
        e2e_diag "$e2e_tmp/abi_no_init.out"
    fi
else
    e2e_not_ok "abi_no_init: could not build $exdir/abi_no_init.c against OpenPMIx"
fi
# the programs ran on our library, not OpenPMIx's (with WU_EXAMPLES_WIRE, on OpenPMIx's)
if [ "$wire" = 1 ]; then
    whose="OpenPMIx's"
    want="$sys_libdir/libpmix.so.2"
    ! grep -q 'Wireup' "$e2e_tmp/abi_no_init.out" 2>/dev/null &&
        ldd "$e2e_tmp/hello" 2>/dev/null | grep -q "$want"
    loaded=$?
else
    whose=our
    want="$b/.libs/libpmix.so.2"
    { grep -q 'Wireup' "$e2e_tmp/abi_no_init.out" 2>/dev/null ||
        ldd "$e2e_tmp/hello" 2>/dev/null | grep -q "$want"; }
    loaded=$?
fi
if [ $loaded -eq 0 ]; then
    e2e_ok "the examples load $whose libpmix.so.2 (${want%/*})"
else
    e2e_not_ok "the examples do not load $whose libpmix.so.2"
    ldd "$e2e_tmp/hello" >"$e2e_tmp/ldd.out" 2>&1
    e2e_diag "$e2e_tmp/ldd.out"
fi
e2e_exit
