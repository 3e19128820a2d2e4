#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: a client started without wrun (no server contact in its environment) is a
# singleton: nspace singleton.<host>.<pid>, rank 0, size 1, own Put/Commit/Get and Fence work.
# Does not need wrun.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
echo "1..2"
e2e_mktemp
env -u PMIX_NAMESPACE -u PMIX_RANK -u WU_PMIX_SERVER_URI -u PMIX_SERVER_URI41 \
    -u PMIX_SERVER_URI4 -u PMIX_SERVER_URI3 -u PMIX_SERVER_URI2 -u PMIX_SERVER_URI \
    TMPDIR="$e2e_tmp/t" timeout 60 "$e2e/e2e_singleton" >"$e2e_tmp/out" 2>&1
rc=$?
e2e_check_leaks "e2e_singleton"
if [ $rc -eq 0 ] && grep -q '^singleton singleton\..*: ok' "$e2e_tmp/out"; then
    e2e_ok "singleton: $(sed -n 's/^singleton \(.*\): ok/\1/p' "$e2e_tmp/out")"
else
    e2e_not_ok "singleton (exit $rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
