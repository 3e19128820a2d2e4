#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: test/abi/same_results.c, built against the installed OpenPMIx 4.2 headers and
# library only, prints identical output on OpenPMIx's libpmix.so.2 and on ours (value and info
# helpers, info lists, pack/unpack round trips, the strings programs print). Skipped when the
# OpenPMIx development files are not installed.
b=${WU_TEST_BUILDDIR:-.}
s=${WU_TEST_SRCDIR:-.}
lib="$b/.libs/libpmix.so.2"
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu}
cc=${CC:-cc}
echo "1..3"
if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
    for i in 1 2 3; do echo "ok $i # SKIP OpenPMIx development files not installed (libpmix-dev)"; done
    exit 0
fi
tmp=$(mktemp -d /tmp/wu_same_XXXXXX) || exit 1
trap 'rm -f "$tmp"/*; rmdir "$tmp"' EXIT
. "$s/test/abi/lib.sh"

if $cc -std=gnu11 -I"$sys_inc" -o "$tmp/same" "$s/test/abi/same_results.c" -L"$sys_libdir" -lpmix \
    2>"$tmp/cc.err"; then
    echo "ok 1 - built against OpenPMIx's headers and library only"
else
    echo "not ok 1 - could not build same_results.c"; sed 's/^/# /' "$tmp/cc.err"; exit 0
fi
LD_LIBRARY_PATH="$sys_libdir" timeout 60 "$tmp/same" >"$tmp/theirs" 2>"$tmp/theirs.err"
rc_theirs=$?
run_ours "$tmp/same" >"$tmp/ours" 2>"$tmp/ours.err"
rc_ours=$?
if [ $rc_theirs -eq 0 ] && [ $rc_ours -eq 0 ] && grep -q 'Wireup' "$tmp/ours.err" &&
   ! grep -q 'Wireup' "$tmp/theirs.err"; then
    echo "ok 2 - ran on both libraries (ours identified itself as Wireup)"
else
    echo "not ok 2 - runs: OpenPMIx exit $rc_theirs, ours exit $rc_ours"
    sed 's/^/# theirs: /' "$tmp/theirs.err" | head -5; sed 's/^/# ours: /' "$tmp/ours.err" | head -20
fi
if [ -s "$tmp/theirs" ] && cmp -s "$tmp/theirs" "$tmp/ours"; then
    echo "ok 3 - identical results ($(wc -l <"$tmp/ours") lines)"
else
    echo "not ok 3 - results differ (< OpenPMIx, > Wireup):"
    diff "$tmp/theirs" "$tmp/ours" | head -40 | sed 's/^/# /'
fi
