#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# api-status.sh -- generate docs/api-status.md: the state of every PMIx_* function of the API.
#
# usage: contrib/api-status.sh [--check] [SRCDIR]
#   Prints the table (Markdown) on stdout. With --check, compares it with SRCDIR/docs/api-status.md
#   instead and exits 1 if the file is stale, or if a function is defined twice or nowhere.
#   Regenerate with: contrib/api-status.sh > docs/api-status.md
#
# The function list is every PMIX_EXPORT declaration of pmix/include/{pmix,pmix_server,pmix_tool,
# pmix_wu_api5}.h (the 285 PMIx_* functions OpenPMIx 5.0 exports, 4.2's 141 among them;
# test/abi/exports.sh checks the two agree).
# A function's status comes from its definition under pmix/: a definition preceded by the marker
# comment "wu-api: stub issue=N" is a stub due in issue N ("later": not scheduled yet); one
# preceded by "wu-api: partial issue=N: WHAT IS MISSING" does part of its job (the table says
# what is missing); any other definition is implemented. A line WU_API5_LIFECYCLE(Name, ...)
# defines PMIx_Name_construct, _destruct, _create and _free; WU_API5_LIFECYCLE3 all but _destruct
# (pmix/common/wu_api5_types.c).
check=0
if [ "$1" = "--check" ]; then
    check=1
    shift
fi
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
for h in pmix.h pmix_server.h pmix_tool.h pmix_wu_api5.h; do
    [ -r "$src/pmix/include/$h" ] || { echo "api-status: cannot read $src/pmix/include/$h" >&2; exit 2; }
done

# Names declared with PMIX_EXPORT, one per line, in header order (first occurrence wins).
names=$(cat "$src/pmix/include/pmix.h" "$src/pmix/include/pmix_server.h" \
    "$src/pmix/include/pmix_tool.h" "$src/pmix/include/pmix_wu_api5.h" | tr '\n' ' ' |
    sed 's:/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/::g; s/;/;\n/g' |
    sed -n 's/.*PMIX_EXPORT[^(]*[ *]\(PMIx_[A-Za-z0-9_]*\) *(.*/\1/p' | awk '!seen[$0]++')
[ -n "$names" ] || { echo "api-status: no PMIX_EXPORT declarations found" >&2; exit 2; }

# Definitions: "name<TAB>file<TAB>issue<TAB>kind<TAB>note" (kind stub, partial or empty when
# implemented; note: what a partial one lacks), one per definition.
defs=$(find "$src/pmix" -name '*.c' | LC_ALL=C sort | while read -r f; do
    awk -v file="${f#"$src"/}" '
        function flush() {
            if (pending != "") { print pending "\t" file "\t" issue "\t" kind "\t" note; pending = "" }
        }
        # the life-cycle generator: one line defines three or four functions
        /^WU_API5_LIFECYCLE3?\(/ {
            name = $0
            sub(/^WU_API5_LIFECYCLE3?\( */, "", name)
            sub(/[ ,].*/, "", name)
            n = split(($0 ~ /^WU_API5_LIFECYCLE3/) ? "construct create free" : "construct destruct create free", fns, " ")
            for (i = 1; i <= n; i++) print "PMIx_" name "_" fns[i] "\t" file "\t\t\t"
            next
        }
        # a candidate starts in column 0 with a type and PMIx_Name( ; it is a definition if a
        # "{" comes before a ";"
        pending == "" && cand == "" && /^([A-Za-z_][A-Za-z0-9_ *]*[ *])?PMIx_[A-Za-z0-9_]+\(/ {
            match($0, /PMIx_[A-Za-z0-9_]+\(/)
            cand = substr($0, RSTART, RLENGTH - 1)
            issue = ""; kind = ""; note = ""
            if (prev ~ /wu-api: (stub|partial) issue=/) {
                kind = prev
                sub(/.*wu-api: /, "", kind)
                sub(/ .*/, "", kind)
                issue = prev
                sub(/.*wu-api: [a-z]+ issue=/, "", issue)
                sub(/[^A-Za-z0-9].*/, "", issue)
                if (kind == "partial") {
                    note = prev
                    sub(/.*wu-api: partial issue=[A-Za-z0-9]+: */, "", note)
                    sub(/ *\*\/.*/, "", note)
                }
            }
        }
        cand != "" {
            b = index($0, "{"); s = index($0, ";")
            if (b > 0 && (s == 0 || b < s)) { pending = cand; cand = ""; flush() }
            else if (s > 0) { cand = "" }
        }
        NF > 0 { prev = $0 }
    ' "$f"
done)

group_of() {
    case "$1" in
    PMIx_server_* | PMIx_generate_* | PMIx_Register_attributes) echo server ;;
    PMIx_tool_* | PMIx_IOF_*) echo tool ;;
    PMIx_Register_event_handler | PMIx_Deregister_event_handler | PMIx_Notify_event) echo event ;;
    PMIx_Group_*) echo group ;;
    PMIx_Fabric_* | PMIx_Compute_distances* | PMIx_Load_topology | PMIx_Topology_destruct | \
        PMIx_Parse_cpuset_string | PMIx_Get_cpuset | PMIx_Cpuset_destruct | \
        PMIx_Get_relative_locality) echo fabric ;;
    PMIx_Data_load | PMIx_Data_unload) echo serialization ;;
    PMIx_Data_array_* | PMIx_Data_buffer_*) echo data ;;
    PMIx_Argv_* | PMIx_Setenv | PMIx_Check_* | PMIx_Load_key | PMIx_Load_nspace | \
        PMIx_Load_procid | PMIx_Xfer_procid | PMIx_*_invalid | PMIx_Multicluster_*) echo utility ;;
    PMIx_*_construct | PMIx_*_destruct | PMIx_*_create | PMIx_*_free | PMIx_*_release | \
        PMIx_*_load | PMIx_Regattr_xfer) echo data ;;
    PMIx_Session_control) echo job-control ;;
    PMIx_Error_code) echo strings ;;
    PMIx_Data_*_string) echo strings ;;
    PMIx_Data_*) echo serialization ;;
    *_string | PMIx_Get_attribute_name | PMIx_Get_version) echo strings ;;
    PMIx_Value_* | PMIx_Info_*) echo data ;;
    PMIx_Query_info* | PMIx_Log*) echo query/log ;;
    PMIx_Allocation_request* | PMIx_Job_control* | PMIx_Process_monitor*) echo job-control ;;
    PMIx_Get_credential* | PMIx_Validate_credential*) echo security ;;
    PMIx_Publish* | PMIx_Lookup* | PMIx_Unpublish*) echo publish ;;
    PMIx_Spawn* | PMIx_Connect* | PMIx_Disconnect*) echo dynamic ;;
    *) echo client ;;
    esac
}

problems=0
table=$(
    echo "# PMIx API status"
    echo
    echo "Generated by \`contrib/api-status.sh > docs/api-status.md\` (\`make check\` fails when this file"
    echo "is stale). One row per PMIx_* function that OpenPMIx 5.0 exports (4.2's among them) and"
    echo "pmix/include declares."
    echo
    echo "- **implemented**: a real implementation is in the tree."
    echo "- **partial**: implemented for part of what the Standard defines; the row says what is missing."
    echo "- **stub**: exported so programs link and load, but returns \`PMIX_ERR_NOT_SUPPORTED\` at once"
    echo "  (a non-blocking stub never calls its callback). Stubs without a status to return do the"
    echo "  harmless thing: \`PMIx_Initialized\` returns 0, pointer results are NULL, \`*_destruct\` do"
    echo "  nothing, the void server deregistrations report \`PMIX_ERR_NOT_SUPPORTED\` to their callback."
    echo "- **Issue**: the issue due to replace the stub or complete the function (later: not scheduled"
    echo "  yet)."
    echo
    echo "| Function | Group | Status | Issue | Defined in |"
    echo "|---|---|---|---|---|"
    for n in $names; do
        rows=$(printf '%s\n' "$defs" | awk -F '\t' -v n="$n" '$1 == n')
        count=$(printf '%s' "$rows" | grep -c .)
        file=$(printf '%s\n' "$rows" | cut -f2 | paste -sd, - | sed 's/,/, /g')
        issue=$(printf '%s\n' "$rows" | cut -f3 | head -n 1)
        kind=$(printf '%s\n' "$rows" | cut -f4 | head -n 1)
        note=$(printf '%s\n' "$rows" | cut -f5 | head -n 1)
        if [ "$count" -eq 0 ]; then
            status="**MISSING**"; file="-"; issue="-"
        elif [ "$count" -gt 1 ]; then
            status="**DEFINED $count TIMES**"
        elif [ "$kind" = partial ]; then
            status="partial: $note"
        elif [ -n "$issue" ]; then
            status="stub"
        else
            status="implemented"; issue="-"
        fi
        echo "| \`$n\` | $(group_of "$n") | $status | $issue | \`$file\` |"
    done
    echo
)
total=$(printf '%s\n' "$names" | grep -c .)
nimpl=$(printf '%s\n' "$table" | grep -c '| implemented |')
nstub=$(printf '%s\n' "$table" | grep -c '| stub |')
npart=$(printf '%s\n' "$table" | grep -c '| partial: ')
nbad=$(printf '%s\n' "$table" | grep -c '| \*\*')
out=$(printf '%s\n\nTotal: %s functions; %s implemented, %s partial, %s stubs.\n' "$table" "$total" \
    "$nimpl" "$npart" "$nstub")
if [ "$nbad" -gt 0 ]; then
    problems=1
    printf '%s\n' "$table" | grep '| \*\*' | sed 's/^/api-status: /' >&2
fi
if [ "$check" -eq 0 ]; then
    printf '%s\n' "$out"
    exit $problems
fi
doc="$src/docs/api-status.md"
if ! printf '%s\n' "$out" | cmp -s - "$doc"; then
    echo "api-status: $doc is stale; regenerate it with: contrib/api-status.sh > docs/api-status.md" >&2
    printf '%s\n' "$out" | diff "$doc" - | head -n 20 >&2
    exit 1
fi
exit $problems
