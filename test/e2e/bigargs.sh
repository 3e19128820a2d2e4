#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: large command lines on one node (issue 29). Ranks get their arguments and
# environment intact whatever their size up to what execve takes: one argument of 131,000
# characters, three of 60,000 (more than one environment string can hold together: wrun's
# OMPI_ARGV, their copy for Open MPI, is left out then), eight of 128 KiB less a few bytes with
# an environment variable of that size; arguments that wrun itself can be given but its ranks
# cannot (with what wrun adds to their environment) end the job at once with 126 and one line
# saying what execve takes. The real wrun binary is run (not libtool's wrapper script, which
# would fail first).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
py=/usr/bin/python3
if ! [ -x "$py" ]; then
    echo "1..0 # SKIP $py is missing (contrib/deps.sh installs it)"
    exit 0
fi
e2e_plan 4
e2e_mktemp
real="$b/.libs/wrun"
[ -x "$real" ] || real="$wrun"
LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
TMPDIR="$e2e_tmp/t"
export LD_LIBRARY_PATH TMPDIR

# case DESC ARGS...: one run of e2e_bigargs.py
case_run() {
    d=$1
    shift
    out=$("$py" "$s/test/e2e/e2e_bigargs.py" "$real" "$@" 2>&1)
    if [ $? -eq 0 ]; then
        e2e_ok "$d: ${out#ok: }"
    else
        e2e_not_ok "$d: $out"
    fi
    e2e_check_leaks "$d"
}
case_run "one argument of 131,000 characters, -n 2" 2 intact 1 131000
case_run "three arguments of 60,000 characters, -n 2" 2 intact 3 60000
case_run "eight arguments and a variable of 128 KiB less 8, -n 2" 2 intact 8 131064 131060
case_run "arguments only wrun can take: 126 at once, said once" 2 limit
e2e_exit
