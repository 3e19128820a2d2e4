#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (acceptance, issue 30): processes on OpenPMIx's OWN library under wrun. The e2e
# client programs are compiled against Debian's OpenPMIx headers and linked with its libpmix,
# and run under `wrun --keep-library-path` with nothing of ours in LD_LIBRARY_PATH, so every
# rank loads OpenPMIx's libpmix.so.2 (checked: PMIx_Get_version) and speaks OpenPMIx's wire
# protocol to wrun's server. They must behave as the same programs on Wireup's library.
# Skipped when libpmix-dev is not installed (contrib/deps.sh --test installs it).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
cc=${CC:-cc}
if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
    echo "1..0 # SKIP OpenPMIx development files not installed (libpmix-dev)"
    exit 0
fi
e2e_plan 4
e2e_mktemp
# the ranks must load OpenPMIx's library, not ours: they are built with an RPATH (which
# LD_LIBRARY_PATH does not override), as a Spack or container build would be
unset LD_PRELOAD

built=1
for p in exchange jobinfo; do
    if ! $cc -std=gnu11 -I"$sys_inc" -o "$e2e_tmp/$p" "$s/test/e2e/e2e_$p.c" -L"$sys_libdir" \
        -Wl,--disable-new-dtags,-rpath,"$sys_libdir" -lpmix -lpthread 2>"$e2e_tmp/cc.err"; then
        built=0
        e2e_diag "$e2e_tmp/cc.err"
    fi
done
if [ $built -eq 1 ]; then
    e2e_ok "e2e programs built against OpenPMIx's headers and library ($sys_libdir)"
else
    e2e_not_ok "could not build the e2e programs against OpenPMIx"
    e2e_exit
fi

# 2: the ranks run on OpenPMIx's library, talking to wrun's server
E2E_SHOW_VERSION=1 e2e_wrun "$e2e_tmp/out" 2 --keep-library-path "$e2e_tmp/exchange" collect
ver=$(sed -n 's/.*library: //p' "$e2e_tmp/out" | head -1)
case "$ver" in
*Wireup*|'')
    e2e_not_ok "ranks did not run on OpenPMIx's library (PMIx_Get_version: '${ver:-none}', wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
    ;;
*)
    if [ "$e2e_rc" -eq 0 ]; then
        e2e_ok "ranks on OpenPMIx's libpmix.so.2 ($ver) run under wrun"
    else
        e2e_not_ok "ranks on OpenPMIx's library ($ver) failed under wrun (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
    ;;
esac

# 3: the data exchange gives what it gives on our library, in every mode
e2e_same_exchange "OpenPMIx library" --keep-library-path
if [ $e2e_same -eq 1 ]; then
    e2e_ok "exchange (collect, nocollect, direct, scopes) on OpenPMIx's library as on ours"
else
    e2e_not_ok "exchange on OpenPMIx's library differs from ours"
fi

# 4: the job's data at init, every contract key with its type
e2e_wrun "$e2e_tmp/out" 4 --keep-library-path "$e2e_tmp/jobinfo" 4
e2e_expect_ok "jobinfo (every contract key, exact types) on OpenPMIx's library" "$e2e_tmp/out"
e2e_exit
