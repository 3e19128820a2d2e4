#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: what the pnet framework adds to a job launched by wrun (test/e2e/e2e_pnet.c). With
# PMIX_MCA_pnet=tcp every rank Gets the interfaces and the job's key at PMIX_RANK_WILDCARD, the
# same values as in its environment, the same key on every rank, and the job's port range when
# a pool is set; with PMIX_MCA_pnet=none the keys are NOT_FOUND; a pool too small for one job
# stops the launch with a message saying so.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp
unset PMIX_MCA_pnet_tcp_ports PMIX_MCA_pnet_tcp_ports_per_job

# pnet_run DESC NP ARGS...: run e2e_pnet on NP ranks; ok if every rank said ok with one key
pnet_run() {
    desc=$1
    np=$2
    shift 2
    e2e_wrun "$e2e_tmp/out" "$np" "$e2e/e2e_pnet" "$@"
    good=$(e2e_count_lines "$e2e_tmp/out" "^pnet rank .*: ok key=")
    nkeys=$(sed -n 's/^pnet rank .*: ok key=//p' "$e2e_tmp/out" | sort -u | wc -l)
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq "$np" ] && [ "$nkeys" -eq 1 ]; then
        e2e_ok "$desc"
    else
        e2e_not_ok "$desc (wrun exit $e2e_rc, $good of $np ranks ok, $nkeys distinct keys)"
        e2e_diag "$e2e_tmp/out"
    fi
}

PMIX_MCA_pnet=tcp pnet_run "pnet=tcp: interfaces and key at WILDCARD and in the environment" 2 tcp
PMIX_MCA_pnet=tcp PMIX_MCA_pnet_tcp_ports=31000-31099 PMIX_MCA_pnet_tcp_ports_per_job=10 \
    pnet_run "pnet=tcp with a port pool: the job gets ports 31000-31009" 2 tcp 31000-31009
PMIX_MCA_pnet=none pnet_run "pnet=none: no pnet keys, nothing in the environment" 2 none
pnet_run "default selection (tcp active): the keys are there" 1 tcp

PMIX_MCA_pnet=tcp PMIX_MCA_pnet_tcp_ports=31000-31003 PMIX_MCA_pnet_tcp_ports_per_job=8 \
    e2e_wrun "$e2e_tmp/out" 2 "$e2e/e2e_pnet" tcp
if [ "$e2e_rc" -ne 0 ] && grep -q "holds fewer ports than one job gets" "$e2e_tmp/out" &&
    grep -q "could not prepare the network for job" "$e2e_tmp/out" &&
    [ "$(e2e_count_lines "$e2e_tmp/out" "^pnet rank")" -eq 0 ]; then
    e2e_ok "a pool smaller than one job's range stops the launch with a clear message"
else
    e2e_not_ok "pool too small: wrun exit $e2e_rc, expected a failure with a message"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
