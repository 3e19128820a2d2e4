#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""openpmix_seeds.py DIR OUT PREFIX OPTS: the openpmix-* seeds of fuzz_server (FZ_OPMIX inputs,
test/fuzz/fuzz.h) from the strace -ff -xx logs (DIR/tr.*) of openpmix_traffic.c's ranks run on
OpenPMIx's own library under wrun (docs/fuzzing.md): rank 0's handshake (sendto) and requests
(writev: 16-byte header, payload), written to OUT/PREFIX<what> with the options byte OPTS (0:
non-described, 1: fully described). The job's namespace becomes fuzz-job, the handshake's rank
the harness's FZ_OX_RANK; the fence before the GET names that rank instead of the wildcard so
that it completes. Only the namespace string of one-byte length is rewritten."""
import glob, re, sys

d, out, prefix, opts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
SEP = b"WUFZ"

def unesc(s):
    return bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-f]{2})", s))

hello, reqs = None, []
for f in sorted(glob.glob(d + "/tr.*")):
    for line in open(f):
        m = re.match(r'sendto\(\d+, "([^"]*)"', line)
        if m and hello is None:
            # rank 0's handshake: psec\0, 4 + 8 bytes of credential, the flag, nspace\0, rank
            body = unesc(m.group(1))[16:]
            end = body.index(b"\x00", body.index(b"\x00") + 1 + 4 + 8 + 1)
            if body[end + 1:end + 5] == b"\x00\x00\x00\x00":
                hello = body
        m = re.match(r'writev\(\d+, \[\{iov_base="([^"]*)", iov_len=16\}, \{iov_base="([^"]*)"', line)
        if m:
            h = unesc(m.group(1))
            if h[:4] == b"\x00\x00\x00\x00":  # rank 0 (index 0)
                reqs.append(unesc(m.group(2)))

ns = re.search(rb"wrun\.vm\.\d+\.\d+", hello).group(0)

def fix(b, me=False):
    # a STRING: zigzag INT32 length (one byte here), the bytes, NUL
    b = b.replace(bytes([2 * (len(ns) + 1)]) + ns + b"\x00", bytes([2 * 9]) + b"fuzz-job\x00")
    if me:  # the wildcard rank of a fence: the harness's own rank only
        b = b.replace(b"\xfe\xff\xff\xff\x0f", b"\x01")
    return b

# the handshake: the namespace, rank 1 (the harness's FZ_OX_RANK)
h = hello.replace(ns + b"\x00", b"fuzz-job\x00")
i = h.index(b"fuzz-job\x00") + 9
h = h[:i] + b"\x00\x00\x00\x01" + h[i + 4:]
byname = {}
names = {0: "req", 2: "commit", 3: "fence", 4: "get", 5: "finalize", 6: "publish", 7: "lookup",
         8: "unpublish", 12: "notify", 13: "regevents", 15: "query", 16: "log"}
for r in reqs:
    cmd = r[1] if opts == 0 else r[3]
    byname.setdefault(names[cmd], []).append(r)

def seed(name, frames, o=opts):
    with open("%s/%s%s" % (out, prefix, name), "wb") as f:
        f.write(bytes([0xfe, o]) + SEP.join(frames))

g = byname
seed("req", [g["req"][0]])
seed("commit", [fix(g["commit"][0])])
seed("fence", [fix(g["commit"][0]), fix(g["fence"][0])])
seed("get", [fix(g["commit"][0]), fix(g["fence"][0], True), fix(g["get"][0])])
seed("finalize", [g["finalize"][0]])
seed("publish-lookup", [fix(x) for x in g["publish"] + g["lookup"] + g["unpublish"]])
seed("notify", [fix(x) for x in g["regevents"] + g["notify"]])
seed("regevents", [g["regevents"][0]])
seed("query", [fix(g["query"][0])])
seed("log", [fix(g["log"][0])])
seed("session", [fix(x) for x in reqs])
seed("hello", [h, g["req"][0]], opts | 2)
