#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Job_control under wrun (e2e_jobctl): a rank killed at another's request ends
# without failing the job, which goes on (the others fence and exit 0) and wrun names it; a
# SIGUSR1 reaches every rank; a rank that dies of a SIGTERM sent this way fails the job (143);
# a rank terminating its whole job ends it with status 0; bad requests are refused and
# informational directives accepted; the kill also works from a program built against
# OpenPMIx's headers.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
prog="$e2e/e2e_jobctl"

# result DESC WANT_RC OKS [PATTERN]: wrun exited WANT_RC, OKS ranks said ok, PATTERN is in the
# output (when given), no rank failed a check
result() {
    oks=$(e2e_count_lines "$e2e_tmp/out" '^jobctl rank [0-9]*: ok')
    if [ "$e2e_rc" -eq "$2" ] && [ "$oks" -eq "$3" ] && ! grep -q 'FAIL' "$e2e_tmp/out" &&
        { [ -z "$4" ] || grep -q -- "$4" "$e2e_tmp/out"; }; then
        e2e_ok "$1"
    else
        e2e_not_ok "$1 (wrun exit $e2e_rc, want $2; $oks ranks ok, want $3)"
        e2e_diag "$e2e_tmp/out"
    fi
}

e2e_wrun "$e2e_tmp/out" 3 "$prog" kill 0 2
result "rank 0 kills rank 2: the others go on, exit 0" 0 2 \
    'rank 2 of job .* killed at the request of rank 0 (PMIx_Job_control)'
e2e_wrun "$e2e_tmp/out" 3 "$prog" signal
result "SIGUSR1 to PMIX_RANK_WILDCARD reaches every rank" 0 3
e2e_wrun "$e2e_tmp/out" 2 "$prog" signal-die
result "a rank dead of a SIGTERM sent with PMIX_JOB_CTRL_SIGNAL fails the job" 143 0 \
    'rank 1 .* exited on signal 15'
e2e_wrun "$e2e_tmp/out" 3 "$prog" terminate
result "PMIX_JOB_CTRL_TERMINATE without targets ends the caller's job, status 0" 0 0 \
    'ranks 0-2 of job .* terminated at the request of rank 2'
e2e_wrun "$e2e_tmp/out" 2 "$prog" bad
result "bad requests refused, informational directives accepted" 0 2

e2e_openpmix_build "$e2e_tmp/e2e_jobctl" "$s/test/e2e/e2e_jobctl.c" -lpthread
case $? in
2)
    e2e_skip "OpenPMIx development files not installed (libpmix-dev)"
    e2e_exit
    ;;
1)
    e2e_not_ok "could not build e2e_jobctl against OpenPMIx's headers"
    e2e_diag "$e2e_tmp/cc.err"
    e2e_exit
    ;;
esac
e2e_wrun "$e2e_tmp/out" 3 "$e2e_tmp/e2e_jobctl" kill 1 0
result "built against OpenPMIx's headers: rank 1 kills rank 0, the others go on" 0 2 \
    'rank 0 of job .* killed at the request of rank 1'
e2e_exit
