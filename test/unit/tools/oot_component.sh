#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test: a component written outside the tree builds against the headers Wireup installs (and
# nothing else of the source tree), is found on mca_base_component_path, and is selected.
b=${WU_TEST_BUILDDIR:-.}; s=${WU_TEST_SRCDIR:-.}
tmp=$(mktemp -d /tmp/wu_oot_XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
# lay the headers out as `make install` does under $includedir/wireup
inc="$tmp/include/wireup"
mkdir -p "$inc"
ok=1
for h in $WU_INSTALL_HEADERS; do
    mkdir -p "$inc/$(dirname "$h")" && cp "$s/$h" "$inc/$h" || ok=0
done
cp "$b/wu_config.h" "$inc/" || ok=0
cat > "$tmp/plog_oot.c" <<'SRC'
/* an out-of-tree plog component: writes nothing, serves the channel "oot" */
#include "mca/plog/plog.h"
static int oot_log(const wu_plog_entry_t *e)
{
    (void)e;
    return WU_SUCCESS;
}
static const wu_plog_module_t oot_module = {
    .channels = (const char *const[]){"oot", NULL},
    .log = oot_log,
};
static int level = 3;
static const wu_mca_param_t oot_params[] = {
    WU_PARAM_INT("level", &level, WU_INFO_LVL_4, "An out-of-tree parameter"), WU_PARAM_END};
WU_MCA_COMPONENT(plog, oot, .priority = 1, .params = oot_params, .module = &oot_module,
                 .description = "built outside the tree");
SRC
mkdir -p "$tmp/comp"
if [ $ok = 1 ] && ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
       -DHAVE_CONFIG_H -I"$inc" -o "$tmp/comp/wu_mca_plog_oot.so" "$tmp/plog_oot.c" 2>"$tmp/cc.err"; then
    echo "ok 1 - component builds against the installed headers alone"
else
    echo "not ok 1 - component does not build against the installed headers"; sed 's/^/# /' "$tmp/cc.err"
fi
out=$(PMIX_MCA_mca_base_component_path="$tmp/comp" "$b/wireup-info" --parsable 2>&1)
if printf '%s\n' "$out" | grep -q '^mca:plog:oot:type:dso$' && printf '%s\n' "$out" | grep -q '^mca:plog:oot:status:selected$'; then
    echo "ok 2 - wireup-info lists the out-of-tree component as a selected DSO"
else
    echo "not ok 2 - out-of-tree component not loaded"; printf '%s\n' "$out" | grep -E 'oot|failed' | sed 's/^/# /'
fi
out=$(PMIX_MCA_mca_base_component_path="$tmp/comp" PMIX_MCA_plog_oot_level=5 "$b/wireup-info" --param plog oot --parsable 2>&1)
if printf '%s\n' "$out" | grep -q '^mca:plog:oot:param:plog_oot_level:value:5$'; then
    echo "ok 3 - its parameter is registered and set from the environment"
else
    echo "not ok 3 - parameter plog_oot_level missing or wrong"; printf '%s\n' "$out" | sed 's/^/# /'
fi
