#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of MPMD launches, `wrun -n 2 a : -n 1 b`: ranks are numbered through the contexts, each
# process gets its context's PMIX_APPNUM and PMIX_APP_RANK, its own program, arguments, -x
# variables and --wdir, Open MPI's per-context lists (OMPI_APP_CTX_NUM_PROCS, OMPI_FIRST_RANKS),
# and a bad context stops the whole launch.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 5
e2e_mktemp

# 1: PMIX_APPNUM and PMIX_APP_RANK per context
e2e_wrun "$e2e_tmp/out" 2 "$e2e/e2e_place" : -n 2 "$e2e/e2e_place"
got=$(sed -n 's/^place rank=\([0-9]\) .* appnum=\([0-9]*\) apprank=\([0-9]*\)$/\1:\2:\3/p' \
    "$e2e_tmp/out" | sort | tr '\n' ' ')
if [ "$e2e_rc" -eq 0 ] && [ "$got" = "0:0:0 1:0:1 2:1:0 3:1:1 " ]; then
    e2e_ok "two contexts: ranks 0-1 are app 0, ranks 2-3 app 1, app ranks from 0"
else
    e2e_not_ok "MPMD appnum/apprank: '$got' (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi

# 2: each context its program, arguments, -x and --wdir
mkdir "$e2e_tmp/w1" || exit 1
e2e_wrun "$e2e_tmp/out" 1 -x WHO=first sh -c 'echo "r$PMIX_RANK $WHO $(pwd) $0"' a0 : \
    -n 1 -x WHO=second --wdir "$e2e_tmp/w1" sh -c 'echo "r$PMIX_RANK $WHO $(pwd) $0"' a1
want="r0 first $(pwd) a0|r1 second $(cd "$e2e_tmp/w1" && pwd -P) a1|"
got=$(sort "$e2e_tmp/out" | tr '\n' '|')
if [ "$e2e_rc" -eq 0 ] && [ "$got" = "$want" ]; then
    e2e_ok "each context has its own program, arguments, -x and --wdir"
else
    e2e_not_ok "per-context settings: got '$got', want '$want'"
fi

# 3: Open MPI's per-context lists
e2e_wrun "$e2e_tmp/out" 2 sh -c 'echo "$OMPI_APP_CTX_NUM_PROCS|$OMPI_FIRST_RANKS|$OMPI_NUM_APP_CTX"' : \
    -n 3 sh -c 'echo "$OMPI_APP_CTX_NUM_PROCS|$OMPI_FIRST_RANKS|$OMPI_NUM_APP_CTX"'
if [ "$e2e_rc" -eq 0 ] && [ "$(sort -u "$e2e_tmp/out")" = "2 3|0 2|2" ]; then
    e2e_ok "OMPI_APP_CTX_NUM_PROCS='2 3', OMPI_FIRST_RANKS='0 2', OMPI_NUM_APP_CTX=2"
else
    e2e_not_ok "Open MPI's context lists:"
    e2e_diag "$e2e_tmp/out"
fi

# 4-5: a missing program in any context, or an empty one, starts nothing
e2e_wrun "$e2e_tmp/out" 1 touch "$e2e_tmp/ran" : -n 1 wu-no-such-program-xyz
if [ "$e2e_rc" -eq 127 ] && [ ! -e "$e2e_tmp/ran" ] && grep -q 'wu-no-such-program-xyz' "$e2e_tmp/out"; then
    e2e_ok "a missing program in the second context: exit 127, nothing started"
else
    e2e_not_ok "missing program in a context (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 1 touch "$e2e_tmp/ran" :
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran" ] && grep -q 'no program' "$e2e_tmp/out"; then
    e2e_ok "a trailing ':' is refused before launch"
else
    e2e_not_ok "trailing ':' (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
