#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# hostile_openpmix.py -- outdated and hostile "OpenPMIx" peers for test/e2e/hostile_openpmix.sh:
# each case opens a TCP connection to the server of PMIX_SERVER_URI41 (read from this process's
# environment, as a rank of the job gets it) and speaks OpenPMIx's handshake by hand
# (docs/openpmix-wire.md, sections 2 and 3), then waits until the server closes the connection.
# Prints one line per case: "case NAME closed SECONDS" (the server closed it after that long),
# "case NAME answered ..." (it accepted a handshake it should not have) or "case NAME open"
# (still open after LIMIT seconds: a hang).
#   hostile_openpmix.py CASE...
import os
import socket
import struct
import sys
import time

LIMIT = 20  # seconds a case may wait for the server to close its connection


def uri_addr():
    # "<nspace>.<rank>;tcp4://<address>:<port>"; without it (server_openpmix off), Wireup's own
    # URI when it is TCP
    uri = os.environ.get("PMIX_SERVER_URI41") or ";" + os.environ["WU_PMIX_SERVER_URI"]
    where = uri.split(";", 1)[1]
    assert where.startswith("tcp4://"), uri
    host, port = where[len("tcp4://"):].rsplit(":", 1)
    return host, int(port)


NSPACE = os.environ.get("PMIX_NAMESPACE", "")
RANK = int(os.environ.get("PMIX_RANK", "0"))


def cstr(s):
    return s.encode() + b"\0"


def body(psec="native", uid=None, gid=None, flag=0, nspace=None, rank=None, version="4.2.2",
         bfrops="v41", btype=1, gds="hash", legacy=False, cred=None):
    """An OpenPMIx client handshake's body (2.1): 4.2.2's, with its extra byte."""
    if cred is None:
        cred = struct.pack("=II", os.geteuid() if uid is None else uid,
                           os.getegid() if gid is None else gid)
    b = cstr(psec) + struct.pack("!I", len(cred)) + cred + bytes([flag])
    if flag == 0:
        b += cstr(NSPACE if nspace is None else nspace)
        b += struct.pack("!I", RANK if rank is None else rank)
    else:  # a tool: uid, gid (2.2)
        b += struct.pack("!II", os.geteuid(), os.getegid())
    b += cstr(version)
    if legacy:
        return b  # a 2.0 client's message ends after its version
    return b + cstr(bfrops) + bytes([btype]) + cstr(gds) + b"\0"


def hello_header(length):
    return b"\xff" * 8 + struct.pack("=I", length) + b"\0" * 4


def frame(index, tag, payload, length=None):
    n = len(payload) if length is None else length
    return struct.pack("!III", index, tag, n) + b"\0" * 4 + payload


def wait_closed(s, start, answer_ok=False):
    """Read until the server closes; returns the case's result line."""
    s.settimeout(0.2)
    while time.time() - start < LIMIT:
        try:
            d = s.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            d = b""
        if not d:
            return "closed %.1f" % (time.time() - start)
        if not answer_ok:
            return "answered %d bytes" % len(d)
    return "open"


def connect():
    s = socket.create_connection(uri_addr(), timeout=10)
    return s, time.time()


def send_hello(b):
    s, t = connect()
    s.sendall(hello_header(len(b)) + b)
    return s, t


def run_hello(b):
    s, t = send_hello(b)
    r = wait_closed(s, t)
    s.close()
    return r


def run_hello_answered(b):
    """A handshake the server answers (a tool's: status, ids, credential status) and closes."""
    s, t = send_hello(b)
    r = wait_closed(s, t, answer_ok=True)
    s.close()
    return r


def run_raw(data, shut=True):
    s, t = connect()
    try:
        s.sendall(data)
        if shut:
            s.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the server closed first
    r = wait_closed(s, t)
    s.close()
    return r


def run_valid_then(payloads):
    """A valid handshake as this rank, then the given frames (bytes: sent as they are)."""
    s, t = send_hello(body())
    s.settimeout(10)
    ans = b""
    while len(ans) < 8:
        d = s.recv(8 - len(ans))
        if not d:
            s.close()
            return "refused the valid handshake"
        ans += d
    status, index = struct.unpack("!iI", ans)
    if status != 0:
        s.close()
        return "valid handshake answered status %d" % status
    try:
        for p in payloads:
            s.sendall(p(index) if callable(p) else p)
        s.shutdown(socket.SHUT_WR)  # then the server sees the end, mid-frame or not
    except OSError:
        pass  # the server closed first
    r = wait_closed(s, t, answer_ok=True)
    s.close()
    return r


def huge(index):
    # a frame announcing 4 GiB - 1 bytes, and 64 KiB of them
    return frame(index, 101, b"\x02\x05" + b"\0" * 65534, 0xFFFFFFFF)


def big_stall(index):
    # a frame announcing 512 MiB of which 1 MiB comes before the peer's end
    return frame(index, 102, b"\x02\x02" + b"\0" * ((1 << 20) - 2), 512 << 20)


def read_frame(s):
    """One OpenPMIx frame from the server: (tag, payload), or None when it closed."""
    def exactly(n):
        d = b""
        while len(d) < n:
            c = s.recv(n - len(d))
            if not c:
                return None
            d += c
        return d
    h = exactly(16)
    if h is None:
        return None
    _, tag, n = struct.unpack("!III", h[:12])
    return tag, exactly(n)


def run_reconnect():
    """A well-behaved client as this rank after all that: REQ (its job's data), FINALIZE."""
    s, t = send_hello(body())
    s.settimeout(LIMIT)
    ans = s.recv(8)
    if len(ans) != 8 or struct.unpack("!i", ans[:4])[0] != 0:
        return "refused the valid handshake"
    index = struct.unpack("!I", ans[4:])[0]
    s.sendall(frame(index, 101, b"\x02\x00") + frame(index, 102, b"\x02\x05"))
    got = {}
    while 102 not in got:
        f = read_frame(s)
        if f is None:
            return "closed before its FINALIZE was answered"
        got[f[0]] = f[1]
    ns = cstr(NSPACE)
    s.close()
    # REQ's reply: STRING nspace first (a zigzag length, one byte here); FINALIZE's: status 0
    if got.get(101, b"")[:2 + len(ns)] != b"\x02" + bytes([2 * len(ns)]) + ns:
        return "REQ answered %r" % got.get(101, b"")[:40]
    if got[102] != b"\x02\x00":
        return "FINALIZE answered %r" % got[102]
    return "finalized"


CASES = [
    ("v20", lambda: run_hello(body(version="2.0.3", legacy=True))),
    ("v3", lambda: run_hello(body(version="3.2.5", bfrops="v3"))),
    ("v21", lambda: run_hello(body(version="3.2.5", bfrops="v21"))),
    ("ds21", lambda: run_hello(body(gds="ds21"))),
    ("munge", lambda: run_hello(body(psec="munge", cred=b"MUNGE:fake-credential"))),
    ("tool", lambda: run_hello(body(flag=1))),  # a legacy tool
    # a tool whose credential claims another uid than its handshake (and the kernel) says
    ("tool-uid", lambda: run_hello_answered(body(flag=3, uid=os.geteuid() + 4242))),
    ("wrong-uid", lambda: run_hello(body(uid=os.geteuid() + 4242))),
    ("bad-rank", lambda: run_hello(body(rank=99))),
    ("bad-nspace", lambda: run_hello(body(nspace="no-such-job"))),
    ("noise", lambda: run_raw(b"\xff" + os.urandom(4096))),
    ("4gib", lambda: run_raw(b"\xff" * 8 + b"\xff\xff\xff\xff" + b"\0" * 4 + b"native\0")),
    ("truncated", lambda: run_raw(hello_header(200) + body()[:30], shut=False)),
    # an unknown command, a GET cut short, a QUERY announcing 2^62 queries, then noise
    ("garbage", lambda: run_valid_then([frame(0, 101, b"\x02\x63\x01\x02\x03"),
                                        frame(0, 102, b"\x02\x04\x02\xff\xff\xff"),
                                        frame(0, 103, b"\x02\x0f\x02\x04" + b"\xff" * 8 + b"\x3f"),
                                        frame(0, 104, os.urandom(64)),
                                        frame(0, 105, b"")])),
    ("huge", lambda: run_valid_then([huge])),
    ("stall", lambda: run_valid_then([big_stall])),
    ("reconnect", run_reconnect),
    ("valid", lambda: run_hello(body())),  # must be refused only when server_openpmix is off
]


def main():
    want = sys.argv[1:] or [c[0] for c in CASES]
    for name, fn in CASES:
        if name in want:
            try:
                r = fn()
            except OSError as e:
                r = "error %s" % e
            print("case %s %s" % (name, r), flush=True)


if __name__ == "__main__":
    main()
