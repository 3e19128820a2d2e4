#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (acceptance, issue 30): OpenPMIx's tools against a running wrun job. wrun writes the
# rendezvous files OpenPMIx's tools look for (pmix.<host>.tool, .tool.<pid>, .tool.<server
# namespace>, in its session directory below TMPDIR) and its server accepts them as tools.
# The job: 2 ranks of e2e_tools (built against OpenPMIx's headers, run on Wireup's library)
# that register a handler for event 4242, publish a key and wait. Then, each on OpenPMIx's own
# library with a time limit: pps (by searching, by --pid, by --namespace) lists the job's
# namespace; e2e_tools as a tool queries the process table by wrun's pid, looks the key up,
# and kills the job (Debian 12's 4.2.2 has no pctrl; its pquery dies of SIGFPE and its plookup
# of SIGSEGV before they ask anything, whatever the server: those two are run and skipped when
# they do); pevent injects event 4242, which both ranks' handlers see. The job must end with
# status 0 (a kill by job control is no failure), saying which tool killed it, and leave
# nothing in TMPDIR. Skipped without libpmix-dev; the pps/pevent checks without libpmix-bin.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_need_openpmix
e2e_plan 11
e2e_mktemp
code=4242
d="$e2e_tmp/d"
mkdir "$d" || exit 1

# the tool side: OpenPMIx's own library (an RPATH, and nothing of ours in the environment)
tool="$e2e_tmp/tool"
if $cc -std=gnu11 -I"$sys_inc" -o "$tool" "$s/test/e2e/e2e_tools.c" -L"$sys_libdir" \
    -Wl,--disable-new-dtags,-rpath,"$sys_libdir" -lpmix 2>"$e2e_tmp/cc.err" &&
    e2e_openpmix_build "$e2e_tmp/job" "$s/test/e2e/e2e_tools.c"; then
    e2e_ok "e2e_tools built against OpenPMIx's headers (tool: its library; job: ours)"
else
    e2e_not_ok "could not build e2e_tools"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
fi
# otool OUT PROG ARGS...: run a tool on OpenPMIx's library (30 s at most); sets rc
otool() {
    o=$1
    shift
    env -u LD_LIBRARY_PATH -u LD_PRELOAD -u PMIX_MCA_mca_base_component_path \
        TMPDIR="$e2e_tmp/t" timeout 30 "$@" >"$o" 2>&1
    rc=$?
}
have() {
    command -v "$1" >/dev/null 2>&1
}

TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" --oversubscribe -n 2 "$e2e_tmp/job" job "$d" $code \
    >"$e2e_tmp/out" 2>&1 &
job=$!
for _ in $(seq 600); do
    [ -f "$d/ready.0" ] && [ -f "$d/ready.1" ] && break
    sleep 0.1
done
read -r ns pid <"$d/ready.0" 2>/dev/null
if [ -z "$ns" ] || [ -z "$pid" ] || ! grep -q wrun "/proc/$pid/cmdline" 2>/dev/null; then
    e2e_not_ok "the job did not start (namespace '$ns', wrun pid '$pid')"
    kill "$job" 2>/dev/null
    wait "$job"
    e2e_diag "$e2e_tmp/out"
    e2e_exit
fi
srvns=${ns%.*} # wrun's server: the job's namespace without its ".1"
host=$(hostname | cut -d. -f1)

# the rendezvous files: five lines (URI, version, pid, uid:gid, time), mode 0640
bad=
for name in "pmix.$host.tool" "pmix.$host.tool.$pid" "pmix.$host.tool.$srvns"; do
    f=$(find "$e2e_tmp/t" -name "$name" | head -n 1)
    if [ -z "$f" ]; then
        bad="$bad $name:missing"
    elif [ "$(stat -c %a "$f")" != 640 ] || [ "$(sed -n 3p "$f")" != "$pid" ] ||
        [ "$(sed -n 4p "$f")" != "$(id -u):$(id -g)" ] ||
        ! sed -n 1p "$f" | grep -q "^$srvns\.0;tcp4://127\.0\.0\.1:[0-9]*$"; then
        bad="$bad $name:content"
        sed 's/^/# /' "$f"
    fi
done
if [ -z "$bad" ]; then
    e2e_ok "wrun's rendezvous files for tools, named and written as OpenPMIx's"
else
    e2e_not_ok "rendezvous files:$bad"
fi

# pps: searching (4.2.2 ignores --pid and --namespace, but takes them)
if have pps; then
    bad=
    for how in "" "--pid $pid" "--namespace $srvns"; do
        # shellcheck disable=SC2086
        otool "$e2e_tmp/pps" pps $how
        grep -qx "Active nspaces: $ns" "$e2e_tmp/pps" || bad="$bad [pps $how: exit $rc]"
    done
    if [ -z "$bad" ]; then
        e2e_ok "pps (by searching, --pid, --namespace) lists the job's namespace"
    else
        e2e_not_ok "pps:$bad"
        e2e_diag "$e2e_tmp/pps"
    fi
else
    e2e_skip "pps is not installed (libpmix-bin)"
fi

otool "$e2e_tmp/query" "$tool" query "$pid" "$ns"
if [ $rc -eq 0 ] && grep -qx "namespaces $ns" "$e2e_tmp/query" &&
    grep -qx 'size 2' "$e2e_tmp/query" &&
    [ "$(grep -c '^proc [01] pid [1-9][0-9]* state [0-9]* host ' "$e2e_tmp/query")" -eq 2 ]; then
    e2e_ok "a tool found by wrun's pid queries the namespaces, job size and process table"
else
    e2e_not_ok "tool query (exit $rc)"
    e2e_diag "$e2e_tmp/query"
fi

if have pquery; then
    otool "$e2e_tmp/pquery" pquery --pid "$pid" PMIX_QUERY_NAMESPACES
    if [ $rc -eq 136 ]; then
        e2e_skip "pquery died of SIGFPE before connecting (Debian 12's 4.2.2 does with any server)"
    elif [ $rc -eq 0 ] && grep -qF "$ns" "$e2e_tmp/pquery"; then
        e2e_ok "pquery --pid lists the job's namespace"
    else
        e2e_not_ok "pquery (exit $rc)"
        e2e_diag "$e2e_tmp/pquery"
    fi
else
    e2e_skip "pquery is not installed (libpmix-bin)"
fi

otool "$e2e_tmp/lookup" "$tool" lookup "$pid" e2e-tools-key
if [ $rc -eq 0 ] && grep -qx "e2e-tools-key = $ns (by $ns:0)" "$e2e_tmp/lookup"; then
    e2e_ok "a tool looks up the key the job published"
else
    e2e_not_ok "tool lookup (exit $rc)"
    e2e_diag "$e2e_tmp/lookup"
fi

if have plookup; then
    otool "$e2e_tmp/plookup" plookup e2e-tools-key
    if [ $rc -eq 139 ]; then
        e2e_skip "plookup died of SIGSEGV (Debian 12's 4.2.2 never fills in its keys)"
    elif [ $rc -eq 0 ] && grep -qx 'Key: e2e-tools-key' "$e2e_tmp/plookup"; then
        e2e_ok "plookup finds the published key"
    else
        e2e_not_ok "plookup (exit $rc)"
        e2e_diag "$e2e_tmp/plookup"
    fi
else
    e2e_skip "plookup is not installed (libpmix-bin)"
fi

if have pevent; then
    # 4.2.2: --event CODE, and it finds the server by searching, which names it
    # SERVER.tool.N; 5.0.7: the code as an argument, --pid, and it names itself
    # pevent.HOST.PID
    otool "$e2e_tmp/pevent" pevent --help
    if grep -q -- --event "$e2e_tmp/pevent"; then
        otool "$e2e_tmp/pevent" pevent --event $code --range 4
        from="$srvns\.tool\.[0-9]*"
    else
        otool "$e2e_tmp/pevent" pevent --pid "$pid" --range 4 $code
        from="pevent\.[^:]*\.[0-9]*"
    fi
    for _ in $(seq 100); do
        [ "$(e2e_count_lines "$e2e_tmp/out" "^tools rank [01]: event $code from ")" -eq 2 ] && break
        sleep 0.1
    done
    n=$(grep -c "^tools rank [01]: event $code from $from:0$" "$e2e_tmp/out")
    if [ $rc -eq 0 ] && [ "$n" -eq 2 ]; then
        e2e_ok "pevent's event $code reaches both ranks' handlers, from the tool"
    else
        e2e_not_ok "pevent (exit $rc): $n of 2 ranks saw the event"
        e2e_diag "$e2e_tmp/pevent"
        e2e_diag "$e2e_tmp/out"
    fi
else
    e2e_skip "pevent is not installed (libpmix-bin)"
fi

# the kill: OpenPMIx's pctrl where it is (5.0.7; it names itself pctrl.HOST.PID), else the
# same request from e2e_tools (which wrun's server names SERVER.tool.N)
if have pctrl; then
    otool "$e2e_tmp/kill" pctrl --pid "$pid" --targets "$ns:*" --kill
    grep -q '^Job control KILL granted$' "$e2e_tmp/kill" || rc="$rc, not granted"
    killer="pctrl\.[^ ]*\.[0-9]*"
else
    otool "$e2e_tmp/kill" "$tool" kill "$pid" "$ns"
    grep -qx 'kill: \(PMIX_\)\?SUCCESS' "$e2e_tmp/kill" || rc="$rc, not SUCCESS"
    killer="$srvns\.tool\."
fi
wait "$job"
jrc=$?
if [ "$rc" = 0 ]; then
    e2e_ok "a tool's PMIX_JOB_CTRL_KILL of the job is accepted ($(have pctrl && echo pctrl || echo e2e_tools))"
else
    e2e_not_ok "tool kill (exit $rc)"
    e2e_diag "$e2e_tmp/kill"
fi
if [ $jrc -eq 0 ] && grep -q "killed at the request of the tool $killer" "$e2e_tmp/out" &&
    ! grep -q 'not killed' "$e2e_tmp/out"; then
    e2e_ok "the job ends with status 0, killed at the tool's request"
else
    e2e_not_ok "the job ended with status $jrc"
    e2e_diag "$e2e_tmp/out"
fi
e2e_check_leaks "wrun with tools"

# a tool asking for a server that is not there fails at once, it does not hang
otool "$e2e_tmp/none" "$tool" query "$pid" "$ns"
if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then
    e2e_ok "after the job a tool finds no server (exit $rc)"
else
    e2e_not_ok "a tool after the job: exit $rc"
    e2e_diag "$e2e_tmp/none"
fi
e2e_exit
