#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: fence data in shared segments (gds/shmem; test/e2e/e2e_shmem.c), `wrun -n 4`, each
# rank 64 KiB:
# - by default every rank maps the fence's segment and reads every value from it, and a second
#   round's values replace the first's;
# - with PMIX_MCA_gds=hash no rank maps one; with hash on ranks 0 and 1 only (mixed selection)
#   those two get the data as before and the others map a segment, all reading the same values;
# - with gds_shmem_segment_max below the fence's data (it does not fit one segment) the data
#   goes to each rank as before; so it does over TCP (PMIX_MCA_ptl=tcp: no descriptor passing);
# - the job's registered per-process data: every rank maps the one job segment the server made
#   for the namespace (memfd "wu-shm-job") and reads every rank's data from it, before and after
#   a fence; with hash (everywhere, or on ranks 0 and 1), or a segment_max below the data, those
#   ranks get the data in the CONNECT reply instead, with the same values, as over TCP;
# - whatever the ending -- normal, PMIx_Abort, a rank that mapped a segment killing itself,
#   SIGKILL of wrun -- no process of the job is left, /dev/shm has no new entry (segments are
#   memfds: they have no name and vanish with their last user) and TMPDIR is empty; while the
#   job runs, wrun (the server) holds no fence segment open, and one job segment.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 16
e2e_mktemp
shm_before=$(ls -a /dev/shm 2>/dev/null | sort | tr '\n' ' ')

# segs_ok DIR WANT...: DIR/$what.R (what: default seg) of each rank R holds a count that is 0
# (WANT "0") or at least 1 (WANT "1"); prints the counts
segs_ok() {
    d=$1
    shift
    r=0
    ok=0
    for want in "$@"; do
        got=$(cat "$d/${what:-seg}.$r" 2>/dev/null || echo -)
        printf 'rank %s: %s segment(s); ' $r "$got"
        case "$want:$got" in
        0:0) ;;
        1:[1-9]*) ;;
        *) ok=1 ;;
        esac
        r=$((r + 1))
    done
    return $ok
}

# run NAME ARGS...: e2e_shmem $mode (default normal) under wrun -n 4 with the given
# environment, in a fresh DIR
run() {
    name=$1
    shift
    d="$e2e_tmp/$name"
    mkdir "$d" || exit 1
    TMPDIR="$e2e_tmp/t" timeout 120 env "$@" "$wrun" --oversubscribe -n 4 \
        "$e2e/e2e_shmem" "${mode:-normal}" "$d" >"$e2e_tmp/out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "wrun -n 4 e2e_shmem ${mode:-normal} ($name)"
    good=$(e2e_count_lines "$e2e_tmp/out" "^shm ${mode:-normal}: rank .* of 4: ok")
}

# verdict "WANT..." WHAT: one TAP line for the last run: wrun exited 0, its 4 ranks were ok
# and each mapped what WANT says (segs_ok)
verdict() {
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq 4 ] && counts=$(segs_ok "$d" $1); then
        e2e_ok "$2 ($counts)"
    else
        e2e_not_ok "$2: wrun exit $e2e_rc, $good of 4 ranks ok; $counts"
        e2e_diag "$e2e_tmp/out"
    fi
}

# run_mixed NAME: as run, with ranks 0 and 1 selecting hash, 2 and 3 shmem (the server serves
# each as it can take the data)
run_mixed() {
    d="$e2e_tmp/$1"
    mkdir "$d" || exit 1
    TMPDIR="$e2e_tmp/t" timeout 120 "$wrun" --oversubscribe -n 4 sh -c \
        'if [ "$PMIX_RANK" -lt 2 ]; then PMIX_MCA_gds=hash; export PMIX_MCA_gds; fi; exec "$@"' \
        sh "$e2e/e2e_shmem" "${mode:-normal}" "$d" >"$e2e_tmp/out" 2>&1
    e2e_rc=$?
    e2e_check_leaks "wrun -n 4 e2e_shmem ${mode:-normal} ($1)"
    good=$(e2e_count_lines "$e2e_tmp/out" "^shm ${mode:-normal}: rank .* of 4: ok")
}

run default PMIX_MCA_gds_base_verbose=0
verdict "1 1 1 1" "default gds: each rank maps the fence's segment and reads every value"
run hash PMIX_MCA_gds=hash
verdict "0 0 0 0" "PMIX_MCA_gds=hash: the data comes to each rank, no segment"
run_mixed mixed
verdict "0 0 1 1" "mixed selection (hash on ranks 0-1): every rank reads every value"
# 4 x 64 KiB do not fit a segment of at most 64 KiB
run toobig PMIX_MCA_gds_shmem_segment_max=64k
verdict "0 0 0 0" "fence data larger than gds_shmem_segment_max: sent to each rank"
run tcp PMIX_MCA_ptl=tcp
verdict "0 0 0 0" "over TCP: the data comes to each rank, no segment"

# the registered per-process data
mode=job what=jobseg
run job_default PMIX_MCA_gds_base_verbose=0
verdict "1 1 1 1" "job data: each rank maps the job segment and reads every rank's data"
run job_hash PMIX_MCA_gds=hash
verdict "0 0 0 0" "job data with PMIX_MCA_gds=hash: in the CONNECT reply, the same values"
run_mixed job_mixed
verdict "0 0 1 1" "job data, mixed selection (hash on ranks 0-1): the same values everywhere"
run job_toobig PMIX_MCA_gds_shmem_segment_max=1k
verdict "0 0 0 0" "job data larger than gds_shmem_segment_max: in the CONNECT reply"
run job_tcp PMIX_MCA_ptl=tcp
verdict "0 0 0 0" "job data over TCP: in the CONNECT reply"
mode= what=

# left_behind DIR WHAT: the ranks of DIR are gone (up to 10 s), /dev/shm is as before; one TAP
# line for WHAT
left_behind() {
    i=0
    while [ $i -lt 100 ] && ! e2e_pids_gone "$1" >/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    shm_now=$(ls -a /dev/shm 2>/dev/null | sort | tr '\n' ' ')
    if e2e_pids_gone "$1" && [ "$shm_now" = "$shm_before" ]; then
        e2e_ok "$2: no rank is left, /dev/shm is unchanged"
    else
        e2e_not_ok "$2: ranks left, or /dev/shm changed (before: $shm_before; now: $shm_now)"
    fi
}

for end in abort crash; do
    d="$e2e_tmp/$end"
    mkdir "$d" || exit 1
    e2e_wrun "$e2e_tmp/out" 4 "$e2e/e2e_shmem" $end "$d"
    mapped=$(e2e_count_lines "$e2e_tmp/out" "^shm: rank .* of 4: ok, segments=[1-9]")
    case "$end:$e2e_rc" in
    abort:7 | crash:[1-9]*) ok=1 ;;
    *) ok=0 ;;
    esac
    if [ $ok -eq 1 ] && [ "$mapped" -eq 4 ]; then
        e2e_ok "$end after every rank mapped a segment: wrun exits $e2e_rc"
    else
        e2e_not_ok "$end: wrun exit $e2e_rc, $mapped of 4 ranks mapped a segment"
        e2e_diag "$e2e_tmp/out"
    fi
    left_behind "$d" "$end"
done

# SIGKILL of wrun while every rank holds its segment
d="$e2e_tmp/hold"
mkdir "$d" || exit 1
TMPDIR="$e2e_tmp/t" "$wrun" --oversubscribe -n 4 "$e2e/e2e_shmem" hold "$d" >"$e2e_tmp/out" 2>&1 &
wpid=$!
i=0
while [ "$(find "$d" -name 'seg.*' | wc -l)" -lt 4 ] && [ $i -lt 600 ] && kill -0 $wpid 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
held=$(ls -l "/proc/$wpid/fd" 2>/dev/null | grep -c 'memfd:wu-shm-fence')
jobheld=$(ls -l "/proc/$wpid/fd" 2>/dev/null | grep -c 'memfd:wu-shm-job')
if [ "$(find "$d" -name 'seg.*' | wc -l)" -eq 4 ] && counts=$(segs_ok "$d" 1 1 1 1) &&
    [ "$held" -eq 0 ] && [ "$jobheld" -eq 1 ]; then
    e2e_ok "hold: every rank mapped the segment ($counts), wrun holds no fence segment open" \
        "and the job's segment"
else
    e2e_not_ok "hold: ranks did not all map a segment, or wrun holds $held fence and" \
        "$jobheld job segments open ($counts)"
    e2e_diag "$e2e_tmp/out"
fi
kill -9 $wpid 2>/dev/null
wait $wpid 2>/dev/null
left_behind "$d" "SIGKILL of wrun"
e2e_check_leaks "wrun -n 4 e2e_shmem hold, killed"
e2e_exit
