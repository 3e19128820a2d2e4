#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check-symbols.sh LIB -- list dynamic exports of LIB that are neither PMIx_* API nor wu_* names.
# Prints each offender; exits 1 if there is any, 2 if the exports cannot be read. Names Open MPI
# or OpenPMIx export (opal_, orte_, ompi_, mca_, lowercase pmix_) would be rebound to theirs when
# both libraries are loaded in one process.
lib=${1:?usage: check-symbols.sh path/to/libpmix.so.2}
[ -r "$lib" ] || { echo "check-symbols: cannot read $lib" >&2; exit 2; }
syms=$(nm -D --defined-only "$lib") || { echo "check-symbols: nm failed on $lib" >&2; exit 2; }
[ -n "$syms" ] || { echo "check-symbols: $lib exports nothing?" >&2; exit 2; }
bad=$(printf '%s\n' "$syms" | while read -r _addr type name; do
    case "$type" in
    [TDRBVWiu]) ;;
    *) continue ;;
    esac
    case "$name" in
    PMIx_* | wu_* | _init | _fini | _edata | _end | __bss_start) ;;
    # AddressSanitizer adds an ODR indicator beside each exported global
    __odr_asan.PMIx_* | __odr_asan.wu_*) ;;
    *) echo "$name" ;;
    esac
done)
if [ -n "$bad" ]; then
    echo "$bad"
    exit 1
fi
exit 0
