#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only, issue 14): the dynamic calls across the nodes of a 2-node test/lab lab.
# wrun on node1 runs 4 ranks, 2 per node, that publish and look up data with every range and
# persistence rule (e2e_pubsub rules: the data service on the head node, reached from node2's
# ranks through their wired), connect and disconnect among themselves (e2e_connect within),
# construct groups with one context id at every member (e2e_group job: the head gives it) and
# validate each other's credentials across the nodes (e2e_cred job); a rank on node2 spawns
# with PMIX_NOTIFY_JOB_EVENTS and hears the child job's events (e2e_spawn notify); rank 0 spawns
# children onto node2 (PMIX_HOST: the head starts a wired of the child job there), which check
# where they run and meet their parents on both nodes (e2e_spawn parent); a missing program
# spawned onto node2 fails the spawn, not the job, and a child there that exits 3 ends the job
# (wrun exits 3); a spawn in a job without ranks on the head node is refused with a message;
# with Open MPI (Debian's mpicc), MPI_Publish_name, MPI_Lookup_name and accept/connect between
# rank 0 on node1 and rank 1 on node2 of one job, and between two separate wrun jobs started
# on node1 and on node2 whose ranks are on both nodes; MPI_Comm_spawn by a rank on either node
# (the children on the head node connect back to both), and with the info key "host": onto node2
# alone and onto both nodes. After every run nothing of the job is
# left on either node. The lab is taken down at exit whatever happens.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=15
e2e_plan $lab_tests
e2e_mktemp
. "$s/test/e2e/lab_lib.sh"
lab_start wdpm$$ 2
mkdir -p "$e2e_tmp/t"
hosts="-H node1,node2 --map-by node"
progs='^[^ ]*(wired --node|e2e_pubsub|e2e_connect|e2e_group|e2e_cred|e2e_spawn|mpi_dpm)|^ssh .*wired'

# ok_lines OUT PATTERN N WHAT: the run passed with N lines matching PATTERN
ok_lines() {
    got=$(e2e_count_lines "$1" "$2")
    if [ "$e2e_rc" -eq 0 ] && [ "$got" -eq "$3" ] && lab_left "$progs" "$4"; then
        e2e_ok "$4"
    else
        e2e_not_ok "$4 (exit $e2e_rc, $got of $3 ok)"
        e2e_diag "$1"
    fi
}

# shellcheck disable=SC2086 # $hosts is words
lab_on node1 "$e2e_tmp/pub.out" ./wrun $hosts -np 4 test/e2e/e2e_pubsub rules
ok_lines "$e2e_tmp/pub.out" "^pubsub rules: rank [0-9]* ok" 4 \
    "publish/lookup/unpublish rules with ranks on 2 nodes (the head's data service, through wired)"
# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/cx.out" ./wrun $hosts -np 4 test/e2e/e2e_connect within
ok_lines "$e2e_tmp/cx.out" "^connect within: rank [0-9]* ok" 4 \
    "connects and disconnects among ranks of 2 nodes"
# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/grp.out" ./wrun $hosts -np 4 test/e2e/e2e_group job
ok_lines "$e2e_tmp/grp.out" "^group job: rank [0-9]* ok" 4 \
    "groups of ranks on 2 nodes: one context id at every member, destructed"

# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/cred.out" ./wrun $hosts -np 4 test/e2e/e2e_cred job
ok_lines "$e2e_tmp/cred.out" "^cred job: rank [0-9]* ok" 4 \
    "credentials of ranks on node1 validated on node2 and back (the job's shared key)"

# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/note.out" ./wrun $hosts -np 2 test/e2e/e2e_spawn notify
ok_lines "$e2e_tmp/note.out" "^spawn notify: rank [0-1] ok" 2 \
    "PMIx_Spawn by rank 1 on node2 with PMIX_NOTIFY_JOB_EVENTS: it hears the child job's launch and end"

# children on another node than the head: their own wired there
mkdir -p "$e2e_tmp/spawn-wdir"
# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/far.out" ./wrun $hosts -np 2 test/e2e/e2e_spawn parent "$e2e_tmp/spawn-wdir" \
    node2
ok_lines "$e2e_tmp/far.out" "^spawn [a-z]*: rank [0-1] ok" 4 \
    "PMIx_Spawn with PMIX_HOST node2: the children run there and meet their parents on both nodes"
# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/farbad.out" ./wrun $hosts -np 2 test/e2e/e2e_spawn badexe node2
if grep -q "could not execute '/nonexistent/wu-no-such-program'" "$e2e_tmp/farbad.out"; then
    ok_lines "$e2e_tmp/farbad.out" "^spawn badexe: rank [0-1] ok" 2 \
        "a missing program spawned onto node2 fails the spawn (wrun says why); the job goes on"
else
    e2e_not_ok "a missing program spawned onto node2 (exit $e2e_rc): no message"
    e2e_diag "$e2e_tmp/farbad.out"
fi

# shellcheck disable=SC2086
lab_on node1 "$e2e_tmp/farfail.out" ./wrun $hosts -np 2 test/e2e/e2e_spawn failchild node2
if [ "$e2e_rc" -eq 3 ] && grep -q "on node node2 exited with status 3" "$e2e_tmp/farfail.out" &&
    lab_left "$progs" "a failing child on node2"; then
    e2e_ok "a child on node2 that exits 3 ends its parent's job: wrun exits 3, naming node2"
else
    e2e_not_ok "a failing child on node2: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/farfail.out"
fi

# wrun on node1 with every rank on node2: a spawn is refused, saying why (no hang)
lab_on node1 "$e2e_tmp/nohead.out" ./wrun -H node2 -np 1 test/e2e/e2e_spawn badexe
if grep -q "this job runs no process there" "$e2e_tmp/nohead.out"; then
    ok_lines "$e2e_tmp/nohead.out" "^spawn badexe: rank 0 ok" 1 \
        "PMIx_Spawn in a job with no rank on the head node is refused, saying why"
else
    e2e_not_ok "PMIx_Spawn with no rank on the head node (exit $e2e_rc): no message"
    e2e_diag "$e2e_tmp/nohead.out"
fi

prog="$e2e_tmp/mpi_dpm"
if command -v mpicc >/dev/null 2>&1 && mpicc -o "$prog" "$s/test/e2e/mpi_dpm.c" \
    2>"$e2e_tmp/cc.err"; then
    # shellcheck disable=SC2086
    lab_on node1 "$e2e_tmp/pair.out" ./wrun $hosts -np 2 "$prog" pair
    ok_lines "$e2e_tmp/pair.out" "^mpi_dpm pair: rank [0-9]* ok" 2 \
        "Open MPI: publish, lookup, accept/connect between rank 0 on node1 and rank 1 on node2"
    # shellcheck disable=SC2086
    lab_on node1 "$e2e_tmp/s.out" ./wrun $hosts -np 2 "$prog" server wu-dpm-lab &
    spid=$!
    # shellcheck disable=SC2086
    lab_on node2 "$e2e_tmp/c.out" ./wrun -H node2,node1 --map-by node -np 2 "$prog" client \
        wu-dpm-lab
    crc=$e2e_rc
    wait $spid
    src=$?
    ns=$(e2e_count_lines "$e2e_tmp/s.out" "^mpi_dpm server: rank [0-9]* ok")
    nc=$(e2e_count_lines "$e2e_tmp/c.out" "^mpi_dpm client: rank [0-9]* ok")
    if [ "$src" -eq 0 ] && [ "$crc" -eq 0 ] && [ "$ns" -eq 2 ] && [ "$nc" -eq 2 ] &&
        lab_left "$progs" "two MPI jobs"; then
        e2e_ok "Open MPI: two wrun jobs (from node1 and node2, ranks on both) accept/connect"
    else
        e2e_not_ok "two MPI jobs across nodes: server exit $src ($ns ok), client exit $crc ($nc ok)"
        e2e_diag "$e2e_tmp/s.out"
        e2e_diag "$e2e_tmp/c.out"
    fi
    # MPI_Comm_spawn by a rank on node1 and by one on node2: the children run on the head
    # node and connect back to parents on both nodes
    for root in 0 1; do
        # shellcheck disable=SC2086
        lab_on node1 "$e2e_tmp/sp.out" ./wrun $hosts -np 2 "$prog" spawn 2 $root
        kids=$(e2e_count_lines "$e2e_tmp/sp.out" "^mpi_dpm child: rank [0-9]* ok")
        good=$(e2e_count_lines "$e2e_tmp/sp.out" "^mpi_dpm spawn: rank [0-9]* ok")
        if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 2 ] && [ "$kids" -eq 2 ] &&
            lab_left "$progs" "spawn from rank $root"; then
            e2e_ok "Open MPI: MPI_Comm_spawn of 2 children by rank $root (node$((root + 1))) of a job on 2 nodes"
        else
            e2e_not_ok "MPI_Comm_spawn by rank $root across nodes (exit $e2e_rc, $good parents, $kids children ok)"
            e2e_diag "$e2e_tmp/sp.out"
        fi
    done
    # MPI_Comm_spawn with the info key "host": children onto node2 only (by rank 0 on node1), and
    # 2 per node onto both (by rank 1 on node2)
    for spec in "2 0 node2" "4 1 node1,node2"; do
        # shellcheck disable=SC2086 # $spec is words
        lab_on node1 "$e2e_tmp/sph.out" ./wrun $hosts -np 2 "$prog" spawn $spec
        n1=$(e2e_count_lines "$e2e_tmp/sph.out" "^mpi_dpm child: rank [0-9]* ok (on node1)")
        n2=$(e2e_count_lines "$e2e_tmp/sph.out" "^mpi_dpm child: rank [0-9]* ok (on node2)")
        good=$(e2e_count_lines "$e2e_tmp/sph.out" "^mpi_dpm spawn: rank [0-9]* ok")
        want1=0
        [ "${spec#4}" != "$spec" ] && want1=2
        if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 2 ] && [ "$n1" -eq $want1 ] && [ "$n2" -eq 2 ] &&
            lab_left "$progs" "spawn $spec"; then
            e2e_ok "Open MPI: MPI_Comm_spawn $spec (count, root, info host): $n1 children on node1, $n2 on node2"
        else
            e2e_not_ok "MPI_Comm_spawn $spec (exit $e2e_rc, $good parents, children $n1 on node1 and $n2 on node2)"
            e2e_diag "$e2e_tmp/sph.out"
        fi
    done
else
    for k in 1 2 3 4 5 6; do
        e2e_skip "Open MPI's mpicc is not installed (or could not build mpi_dpm.c) ($k)"
    done
fi
lab_stop
e2e_exit
