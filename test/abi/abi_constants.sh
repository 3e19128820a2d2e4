#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# abi_constants.sh -- TAP test: every constant, attribute key, macro, inline helper and typedef
# name of Wireup's public headers matches the installed OpenPMIx headers: 4.2's on Debian 12,
# 5.0's on Debian 13 (contrib/deb13.sh runs it there).
#
# Our headers are at the 5.0 level. Against 5.0's the name sets must be equal and every value the
# same. Against an older generation (4.2) ours must hold every name it has, with the same value;
# the version macros (PMIX_VERSION_*, PMIX_NUMERIC_VERSION) are left out of that comparison and
# so are the names and functions 5.0 added.
#
# The list of names is extracted at test time from our headers (so a constant added later is
# covered without editing this file) and from the reference headers. A generated C program prints
# each constant's value, size and signedness (or each key's string); it is compiled once against
# our headers and once against OpenPMIx's, and the outputs must be identical.
# Environment: CC (default cc), CPPFLAGS (optional), PMIX_REF_INCLUDE (default the Debian
# libpmix-dev location), WU_TEST_SRCDIR (default: two levels above this script). Without the
# reference headers every test is skipped.

CC=${CC:-cc}
ref=${PMIX_REF_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
srcdir=${WU_TEST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ours="$srcdir/pmix/include"

if [ ! -f "$ref/pmix_common.h" ]; then
    echo "1..1"
    echo "ok 1 # SKIP no OpenPMIx 4.2 headers in $ref"
    exit 0
fi
if [ ! -f "$ours/pmix_common.h" ]; then
    echo "1..1"
    echo "not ok 1 - our headers not found in $ours"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wu-abi-const.XXXXXX") || {
    echo "Bail out! cannot create a temporary directory"
    exit 1
}
# remove exactly the files this script creates, then the directory (no recursive removal)
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
    for f in names.ours names.ref fnmacros.ours fnmacros.ref inlines.ours inlines.ref \
        types.ours types.ref prog.c prog.ours prog.ref out.ours out.ref cc.log \
        funcs funcs.ref names.cmp names.refonly types.cmp sig.cc sig.ours sig.ref sigout.ours \
        sigout.ref; do
        rm -f "$tmp/$f"
    done
    rmdir "$tmp"
}
trap cleanup EXIT

# The headers that make up the pmix_common.h contract, ours and theirs.
our_headers="$ours/pmix_common.h $ours/pmix_version.h $ours/pmix_deprecated.h"
for h in "$ours"/pmix_wu_*.h; do
    our_headers="$our_headers $h"
done
ref_headers="$ref/pmix_common.h $ref/pmix_version.h $ref/pmix_deprecated.h"
# the generations compared: the major versions of the two header sets
vpart() { sed -n "s/^#[ \t]*define[ \t]*PMIX_VERSION_$2[ \t]*\([0-9]*\).*/\1/p" "$1/pmix_version.h"; }
same_gen=no
[ "$(vpart "$ours" MAJOR)" = "$(vpart "$ref" MAJOR)" ] && same_gen=yes
ref_major=$(vpart "$ref" MAJOR).$(vpart "$ref" MINOR) # for the messages: "OpenPMIx 4.2"

# Object-like PMIX_ constants: "NAME<TAB>s" for strings, "NAME<TAB>n" for numbers. Left out:
# PMIX_EXPORT (an attribute), *_STATIC_INIT (initializers) and our own header guards PMIX_WU_*.
# Enum members count as numeric constants.
# shellcheck disable=SC2086
constants() {
    awk '
        /^[ \t]*#[ \t]*define[ \t]+PMIX_[A-Z0-9_]+[ \t]/ {
            line = $0
            # a value continued on the next lines counts as one line
            while (line ~ /\\[ \t]*$/ && (getline more) > 0) {
                sub(/\\[ \t]*$/, " ", line)
                line = line more
            }
            sub(/^[ \t]*#[ \t]*define[ \t]+/, "", line)
            name = line
            sub(/[ \t].*$/, "", name)
            val = line
            sub(/^[A-Z0-9_]+[ \t]+/, "", val)
            if (name == "PMIX_EXPORT" || name ~ /_STATIC_INIT$/ || name ~ /^PMIX_WU_/ ||
                val ~ /^\{/ || val ~ /^[ \t]*$/)
                next
            print name "\t" (val ~ /^"/ ? "s" : "n")
            next
        }
        /typedef[ \t]+enum/ { inenum = 1 }
        inenum {
            text = $0
            sub(/\/\/.*$/, "", text)
            gsub(/\/\*[^*]*\*\//, "", text)
            cut = index(text, "}")
            if (cut > 0)
                text = substr(text, 1, cut)
            while (match(text, /PMIX_[A-Z0-9_]+/)) {
                print substr(text, RSTART, RLENGTH) "\tn"
                text = substr(text, RSTART + RLENGTH)
            }
            if (cut > 0)
                inenum = 0
        }
    ' "$@" | sort -u
}

# Function-like PMIX_ macros, static inline function names, typedef names.
fnmacros() {
    sed -n 's/^[ \t]*#[ \t]*define[ \t]\{1,\}\(PMIX_[A-Z0-9_]*\)(.*/\1/p' "$@" | sort -u
}
inlines() {
    # "static inline <type> name(" possibly with the name on the next line
    awk '/^static inline/ { s = $0; if (s !~ /\(/) { getline n; s = s " " n }
             sub(/\(.*/, "", s); gsub(/\*/, " ", s); k = split(s, w, /[ \t]+/); print w[k] }' \
        "$@" | grep '^pmix_' | sort -u
}
typedefs() {
    # the name each typedef declares: "} name;" closing a multi-line typedef, a one-line
    # "typedef T name;" / "typedef char name[N];", or a one-line "typedef enum {...} name;"
    sed -n -e 's/^[ \t]*}[ \t]*\(pmix_[a-z0-9_]*\)[ \t]*;.*/\1/p' \
        -e 's/^[ \t]*typedef[^;{(]*[ \t*]\(pmix_[a-z0-9_]*\)[ \t]*\(\[[^]]*\]\)\{0,1\}[ \t]*;.*/\1/p' \
        -e 's/^[ \t]*typedef[ \t].*}[ \t]*\(pmix_[a-z0-9_]*\)[ \t]*;.*/\1/p' "$@" | sort -u
}
# function pointer typedefs: "typedef void (*name)(" -- add them to typedefs
fptypes() {
    sed -n 's/.*typedef[^(]*(\*[ \t]*\(pmix_[a-z0-9_]*\)).*/\1/p' "$@" | sort -u
}

# shellcheck disable=SC2086
constants $our_headers >"$tmp/names.ours"
# shellcheck disable=SC2086
constants $ref_headers >"$tmp/names.ref"
# shellcheck disable=SC2086
fnmacros $our_headers >"$tmp/fnmacros.ours"
# shellcheck disable=SC2086
fnmacros $ref_headers >"$tmp/fnmacros.ref"
# shellcheck disable=SC2086
inlines $our_headers >"$tmp/inlines.ours"
# shellcheck disable=SC2086
inlines $ref_headers >"$tmp/inlines.ref"
# shellcheck disable=SC2086
{ typedefs $our_headers; fptypes $our_headers; } | sort -u >"$tmp/types.ours"
# shellcheck disable=SC2086
{ typedefs $ref_headers; fptypes $ref_headers; } | sort -u >"$tmp/types.ref"
# What the value and signature checks compare: everything of ours against the same generation;
# against an older one, only the names it has too, version macros left out.
if [ $same_gen = yes ]; then
    cp "$tmp/names.ours" "$tmp/names.cmp"
    cp "$tmp/types.ours" "$tmp/types.cmp"
else
    cut -f1 "$tmp/names.ref" | sort -u >"$tmp/names.refonly"
    awk -F '\t' 'NR == FNR { have[$1] = 1; next } ($1 in have)' "$tmp/names.refonly" \
        "$tmp/names.ours" | grep -Ev '^PMIX_(VERSION_(MAJOR|MINOR|RELEASE)|NUMERIC_VERSION)\b' \
        >"$tmp/names.cmp"
    comm -12 "$tmp/types.ours" "$tmp/types.ref" >"$tmp/types.cmp"
fi

echo "1..7"
n=0
check_same_set() { # $1 description, $2 ours, $3 ref, $4 "both" to also fail on extra names
    n=$((n + 1))
    missing=$(comm -13 "$2" "$3")
    extra=""
    if [ "$4" = both ]; then
        extra=$(comm -23 "$2" "$3")
    fi
    if [ -z "$missing" ] && [ -z "$extra" ]; then
        echo "ok $n - $1 ($(wc -l <"$3") names)"
    else
        echo "not ok $n - $1"
        [ -n "$missing" ] && echo "$missing" | sed 's/^/#   missing from ours: /'
        [ -n "$extra" ] && echo "$extra" | sed 's/^/#   not in OpenPMIx: /'
    fi
}

if [ $same_gen = yes ]; then
    check_same_set "constant and attribute key names equal OpenPMIx $ref_major's" "$tmp/names.ours" \
        "$tmp/names.ref" both
else
    check_same_set "every constant and attribute key name of OpenPMIx $ref_major is ours" \
        "$tmp/names.ours" "$tmp/names.ref"
fi
check_same_set "every function-like PMIX_ macro of OpenPMIx exists" "$tmp/fnmacros.ours" \
    "$tmp/fnmacros.ref"
check_same_set "every static inline pmix_ helper of OpenPMIx exists" "$tmp/inlines.ours" \
    "$tmp/inlines.ref"
check_same_set "every pmix_ typedef of OpenPMIx exists" "$tmp/types.ours" "$tmp/types.ref"

# The value printer, generated from OUR names. Numbers print as value, size and signedness
# (so 0xffff0000 vs -65536, or 4L vs 4, differ); strings print as their bytes.
{
    cat <<'PROG'
#include <pmix_common.h>
#include <stdio.h>
#define WU_NUM(x)                                                                                  \
    printf("%s %lld size=%zu %s\n", #x, (long long)(x), sizeof(x),                                 \
           ((x) * 0 - 1 < 0) ? "signed" : "unsigned")
#define WU_STR(x) printf("%s \"%s\" size=%zu\n", #x, x, sizeof(x))
int main(void)
{
PROG
    awk -F '\t' '{ printf "    %s(%s);\n", ($2 == "s" ? "WU_STR" : "WU_NUM"), $1 }' "$tmp/names.cmp"
    echo '    return 0;'
    echo '}'
} >"$tmp/prog.c"

n=$((n + 1))
# shellcheck disable=SC2086
if $CC -std=gnu11 -w $CPPFLAGS -I"$ours" "$tmp/prog.c" -o "$tmp/prog.ours" >"$tmp/cc.log" 2>&1 &&
    "$tmp/prog.ours" >"$tmp/out.ours"; then
    echo "ok $n - value printer builds and runs against our headers ($(wc -l <"$tmp/out.ours") values)"
else
    echo "not ok $n - value printer fails against our headers"
    sed 's/^/#   /' "$tmp/cc.log" | head -40
fi

n=$((n + 1))
# The same program (our names) compiled against OpenPMIx's headers; a name they lack fails the
# build and is also reported by test 1.
# shellcheck disable=SC2086
if $CC -std=gnu11 -w -I"$ref" "$tmp/prog.c" -o "$tmp/prog.ref" >"$tmp/cc.log" 2>&1 &&
    "$tmp/prog.ref" >"$tmp/out.ref" && [ -s "$tmp/out.ours" ] &&
    cmp -s "$tmp/out.ours" "$tmp/out.ref"; then
    echo "ok $n - every value equals OpenPMIx $ref_major's"
else
    echo "not ok $n - values differ from OpenPMIx $ref_major's (or the program failed against them)"
    sed 's/^/#   /' "$tmp/cc.log" | head -20
    [ -f "$tmp/out.ref" ] && diff "$tmp/out.ref" "$tmp/out.ours" | head -40 | sed 's/^/#   /'
fi

# Types and function signatures, compared through C++ type names (typeid gives a canonical
# spelling of a type, including every parameter of a function or function pointer type): each
# pmix_ typedef of ours and each PMIx_* function our common headers declare (pmix.h is included
# on both sides: OpenPMIx declares some of them there).
CXX=${CXX:-c++}
n=$((n + 1))
# shellcheck disable=SC2086
sed -n 's/.*PMIX_EXPORT[^(]*[ *]\(PMIx_[A-Za-z0-9_]*\)(.*/\1/p' $our_headers | sort -u >"$tmp/funcs"
if [ $same_gen = no ]; then
    # only the functions the older generation declares (in its pmix.h or common headers)
    cat $ref_headers "$ref/pmix.h" | tr '\n' ' ' | sed 's/;/;\n/g' |
        sed -n 's/.*PMIX_EXPORT[^(]*[ *]\(PMIx_[A-Za-z0-9_]*\) *(.*/\1/p' | sort -u >"$tmp/funcs.ref"
    comm -12 "$tmp/funcs" "$tmp/funcs.ref" >"$tmp/funcs.cmp" && mv "$tmp/funcs.cmp" "$tmp/funcs"
fi
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "ok $n # SKIP no C++ compiler ($CXX) to compare type signatures"
else
    {
        echo '#include <pmix_common.h>'
        echo '#include <pmix.h> /* both declare some of these functions there */'
        echo '#include <cstdio>'
        echo '#include <typeinfo>'
        echo 'int main()'
        echo '{'
        awk '{ printf "    std::printf(\"%s %%s\\n\", typeid(%s).name());\n", $1, $1 }' "$tmp/types.cmp"
        awk '{ printf "    std::printf(\"%s %%s\\n\", typeid(decltype(%s)).name());\n", $1, $1 }' \
            "$tmp/funcs"
        echo '    return 0;'
        echo '}'
    } >"$tmp/sig.cc"
    if $CXX -w -I"$ours" "$tmp/sig.cc" -o "$tmp/sig.ours" >"$tmp/cc.log" 2>&1 &&
        "$tmp/sig.ours" >"$tmp/sigout.ours" &&
        $CXX -w -DWU_SIG_REF -I"$ref" "$tmp/sig.cc" -o "$tmp/sig.ref" >>"$tmp/cc.log" 2>&1 &&
        "$tmp/sig.ref" >"$tmp/sigout.ref" && cmp -s "$tmp/sigout.ours" "$tmp/sigout.ref"; then
        echo "ok $n - $(wc -l <"$tmp/types.cmp") typedefs and $(wc -l <"$tmp/funcs") function signatures equal OpenPMIx $ref_major's"
    else
        echo "not ok $n - type or function signatures differ from OpenPMIx $ref_major's"
        sed 's/^/#   /' "$tmp/cc.log" | head -20
        [ -f "$tmp/sigout.ref" ] && diff "$tmp/sigout.ref" "$tmp/sigout.ours" | head -40 | sed 's/^/#   /'
    fi
fi
exit 0
