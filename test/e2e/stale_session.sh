#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: a wrun killed with SIGKILL leaves nothing behind: its watchdog process removes its
# session directories and kills its job within a few seconds. When the watchdog is killed too,
# the directories stay behind, and the next wrun of the user in the same TMPDIR removes them,
# while those of a wrun still running stay. The jobs are shells that record their pid and sleep;
# they are killed by that pid.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 7
e2e_mktemp
t="$e2e_tmp/t"
d="$e2e_tmp/pids"
mkdir "$d" || exit 1
bpid=

# new_dirs BEFORE: the directories in $t not listed in the file BEFORE
new_dirs() {
    ls "$t" | grep -vxF -f "$1" | sed "s|^|$t/|"
    return 0
}

# all_exist DIRS...: every one is there (false for none)
all_exist() {
    [ $# -gt 0 ] || return 1
    for x in "$@"; do
        [ -d "$x" ] || return 1
    done
    return 0
}

# none_exist DIRS...: none is there
none_exist() {
    for x in "$@"; do
        [ -e "$x" ] && return 1
    done
    return 0
}

# start_sleeper NAME: start `wrun -n 1` of a shell that writes its pid to $d/pid.NAME and
# sleeps, in the background; wait (up to 60 s) until it runs. Sets wpid.
start_sleeper() {
    TMPDIR="$t" "$wrun" -n 1 sh -c "echo \$\$ >'$d/pid.$1'; exec sleep 300" \
        >"$e2e_tmp/out.$1" 2>&1 &
    wpid=$!
    i=0
    while [ ! -s "$d/pid.$1" ] && [ $i -lt 600 ] && kill -0 $wpid 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
}

# jobs_gone: no recorded job pid is still running (zombies do not count)
jobs_gone() {
    for f in "$d"/pid.*; do
        [ -f "$f" ] || continue
        p=$(cat "$f")
        if kill -0 "$p" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
            return 1
        fi
    done
    return 0
}

finish() {
    if [ -n "$bpid" ]; then
        kill -TERM "$bpid" 2>/dev/null
        wait "$bpid" 2>/dev/null
    fi
    e2e_pids_gone "$d" >/dev/null
    e2e_cleanup
}
trap finish EXIT

# W: killed with SIGKILL, its watchdog alive: the directories and the job go within 5 s
ls "$t" >"$e2e_tmp/before"
start_sleeper W
wdirs=$(new_dirs "$e2e_tmp/before")
kill -9 $wpid 2>/dev/null
wait $wpid 2>/dev/null
i=0
# shellcheck disable=SC2086 # one directory a word
while [ $i -lt 50 ] && ! none_exist $wdirs; do
    sleep 0.1
    i=$((i + 1))
done
# shellcheck disable=SC2086
if [ "$(echo "$wdirs" | grep -c .)" -ge 2 ] && none_exist $wdirs; then
    e2e_ok "a killed wrun's watchdog removes its session directories ($((i / 10)).$((i % 10)) s)"
else
    e2e_not_ok "killed wrun with its watchdog: session directories '$wdirs' stay"
    ls -la "$t" | sed 's/^/# /'
fi
i=0
while [ $i -lt 50 ] && ! jobs_gone; do
    sleep 0.1
    i=$((i + 1))
done
if e2e_pids_gone "$d"; then
    e2e_ok "a killed wrun's watchdog ends its job ($((i / 10)).$((i % 10)) s)"
else
    e2e_not_ok "a killed wrun's job was left running (killed now)"
fi
rm -f "$d"/pid.*

# A: killed with SIGKILL after its watchdog (nothing can clean up then); its job is killed by
# pid
ls "$t" >"$e2e_tmp/before"
start_sleeper A
apid=$wpid
adirs=$(new_dirs "$e2e_tmp/before")
# the watchdog is the child of wrun that is not the job's shell
for c in $(env -u LD_PRELOAD pgrep -P "$apid"); do
    [ "$c" = "$(cat "$d/pid.A" 2>/dev/null)" ] || kill -9 "$c" 2>/dev/null
done
sleep 0.2
kill -9 $apid 2>/dev/null
wait $apid 2>/dev/null
e2e_pids_gone "$d" >/dev/null
# shellcheck disable=SC2086 # one directory a word
if [ "$(echo "$adirs" | grep -c .)" -ge 2 ] && all_exist $adirs; then
    e2e_ok "a wrun killed with its watchdog leaves its session directories behind ($(echo "$adirs" | grep -c .))"
else
    e2e_not_ok "killed wrun: its session directories: '$adirs'"
    ls -la "$t" | sed 's/^/# /'
fi

# B: keeps running
ls "$t" >"$e2e_tmp/before"
start_sleeper B
bpid=$wpid
bdirs=$(new_dirs "$e2e_tmp/before")

# C: a plain run in the same TMPDIR
TMPDIR="$t" timeout 120 "$wrun" -n 1 true >"$e2e_tmp/out.C" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
    e2e_ok "the next wrun runs normally"
else
    e2e_not_ok "the next wrun exited $rc"
    e2e_diag "$e2e_tmp/out.C"
fi
# shellcheck disable=SC2086
if none_exist $adirs; then
    e2e_ok "the next wrun removed the killed wrun's session directories"
else
    e2e_not_ok "stale session directories left after the next wrun"
    ls -la "$t" | sed 's/^/# /'
fi
# shellcheck disable=SC2086
if kill -0 "$bpid" 2>/dev/null && all_exist $bdirs; then
    e2e_ok "the session directories of a running wrun stay"
else
    e2e_not_ok "running wrun (pid $bpid): its session directories '$bdirs' are gone"
    ls -la "$t" | sed 's/^/# /'
fi

# B ends on SIGTERM and removes its own directories
kill -TERM "$bpid" 2>/dev/null
wait "$bpid" 2>/dev/null
bpid=
i=0
while [ $i -lt 300 ] && ! jobs_gone; do
    sleep 0.1
    i=$((i + 1))
done
if e2e_pids_gone "$d"; then
    e2e_ok "the jobs' processes are gone"
else
    e2e_not_ok "job processes were left running (killed now)"
fi
e2e_check_leaks "the runs"
e2e_exit
