#!/usr/bin/env python3
"""The cosmic-web preset reconstructs the catalogue's filaments, on the CPU at a small size.

Grows the shipped preset (assets/presets/cosmic-web.toml, by name, as a user does) on its
catalogue (4000 points) and on a sparser one of the same web (400 points, made by
scripts/make-points.py with the catalogue's recorded arguments, which must give the shipped truth
file byte for byte), then measures each MCPM trace with scripts/web-recall.py against the true
filaments. Two controls: the same run with no points (the agents' own network, which knows nothing
of the web), and the dense run measured against another seed's web (filaments placed at random).
Each catalogue's recall and precision beat both controls' by MARGIN, and the denser catalogue does
at least as well: its F1, the harmonic mean of the two, is at least the sparser one's (a sparser
catalogue's fewer ridges can be as clean, so each number alone could tie either way).

Usage: cosmic_web_test.py PHYSARUM_EXE SOURCE_DIR PYTHON   (exit 0: pass, 1: fail, 77: no numpy)
"""
import json
import os
import subprocess
import sys
import tempfile

SIZE = "48x48x48"
STEPS = "150"
RADIUS = "2"
MARGIN = 0.4
# The arguments the shipped catalogue was made with (docs/science.md, "The cosmic web").
MAKE = ["--seed", "7", "--nodes", "24", "--cluster-share", "0.15", "--field-share", "0.15"]


def f1(recall_precision):
    """The harmonic mean of recall and precision: one number for "does as well"."""
    r, p = recall_precision
    return 2 * r * p / (r + p) if r + p > 0 else 0.0


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, timeout=240, **kw)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {r.returncode}:\n{r.stderr}")
    return r


def main():
    exe, source, python = sys.argv[1], sys.argv[2], sys.argv[3]
    if subprocess.run([python, "-c", "import numpy"], capture_output=True).returncode != 0:
        print("python3-numpy is not installed (scripts/install-deps installs it)")
        return 77
    work = tempfile.mkdtemp(prefix="cosmic-web-")
    scripts = os.path.join(source, "scripts")
    points = os.path.join(source, "assets", "points")
    failures = []

    def check(name, ok, detail):
        print(("ok   " if ok else "FAIL ") + name + ": " + detail)
        if not ok:
            failures.append(name)

    sparse, sparse_truth = os.path.join(work, "sparse.csv"), os.path.join(work, "sparse-truth.csv")
    run([python, os.path.join(scripts, "make-points.py")] + MAKE + ["--points", "400", "--out", sparse,
                                                                    "--truth", sparse_truth])
    with open(sparse_truth, "rb") as a, open(os.path.join(points, "cosmic-web-truth.csv"), "rb") as b:
        check("the script writes the shipped truth", a.read() == b.read(), "a 400-point catalogue of the same web")
    other = os.path.join(work, "other-truth.csv")
    run([python, os.path.join(scripts, "make-points.py"), "--seed", "8", "--nodes", "24", "--points", "10",
         "--out", os.path.join(work, "other.csv"), "--truth", other])

    def grow(name, *sets):
        trace = os.path.join(work, name + ".npy")
        args = [exe, "run", "--preset", "cosmic-web", "--size", SIZE, "--steps", STEPS, "--out",
                os.path.join(work, name + "-field.npy"), "--trace", trace]
        for s in sets:
            args += ["--set", s]
        run(args, cwd=work)
        return trace

    def measure(trace, truth):
        out = os.path.join(work, "m.json")
        run([python, os.path.join(scripts, "web-recall.py"), trace, truth, "--radius", RADIUS, "--json", out])
        with open(out) as f:
            r = json.load(f)
        return r["recall"], r["precision"]

    truth = os.path.join(points, "cosmic-web-truth.csv")
    dense = measure(grow("dense"), truth)
    thin = measure(grow("sparse", f"environment.points={sparse}"), truth)
    pointless = measure(grow("none", 'environment.points=""'), truth)
    elsewhere = measure(os.path.join(work, "dense.npy"), other)
    print(f"recall, precision at {SIZE}, {STEPS} steps, R {RADIUS}: 4000 points {dense}, 400 points {thin}, "
          f"no points {pointless}, another web {elsewhere}")
    for name, got in (("4000 points", dense), ("400 points", thin)):
        for control_name, control in (("no points", pointless), ("another web", elsewhere)):
            check(f"{name} beat {control_name}", got[0] >= control[0] + MARGIN and got[1] >= control[1] + MARGIN,
                  f"{got} against {control}")
    check("the denser catalogue does at least as well", f1(dense) >= f1(thin),
          f"F1 {f1(dense):.3f} against {f1(thin):.3f}")
    print(f"cosmic-web: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
