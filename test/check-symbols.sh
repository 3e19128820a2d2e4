#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: libpmix.so.2 exports only PMIx_* and wu_* names, has the right SONAME and exports
# PMIx_Get_version.
b=${WU_TEST_BUILDDIR:-.}; s=${WU_TEST_SRCDIR:-.}
lib="$b/.libs/libpmix.so.2"
echo "1..4"
out=$(sh "$s/contrib/check-symbols.sh" "$lib" 2>&1); rc=$?
if [ $rc -eq 0 ]; then
    echo "ok 1 - libpmix.so.2 exports only PMIx_* and wu_* symbols"
else
    echo "not ok 1 - libpmix.so.2 export check failed (exit $rc):"; echo "$out" | sed 's/^/# /'
fi
soname=$(readelf -d "$lib" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" = "libpmix.so.2" ]; then echo "ok 2 - SONAME is libpmix.so.2"; else echo "not ok 2 - SONAME is '$soname'"; fi
if nm -D --defined-only "$lib" | grep -q ' T PMIx_Get_version$'; then
    echo "ok 3 - PMIx_Get_version is exported"
else
    echo "not ok 3 - PMIx_Get_version is not exported"
fi
# The checker itself must catch a leaked internal name.
tmp=$(mktemp -d /tmp/wu_sym_XXXXXX) && trap 'rm -rf "$tmp"' EXIT
printf 'int opal_leak(void);\nint opal_leak(void) { return 1; }\nint PMIx_Ok(void) { return 0; }\n' > "$tmp/l.c"
if ${CC:-cc} -shared -fPIC -o "$tmp/libl.so" "$tmp/l.c" 2>"$tmp/err" &&
   out=$(sh "$s/contrib/check-symbols.sh" "$tmp/libl.so"); [ $? -eq 1 ] && [ "$out" = "opal_leak" ]; then
    echo "ok 4 - the export checker reports a leaked opal_ symbol"
else
    echo "not ok 4 - the export checker missed a leaked symbol"; sed 's/^/# /' "$tmp/err"
fi
