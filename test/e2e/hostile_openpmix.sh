#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (acceptance, issue 30): outdated and hostile "OpenPMIx" peers at the server of a
# job under wrun. A rank runs test/e2e/hostile_openpmix.py, which reads PMIX_SERVER_URI41 from
# its environment and speaks OpenPMIx's handshake by hand. Job A: OpenPMIx 2.0's handshake, the
# serializers v3 and v21, the data store ds21, psec munge, a legacy tool's, a tool with a
# forged credential, a wrong uid, a rank and a namespace not registered, noise, a header
# announcing 4 GiB, a truncated handshake then silence. Job B: a valid handshake followed by garbage commands, a frame announcing 4 GiB and
# one announcing 512 MiB cut short, then a well-behaved client as the same rank. Job C: a valid
# handshake with server_openpmix off. Checks: the server closes every connection (none hangs),
# wrun names what was refused by policy in its "openpmix-refused" message
# (pmix/server/help-wu-server.txt), the jobs' ranks complete, wrun's memory stays bounded and
# nothing is left in TMPDIR.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 19
e2e_mktemp
if ! command -v python3 >/dev/null 2>&1; then
    for _ in $(seq 19); do
        e2e_skip "python3 is not installed"
    done
    e2e_exit
fi
peer="$s/test/e2e/hostile_openpmix.py"
out="$e2e_tmp/out.a"
# every refusal printed (not folded into a count), short waits for the unregistered namespace
# and the truncated handshake
PMIX_MCA_base_help_aggregate=0
PMIX_MCA_server_connect_wait=2
PMIX_MCA_ptl_base_handshake_timeout=2
export PMIX_MCA_base_help_aggregate PMIX_MCA_server_connect_wait PMIX_MCA_ptl_base_handshake_timeout
max_kb=262144 # wrun's peak resident memory, at most (announced sizes go up to 4 GiB)

# result CASE FILE: what the peer saw in that case ("closed SECONDS", "open", ...)
result() {
    sed -n "s/^case $1 //p" "$2" | head -n 1
}

# closed FILE CASE...: every case's connection was closed by the server
closed() {
    f=$1
    shift
    bad=
    for c in "$@"; do
        r=$(result "$c" "$f")
        case "$r" in
        closed*) ;;
        *) bad="$bad $c=${r:-missing}" ;;
        esac
    done
    [ -z "$bad" ]
}

hwm_ok() {
    e2e_sanitized || [ "$e2e_hwm_kb" -le $max_kb ]
}

# Job A: rank 0 runs the peer's refused handshakes, then both ranks exchange data as usual.
cases_a="v20 v3 v21 ds21 munge tool tool-uid wrong-uid bad-rank bad-nspace noise 4gib truncated"
# shellcheck disable=SC2016
e2e_wrun_hwm "$out" 2 sh -c 'if [ "$PMIX_RANK" = 0 ]; then python3 "$1" $2 >"$3" 2>&1; fi
exec "$4" collect' sh "$peer" "$cases_a" "$e2e_tmp/peer.a" "$e2e/e2e_exchange"
nex=$(e2e_count_lines "$out" '^exchange ')
if [ "$e2e_rc" -eq 0 ] && [ "$nex" -eq 2 ]; then
    e2e_ok "the job's ranks complete after the refused handshakes"
else
    e2e_not_ok "job A: wrun exit $e2e_rc, $nex of 2 ranks exchanged"
    e2e_diag "$out"
fi
# shellcheck disable=SC2086
if closed "$e2e_tmp/peer.a" $cases_a; then
    e2e_ok "the server closed every refused connection"
else
    e2e_not_ok "connections not closed by the server:$bad"
    e2e_diag "$e2e_tmp/peer.a"
fi

# the refusals by policy, each named in wrun's message
refused() {
    if grep -qF "$2" "$out" && grep -qF 'The connection was refused.' "$out"; then
        e2e_ok "$1: refused with a message naming it ($2)"
    else
        e2e_not_ok "$1: no openpmix-refused message with '$2'"
        e2e_diag "$out" 60
    fi
}
refused "OpenPMIx 2.0 handshake" 'with the handshake of version "2.0.3"'
refused "bfrops v3" 'with the serialization "v3"'
refused "bfrops v21" 'with the serialization "v21"'
refused "gds ds21" 'with the data store (gds) "ds21"'
refused "psec munge" 'with the security mode (psec) "munge"'
refused "legacy tool" 'process type "1"'
if grep -qF "refused a tool on OpenPMIx's library" "$out" && grep -qF 'Reason: INVALID-CREDENTIAL' "$out"; then
    e2e_ok "a tool whose credential claims another uid: answered with its status, then closed"
else
    e2e_not_ok "no tool-refused message for the forged tool credential"
    e2e_diag "$out" 60
fi

wrong=$(($(id -u) + 4242))
if grep -qF "uid $wrong," "$out" && grep -q 'Reason: INVALID-CREDENTIAL' "$out"; then
    e2e_ok "a native credential with a wrong uid ($wrong) refused with a message"
else
    e2e_not_ok "no connect-refused message for uid $wrong"
    e2e_diag "$out" 60
fi
if grep -qF 'claiming to be no-such-job:0' "$out" && closed "$e2e_tmp/peer.a" bad-rank; then
    e2e_ok "an unregistered namespace (after server_connect_wait) and rank refused"
else
    e2e_not_ok "unregistered namespace or rank: bad-rank $(result bad-rank "$e2e_tmp/peer.a")"
    e2e_diag "$out" 60
fi
t=$(result truncated "$e2e_tmp/peer.a" | sed -n 's/^closed \([0-9]*\).*/\1/p')
if [ -n "$t" ] && [ "$t" -ge 1 ] && [ "$t" -le 10 ]; then
    e2e_ok "a truncated handshake is dropped by ptl_base_handshake_timeout (after ${t}s)"
else
    e2e_not_ok "truncated handshake: $(result truncated "$e2e_tmp/peer.a") (want closed after 2 s)"
fi
if hwm_ok; then
    e2e_ok "wrun's memory stayed bounded (${e2e_hwm_kb} KiB)"
else
    e2e_not_ok "wrun's peak memory ${e2e_hwm_kb} KiB exceeds $max_kb KiB"
fi

# Job B: the peer is the job's only rank: a valid handshake and garbage, oversize frames,
# then the same rank as a well-behaved client (its job's data, FINALIZE answered)
out="$e2e_tmp/out.b"
e2e_wrun_hwm "$out" 1 python3 "$peer" garbage huge stall reconnect
cp "$out" "$e2e_tmp/peer.b"
if [ "$e2e_rc" -eq 0 ] && [ "$(result reconnect "$e2e_tmp/peer.b")" = finalized ]; then
    e2e_ok "after garbage and oversize frames the rank is served again (REQ, FINALIZE)"
else
    e2e_not_ok "job B: wrun exit $e2e_rc, reconnect: $(result reconnect "$e2e_tmp/peer.b")"
    e2e_diag "$out"
fi
if closed "$e2e_tmp/peer.b" garbage; then
    e2e_ok "garbage commands after a valid handshake: answered or dropped, never a hang"
else
    e2e_not_ok "garbage commands:$bad"
fi
if closed "$e2e_tmp/peer.b" huge stall; then
    e2e_ok "frames announcing 4 GiB and 512 MiB: the connection closed"
else
    e2e_not_ok "oversize frames:$bad"
fi
if hwm_ok; then
    e2e_ok "wrun's memory stayed bounded (${e2e_hwm_kb} KiB)"
else
    e2e_not_ok "wrun's peak memory ${e2e_hwm_kb} KiB exceeds $max_kb KiB"
fi
# Job C: server_openpmix off (and Wireup's clients on TCP): a valid OpenPMIx handshake to
# Wireup's own listener is refused as well
out="$e2e_tmp/out.c"
PMIX_MCA_ptl=tcp PMIX_MCA_server_openpmix=0 e2e_wrun "$out" 1 python3 "$peer" valid
r=$(result valid "$out")
case "$r" in
closed*)
    if [ "$e2e_rc" -eq 0 ]; then
        e2e_ok "server_openpmix=0: a valid OpenPMIx handshake is refused"
    else
        e2e_not_ok "server_openpmix=0: wrun exit $e2e_rc"
        e2e_diag "$out"
    fi
    ;;
*)
    e2e_not_ok "server_openpmix=0: a valid OpenPMIx handshake got: ${r:-nothing}"
    e2e_diag "$out"
    ;;
esac
if ! grep -qiE 'AddressSanitizer|runtime error|Segmentation|core dumped' "$e2e_tmp/out.a" \
    "$e2e_tmp/out.b" "$e2e_tmp/out.c" "$e2e_tmp/peer.a"; then
    e2e_ok "no crash or sanitizer report"
else
    e2e_not_ok "a crash or sanitizer report"
    e2e_diag "$out"
fi
e2e_exit
