#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# lab.sh -- Wireup's multi-node test lab: N "nodes" on this one machine, for the tests of
# launches across nodes (wired, pls/rsh). Root only; docs/lab.md explains it.
#
#   lab.sh up [N [NAME]]     make the lab: node1..nodeN (default 3), named NAME (default
#                            $WU_LAB_NAME or "wulab"); NAME prefixes everything the lab creates
#   lab.sh on NODE [CMD...]  run CMD (default: an interactive shell) on NODE, with the caller's
#                            environment and working directory
#   lab.sh status [NAME]     show the nodes, their sshd and processes; non-zero if not all up
#   lab.sh down [NAME]       stop and remove everything of the lab; non-zero (and a list of
#                            what is left) if anything could not be removed
#
# A node is a network namespace NAME-nodeK with its own UTS namespace (hostname nodeK) and
# mount namespace (private /run and /dev/shm; the lab's /etc/hosts and ssh client
# configuration bound over the real ones), address 198.18.0.(10+K)/24, one sshd listening on
# that address only. The nodes' eth0 are joined by the bridge br0 of one more network
# namespace, NAME-sw; nothing of the lab's network is in the root namespace. Everything else
# (/usr, /tmp, /home, ...) is the machine's own, like a shared file system.
#
# With WU_LAB_SLURM=1 the lab runs Slurm too (munged, slurmctld, a slurmd per node), and
# WU_LAB_PMIX_LIB=FILE binds FILE over OpenPMIx's libpmix in every node (lab_slurm.sh).
#
# State (keys, configuration, pid files, logs, namespace files) lives in $WU_LAB_DIR, by
# default ${TMPDIR:-/tmp}/wu-lab.NAME; `down` removes it. Every wait is bounded by
# $WU_LAB_TIMEOUT seconds (default 20). Processes are signalled by pid only.
# It is POSIX sh plus `local` (dash, bash and busybox sh have it).
# shellcheck disable=SC3043
set -u

lab_net=198.18.0
lab_timeout=${WU_LAB_TIMEOUT:-20}
lab_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
prog=${0##*/}
self=$(cd "$(dirname "$0")" && pwd)/$prog

die() {
    echo "$prog: $*" >&2
    exit 1
}

note() {
    echo "$prog: $*" >&2
}

# lab_find [NAME]: set name, dir and nodes for the lab NAME (or the one in $WU_LAB_DIR, or
# $WU_LAB_NAME, or "wulab")
lab_find() {
    name=${1:-}
    nodes=0
    if [ -n "${WU_LAB_DIR:-}" ]; then
        dir=$WU_LAB_DIR
        if [ -z "$name" ] && [ -r "$dir/lab.env" ]; then
            name=$(sed -n 's/^name=//p' "$dir/lab.env")
        fi
    fi
    [ -n "$name" ] || name=${WU_LAB_NAME:-wulab}
    case "$name" in
    *[!a-z0-9]* | "") die "lab name '$name': use 1 to 16 lower-case letters and digits" ;;
    esac
    [ ${#name} -le 16 ] || die "lab name '$name' is longer than 16 characters"
    [ -n "${WU_LAB_DIR:-}" ] || dir=${TMPDIR:-/tmp}/wu-lab.$name
    if [ -r "$dir/lab.env" ]; then
        nodes=$(sed -n 's/^nodes=//p' "$dir/lab.env")
    fi
    sw=$name-sw
}

# node_ok NODE: NODE is a node of this lab (node1..node$nodes)
node_ok() {
    case "$1" in
    node[1-9] | node[1-9][0-9]) [ "${1#node}" -le "$nodes" ] ;;
    *) return 1 ;;
    esac
}

node_addr() {
    echo "$lab_net.$((10 + ${1#node}))"
}

# in_node NODE CMD...: run CMD in NODE's namespaces with a clean environment (daemons, checks)
in_node() {
    local n="$1"
    shift
    nsenter --net="/run/netns/$name-$n" --uts="$dir/ns/$n.uts" --mount="$dir/ns/$n.mnt" -- \
        env -i PATH="$lab_path" HOME=/root LANG=C "$@"
}

# wait_until DESCRIPTION CMD...: poll CMD every 0.2 s for up to $lab_timeout seconds
wait_until() {
    local what="$1" end
    shift
    end=$(($(date +%s) + lab_timeout))
    while ! "$@" >/dev/null 2>&1; do
        if [ "$(date +%s)" -ge "$end" ]; then
            note "timed out after $lab_timeout s waiting for $what"
            return 1
        fi
        sleep 0.2
    done
}

# alive PID: PID runs (a zombie counts as gone: it only waits to be reaped)
alive() {
    local st
    st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
    [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# ns_ids: the namespace identities ("net:[INODE]" ...) of the lab: those recorded by `up`
# and those that exist now
ns_ids() {
    cat "$dir/ns-ids" 2>/dev/null
    for f in /run/netns/"$name"-*; do
        [ -e "$f" ] && echo "net:[$(stat -L -c %i "$f")]"
    done
    for f in "$dir"/ns/*.uts "$dir"/ns/*.mnt; do
        mountpoint -q "$f" 2>/dev/null || continue
        case "$f" in
        *.uts) echo "uts:[$(stat -L -c %i "$f")]" ;;
        *) echo "mnt:[$(stat -L -c %i "$f")]" ;;
        esac
    done
    return 0
}

# lab_pids: the running processes that live in one of the lab's network or mount namespaces
# (whatever runs on a node is in both, unless it made a namespace of its own)
lab_pids() {
    ids=$(ns_ids | sort -u)
    [ -n "$ids" ] || return 0
    find /proc -mindepth 3 -maxdepth 3 -path '/proc/[0-9]*/ns/*' \
        \( -name net -o -name mnt \) -printf '%l %h\n' 2>/dev/null |
        grep -F -e "$ids" | sed 's|.* /proc/\([0-9]*\)/ns$|\1|' | sort -un |
        while read -r p; do
            [ "$p" != $$ ] && alive "$p" && echo "$p"
        done
    return 0
}

# lab_netns: the network namespaces named after the lab
lab_netns() {
    ip netns list 2>/dev/null | awk -v p="$name-" 'index($1, p) == 1 { print $1 }'
}

# lab_mounts: mount points under the lab's directory (in this mount namespace)
lab_mounts() {
    awk -v d="$dir" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo
}

# in_lab: the caller itself lives in the lab (up and down must run outside it)
in_lab() {
    local me
    me=$(readlink /proc/self/ns/net)
    ns_ids | grep -qxF "$me"
}

# kill_all SIGNAL SECONDS: send SIGNAL to every process of the lab, and wait until they are
# gone: out of the lab's namespaces and, as a process leaves its namespaces before it has quite
# ended, no longer running either (only processes seen in the lab are signalled)
kill_all() {
    local pids end p busy
    pids=$(lab_pids)
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086
    kill -s "$1" $pids 2>/dev/null
    end=$(($(date +%s) + $2))
    while [ "$(date +%s)" -lt "$end" ]; do
        sleep 0.2
        busy=$(lab_pids)
        for p in $pids; do
            alive "$p" && busy="$busy $p"
        done
        [ -n "$busy" ] || return 0
    done
}

# ---------------------------------------------------------------------------- down

lab_down() {
    # sshd first (so no new sessions start), then whatever else runs in the lab
    for f in "$dir"/run/sshd.*.pid; do
        [ -f "$f" ] || continue
        p=$(cat "$f" 2>/dev/null)
        [ -n "$p" ] && alive "$p" && grep -q sshd "/proc/$p/comm" 2>/dev/null && kill "$p" 2>/dev/null
    done
    kill_all TERM 5
    kill_all KILL 5
    # the namespace files, then the network namespaces (their veths and the bridge go with
    # them)
    for f in "$dir"/ns/*.uts "$dir"/ns/*.mnt; do
        mountpoint -q "$f" 2>/dev/null && { umount "$f" 2>/dev/null || umount -l "$f"; }
    done
    while mountpoint -q "$dir/ns" 2>/dev/null; do
        umount "$dir/ns" 2>/dev/null || umount -l "$dir/ns" || break
    done
    for n in $(lab_netns); do
        ip netns del "$n" || note "could not delete network namespace $n"
    done
    # what is left?
    left=
    p=$(lab_pids | tr '\n' ' ')
    [ -z "$p" ] || left="$left
  processes: $p"
    n=$(lab_netns | tr '\n' ' ')
    [ -z "$n" ] || left="$left
  network namespaces: $n"
    m=$(lab_mounts | tr '\n' ' ')
    [ -z "$m" ] || left="$left
  mounts: $m"
    if [ -n "$left" ]; then
        note "lab $name is not completely down; left:$left"
        return 1
    fi
    if [ -d "$dir" ]; then
        rm -rf --one-file-system -- "$dir" || {
            note "could not remove $dir"
            return 1
        }
    fi
    return 0
}

# ------------------------------------------------------------------------------ up

# lab_config: keys and configuration files
lab_config() {
    ssh-keygen -q -t ed25519 -N '' -C "wu-lab-$name" -f "$dir/ssh/id_ed25519" || return 1
    cp "$dir/ssh/id_ed25519.pub" "$dir/ssh/authorized_keys" || return 1
    : >"$dir/ssh/known_hosts"
    {
        echo "# /etc/hosts of the nodes of lab $name (bind-mounted there)"
        echo "127.0.0.1 localhost"
    } >"$dir/etc/hosts"
    i=1
    while [ "$i" -le "$nodes" ]; do
        n=node$i
        ssh-keygen -q -t ed25519 -N '' -C "$n" -f "$dir/ssh/host.$n" || return 1
        echo "$n,$(node_addr "$n") $(cut -d' ' -f1-2 "$dir/ssh/host.$n.pub")" >>"$dir/ssh/known_hosts"
        echo "$(node_addr "$n") $n" >>"$dir/etc/hosts"
        i=$((i + 1))
    done
    # the ssh client of the nodes: the lab's key, the lab's host keys only, never a prompt
    cat >"$dir/ssh/ssh_config" <<EOF
# ssh client of the nodes of lab $name (bind-mounted over /etc/ssh/ssh_config there)
Host *
    User root
    IdentityFile $dir/ssh/id_ed25519
    IdentitiesOnly yes
    UserKnownHostsFile $dir/ssh/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    UpdateHostKeys no
    CheckHostIP no
    BatchMode yes
    ConnectTimeout 5
    LogLevel ERROR
EOF
    # sshd of the nodes: key login of root only; address, host key and pid file per node
    # on the command line
    cat >"$dir/ssh/sshd_config" <<EOF
# sshd of the nodes of lab $name (ListenAddress, HostKey, PidFile given per node)
Port 22
AddressFamily inet
PermitRootLogin prohibit-password
PubkeyAuthentication yes
AuthorizedKeysFile $dir/ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
MaxStartups 200:30:400
MaxSessions 100
LogLevel INFO
EOF
}

# first_cpu: the lowest CPU this process may run on
first_cpu() {
    taskset -pc $$ | sed 's/.*: *//; s/[-,].*//'
}

# lab_node NODE: make NODE's namespaces, link it to the bridge, set its address
lab_node() {
    local n="$1" ns="$name-$1"
    ip netns add "$ns" || return 1
    # shellcheck disable=SC2016
    nsenter --net="/run/netns/$ns" sh -c 'for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
        /proc/sys/net/ipv6/conf/default/disable_ipv6; do [ -w "$f" ] && echo 1 >"$f"; done; true'
    ip -n "$sw" link add "p${n#node}" type veth peer name eth0 netns "$ns" || return 1
    ip -n "$sw" link set "p${n#node}" master br0 up || return 1
    ip -n "$ns" link set lo up || return 1
    ip -n "$ns" addr add "$(node_addr "$n")/24" dev eth0 || return 1
    ip -n "$ns" link set eth0 up || return 1
    touch "$dir/ns/$n.uts" "$dir/ns/$n.mnt" || return 1
    # made on the first CPU this shell may use, as the namespace lab.sh runs in should be: the
    # kernel refuses to bind a mount namespace whose id is not above the caller's own, and ids
    # come in per-CPU batches (in a nested namespace, as in contrib/deb13.sh, one made on
    # another CPU may get a lower id; taskset pins the unshare only)
    taskset -c "$(first_cpu)" nsenter --net="/run/netns/$ns" -- unshare --uts="$dir/ns/$n.uts" \
        --mount="$dir/ns/$n.mnt" --propagation private -- /bin/sh "$self" _init "$n" "$dir" ||
        return 1
    {
        echo "net:[$(stat -L -c %i "/run/netns/$ns")]"
        echo "uts:[$(stat -L -c %i "$dir/ns/$n.uts")]"
        echo "mnt:[$(stat -L -c %i "$dir/ns/$n.mnt")]"
    } >>"$dir/ns-ids"
}

# lab_init NODE DIR: run inside NODE's new UTS and mount namespaces (by lab_node)
lab_init() {
    set -e
    hostname "$1"
    # the copies of the other nodes' namespace files and of /run/netns came along with the
    # mount table: drop them, so that this node holds no reference to the others
    umount -l "$2/ns" 2>/dev/null || true
    umount -R -l /run/netns 2>/dev/null || true
    # a /run and /dev/shm of its own, as on a real node
    mount -t tmpfs -o mode=0755,size=16m "wu-lab-run-$1" /run
    mkdir -m 0755 /run/sshd
    mkdir -m 1777 /run/lock
    mount -t tmpfs -o mode=1777 "wu-lab-shm-$1" /dev/shm
    mount --bind "$2/etc/hosts" /etc/hosts
    mount --bind "$2/ssh/ssh_config" /etc/ssh/ssh_config
    slurm_bind_pmix "$2"
}

# lab_sshd NODE: start NODE's sshd and wait for its pid file
lab_sshd() {
    local n="$1"
    in_node "$n" /usr/sbin/sshd -f "$dir/ssh/sshd_config" -o "ListenAddress=$(node_addr "$n")" \
        -o "HostKey=$dir/ssh/host.$n" -o "PidFile=$dir/run/sshd.$n.pid" \
        -E "$dir/log/sshd.$n.log" || return 1
    wait_until "the sshd of $n (log: $dir/log/sshd.$n.log)" test -s "$dir/run/sshd.$n.pid"
}

lab_up() {
    count=${1:-3}
    case "$count" in
    [1-9] | [1-9][0-9]) ;;
    *) die "up: the number of nodes must be 1..99, not '$count'" ;;
    esac
    [ "$(id -u)" -eq 0 ] || die "up: the lab needs root (network, UTS and mount namespaces)"
    for c in ip nsenter unshare mountpoint ssh ssh-keygen /usr/sbin/sshd; do
        command -v "$c" >/dev/null 2>&1 ||
            die "up: $c is missing (contrib/deps.sh --test installs iproute2, util-linux, openssh-server, openssh-client)"
    done
    [ -e /etc/ssh/ssh_config ] || die "up: /etc/ssh/ssh_config is missing (openssh-client)"
    [ -z "$(lab_netns)" ] || die "up: a lab named $name exists (network namespaces: $(lab_netns |
        tr '\n' ' ')); take it down with '$prog down $name' or choose another name"
    [ ! -e "$dir/lab.env" ] || die "up: $dir holds a lab already; '$prog down $name' first"
    nodes=$count
    # from here on, a failure or a signal takes down what was made
    trap 'trap - EXIT; note "up: interrupted, taking lab $name down"; lab_down; exit 1' INT TERM HUP
    trap 'lab_down' EXIT
    pmix_lib=
    if [ -n "${WU_LAB_PMIX_LIB:-}" ]; then
        [ -f "$WU_LAB_PMIX_LIB" ] || die "up: WU_LAB_PMIX_LIB=$WU_LAB_PMIX_LIB: no such file"
        pmix_lib=$(readlink -f "$WU_LAB_PMIX_LIB")
    fi
    if ! { mkdir -p "$dir/ns" "$dir/ssh" "$dir/etc" "$dir/run" "$dir/log" && chmod 0700 "$dir" &&
        printf 'name=%s\nnodes=%s\nslurm=%s\npmix_lib=%s\n' "$name" "$nodes" \
            "${WU_LAB_SLURM:-0}" "$pmix_lib" >"$dir/lab.env"; }; then
        die "up: cannot write $dir"
    fi
    lab_config || die "up: cannot make the keys and configuration in $dir"
    # namespace files can only be bound on a mount that is not shared: $dir/ns on itself
    if ! { mount --bind "$dir/ns" "$dir/ns" && mount --make-private "$dir/ns"; }; then
        die "up: cannot make $dir/ns a private mount"
    fi
    if ! { ip netns add "$sw" && ip -n "$sw" link add br0 type bridge &&
        ip -n "$sw" link set lo up && ip -n "$sw" link set br0 up; }; then
        die "up: cannot make the bridge's namespace $sw"
    fi
    i=1
    while [ "$i" -le "$nodes" ]; do
        lab_node "node$i" || die "up: cannot make node$i"
        i=$((i + 1))
    done
    i=1
    while [ "$i" -le "$nodes" ]; do
        lab_sshd "node$i" || die "up: the sshd of node$i did not start (see $dir/log/sshd.node$i.log)"
        i=$((i + 1))
    done
    # every node answers ssh from node1 (proves the bridge, the keys, the configuration)
    i=1
    while [ "$i" -le "$nodes" ]; do
        wait_until "ssh from node1 to node$i" in_node node1 ssh -n "node$i" true ||
            die "up: ssh from node1 to node$i fails (see $dir/log/sshd.node$i.log)"
        i=$((i + 1))
    done
    [ "${WU_LAB_SLURM:-0}" != 1 ] || slurm_up
    trap - EXIT INT TERM HUP
    echo "lab $name is up: node1..node$nodes ($lab_net.11-$((10 + nodes))), state in $dir"
}

# -------------------------------------------------------------------------- status

lab_status() {
    [ -r "$dir/lab.env" ] || {
        echo "lab $name: not up (no $dir/lab.env)"
        [ -z "$(lab_netns)" ] || echo "  but network namespaces are left: $(lab_netns | tr '\n' ' ')"
        return 1
    }
    rc=0
    echo "lab $name: $nodes nodes, state in $dir"
    i=1
    while [ "$i" -le "$nodes" ]; do
        n=node$i
        s="no sshd"
        p=$(cat "$dir/run/sshd.$n.pid" 2>/dev/null)
        if [ -n "$p" ] && alive "$p"; then s="sshd $p"; else rc=1; fi
        if [ -e "/run/netns/$name-$n" ] && mountpoint -q "$dir/ns/$n.mnt"; then
            h=$(in_node "$n" hostname 2>/dev/null)
        else
            h="(no namespaces)"
            rc=1
        fi
        echo "  $n $(node_addr "$n") hostname $h, $s"
        i=$((i + 1))
    done
    echo "  processes in the lab: $(lab_pids | wc -l)"
    return $rc
}

. "$(dirname "$self")/lab_slurm.sh"

# ---------------------------------------------------------------------------- main

[ $# -ge 1 ] || die "usage: $prog up [N [NAME]] | on NODE [CMD...] | status [NAME] | down [NAME]"
cmd=$1
shift
case "$cmd" in
up)
    lab_find "${2:-}"
    in_lab && die "up: run it outside the lab"
    lab_up "${1:-3}"
    ;;
on)
    [ $# -ge 1 ] || die "usage: $prog on NODE [CMD...]"
    lab_find
    node_ok "$1" || die "on: no node '$1' in lab $name (state: $dir; nodes: $nodes)"
    mountpoint -q "$dir/ns/$1.mnt" 2>/dev/null || die "on: $1 of lab $name is not up"
    n=$1
    shift
    [ $# -ge 1 ] || set -- "${SHELL:-/bin/sh}" -i
    if [ -r "$dir/slurm/slurm.conf" ]; then
        SLURM_CONF=$dir/slurm/slurm.conf
        export SLURM_CONF
    fi
    # shellcheck disable=SC2016
    # nsenter leaves us at the root of the node's file system: go back to the caller's
    # directory, which the node shares
    exec nsenter --net="/run/netns/$name-$n" --uts="$dir/ns/$n.uts" --mount="$dir/ns/$n.mnt" -- \
        /bin/sh -c 'cd "$1" || exit 1; shift; exec "$@"' "$prog on $n" "$PWD" "$@"
    ;;
status)
    lab_find "${1:-}"
    lab_status
    ;;
down)
    [ "$(id -u)" -eq 0 ] || die "down: the lab needs root"
    lab_find "${1:-}"
    in_lab && die "down: run it outside the lab"
    lab_down
    ;;
_init)
    lab_init "$@"
    ;;
*)
    die "unknown command '$cmd' (up, on, status, down)"
    ;;
esac
