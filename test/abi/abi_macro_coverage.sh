#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# abi_macro_coverage.sh -- TAP test: every function-like PMIX_ macro and every static inline
# pmix_ helper our public headers define is exercised by check_abi_macros.c, so a macro added
# later cannot go untested. WU_TEST_SRCDIR as in abi_constants.sh.

srcdir=${WU_TEST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
inc="$srcdir/pmix/include"
user="$srcdir/test/abi/check_abi_macros.c"

echo "1..2"
if [ ! -f "$inc/pmix_common.h" ] || [ ! -f "$user" ]; then
    echo "not ok 1 - headers or check_abi_macros.c not found under $srcdir"
    echo "not ok 2 - headers or check_abi_macros.c not found under $srcdir"
    exit 0
fi

n=0
report() { # $1 description, $2 newline-separated names not used
    n=$((n + 1))
    if [ -z "$2" ]; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1"
        echo "$2" | sed 's/^/#   not used: /'
    fi
}

missing=""
# shellcheck disable=SC2013 # one identifier per line
for m in $(sed -n 's/^[ \t]*#[ \t]*define[ \t]\{1,\}\(PMIX_[A-Z0-9_]*\)(.*/\1/p' "$inc"/pmix_*.h |
    sort -u); do
    grep -q "\\b$m(" "$user" || missing="$missing${missing:+
}$m"
done
report "every function-like PMIX_ macro is used" "$missing"

missing=""
# shellcheck disable=SC2013 # one identifier per line
for f in $(sed -n 's/^static inline .*[ *]\(pmix_[a-z0-9_]*\)(.*/\1/p' "$inc"/pmix_*.h | sort -u); do
    grep -q "\\b$f(" "$user" || missing="$missing${missing:+
}$f"
done
report "every static inline pmix_ helper is called" "$missing"
exit 0
