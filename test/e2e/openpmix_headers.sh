#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (acceptance): the e2e client programs compiled against Debian's OpenPMIx 4.2 headers
# and linked with its -lpmix run under `wrun -n 4` with our build's libpmix.so.2 first in
# LD_LIBRARY_PATH: they must run on OUR library (PMIx_Get_version() says Wireup) and behave as
# the same sources built against our headers. Skipped when libpmix-dev is not installed
# (contrib/deps.sh --test installs it).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
cc=${CC:-cc}
lib="$b/.libs/libpmix.so.2"
if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
    echo "1..0 # SKIP OpenPMIx development files not installed (libpmix-dev)"
    exit 0
fi
e2e_plan 8
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
for p in exchange jobinfo rfc0009 resolve query; do
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
same=1
for mode in collect nocollect direct scopes; do
    e2e_wrun "$e2e_tmp/theirs" 4 "$e2e_tmp/exchange" $mode
    rc_theirs=$e2e_rc
    e2e_wrun "$e2e_tmp/ours" 4 "$e2e/e2e_exchange" $mode
    grep '^exchange ' "$e2e_tmp/theirs" | sort >"$e2e_tmp/t.sorted"
    grep '^exchange ' "$e2e_tmp/ours" | sort >"$e2e_tmp/o.sorted"
    if [ "$rc_theirs" -ne 0 ] || [ "$e2e_rc" -ne 0 ] || [ "$(wc -l <"$e2e_tmp/t.sorted")" -ne 4 ] ||
        ! cmp -s "$e2e_tmp/t.sorted" "$e2e_tmp/o.sorted"; then
        same=0
        echo "# mode $mode: OpenPMIx-header build exit $rc_theirs, our-header build exit $e2e_rc"
        e2e_diag "$e2e_tmp/theirs" 20
        diff "$e2e_tmp/t.sorted" "$e2e_tmp/o.sorted" | sed 's/^/# /'
    fi
done
if [ $same -eq 1 ]; then
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
e2e_exit
