#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (acceptance): the e2e client programs compiled against Debian's OpenPMIx 4.2 headers
# and linked with its -lpmix run under `wrun -n 4` with our build's libpmix.so.2 first in
# LD_LIBRARY_PATH: they must run on OUR library (PMIx_Get_version() says Wireup) and behave as
# the same sources built against our headers; so do the dynamic calls (spawn with
# PMIX_PARENT_ID and a connect back to the parents, groups with one context id, publish/lookup
# with PMIX_WAIT, events cached before registration and filtered by affected procs, connects).
# Skipped when libpmix-dev is not installed (contrib/deps.sh --test installs it).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
cc=${CC:-cc}
lib="$b/.libs/libpmix.so.2"
if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
    echo "1..0 # SKIP OpenPMIx development files not installed (libpmix-dev)"
    exit 0
fi
e2e_plan 15
e2e_mktemp
# our library may need the sanitizer runtimes the foreign-built programs do not load
. "$s/test/abi/lib.sh"
if [ -n "$wu_abi_preload" ]; then
    LD_PRELOAD="$wu_abi_preload"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    export LD_PRELOAD ASAN_OPTIONS
fi
LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH

built=1
for p in exchange jobinfo rfc0009 resolve query spawn group pubsub events connect; do
    if ! $cc -std=gnu11 -I"$sys_inc" -o "$e2e_tmp/$p" "$s/test/e2e/e2e_$p.c" -L"$sys_libdir" \
        -lpmix -lpthread 2>"$e2e_tmp/cc.err"; then
        built=0
        e2e_diag "$e2e_tmp/cc.err"
    fi
done
if [ $built -eq 1 ]; then
    e2e_ok "e2e programs built against OpenPMIx's headers and libpmix ($sys_inc)"
else
    e2e_not_ok "could not build the e2e programs against OpenPMIx's headers"
    e2e_exit
fi

# 2: the data exchange program runs on our library
E2E_SHOW_VERSION=1 e2e_wrun "$e2e_tmp/out" 4 "$e2e_tmp/exchange" collect
ver=$(sed -n 's/.*library: //p' "$e2e_tmp/out" | head -1)
case "$ver" in
*Wireup*) e2e_ok "runs on our libpmix.so.2: $ver" ;;
*)
    e2e_not_ok "did not run on our library (PMIx_Get_version: '${ver:-none}', wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
    ;;
esac

# 3: identical results to the build on our headers, in every mode
e2e_same_exchange "OpenPMIx-header build"
if [ $e2e_same -eq 1 ]; then
    e2e_ok "exchange (collect, nocollect, direct, scopes) identical to the build on our headers"
else
    e2e_not_ok "exchange built on OpenPMIx's headers behaves differently"
fi

# 4-8: the other programs pass as they do with our headers
e2e_wrun "$e2e_tmp/out" 4 "$e2e_tmp/jobinfo" 4
e2e_expect_ok "jobinfo (every contract key, exact types) under wrun -n 4" "$e2e_tmp/out"
e2e_wrun "$e2e_tmp/out" 4 "$e2e_tmp/rfc0009"
e2e_expect_ok "RFC0009 rules under wrun -n 4" "$e2e_tmp/out"
e2e_wrun "$e2e_tmp/out" 4 "$e2e_tmp/resolve"
e2e_expect_ok "resolve peers/nodes under wrun -n 4" "$e2e_tmp/out"
mkdir "$e2e_tmp/q" || exit 1
e2e_wrun "$e2e_tmp/out" 4 "$e2e_tmp/query" "$e2e_tmp/q"
e2e_expect_ok "query and job control under wrun -n 4" "$e2e_tmp/out"
if [ -d "$e2e_tmp/q" ] && [ ! -e "$e2e_tmp/q/cleanme" ] && [ ! -e "$e2e_tmp/q/cleanfile" ]; then
    e2e_ok "registered cleanup removed after the job"
else
    e2e_not_ok "registered cleanup not removed after the job"
fi

# 9-15: the dynamic calls of issue 14, as tested with our headers (spawn.sh, group.sh,
# pubsub.sh, events.sh, connect.sh)
# dyn N PATTERN COUNT WHAT PROG ARGS...: wrun -n N PROG ARGS passes with COUNT lines of PATTERN
dyn() {
    n=$1
    pat=$2
    cnt=$3
    what=$4
    shift 4
    e2e_wrun "$e2e_tmp/out" "$n" "$@"
    got=$(e2e_count_lines "$e2e_tmp/out" "$pat")
    if [ "$e2e_rc" -eq 0 ] && [ "$got" -eq "$cnt" ]; then
        e2e_ok "built against OpenPMIx's headers, wrun -n $n: $what"
    else
        e2e_not_ok "built against OpenPMIx's headers, wrun -n $n: $what (wrun exit $e2e_rc, $got of $cnt ok)"
        e2e_diag "$e2e_tmp/out"
    fi
}
mkdir "$e2e_tmp/spawn-wdir" || exit 1 # the children check the name
dyn 2 '^spawn \(parent\|child\): rank [0-9]* ok' 4 \
    "PMIx_Spawn: the children see PMIX_PARENT_ID, connect back and read the parents' job data" \
    "$e2e_tmp/spawn" parent "$e2e_tmp/spawn-wdir"
dyn 4 '^group job: rank [0-9]* ok' 4 "group construct, one context id at every member" \
    "$e2e_tmp/group" job
dyn 3 '^group invite: rank [0-9]* ok' 3 "group invite, join, leave" "$e2e_tmp/group" invite
dyn 3 '^pubsub rules: rank [0-9]* ok' 3 "publish/lookup rules, PMIX_WAIT" "$e2e_tmp/pubsub" rules
dyn 2 '^events rank [0-1]: ok$' 2 "events cached before registration" "$e2e_tmp/events" cache
dyn 3 '^events rank [0-2]: ok$' 3 "affected-proc and range filtering of events" \
    "$e2e_tmp/events" targets
dyn 4 '^connect within: rank [0-9]* ok' 4 "connect and disconnect" "$e2e_tmp/connect" within
e2e_exit
