#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# exports.sh -- TAP test: Wireup's libpmix.so.2 offers the whole OpenPMIx API, 5.0's and so 4.2's.
#
# Compares against the installed OpenPMIx (Debian's libpmix2 / libpmix-dev: 4.2 on Debian 12, 5.0
# on Debian 13, where contrib/deb13.sh runs this test; other locations via WU_OPENPMIX_LIB and
# WU_OPENPMIX_INCDIR) and skips what needs it when it is absent:
# - every PMIx_* function the OpenPMIx library exports is exported by ours;
# - our headers declare exactly that set (5.0), or a superset of it (4.2), each with OpenPMIx's
#   signature and callback typedefs, and pmix_server_module_t has OpenPMIx's layout (4.2's 28
#   upcalls at the same offsets; 5.0's session_control after them);
# - docs/api-status.md is current (contrib/api-status.sh --check);
# - test/abi/check_stubs.c, built with OpenPMIx's headers only, runs on our library;
# - python3-pmix (85 PMIx_* imports, bound at load) imports with our library.
# Lines are numbered here and the plan comes last.
b=${WU_TEST_BUILDDIR:-.}
s=${WU_TEST_SRCDIR:-.}
lib="$b/.libs/libpmix.so.2"
sys_lib=${WU_OPENPMIX_LIB:-/usr/lib/x86_64-linux-gnu/libpmix.so.2}
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
cc=${CC:-cc}

n=0
ok() {
    n=$((n + 1))
    echo "ok $n - $*"
}
not_ok() {
    n=$((n + 1))
    echo "not ok $n - $*"
}
skip() {
    n=$((n + 1))
    echo "ok $n # SKIP $*"
}
diag() { sed 's/^/# /'; }
finish() {
    echo "1..$n"
    exit 0
}

if [ ! -r "$lib" ]; then
    echo "Bail out! $lib not built"
    exit 1
fi
tmp=$(mktemp -d /tmp/wu_abi_XXXXXX) || { echo "Bail out! mktemp failed"; exit 1; }
trap 'rm -rf -- "$tmp"' EXIT

# The PMIx_* names a library exports (T: code; W: weak code counts as exported too).
exported() {
    nm -D --defined-only "$1" | awk '($2 == "T" || $2 == "W") && $3 ~ /^PMIx_/ { print $3 }' |
        LC_ALL=C sort -u
}
# The PMIx_* names declared with PMIX_EXPORT in the given headers (comments stripped first).
declared() {
    cat "$@" | tr '\n' ' ' | sed 's:/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/::g; s/;/;\n/g' |
        sed -n 's/.*PMIX_EXPORT[^(]*[ *]\(PMIx_[A-Za-z0-9_]*\) *(.*/\1/p' | LC_ALL=C sort -u
}
our_headers="$s/pmix/include/pmix.h $s/pmix/include/pmix_server.h $s/pmix/include/pmix_tool.h
    $s/pmix/include/pmix_wu_api5.h"
# Is the installed OpenPMIx of our headers' generation (5), or older (4.2)?
same_gen=no
if [ -r "$sys_inc/pmix_version.h" ] &&
    grep -q '^#define PMIX_VERSION_MAJOR *5L' "$sys_inc/pmix_version.h"; then
    same_gen=yes
fi

exported "$lib" >"$tmp/ours"
# shellcheck disable=SC2086
declared $our_headers >"$tmp/declared"

# 1. What we declare, we export (holds without OpenPMIx installed).
missing=$(LC_ALL=C comm -23 "$tmp/declared" "$tmp/ours")
if [ -s "$tmp/declared" ] && [ -z "$missing" ]; then
    ok "libpmix.so.2 exports all $(wc -l <"$tmp/declared") PMIx_* functions our headers declare"
else
    not_ok "declared in pmix/include but not exported:"
    echo "$missing" | diag
fi

# 2. What OpenPMIx exports, we export; 3. and our headers declare exactly that set.
if [ -r "$sys_lib" ]; then
    exported "$sys_lib" >"$tmp/theirs"
    nt=$(wc -l <"$tmp/theirs")
    missing=$(LC_ALL=C comm -23 "$tmp/theirs" "$tmp/ours")
    if [ "$nt" -gt 0 ] && [ -z "$missing" ]; then
        ok "all $nt PMIx_* functions of $sys_lib are exported by ours"
    else
        not_ok "PMIx_* functions of $sys_lib ($nt) missing from ours:"
        echo "$missing" | diag
    fi
    if LC_ALL=C cmp -s "$tmp/theirs" "$tmp/declared"; then
        ok "pmix/include declares exactly the PMIx_* functions OpenPMIx exports"
    elif [ $same_gen = no ] && [ -z "$(LC_ALL=C comm -23 "$tmp/theirs" "$tmp/declared")" ]; then
        ok "pmix/include declares all $nt PMIx_* functions the older OpenPMIx exports, and more"
    else
        not_ok "pmix/include and $sys_lib differ (< OpenPMIx only, > declared only):"
        diff "$tmp/theirs" "$tmp/declared" | grep '^[<>]' | diag
    fi
else
    skip "no OpenPMIx library at $sys_lib"
    skip "no OpenPMIx library at $sys_lib"
fi

# 4. The status table is current and every function is defined exactly once.
if out=$(sh "$s/contrib/api-status.sh" --check "$s" 2>&1); then
    ok "docs/api-status.md is current"
else
    not_ok "docs/api-status.md: regenerate with contrib/api-status.sh > docs/api-status.md"
    echo "$out" | diag
fi

# 5. Signatures and typedefs: our headers followed by OpenPMIx's declarations must compile
#    (a redeclaration with another type is an error); 6. the server module has their layout.
if [ ! -d "$sys_inc" ]; then
    skip "no OpenPMIx headers at $sys_inc"
    skip "no OpenPMIx headers at $sys_inc"
elif [ ! -r "$s/pmix/include/pmix_common.h" ]; then
    skip "pmix/include/pmix_common.h not written yet"
    skip "pmix/include/pmix_common.h not written yet"
else
    ours_inc="-I$s/pmix/include -I$b/pmix/include"
    {
        echo '#include "pmix_tool.h"'
        echo '#include "pmix_server.h"'
        # (OpenPMIx 5's pmix.h repeats pmix_deprecated.h's declarations in a block that
        # "#ifndef PMIx_DEPRECATED_H" always skips, one of them with another signature: left out)
        for h in pmix.h pmix_server.h pmix_tool.h pmix_deprecated.h; do
            [ -r "$sys_inc/$h" ] || continue
            if [ $h = pmix_deprecated.h ]; then cat "$sys_inc/$h"; else
                sed '/^#ifndef PMIx_DEPRECATED_H/,/^#endif/d' "$sys_inc/$h"; fi |
                tr '\n' ' ' | sed 's:/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/::g' |
                grep -o 'typedef[^;{]*(\*[^;{]*;\|PMIX_EXPORT[^;{#]*;'
        done
    } >"$tmp/sigs.c"
    nsig=$(grep -c 'PMIx_' "$tmp/sigs.c")
    # shellcheck disable=SC2086
    if [ "$nsig" -gt 100 ] &&
        $cc -std=gnu11 -Wall -Werror -fsyntax-only $ours_inc "$tmp/sigs.c" >"$tmp/err" 2>&1; then
        ok "OpenPMIx's $nsig function declarations and callback typedefs match ours"
    else
        not_ok "declarations differ from OpenPMIx's ($nsig extracted):"
        head -n 30 "$tmp/err" | diag
    fi
    {
        echo '#include <stddef.h>'
        echo '#include <stdio.h>'
        echo '#include <pmix_server.h>'
        printf '%s\n' '#define F(f) printf(#f " %zu\n", offsetof(pmix_server_module_t, f));'
        echo 'int main(void) {'
        for f in client_connected client_finalized abort fence_nb direct_modex publish lookup \
            unpublish spawn connect disconnect register_events deregister_events listener \
            notify_event query tool_connected log allocate job_control monitor get_credential \
            validate_credential iof_pull push_stdin group fabric client_connected2; do
            echo "F($f)"
        done
        # 5.0 appended session_control; a 4.2 table ends where it starts (WU_OURS_AS_42)
        echo '#if defined(WU_V5)'
        echo 'F(session_control)'
        echo '#endif'
        echo '#if defined(WU_OURS_AS_42)'
        printf '%s\n' 'printf("size %zu\n", offsetof(pmix_server_module_t, session_control));'
        echo '#else'
        printf '%s\n' 'printf("size %zu\n", sizeof(pmix_server_module_t));'
        echo '#endif'
        echo 'return 0; }'
    } >"$tmp/mod.c"
    ours_as=-DWU_OURS_AS_42 theirs_as=
    if [ $same_gen = yes ]; then
        ours_as=-DWU_V5 theirs_as=-DWU_V5
    fi
    # shellcheck disable=SC2086
    if $cc -std=gnu11 $ours_inc $ours_as -o "$tmp/mod_ours" "$tmp/mod.c" >"$tmp/err" 2>&1 &&
        $cc -std=gnu11 -I"$sys_inc" $theirs_as -o "$tmp/mod_theirs" "$tmp/mod.c" >>"$tmp/err" 2>&1 &&
        $cc -std=gnu11 $ours_inc -DWU_V5 -o "$tmp/mod_ours5" "$tmp/mod.c" >>"$tmp/err" 2>&1 &&
        "$tmp/mod_ours" >"$tmp/mod_ours.txt" && "$tmp/mod_theirs" >"$tmp/mod_theirs.txt" &&
        cmp -s "$tmp/mod_ours.txt" "$tmp/mod_theirs.txt" &&
        "$tmp/mod_ours5" | grep -qx 'size 232'; then
        ok "pmix_server_module_t: 28 upcalls at OpenPMIx's offsets, then session_control (232 bytes)"
    else
        not_ok "pmix_server_module_t layout differs from OpenPMIx's"
        diag <"$tmp/err"
        diff "$tmp/mod_theirs.txt" "$tmp/mod_ours.txt" 2>&1 | diag
    fi
fi

# Programs built here are not instrumented: lib.sh runs them on our library (with the sanitizer
# runtimes preloaded in a sanitizer build).
. "$s/test/abi/lib.sh"

# 7. An OpenPMIx-built program calls our stubs.
if [ ! -d "$sys_inc" ]; then
    skip "no OpenPMIx headers at $sys_inc"
elif ! $cc -std=gnu11 -Wall -Wextra -Werror -I"$sys_inc" -o "$tmp/check_stubs" \
    "$s/test/abi/check_stubs.c" -L"$b/.libs" -lpmix >"$tmp/err" 2>&1; then
    not_ok "check_stubs.c does not build against $sys_inc and our library"
    diag <"$tmp/err"
else
    run_ours "$tmp/check_stubs" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    while IFS= read -r line; do
        case "$line" in
        "ok - "*) ok "check_stubs: ${line#ok - }" ;;
        "not ok - "*) not_ok "check_stubs: ${line#not ok - }" ;;
        *) echo "# $line" ;;
        esac
    done <"$tmp/out"
    if [ $rc -eq 0 ]; then
        ok "check_stubs exits 0"
    else
        not_ok "check_stubs exits $rc"
        diag <"$tmp/err"
    fi
fi

# 8. python3-pmix imports (its 85 PMIx_* symbols bind at load) with our library first.
py=
# Debian 13 installs python3-pmix as an egg directory that is not on python's path: add it
for egg in /usr/lib/python3/dist-packages/pypmix-*.egg; do
    [ -d "$egg" ] && PYTHONPATH=$egg${PYTHONPATH:+:$PYTHONPATH} && export PYTHONPATH
done
for cand in python3 /usr/bin/python3; do
    # run from the private directory: a "pmix" directory in the cwd would import as a package
    if command -v "$cand" >/dev/null 2>&1 && (cd "$tmp" && "$cand" -c '
import sys, pmix
sys.exit(0 if str(getattr(pmix, "__file__", None)).endswith(".so") else 1)') >/dev/null 2>&1; then
        py=$cand
        break
    fi
done
if [ -z "$py" ]; then
    skip "python3-pmix is not installed"
else
    # Print which libpmix.so.2 the process mapped: it must be ours.
    where=$(cd "$tmp" && run_ours "$py" -c '
import pmix
print(sorted({l.split()[-1] for l in open("/proc/self/maps") if "libpmix.so" in l}))' \
        2>"$tmp/pyerr")
    rc=$?
    ourlib=$(cd "$b/.libs" && pwd -P)/$(readlink "$lib" 2>/dev/null || echo libpmix.so.2)
    if [ $rc -eq 0 ] && [ "$where" = "['$ourlib']" ]; then
        ok "$py -c 'import pmix' loads with our libpmix.so.2"
    else
        not_ok "$py -c 'import pmix' with our libpmix.so.2 (exit $rc)"
        echo "$where" | diag
        echo "expected ['$ourlib']" | diag
        diag <"$tmp/pyerr"
    fi
fi
finish
