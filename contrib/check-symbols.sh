#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check-symbols.sh -- the dynamic exports of a Wireup library, against what is allowed.
#
#   check-symbols.sh LIB              list exports that are neither PMIx_* API nor wu_* names
#   check-symbols.sh LIB LIST         compare the exports with the allow-list LIST, both ways
#   check-symbols.sh --update LIB LIST  rewrite LIST (its leading # comment kept) from LIB
#
# An allow-list (contrib/exports-*.txt) holds one symbol a line; '#' lines and blank lines are
# ignored. The comparison prints "+ NAME" for an export the list lacks (a WU_EXPORT added by
# mistake, or a component API entry not recorded) and "- NAME" for a listed name the library no
# longer exports (a DSO component or the runtime library that needs it would fail to load).
# Exit status: 0 when they match (or nothing bad is exported), 1 when not, 2 when LIB cannot be
# read. Names Open MPI or OpenPMIx export (opal_, orte_, ompi_, mca_, lowercase pmix_) would be
# rebound to theirs when both libraries are loaded in one process, so none may appear.
update=no
if [ "${1:-}" = "--update" ]; then
    update=yes
    shift
fi
lib=${1:?usage: check-symbols.sh [--update] path/to/lib.so [allow-list]}
list=${2:-}
[ $update = no ] || [ -n "$list" ] || { echo "check-symbols: --update needs an allow-list file" >&2; exit 2; }
[ -r "$lib" ] || { echo "check-symbols: cannot read $lib" >&2; exit 2; }
syms=$(nm -D --defined-only "$lib") || { echo "check-symbols: nm failed on $lib" >&2; exit 2; }
[ -n "$syms" ] || { echo "check-symbols: $lib exports nothing?" >&2; exit 2; }

# the exported names, sorted, without what the toolchain adds to every library
exports=$(printf '%s\n' "$syms" | while read -r _addr type name; do
    case "$type" in
    [TDRBVWiu]) ;;
    *) continue ;;
    esac
    case "$name" in
    _init | _fini | _edata | _end | __bss_start) ;;
    # AddressSanitizer adds an ODR indicator beside each exported global
    __odr_asan.*) ;;
    *) echo "$name" ;;
    esac
done | LC_ALL=C sort -u)

if [ -z "$list" ]; then
    bad=$(printf '%s\n' "$exports" | grep -Ev '^(PMIx_|wu_|pmix_framework_names$)')
    if [ -n "$bad" ]; then
        echo "$bad"
        exit 1
    fi
    exit 0
fi

if [ $update = yes ]; then
    tmp="$list.tmp.$$"
    { [ -f "$list" ] && sed -n '/^#/!q;p' "$list"; printf '%s\n' "$exports"; } >"$tmp" &&
        mv "$tmp" "$list" || { rm -f "$tmp"; echo "check-symbols: cannot write $list" >&2; exit 2; }
    echo "check-symbols: $list now lists the $(printf '%s\n' "$exports" | wc -l) exports of $lib"
    exit 0
fi

[ -r "$list" ] || { echo "check-symbols: cannot read the allow-list $list" >&2; exit 2; }
allowed=$(grep -Ev '^[[:space:]]*(#|$)' "$list" | LC_ALL=C sort -u)
tmpd=$(mktemp -d "${TMPDIR:-/tmp}/wu_syms_XXXXXX") || exit 2
printf '%s\n' "$exports" >"$tmpd/exports"
printf '%s\n' "$allowed" >"$tmpd/allowed"
extra=$(LC_ALL=C comm -23 "$tmpd/exports" "$tmpd/allowed")
missing=$(LC_ALL=C comm -13 "$tmpd/exports" "$tmpd/allowed")
rm -rf "$tmpd"
[ -z "$extra$missing" ] && exit 0
echo "check-symbols: the exports of $lib differ from $list:"
[ -z "$extra" ] || printf '+ %s\n' $extra
[ -z "$missing" ] || printf -- '- %s\n' $missing
echo "check-symbols: fix the WU_EXPORT markers, or if the change is meant, run"
echo "  $0 --update $lib $list"
exit 1
