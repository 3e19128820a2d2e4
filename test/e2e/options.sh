#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of wrun's output, input and control options, byte for byte where the format is a
# convention users parse (mpirun's): --tag-output, --timestamp-output,
# --output-filename, --merge-stderr-to-stdout, --stdin, --timeout (exit 110 and the report of
# who is blocked where), the --name=value form, and bad values refused before anything runs.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 16
e2e_mktemp

# 1: ORTE's tag, no trailing space, on both streams
e2e_wrun "$e2e_tmp/out" 2 --tag-output sh -c 'echo "out $PMIX_RANK"; echo "err $PMIX_RANK" >&2'
sorted=$(sort "$e2e_tmp/out" | tr '\n' '|')
if [ "$e2e_rc" -eq 0 ] &&
    [ "$sorted" = "[1,0]<stderr>:err 0|[1,0]<stdout>:out 0|[1,1]<stderr>:err 1|[1,1]<stdout>:out 1|" ]; then
    e2e_ok "--tag-output: [1,RANK]<stdout>: and <stderr>: tags"
else
    e2e_not_ok "--tag-output gave: $sorted (exit $e2e_rc)"
fi

# 2: a last line without newline still gets its tag and a newline
e2e_wrun "$e2e_tmp/out" 1 --tag-output sh -c 'printf "a\nb"'
if [ "$(cat "$e2e_tmp/out")" = "[1,0]<stdout>:a
[1,0]<stdout>:b" ]; then
    e2e_ok "--tag-output: an unterminated last line is tagged"
else
    e2e_not_ok "--tag-output, unterminated line:"
    e2e_diag "$e2e_tmp/out"
fi

# 3-4: the time before the tag, ctime(3) style; without a tag, <stdout>:
e2e_wrun "$e2e_tmp/out" 1 --timestamp-output --tag-output echo hi
if grep -Eq '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}\[1,0\]<stdout>:hi$' \
    "$e2e_tmp/out"; then
    e2e_ok "--timestamp-output --tag-output: ctime, then the tag"
else
    e2e_not_ok "--timestamp-output --tag-output:"
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 1 --timestamp-output echo hi
if grep -Eq '^[A-Z][a-z]{2} .* [0-9]{4}<stdout>:hi$' "$e2e_tmp/out"; then
    e2e_ok "--timestamp-output alone: ctime, then <stdout>:"
else
    e2e_not_ok "--timestamp-output alone:"
    e2e_diag "$e2e_tmp/out"
fi

# 5-6: --output-filename DIR: DIR/1/rank.N/stdout|stderr, nothing on the terminal
e2e_wrun "$e2e_tmp/out" 2 --output-filename "$e2e_tmp/of" sh -c 'echo "o$PMIX_RANK"; echo "e$PMIX_RANK" >&2'
good=1
for r in 0 1; do
    [ "$(cat "$e2e_tmp/of/1/rank.$r/stdout" 2>/dev/null)" = "o$r" ] || good=0
    [ "$(cat "$e2e_tmp/of/1/rank.$r/stderr" 2>/dev/null)" = "e$r" ] || good=0
done
if [ $good -eq 1 ] && [ "$e2e_rc" -eq 0 ] && [ ! -s "$e2e_tmp/out" ]; then
    e2e_ok "--output-filename: DIR/1/rank.N/stdout and stderr, nothing on the terminal"
else
    e2e_not_ok "--output-filename (exit $e2e_rc):"
    find "$e2e_tmp/of" -type f | sed 's/^/# /'
    e2e_diag "$e2e_tmp/out"
fi
e2e_wrun "$e2e_tmp/out" 1 --output-filename "$e2e_tmp/of2" --merge-stderr-to-stdout \
    sh -c 'echo o; echo e >&2'
if [ "$(cat "$e2e_tmp/of2/1/rank.0/stdout" 2>/dev/null | tr '\n' ' ')" = "o e " ] &&
    [ ! -e "$e2e_tmp/of2/1/rank.0/stderr" ]; then
    e2e_ok "--merge-stderr-to-stdout: stderr lands in the stdout file"
else
    e2e_not_ok "--merge-stderr-to-stdout with --output-filename:"
    find "$e2e_tmp/of2" -type f | sed 's/^/# /'
fi

# 7: merged streams are tagged as stdout
e2e_wrun "$e2e_tmp/out" 1 --merge-stderr-to-stdout --tag-output sh -c 'echo e >&2'
if [ "$(cat "$e2e_tmp/out")" = "[1,0]<stdout>:e" ]; then
    e2e_ok "--merge-stderr-to-stdout --tag-output: stderr lines carry <stdout>"
else
    e2e_not_ok "--merge-stderr-to-stdout --tag-output:"
    e2e_diag "$e2e_tmp/out"
fi

# 8-10: --stdin: rank 0 by default, all, none
printf 'l1\nl2\n' >"$e2e_tmp/in"
TMPDIR="$e2e_tmp/t" timeout 60 "$wrun" -n 2 sh -c 'echo "$PMIX_RANK:$(cat | tr "\n" ",")"' \
    <"$e2e_tmp/in" >"$e2e_tmp/out" 2>&1
if [ "$(sort "$e2e_tmp/out" | tr '\n' '|')" = "0:l1,l2,|1:|" ]; then
    e2e_ok "stdin goes to rank 0 only by default"
else
    e2e_not_ok "default --stdin:"
    e2e_diag "$e2e_tmp/out"
fi
TMPDIR="$e2e_tmp/t" timeout 60 "$wrun" --oversubscribe --stdin all -n 3 sh -c 'echo "$PMIX_RANK:$(cat | tr "\n" ",")"' \
    <"$e2e_tmp/in" >"$e2e_tmp/out" 2>&1
if [ "$(sort "$e2e_tmp/out" | tr '\n' '|')" = "0:l1,l2,|1:l1,l2,|2:l1,l2,|" ]; then
    e2e_ok "--stdin all: every rank reads all of it"
else
    e2e_not_ok "--stdin all:"
    e2e_diag "$e2e_tmp/out"
fi
TMPDIR="$e2e_tmp/t" timeout 60 "$wrun" --stdin=none -n 1 sh -c 'echo "[$(cat)]"' \
    <"$e2e_tmp/in" >"$e2e_tmp/out" 2>&1
if [ "$(cat "$e2e_tmp/out")" = "[]" ]; then
    e2e_ok "--stdin=none: end of file at once"
else
    e2e_not_ok "--stdin=none:"
    e2e_diag "$e2e_tmp/out"
fi

# 11-13: --timeout: exit 110, the running ranks and the fence they wait in are named
mkdir "$e2e_tmp/hang" || exit 1
start=$(date +%s)
e2e_wrun "$e2e_tmp/out" 4 --timeout 3 "$e2e/e2e_fail" hang "$e2e_tmp/hang"
took=$(($(date +%s) - start))
if [ "$e2e_rc" -eq 110 ] && [ $took -lt 30 ]; then
    e2e_ok "--timeout 3: wrun exits 110 (${took} s)"
else
    e2e_not_ok "--timeout 3: exit $e2e_rc after $took s, expected 110"
    e2e_diag "$e2e_tmp/out"
fi
if grep -q '^Ranks still running: 0-3$' "$e2e_tmp/out" &&
    grep -q 'ranks 0-2 in a fence (PMIx_Fence) that rank 3 has not reached' "$e2e_tmp/out"; then
    e2e_ok "--timeout report: ranks 0-3 running, 0-2 in a fence rank 3 has not reached"
else
    e2e_not_ok "--timeout report:"
    e2e_diag "$e2e_tmp/out"
fi
sleep 1
if e2e_pids_gone "$e2e_tmp/hang"; then
    e2e_ok "--timeout: no rank survives"
else
    e2e_not_ok "--timeout: ranks left running"
fi

# 14-15: bad values are refused before anything runs
e2e_wrun "$e2e_tmp/out" 1 --stdin 5 touch "$e2e_tmp/ran1"
if [ "$e2e_rc" -ne 0 ] && [ ! -e "$e2e_tmp/ran1" ] && grep -q 'names rank 5' "$e2e_tmp/out"; then
    e2e_ok "--stdin 5 with one process: refused, nothing launched"
else
    e2e_not_ok "--stdin 5 with one process (exit $e2e_rc)"
    e2e_diag "$e2e_tmp/out"
fi
bad=0
for args in "--timeout 0" "--timeout x" "--stdin some" "--output-filename=" "--no-such-option"; do
    # shellcheck disable=SC2086
    e2e_wrun "$e2e_tmp/out" 1 $args touch "$e2e_tmp/ran2"
    if [ "$e2e_rc" -eq 0 ] || [ -e "$e2e_tmp/ran2" ] || [ ! -s "$e2e_tmp/out" ]; then
        bad=1
        echo "# '$args' was not refused (exit $e2e_rc)"
        e2e_diag "$e2e_tmp/out"
    fi
done
if [ $bad -eq 0 ]; then
    e2e_ok "bad option values are refused with a message, before launch"
else
    e2e_not_ok "some bad option values were not refused"
fi

# 16: --np=N form
e2e_wrun "$e2e_tmp/out" 1 --np=3 --tag-output echo x
if [ "$(grep -c ']<stdout>:x$' "$e2e_tmp/out")" -eq 3 ]; then
    e2e_ok "--np=3 (the --name=value form) overrides -n"
else
    e2e_not_ok "--np=3:"
    e2e_diag "$e2e_tmp/out"
fi
e2e_exit
