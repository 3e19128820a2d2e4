#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Query_info (namespaces, job size, proc table) under `wrun -n 1, 3`, and the
# cleanup rank 0 registers with PMIx_Job_control_nb (a directory tree and a file under this
# test's private directory) is gone after the job while the private directory itself remains;
# PMIx_Log_nb lines sent to stderr appear in the job's output.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
for n in 1 3; do
    mkdir "$e2e_tmp/run$n" || exit 1
    e2e_wrun "$e2e_tmp/out" $n "$e2e/e2e_query" "$e2e_tmp/run$n"
    good=$(e2e_count_lines "$e2e_tmp/out" "^query rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: queries and cleanup registration"
    else
        e2e_not_ok "wrun -n $n: queries (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
    logged=$(e2e_count_lines "$e2e_tmp/out" 'e2e-log-marker from rank')
    if [ "$logged" -eq $n ]; then
        e2e_ok "wrun -n $n: PMIx_Log_nb to stderr: one line per rank in the job's output"
    else
        e2e_not_ok "wrun -n $n: PMIx_Log_nb to stderr: $logged of $n lines in the output"
    fi
    if [ ! -e "$e2e_tmp/run$n/cleanme" ] && [ ! -e "$e2e_tmp/run$n/cleanfile" ] &&
        [ -d "$e2e_tmp/run$n" ]; then
        e2e_ok "wrun -n $n: registered directory tree and file removed after the job"
    else
        left=$(cd "$e2e_tmp/run$n" 2>/dev/null && find . | tr '\n' ' ')
        e2e_not_ok "wrun -n $n: cleanup not done, after the job: $left"
    fi
done
e2e_exit
