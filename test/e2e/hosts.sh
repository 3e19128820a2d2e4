#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of wrun's hosts and spreading on one node (no lab): -H with a host that does not
# exist shows both nodes in --display-map, then fails to start its daemon (ssh cannot reach it),
# naming the node, with nothing started; --hostfile with this node only runs, -np defaulting to its slots (or this node's
# cores for a line without slots=); bad hostfiles are refused with FILE:LINE; host names an
# agent could read as options or that carry shell syntax are refused alike from -H and from a
# hostfile, before anything runs; -H filters a hostfile; --map-by node, --npernode and ppr place as mpirun does; unsupported and conflicting
# spreading options are refused. A synthetic topology (4 cores) keeps it the same everywhere.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 10
e2e_mktemp
place="$e2e/e2e_place"
host=$(hostname)

# run ARGS...: wrun as given on a 4-core synthetic node, output in $e2e_tmp/out
run() {
    rm -f "$e2e_tmp/ran"
    HWLOC_SYNTHETIC="package:1 core:4 pu:1" TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" "$@" \
        >"$e2e_tmp/out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "wrun $*"
}
# ranks: how many processes ran e2e_place
ranks() { grep -c '^place rank=' "$e2e_tmp/out"; }
# node_line NAME SLOTS PROCS: the --display-map line of a node is in the output
node_line() {
    grep -q "^ Data for node: $1	Num slots: $2	Max slots: 0	Num procs: $3\$" "$e2e_tmp/out"
}
# result OK DESC: ok or not ok with the output
result() {
    if [ "$1" -eq 1 ]; then
        e2e_ok "$2"
    else
        e2e_not_ok "$2 (wrun exit $e2e_rc):"
        e2e_diag "$e2e_tmp/out"
    fi
}

# 1: a host that does not exist: the map shows both nodes, then its daemon cannot be started,
# nothing runs
run --display-map -H localhost:2,otherhost:2 -np 4 touch "$e2e_tmp/ran"
ok=0
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] && node_line "$host" 2 2 &&
    node_line otherhost 2 2 &&
    grep -q "Process rank: 3 Bound: N/A\$" "$e2e_tmp/out" &&
    grep -q 'could not start wired on node otherhost' "$e2e_tmp/out"; then
    ok=1
fi
result $ok "-H localhost:2,otherhost:2: both nodes in --display-map, then otherhost's daemon fails to start"

# 2: --hostfile naming this node: -np defaults to its slots
printf '# this node only\n%s slots=2   # two slots\n\n' "$host" >"$e2e_tmp/hf"
run --hostfile "$e2e_tmp/hf" --display-map "$place"
ok=0
[ "$e2e_rc" -eq 0 ] && [ "$(ranks)" -eq 2 ] && node_line "$host" 2 2 && ok=1
result $ok "--hostfile with this node (slots=2): 2 ranks without -np"

# 3: a line without slots=: this node's cores (4); --machinefile is the same option
printf 'localhost\n' >"$e2e_tmp/hf2"
run --machinefile "$e2e_tmp/hf2" "$place"
ok=0
[ "$e2e_rc" -eq 0 ] && [ "$(ranks)" -eq 4 ] && ok=1
result $ok "--machinefile, host without slots=: one rank per core of this node"

# 4: bad hostfiles: FILE:LINE and what is wrong, usage status, nothing started
printf 'localhost slots=2\nlocalhost cpus=4\n' >"$e2e_tmp/bad"
run --hostfile "$e2e_tmp/bad" touch "$e2e_tmp/ran"
ok=0
if [ "$e2e_rc" -eq 1 ] && [ ! -e "$e2e_tmp/ran" ] &&
    grep -q "$e2e_tmp/bad:2: unknown keyword 'cpus'" "$e2e_tmp/out"; then
    run --hostfile "$e2e_tmp/nonexistent" touch "$e2e_tmp/ran"
    [ "$e2e_rc" -eq 1 ] && [ ! -e "$e2e_tmp/ran" ] &&
        grep -q "cannot read $e2e_tmp/nonexistent" "$e2e_tmp/out" && ok=1
fi
result $ok "bad hostfile line and missing hostfile: refused with file (and line)"

# 5: a host name that ssh could take as an option, or that carries shell syntax, is refused
# before anything starts, with the same words from -H and from a hostfile
ok=1
for bad in "-oProxyCommand=touch $e2e_tmp/proxied" '-l' 'a;touch' 'a$(id)' 'a|b' '.x'; do
    run -H "$bad,localhost" -np 1 touch "$e2e_tmp/ran"
    h_rc=$e2e_rc
    h_msg=$(sed -n "s/^wrun: \(.* is not a host name: .*\) (option -H)\$/\1/p" "$e2e_tmp/out")
    [ "$h_rc" -eq 1 ] && [ -n "$h_msg" ] && [ ! -e "$e2e_tmp/ran" ] &&
        [ ! -e "$e2e_tmp/proxied" ] || ok=0
    case $bad in *' '* | *=*) continue ;; esac
    printf 'localhost\n%s slots=1\n' "$bad" >"$e2e_tmp/badname"
    run --hostfile "$e2e_tmp/badname" touch "$e2e_tmp/ran"
    f_msg=$(sed -n "s/^wrun: [^ ]*badname:2: \(.*\) (option --hostfile)\$/\1/p" "$e2e_tmp/out")
    [ "$e2e_rc" -eq 1 ] && [ "$f_msg" = "$h_msg" ] && [ ! -e "$e2e_tmp/ran" ] || ok=0
    [ "$ok" -eq 1 ] || break
done
result $ok "-H or hostfile host names like -oProxyCommand=..., -l, a;touch: refused alike, nothing run"

# 6: -H picks hosts of the hostfile (the other host left out runs nothing), with its own count
printf 'otherhost slots=4\nlocalhost slots=4\n' >"$e2e_tmp/hf3"
run --hostfile "$e2e_tmp/hf3" -H localhost:3 --display-map "$place"
ok=0
if [ "$e2e_rc" -eq 0 ] && [ "$(ranks)" -eq 3 ] && node_line "$host" 3 3 &&
    ! grep -q otherhost "$e2e_tmp/out"; then
    run --hostfile "$e2e_tmp/hf3" -H nothere touch "$e2e_tmp/ran"
    [ "$e2e_rc" -eq 1 ] && [ ! -e "$e2e_tmp/ran" ] &&
        grep -q 'The host "nothere" given with -H is not in the hostfile' "$e2e_tmp/out" && ok=1
fi
result $ok "-H filters the hostfile; a host not in it is refused"

# 7: --map-by node deals ranks over the nodes in turn
run --map-by node -H localhost:2,n2:2,n3:2 -np 4 --display-map touch "$e2e_tmp/ran"
ok=0
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] && node_line "$host" 2 2 && node_line n2 2 1 &&
    node_line n3 2 1 && grep -q 'Mapping policy: BYNODE:NOOVERSUBSCRIBE' "$e2e_tmp/out" &&
    [ "$(sed -n "/Data for node: $host/,/Data for node: n2/p" "$e2e_tmp/out" |
        sed -n 's/.*Process rank: \([0-9]*\) .*/\1/p' | tr '\n' ' ')" = "0 3 " ]; then
    ok=1
fi
result $ok "--map-by node: ranks 0,3 here, 1 and 2 on the others"

# 8: --npernode / --pernode: N per node, -np defaulting to N per node
run -H localhost:4 --npernode 2 "$place"
ok=0
if [ "$e2e_rc" -eq 0 ] && [ "$(ranks)" -eq 2 ]; then
    run -H localhost:4,n2:4 --pernode --display-map true
    [ "$e2e_rc" -ne 0 ] && node_line "$host" 4 1 && node_line n2 4 1 &&
        grep -q 'Mapping policy: PPR:1:NODE' "$e2e_tmp/out" && ok=1
fi
result $ok "--npernode 2 and --pernode: N per node, -np from them"

# 9: ppr:N:node runs; ppr:N:package is refused as not supported yet
run --map-by ppr:3:node "$place"
ok=0
if [ "$e2e_rc" -eq 0 ] && [ "$(ranks)" -eq 3 ]; then
    run --map-by ppr:2:package -np 2 touch "$e2e_tmp/ran"
    [ "$e2e_rc" -eq 1 ] && [ ! -e "$e2e_tmp/ran" ] &&
        grep -q 'ppr:N:package is not supported yet' "$e2e_tmp/out" && ok=1
fi
result $ok "--map-by ppr:3:node runs 3; ppr:2:package is refused"

# 10: too many ranks for the hosts' slots; --npernode with --map-by node
run -H localhost:2,localhost -np 4 touch "$e2e_tmp/ran"
ok=0
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] &&
    grep -q 'found 1 node with 3 slots in all' "$e2e_tmp/out"; then
    run --pernode --map-by node -np 1 touch "$e2e_tmp/ran"
    [ "$e2e_rc" -eq 1 ] && [ ! -e "$e2e_tmp/ran" ] &&
        grep -q 'both say how the processes' "$e2e_tmp/out" && ok=1
fi
result $ok "slots of -H merged and checked; --pernode with --map-by node refused"
e2e_exit
