#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test for --enable-mca-dso builds: wireup-info (parsable) shows every component configure
# built as a DSO loaded from its file wu_mca_<fw>_<comp>.so on the component path, every
# component built in as built in, and no component file that failed to load. The launcher
# frameworks (pls, pmdl, in the runtime library) are listed like libpmix's own. Skipped in a
# build without DSO components.
b=${WU_TEST_BUILDDIR:-.}
info="$b/wireup-info"
tmp=$(mktemp -d /tmp/wu_dsoc_XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp"
export PMIX_MCA_mca_base_system_param_file=""
# where the DSOs are: the test environment's component path, else the build tree's
dir=${PMIX_MCA_mca_base_component_path:-$b/.libs}
export PMIX_MCA_mca_base_component_path="$dir"

out=$("$info" --parsable 2>&1)
# configure's decision for each component: " gds/hash:dso plog/stdfd:static ..."
built=$(printf '%s\n' "$out" | sed -n 's/^config:components://p')
case "$built" in
*:dso*) ;;
*)
    echo "1..0 # SKIP not an --enable-mca-dso build (components: $built)"
    exit 0
    ;;
esac
set -- $built
echo "1..$(($# + 2))"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }

for entry in "$@"; do
    fc=${entry%:*}
    how=${entry##*:}
    fw=${fc%%/*}
    comp=${fc#*/}
    type=$(printf '%s\n' "$out" | sed -n "s/^mca:$fw:$comp:type://p")
    path=$(printf '%s\n' "$out" | sed -n "s/^mca:$fw:$comp:path://p")
    case "$how" in
    dso)
        if [ "$type" = dso ] && [ "$path" = "$dir/wu_mca_${fw}_$comp.so" ] && [ -f "$path" ]; then
            ok "$fw/$comp is loaded from its DSO $path"
        else
            not_ok "$fw/$comp is not loaded from $dir/wu_mca_${fw}_$comp.so (type '$type', path '$path')" \
                "$(printf '%s\n' "$out" | grep -E "^mca:($fw:$comp:|failed-load)")"
        fi
        ;;
    static)
        if [ "$type" = static ]; then ok "$fw/$comp is built in"; else not_ok "$fw/$comp built in, but type '$type'"; fi
        ;;
    *)
        # not-built components are not listed
        if [ -z "$type" ]; then ok "$fw/$comp is not built and not listed"; else not_ok "$fw/$comp not built, but listed as '$type'"; fi
        ;;
    esac
done

failed=$(printf '%s\n' "$out" | grep '^mca:failed-load:')
if [ -z "$failed" ]; then ok "no component file failed to load"; else not_ok "component files failed to load" "$failed"; fi
if printf '%s\n' "$out" | grep -q '^mca:pls:' && printf '%s\n' "$out" | grep -q '^mca:pmdl:'; then
    ok "the runtime library's frameworks pls and pmdl are listed"
else
    not_ok "pls or pmdl missing from wireup-info" "$out"
fi
