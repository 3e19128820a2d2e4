# SPDX-License-Identifier: BSD-3-Clause
"""Large command lines under wrun (used by bigargs.sh).

e2e_bigargs.py WRUN NP intact N SIZE [ENVSIZE]
    (WRUN: wrun's path, with options after it if wanted, separated by spaces)
    wrun -n NP of sh with N arguments of SIZE characters (and BIG_VAR of ENVSIZE characters in
    the environment): every rank sees each argument's length and their checksum intact.
e2e_bigargs.py WRUN NP limit
    arguments that wrun itself can still be given but its ranks, with what wrun adds to their
    environment, cannot: wrun ends at once with 126 and one line saying why. With
    WU_BIGARGS_ENV=min wrun runs with little more than PATH and its parameters (for ranks on
    other nodes, whose environment is their daemon's).
Prints "ok: ..." or "fail: ..." and exits 0 or 1.
"""
import hashlib
import os
import subprocess
import sys
import time

SH = 'for a; do printf "%s " ${#a}; done; echo "${#BIG_VAR}" $(printf "%s" "$@" | md5sum | cut -c1-32)'


# what wrun keeps of the environment with WU_BIGARGS_ENV=min (the build's parameters among
# them: a DSO build finds its components through PMIX_MCA_mca_base_component_path)
KEEP = ("PATH", "LD_LIBRARY_PATH", "TMPDIR", "LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS",
        "TSAN_OPTIONS", "LSAN_OPTIONS")
KEEP_PREFIXES = ("PMIX_MCA_", "WU_")


def run(cmd, env):
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as e:
        # a hang: said as such (the exception's text would hold the whole command line)
        r = subprocess.CompletedProcess(cmd, -9, e.stdout or "", "wrun did not end within 120 s")
    return r, time.monotonic() - t0


def intact(wrun, np, n, size, envsize):
    args = [chr(ord("a") + i % 26) * size for i in range(n)]
    env = dict(os.environ)
    env["BIG_VAR"] = "y" * envsize
    r, _ = run(wrun.split() + ["-n", str(np), "sh", "-c", SH, "_"] + args, env)
    want = " ".join([str(size)] * n + [str(envsize), hashlib.md5("".join(args).encode()).hexdigest()])
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) != np or any(line.strip() != want for line in lines):
        return "fail: %d x %d characters, BIG_VAR %d: exit %d, %d lines; stderr: %s" % (
            n, size, envsize, r.returncode, len(lines), r.stderr[-400:])
    return "ok: %d ranks saw %d arguments of %d characters and BIG_VAR of %d intact" % (
        np, n, size, envsize)


def limit(wrun, np):
    arg_max = os.sysconf("SC_ARG_MAX")
    env = dict(os.environ)
    if os.environ.get("WU_BIGARGS_ENV") == "min":
        # ranks on other nodes get their daemon's environment, not wrun's: wrun's must be
        # smaller than theirs for them to fail where wrun did not
        env = {k: v for k, v in os.environ.items() if k in KEEP or k.startswith(KEEP_PREFIXES)}
    base = wrun.split() + ["-n", str(np), "true"]
    fixed = sum(len(a) + 1 + 8 for a in base) + sum(len(k) + len(v) + 2 + 8 for k, v in env.items())
    for slack in range(64, 65536, 128):
        left = arg_max - fixed - slack - 8
        args = []
        while left > 200:
            s = min(131000, left - 9)
            args.append("z" * s)
            left -= s + 1 + 8
        try:
            r, dt = run(base + args, env)
        except OSError:
            continue  # too much for wrun itself: a little less
        said = [l for l in r.stderr.splitlines() if "Argument list too long" in l]
        if (r.returncode == 126 and len(said) == 1 and "execve takes at most" in said[0]
                and dt < 30):
            return "ok: %d bytes short of ARG_MAX: exit 126 in %.1f s: %s" % (slack, dt, said[0])
        return "fail: %d bytes short of ARG_MAX: exit %d in %.1f s; stderr: %s" % (
            slack, r.returncode, dt, r.stderr[-600:])
    return "fail: wrun could not be started with any argument list near ARG_MAX"


def main():
    wrun, np, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if mode == "intact":
        res = intact(wrun, np, int(sys.argv[4]), int(sys.argv[5]),
                     int(sys.argv[6]) if len(sys.argv) > 6 else 0)
    else:
        res = limit(wrun, np)
    print(res)
    return 0 if res.startswith("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
