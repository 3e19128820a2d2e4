#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# e2e_pmi.py -- a process that speaks MPICH's simple PMI by hand on the PMI_FD wrun gives it,
# for test/e2e/mpich.sh: every command of the wire contract MPICH's clients use, and answers
# checked word for word.
#
#   e2e_pmi.py v1       PMI-1: init, maxes, appnum, kvsname, universe size, put, barrier, get of
#                       every rank's key and of a missing one, PMI_process_mapping, finalize
#   e2e_pmi.py v2       the same through PMI-2 (init pmi_version=2, then fullinit, kvs-put,
#                       kvs-fence, kvs-get, info-getjobattr, node attributes, thrid echoed)
#   e2e_pmi.py names1|names2  the name service through PMI-1 / PMI-2: rank 0 publishes (a
#                       second publish of the name is refused), every rank looks it up, rank 0
#                       unpublishes, a lookup fails (the name is svc-$WU_TEST_TAG)
#   e2e_pmi.py spawn1|spawn2  rank 0 (or $E2E_SPAWNER) spawns 2 processes of child1 / child2 (PMI-1's multi-line
#                       spawn, PMI-2's spawn) with the preput PARENT_ROOT_PORT_NAME=port-xyz; the
#                       children check PMI_SPAWNED (spawner-jobid), their size and the value
#   e2e_pmi.py stuck    every rank but the last enters a barrier the last never reaches
#   e2e_pmi.py badrank  PMI-2 fullinit naming another rank: refused (rc=-1), then finalize
#   e2e_pmi.py garbage  a line that is not PMI: the connection is closed, the process goes on
#   e2e_pmi.py huge     70000 bytes without a newline: the same
# Prints "pmi RANK: MODE ok" (rank 0 also "mapping: M"), or "pmi RANK: FAIL what" and exits 1.
import os
import re
import socket
import sys
import time

mode = sys.argv[1]
rank = int(os.environ["PMI_RANK"])
size = int(os.environ["PMI_SIZE"])
sock = socket.socket(fileno=int(os.environ["PMI_FD"]))
buf = b""


def fail(what):
    print("pmi %d: FAIL %s" % (rank, what), flush=True)
    sys.exit(1)


def send(text):
    sock.sendall(text.encode())


def line():
    global buf
    while b"\n" not in buf:
        got = sock.recv(65536)
        if not got:
            fail("connection closed while waiting for an answer")
        buf += got
    one, buf = buf.split(b"\n", 1)
    return one.decode()


def v1(text):
    """one PMI-1 request, its answer as a dict"""
    send(text + "\n")
    words = re.split(r"(?<!\\) ", line())  # a value keeps its escaped spaces
    return dict(w.split("=", 1) for w in words)


def v2(text):
    """one PMI-2 request (length added), its answer as a dict"""
    global buf
    send("%-6d%s" % (len(text), text))
    while len(buf) < 6 or len(buf) < 6 + int(buf[:6]):
        got = sock.recv(65536)
        if not got:
            fail("connection closed while waiting for an answer")
        buf += got
    n = int(buf[:6])
    body, buf = buf[6:6 + n].decode(), buf[6 + n:]
    return dict(w.split("=", 1) for w in body.split(";") if w)


def expect(ans, **want):
    for k, v in want.items():
        if ans.get(k) != v:
            fail("answer %r: %s should be %r" % (ans, k, v))
    return ans


if mode == "v1":
    expect(v1("cmd=init pmi_version=1 pmi_subversion=1"), cmd="response_to_init", rc="0")
    expect(v1("cmd=get_maxes"), cmd="maxes", kvsname_max="256", keylen_max="64",
           vallen_max="1024")
    expect(v1("cmd=get_appnum"), cmd="appnum", appnum="0")
    kvs = expect(v1("cmd=get_my_kvsname"), cmd="my_kvsname")["kvsname"]
    expect(v1("cmd=get_universe_size"), cmd="universe_size", size=str(size))
    expect(v1("cmd=put kvsname=%s key=k%d value=v%d\\ x" % (kvs, rank, rank)), cmd="put_result",
           rc="0")
    expect(v1("cmd=barrier_in"), cmd="barrier_out")
    for r in range(size):
        expect(v1("cmd=get kvsname=%s key=k%d" % (kvs, r)), cmd="get_result", rc="0",
               value="v%d\\ x" % r)
    expect(v1("cmd=get kvsname=%s key=nothing" % kvs), cmd="get_result", rc="-1")
    m = expect(v1("cmd=get kvsname=%s key=PMI_process_mapping" % kvs), cmd="get_result",
               rc="0")["value"]
    expect(v1("cmd=finalize"), cmd="finalize_ack")
elif mode == "v2":
    expect(v1("cmd=init pmi_version=2 pmi_subversion=0"), cmd="response_to_init",
           pmi_version="2", rc="0")
    expect(v2("cmd=fullinit;pmirank=%d;" % rank), cmd="fullinit-response", rank=str(rank),
           size=str(size), appnum="0", rc="0")
    jobid = expect(v2("cmd=job-getid;thrid=0x1234;"), cmd="job-getid-response",
                   thrid="0x1234", rc="0")["jobid"]
    expect(v2("cmd=kvs-put;key=k%d;value=v %d;" % (rank, rank)), cmd="kvs-put-response", rc="0")
    expect(v2("cmd=kvs-fence;thrid=0x55;"), cmd="kvs-fence-response", thrid="0x55", rc="0")
    for r in range(size):
        expect(v2("cmd=kvs-get;jobid=%s;srcid=%d;key=k%d;" % (jobid, r, r)),
               cmd="kvs-get-response", found="TRUE", value="v %d" % r, rc="0")
    expect(v2("cmd=kvs-get;jobid=%s;srcid=-1;key=nothing;" % jobid), cmd="kvs-get-response",
           found="FALSE", rc="0")
    m = expect(v2("cmd=info-getjobattr;key=PMI_process_mapping;"),
               cmd="info-getjobattr-response", found="TRUE", rc="0")["value"]
    expect(v2("cmd=info-getjobattr;key=universeSize;"), found="TRUE", value=str(size))
    expect(v2("cmd=info-getjobattr;key=nosuchattr;"), found="FALSE", rc="0")
    # node attributes: each node's first rank puts one after a pause, the node's others wait
    # for it (wait=TRUE holds their answer until it is put)
    expect(v2("cmd=kvs-fence;"), cmd="kvs-fence-response", rc="0")
    if os.environ["MPI_LOCALRANKID"] == "0":
        time.sleep(0.5)
        expect(v2("cmd=info-putnodeattr;key=shm;value=seg%d;" % rank),
               cmd="info-putnodeattr-response", rc="0")
    a = expect(v2("cmd=info-getnodeattr;key=shm;wait=TRUE;thrid=7;"),
               cmd="info-getnodeattr-response", found="TRUE", thrid="7")["value"]
    if int(a[3:]) > rank or rank - int(a[3:]) >= int(os.environ["MPI_LOCALNRANKS"]) * size:
        fail("node attribute %s is not from this node's first rank" % a)
    expect(v2("cmd=info-getnodeattr;key=other;"), found="FALSE", rc="0")
    expect(v2("cmd=finalize;"), cmd="finalize-response", rc="0")
elif mode in ("names1", "names2"):
    # rank 0 publishes a service, every rank finds it, rank 0 withdraws it, nobody finds it
    svc = "svc-%s" % os.environ["WU_TEST_TAG"]
    if mode == "names1":
        expect(v1("cmd=init pmi_version=1 pmi_subversion=1"), rc="0")
        if rank == 0:
            expect(v1("cmd=publish_name service=%s port=tcp://h:1$x" % svc),
                   cmd="publish_result", rc="0")
            expect(v1("cmd=publish_name service=%s port=other" % svc), cmd="publish_result",
                   rc="-1")
        expect(v1("cmd=barrier_in"), cmd="barrier_out")
        expect(v1("cmd=lookup_name service=%s" % svc), cmd="lookup_result", rc="0",
               port="tcp://h:1$x")
        expect(v1("cmd=barrier_in"), cmd="barrier_out")
        if rank == 0:
            expect(v1("cmd=unpublish_name service=%s" % svc), cmd="unpublish_result", rc="0")
        expect(v1("cmd=barrier_in"), cmd="barrier_out")
        expect(v1("cmd=lookup_name service=%s" % svc), cmd="lookup_result", rc="-1")
        expect(v1("cmd=finalize"), cmd="finalize_ack")
    else:
        expect(v1("cmd=init pmi_version=2 pmi_subversion=0"), rc="0")
        expect(v2("cmd=fullinit;pmirank=%d;" % rank), rc="0")
        if rank == 0:
            expect(v2("cmd=name-publish;thrid=9;name=%s;port=p 1;" % svc),
                   cmd="name-publish-response", thrid="9", rc="0")
        expect(v2("cmd=kvs-fence;"), rc="0")
        expect(v2("cmd=name-lookup;name=%s;" % svc), cmd="name-lookup-response", port="p 1",
               rc="0")
        expect(v2("cmd=kvs-fence;"), rc="0")
        if rank == 0:
            expect(v2("cmd=name-unpublish;name=%s;" % svc), cmd="name-unpublish-response",
                   rc="0")
        expect(v2("cmd=kvs-fence;"), rc="0")
        expect(v2("cmd=name-lookup;name=%s;" % svc), cmd="name-lookup-response", rc="-1")
        expect(v2("cmd=finalize;"), rc="0")
elif mode in ("spawn1", "spawn2"):
    # rank 0 spawns 2 processes of this script ("child1"/"child2") with a preput value; the
    # others just finish
    me = os.path.abspath(__file__)
    child = "child" + mode[-1]
    spawner = int(os.environ.get("E2E_SPAWNER", "0"))
    if mode == "spawn1":
        expect(v1("cmd=init pmi_version=1 pmi_subversion=1"), rc="0")
        if rank == spawner:
            send("mcmd=spawn\nnprocs=2\nexecname=%s\ntotspawns=1\nspawnssofar=1\n"
                 "arg1=%s\narg2=%s\narg3=\nargcnt=3\npreput_num=1\n"
                 "preput_key_0=PARENT_ROOT_PORT_NAME\npreput_val_0=port-xyz\ninfo_num=1\n"
                 "info_key_0=wdir\ninfo_val_0=/\nendcmd\n" % (sys.executable, me, child))
            expect(dict(w.split("=", 1) for w in line().split(" ")), cmd="spawn_result",
                   rc="0", errcodes="0,0")
        expect(v1("cmd=finalize"), cmd="finalize_ack")
    else:
        expect(v1("cmd=init pmi_version=2 pmi_subversion=0"), rc="0")
        expect(v2("cmd=fullinit;pmirank=%d;" % rank), rc="0")
        if rank == spawner:
            ans = expect(v2("cmd=spawn;thrid=3;ncmds=1;preputcount=1;"
                            "ppkey0=PARENT_ROOT_PORT_NAME;ppval0=port-xyz;subcmd=%s;maxprocs=2;"
                            "argc=3;argv1=%s;argv2=%s;argv3=;infokeycount=0;"
                            % (sys.executable, me, child)), cmd="spawn-response", thrid="3",
                         rc="0")
            print("spawned " + ans["jobid"], flush=True)
        expect(v2("cmd=finalize;"), rc="0")
elif mode == "child1":
    # a spawned process: PMI_SPAWNED, its own size, the parent's preput value
    if os.environ.get("PMI_SPAWNED") != "1" or size != 2:
        fail("PMI_SPAWNED %s, size %d" % (os.environ.get("PMI_SPAWNED"), size))
    if sys.argv[2:] != [""]:
        fail("arguments %r, not [''] (an empty string)" % sys.argv[2:])
    expect(v1("cmd=init pmi_version=1 pmi_subversion=1"), rc="0")
    kvs = v1("cmd=get_my_kvsname")["kvsname"]
    expect(v1("cmd=get kvsname=%s key=PARENT_ROOT_PORT_NAME" % kvs), rc="0", value="port-xyz")
    if os.getcwd() != "/":
        fail("working directory %s, not / (info wdir)" % os.getcwd())
    expect(v1("cmd=finalize"), cmd="finalize_ack")
elif mode == "child2":
    if sys.argv[2:] != [""]:
        fail("arguments %r, not [''] (an empty string)" % sys.argv[2:])
    expect(v1("cmd=init pmi_version=2 pmi_subversion=0"), rc="0")
    ans = expect(v2("cmd=fullinit;pmirank=%d;" % rank), rc="0", size="2")
    if not ans.get("spawner-jobid"):
        fail("no spawner-jobid in " + repr(ans))
    expect(v2("cmd=kvs-get;key=PARENT_ROOT_PORT_NAME;"), found="TRUE", value="port-xyz")
    print("parent " + ans["spawner-jobid"], flush=True)
    expect(v2("cmd=finalize;"), rc="0")
elif mode == "stuck":
    # the last rank never reaches the barrier the others wait in (for --timeout's report)
    expect(v1("cmd=init pmi_version=1 pmi_subversion=1"), rc="0")
    if rank == size - 1:
        time.sleep(600)
    v1("cmd=barrier_in")
elif mode == "badrank":
    expect(v1("cmd=init pmi_version=2 pmi_subversion=0"), rc="0")
    expect(v2("cmd=fullinit;pmirank=%d;" % (rank + 1)), cmd="fullinit-response", rc="-1")
    expect(v2("cmd=finalize;"), cmd="finalize-response", rc="0")
elif mode in ("garbage", "huge"):
    send("hello there\n" if mode == "garbage" else "cmd=put " + "x" * 70000)
    try:
        sock.settimeout(30)
        if sock.recv(100) != b"":
            fail("an answer to a message that is not PMI")
    except ConnectionResetError:
        pass
else:
    fail("unknown mode " + mode)
if rank == 0 and mode in ("v1", "v2"):
    print("mapping: " + m, flush=True)
print("pmi %d: %s ok" % (rank, mode), flush=True)
