#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Load_topology in processes launched by wrun gives the topology wrun registered
# (a synthetic one: the processes drop HWLOC_SYNTHETIC before loading, so their own discovery
# would differ), the same one twice, and PMIx_Compute_distances agrees on it and on the node's
# (e2e_topo); the same program built against OpenPMIx's headers does the same on our library.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 2
e2e_mktemp
syn="package:2 core:2 pu:2"

HWLOC_SYNTHETIC=$syn e2e_wrun "$e2e_tmp/out" 2 "$e2e/e2e_topo" 8 2
good=$(e2e_count_lines "$e2e_tmp/out" '^topo rank [01]: ok')
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 2 ]; then
    e2e_ok "wrun -n 2 under '$syn': the registered topology, lent once, distances agree"
else
    e2e_not_ok "e2e_topo (wrun exit $e2e_rc, $good of 2 ranks ok)"
    e2e_diag "$e2e_tmp/out"
fi

e2e_openpmix_build "$e2e_tmp/e2e_topo" "$s/test/e2e/e2e_topo.c" -lhwloc
case $? in
2)
    e2e_skip "OpenPMIx development files not installed (libpmix-dev)"
    e2e_exit
    ;;
1)
    e2e_not_ok "could not build e2e_topo against OpenPMIx's headers"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
    ;;
esac
HWLOC_SYNTHETIC=$syn e2e_wrun "$e2e_tmp/out" 2 "$e2e_tmp/e2e_topo" 8 2
good=$(e2e_count_lines "$e2e_tmp/out" '^topo rank [01]: ok')
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 2 ]; then
    e2e_ok "the same, built against OpenPMIx's headers, on our library"
else
    e2e_not_ok "e2e_topo on OpenPMIx's headers (wrun exit $e2e_rc, $good of 2 ranks ok)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
