#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test of the manual pages in docs/man: each renders without a single warning (groff -ww, or
# man --warnings when only man is there; skipped when neither is installed), has the sections a
# reader looks for, and documents every option the programs print in --help: each option of
# `wrun --help` (and of `wired --help`, `wireup-info --help`) must head an entry (.TP) of its
# page, so that a page cannot fall behind its program.
b=${WU_TEST_BUILDDIR:-.}
s=${WU_TEST_SRCDIR:-.}
man_dir="$s/docs/man"
tmp=$(mktemp -d /tmp/wu_man_XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PMIX_MCA_mca_base_user_param_file="" PMIX_MCA_mca_base_system_param_file=""
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
fail() {
    n=$((n + 1)); echo "not ok $n - $1"; shift
    for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
}

# The words of a page as a reader sees them, one input line each: dashes, font changes and
# zero-width escapes removed, quotes dropped.
plain() {
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\f\[[A-Z]*\]//g' \
        -e 's/\\&//g' -e 's/\\c$//' -e 's/"//g' "$1"
}
# The entry headings of a page: the line after each .TP or .TQ.
headings() {
    plain "$1" | awk '/^\.(TP|TQ)/ { if ((getline l) > 0) print l }'
}
# The options of a program's --help: from each line that starts with blanks and a dash, the
# option column (up to two blanks in a row), and from the Usage: line, every -x / --word.
help_options() {
    sed -n -e '/^ *-/{s/^ *//;s/  .*//;p;}' -e '/^Usage:/{s/^Usage: *[^ ]*//;p;}' |
        sed -e 's/[][,]/ /g' | tr ' ' '\n' | grep -E '^--?[A-Za-z]' |
        sed -E 's/^(--?[A-Za-z][A-Za-z0-9-]*).*/\1/' | sort -u
}
# check_options PAGE PROGRAM-NAME HELP-FILE: each option of the help heads an entry of PAGE.
check_options() {
    headings "$1" > "$tmp/headings"
    for o in $(help_options < "$3"); do
        if grep -qE -e "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|\$)" "$tmp/headings"; then
            ok "$2 option $o has an entry in $(basename "$1")"
        else
            fail "$2 option $o has an entry in $(basename "$1")" \
                "'$2 --help' prints $o, but no .TP heading of $1 names it"
        fi
    done
}

# Rendering: any warning at all is a failure.
render=""
if command -v groff > /dev/null 2>&1; then
    render="groff"
elif command -v man > /dev/null 2>&1; then
    render="man"
fi
pages="wrun.1 wired.1"
[ -f "$man_dir/wireup-info.1" ] && pages="$pages wireup-info.1"
for p in $pages; do
    f="$man_dir/$p"
    if [ ! -f "$f" ]; then
        fail "$p exists" "no $f"
        continue
    fi
    out="" rc=0
    case $render in
    groff) out=$(LC_ALL=C groff -man -Tutf8 -ww -z "$f" 2>&1); rc=$? ;;
    man) out=$(LC_ALL=C MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>&1 > /dev/null); rc=$? ;;
    esac
    if [ -z "$render" ]; then
        skip "$p renders without warnings" "neither groff nor man is installed"
    elif [ "$rc" -eq 0 ] && [ -z "$out" ]; then
        ok "$p renders without warnings ($render)"
    else
        fail "$p renders without warnings ($render)" "exit $rc" "$out"
    fi
    # The sections every page has.
    want="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT?STATUS ENVIRONMENT FILES EXAMPLES SEE?ALSO"
    missing=""
    for sec in $want; do
        pat=$(printf '%s' "$sec" | tr '?' ' ')
        grep -qE "^\.SH \"?$pat\"?\$" "$f" || missing="$missing $pat;"
    done
    if [ -z "$missing" ]; then ok "$p has every section"; else fail "$p has every section" "missing:$missing"; fi
    # The .TH line names the program and section 1.
    name=$(basename "$p" .1 | tr '[:lower:]' '[:upper:]')
    if grep -qE "^\.TH $name 1 " "$f"; then ok "$p: .TH $name 1"; else fail "$p: .TH $name 1" "$(grep '^\.TH' "$f")"; fi
done

# Every option of the programs' --help has an entry in their pages.
for prog in wrun wired wireup-info; do
    page="$man_dir/$prog.1"
    [ -f "$page" ] || continue
    if [ ! -x "$b/$prog" ]; then
        fail "$prog --help runs" "no program $b/$prog"
        continue
    fi
    "$b/$prog" --help > "$tmp/help" 2>&1
    rc=$?
    nopt=$(help_options < "$tmp/help" | wc -l)
    if [ "$rc" -eq 0 ] && [ "$nopt" -ge 3 ]; then
        ok "$prog --help lists $nopt options"
    else
        fail "$prog --help lists its options" "exit $rc, $nopt options" "$(cat "$tmp/help")"
        continue
    fi
    check_options "$page" "$prog" "$tmp/help"
done

# The multi-node subsection of wrun.1 covers what the brief of the page promises.
f="$man_dir/wrun.1"
if [ -f "$f" ]; then
    plain "$f" > "$tmp/wrun.txt"
    for w in 'pls_rsh_agent' 'rte_base_daemon_timeout' 'rte_base_launch_timeout' 'rte_base_heartbeat_interval' 'rte_base_heartbeat_misses' \
        'ppr:' 'slots=' 'max_slots=' \
        'Placement on several nodes' 'RUNNING ON SEVERAL NODES' 'DIFFERENCES FROM MPIRUN'; do
        if grep -qF -e "$w" "$tmp/wrun.txt"; then ok "wrun.1 mentions $w"; else fail "wrun.1 mentions $w"; fi
    done
fi
echo "1..$n"
