# SPDX-License-Identifier: BSD-3-Clause
# lab_lib.sh -- sourced by TAP tests that run jobs in a test/lab lab (after lib.sh and
# e2e_plan, e2e_mktemp). Needs: $lab_tests (the plan's count, for skipping them all).
#   lab_start NAME NODES  bring a lab of NODES nodes up (skipping every test when this machine
#                         cannot: not root, tools missing, no namespaces); down at exit
#   lab_on NODE OUT CMD...  run CMD on NODE in the build tree with the test's TMPDIR (120 s at
#                         most; sanitizer preload for programs not built here); e2e_rc its status
#   lab_ours PATTERN       the pids of the test's processes on the lab's nodes (the nodes share
#                         the process table) whose command line matches PATTERN (pgrep -f): their
#                         environment has the test's TMPDIR, so no other job is counted or killed
#   lab_nours PATTERN      how many of them there are
#   lab_left PATTERN WHAT  nothing of the test left on any node (processes whose command line
#                         matches PATTERN and whose environment has the test's TMPDIR, files in
#                         that TMPDIR); says what was, kills and removes it, fails
lab="$s/test/lab/lab.sh"
lab_up=0

lab_skip_all() {
    k=0
    while [ "$k" -lt "$lab_tests" ]; do
        e2e_skip "$1"
        k=$((k + 1))
    done
    e2e_exit
}

lab_start() {
    lab_name=$1
    WU_LAB_DIR=$e2e_tmp/lab
    export WU_LAB_DIR
    [ "$(id -u)" -eq 0 ] || lab_skip_all "needs root (network, UTS and mount namespaces)"
    for c in unshare nsenter ip ssh /usr/sbin/sshd; do
        command -v "$c" >/dev/null 2>&1 ||
            lab_skip_all "$c is missing (contrib/deps.sh --test installs it)"
    done
    [ -x "$b/wired" ] || lab_skip_all "wired is not built in $b"
    unshare --net --uts --mount true 2>/dev/null || lab_skip_all "cannot make namespaces here"
    # programs not built here (Open MPI's) need our library's sanitizer runtimes loaded first
    lib="$b/.libs/libpmix.so.2"
    cc=${CC:-cc}
    . "$s/test/abi/lib.sh"
    lab_env="env"
    if [ -n "$wu_abi_preload" ]; then
        lab_env="env LD_PRELOAD=$wu_abi_preload ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    fi
    # the lab's nodes have a network of their own (IPv4 on eth0): Open MPI uses it, not only the
    # loopback a single-node run may have been told to use (contrib/deb13.sh check)
    unset OMPI_MCA_btl_tcp_if_include
    # one lab at a time on this machine (make check -j runs tests side by side): every node of a
    # lab shares the machine's few cores, and two labs' jobs of busy-polling MPI ranks (6 each,
    # on the 2 cores CI has) slowed each other's multi-node runs past their time limits. The
    # lock (on test/lab/lab.sh itself, which leaves no file behind) is held until the test
    # exits.
    if command -v flock >/dev/null 2>&1; then
        exec 8<"$lab"
        flock 8
    fi
    trap 'lab_stop; e2e_cleanup' EXIT
    lab_up=1
    if ! timeout 90 "$lab" up "$2" "$lab_name" >"$e2e_tmp/up.out" 2>&1; then
        e2e_diag "$e2e_tmp/up.out"
        lab_skip_all "the lab did not come up"
    fi
}

lab_stop() {
    [ "$lab_up" -eq 1 ] || return 0
    lab_up=0
    timeout 60 "$lab" down "$lab_name" >"$e2e_tmp/down.out" 2>&1
}

lab_on() {
    node=$1
    out=$2
    shift 2
    # shellcheck disable=SC2086 # $lab_env is words
    (cd "$b" && TMPDIR="$e2e_tmp/t" timeout -k 10 120 "$lab" on "$node" $lab_env "$@") >"$out" 2>&1
    e2e_rc=$?
}

lab_ours() {
    for p in $(env -u LD_PRELOAD pgrep -f "$1"); do
        if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qxF "TMPDIR=$e2e_tmp/t"; then
            echo "$p"
        fi
    done
}

lab_nours() {
    lab_ours "$1" | wc -l
}

lab_left() {
    sleep 0.3
    left=$(lab_ours "$1" | tr '\n' ' ')
    files=$(find "$e2e_tmp/t" -mindepth 1 -not -name 'wu-rdv.*' 2>/dev/null | head -5)
    if [ -n "$left" ] || [ -n "$files" ]; then
        echo "# left after $2: processes: $left; files: $files"
        # shellcheck disable=SC2086
        [ -z "$left" ] || kill -9 $left 2>/dev/null
        rm -rf "${e2e_tmp:?}/t/"*
        return 1
    fi
    return 0
}
