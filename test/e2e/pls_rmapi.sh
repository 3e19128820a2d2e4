#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only, issue 32): a launch system that starts remote tasks itself can be a pls
# component. contrib/examples/pls_rmapi.c, built here against the installed headers alone, starts
# wrun's daemons on a 3-node test/lab lab through a stand-in for a resource manager's task
# launcher (a script that runs a program on a node with the caller's environment and no standard
# input). The daemons get the job's token in their environment (never on a command line, never
# on a standard input) and call back; the job runs on every node, flat and through a relay
# (routed_radix 1: node2's wired starts node3's through the component too). A node the manager
# refuses fails the job at once with the component's words, naming the node. Nothing is left on
# any node.
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
lab_tests=7
e2e_plan $lab_tests
e2e_mktemp

# the component, against the headers `make install` lays out under $includedir/wireup
inc="$e2e_tmp/include/wireup"
mkdir -p "$inc" "$e2e_tmp/comp" "$e2e_tmp/t"
built=1
for h in $WU_INSTALL_HEADERS; do
    mkdir -p "$inc/$(dirname "$h")" && cp "$s/$h" "$inc/$h" || built=0
done
cp "$b/wu_config.h" "$inc/" || built=0
if [ $built = 1 ] && ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
    -DHAVE_CONFIG_H -I"$inc" -o "$e2e_tmp/comp/wu_mca_pls_rmapi.so" \
    "$s/contrib/examples/pls_rmapi.c" 2>"$e2e_tmp/cc.err"; then
    e2e_ok "contrib/examples/pls_rmapi.c builds against the installed headers alone"
else
    e2e_not_ok "the example component does not build"
    e2e_diag "$e2e_tmp/cc.err"
fi

. "$s/test/e2e/lab_lib.sh"
lab_start wra$$ 3

# The stand-in manager: run PROGRAM on HOST (a node of the lab, entered through its sshd's
# namespaces) with this environment and no standard input; each call logged with its command
# line and whether the token came in the environment.
api=$e2e_tmp/api.sh
log=$e2e_tmp/api.log
cat >"$api" <<EOF
#!/bin/sh
host=\$1
shift
echo "\$host token=\${#WU_DAEMON_SECRET} argv=\$*" >>"$log"
pid=\$(cat "$WU_LAB_DIR/run/sshd.\$host.pid") || exit 1
exec nsenter -t "\$pid" -n -u -m -- "\$@" </dev/null
EOF
chmod +x "$api"
comp="PMIX_MCA_mca_base_component_path=$e2e_tmp/comp${PMIX_MCA_mca_base_component_path:+:$PMIX_MCA_mca_base_component_path}"

leftovers() {
    lab_left '^[^ ]*wired --node|^sleep 3141|^nsenter ' "$1"
}

# 2-3: flat: wrun on node1 starts node2's and node3's wired through the component
: >"$log"
lab_on node1 "$e2e_tmp/flat.out" env "$comp" PMIX_MCA_pls_rmapi_command="$api" ./wrun \
    -H node2,node3 -np 4 hostname
hosts=$(sort "$e2e_tmp/flat.out" | uniq -c | awk '{print $2 ":" $1}' | tr '\n' ' ')
calls=$(awk '{print $1}' "$log" | sort | tr '\n' ' ')
if [ "$e2e_rc" -eq 0 ] && [ "$hosts" = "node2:2 node3:2 " ] && [ "$calls" = "node2 node3 " ]; then
    e2e_ok "the component starts node2's and node3's wired; 2 ranks on each report their host"
else
    e2e_not_ok "flat launch through the component (rc $e2e_rc; hosts: $hosts; calls: $calls)"
    e2e_diag "$e2e_tmp/flat.out"
    e2e_diag "$log"
fi
# the ranks do not inherit it: wired took it out of its environment
lab_on node1 "$e2e_tmp/noleak.out" env "$comp" PMIX_MCA_pls_rmapi_command="$api" ./wrun \
    -H node2,node3 -np 4 sh -c 'test -z "$WU_DAEMON_SECRET"'
noleak=$e2e_rc
if [ "$(grep -c ' token=32 ' "$log")" -eq 4 ] && ! grep -Eq '[0-9a-f]{32}' "$log" &&
    ! grep -q 'ssh' "$log" && [ "$noleak" -eq 0 ]; then
    e2e_ok "each daemon got the 32-character token in its environment, none on a command line; no rank sees it"
else
    e2e_not_ok "the token did not reach the daemons as it should (ranks without it: rc $noleak)"
    e2e_diag "$log"
fi

# 4: through a relay: node2's wired starts node3's through the component too
: >"$log"
lab_on node1 "$e2e_tmp/relay.out" env "$comp" PMIX_MCA_pls_rmapi_command="$api" ./wrun \
    --mca routed_radix 1 -H node2,node3 -np 4 hostname
hosts=$(sort "$e2e_tmp/relay.out" | uniq -c | awk '{print $2 ":" $1}' | tr '\n' ' ')
calls=$(awk '{print $1}' "$log" | tr '\n' ' ')
if [ "$e2e_rc" -eq 0 ] && [ "$hosts" = "node2:2 node3:2 " ] && [ "$calls" = "node2 node3 " ]; then
    e2e_ok "routed_radix 1: wrun starts node2's wired, node2's wired starts node3's, both through the component"
else
    e2e_not_ok "relayed launch through the component (rc $e2e_rc; hosts: $hosts; calls: $calls)"
    e2e_diag "$e2e_tmp/relay.out"
    e2e_diag "$log"
fi

# 5-6: a node the manager refuses: the job fails at once, named with the component's words
for radix in 0 1; do
    t0=$(date +%s)
    lab_on node1 "$e2e_tmp/refuse$radix.out" env "$comp" PMIX_MCA_pls_rmapi_command="$api" \
        PMIX_MCA_pls_rmapi_refuse=node3 PMIX_MCA_routed_radix=$radix ./wrun -H node2,node3 \
        -np 4 sleep 3141
    took=$(($(date +%s) - t0))
    if [ "$e2e_rc" -eq 1 ] && [ "$took" -lt 30 ] &&
        grep -q 'could not start wired on node node3: the resource manager refused the node' \
            "$e2e_tmp/refuse$radix.out"; then
        e2e_ok "routed_radix $radix: a refused node3 fails the job in ${took} s with the component's words"
    else
        e2e_not_ok "routed_radix $radix: refused node3 (rc $e2e_rc, $took s)"
        e2e_diag "$e2e_tmp/refuse$radix.out"
    fi
done

# 7
if leftovers "the component's jobs"; then
    e2e_ok "nothing is left on any node"
else
    e2e_not_ok "leftovers on the nodes"
fi
e2e_exit
