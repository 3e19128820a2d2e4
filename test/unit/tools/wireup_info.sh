#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of wireup-info: selection and parameter sources as users see them, errors for unknown
# components, DSO listing, option errors.
b=${WU_TEST_BUILDDIR:-.}
info="$b/wireup-info"
tmp=$(mktemp -d /tmp/wu_info_XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp"
unset PMIX_MCA_mca_base_user_param_file
export PMIX_MCA_mca_base_system_param_file=""
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "$l" | sed 's/^/# /'; done; }
check() { # check DESC CMD-OUTPUT-VAR PATTERN
    if printf '%s\n' "$2" | grep -q -- "$3"; then ok "$1"; else fail "$1" "wanted: $3" "$2"; fi
}
echo "1..15"

out=$(PMIX_MCA_plog='^syslog' "$info" --param plog all --parsable 2>&1)
check "env selection value shown" "$out" '^mca:plog:base:param:plog:value:^syslog$'
check "env selection source is environment" "$out" '^mca:plog:base:param:plog:source:environment$'
check "stdfd selected under ^syslog" "$out" '^mca:plog:stdfd:status:selected$'
check "syslog excluded under ^syslog" "$out" '^mca:plog:syslog:status:excluded$'
check "component params listed with default source" "$out" '^mca:plog:stdfd:param:plog_stdfd_with_source:source:default$'

out=$(PMIX_MCA_plog='^syslog' "$info" --param plog all 2>&1)
check "human output names the source" "$out" 'parameter "plog" (current value: "^syslog", data source: environment PMIX_MCA_plog'

mkdir -p "$tmp/.pmix"
printf '# test\nplog = ^syslog\nplog_stdfd_with_time = yes\n' > "$tmp/.pmix/mca-params.conf"
out=$("$info" --param plog all --parsable 2>&1)
check "user file selection source" "$out" '^mca:plog:base:param:plog:source:file (user)$'
check "user file value with file and line" "$out" "^mca:plog:stdfd:param:plog_stdfd_with_time:source_file:$tmp/.pmix/mca-params.conf:3\$"
out=$(PMIX_MCA_plog_stdfd_with_time=no "$info" --mca plog_stdfd_with_time 1 --param plog stdfd --parsable 2>&1)
check "command line beats environment and file" "$out" '^mca:plog:stdfd:param:plog_stdfd_with_time:source:command line$'
rm -f "$tmp/.pmix/mca-params.conf"

out=$(PMIX_MCA_plog=stdfd,nosuch "$info" --param plog all 2>&1); rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'no component named "nosuch"' &&
   printf '%s\n' "$out" | grep -q 'PMIX_MCA_plog=stdfd,nosuch (environment)'; then
    ok "unknown component in include list reported (exit $rc)"
else
    fail "unknown component in include list reported" "exit $rc" "$out"
fi

out=$("$info" --parsable 2>&1)
want_dso=no
case " $WU_MCA_DSO_NAMES " in *" plog-stdfd "*|*" plog "*) want_dso=yes ;; esac
if [ $want_dso = yes ]; then
    check "stdfd listed as a DSO in a DSO build" "$out" '^mca:plog:stdfd:type:dso$'
else
    check "stdfd listed as built in" "$out" '^mca:plog:stdfd:type:static$'
fi

out=$("$info" --bogus 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q 'unknown option "--bogus"'; then ok "unknown option refused"; else fail "unknown option refused" "$out"; fi
out=$("$info" --version 2>&1)
check "--version names Wireup and the PMIx version" "$out" '^OpenPMIx 4.2.2 (PMIx Standard: 4.2'

out=$("$info" --param pnet all --parsable 2>&1)
check "pnet lists tcp, selected by default" "$out" '^mca:pnet:tcp:status:selected$'
out=$(PMIX_MCA_pnet=none "$info" --param pnet all --parsable 2>&1)
check "pnet=none excludes tcp and shows its port pool parameter" "$(printf '%s\n' "$out" |
    grep -e '^mca:pnet:tcp:status:excluded$' -e '^mca:pnet:tcp:param:pnet_tcp_ports:value:$' |
    wc -l)" '^2$'
