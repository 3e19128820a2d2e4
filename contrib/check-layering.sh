#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check-layering.sh SRCDIR -- enforce the one-way dependencies opal <- mca/base <- mca/<fw> <- pmix:
#  * opal/ includes nothing from mca/ or pmix/;
#  * mca/base includes nothing from a framework or from pmix/ (pmix/include public headers excepted);
#  * a component includes no other component's headers (its own, framework headers and base are fine).
#  * inside pmix/, a directory includes only the directories below it (the layers table below):
#      pmix/common <- pmix/event <- pmix/client, pmix/server, pmix/tool
#        <- pmix/rte/core <- pmix/rte/map <- pmix/rte/job <- pmix/rte/dist <- pmix/rte/svc
#        <- pmix/rte <- pmix/tools/*
#    (pmix/include, the public headers, is open to all; a tool main includes no other tool's
#    headers; the runtime's layers are the folders of pmix/rte, whose own files are its top),
#    and the directory-level include graph has no cycle.
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
    [ -d "$d" ] || continue
    fw=$(echo "$d" | cut -d/ -f2); comp=$(echo "$d" | cut -d/ -f3)
    [ "$fw" = base ] && continue
    [ "$comp" = base ] && continue
    for f in $(find "$d" -name '*.[ch]'); do
        grep -n '#include *"mca/[a-z0-9]*/[a-z0-9_]*/' "$f" \
            | grep -v "\"mca/$fw/$comp/" | grep -v "\"mca/$fw/base/" | grep -v '"mca/base/' \
            | while IFS= read -r l; do echo "$f:${l%%:*}: component $fw/$comp includes another component's header"; done
    done
done | { grep . && exit 1 || exit 0; } || status=1
# pmix/: the directory each #include "pmix/..." line comes from and goes to, checked against the
# table; then a depth-first search of the directory graph for cycles (named with every include
# that closes them, so a cycle is reported even if the table were wrong).
grep -rnE --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"pmix/' pmix \
    2>/dev/null | LC_ALL=C sort -t: -k1,1 -k2,2n | awk '
BEGIN {
    order = "pmix/common <- pmix/event <- pmix/client, pmix/server, pmix/tool <- pmix/rte/core <- " \
        "pmix/rte/map <- pmix/rte/job <- pmix/rte/dist <- pmix/rte/svc <- pmix/rte <- pmix/tools"
    # layers: a directory and the pmix/ directories it may include (besides itself and
    # pmix/include); a new directory under pmix/ needs a line here
    layers["pmix/include"] = ""
    layers["pmix/common"] = ""
    layers["pmix/event"] = "pmix/common"
    layers["pmix/client"] = "pmix/common pmix/event"
    layers["pmix/server"] = "pmix/common pmix/event"
    layers["pmix/tool"] = "pmix/common pmix/event"
    below_rte = "pmix/common pmix/event pmix/client pmix/server pmix/tool"
    layers["pmix/rte/core"] = below_rte
    layers["pmix/rte/map"] = below_rte " pmix/rte/core"
    layers["pmix/rte/job"] = below_rte " pmix/rte/core pmix/rte/map"
    layers["pmix/rte/dist"] = layers["pmix/rte/job"] " pmix/rte/job"
    layers["pmix/rte/svc"] = layers["pmix/rte/dist"] " pmix/rte/dist"
    layers["pmix/rte"] = layers["pmix/rte/svc"] " pmix/rte/svc"
    layers["pmix/tools"] = layers["pmix/rte"] " pmix/rte"
    nnodes = 0
    status = 0
}
# pmix/<dir> of a path; pmix/tools/<tool> for a tool main; pmix/rte/<layer> for a file in a
# folder of the runtime
function dir_of(path,   n, p) {
    n = split(path, p, "/")
    if (n >= 4 && (p[2] == "tools" || p[2] == "rte")) {
        return p[1] "/" p[2] "/" p[3]
    }
    return n >= 3 ? p[1] "/" p[2] : p[1]
}
function node(d) {
    if (!(d in seen)) {
        seen[d] = 1
        nodes[++nnodes] = d
    }
}
function bad(where, why) {
    print where ": " why
    status = 1
}
{
    file = $0
    sub(/:.*/, "", file)
    rest = substr($0, length(file) + 2)
    line = rest
    sub(/:.*/, "", line)
    inc = rest
    sub(/^[^"]*"/, "", inc)
    sub(/".*/, "", inc)
    from = dir_of(file)
    to = dir_of(inc)
    where = file ":" line
    if (from == to || to == "pmix/include") {
        next
    }
    key = from ~ /^pmix\/tools\// ? "pmix/tools" : from
    if (!(key in layers)) {
        bad(where, from " has no line in the layers table of contrib/check-layering.sh: add one")
    } else if (key == "pmix/tools" && to ~ /^pmix\/tools\//) {
        bad(where, from " includes " inc ", a header of another tool: move what both need below pmix/tools")
    } else if (index(" " layers[key] " ", " " to " ") == 0) {
        bad(where, from " must not include " inc " (layers: " order "; " from " may include: " \
            (layers[key] == "" ? "pmix/include only" : layers[key]) ")")
    }
    node(from)
    node(to)
    if (!((from, to) in edge)) {
        edge[from, to] = where
        out[from, ++nout[from]] = to
    }
}
# depth-first search; a grey successor closes a cycle: the stack from it to u
function dfs(u,   i, v, k, j, next_, path, locs) {
    color[u] = 1
    stack[++sp] = u
    for (i = 1; i <= nout[u]; i++) {
        v = out[u, i]
        if (color[v] == 1) {
            for (k = sp; stack[k] != v; k--) {
            }
            path = ""
            locs = ""
            for (j = k; j <= sp; j++) {
                next_ = j < sp ? stack[j + 1] : v
                path = path stack[j] " -> "
                locs = locs (locs == "" ? "" : ", ") edge[stack[j], next_]
            }
            bad(edge[stack[k], k < sp ? stack[k + 1] : v], "include cycle: " path v \
                " (" locs "): make the dependency one-way")
        } else if (color[v] == 0) {
            dfs(v)
        }
    }
    sp--
    color[u] = 2
}
END {
    sp = 0
    for (n = 1; n <= nnodes; n++) {
        if (color[nodes[n]] == 0) {
            dfs(nodes[n])
        }
    }
    exit status
}' || status=1

grep -rnE 'wu_output_verbose\( *-?[0-9]|WU_MCA_VERBOSE\([^,]+, *-?[0-9]' --include='*.c' --include='*.h' \
    opal mca pmix 2>/dev/null | sed 's/$/: use a WU_VERB_* level, not a number/' | grep . && status=1
exit $status
