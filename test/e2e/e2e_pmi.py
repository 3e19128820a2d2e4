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
