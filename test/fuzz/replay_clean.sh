#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the server fuzz target replayed over its corpus (test/fuzz/replay_server, which
# never finalizes its server) leaves nothing behind: neither its temporary directory nor the
# directory of the server's socket, both made in TMPDIR.
b=${WU_TEST_BUILDDIR:-.}
WU_TEST_SRCDIR=${WU_TEST_SRCDIR:-.}
export WU_TEST_SRCDIR
echo "1..2"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wu_replay_XXXXXX") || exit 1
trap 'rm -rf -- "$tmp"' EXIT
# as make check runs the replay (LOG_DRIVER): the target links the library's objects itself
ASAN_OPTIONS="detect_odr_violation=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
if TMPDIR="$tmp" timeout 300 "$b/test/fuzz/replay_server" >"$tmp.out" 2>&1; then
    echo "ok 1 - replay_server ran its corpus"
else
    echo "not ok 1 - replay_server failed (exit $?)"
    sed 's/^/# /' "$tmp.out" | tail -n 20
fi
rm -f -- "$tmp.out"
left=$(cd "$tmp" && find . -mindepth 1 | head -5 | tr '\n' ' ')
if [ -z "$left" ]; then
    echo "ok 2 - it left nothing in TMPDIR"
else
    echo "not ok 2 - it left files in TMPDIR: $left"
fi
