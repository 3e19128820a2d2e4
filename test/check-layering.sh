#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: the source tree respects the layering rules (contrib/check-layering.sh).
s=${WU_TEST_SRCDIR:-.}
echo "1..1"
if out=$(sh "$s/contrib/check-layering.sh" "$s" 2>&1); then
    echo "ok 1 - layering: opal <- mca/base <- mca/<fw> <- pmix"
else
    echo "not ok 1 - layering violations:"; echo "$out" | sed 's/^/# /'
fi
