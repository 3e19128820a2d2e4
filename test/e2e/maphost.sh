#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 15): a host that registers job-level maps only, as OpenPMIx's examples/server.c
# and Slurm do (e2e_maphost.c: PMIX_NODE_MAP, PMIX_PROC_MAP, PMIX_LOCAL_PEERS and sizes; a
# client_connected that never calls back; a fence answered inside the upcall under a lock its
# release function takes), with clients printing their view of the job (e2e_mapinfo.c: job,
# per-process and node keys, Resolve_peers/nodes). Both are built against OpenPMIx's headers
# and run twice: on OpenPMIx's own library, then on ours. The clients' views must be identical,
# line for line, for 1, 3 and 4 processes. Skipped when libpmix-dev is not installed.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
sys_libdir=${WU_OPENPMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu/pmix2/lib}
e2e_mktemp
theirs_env="LD_LIBRARY_PATH=$sys_libdir"
e2e_openpmix_build "$e2e_tmp/maphost" "$s/test/e2e/e2e_maphost.c" -lpthread
case $? in
2)
    echo "1..0 # SKIP OpenPMIx development files not installed (libpmix-dev)"
    exit 0
    ;;
1)
    e2e_plan 1
    e2e_not_ok "could not build e2e_maphost.c against OpenPMIx's headers"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
    ;;
esac
e2e_plan 7
if e2e_openpmix_build "$e2e_tmp/mapinfo" "$s/test/e2e/e2e_mapinfo.c"; then
    e2e_ok "e2e_maphost and e2e_mapinfo built against OpenPMIx's headers"
else
    e2e_not_ok "could not build e2e_mapinfo.c against OpenPMIx's headers"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
fi

# host N OUT [ENV...]: the host and N clients (120 s at most); sets e2e_rc
host() {
    n=$1
    out=$2
    shift 2
    TMPDIR="$e2e_tmp/t" timeout 120 env "$@" "$e2e_tmp/maphost" "$n" "$e2e_tmp/mapinfo" \
        >"$out" 2>"$out.err"
    e2e_rc=$?
    e2e_check_leaks "maphost $n"
}

for n in 1 3 4; do
    # OpenPMIx's library: its own run, without ours or the sanitizer runtimes
    host $n "$e2e_tmp/theirs" -u LD_PRELOAD "$theirs_env"
    if [ "$e2e_rc" -ne 0 ] || ! grep -q "library OpenPMIx" "$e2e_tmp/theirs"; then
        e2e_skip "OpenPMIx's own library does not run the host with $n clients (exit $e2e_rc)"
        e2e_skip "no reference view for $n clients"
        continue
    fi
    host $n "$e2e_tmp/ours"
    if [ "$e2e_rc" -eq 0 ] && grep -q "library .*Wireup" "$e2e_tmp/ours"; then
        e2e_ok "the host and $n client(s) run on our library"
    else
        e2e_not_ok "the host and $n clients on our library (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/ours.err"
        e2e_diag "$e2e_tmp/ours" 10
    fi
    grep -v '^#' "$e2e_tmp/theirs" | sort >"$e2e_tmp/theirs.s"
    grep -v '^#' "$e2e_tmp/ours" | sort >"$e2e_tmp/ours.s"
    if [ -s "$e2e_tmp/theirs.s" ] && diff "$e2e_tmp/theirs.s" "$e2e_tmp/ours.s" >"$e2e_tmp/diff"; then
        e2e_ok "$n client(s) see the job as on OpenPMIx ($(wc -l <"$e2e_tmp/ours.s") keys)"
    else
        e2e_not_ok "$n clients see the job differently on our library (< OpenPMIx, > ours)"
        e2e_diag "$e2e_tmp/diff"
    fi
done
e2e_exit
