# SPDX-License-Identifier: BSD-3-Clause
# lib.sh -- sourced by the end-to-end tests: TAP output, the private temporary directory, and
# running the test programs under the launcher. Every wrun gets `timeout -k 10 120` (exit 124 =
# hang; 137: it outlived the TERM by 10 s and was killed). The programs are built by this tree
# with its CFLAGS (sanitizers included), so they need no preloading.
#   WU_TEST_BUILDDIR  the build tree (wrun, test/e2e/*, .libs/libpmix.so.2); default .
#   WU_TEST_SRCDIR    the source tree; default .
b=${WU_TEST_BUILDDIR:-.}
s=${WU_TEST_SRCDIR:-.}
wrun="$b/wrun"
e2e="$b/test/e2e"
e2e_n=0
e2e_failed=0
e2e_tmp=

# e2e_plan COUNT: print the TAP plan (COUNT tests plus the final leak check of e2e_exit); skip
# everything when wrun is not built
e2e_plan() {
    if [ ! -x "$wrun" ]; then
        echo "1..0 # SKIP wrun is not built in $b"
        exit 0
    fi
    echo "1..$(($1 + 1))"
}

e2e_ok() {
    e2e_n=$((e2e_n + 1))
    echo "ok $e2e_n - $*"
}

e2e_not_ok() {
    e2e_n=$((e2e_n + 1))
    e2e_failed=1
    echo "not ok $e2e_n - $*"
}

e2e_skip() {
    e2e_n=$((e2e_n + 1))
    echo "ok $e2e_n # SKIP $*"
}

# e2e_diag FILE: show (the end of) a file as TAP comments
e2e_diag() {
    [ -f "$1" ] && tail -n "${2:-40}" "$1" | sed 's/^/# /'
    return 0
}

# e2e_mktemp: make the test's private directory $e2e_tmp, removed at exit, and in it the
# TMPDIR given to wrun and the programs ($e2e_tmp/t), so that what they leave behind is seen
e2e_mktemp() {
    e2e_tmp=$(mktemp -d "${TMPDIR:-/tmp}/wu_e2e_XXXXXX") || exit 1
    trap e2e_cleanup EXIT
    trap 'exit 1' INT TERM HUP
    mkdir "$e2e_tmp/t" || exit 1
    e2e_leaks=
}

e2e_cleanup() {
    case "$e2e_tmp" in
    */wu_e2e_??????) rm -rf -- "$e2e_tmp" ;;
    esac
}

# e2e_wrun OUT N PROG [ARGS...]: run PROG under `wrun --oversubscribe -n N` (CI machines have
# fewer cores than the tests have ranks) with a 120 s limit, output (stdout and stderr) in OUT;
# sets e2e_rc to wrun's exit status
e2e_wrun() {
    out=$1
    np=$2
    shift 2
    TMPDIR="$e2e_tmp/t" timeout -k 10 120 "$wrun" --oversubscribe -n "$np" "$@" >"$out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "wrun -n $np ${1##*/} ${2:-}"
    return 0
}

# e2e_same_exchange WHAT OPTS...: the exchange program $e2e_tmp/exchange (another build of
# e2e_exchange.c) run with wrun OPTS on 4 ranks in every mode prints what our build prints;
# e2e_same is 1 if so, else 0 (the differences are shown)
e2e_same_exchange() {
    what=$1
    shift
    e2e_same=1
    for mode in collect nocollect direct scopes; do
        e2e_wrun "$e2e_tmp/theirs" 4 "$@" "$e2e_tmp/exchange" $mode
        rc_theirs=$e2e_rc
        e2e_wrun "$e2e_tmp/ours" 4 "$e2e/e2e_exchange" $mode
        grep '^exchange ' "$e2e_tmp/theirs" | sort >"$e2e_tmp/t.sorted"
        grep '^exchange ' "$e2e_tmp/ours" | sort >"$e2e_tmp/o.sorted"
        if [ "$rc_theirs" -ne 0 ] || [ "$e2e_rc" -ne 0 ] ||
            [ "$(wc -l <"$e2e_tmp/t.sorted")" -ne 4 ] ||
            ! cmp -s "$e2e_tmp/t.sorted" "$e2e_tmp/o.sorted"; then
            e2e_same=0
            echo "# mode $mode: $what exit $rc_theirs, our build exit $e2e_rc"
            e2e_diag "$e2e_tmp/theirs" 20
            diff "$e2e_tmp/t.sorted" "$e2e_tmp/o.sorted" | sed 's/^/# /'
        fi
    done
}

# e2e_meet PROG MODE WHAT: two separate wrun jobs of 2 ranks, `PROG MODE a` (started first, in
# the background) and `PROG MODE b`; passes (DESC WHAT) when both exit 0 and every rank of both
# printed "<PROG without e2e_> MODE: rank R ok"
e2e_meet() {
    TMPDIR="$e2e_tmp/t" timeout -k 10 120 "$wrun" -n 2 --oversubscribe "$1" "$2" a \
        >"$e2e_tmp/a.out" 2>&1 &
    e2e_meet_pid=$!
    TMPDIR="$e2e_tmp/t" timeout -k 10 120 "$wrun" -n 2 --oversubscribe "$1" "$2" b \
        >"$e2e_tmp/b.out" 2>&1
    e2e_meet_b=$?
    wait $e2e_meet_pid
    e2e_meet_a=$?
    e2e_meet_line="^$(basename "$1" | sed 's/^e2e_//') $2: rank [0-9]* ok"
    e2e_meet_na=$(e2e_count_lines "$e2e_tmp/a.out" "$e2e_meet_line")
    e2e_meet_nb=$(e2e_count_lines "$e2e_tmp/b.out" "$e2e_meet_line")
    e2e_check_leaks "two jobs: $3"
    if [ "$e2e_meet_a" -eq 0 ] && [ "$e2e_meet_b" -eq 0 ] && [ "$e2e_meet_na" -eq 2 ] &&
        [ "$e2e_meet_nb" -eq 2 ]; then
        e2e_ok "$3"
    else
        e2e_not_ok "$3: a exit $e2e_meet_a ($e2e_meet_na ok), b exit $e2e_meet_b ($e2e_meet_nb ok)"
        e2e_diag "$e2e_tmp/a.out"
        e2e_diag "$e2e_tmp/b.out"
    fi
}

# e2e_sanitized: is this a sanitizer build (libpmix.so.2 needs a sanitizer runtime, or, with
# clang's ThreadSanitizer whose runtime is in the programs, calls __tsan_* functions)? Memory
# bounds are not asserted there: the sanitizers' own bookkeeping dwarfs what is measured.
e2e_sanitized() {
    readelf -d "$b/.libs/libpmix.so.2" 2>/dev/null | grep -q 'NEEDED.*lib[a-z]*san\.so' ||
        nm -D "$b/.libs/libpmix.so.2" 2>/dev/null | grep -q ' U __tsan_'
}

# e2e_wrun_hwm OUT N PROG [ARGS...]: e2e_wrun that also samples wrun's peak resident memory
# (VmHWM, which only grows) while it runs; sets e2e_hwm_kb (0 if never read)
e2e_wrun_hwm() {
    out=$1
    np=$2
    shift 2
    TMPDIR="$e2e_tmp/t" timeout -k 10 120 "$wrun" --oversubscribe -n "$np" "$@" >"$out" 2>&1 &
    pid=$!
    e2e_hwm_kb=0
    # timeout execs nothing: wrun is its child (the libtool wrapper execs the real binary)
    while kill -0 "$pid" 2>/dev/null; do
        for c in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
            h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$c/status" 2>/dev/null)
            [ -n "$h" ] && [ "$h" -gt "$e2e_hwm_kb" ] && e2e_hwm_kb=$h
        done
        sleep 0.1
    done
    wait "$pid"
    e2e_rc=$?
    e2e_check_leaks "wrun -n $np ${1##*/} ${2:-}"
    return 0
}

# e2e_hold_wait JOB: wait (up to 60 s) until the e2e_hold rank of the background wrun JOB has
# written its server's URI and wrun's pid into $e2e_tmp; sets uri and pid. If it does not, the
# test fails, JOB is killed and the script ends.
e2e_hold_wait() {
    for _ in $(seq 600); do
        [ -f "$e2e_tmp/uri.0" ] && break
        sleep 0.1
    done
    uri=$(cat "$e2e_tmp/uri.0" 2>/dev/null)
    pid=$(cat "$e2e_tmp/wrun.pid" 2>/dev/null)
    if [ -z "$uri" ] || [ -z "$pid" ] || ! grep -q wrun "/proc/$pid/cmdline" 2>/dev/null; then
        e2e_not_ok "the rank did not name its server (uri '$uri', wrun pid '$pid')"
        kill "$1" 2>/dev/null
        wait "$1"
        e2e_diag "$e2e_tmp/out"
        e2e_exit
    fi
}

# e2e_check_leaks WHAT: note (for e2e_exit) what WHAT left in the private TMPDIR, and clear it
e2e_check_leaks() {
    left=$(cd "$e2e_tmp/t" && find . -mindepth 1 -maxdepth 2 | head -5 | tr '\n' ' ')
    if [ -n "$left" ]; then
        e2e_leaks="$e2e_leaks
# after '$1': $left"
        rm -rf -- "${e2e_tmp:?}/t" && mkdir "$e2e_tmp/t"
    fi
}

# e2e_expect_ok DESC OUT: wrun exited 0 (prints the TAP line and, on failure, the output)
e2e_expect_ok() {
    if [ "$e2e_rc" -eq 0 ]; then
        e2e_ok "$1"
    else
        if [ "$e2e_rc" -eq 124 ] || [ "$e2e_rc" -eq 137 ]; then
            e2e_not_ok "$1 (HANG: killed by timeout after 120 s)"
        else
            e2e_not_ok "$1 (wrun exit $e2e_rc)"
        fi
        e2e_diag "$2"
    fi
}

# e2e_count_lines OUT PATTERN: number of lines of OUT matching the grep pattern
e2e_count_lines() {
    grep -c -- "$2" "$1" 2>/dev/null || true
}

# e2e_pids_gone DIR: every pid in DIR/pid.* is no longer running (prints survivors)
e2e_pids_gone() {
    gone=0
    for f in "$1"/pid.*; do
        [ -f "$f" ] || continue
        p=$(cat "$f")
        if kill -0 "$p" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
            echo "# rank pid $p (${f##*/}) is still running: killing it"
            kill -9 "$p" 2>/dev/null
            gone=1
        fi
    done
    return $gone
}

# e2e_foreign_preload: programs not built by this tree (Open MPI's, OpenPMIx's examples) run on
# our libpmix.so.2: in a sanitizer build they lack the runtimes it needs, which are preloaded
# (exported for every program run next; leak checking is left to the unit tests)
e2e_foreign_preload() {
    lib="$b/.libs/libpmix.so.2" # what test/abi/lib.sh reads
    cc=${CC:-cc}
    . "$s/test/abi/lib.sh"
    if [ -n "$wu_abi_preload" ]; then
        LD_PRELOAD="$wu_abi_preload"
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
        export LD_PRELOAD ASAN_OPTIONS
    fi
}

# e2e_ompi_sm: the name of Open MPI's shared-memory BTL, "vader" in Open MPI 4, "sm" from
# Open MPI 5 on (which no longer knows "vader"); e2e_ompi_major: the major version (0 if none)
e2e_ompi_major() {
    ompi_info --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\)\..*/\1/p' | grep . || echo 0
}
e2e_ompi_sm() {
    if [ "$(e2e_ompi_major)" -ge 5 ]; then echo sm; else echo vader; fi
}

# e2e_ompi_local_tcp: Open MPI's TCP BTL on loopback unless told otherwise (a machine whose
# only network is IPv6 leaves Open MPI 5's TCP BTL no pairing between two local processes;
# a no-op for Open MPI 4.1 on one node)
e2e_ompi_local_tcp() {
    OMPI_MCA_btl_tcp_if_include=${OMPI_MCA_btl_tcp_if_include:-lo}
    export OMPI_MCA_btl_tcp_if_include
}

# e2e_python MODULE PACKAGE: set py to Debian's python3 (the one its python3-* packages serve);
# skip the whole test when it cannot import MODULE (PACKAGE names what to install)
e2e_python() {
    py=/usr/bin/python3
    if ! [ -x "$py" ] || ! (cd / && "$py" -c "import $1" >/dev/null 2>&1); then
        echo "1..0 # SKIP $2 is not installed"
        exit 0
    fi
}

# e2e_need_openpmix: set sys_inc and sys_libdir to OpenPMIx's installed headers and library
# (WU_OPENPMIX_INCDIR, WU_OPENPMIX_LIBDIR) and cc; skip the whole test when they are missing
e2e_need_openpmix() {
    sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
    sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
    cc=${CC:-cc}
    if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
        echo "1..0 # SKIP OpenPMIx development files not installed (libpmix-dev)"
        exit 0
    fi
}

# e2e_openpmix_build PROG SRC [LIBS...]: build SRC against OpenPMIx's installed headers and
# library (WU_OPENPMIX_INCDIR, WU_OPENPMIX_LIBDIR) into PROG, and have the programs run next load
# our libpmix.so.2 (LD_LIBRARY_PATH; in a sanitizer build also the runtimes a program built
# elsewhere lacks). Returns 2 when OpenPMIx's development files are not installed, 1 when the
# build fails (the compiler's errors in $e2e_tmp/cc.err), 0 when PROG is ready.
e2e_openpmix_build() {
    sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
    sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
    if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
        return 2
    fi
    prog=$1
    src=$2
    shift 2
    ${CC:-cc} -std=gnu11 -I"$sys_inc" -o "$prog" "$src" -L"$sys_libdir" -lpmix "$@" \
        2>"$e2e_tmp/cc.err" || return 1
    e2e_foreign_preload
    case ":${LD_LIBRARY_PATH:-}:" in
    *":$b/.libs:"*) ;;
    *) LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
    esac
    export LD_LIBRARY_PATH
    return 0
}

# e2e_exit: the last test (nothing left behind in TMPDIR by any run), then exit. TAP carries
# the verdict: the script itself exits 0 (like the other TAP tests here)
e2e_exit() {
    if [ -z "$e2e_tmp" ]; then
        exit 0
    fi
    if [ -z "$e2e_leaks" ]; then
        e2e_ok "wrun and its processes left no files in TMPDIR"
    else
        e2e_not_ok "files left in TMPDIR after the runs (session directories, sockets):"
        echo "$e2e_leaks" | sed '/^$/d'
    fi
    exit 0
}

# e2e_reach OUT RC: how far a program run with E2E_TRACE_STEPS got: the distinct steps its
# ranks started ("e2e-step" lines), 1000 more when the run (exit status RC) passed
e2e_reach() {
    n=$(grep '^e2e-step ' "$1" | sort -u | wc -l)
    if [ "$2" -eq 0 ] && ! grep -q 'FAIL in step' "$1"; then
        n=$((n + 1000))
    fi
    echo $n
}

# e2e_stopped_earlier OUT_A REACH_A OUT_B REACH_B: true when run A got less far than run B and
# did not stop at a step that failed in B too (how far the other ranks got before a failing
# job ended is a matter of timing, the failing step is not)
e2e_stopped_earlier() {
    sed -n "s/.*FAIL in step '\([^']*\)'.*/\1/p" "$1" | sort -u >"$1.fails"
    sed -n "s/.*FAIL in step '\([^']*\)'.*/\1/p" "$3" | sort -u >"$3.fails"
    [ "$2" -lt "$4" ] && { [ ! -s "$1.fails" ] || [ -n "$(comm -23 "$1.fails" "$3.fails")" ]; }
}
