#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of wrun on one node: exit statuses (0, first failure, 128+signal, 127/126), output of
# every rank, options and their errors, the PMIx environment and job data, PMIx_Abort, a
# missing PMIx_Finalize, signals to wrun, and that nothing is left behind (processes, session
# directories). Every command runs under `timeout`.
b=${WU_TEST_BUILDDIR:-.}
wrun="$b/wrun"
client="$b/test/unit/tools/wrun_client"
tmp=$(mktemp -d /tmp/wu_wrun_XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
# our session directories and sockets go here, so the test can see that none stays
mkdir "$tmp/t"
export TMPDIR="$tmp/t"
export PMIX_MCA_mca_base_user_param_file="" PMIX_MCA_mca_base_system_param_file=""
T="timeout 60"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
    n=$((n + 1)); echo "not ok $n - $1"; shift
    for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
}
check() { # check DESC CONDITION-STATUS DETAILS...
    d=$1; c=$2; shift 2
    if [ "$c" -eq 0 ]; then ok "$d"; else fail "$d" "$@"; fi
}
check_eq() { # check_eq DESC GOT WANT
    if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got:  $2" "want: $3"; fi
}
# check_fail DESC RC WANT-RC OUTPUT PATTERN: exit status and a message (grep -e PATTERN)
check_fail() {
    if [ "$2" -eq "$3" ] && printf '%s\n' "$4" | grep -q -e "$5"; then ok "$1"
    else fail "$1" "rc=$2 (want $3), want message: $5" "$4"; fi
}
# alive PID: exists and is not a zombie (an orphan may stay a zombie if init does not reap it)
alive() {
    [ -r "/proc/$1/stat" ] || return 1
    ! sed 's/^[0-9]* (.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'
}
# none_alive FILE: every pid listed in FILE is gone (waits up to 5 s for the kernel)
none_alive() {
    for p in $(cat "$1"); do
        i=0
        while alive "$p" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        if alive "$p"; then echo "pid $p still alive"; return 1; fi
    done
    return 0
}
tmp_empty() { [ -z "$(ls -A "$TMPDIR")" ]; }
# bg_wrun ARGS...: start wrun in the background (pid in $wp) with a 60 s watchdog (pid in $wd);
# signals go to wrun itself, not to a timeout(1) wrapper that would relay them to its group
bg_wrun() {
    "$wrun" "$@" 2>"$tmp/err" &
    wp=$!
    (sleep 60; kill -KILL $wp 2>/dev/null) &
    wd=$!
}
bg_wait() { # wait for wrun; rc in $rc; stop the watchdog
    wait $wp; rc=$?
    kill $wd 2>/dev/null; wait $wd 2>/dev/null
}
wait_pids() { # wait_pids N: until N pids are recorded
    i=0
    while [ "$(wc -l < "$tmp/pids")" -lt "$1" ] && [ $i -lt 100 ]; do
        sleep 0.1; i=$((i + 1))
    done
}



# --- exit statuses, -n 1..8 ---
for np in 1 2 3 5 8; do
    $T "$wrun" --oversubscribe -n $np sh -c 'exit 0'; rc=$?
    check "-n $np, all exit 0 -> 0" $((rc != 0)) "rc=$rc"
done
for np in 1 4 8; do
    $T "$wrun" --oversubscribe -np $np sh -c 'exit 6' 2>"$tmp/err"; rc=$?
    check "-np $np, all exit 6 -> 6" $((rc != 6)) "rc=$rc" "$(cat "$tmp/err")"
done
# the first failure decides, and terminates the others (which would sleep for 100 s)
: > "$tmp/pids"
start=$(date +%s)
$T "$wrun" --oversubscribe -n 4 sh -c 'echo $$ >> '"$tmp/pids"'; [ "$PMIX_RANK" = 2 ] && exit 7; exec sleep 100' \
    2>"$tmp/err"; rc=$?
el=$(( $(date +%s) - start ))
[ $el -lt 30 ] || rc="$rc (took $el s)"
check_fail "first failure (rank 2 exits 7) ends the job with 7 and a message" "$rc" 7 \
    "$(cat "$tmp/err")" 'rank 2 .* exited with status 7'

out=$(none_alive "$tmp/pids"); check "the other ranks are gone" $? "$out"
$T "$wrun" -n 2 sh -c 'kill -TERM $$' 2>"$tmp/err"; rc=$?
check "killed by SIGTERM -> 143" $((rc != 143)) "rc=$rc"
$T "$wrun" --oversubscribe -n 3 sh -c 'kill -KILL $$' 2>"$tmp/err"; rc=$?
r=0; [ $rc -eq 137 ] && grep -q 'exited on signal 9 (Killed)' "$tmp/err" || r=1
check "killed by SIGKILL -> 137 with mpirun's message" $r "rc=$rc" "$(cat "$tmp/err")"

# --- output ---
out=$($T "$wrun" --oversubscribe -n 8 sh -c 'echo out-$PMIX_RANK; echo err-$PMIX_RANK >&2' 2>"$tmp/err" |
    sort | tr '\n' ' ')
check_eq "stdout of all 8 ranks forwarded" "$out" "out-0 out-1 out-2 out-3 out-4 out-5 out-6 out-7 "
err=$(sort "$tmp/err" | tr '\n' ' ')
check_eq "stderr of all 8 ranks forwarded to stderr" "$err" \
    "err-0 err-1 err-2 err-3 err-4 err-5 err-6 err-7 "
out=$($T "$wrun" --oversubscribe -n 4 sh -c 'printf "a-"; sleep 0.2; printf "b\n"' | sort | uniq -c |
    awk '{print $1, $2}')
check_eq "partial lines of different ranks are not mixed" "$out" "4 a-b"
out=$($T "$wrun" --tag-output -n 2 sh -c 'echo x; echo y >&2' 2>&1 | sort | tr '\n' ' ')
check_eq "--tag-output uses ORTE's tags" "$out" \
    "[1,0]<stderr>:y [1,0]<stdout>:x [1,1]<stderr>:y [1,1]<stdout>:x "
out=$($T "$wrun" -n 1 sh -c 'head -c 300000 /dev/zero | tr "\0" a; echo' | wc -c)
check "large output arrives whole" $([ "$out" -eq 300001 ]; echo $?) "$out"
out=$($T sh -c '"$1" -n 2 yes; echo "rc=$?" >&2' sh "$wrun" 2>&1 | head -n 1)
rc=$($T sh -c '"$1" -n 2 yes 2>/dev/null | head -n 1 >/dev/null; exit 0' sh "$wrun"; echo $?)
r=0; [ "$out" = "y" ] && [ "$rc" = 0 ] || r=1
check "wrun -n 2 yes | head ends (the ranks get SIGPIPE)" $r "out=$out rc=$rc"

# --- options ---
out=$($T "$wrun" --mca wu_test_a 1 -mca wu_test_a 2 -x WU_T1=v1 -n 1 -- \
    sh -c 'echo $PMIX_MCA_wu_test_a $WU_T1')
check_eq "--mca exported as PMIX_MCA_* (repeats joined) and -x" "$out" "1,2 v1"
out=$($T "$wrun" --mca btl self,vader -mca btl_tcp_if_include lo --mca ptl_base_verbose 0 -n 1 \
    sh -c 'echo "$OMPI_MCA_btl|$OMPI_MCA_btl_tcp_if_include|$PMIX_MCA_ptl_base_verbose|${PMIX_MCA_btl:-none}"')
check_eq "--mca routes Open MPI's parameters to OMPI_MCA_*, Wireup's to PMIX_MCA_*" "$out" \
    "self,vader|lo|0|none"
out=$($T "$wrun" -n 2 sh -c 'echo "$OMPI_MCA_schizo $OMPI_COMM_WORLD_RANK/$OMPI_COMM_WORLD_SIZE $OMPI_COMM_WORLD_LOCAL_RANK $OMPI_UNIVERSE_SIZE"' | sort)
check_eq "Open MPI direct-launch variables (pmdl ompi)" "$out" "^orte,slurm 0/2 0 2
^orte,slurm 1/2 1 2"
out=$(OMPI_MCA_orte_launch=1 OMPI_MCA_orte_hnp_uri=x PMIX_MCA_pmdl=^ompi $T "$wrun" -n 1 \
    sh -c 'echo "${OMPI_MCA_schizo:-unset} ${OMPI_COMM_WORLD_RANK:-unset} $OMPI_MCA_orte_launch"')
check_eq "PMIX_MCA_pmdl=^ompi: no Open MPI variables added" "$out" "unset unset 1"
out=$(OMPI_MCA_orte_launch=1 OMPI_MCA_orte_hnp_uri=x $T "$wrun" -n 1 \
    sh -c 'echo "${OMPI_MCA_orte_launch:-unset} ${OMPI_MCA_orte_hnp_uri:-unset}"')
check_eq "an enclosing mpirun's ORTE variables are not passed on" "$out" "unset unset"
libdir=$(cd "$b/.libs" && pwd -P)
out=$(LD_LIBRARY_PATH=/nonexistent/lib $T "$wrun" -n 1 sh -c 'echo "$LD_LIBRARY_PATH"')
check_eq "the library's directory comes first in LD_LIBRARY_PATH" "$out" "$libdir:/nonexistent/lib"
# In a build tree wrun is libtool's wrapper script, which puts the build's .libs first itself:
# run the program it wraps, finding its libraries at the end of the path.
keep=/nonexistent/lib
real=$wrun
if [ -x "$b/.libs/wrun" ]; then
    keep="/nonexistent/lib:$libdir"
    real="$b/.libs/wrun"
fi
out=$(LD_LIBRARY_PATH=$keep $T "$real" --keep-library-path -n 1 sh -c 'echo "$LD_LIBRARY_PATH"')
check_eq "--keep-library-path leaves LD_LIBRARY_PATH alone" "$out" "$keep"
out=$($T "$wrun" --np=2 --wdir / pwd | tr '\n' ' ')
check "--np=2 and --wdir" $([ "$out" = "/ / " ]; echo $?) "$out"
out=$($T "$wrun" --wdir "$tmp/nonexistent" -n 2 true 2>&1); rc=$?
check_fail "--wdir to a missing directory -> exit 1 with a message" $rc 1 "$out" \
    "cannot run the processes in '$tmp/nonexistent'"
out=$($T "$wrun" --bogus -n 2 true 2>&1); rc=$?
r=0; [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'does not know the option "--bogus"' || r=1
check "unknown option -> exit 1 with a message" $r "rc=$rc" "$out"
out=$($T "$wrun" -n 2x true 2>&1); rc=$?
r=0; [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'not a valid number of processes' || r=1
check "bad -n value -> exit 1" $r "rc=$rc" "$out"
out=$($T "$wrun" -n 2>&1); rc=$?
r=0; [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'needs a value' || r=1
check "-n without a value -> exit 1" $r "rc=$rc" "$out"
out=$($T "$wrun" -n 2 2>&1); rc=$?
r=0; [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'no program to run' || r=1
check "no program -> exit 1" $r "rc=$rc" "$out"
out=$($T "$wrun" --help); rc=$?
r=0; [ $rc -eq 0 ] && printf '%s' "$out" | grep -q '^Usage: wrun' || r=1
check "--help" $r "rc=$rc" "$out"
out=$($T "$wrun" --version); rc=$?
r=0; [ $rc -eq 0 ] && printf '%s' "$out" | grep -q '^wrun (Wireup) ' || r=1
check "--version" $r "rc=$rc" "$out"

# --- programs that cannot run ---
out=$($T "$wrun" --oversubscribe -n 3 wu-no-such-program 2>&1); rc=$?
check_eq "missing program -> 127 and one clear line" "$rc $out" \
    "127 wrun: could not execute 'wu-no-such-program' on node $(hostname): No such file or directory"
printf 'x' > "$tmp/noexec"
out=$($T "$wrun" -n 2 "$tmp/noexec" 2>&1); rc=$?
r=0; [ $rc -eq 126 ] && printf '%s' "$out" | grep -q 'Permission denied' || r=1
check "non-executable file -> 126" $r "rc=$rc" "$out"

# --- PMIx ---
out=$($T "$wrun" -n 2 env | grep -E '^(PMIX_NAMESPACE|PMIX_RANK|WU_PMIX_SERVER_URI)=' | sort |
    sed 's/=.*//' | uniq -c | awk '{print $1 $2}' | tr '\n' ' ')
check_eq "wrun -n 2 env shows PMIX_NAMESPACE, PMIX_RANK, WU_PMIX_SERVER_URI" "$out" \
    "2PMIX_NAMESPACE 2PMIX_RANK 2WU_PMIX_SERVER_URI "
out=$($T "$wrun" -n 2 env | grep '^PMIX_NAMESPACE=' | sort -u | wc -l)
out2=$($T "$wrun" -n 1 env | grep '^PMIX_NAMESPACE=')
r=0; [ "$out" = 1 ] && printf '%s' "$out2" | grep -q '^PMIX_NAMESPACE=wrun\..*\.[0-9]*\.1$' || r=1
check "one namespace per job, wrun.<host>.<pid>.<n>" $r "$out $out2"
out=$(PMIX_NAMESPACE=stale PMIX_RANK=9 $T "$wrun" -n 1 sh -c 'echo $PMIX_NAMESPACE $PMIX_RANK')
check_fail "an enclosing job's PMIx variables do not leak" 0 0 "$out" '^wrun\..* 0$' 
out=$($T "$wrun" --oversubscribe -n 4 "$client" info | sort | tr '\n' '|'); rc=$?
r=0
for i in 0 1 2 3; do
    want="rank $i of 4 nspace wrun[^ ]* lrank $i nrank $i local 4 peers 0,1,2,3|"
    printf '%s' "$out" | grep -q "$want" || r=1
done
check "job data: size, local/node rank, local size, peers" $r "rc=$rc" "$out"
out=$($T "$wrun" --oversubscribe -n 3 "$client" abort 1 7 2>&1); rc=$?
check_fail "PMIx_Abort(7) -> wrun exits 7 with a message" $rc 7 "$out" \
    'rank 1 of job .* called PMIx_Abort with status 7: test abort' 
out=$($T "$wrun" --oversubscribe -n 3 "$client" nofin 2 2>&1); rc=$?
r=0; [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'rank 2 .* without calling PMIx_Finalize' || r=1
check "exit without PMIx_Finalize kills the job, exit 1" $r "rc=$rc" "$out"
out=$($T "$wrun" --oversubscribe -n 4 "$client" exit 3 9 2>&1); rc=$?
check "a PMIx rank exiting 9 mid-job -> 9, fence of the others fails" $((rc != 9)) "rc=$rc" "$out"
out=$($T "$wrun" --oversubscribe -n 8 "$client" fence 2>&1 | grep -c 'fenced . SUCCESS')
check "fence across 8 ranks" $((out != 8)) "$out"

# --- signals to wrun, nothing left behind ---
: > "$tmp/pids"
bg_wrun --oversubscribe -n 3 sh -c 'echo $$ >> '"$tmp/pids"'; exec sleep 100'
wait_pids 3
kill -INT $wp
bg_wait
r=0; [ $rc -eq 130 ] && grep -q 'forwarding signal' "$tmp/err" || r=1
check "SIGINT to wrun is forwarded: the ranks die of it, exit 130" $r "rc=$rc" "$(cat "$tmp/err")"
out=$(none_alive "$tmp/pids"); check "no process left after SIGINT" $? "$out"
: > "$tmp/pids"
bg_wrun -n 2 sh -c 'trap "" TERM; echo $$ >> '"$tmp/pids"'; while :; do sleep 0.1; done'
wait_pids 2
kill -TERM $wp; sleep 0.5
alive $wp; still=$?
kill -TERM $wp
bg_wait
check "SIGTERM forwarded (ignored by the ranks), a second one terminates: killed after the grace -> 143" \
    $((rc != 143 || still != 0)) "rc=$rc still=$still" "$(cat "$tmp/err")"
out=$(none_alive "$tmp/pids"); check "no process left after SIGTERM" $? "$out"
: > "$tmp/pids"
start=$(date +%s)
bg_wrun --mca pls_fork_term_grace 50 -n 2 \
    sh -c 'trap "" INT TERM; echo $$ >> '"$tmp/pids"'; while :; do sleep 0.1; done'
wait_pids 2
kill -INT $wp; sleep 0.5
kill -INT $wp; sleep 1
alive $wp; still=$?
kill -INT $wp
bg_wait
el=$(( $(date +%s) - start ))
out=$(none_alive "$tmp/pids"); r=$?
check "with a long grace: SIGINT forwarded, the second terminates, the third kills" \
    $((r != 0 || rc != 130 || el > 20 || still != 0)) "rc=$rc el=$el still=$still" "$out"
# SIGUSR1 reaches the ranks
: > "$tmp/pids"; : > "$tmp/usr1"
bg_wrun -n 2 sh -c 'trap "echo got >> '"$tmp/usr1"'; exit 0" USR1; echo $$ >> '"$tmp/pids"'; while :; do sleep 0.1; done'
wait_pids 2
kill -USR1 $wp
bg_wait
got=$(grep -c got "$tmp/usr1")
check "SIGUSR1 is forwarded to every rank" $((rc != 0 || got != 2)) "rc=$rc got=$got"
# SIGTSTP stops the ranks and wrun, SIGCONT resumes both
: > "$tmp/pids"
bg_wrun -n 2 sh -c 'echo $$ >> '"$tmp/pids"'; i=0; while [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done'
wait_pids 2
kill -TSTP $wp
# every one of them stopped (state T), waited for up to 5 s: a loaded machine can be slow
i=0
while :; do
    stopped=0
    for p in $(cat "$tmp/pids") $wp; do
        sed 's/^[0-9]* (.*) //' "/proc/$p/stat" 2>/dev/null | grep -q '^T' || stopped=1
    done
    [ $stopped -eq 0 ] || [ $i -ge 50 ] && break
    sleep 0.1
    i=$((i + 1))
done
kill -CONT $wp
bg_wait
check "SIGTSTP stops the ranks and wrun, SIGCONT resumes them to a normal end" \
    $((stopped != 0 || rc != 0)) "stopped=$stopped rc=$rc" "$(cat "$tmp/err")"
check "no session directory or socket left in TMPDIR" $(tmp_empty; echo $?) "$(ls -la "$TMPDIR")"
echo "1..$n"
