#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: Open MPI-style help messages sent with PMIx_Log_nb reach the user's stderr once, with
# a count of the other ranks that sent the same one (test/e2e/e2e_log.c), and the callback
# comes back with success. Then every PMIx_Log goes through wrun's plog modules: a
# PMIX_LOG_STDERR line of a rank appears once on wrun's own stderr (not forwarded from the rank:
# --tag-output would tag that), a PMIX_LOG_SYSLOG line reaches the syslog socket
# (plog_syslog_socket, a private one here), and an unknown channel is PMIX_ERR_NOT_SUPPORTED.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 6
e2e_mktemp
e2e_wrun "$e2e_tmp/out" 4 "$e2e/e2e_log"
e2e_expect_ok "4 ranks log the same help message; their callbacks succeed" "$e2e_tmp/out"
if [ "$(grep -c '^e2e: the thing you asked for does not exist.$' "$e2e_tmp/out")" -eq 1 ]; then
    e2e_ok "the message is printed once"
else
    e2e_not_ok "the message is not printed exactly once:"
    e2e_diag "$e2e_tmp/out"
fi
if grep -q '^wrun: 3 more processes sent help message help-e2e-test.txt / no-such-thing$' \
    "$e2e_tmp/out"; then
    e2e_ok "the end of the job counts the 3 other senders"
else
    e2e_not_ok "no count of the other senders:"
    e2e_diag "$e2e_tmp/out"
fi

# channels: python3 owns the syslog socket, runs wrun, then reads what arrived
n=3
sock="$e2e_tmp/syslog.sock"
TMPDIR="$e2e_tmp/t" PMIX_MCA_plog_syslog_socket="$sock" python3 - "$sock" "$e2e_tmp/out" \
    "$e2e_tmp/err" "$e2e_tmp/syslog" timeout 120 "$wrun" --oversubscribe --tag-output -n $n \
    "$e2e/e2e_log" channels <<'EOF_PY'
import os, socket, subprocess, sys
sock, out, err, got = sys.argv[1:5]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sock)
with open(out, "w") as o, open(err, "w") as e:
    rc = subprocess.call(sys.argv[5:], stdout=o, stderr=e)
s.setblocking(False)
msgs = []
while True:
    try:
        msgs.append(s.recv(65536).decode(errors="replace"))
    except BlockingIOError:
        break
s.close()
os.unlink(sock)
with open(got, "w") as f:
    f.write("".join(m + "\n" for m in msgs))
sys.exit(rc)
EOF_PY
e2e_rc=$?
e2e_check_leaks "wrun -n $n e2e_log channels"
cat "$e2e_tmp/err" >>"$e2e_tmp/out"
e2e_expect_ok "$n ranks log to stderr and syslog; an unknown channel is not supported" "$e2e_tmp/out"
ok=1
for r in $(seq 0 $((n - 1))); do
    c=$(e2e_count_lines "$e2e_tmp/err" "^\[[^]]*:$r\] e2e-stderr-marker rank $r\$")
    [ "$c" -eq 1 ] || ok=0
done
if [ $ok -eq 1 ] && [ "$(e2e_count_lines "$e2e_tmp/out" 'e2e-stderr-marker')" -eq $n ]; then
    e2e_ok "each rank's PMIX_LOG_STDERR line is on wrun's stderr once, written by wrun"
else
    e2e_not_ok "PMIX_LOG_STDERR lines not once each on wrun's own stderr:"
    e2e_diag "$e2e_tmp/out"
fi
ok=1
for r in $(seq 0 $((n - 1))); do
    c=$(e2e_count_lines "$e2e_tmp/syslog" "^<[0-9]*>.* wireup\[[0-9]*\]: \[[^]]*:$r\] e2e-syslog-marker rank $r\$")
    [ "$c" -eq 1 ] || ok=0
done
if [ $ok -eq 1 ]; then
    e2e_ok "each rank's PMIX_LOG_SYSLOG line reached the syslog socket once"
else
    e2e_not_ok "PMIX_LOG_SYSLOG lines did not reach the syslog socket once each:"
    e2e_diag "$e2e_tmp/syslog"
fi
e2e_exit
