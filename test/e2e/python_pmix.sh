#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (issue 28): OpenPMIx's Python binding (python3-pmix: 4.2 on Debian 12, 5.0.7 on
# Debian 13) as a client under wrun -n 1, 2 and 4 on our library (e2e_pyclient.py): init with a
# programming model, job size, put/commit/collecting fence and every peer's value, the model
# declaration reaching a handler registered after init, publish/lookup, the namespaces query,
# finalize; and the binding loaded our libpmix.so.2. Skipped without python3-pmix (Debian 13
# installs it as an egg directory off python's path: it is added to PYTHONPATH).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
for egg in /usr/lib/python3/dist-packages/pypmix-*.egg; do
    [ -d "$egg" ] && PYTHONPATH=$egg${PYTHONPATH:+:$PYTHONPATH} && export PYTHONPATH
done
e2e_python pmix python3-pmix
e2e_plan 4
e2e_mktemp
e2e_foreign_preload
for n in 1 2 4; do
    e2e_wrun "$e2e_tmp/out" $n "$py" "$s/test/e2e/e2e_pyclient.py"
    good=$(e2e_count_lines "$e2e_tmp/out" '^pyclient rank [0-9]*: ok')
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "python3-pmix under wrun -n $n: init, exchange, model event, publish, query"
    else
        e2e_not_ok "python3-pmix under wrun -n $n (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done
lib=$(sed -n 's/^pyclient libpmix: //p' "$e2e_tmp/out")
ours=$(cd "$b/.libs" && pwd -P)
case "$lib" in
"$ours"/libpmix.so*) e2e_ok "the binding loaded our libpmix.so.2 ($lib)" ;;
*) e2e_not_ok "the binding loaded '${lib:-nothing}', not $ours/libpmix.so.2" ;;
esac
e2e_exit
