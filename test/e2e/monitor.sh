#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 28): PMIx_Process_monitor under wrun (e2e_monitor), watched by the server
# library: a heartbeat monitor stays quiet while beats come and raises
# PMIX_MONITOR_HEARTBEAT_ALERT once when they stop, to the watched rank and its namespace, naming
# the rank and the monitor's id; a file monitor stays quiet while the file grows and raises
# PMIX_MONITOR_FILE_ALERT when it stops; a cancelled monitor raises nothing; bad requests are
# refused; a rank's monitors end with it (jctrl-like: a monitor left at PMIx_Finalize never
# trips). The heartbeat example of OpenPMIx (jctrl) is in openpmix_examples.sh.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 4
e2e_mktemp
prog="$e2e/e2e_monitor"

# result DESC NP: wrun exited 0, every rank said ok, none failed a check
result() {
    oks=$(e2e_count_lines "$e2e_tmp/out" 'monitor rank [0-9]*: ok')
    if [ "$e2e_rc" -eq 0 ] && [ "$oks" -eq "$2" ] && ! grep -q 'FAIL' "$e2e_tmp/out"; then
        e2e_ok "$1"
    else
        e2e_not_ok "$1 (wrun exit $e2e_rc; $oks of $2 ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
}

e2e_wrun "$e2e_tmp/out" 3 "$prog" beat
result "heartbeats: no alert while they come, one alert to rank 1 and rank 0 when they stop" 3
e2e_wrun "$e2e_tmp/out" 2 "$prog" file "$e2e_tmp/watched.log"
result "a file monitor: no alert while the file grows, PMIX_MONITOR_FILE_ALERT when it stops" 2
e2e_wrun "$e2e_tmp/out" 2 "$prog" cancel
result "a cancelled monitor raises nothing; cancelling it again finds nothing" 2
e2e_wrun "$e2e_tmp/out" 2 "$prog" bad
result "monitors without a period, of 0 s, of a relative path, of an unknown kind are refused" 2
e2e_exit
