#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: libpmix.so.2 and the runtime library libwireup-rte export exactly what their
# allow-lists (contrib/exports-*.txt) say; libpmix.so.2 has the right SONAME, exports
# PMIx_Get_version and holds nothing of the launcher frameworks pls and pmdl; every wu_* symbol a
# DSO component of this build needs is exported; the checker catches a leak and a missing export.
b=${WU_TEST_BUILDDIR:-.}; s=${WU_TEST_SRCDIR:-.}
lib="$b/.libs/libpmix.so.2"
rte="$b/.libs/libwireup-rte.so"
chk="$s/contrib/check-symbols.sh"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
echo "1..9"

out=$(sh "$chk" "$lib" "$s/contrib/exports-libpmix.txt" 2>&1); rc=$?
if [ $rc -eq 0 ]; then ok "libpmix.so.2 exports exactly contrib/exports-libpmix.txt"; else not_ok "libpmix.so.2 exports differ (exit $rc)" "$out"; fi
out=$(sh "$chk" "$rte" "$s/contrib/exports-wireup-rte.txt" 2>&1); rc=$?
if [ $rc -eq 0 ]; then ok "libwireup-rte exports exactly contrib/exports-wireup-rte.txt"; else not_ok "libwireup-rte exports differ (exit $rc)" "$out"; fi

soname=$(readelf -d "$lib" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" = "libpmix.so.2" ]; then ok "SONAME is libpmix.so.2"; else not_ok "SONAME is '$soname'"; fi
if nm -D --defined-only "$lib" | grep -q ' T PMIx_Get_version$'; then
    ok "PMIx_Get_version is exported"
else
    not_ok "PMIx_Get_version is not exported"
fi

# An MPI rank loads libpmix.so.2 only: no launcher code in it, exported or not (the symbol table
# of an unstripped library names every function and file; the dynamic one what it imports too).
launcher=$( { nm -D "$lib"; nm -a "$lib" 2>/dev/null; } | grep -Ei 'pls|pmdl' | sort -u | head -10)
if [ -z "$launcher" ]; then
    ok "libpmix.so.2 holds no pls or pmdl symbol"
else
    not_ok "libpmix.so.2 holds launcher symbols (they belong in libwireup-rte)" "$launcher"
fi

# Each DSO component of this build finds every wu_* symbol it uses in the libraries' exports.
dsos=$(ls "$b"/.libs/wu_mca_*.so 2>/dev/null)
if [ -z "$dsos" ]; then
    ok "every wu_* symbol the DSO components use is exported # SKIP no component is built as a DSO"
else
    have=$( { nm -D --defined-only "$lib"; nm -D --defined-only "$rte"; } | awk '{print $3}')
    lack=
    for d in $dsos; do
        for sym in $(nm -D --undefined-only "$d" | awk '$2 ~ /^wu_/ {print $2}'); do
            printf '%s\n' "$have" | grep -qx "$sym" || lack="$lack ${d##*/}:$sym"
        done
    done
    if [ -z "$lack" ]; then
        ok "every wu_* symbol the DSO components use is exported"
    else
        not_ok "DSO components use hidden symbols (mark them WU_EXPORT):" $lack
    fi
fi

# The checker itself must catch a leaked internal name, an export the list lacks and a listed
# name that is not exported.
tmp=$(mktemp -d /tmp/wu_sym_XXXXXX) && trap 'rm -rf "$tmp"' EXIT
printf 'int opal_leak(void);\nint opal_leak(void) { return 1; }\nint PMIx_Ok(void) { return 0; }\n' > "$tmp/l.c"
if ${CC:-cc} -shared -fPIC -o "$tmp/libl.so" "$tmp/l.c" 2>"$tmp/err" &&
   out=$(sh "$chk" "$tmp/libl.so"); [ $? -eq 1 ] && [ "$out" = "opal_leak" ]; then
    ok "the export checker reports a leaked opal_ symbol"
else
    not_ok "the export checker missed a leaked symbol" "$(cat "$tmp/err")"
fi
printf '# test list\nPMIx_Ok\nPMIx_Gone\n' > "$tmp/list"
out=$(sh "$chk" "$tmp/libl.so" "$tmp/list"); rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qx '+ opal_leak' && printf '%s\n' "$out" | grep -qx -- '- PMIx_Gone'; then
    ok "the allow-list comparison reports both directions"
else
    not_ok "the allow-list comparison missed a difference (exit $rc)" "$out"
fi
sh "$chk" --update "$tmp/libl.so" "$tmp/list" >/dev/null && out=$(sh "$chk" "$tmp/libl.so" "$tmp/list"); rc=$?
if [ $rc -eq 0 ] && [ "$(head -1 "$tmp/list")" = "# test list" ] && grep -qx opal_leak "$tmp/list"; then
    ok "--update rewrites the list from the library and keeps its header"
else
    not_ok "--update did not produce a matching list (exit $rc)" "$out" "$(cat "$tmp/list")"
fi
