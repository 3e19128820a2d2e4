#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Spawn under wrun (issue 14). Rank 0 of a job of 1 and of 2 spawns 2 children
# with an environment variable and a working directory; the children see PMIX_PARENT_ID,
# PMIX_SPAWNED, the variable and the directory; parents and children connect and read each
# other's job data and commits. Spawning a missing program fails and the job goes on; a host
# the job does not have, or a name no host can have, is refused; a child that exits 3 ends its parent's job (wrun exits 3), unless spawned with
# PMIX_REPORT_CHILD_SEP; with PMIX_NOTIFY_JOB_EVENTS its parent alone hears the child job's
# launch and end. No process and nothing in TMPDIR is left.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 7
e2e_mktemp
p="$e2e/e2e_spawn"
mkdir "$e2e_tmp/spawn-wdir" || exit 1

for n in 1 2; do
    e2e_wrun "$e2e_tmp/out" $n "$p" parent "$e2e_tmp/spawn-wdir"
    np=$(e2e_count_lines "$e2e_tmp/out" "^spawn parent: rank [0-9]* ok")
    nc=$(e2e_count_lines "$e2e_tmp/out" "^spawn child: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$np" -eq $n ] && [ "$nc" -eq 2 ]; then
        e2e_ok "wrun -n $n: PMIx_Spawn of 2 children, which meet their parents"
    else
        e2e_not_ok "wrun -n $n: spawn (wrun exit $e2e_rc, $np parents, $nc children ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

e2e_wrun "$e2e_tmp/out" 1 "$p" badexe
e2e_wrun "$e2e_tmp/out2" 1 "$p" nohost
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^spawn badexe: rank 0 ok")" -eq 1 ] &&
    [ "$(e2e_count_lines "$e2e_tmp/out2" "^spawn nohost: rank 0 ok")" -eq 1 ] &&
    grep -q "asked for the host wu-no-such-host, which is not one of this job's hosts" "$e2e_tmp/out2" &&
    grep -q "asked for a host by a name no host can have.*'-oProxyCommand=false' is not a host name" "$e2e_tmp/out2"; then
    e2e_ok "spawning a missing program fails, a host the job lacks is refused (wrun says why); the job goes on"
else
    e2e_not_ok "refused spawns: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
    e2e_diag "$e2e_tmp/out2"
fi

e2e_wrun "$e2e_tmp/out" 1 "$p" failchild
if [ "$e2e_rc" -eq 3 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^spawn failchild: rank 0 ok")" -eq 0 ]; then
    e2e_ok "a child that exits 3 ends its parent's job: wrun exits 3"
else
    e2e_not_ok "a failing child: wrun exit $e2e_rc (want 3)"
    e2e_diag "$e2e_tmp/out"
fi

e2e_wrun "$e2e_tmp/out" 1 "$p" sep
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^spawn sep: rank 0 ok")" -eq 1 ]; then
    e2e_ok "with PMIX_REPORT_CHILD_SEP a failing child leaves its parent's job alone"
else
    e2e_not_ok "PMIX_REPORT_CHILD_SEP: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 3 "$p" notify
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^spawn notify: rank [0-2] ok")" -eq 3 ]; then
    e2e_ok "PMIX_NOTIFY_JOB_EVENTS: the parent alone hears PMIX_LAUNCH_COMPLETE and PMIX_EVENT_JOB_END (exit code 3)"
else
    e2e_not_ok "PMIX_NOTIFY_JOB_EVENTS: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi
left=$(pgrep -f "$e2e/e2e_spawn" | tr '\n' ' ')
if [ -z "$left" ]; then
    e2e_ok "no spawned process is left"
else
    e2e_not_ok "processes left: $left"
    # shellcheck disable=SC2086
    kill -9 $left 2>/dev/null
fi
e2e_exit
