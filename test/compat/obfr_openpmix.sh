#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: Wireup's codec of OpenPMIx's serialization (pmix/common/wu_obfr.h) against the real
# OpenPMIx library (Debian's libpmix-dev: 4.2.2 in Debian 12, 5.0.7 in Debian 13). obfr_ref.c,
# built here against OpenPMIx's headers and linked with its libpmix (rpath, so our libpmix.so.2
# of the same name is never picked), packs the samples of obfr_samples.h with PMIx_Data_pack;
# obfr_ours packs them with wu_obfr_pack. For each buffer type (non-described, then fully
# described, selected in OpenPMIx by PMIX_BFROP_BUFFER_TYPE as a launched tool gets it):
#   - the two outputs must be byte for byte the same;
#   - OpenPMIx's PMIx_Data_unpack must read our bytes back and pack them again to the same
#     (samples OpenPMIx itself does not read back as it packs them are skipped there);
#   - our decoder must read OpenPMIx's bytes back and encode them again to the same.
# Skipped when libpmix-dev is not installed (contrib/deps.sh --test installs it).
b=${WU_TEST_BUILDDIR:-.}
s=${WU_TEST_SRCDIR:-.}
sys_inc=${WU_OPENPMIX_INCDIR:-/usr/lib/x86_64-linux-gnu/pmix2/include}
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
cc=${CC:-cc}
ours="$b/test/compat/obfr_ours"
if [ ! -r "$sys_inc/pmix.h" ] || [ ! -r "$sys_libdir/libpmix.so" ]; then
    echo "1..0 # SKIP OpenPMIx development files not installed (libpmix-dev)"
    exit 0
fi
if [ ! -x "$ours" ]; then
    echo "1..0 # SKIP $ours is not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/obfr.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
ok() {
    n=$((n + 1))
    echo "ok $n - $*"
}
not_ok() {
    n=$((n + 1))
    failed=1
    echo "not ok $n - $*"
}
diag() {
    sed -n "1,${2:-30}p" "$1" | sed 's/^/# /'
}
echo "1..9"

if $cc -std=gnu11 -I"$sys_inc" -I"$s/test/compat" -o "$tmp/obfr_ref" "$s/test/compat/obfr_ref.c" \
    -L"$sys_libdir" -Wl,-rpath,"$sys_libdir" -Wl,--disable-new-dtags -lpmix 2>"$tmp/cc.err"; then
    ok "obfr_ref built against OpenPMIx's headers and libpmix ($sys_libdir)"
else
    not_ok "could not build obfr_ref against OpenPMIx"
    diag "$tmp/cc.err"
    exit 1
fi

# OpenPMIx's side runs as a tool that never connects, with nothing of ours in its environment
run_ref() {
    (
        for v in $(env | sed -n 's/^\(PMIX_[A-Za-z0-9_]*\)=.*/\1/p'); do
            unset "$v"
        done
        unset LD_PRELOAD LD_LIBRARY_PATH
        TMPDIR=$tmp
        # should $CC carry a sanitizer: the check mode leaves what it decoded to the exit
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
        export TMPDIR ASAN_OPTIONS
        [ -z "$1" ] || export PMIX_BFROP_BUFFER_TYPE="$1"
        shift
        timeout 60 "$tmp/obfr_ref" "$@"
    )
}

for btype in 1 2; do
    if [ $btype -eq 1 ]; then
        what="non-described"
        env_type=PMIX_BFROP_BUFFER_NON_DESC
        tag=
    else
        what="fully described"
        env_type=PMIX_BFROP_BUFFER_FULLY_DESC
        tag=09 # the INT32 tag before the count
    fi
    run_ref "$env_type" pack >"$tmp/ref$btype" 2>"$tmp/ref.err"
    rc=$?
    # the library really used the buffer type asked for: int32 -1 is 01 after the count
    if [ $rc -eq 0 ] && grep -q "^int32 ${tag}0c${tag:+09}01" "$tmp/ref$btype"; then
        ok "OpenPMIx packs the samples, $what ($(wc -l <"$tmp/ref$btype") lines)"
    else
        not_ok "OpenPMIx did not pack the samples $what (exit $rc)"
        diag "$tmp/ref.err"
        diag "$tmp/ref$btype"
    fi
    "$ours" pack $btype >"$tmp/ours$btype" 2>"$tmp/ours.err"
    if [ $? -eq 0 ] && cmp -s "$tmp/ref$btype" "$tmp/ours$btype"; then
        ok "our bytes are OpenPMIx's, $what"
    else
        not_ok "our bytes differ from OpenPMIx's, $what"
        diff "$tmp/ref$btype" "$tmp/ours$btype" | sed 's/^/# /' | head -40
        diag "$tmp/ours.err"
    fi
    run_ref "$env_type" check <"$tmp/ours$btype" >"$tmp/refcheck" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c ' ok$' "$tmp/refcheck")" -gt 40 ]; then
        ok "OpenPMIx reads our bytes back ($what; $(grep -c ' skipped$' "$tmp/refcheck") skipped)"
    else
        not_ok "OpenPMIx does not read our bytes back ($what, exit $rc)"
        grep -v ' ok$' "$tmp/refcheck" | sed 's/^/# /' | head -40
    fi
    "$ours" check $btype <"$tmp/ref$btype" >"$tmp/ourcheck" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c ' ok$' "$tmp/ourcheck")" -eq "$(wc -l <"$tmp/ref$btype")" ]; then
        ok "we read OpenPMIx's bytes back, $what"
    else
        not_ok "we do not read OpenPMIx's bytes back ($what, exit $rc)"
        grep -v ' ok$' "$tmp/ourcheck" | sed 's/^/# /' | head -40
    fi
done
exit $failed
