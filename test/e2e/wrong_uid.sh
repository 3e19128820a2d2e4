#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only): a process with another uid (nobody) presenting a rank's contact
# information is refused (PMIx_Init fails: no access to the 0700 session directory, or, for a
# process that changed only its effective uid, PMIX_ERR_INVALID_CRED from the psec check with a
# log line naming the uid), and the rank itself connects afterwards (test/e2e/e2e_wronguid.c).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 3
e2e_mktemp
if [ "$(id -u)" -ne 0 ]; then
    for _ in 1 2 3; do
        e2e_skip "needs root to change uid (psec's unit tests cover the refusal)"
    done
    e2e_exit
fi
e2e_wrun "$e2e_tmp/out" 1 "$e2e/e2e_wronguid"
if [ "$e2e_rc" -eq 0 ] && grep -q '^wronguid: ok' "$e2e_tmp/out"; then
    e2e_ok "both clients with uid 65534 refused, the rank connected after them"
else
    e2e_not_ok "wrong uid (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
# the child that reaches the socket must be refused by the credential check
if grep -q '^child (euid 65534, fsuid 0): PMIx_Init refused: INVALID-CREDENTIAL' "$e2e_tmp/out"
then
    e2e_ok "euid 65534 at the socket: PMIX_ERR_INVALID_CRED"
else
    e2e_not_ok "euid 65534 at the socket: not refused with PMIX_ERR_INVALID_CRED"
    grep '^child' "$e2e_tmp/out" | sed 's/^/# /'
fi
# and the server says why, naming the uid it saw
if grep -q 'refused' "$e2e_tmp/out" && grep -q 'uid 65534' "$e2e_tmp/out"; then
    e2e_ok "the server logged the refusal with the peer's uid"
else
    e2e_not_ok "no refusal message naming uid 65534 from the server"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
