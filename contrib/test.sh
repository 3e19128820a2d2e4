#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test.sh -- the README's second command (and what CI runs): install what is missing, then build
# and run the whole test suite twice: a debug build with -Werror, and an AddressSanitizer +
# UndefinedBehaviorSanitizer build with every component as a DSO; then the multi-threaded client
# tests under ThreadSanitizer; then builds Wireup inside a Debian 13 root file system and runs the
# Debian 13 tests there (contrib/deb13.sh). Also checks formatting and fuzzes the wire decoder
# and the server's handlers for a short while (contrib/fuzz.sh).
# Exits non-zero on any failure. Build trees go to _build/ci-* (removed first).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=$(nproc 2>/dev/null || echo 2)
sh contrib/deps.sh --test || exit 1
./autogen.pl >/dev/null 2>&1 || { ./autogen.pl; exit 1; }

total_pass=0
total_fail=0
status=0

# run_build NAME CONFIGURE-ARGS...
run_build() {
    name=$1; shift
    dir="$top/_build/ci-$name"
    rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || return 1
    echo "== [$name] configure $*"
    if ! "$top/configure" "$@" >configure.out 2>&1; then
        tail -30 configure.out; status=1; cd "$top"; return 1
    fi
    echo "== [$name] build"
    if ! make -j"$jobs" >make.out 2>&1; then
        grep -E -B3 -A3 'error|warning' make.out | head -60; status=1; cd "$top"; return 1
    fi
    echo "== [$name] make check${ci_tests:+ TESTS=\"$ci_tests\"}"
    if [ -n "${ci_tests:-}" ]; then
        make -j"$jobs" check TESTS="$ci_tests" >check.out 2>&1
    else
        make -j"$jobs" check >check.out 2>&1
    fi
    rc=$?
    grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' check.out | sed "s/^/[$name] /"
    pass=$(sed -n 's/^# PASS: *//p' check.out | tail -1)
    fail=$(sed -n 's/^# FAIL: *//p' check.out | tail -1)
    err=$(sed -n 's/^# ERROR: *//p' check.out | tail -1)
    total_pass=$((total_pass + ${pass:-0}))
    total_fail=$((total_fail + ${fail:-0} + ${err:-0}))
    if [ $rc -ne 0 ]; then
        status=1
        echo "== [$name] FAILED; failing tests:"
        for log in $(find . -name '*.log' ! -name test-suite.log ! -name config.log); do
            if grep -qE '^(not ok|Bail out)' "$log" 2>/dev/null || grep -q 'ERROR' "${log%.log}.trs" 2>/dev/null; then
                echo "---- $log"; tail -40 "$log"
            fi
        done
    fi
    cd "$top"
}

run_build debug --enable-debug --enable-werror
# sanitizers slow everything down several times: give Check's per-test timeouts room.
# Every component is a DSO here (the debug build links them in), so both ways are tested;
# test/unit/tools/dso_components.sh checks that each one is loaded from its file.
CK_TIMEOUT_MULTIPLIER=4 run_build asan --enable-werror --enable-mca-dso \
    CFLAGS="-g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    LDFLAGS="-fsanitize=address,undefined"

# ThreadSanitizer (clang; its runtime is linked into every program): the client tests that call
# Get from several threads at once while the progress thread changes the store, and the data
# exchange tests, wrun and its server included, and a thread reading its own reply from the
# connection while the progress thread may take over (check_ptl_await). A race report fails
# the program (exit 66) and so the test. clang knows no -Wshadow=local: no -Werror here (the debug build has it).
ci_tests="test/e2e/threads.sh test/e2e/shmem.sh test/e2e/exchange.sh test/e2e/scopes.sh"
ci_tests="$ci_tests test/unit/client/check_client_server test/unit/mca/ptl/check_ptl_await"
TSAN_OPTIONS="halt_on_error=1 exitcode=66"
export TSAN_OPTIONS
run_build tsan CC=clang CFLAGS="-g -O1 -fsanitize=thread -fno-omit-frame-pointer" \
    LDFLAGS="-fsanitize=thread"
ci_tests=

# Debian 13 (trixie) beside Debian 12: a root file system with Open MPI 5, OpenPMIx 5,
# python3-pmix, mpi4py and Slurm 24.11 (contrib/deb13.sh; made once per run, reused when it is
# already there), Wireup built inside it, and the tests of test/deb13/tests run there: the ABI
# against OpenPMIx 5.0's headers and library, and Debian 13's programs under wrun.
echo "== [deb13] contrib/deb13.sh setup, build, check"
deb13_root="$top/_build/deb13/root"
if sh "$top/contrib/deb13.sh" setup "$deb13_root" && sh "$top/contrib/deb13.sh" build "$deb13_root"; then
    sh "$top/contrib/deb13.sh" check "$deb13_root" >"$top/_build/deb13/check.out" 2>&1
    rc=$?
    grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$top/_build/deb13/check.out" | sed 's/^/[deb13] /'
    pass=$(sed -n 's/^# PASS: *//p' "$top/_build/deb13/check.out" | tail -1)
    fail=$(sed -n 's/^# FAIL: *//p' "$top/_build/deb13/check.out" | tail -1)
    err=$(sed -n 's/^# ERROR: *//p' "$top/_build/deb13/check.out" | tail -1)
    total_pass=$((total_pass + ${pass:-0}))
    total_fail=$((total_fail + ${fail:-0} + ${err:-0}))
    if [ $rc -ne 0 ] || [ -z "$pass" ]; then
        status=1
        [ -n "$pass" ] || total_fail=$((total_fail + 1))
        echo "== [deb13] FAILED; failing tests:"
        for log in $(find "$deb13_root/wireup/build" -name '*.log' ! -name test-suite.log ! -name config.log); do
            if grep -qE '^(not ok|Bail out)' "$log" 2>/dev/null || grep -q 'ERROR' "${log%.log}.trs" 2>/dev/null; then
                echo "---- $log"; tail -40 "$log"
            fi
        done
        tail -20 "$top/_build/deb13/check.out"
    fi
else
    status=1
    total_fail=$((total_fail + 1))
fi

echo "== [dist] make distcheck (the release tarball builds and passes make check on its own)"
if [ -f "$top/_build/ci-debug/Makefile" ]; then
    if (cd "$top/_build/ci-debug" && make distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror >distcheck.out 2>&1); then
        total_pass=$((total_pass + 1))
    else
        tail -40 "$top/_build/ci-debug/distcheck.out"; total_fail=$((total_fail + 1)); status=1
    fi
fi

# a short fuzz run of each target (docs/fuzzing.md); WU_FUZZ_TIME=0 skips it
fuzz_time=${WU_FUZZ_TIME:-45}
if [ "$fuzz_time" -gt 0 ]; then
    echo "== [fuzz] contrib/fuzz.sh --time $fuzz_time (each target)"
    rm -rf "$top/_build/ci-fuzz"
    if FUZZ_BUILDDIR="$top/_build/ci-fuzz" sh "$top/contrib/fuzz.sh" --time "$fuzz_time"; then
        total_pass=$((total_pass + 1))
    else
        total_fail=$((total_fail + 1)); status=1
    fi
fi

echo "== format check (clang-format, .clang-format)"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './_build/*')
if command -v clang-format >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    if clang-format --dry-run --Werror $files >format.out 2>&1; then
        total_pass=$((total_pass + 1))
    else
        head -40 format.out; total_fail=$((total_fail + 1)); status=1
        echo "format: run clang-format -i on the files above"
    fi
    rm -f format.out
fi

echo "$total_pass passed, $total_fail failed"
exit $status
