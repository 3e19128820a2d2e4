#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: event notification between the ranks of a job under wrun (test/e2e/e2e_events.c):
# handlers filtering on affected processes, custom ranges, job-level and environment-level
# handlers each get exactly their events, in order (wrun -n 3); environment events notified
# before anyone registered for them reach the handlers registered later, after the
# registration's callback, and each event once (wrun -n 2).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 2
e2e_mktemp
e2e_wrun "$e2e_tmp/out" 3 "$e2e/e2e_events" targets
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" '^events rank [0-2]: ok$')" -eq 3 ]; then
    e2e_ok "wrun -n 3: affected processes, custom range, job and environment levels filter"
else
    e2e_not_ok "wrun -n 3: event targets (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 2 "$e2e/e2e_events" cache
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" '^events rank [0-1]: ok$')" -eq 2 ]; then
    e2e_ok "wrun -n 2: cached events reach handlers registered later"
else
    e2e_not_ok "wrun -n 2: cached events (wrun exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
