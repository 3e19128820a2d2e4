# SPDX-License-Identifier: BSD-3-Clause
# e2e_mpi4py.py -- run by mpi4py.sh under wrun: mpi4py (Debian's python3-mpi4py on Open MPI)
# using what the launcher provides. One mode per run; every rank prints
# "mpi4py MODE: rank R ok" when its checks pass, else the reason, and exits 1.
#   world    size and rank, allreduce, allgather, alltoall and bcast of objects
#   spawn    COMM_WORLD.Spawn of 2 children of this script, Spawn_multiple of 2 commands;
#            parents and children exchange over the intercommunicator
#   child    (run by spawn) the spawned side
#   dpm      Open_port, Publish_name, Lookup_name and Accept/Connect between the two halves of
#            the job (even ranks accept, odd ranks connect); needs an even number of ranks
#   futures  mpi4py.futures.MPIPoolExecutor with 2 workers (spawned) maps a function
#   abort    rank size-1 calls COMM_WORLD.Abort(5); the others wait in a barrier
import os
import sys

from mpi4py import MPI

world = MPI.COMM_WORLD
rank = world.Get_rank()
size = world.Get_size()
mode = sys.argv[1] if len(sys.argv) > 1 else "world"


def fail(why):
    print(f"mpi4py {mode}: rank {rank} FAILED: {why}", flush=True)
    sys.exit(1)


def check(cond, why):
    if not cond:
        fail(why)


def do_world():
    check(size == int(os.environ.get("OMPI_COMM_WORLD_SIZE", size)), "size differs from env")
    check(world.allreduce(rank + 1) == size * (size + 1) // 2, "allreduce sum")
    check(world.allgather(rank) == list(range(size)), "allgather")
    got = world.alltoall([(rank, dst) for dst in range(size)])
    check(got == [(src, rank) for src in range(size)], f"alltoall: {got}")
    token = world.bcast({"from": 0, "n": size} if rank == 0 else None, root=0)
    check(token == {"from": 0, "n": size}, "bcast")
    name = MPI.Get_processor_name()
    check(len(name) > 0, "processor name")


def do_spawn():
    script = os.path.abspath(__file__)
    inter = world.Spawn(sys.executable, args=[script, "child"], maxprocs=2, root=0)
    check(inter.Get_remote_size() == 2, f"remote size {inter.Get_remote_size()}")
    # the children send their rank + 10 to every parent rank
    got = inter.allgather(rank)
    check(got == [10, 11], f"children's allgather: {got}")
    inter.Disconnect()
    cmds = [sys.executable, sys.executable]
    argvs = [[script, "child"], [script, "child"]]
    inter = world.Spawn_multiple(cmds, argvs, [1, 1], root=0)
    check(inter.Get_remote_size() == 2, "spawn_multiple remote size")
    got = inter.allgather(rank)
    check(got == [10, 11], f"spawn_multiple children's allgather: {got}")
    inter.Disconnect()


def do_child():
    parent = MPI.Comm.Get_parent()
    check(parent != MPI.COMM_NULL, "no parent")
    got = parent.allgather(rank + 10)
    check(got == list(range(parent.Get_remote_size())), f"parents' allgather: {got}")
    parent.Disconnect()


def do_dpm():
    check(size % 2 == 0, "needs an even number of ranks")
    half = world.Split(rank % 2, rank)
    service = f"wu-mpi4py-{os.environ.get('PMIX_NAMESPACE', 'job')}"
    if rank % 2 == 0:
        port = MPI.Open_port() if rank == 0 else None
        if rank == 0:
            MPI.Publish_name(service, port)
        world.Barrier()
        inter = half.Accept(port, root=0)
    else:
        world.Barrier()
        port = MPI.Lookup_name(service) if rank == 1 else None
        inter = half.Connect(port, root=0)
    check(inter.Get_remote_size() == size // 2, "remote size after accept/connect")
    got = inter.allreduce(rank, op=MPI.SUM)
    other = sum(r for r in range(size) if r % 2 != rank % 2)
    check(got == other, f"allreduce over the intercommunicator: {got} != {other}")
    inter.Disconnect()
    if rank == 0:
        MPI.Unpublish_name(service, port)
        MPI.Close_port(port)
    half.Free()


def square(x):
    return x * x


def do_futures():
    from mpi4py.futures import MPIPoolExecutor

    if rank == 0:
        with MPIPoolExecutor(max_workers=2) as pool:
            got = list(pool.map(square, range(8)))
        check(got == [x * x for x in range(8)], f"pool map: {got}")
    world.Barrier()


def do_abort():
    if rank == size - 1:
        print(f"mpi4py abort: rank {rank} aborting", flush=True)
        world.Abort(5)
    world.Barrier()
    fail("the barrier returned after an abort")


modes = {"world": do_world, "spawn": do_spawn, "child": do_child, "dpm": do_dpm,
         "futures": do_futures, "abort": do_abort}
if mode not in modes:
    fail(f"unknown mode {mode}")
if mode != "futures" or __name__ == "__main__":
    modes[mode]()
    if mode != "child":
        print(f"mpi4py {mode}: rank {rank} ok", flush=True)
