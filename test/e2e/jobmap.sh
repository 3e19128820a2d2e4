#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the job-level and per-process placement keys the processes Get are what the job map
# and wrun's options say: PMIX_MAPBY, PMIX_RANKBY, PMIX_BINDTO follow --map-by, --bind-to and
# --oversubscribe (ORTE's forms, e.g. "BYCORE:NOOVERSUBSCRIBE"); PMIX_NUM_NODES, PMIX_NODE_LIST,
# PMIX_LOCAL_SIZE, PMIX_LOCAL_PEERS, and each rank's PMIX_LOCAL_RANK, PMIX_NODE_RANK and
# PMIX_NODEID agree with the map. A synthetic topology (4 cores) keeps it the same on any machine.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp
keys="$e2e/e2e_keys"
host=$(hostname)

# run ARGS...: wrun as given (no --oversubscribe unless asked), output in $e2e_tmp/out
run() {
    HWLOC_SYNTHETIC="package:1 core:4 pu:1" TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" "$@" \
        >"$e2e_tmp/out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "wrun $*"
}
# check DESC WANT: rank 0's "key=value" lines equal WANT
check() {
    got=$(sed -n 's/^keys rank 0: //p' "$e2e_tmp/out")
    if [ "$e2e_rc" -eq 0 ] && [ "$got" = "$2" ]; then
        e2e_ok "$1"
    else
        e2e_not_ok "$1 (wrun exit $e2e_rc); got:"
        echo "$got" | sed 's/^/#   /'
        echo "# wanted:"
        echo "$2" | sed 's/^/#   /'
        e2e_diag "$e2e_tmp/out"
    fi
}
policy="pmix.mapby pmix.rankby pmix.bindto"

run -n 2 "$keys" $policy pmix.num.nodes pmix.nlist pmix.local.size pmix.lpeers \
    proc:pmix.lrank proc:pmix.nrank proc:pmix.nodeid proc:pmix.hname
check "defaults: by slot, bound to cores, one node" "pmix.mapby=BYSLOT:NOOVERSUBSCRIBE
pmix.rankby=SLOT
pmix.bindto=CORE:IF-SUPPORTED
pmix.num.nodes=1
pmix.nlist=$host
pmix.local.size=2
pmix.lpeers=0,1
proc:pmix.lrank=0
proc:pmix.nrank=0
proc:pmix.nodeid=0
proc:pmix.hname=$host"

run -n 3 --map-by core --bind-to none "$keys" $policy
check "--map-by core --bind-to none" "pmix.mapby=BYCORE:NOOVERSUBSCRIBE
pmix.rankby=SLOT
pmix.bindto=NONE:IF-SUPPORTED"

run -n 6 --oversubscribe "$keys" $policy pmix.local.size
check "--oversubscribe beyond the 4 cores" "pmix.mapby=BYSLOT:OVERSUBSCRIBE
pmix.rankby=SLOT
pmix.bindto=NONE:IF-SUPPORTED:OVERLOAD-ALLOWED
pmix.local.size=6"

run -n 2 --map-by package:OVERSUBSCRIBE "$keys" $policy
check "--map-by package:OVERSUBSCRIBE" "pmix.mapby=BYPACKAGE:OVERSUBSCRIBE
pmix.rankby=SLOT
pmix.bindto=PACKAGE:IF-SUPPORTED"

# every rank's own view: local rank = node rank = rank on one node, one node id
run -n 4 "$keys" proc:pmix.lrank proc:pmix.nrank proc:pmix.nodeid
bad=0
for r in 0 1 2 3; do
    line=$(sed -n "s/^keys rank $r: //p" "$e2e_tmp/out" | tr '\n' ' ')
    [ "$line" = "proc:pmix.lrank=$r proc:pmix.nrank=$r proc:pmix.nodeid=0 " ] || bad=$((bad + 1))
done
if [ "$e2e_rc" -eq 0 ] && [ "$bad" -eq 0 ]; then
    e2e_ok "-n 4: each rank's local rank, node rank and node id"
else
    e2e_not_ok "-n 4: per-rank keys wrong for $bad ranks (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
