#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of mapping and binding under wrun, deterministic on any machine through hwloc's
# synthetic topologies (HWLOC_SYNTHETIC): the --report-bindings lines byte for byte (ORTE's
# form), PMIX_CPUSET, PMIX_LOCALITY_STRING and the topology XML as the processes see them, the
# slot check with its familiar message and the ways around it (--oversubscribe, :OVERSUBSCRIBE,
# -H slots), --display-map, and real binding on this machine's own topology.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 11
e2e_mktemp
place="$e2e/e2e_place"
syn="package:2 core:4 pu:2"

# run_wrun OUT ARGS...: wrun without e2e_wrun's --oversubscribe (the slot check is tested here)
run_wrun() {
    out=$1
    shift
    TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" "$@" >"$out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "wrun $*"
}
# bindings OUT: the --report-bindings lines of OUT without the [host:pid] part, by rank
bindings() {
    sed -n 's/^\[[^]]*:[0-9]*\] MCW rank /MCW rank /p' "$1" | sort
}

# 1: two ranks bound to a core each, ORTE's report form
HWLOC_SYNTHETIC=$syn run_wrun "$e2e_tmp/out" -n 2 --bind-to core --report-bindings "$place"
want="MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/../../..][../../../..]
MCW rank 1 bound to socket 0[core 1[hwt 0-1]]: [../BB/../..][../../../..]"
if [ "$e2e_rc" -eq 0 ] && [ "$(bindings "$e2e_tmp/out")" = "$want" ]; then
    e2e_ok "--report-bindings: ORTE's lines for two ranks bound to cores"
else
    e2e_not_ok "--report-bindings (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi

# 2: what the processes get: cpuset, locality string, topology XML
l0=$(grep '^place rank=0 ' "$e2e_tmp/out")
l1=$(grep '^place rank=1 ' "$e2e_tmp/out")
case "$l0|$l1" in
"place rank=0 cpuset=0-1 locstr=NM0:SK0:CR0:HT0-1 xml=yes "*"|place rank=1 cpuset=2-3 locstr=NM0:SK0:CR1:HT2-3 xml=yes "*)
    e2e_ok "PMIX_CPUSET, PMIX_LOCALITY_STRING and pmix.hwlocxml2 registered per rank" ;;
*)
    e2e_not_ok "placement as the processes see it: '$l0' '$l1'" ;;
esac

# 3: by package, bound to packages: ranks alternate between the two
HWLOC_SYNTHETIC=$syn run_wrun "$e2e_tmp/out" -n 4 --map-by package --report-bindings "$place"
if [ "$e2e_rc" -eq 0 ] &&
    [ "$(bindings "$e2e_tmp/out" | sed -n 's/^MCW rank \([0-9]\) bound to socket \([0-9]\).*/\1:\2/p' |
        tr '\n' ' ')" = "0:0 1:1 2:0 3:1 " ]; then
    e2e_ok "--map-by package: ranks alternate between the packages"
else
    e2e_not_ok "--map-by package (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi

# 4: --bind-to none: no cpuset, no locality, "not bound"
HWLOC_SYNTHETIC=$syn run_wrun "$e2e_tmp/out" -n 2 --bind-to none --report-bindings "$place"
if [ "$e2e_rc" -eq 0 ] && [ "$(grep -c 'cpuset=none locstr=none' "$e2e_tmp/out")" -eq 2 ] &&
    [ "$(grep -c 'is not bound (or bound to all available processors)$' "$e2e_tmp/out")" -eq 2 ]; then
    e2e_ok "--bind-to none: unbound ranks, reported as such"
else
    e2e_not_ok "--bind-to none (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi

# 5-6: more ranks than cores: refused with the familiar message, nothing started
HWLOC_SYNTHETIC="package:1 core:2 pu:1" run_wrun "$e2e_tmp/out" -n 3 touch "$e2e_tmp/ran"
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] &&
    grep -q '^There are not enough slots available in the system to satisfy the 3$' "$e2e_tmp/out" &&
    grep -q 'oversubscribe' "$e2e_tmp/out"; then
    e2e_ok "3 ranks on 2 cores: 'not enough slots', nothing launched"
else
    e2e_not_ok "3 ranks on 2 cores (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi
good=1
for opts in "--oversubscribe" "--map-by core:OVERSUBSCRIBE" "-H localhost:3" "--host localhost:2,localhost"; do
    # shellcheck disable=SC2086
    HWLOC_SYNTHETIC="package:1 core:2 pu:1" run_wrun "$e2e_tmp/out" -n 3 $opts "$place"
    if [ "$e2e_rc" -ne 0 ] || [ "$(grep -c '^place ' "$e2e_tmp/out")" -ne 3 ]; then
        good=0
        echo "# wrun -n 3 $opts: exit $e2e_rc"
        e2e_diag "$e2e_tmp/out"
    fi
done
if [ $good -eq 1 ]; then
    e2e_ok "3 ranks on 2 cores run with --oversubscribe, :OVERSUBSCRIBE or -H slots"
else
    e2e_not_ok "a way around the slot check did not work"
fi

# 7: -H with too few slots is refused, and so is a remote host (no launch on other nodes yet)
HWLOC_SYNTHETIC=$syn run_wrun "$e2e_tmp/out" -n 3 -H localhost:2 "$place"
rc1=$e2e_rc
run_wrun "$e2e_tmp/out2" -n 1 -H no-such-host.invalid "$place"
if [ "$rc1" -ne 0 ] && grep -q 'not enough slots' "$e2e_tmp/out" && [ "$e2e_rc" -ne 0 ] &&
    grep -q 'no-such-host.invalid' "$e2e_tmp/out2"; then
    e2e_ok "-H localhost:2 with 3 ranks, and a remote host, are refused"
else
    e2e_not_ok "-H checks (exit $rc1 / $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
    e2e_diag "$e2e_tmp/out2"
fi

# 8: --display-map shows every rank before the job runs (mpirun 4.1's layout)
HWLOC_SYNTHETIC=$syn run_wrun "$e2e_tmp/out" -n 2 --display-map "$place"
if [ "$e2e_rc" -eq 0 ] && grep -q 'JOB MAP' "$e2e_tmp/out" &&
    grep -q "^ Data for node: $(hostname)	Num slots: 8	Max slots: 0	Num procs: 2\$" "$e2e_tmp/out" &&
    [ "$(grep -cE '^ 	Process OMPI jobid: \[.*\] App: 0 Process rank: [01] Bound: socket' \
        "$e2e_tmp/out")" -eq 2 ]; then
    e2e_ok "--display-map: the map with both ranks"
else
    e2e_not_ok "--display-map (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi

# 9: bad policies are refused before launch
run_wrun "$e2e_tmp/out" -n 1 --bind-to board touch "$e2e_tmp/ran"
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] && grep -q 'valid values' "$e2e_tmp/out"; then
    e2e_ok "--bind-to board: refused with the valid values"
else
    e2e_not_ok "--bind-to board (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi

# 10: on this machine's own topology the binding is real (one rank: bound to core 0's cpus)
run_wrun "$e2e_tmp/out" -n 1 "$place"
line=$(grep '^place rank=0 ' "$e2e_tmp/out")
cpuset=$(echo "$line" | sed -n 's/.* cpuset=\([^ ]*\) .*/\1/p')
aff=$(echo "$line" | sed -n 's/.* affinity=\([^ ]*\) .*/\1/p')
if [ "$e2e_rc" -eq 0 ] && [ -n "$cpuset" ] && [ "$cpuset" != none ] && [ "$cpuset" = "$aff" ]; then
    e2e_ok "real topology: the rank runs on the cpus it was told ($cpuset)"
else
    e2e_not_ok "real binding: '$line' (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 11: a bad HWLOC_SYNTHETIC is an error, not a silent fallback
HWLOC_SYNTHETIC="bogus:3" run_wrun "$e2e_tmp/out" -n 1 touch "$e2e_tmp/ran"
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] && grep -q 'HWLOC_SYNTHETIC' "$e2e_tmp/out"; then
    e2e_ok "a bad HWLOC_SYNTHETIC is reported"
else
    e2e_not_ok "bad HWLOC_SYNTHETIC (exit $e2e_rc):"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
