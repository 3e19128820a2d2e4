#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the source tree respects the layering rules (contrib/check-layering.sh), and the
# check itself catches what it is for: small fake trees (in a private temp dir) with an include
# cycle between pmix/ directories, with an include against the pmix/ layer order, with a cycle
# and an upward include between the runtime's layers (the folders of pmix/rte), and without any.
s=${WU_TEST_SRCDIR:-.}
check=$s/contrib/check-layering.sh
echo "1..8"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
    n=$((n + 1))
    echo "not ok $n - $1"
    [ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/# /'
}

if out=$(sh "$check" "$s" 2>&1); then
    ok "layering of the tree: opal <- mca/base <- mca/<fw> <- pmix, and the layers inside pmix/"
else
    not_ok "layering violations in the tree:" "$out"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wu-layering.XXXXXX") || { echo "Bail out! mktemp -d failed"; exit 1; }
trap 'rm -rf -- "$tmp"' EXIT
# fake FILE LINE...: write a source file of a fake tree
fake() {
    f=$1
    shift
    mkdir -p "$(dirname "$f")" && printf '%s\n' "$@" >"$f"
}

# a cycle: pmix/event includes pmix/client, which includes pmix/event
t=$tmp/cycle
fake "$t/pmix/event/e.c" '/* fake */' '#include "pmix/client/x.h"'
fake "$t/pmix/client/c.c" '#include "pmix/event/y.h"'
if out=$(sh "$check" "$t" 2>&1); then
    not_ok "an include cycle pmix/event <-> pmix/client passed the check" "$out"
else
    ok "an include cycle pmix/event <-> pmix/client fails the check"
fi
if printf '%s\n' "$out" | grep -q '^pmix/[a-z]*/[a-z]\.c:[0-9]*: include cycle: pmix/\(client -> pmix/event -> pmix/client\|event -> pmix/client -> pmix/event\) (pmix/client/c.c:1, pmix/event/e.c:2\|pmix/event/e.c:2, pmix/client/c.c:1)'; then
    ok "the check names the cycle and the includes that make it"
else
    not_ok "the cycle is not named with its includes:" "$out"
fi
if printf '%s\n' "$out" | grep -q '^pmix/event/e\.c:2: pmix/event must not include pmix/client/x\.h'; then
    ok "the check names the include against the layer order, at FILE:LINE"
else
    not_ok "the include against the order is not reported at pmix/event/e.c:2:" "$out"
fi

# no cycle, but against the order: a client including the server
t=$tmp/order
fake "$t/pmix/client/c.c" '#include "pmix/server/s.h"'
if out=$(sh "$check" "$t" 2>&1); then
    not_ok "pmix/client including pmix/server passed the check" "$out"
else
    ok "pmix/client including pmix/server fails the check"
fi

# the runtime's layers: a cycle between pmix/rte/core and pmix/rte/map, and core including the
# top of the runtime (a file of pmix/rte itself)
t=$tmp/rtecycle
fake "$t/pmix/rte/core/c.c" '#include "pmix/rte/map/m.h"'
fake "$t/pmix/rte/map/m.c" '#include "pmix/rte/core/c.h"'
if out=$(sh "$check" "$t" 2>&1); then
    not_ok "an include cycle pmix/rte/core <-> pmix/rte/map passed the check" "$out"
elif printf '%s\n' "$out" | grep -q 'include cycle: pmix/rte/\(core -> pmix/rte/map -> pmix/rte/core\|map -> pmix/rte/core -> pmix/rte/map\)' &&
    printf '%s\n' "$out" | grep -q '^pmix/rte/core/c\.c:1: pmix/rte/core must not include pmix/rte/map/m\.h'; then
    ok "a cycle between the runtime's layers fails the check, named with the upward include"
else
    not_ok "the cycle between the runtime's layers is not named:" "$out"
fi
t=$tmp/rteup
fake "$t/pmix/rte/core/c.c" '#include "pmix/rte/wu_rte_internal.h"'
if out=$(sh "$check" "$t" 2>&1); then
    not_ok "pmix/rte/core including the top of the runtime passed the check" "$out"
else
    ok "pmix/rte/core including pmix/rte's own header fails the check"
fi

# in order: tools -> rte -> server, client -> event -> common, public headers from anywhere
t=$tmp/good
fake "$t/pmix/tools/wrun/w.c" '#include "pmix/rte/r.h"' '#include "pmix/tools/wrun/w.h"'
fake "$t/pmix/rte/r.c" '#include "pmix/server/s.h"' '#include "pmix/client/c.h"' '#include "pmix/rte/map/m.h"'
fake "$t/pmix/rte/map/m.h" '#include "pmix/rte/core/c.h"' '#include "pmix/rte/map/m2.h"'
fake "$t/pmix/rte/core/c.h" '#include "pmix/server/s.h"'
fake "$t/pmix/server/s.h" '#include "pmix/event/e.h"'
fake "$t/pmix/client/c.c" '#include "pmix/event/e.h"' '#include "pmix/include/pmix.h"'
fake "$t/pmix/event/e.h" '#include "pmix/common/b.h"' '#include "pmix/event/e2.h"'
if out=$(sh "$check" "$t" 2>&1); then
    ok "a tree whose includes follow the layer order passes"
else
    not_ok "a tree whose includes follow the layer order failed:" "$out"
fi
