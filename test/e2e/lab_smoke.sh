#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# TAP test (root only): the multi-node lab of test/lab/lab.sh works and goes away. A 3-node lab
# comes up; each node has its hostname; root ssh by key works between nodes; a file written on
# node1 under this test's directory is seen on node3 (the nodes share the file system);
# `lab.sh on` keeps the caller's directory and environment; the root namespace has no address
# or route of the lab; `lab.sh down` leaves no namespace, process, mount or file behind and
# writes nothing to /root/.ssh. The lab is taken down at exit whatever happens (signals too).
. "${WU_TEST_SRCDIR:-.}/test/e2e/lib.sh"
e2e_plan 8
e2e_mktemp
lab="$s/test/lab/lab.sh"
name=wls$$
WU_LAB_DIR=$e2e_tmp/lab
export WU_LAB_DIR

# smoke_skip REASON: skip every test
smoke_skip() {
    for _ in 1 2 3 4 5 6 7 8; do
        e2e_skip "$1"
    done
    e2e_exit
}
[ "$(id -u)" -eq 0 ] || smoke_skip "needs root (network, UTS and mount namespaces)"
for c in unshare nsenter mountpoint ip ssh ssh-keygen /usr/sbin/sshd; do
    command -v "$c" >/dev/null 2>&1 ||
        smoke_skip "$c is missing (contrib/deps.sh --test installs it)"
done
ip netns list >/dev/null 2>&1 || smoke_skip "'ip netns' does not work here"
unshare --net --uts --mount true 2>/dev/null || smoke_skip "cannot make namespaces here"

# the lab goes down at exit (normal end, failure, INT/TERM/HUP through lib.sh's trap)
lab_made=0
smoke_down() {
    [ "$lab_made" -eq 1 ] || return 0
    lab_made=0
    timeout 60 "$lab" down "$name" >"$e2e_tmp/down.out" 2>&1
}
trap 'smoke_down; e2e_cleanup' EXIT
ssh_before=$(ls -la --full-time /root/.ssh 2>&1)

# 1: up, and status agrees
lab_made=1
if timeout 90 "$lab" up 3 "$name" >"$e2e_tmp/up.out" 2>&1 &&
    timeout 30 "$lab" status >"$e2e_tmp/status.out" 2>&1; then
    e2e_ok "lab.sh up 3: three nodes with sshd"
    up=1
else
    e2e_not_ok "lab.sh up 3 failed"
    e2e_diag "$e2e_tmp/up.out"
    e2e_diag "$e2e_tmp/status.out"
    for f in "$WU_LAB_DIR"/log/*; do e2e_diag "$f" 10; done
    up=0
fi

if [ "$up" -eq 1 ]; then
    # 2: each node's hostname
    names=$(for k in 1 2 3; do timeout 20 "$lab" on "node$k" hostname; done 2>&1 | tr '\n' ' ')
    if [ "$names" = "node1 node2 node3 " ]; then
        e2e_ok "hostname on node1..3"
    else
        e2e_not_ok "hostname on node1..3 says: $names"
    fi

    # 3: root ssh by key between the nodes
    via=$({
        timeout 30 "$lab" on node1 ssh node2 hostname
        timeout 30 "$lab" on node1 ssh node3 hostname
        timeout 30 "$lab" on node2 ssh node1 hostname
    } 2>&1 | tr '\n' ' ')
    if [ "$via" = "node2 node3 node1 " ]; then
        e2e_ok "ssh node1->node2, node1->node3, node2->node1"
    else
        e2e_not_ok "ssh between the nodes: $via"
        for f in "$WU_LAB_DIR"/log/*; do e2e_diag "$f" 10; done
    fi

    # 4: the nodes share the file system (this test's directory)
    timeout 20 "$lab" on node1 sh -c "echo \"written on \$(hostname)\" >'$e2e_tmp/shared'"
    seen=$(timeout 20 "$lab" on node3 cat "$e2e_tmp/shared" 2>&1)
    if [ "$seen" = "written on node1" ]; then
        e2e_ok "a file written on node1 is read on node3"
    else
        e2e_not_ok "shared file system: node3 read '$seen'"
    fi

    # 5: `on` runs in the caller's directory with the caller's environment
    # shellcheck disable=SC2016
    got=$(cd "$e2e_tmp" && WU_LAB_PROBE=probe timeout 20 "$lab" on node2 \
        sh -c 'echo "$(pwd) $WU_LAB_PROBE"' 2>&1)
    if [ "$got" = "$e2e_tmp probe" ]; then
        e2e_ok "lab.sh on keeps the working directory and the environment"
    else
        e2e_not_ok "lab.sh on: expected '$e2e_tmp probe', got '$got'"
    fi

    # 6: nothing of the lab's network in the root namespace; the nodes reach only the lab
    root=$({
        ip -o addr show
        ip route show table all
    } | grep -E '198\.1[89]\.')
    routes=$(timeout 20 "$lab" on node1 ip -4 route show table main 2>&1)
    case "$routes" in
    "198.18.0.0/24 dev eth0 "*) only=yes ;;
    *) only=no ;;
    esac
    if [ -z "$root" ] && [ "$only" = yes ] && [ "$(echo "$routes" | wc -l)" -eq 1 ]; then
        e2e_ok "no lab address or route in the root namespace; node1 routes only 198.18.0.0/24"
    else
        e2e_not_ok "network isolation: root namespace has '$root'; node1 routes '$routes'"
    fi
else
    for t in "hostname" "ssh" "shared file system" "on" "network isolation"; do
        e2e_not_ok "$t (the lab is not up)"
    done
fi

# 7: down; the sshd pids and the namespace identities are kept to check that they are gone
sshd_pids=$(cat "$WU_LAB_DIR"/run/sshd.*.pid 2>/dev/null | tr '\n' ' ')
cp "$WU_LAB_DIR/ns-ids" "$e2e_tmp/ns-ids" 2>/dev/null || : >"$e2e_tmp/ns-ids"
lab_made=0
if timeout 60 "$lab" down "$name" >"$e2e_tmp/down.out" 2>&1; then
    e2e_ok "lab.sh down"
else
    e2e_not_ok "lab.sh down failed"
    e2e_diag "$e2e_tmp/down.out"
fi

# 8: nothing is left
left=
ns=$(ip netns list | awk -v p="$name-" 'index($1, p) == 1 { print $1 }' | tr '\n' ' ')
[ -z "$ns" ] || left="$left network namespaces: $ns;"
for p in $sshd_pids; do
    # (the pid may be another process's by now: only the lab's sshd names the lab's directory)
    if grep -qF "$WU_LAB_DIR" "/proc/$p/cmdline" 2>/dev/null &&
        ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
        left="$left sshd $p;"
    fi
done
if [ -s "$e2e_tmp/ns-ids" ]; then
    n=$(find /proc -mindepth 3 -maxdepth 3 -path '/proc/[0-9]*/ns/*' -printf '%l\n' 2>/dev/null |
        grep -cF -f "$e2e_tmp/ns-ids")
    [ "$n" -eq 0 ] || left="$left $n namespace links of processes still in the lab;"
else
    left="$left no record of the lab's namespaces;"
fi
m=$(awk -v d="$e2e_tmp/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | tr '\n' ' ')
[ -z "$m" ] || left="$left mounts: $m;"
[ ! -e "$WU_LAB_DIR" ] || left="$left the state directory $WU_LAB_DIR;"
[ "$(ls -la --full-time /root/.ssh 2>&1)" = "$ssh_before" ] || left="$left a change in /root/.ssh;"
if [ -z "$left" ]; then
    e2e_ok "nothing of the lab is left (namespaces, sshd, processes, mounts, files, /root/.ssh)"
else
    e2e_not_ok "left after lab.sh down:$left"
fi
e2e_exit
