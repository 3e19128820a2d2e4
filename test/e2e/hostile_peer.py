#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# hostile_peer.py -- peers that never authenticate, attacking a PMIx server's Unix socket (or, in
# flood mode, its TCP port) from outside its job, for test/e2e/hostile.sh, fd_limit.sh and
# flood.sh. Prints "name value" result lines.
#   hostile_peer.py big URI PID N   N connections each announce a 64 MiB frame and push up to
#       48 MiB of it for 5 s: rss_growth_kb (largest VmRSS of PID, the server, above its value
#       before), dropped (connections the server closed, waiting up to 20 s)
#   hostile_peer.py slow URI PID N  N connections send 5 bytes of a frame header and hold until
#       the server closes them (at most 60 s): fds_growth (most descriptors PID held above its
#       count before), dropped
#   hostile_peer.py hold URI PID N  N silent connections held 4 s: cpu_pct (PID's CPU time over
#       the last 3 s, in percent of one core), refused (closed by the server while held)
#   hostile_peer.py flood URI PID N [OPTS]  N connections (URI usock: or tcp4://) made
#       without waiting (those the listener's queue refuses are tried again) and held until
#       SIGTERM (at most 120 s). OPTS, comma-separated: partial (each sends 5 bytes of a header;
#       else silent), refill (one the server closes is made again, so N stay open or pending),
#       churn (each is closed at once and made again: N connects every 50 ms, none held).
#       Prints "ready K" when all N are made or pending (or after 20 s, K of them), then at the
#       end "closed C" (how many the server closed) and "made M" (connections made in all).
#       Raises RLIMIT_NOFILE as needed, or prints "skip ..." when N descriptors cannot be had.
import errno
import os
import resource
import select
import signal
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


def nofile_at_least(need):
    """Raise the descriptor limit to need; False if it cannot be had."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= need:
        return True
    try:
        if hard != resource.RLIM_INFINITY and hard < need:
            resource.setrlimit(resource.RLIMIT_NOFILE, (need, need))  # root may raise hard
        else:
            resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    except (ValueError, OSError):
        return False
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= need


def flood(uri, n, opts):
    partial, refill, churn = "partial" in opts, "refill" in opts, "churn" in opts
    if uri.startswith("usock:"):
        family, addr = socket.AF_UNIX, uri[len("usock:"):]
    elif uri.startswith("tcp4://"):
        host, port = uri[len("tcp4://"):].rsplit(":", 1)
        family, addr = socket.AF_INET, (host, int(port))
    else:
        print("skip unknown URI %s" % uri)
        return
    if not nofile_at_least(n + 64):
        print("skip cannot have %d file descriptors (RLIMIT_NOFILE %s)"
              % (n + 64, resource.getrlimit(resource.RLIMIT_NOFILE)))
        return
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    poller = select.poll()
    socks = {}  # fd -> [socket, 5 header bytes still to send]
    made = closed = total = 0
    ready = False
    start = time.monotonic()
    while not stop and time.monotonic() < start + 120:
        for _ in range(n):
            if made >= n and not churn:
                break
            s = socket.socket(family, socket.SOCK_STREAM)
            s.setblocking(False)
            err = s.connect_ex(addr)
            if err not in (0, errno.EINPROGRESS):
                s.close()  # the listener's queue is full: again later
                break
            made += 1
            total += 1
            if churn:
                if partial and 0 == err:
                    try:
                        s.send(header(100)[:5])
                    except OSError:
                        pass
                s.close()
                continue
            socks[s.fileno()] = [s, partial]
            poller.register(s, select.POLLIN | (select.POLLOUT if partial else 0))
        if not ready and (made >= n or time.monotonic() > start + 20):
            print("ready %d" % min(made, n), flush=True)
            ready = True
        for fd, ev in poller.poll(50):
            entry = socks[fd]
            if ev & select.POLLOUT and entry[1]:
                try:
                    entry[0].send(header(100)[:5])
                except OSError:
                    pass
                entry[1] = False
                poller.modify(fd, select.POLLIN)
            if ev & (select.POLLIN | select.POLLHUP | select.POLLERR) and closed_by_peer(entry[0]):
                closed += 1
                if refill:
                    made -= 1
                poller.unregister(fd)
                entry[0].close()
                del socks[fd]
    print("closed %d" % closed)
    print("made %d" % total, flush=True)
    for entry in socks.values():
        entry[0].close()


def main():
    mode, uri, pid, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if "flood" == mode:
        flood(uri, n, sys.argv[5].split(",") if len(sys.argv) > 5 else [])
        return
    if not uri.startswith("usock:"):
        print("skip the server does not listen on usock (%s)" % uri)
        return
    {"big": big, "slow": slow, "hold": hold}[mode](uri[len("usock:"):], pid, n)


if __name__ == "__main__":
    main()
