#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: PMIx_Publish / PMIx_Lookup / PMIx_Unpublish under wrun (issue 14). The Standard's
# rules within one job of 3 and 4 ranks (e2e_pubsub rules); two separate wrun jobs that meet
# through the session range (one publishes, the other waits for it and answers); a job's data
# go with the job (PMIX_PERSIST_APP) while PMIX_PERSIST_INDEF data outlive it, in the
# rendezvous directory, for a later job; a singleton has no data service. Nothing is left in
# TMPDIR but what was published to last indefinitely.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 8
e2e_mktemp
p="$e2e/e2e_pubsub"

# run OUT ARGS...: e2e_pubsub ARGS under `wrun -n 1`, without e2e_wrun's check of leftovers (the
# rendezvous directory may rightly hold a datum kept indefinitely); e2e_rc its exit status
run() {
    out=$1
    shift
    TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" -n 1 "$p" "$@" >"$out" 2>&1
    e2e_rc=$?
}

for n in 3 4; do
    e2e_wrun "$e2e_tmp/out" $n "$p" rules
    good=$(e2e_count_lines "$e2e_tmp/out" "^pubsub rules: rank [0-9]* ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "wrun -n $n: publish/lookup/unpublish rules (ranges, duplicates, waits, first read)"
    else
        e2e_not_ok "wrun -n $n: rules (wrun exit $e2e_rc, $good of $n ranks ok)"
        e2e_diag "$e2e_tmp/out"
    fi
done

# two separate jobs: a starts first and waits for b's answer
e2e_meet "$p" meet \
    "two separate wrun jobs meet through what they publish (and a duplicate is refused)"

e2e_wrun "$e2e_tmp/out" 1 "$p" absent wu.meet.a
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^pubsub absent: rank 0 ok")" -eq 1 ]; then
    e2e_ok "a job's data (PMIX_PERSIST_APP) are gone once it has ended"
else
    e2e_not_ok "data of an ended job: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi

run "$e2e_tmp/out" keep wu.kept
rdv=$(find "$e2e_tmp/t" -maxdepth 1 -name 'wu-rdv.*' | head -1)
nfiles=$(find "$e2e_tmp/t" -path '*/wu-rdv.*/*' -type f 2>/dev/null | wc -l)
if [ "$e2e_rc" -eq 0 ] && [ -n "$rdv" ] && [ "$nfiles" -eq 1 ]; then
    e2e_ok "PMIX_PERSIST_INDEF: the datum outlives its job (one file in the rendezvous directory)"
else
    e2e_not_ok "PMIX_PERSIST_INDEF: wrun exit $e2e_rc, rendezvous directory '$rdv' with $nfiles files"
    e2e_diag "$e2e_tmp/out"
fi
run "$e2e_tmp/out" find wu.kept
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^pubsub find: rank 0 ok")" -eq 1 ]; then
    e2e_ok "a later job finds the datum kept indefinitely"
else
    e2e_not_ok "a later job looking for wu.kept: wrun exit $e2e_rc"
    e2e_diag "$e2e_tmp/out"
fi
[ -n "$rdv" ] && rm -rf "$rdv"

TMPDIR="$e2e_tmp/t" timeout 60 "$p" alone >"$e2e_tmp/out" 2>&1
e2e_rc=$?
if [ "$e2e_rc" -eq 0 ] && [ "$(e2e_count_lines "$e2e_tmp/out" "^pubsub alone: rank 0 ok")" -eq 1 ]; then
    e2e_ok "a singleton: no data service (PMIX_ERR_NOT_SUPPORTED)"
else
    e2e_not_ok "a singleton's Publish/Lookup"
    e2e_diag "$e2e_tmp/out"
fi
left=$(find "$e2e_tmp/t" -mindepth 1 | head -5)
if [ -z "$left" ]; then
    e2e_ok "nothing left in TMPDIR"
else
    e2e_not_ok "left in TMPDIR: $left"
fi
e2e_exit
