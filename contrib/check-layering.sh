#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check-layering.sh SRCDIR -- enforce the one-way dependencies opal <- mca/base <- mca/<fw> <- pmix:
#  * opal/ includes nothing from mca/ or pmix/;
#  * mca/base includes nothing from a framework or from pmix/ (pmix/include public headers excepted);
#  * a component includes no other component's headers (its own, framework headers and base are fine).
#  * verbosity levels are named (WU_VERB_*), never numeric literals (STYLE G6).
# Prints each violation as FILE:LINE: reason; exits 1 if there is any.
top=${1:-.}
cd "$top" || exit 2
status=0
report() { echo "$1"; status=1; }

for f in $(find opal -name '*.[ch]' 2>/dev/null); do
    grep -n '#include *"\(mca\|pmix\)/' "$f" | while IFS= read -r l; do
        echo "$f:${l%%:*}: opal/ must not include mca/ or pmix/ headers"
    done
done | { grep . && exit 1 || exit 0; } || status=1

for f in $(find mca/base -name '*.[ch]' 2>/dev/null); do
    grep -n '#include *"\(mca/[a-z0-9]*/\|pmix/\)' "$f" | grep -v '"mca/base/' | grep -v '"pmix/include/' \
        | while IFS= read -r l; do echo "$f:${l%%:*}: mca/base must not include framework or pmix headers"; done
done | { grep . && exit 1 || exit 0; } || status=1

for d in mca/*/*/; do
    fw=$(echo "$d" | cut -d/ -f2); comp=$(echo "$d" | cut -d/ -f3)
    [ "$fw" = base ] && continue
    [ "$comp" = base ] && continue
    for f in $(find "$d" -name '*.[ch]'); do
        grep -n '#include *"mca/[a-z0-9]*/[a-z0-9_]*/' "$f" \
            | grep -v "\"mca/$fw/$comp/" | grep -v "\"mca/$fw/base/" | grep -v '"mca/base/' \
            | while IFS= read -r l; do echo "$f:${l%%:*}: component $fw/$comp includes another component's header"; done
    done
done | { grep . && exit 1 || exit 0; } || status=1
grep -rnE 'wu_output_verbose\( *-?[0-9]|WU_MCA_VERBOSE\([^,]+, *-?[0-9]' --include='*.c' --include='*.h' \
    opal mca pmix 2>/dev/null | sed 's/$/: use a WU_VERB_* level, not a number/' | grep . && status=1
exit $status
