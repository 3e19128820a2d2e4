#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz.sh -- build the fuzz targets of test/fuzz/ with clang + libFuzzer (ASan, UBSan) in
# _build/fuzz and run each for a bounded time (docs/fuzzing.md). Exits non-zero if a target
# crashes, leaks, hangs or stops answering; the input that did it is kept and its path printed.
#   contrib/fuzz.sh [--time SECONDS] [--target decode|server|pmi] [--jobs N] [--seeds]
#   --time     seconds per target (default 60; CI uses 45; long runs: --time 3600 or more)
#   --target   run only this target (default: all)
#   --jobs     parallel libFuzzer workers per target (default 1)
#   --seeds    rewrite test/fuzz/corpus/ from the generator (fuzz_seeds) and stop
# New inputs that add coverage collect in _build/fuzz/corpus/<target>/ (the tree's seeds are
# only read); crashes go to _build/fuzz/artifacts/. FUZZ_BUILDDIR names another build directory
# (CI uses _build/ci-fuzz), FUZZ_CC another clang.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
secs=60
targets="decode server pmi"
jobs=1
seeds=no
while [ $# -gt 0 ]; do
    case $1 in
    --time) secs=$2; shift ;;
    --target) targets=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --seeds) seeds=yes ;;
    *) echo "usage: $0 [--time SECONDS] [--target decode|server|pmi] [--jobs N] [--seeds]" >&2; exit 2 ;;
    esac
    shift
done
CC=${FUZZ_CC:-clang}
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "fuzz.sh: $CC not found: install clang and libclang-rt-dev (contrib/deps.sh --test)" >&2
    exit 1
fi
dir=${FUZZ_BUILDDIR:-$top/_build/fuzz}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
# pointer-overflow reports go through test/fuzz/ubsan.supp (only recoverable checks can be
# suppressed; halt_on_error below still stops on every report that is not suppressed)
recover="-fsanitize-recover=pointer-overflow"
mkdir -p "$dir" && cd "$dir" || exit 1
[ -x "$top/configure" ] || (cd "$top" && ./autogen.pl >/dev/null) || exit 1
if [ ! -f Makefile ]; then
    echo "== fuzz: configure (CC=$CC, libFuzzer, ASan, UBSan) in $dir"
    if ! "$top/configure" CC="$CC" --disable-shared \
        CFLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $san $recover" \
        LDFLAGS="$san" >configure.out 2>&1; then
        tail -30 configure.out; exit 1
    fi
fi
echo "== fuzz: build"
progs="test/fuzz/fuzz_decode test/fuzz/fuzz_server test/fuzz/fuzz_pmi test/fuzz/fuzz_seeds"
# shellcheck disable=SC2086
if ! make -j"$(nproc 2>/dev/null || echo 2)" $progs >make.out 2>&1; then
    grep -E -B3 -A3 'error' make.out | head -60; exit 1
fi
if [ "$seeds" = yes ]; then
    # the regression inputs (regress-*) and the bytes of the real OpenPMIx (openpmix-*) are kept
    find "$top/test/fuzz/corpus/decode" "$top/test/fuzz/corpus/server" -type f ! -name 'regress-*' ! -name 'openpmix-*' -exec rm -f {} +
    exec ./test/fuzz/fuzz_seeds "$top/test/fuzz/corpus"
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$top/test/fuzz/ubsan.supp"
status=0
for t in $targets; do
    work="$dir/corpus/$t"
    art="$dir/artifacts"
    mkdir -p "$work" "$art"
    dict=""
    par=""
    [ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
    [ -f "$top/test/fuzz/$t.dict" ] && dict="-dict=$top/test/fuzz/$t.dict"
    echo "== fuzz: $t for ${secs}s ($jobs worker(s)); log in $dir/fuzz-$t.log"
    # -close_fd_mask=3: the server's own messages about bad input would drown the log (libFuzzer
    # keeps its reports); -timeout: one input taking this long is a hang
    # shellcheck disable=SC2086
    "./test/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 -close_fd_mask=3 \
        $par -artifact_prefix="$art/$t-" $dict "$work" \
        "$top/test/fuzz/corpus/$t" >"$dir/fuzz-$t.log" 2>&1
    rc=$?
    [ "$jobs" -gt 1 ] && cat fuzz-*.log >>"$dir/fuzz-$t.log" 2>/dev/null
    grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs)' "$dir/fuzz-$t.log" | tail -1
    if [ $rc -ne 0 ]; then
        status=1
        grep -E -A25 'ERROR|runtime error|fuzz_(server|decode|pmi):' "$dir/fuzz-$t.log" | head -60
        for a in $(grep -o "Test unit written to .*" "$dir/fuzz-$t.log" | sed 's/.* to //' | sort -u); do
            echo "fuzz: $t FAILED; reproducer: $a"
            echo "  reproduce: $dir/test/fuzz/fuzz_$t $a"
            echo "  after the fix, keep it: cp $a $top/test/fuzz/corpus/$t/regress-<what>"
        done
    fi
done
[ $status -eq 0 ] && echo "== fuzz: no failures"
exit $status
