#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# hostile_peer.py -- peers that never authenticate, attacking a PMIx server's Unix socket from
# outside its job, for test/e2e/hostile.sh and fd_limit.sh. Prints "name value" result lines.
#   hostile_peer.py big URI PID N   N connections each announce a 64 MiB frame and push up to
#       48 MiB of it for 5 s: rss_growth_kb (largest VmRSS of PID, the server, above its value
#       before), dropped (connections the server closed, waiting up to 20 s)
#   hostile_peer.py slow URI PID N  N connections send 5 bytes of a frame header and hold until
#       the server closes them (at most 60 s): fds_growth (most descriptors PID held above its
#       count before), dropped
#   hostile_peer.py hold URI PID N  N silent connections held 4 s: cpu_pct (PID's CPU time over
#       the last 3 s, in percent of one core), refused (closed by the server while held)
import os
import select
import socket
import struct
import sys
import time


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def nfds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    s.setblocking(False)
    return s


def header(length):
    return struct.pack("!BBHII", 0x57, 1, 0, 7, length)


def closed_by_peer(s):
    """True if the server closed s (EOF or reset); never blocks."""
    try:
        return s.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def wait_closed(socks, limit, sample=None):
    """Wait until every socket was closed by the server or limit seconds passed."""
    left = set(socks)
    dropped = 0
    end = time.monotonic() + limit
    while left and time.monotonic() < end:
        if sample:
            sample()
        ready, _, _ = select.select(list(left), [], [], 0.1)
        for s in ready:
            if closed_by_peer(s):
                dropped += 1
                left.discard(s)
    return dropped


def big(path, pid, n):
    before = rss_kb(pid)
    peak = [before]
    socks = [connect(path) for _ in range(n)]
    sent = {s: 0 for s in socks}
    chunk = b"\xab" * (1 << 20)
    for s in socks:
        s.send(header(64 << 20))
    end = time.monotonic() + 5
    while time.monotonic() < end:
        busy = False
        for s in socks:
            if sent[s] < (48 << 20):
                try:
                    sent[s] += s.send(chunk)
                    busy = True
                except (BlockingIOError, OSError):
                    pass
        peak[0] = max(peak[0], rss_kb(pid))
        if not busy:
            time.sleep(0.05)

    def sample():
        peak[0] = max(peak[0], rss_kb(pid))

    dropped = wait_closed(socks, 20, sample)
    print("rss_growth_kb %d" % (peak[0] - before))
    print("dropped %d" % dropped)


def slow(path, pid, n):
    before = nfds(pid)
    peak = [before]
    socks = []
    for _ in range(n):
        s = connect(path)
        s.send(header(100)[:5])
        socks.append(s)

    def sample():
        peak[0] = max(peak[0], nfds(pid))

    dropped = wait_closed(socks, 60, sample)
    print("fds_growth %d" % (peak[0] - before))
    print("dropped %d" % dropped)


def hold(path, pid, n):
    socks = [connect(path) for _ in range(n)]
    time.sleep(1)
    t0, c0 = time.monotonic(), cpu_ticks(pid)
    time.sleep(3)
    t1, c1 = time.monotonic(), cpu_ticks(pid)
    pct = 100.0 * (c1 - c0) / os.sysconf("SC_CLK_TCK") / (t1 - t0)
    refused = sum(1 for s in socks if closed_by_peer(s))
    print("cpu_pct %d" % int(pct))
    print("refused %d" % refused)
    for s in socks:
        s.close()


def main():
    mode, uri, pid, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if not uri.startswith("usock:"):
        print("skip the server does not listen on usock (%s)" % uri)
        return
    {"big": big, "slow": slow, "hold": hold}[mode](uri[len("usock:"):], pid, n)


if __name__ == "__main__":
    main()
