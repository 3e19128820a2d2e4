# SPDX-License-Identifier: BSD-3-Clause
# lab_slurm.sh -- sourced by lab.sh: Slurm in the lab (WU_LAB_SLURM=1 at `lab.sh up`), for the
# tests of Wireup as the PMIx library of Slurm 22.05's mpi/pmix plugin and of wrun inside
# allocations. node1 runs munged (its socket in the lab's directory, which every node shares)
# and slurmctld; every node runs a slurmd; all read $dir/slurm/slurm.conf (`lab.sh on` exports
# SLURM_CONF). Partition "lab" holds every node, WU_LAB_CPUS (default 4) CPUs each.
#
# WU_LAB_PMIX_LIB=FILE at `up` binds FILE over OpenPMIx's library inside every node (Slurm's
# plugin dlopen()s that fixed path; slurmstepd, the tasks and Open MPI then all load FILE).
# lab.sh down stops the daemons with everything else of the lab.
# shellcheck shell=sh disable=SC3043

slurm_conf() {
    local i=1 cpus=${WU_LAB_CPUS:-4}
    mkdir -p "$dir/slurm/state" || return 1
    : >"$dir/slurm/plugstack.conf" || return 1
    {
        echo "# Slurm of lab $name (lab_slurm.sh)"
        echo "ClusterName=$name"
        echo "SlurmctldHost=node1($(node_addr node1))"
        echo "SlurmUser=root"
        echo "SlurmdUser=root"
        echo "AuthType=auth/munge"
        echo "CredType=cred/munge"
        echo "AuthInfo=socket=$dir/run/munge.sock"
        echo "StateSaveLocation=$dir/slurm/state"
        echo "SlurmdSpoolDir=/run/slurm-spool" # each node's own (mpi/pmix does not expand %n)
        echo "SlurmctldPidFile=$dir/run/slurmctld.pid"
        echo "SlurmdPidFile=$dir/run/slurmd.%n.pid"
        echo "SlurmctldLogFile=$dir/log/slurmctld.log"
        echo "SlurmdLogFile=$dir/log/slurmd.%n.log"
        echo "PlugStackConfig=$dir/slurm/plugstack.conf"
        echo "TmpFS=/run/slurm-tmp" # each node's own (the shared /tmp would clash)
        echo "ProctrackType=proctrack/linuxproc"
        echo "TaskPlugin=task/affinity"
        echo "SelectType=select/cons_tres"
        echo "SelectTypeParameters=CR_Core"
        echo "MpiDefault=none"
        echo "SwitchType=switch/none"
        echo "JobAcctGatherType=jobacct_gather/none"
        echo "AccountingStorageType=accounting_storage/none"
        echo "JobCompType=jobcomp/none"
        echo "SchedulerType=sched/builtin"
        echo "MailProg=/bin/true"
        echo "ReturnToService=2"
        echo "SlurmdParameters=config_overrides"
        echo "InactiveLimit=0"
        echo "KillWait=5"
        echo "MinJobAge=5"
        echo "MessageTimeout=10"
        while [ "$i" -le "$nodes" ]; do
            echo "NodeName=node$i NodeAddr=$(node_addr "node$i") CPUs=$cpus State=UNKNOWN"
            i=$((i + 1))
        done
        # whole nodes, as most clusters allocate them (salloc -N 3 gets every CPU)
        echo "PartitionName=lab Nodes=node[1-$nodes] Default=YES MaxTime=INFINITE State=UP OverSubscribe=EXCLUSIVE"
    } >"$dir/slurm/slurm.conf"
}

# slurm_idle: every node of the partition is idle
slurm_idle() {
    local states
    states=$(in_node node1 env SLURM_CONF="$dir/slurm/slurm.conf" sinfo -h -N -o %t 2>/dev/null |
        sort -u | tr '\n' ' ')
    [ "$states" = "idle " ]
}

slurm_up() {
    local i=1 c
    for c in munged mungekey slurmctld slurmd sinfo srun; do
        command -v "$c" >/dev/null 2>&1 ||
            die "up: $c is missing (contrib/deps.sh --test installs slurm-wlm and munge)"
    done
    slurm_conf || die "up: cannot write the Slurm configuration in $dir/slurm"
    mungekey -c -k "$dir/slurm/munge.key" >/dev/null 2>&1 || die "up: mungekey failed"
    in_node node1 munged --force --socket="$dir/run/munge.sock" --key-file="$dir/slurm/munge.key" \
        --log-file="$dir/log/munged.log" --pid-file="$dir/run/munged.pid" \
        --seed-file="$dir/slurm/munged.seed" || die "up: munged did not start ($dir/log/munged.log)"
    wait_until "munged (log: $dir/log/munged.log)" test -S "$dir/run/munge.sock" ||
        die "up: munged did not start"
    in_node node1 env SLURM_CONF="$dir/slurm/slurm.conf" slurmctld ||
        die "up: slurmctld did not start ($dir/log/slurmctld.log)"
    while [ "$i" -le "$nodes" ]; do
        in_node "node$i" env SLURM_CONF="$dir/slurm/slurm.conf" slurmd ||
            die "up: the slurmd of node$i did not start ($dir/log/slurmd.node$i.log)"
        i=$((i + 1))
    done
    wait_until "every node idle in Slurm (logs: $dir/log/slurm*.log)" slurm_idle ||
        die "up: Slurm's nodes did not become idle"
}

# slurm_bind_pmix DIR: inside a node being made (lab_init): the node's TmpFS and spool
# directory, and WU_LAB_PMIX_LIB over OpenPMIx's library
slurm_bind_pmix() {
    local lib target
    mkdir -m 1777 /run/slurm-tmp
    mkdir -m 0755 /run/slurm-spool
    lib=$(sed -n 's/^pmix_lib=//p' "$1/lab.env")
    [ -n "$lib" ] || return 0
    target=$(readlink -f /usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so) ||
        die "up: OpenPMIx's library is not installed (libpmix-dev): nothing to bind over"
    mount --bind "$lib" "$target"
}
