#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: CONNECT requests whose version, psec mode and namespace carry a terminal escape
# sequence and a forged line "job completed successfully" (test/e2e/e2e_hostile.c), over the
# Unix socket and over TCP (PMIX_MCA_ptl=tcp, where peers without the token are refused before
# anything they sent is looked at). Checks: the job still finishes; wrun's output holds no
# control byte and no forged line; every hostile peer is refused; a peer with valid credentials
# sees its bad version and mode reported escaped, and an unauthenticated one gets nothing shown.
# Last, a PMIx_Abort message with an escape sequence: shown escaped, its lines, tab and UTF-8
# kept.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 9
e2e_mktemp
out="$e2e_tmp/out"
n=2

# diagnostics with control bytes made visible
show() {
    tail -n 40 "$1" | cat -v | sed 's/^/# /'
}

# answer CASE: the status rank 0 saw for that hostile connect
answer() {
    sed -n "s/^hostile: $1: //p" "$out" | head -n 1
}

for ptl in usock tcp; do
    if [ "$ptl" = tcp ]; then
        PMIX_MCA_ptl=tcp e2e_wrun "$out" $n "$e2e/e2e_hostile"
    else
        e2e_wrun "$out" $n "$e2e/e2e_hostile"
    fi
    good=$(e2e_count_lines "$out" "^hostile rank .* of $n: ok")
    if [ "$e2e_rc" -eq 0 ] && [ "$good" -eq $n ]; then
        e2e_ok "$ptl: the job finishes normally after the hostile connects"
    else
        e2e_not_ok "$ptl: job (wrun exit $e2e_rc, $good of $n ranks ok)"
        show "$out"
    fi

    if LC_ALL=C tr -d '\n\t' <"$out" | LC_ALL=C grep -q '[[:cntrl:]]'; then
        e2e_not_ok "$ptl: a control byte from a peer reached wrun's output"
        show "$out"
    elif grep -qx 'job completed successfully' "$out"; then
        e2e_not_ok "$ptl: a peer forged a line of wrun's output"
        show "$out"
    else
        e2e_ok "$ptl: no control byte and no forged line in wrun's output"
    fi

    want="bad-version=NOT-SUPPORTED bad-mode=INVALID-CREDENTIAL"
    if [ "$ptl" = tcp ]; then
        want="no-cred=INVALID-CREDENTIAL bad-cred=INVALID-CREDENTIAL $want"
    fi
    got=
    for w in $want; do
        got="$got ${w%%=*}=$(answer "${w%%=*}")"
    done
    if [ "$got" = " $want" ]; then
        e2e_ok "$ptl: every hostile connect refused ($want)"
    else
        e2e_not_ok "$ptl: refusals: got$got, want $want"
        show "$out"
    fi

    # the authenticated peer's bad version and mode, escaped; the unauthenticated ones' never
    versions=$(grep -cF '"\x1b[2J\njob completed successfully\n"' "$out")
    modes=$(grep -cF '"native\x1b[31m\njob completed successfully\n"' "$out")
    if [ "$versions" -eq 1 ] && [ "$modes" -eq 1 ]; then
        e2e_ok "$ptl: bad version and mode of an authenticated peer shown escaped, once"
    else
        e2e_not_ok "$ptl: escaped version shown $versions times, mode $modes times (want 1, 1)"
        show "$out"
    fi
done

e2e_wrun "$out" $n "$e2e/e2e_hostile" abort
tab=$(printf '\t')
if [ "$e2e_rc" -eq 5 ] && grep -qF 'called PMIx_Abort with status 5: bye\x1b[2J' "$out" &&
    grep -qx "second line${tab}café" "$out" &&
    ! LC_ALL=C tr -d '\n\t' <"$out" | LC_ALL=C grep -q '[[:cntrl:]]'; then
    e2e_ok "PMIx_Abort message shown escaped, its lines, tab and UTF-8 kept"
else
    e2e_not_ok "PMIx_Abort message (wrun exit $e2e_rc, want 5)"
    show "$out"
fi
e2e_exit
