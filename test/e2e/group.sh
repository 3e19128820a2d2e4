#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Group_construct and PMIx_Group_destruct under wrun (issue 14): one context id
# at every member, another for another group, the membership in the results and in
# PMIx_Query_info, a construct that times out, destructs; a group made by invitation (accept,
# decline, leave, with their events); a group of two separate wrun jobs (one context id in
# both); a singleton's group of itself.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
p="$e2e/e2e_group"

for n in 1 2 4; do
    e2e_wrun "$e2e_tmp/out" $n "$p" job
    good=$(e2e_count_lines "$e2e_tmp/out" "^group job: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: groups constructed with one context id each, queried, destructed"
    else
        e2e_not_ok "wrun -n $n: groups (wrun exit $e2e_rc, $good ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

e2e_wrun "$e2e_tmp/out" 3 "$p" invite
good=$(e2e_count_lines "$e2e_tmp/out" "^group invite: rank [0-9]* ok")
if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 3 ]; then
    e2e_ok "wrun -n 3: invite, accept, decline, leave (events), destruct; an unanswered invite times out"
else
    e2e_not_ok "wrun -n 3: invite/join/leave (wrun exit $e2e_rc, $good ok)"
    e2e_diag "$e2e_tmp/out"
fi

e2e_meet "$p" meet \
    "two separate wrun jobs construct one group: one context id in both, fence, destruct"

TMPDIR="$e2e_tmp/t" timeout 60 "$p" alone >"$e2e_tmp/out" 2>&1
e2e_rc=$?
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^group alone: rank 0 ok")" -eq 1 ]; then
    e2e_ok "a singleton: a group of itself; with another process PMIX_ERR_UNREACH"
else
    e2e_not_ok "a singleton's groups: exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
