#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 28 acceptance, Debian 13): OpenPMIx 5's own example programs (their sources are
# in Debian 13's libpmix-dev, /usr/share/doc/libpmix-dev/examples; examples.h is ours, in
# test/e2e/openpmix_examples/), built against OpenPMIx 5's headers and library, each run under
# Debian 13's own launcher (prterun, OpenPMIx's library) and under wrun (our library first in
# LD_LIBRARY_PATH). An example passes under a launcher when it exits 0 within its time and prints
# no line reporting a failure. Every example that passes under prterun must pass under wrun and
# print the same lines, once the parts that differ from run to run are made alike: namespaces,
# pids, the host's name, context ids, the launchers' own messages, the universe size (prterun
# counts the node's slots, wrun the job's processes: docs/compat-notes.md) and the order of the
# ranks' lines. An example that fails under prterun is skipped, with prterun's reason. Skipped
# without prterun or the examples (contrib/deb13.sh runs it in the Debian 13 root).
# With WU_EXAMPLES_WIRE=1 (openpmix5_examples_wire.sh) the programs are built with an RPATH to
# OpenPMIx 5's library and run under `wrun --keep-library-path`: on OpenPMIx's own library,
# talking to wrun's server in OpenPMIx's protocol, they must pass all the same.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
wire=${WU_EXAMPLES_WIRE:-0}
keep=""
rpath=""
if [ "$wire" = 1 ]; then
    # OpenPMIx's library must not see the test harness's component path (it holds ours, which
    # OpenPMIx 5 lists as having a bad prefix); wrun needs it, so it is dropped per program
    keep="--keep-library-path env -u PMIX_MCA_mca_base_component_path"
    rpath="-Wl,--disable-new-dtags,-rpath,${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}"
fi
exdir=${WU_OPENPMIX_EXAMPLES:-/usr/share/doc/libpmix-dev/examples}
if ! command -v prterun >/dev/null 2>&1 || [ ! -r "$exdir/pubi.c" ] ||
    ! grep -q 'PMIX_VERSION_MAJOR *5L' /usr/lib/x86_64-linux-gnu/pmix2/include/pmix_version.h \
        2>/dev/null; then
    echo "1..0 # SKIP no prterun, or no OpenPMIx 5 example sources (Debian 13's libpmix-dev)"
    exit 0
fi
# name:ranks, in the order OpenPMIx's examples/Makefile.am lists them (the tools, the debugger
# and server examples need a tool or host of their own; resolve spawns a program it lacks)
examples="client:4 client2:2 client3:2 dmodex:4 dynamic:2 fault:4 pub:2 pubi:2 alloc:2 jctrl:2
group:4 group_dmodex:4 asyncgroup:4 hello:2 nodeinfo:4 abi_with_init:1 group_lcl_cid:4 pset:2
log:2 simple_resolve:2 pubstress:2 bad_exit:2"
e2e_plan $(($(echo $examples | wc -w) + 1))
e2e_mktemp
root_flag=
[ "$(id -u)" -eq 0 ] && root_flag=--allow-run-as-root

# normalize FILE: the lines of one run made comparable with another's. Left out: the
# launchers' own messages (wrun's, prterun's boxes, PRRTE's "Query for unrecognized attribute"
# of a query its server does not know), the tag wrun puts before a PMIx_Log message and the
# leading blanks, characters that are not text (PRRTE's PMIx_Log output has NULs), and repeated
# lines (PRRTE prints a PMIx_Log message twice).
normalize() {
    LC_ALL=C tr -cd '[:print:]\t\n' <"$1" | sed -e '/^--------*$/,/^--------*$/d' |
        grep -av -e '^wrun: ' -e '^prterun: ' -e '^\[[^]]*\] PMIX ERROR' -e '^$' \
            -e '^Query for unrecognized attribute: ' |
        sed -E -e 's/^[[:space:]]+//' -e 's/^\[wrun\.[^]:]+:[0-9]+\] //' |
        sed -E -e 's/prterun-[^ @:,]+-[0-9]+@([0-9]+)/NS@\1/g' \
            -e 's/wrun\.[^ :,]+\.[0-9]+\.([0-9]+)/NS@\1/g' \
            -e "s/$(hostname)/HOST/g" -e 's/pid = [0-9]+/pid = P/g' -e 's/pid [0-9]+/pid P/g' \
            -e 's/^\[[0-9]+\] /[P] /' -e 's/^Client [0-9]+: Running/Client P: Running/' \
            -e 's/universe size [0-9]+/universe size U/' -e 's/CID [0-9]+/CID X/g' \
            -e 's/value: [0-9]+/value: X/g' |
        LC_ALL=C sort -u
}

# failed FILE RC: why a run did not pass ("" when it did): its exit status, or a line that
# reports a failure (or a collective completed with an error status)
failed() {
    why=""
    [ "$2" -eq 0 ] || why="exit $2"
    bad=$(normalize "$1" | grep -ai -e 'fail' -e 'complete with status PMIX_ERR' | head -n 1)
    [ -z "$bad" ] || why="${why:+$why; }it says: $bad"
    echo "$why"
}

built=0
here=$(pwd)
cd "$e2e_tmp" || exit 1 # dynamic spawns ./client from its working directory
for spec in $examples; do
    name=${spec%:*}
    np=${spec#*:}
    # shellcheck disable=SC2086 # $rpath: one word or none
    if ! e2e_openpmix_build "$e2e_tmp/$name" "$exdir/$name.c" \
        -I"$s/test/e2e/openpmix_examples" -lpthread $rpath; then
        e2e_not_ok "examples/$name.c does not build against OpenPMIx 5"
        e2e_diag "$e2e_tmp/cc.err"
        continue
    fi
    built=$((built + 1))
    # prterun runs on OpenPMIx's library (its own needs it): nothing of ours in its environment,
    # no PMIX_MCA_* of the test harness (a component path of ours hides OpenPMIx's components)
    # shellcheck disable=SC2046
    env -u LD_LIBRARY_PATH -u LD_PRELOAD $(env | sed -n 's/^\(PMIX_[A-Za-z0-9_]*\)=.*/-u \1/p') \
        timeout 30 prterun $root_flag --map-by :oversubscribe -n "$np" "./$name" >"$name.ref" 2>&1
    ref_rc=$?
    ref_why=$(failed "$name.ref" "$ref_rc")
    if [ -n "$ref_why" ]; then
        e2e_skip "examples/$name.c fails under prterun too ($ref_why)"
        continue
    fi
    # shellcheck disable=SC2086 # $keep: words or none
    e2e_wrun "$name.out" "$np" $keep "./$name"
    why=$(failed "$name.out" "$e2e_rc")
    normalize "$name.ref" >"$name.ref.n"
    normalize "$name.out" >"$name.out.n"
    if [ -z "$why" ] && cmp -s "$name.ref.n" "$name.out.n"; then
        e2e_ok "examples/$name.c, -n $np: passes under wrun as under prterun" \
            "($(wc -l <"$name.out.n") lines alike)"
    else
        e2e_not_ok "examples/$name.c, -n $np: ${why:-the output differs from prterun's}"
        diff -a "$name.ref.n" "$name.out.n" | head -n 30 >"$name.diff"
        e2e_diag "$name.diff"
    fi
done

# the programs load our library under wrun (a program built against OpenPMIx could load
# OpenPMIx's): one that prints PMIx_Get_version, which names Wireup in ours (with
# WU_EXAMPLES_WIRE, OpenPMIx's library: a version of OpenPMIx 5)
printf '%s\n' '#include <pmix.h>' '#include <stdio.h>' \
    'int main(void) { puts(PMIx_Get_version()); return 0; }' >version.c
# shellcheck disable=SC2086 # $rpath: one word or none
if e2e_openpmix_build "$e2e_tmp/version" version.c $rpath; then
    # shellcheck disable=SC2086 # $keep: words or none
    e2e_wrun version.out 1 $keep ./version
    if [ "$wire" = 1 ]; then
        if [ "$e2e_rc" -eq 0 ] && ! grep -q 'Wireup' version.out &&
            grep -q 'OpenPMIx 5\.' version.out; then
            e2e_ok "under wrun --keep-library-path, the programs load OpenPMIx 5's libpmix.so.2"
        else
            e2e_not_ok "under wrun --keep-library-path, the programs do not load OpenPMIx 5's:"
            e2e_diag version.out
        fi
    elif [ "$e2e_rc" -eq 0 ] && grep -q 'Wireup' version.out; then
        e2e_ok "under wrun, a program built against OpenPMIx 5 loads our libpmix.so.2"
    else
        e2e_not_ok "under wrun, a program built against OpenPMIx 5 loads another libpmix:"
        e2e_diag version.out
    fi
else
    e2e_not_ok "a version probe does not build against OpenPMIx 5"
    e2e_diag "$e2e_tmp/cc.err"
fi
cd "$here" || exit 1
e2e_exit
