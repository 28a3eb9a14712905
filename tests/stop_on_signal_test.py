#!/usr/bin/env python3
"""Every long phase stops on SIGTERM and SIGINT with 128 + signal, saying so, and leaves no trace.

Each case starts the real program with a job far longer than the test, waits until the program has
installed its handler (the signal's bit in SigCgt of /proc/PID/status) and a little longer, so the
long phase is under way, sends the signal and checks: the exit status is 128 + signal, stderr says it
was interrupted, it ended promptly, no temporary file is left, no output was written and a file that
was already there under an output's name is unchanged.

Usage: stop_on_signal_test.py PHYSARUM_EXE   (exit 0: all passed, 77: skipped, 1: failed)
"""
import array
import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
import time

OLD = b"written before the command ran\n"
# Generous for a loaded machine, far below the length of each job (minutes to hours).
START_LIMIT_S = 30
STOP_LIMIT_S = 5


def handler_installed(pid, sig):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return (int(line.split()[1], 16) >> (sig - 1)) & 1 == 1
    except OSError:
        pass
    return False


def write_noise_npy(path, width, height):
    """A float32 (H, W) .npy of noise: contours of it are many short closed lines, slow to trace."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (height, width)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    rng = random.Random(5)
    values = array.array("f", (rng.random() for _ in range(width * height)))
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(values.tobytes())


def stop_case(exe, name, args, outputs, sig=signal.SIGTERM, settle_s=0.5, setup=None):
    """Returns a list of what went wrong (empty: passed)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="stop-") as work:
        if setup:
            setup(work)
        # The first output exists already: a stopped command must leave it as it was.
        with open(os.path.join(work, outputs[0]), "wb") as f:
            f.write(OLD)
        before = set(os.listdir(work))
        p = subprocess.Popen([exe] + args, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=dict(os.environ, OMP_WAIT_POLICY="passive"))
        deadline = time.monotonic() + START_LIMIT_S
        while not handler_installed(p.pid, sig) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if p.poll() is not None:
            out, err = p.communicate()
            return [f"{name}: ended before the signal with {p.returncode}: {err.decode(errors='replace')}"]
        time.sleep(settle_s)  # into the long phase
        sent = time.monotonic()
        p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            return [f"{name}: still running 60 s after the signal"]
        took = time.monotonic() - sent
        err_text = err.decode(errors="replace")
        if p.returncode != 128 + sig:
            problems.append(f"{name}: exit {p.returncode}, expected {128 + sig}; stderr: {err_text}")
        if "interrupted by " + signal.Signals(sig).name not in err_text:
            problems.append(f"{name}: stderr does not say it was interrupted: {err_text}")
        if took > STOP_LIMIT_S:
            problems.append(f"{name}: took {took:.1f} s to stop")
        left = set(os.listdir(work)) - before
        if left:
            problems.append(f"{name}: left {sorted(left)} behind")
        with open(os.path.join(work, outputs[0]), "rb") as f:
            if f.read() != OLD:
                problems.append(f"{name}: replaced {outputs[0]}")
        for o in outputs[1:]:
            if os.path.exists(os.path.join(work, o)):
                problems.append(f"{name}: wrote {o}")
        print(f"{name}: exit {p.returncode} {took:.2f} s after {signal.Signals(sig).name}")
    return problems


def main():
    exe = sys.argv[1]
    if not os.path.exists("/proc/self/status"):
        print("skipped: needs /proc to see when the handler is installed")
        return 77
    sim = ["--backend", "cpu", "--threads", "1", "--size", "128x96", "--agents", "4000"]
    forever = ["--steps", "100000000"]
    cases = [
        ("run", ["run"] + sim + forever + ["--out", "field.npy"], ["field.npy"], signal.SIGTERM),
        ("run (Ctrl-C)", ["run"] + sim + forever + ["--out", "field.npy"], ["field.npy"], signal.SIGINT),
        ("export", ["export"] + sim + forever + ["--out", "cave.png", "--out", "map.tmj", "--report",
                                                 "cave.json"], ["cave.png", "map.tmj", "map_tiles.png",
                                                                "cave.json"], signal.SIGTERM),
        ("sensitivity", ["sensitivity"] + sim + forever + ["--perturb", "agent:1:theta:1e-3", "--json",
                                                           "twins.json", "--csv", "twins.csv"],
         ["twins.json", "twins.csv"], signal.SIGTERM),
        ("bench", ["bench"] + sim + ["--warmup", "1000000", "--steps", "5", "--json"], ["unused"],
         signal.SIGTERM),
        ("render --seeds", ["render"] + sim + forever + ["--seeds", "1..8", "--report", "ensemble.json"],
         ["ensemble.json"], signal.SIGTERM),
        ("render --seeds (Ctrl-C)", ["render"] + sim + forever + ["--seeds", "1..8", "--shard", "2/3", "--report",
                                                                  "ensemble.json"], ["ensemble.json"], signal.SIGINT),
    ]
    problems = []
    for name, args, outputs, sig in cases:
        problems += stop_case(exe, name, args, outputs, sig)
    # Past the growth: tracing hundreds of contour levels of a noisy field (its worst-case size is
    # above the default output budget, which is raised so that the tracing starts).
    problems += stop_case(exe, "export contours", ["export", "--field", "noise.npy", "--contours", "256",
                                                   "--tolerance", "0", "--output-budget", "20GB",
                                                   "--out", "lines.svg"], ["lines.svg"],
                          settle_s=1.0, setup=lambda work: write_noise_npy(os.path.join(work, "noise.npy"),
                                                                          512, 512))
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
