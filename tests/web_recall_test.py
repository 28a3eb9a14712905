#!/usr/bin/env python3
"""scripts/web-recall.py on volumes whose answer is known by hand.

A Gaussian tube (sigma 1 voxel) laid exactly on a true filament: every sample of the filament has a
ridge voxel on the tube's axis within R, and every ridge voxel (the axis, and a few more where the
blur rounds its ends) is within R of it: recall 1, precision 1. The same tube on half the filament:
recall 1/2 plus the R and the voxel of the blur that reach beyond its end. A tube parallel to the
filament 10 voxels away, R 3: recall 0 and precision 0. An empty volume and a uniform one have no
ridge: recall 0. A diagonal tube is found as an axis-aligned one is. The level cuts at the crest
worked out by hand; small pieces of ridge go; the distance to a segment is the one worked out by
hand. Bad arguments are refused, naming the value, and write nothing.

Usage: web_recall_test.py SOURCE_DIR PYTHON   (exit 0: all pass, 1: a failure, 77: no numpy)
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("python3-numpy is not installed (scripts/install-deps installs it)")
    sys.exit(77)

N = 32  # the volume's side; the truth's box is 0:100, so a voxel is 100 / 32 units


def load_script(source):
    spec = importlib.util.spec_from_file_location("web_recall", os.path.join(source, "scripts", "web-recall.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tube(a, b, sigma=1.0):
    """A volume (D, H, W) whose voxel is exp(-d^2 / 2 sigma^2), d its centre's distance to segment ab
    (voxel coordinates x, y, z), and 0 beyond the segment's ends."""
    z, y, x = np.meshgrid(np.arange(N), np.arange(N), np.arange(N), indexing="ij")
    p = np.stack([x, y, z], axis=-1) + 0.5
    a, b = np.asarray(a, float), np.asarray(b, float)
    t = np.sum((p - a) * (b - a), axis=-1) / np.sum((b - a) ** 2)
    d2 = np.sum((a + t[..., None] * (b - a) - p) ** 2, axis=-1)
    return np.where((t >= 0) & (t <= 1), np.exp(-d2 / (2 * sigma * sigma)), 0.0).astype(np.float32)


def truth(path, *segments):
    """Writes segments given in voxel coordinates as a truth CSV in units (box 0:100)."""
    with open(path, "w") as out:
        out.write("x0,y0,z0,x1,y1,z1\n")
        for a, b in segments:
            out.write(",".join(f"{v * 100.0 / N:.6f}" for v in list(a) + list(b)) + "\n")


class Checks:
    """Runs the script as a user does and keeps the failures."""

    def __init__(self, source, python):
        self.source, self.python = source, python
        self.script = os.path.join(source, "scripts", "web-recall.py")
        self.work = tempfile.mkdtemp(prefix="web-recall-")
        self.failures = []

    def check(self, name, ok, detail):
        print(("ok   " if ok else "FAIL ") + name + ": " + detail)
        if not ok:
            self.failures.append(name)

    def measure(self, volume, segments_path, radius=3.0, level=3.0):
        np.save(os.path.join(self.work, "v.npy"), volume)
        out = os.path.join(self.work, "r.json")
        r = subprocess.run([self.python, self.script, os.path.join(self.work, "v.npy"), segments_path, "--radius",
                            str(radius), "--level", str(level), "--json", out], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"web-recall.py exited {r.returncode}: {r.stderr}")
        with open(out) as f:
            result = json.load(f)
        # What it prints is what it writes.
        assert f"recall {result['recall']:.3f} precision {result['precision']:.3f}" in r.stdout, r.stdout
        return result


AXIS_A, AXIS_B = (4.0, 16.5, 16.5), (28.0, 16.5, 16.5)  # on the centres of row y = z = 16


def tubes(c, full):
    r = c.measure(tube(AXIS_A, AXIS_B), full)
    c.check("tube on the filament", r["recall"] == 1.0 and r["precision"] == 1.0 and r["ridge_voxels"] >= 24, str(r))
    c.check("filament length", abs(r["filament_length_voxels"] - 24.0) < 1e-9, str(r["filament_length_voxels"]))

    # Half the tube: x from 4 to 16. The blur carries it one voxel on, so the last ridge voxel is x = 16
    # (centre 16.5), and R 3 reaches the samples up to x = 19.5: of the 96 samples at 4.125 + 0.25 k,
    # k = 0 .. 61, 62 of them.
    r = c.measure(tube(AXIS_A, (16.0, 16.5, 16.5)), full)
    c.check("tube on half the filament", abs(r["recall"] - 62 / 96) < 1e-12 and r["precision"] == 1.0, str(r))

    r = c.measure(tube((4.0, 26.5, 16.5), (28.0, 26.5, 16.5)), full)
    c.check("tube 10 voxels away", r["recall"] == 0.0 and r["precision"] == 0.0 and r["ridge_voxels"] > 0, str(r))

    diagonal_a, diagonal_b = (6.5, 6.5, 6.5), (25.5, 25.5, 25.5)
    diagonal = os.path.join(c.work, "diagonal.csv")
    truth(diagonal, (diagonal_a, diagonal_b))
    r = c.measure(tube(diagonal_a, diagonal_b), diagonal)
    c.check("diagonal tube", r["recall"] == 1.0 and r["precision"] == 1.0, str(r))

    for name, volume in (("empty", np.zeros((N, N, N), np.float32)), ("uniform", np.full((N, N, N), 3.0, np.float32))):
        r = c.measure(volume, full)
        c.check(f"{name} volume", r["recall"] == 0.0 and r["precision"] == 0.0 and r["ridge_voxels"] == 0, str(r))

    # Several species: the channels are summed, so a tube split between two is the whole tube.
    whole = tube(AXIS_A, AXIS_B)
    r = c.measure(np.stack([whole * 0.25, whole * 0.75]), full)
    c.check("two channels summed", r["recall"] == 1.0 and r["precision"] == 1.0, str(r))


def level_pieces_and_distances(c, wr, full):
    # On a background of 1, a tube of 3 whose blurred crest is 1 + 3 (0.607 + 1 + 0.607)^2 / 9 = 2.63
    # times a volume mean of 1 + 3 x (the tube's sum) / N^3: a ridge just below that level, none above.
    lifted = 1 + 3 * tube(AXIS_A, AXIS_B).astype(np.float64)
    crest = (1 + 3 * (2 * np.exp(-0.5) + 1) ** 2 / 9) / lifted.mean()
    low, high = c.measure(lifted, full, level=crest - 0.01), c.measure(lifted, full, level=crest + 0.01)
    c.check("level", low["recall"] == 1.0 and low["precision"] == 1.0 and high["ridge_voxels"] == 0,
            f"crest {crest:.3f} x the mean: {low} {high}")

    # Pieces of ridge: 26-connected (a corner touch joins), not across the volume's faces; those
    # of fewer than min_voxels go.
    pieces = np.array([[5, 5, 5], [6, 6, 6], [7, 7, 7],  # three joined corner to corner
                       [20, 20, 20], [20, 20, 21], [20, 21, 21], [21, 21, 21],  # four, face and edge
                       [0, 10, 10], [N - 1, 10, 10]])  # two lone voxels on opposite faces
    kept = {tuple(v) for v in wr.without_specks(pieces, 3).tolist()}
    c.check("pieces of ridge", kept == {tuple(v) for v in pieces[:7].tolist()}
            and len(wr.without_specks(pieces, 4)) == 4 and len(wr.without_specks(pieces, 1)) == 9, str(sorted(kept)))

    # The distance to a segment against one worked out by hand (a point beside the middle, one
    # beyond an end, one near the line).
    seg = np.array([[[0.0, 0.0, 0.0], [10.0, 0.0, 0.0]]])
    vox = np.array([[0, 3, 5], [0, 0, 13], [0, 0, 2]])  # (z, y, x): centres (5.5, 3.5, .5), (13.5, .5, .5), ...
    # Distances: sqrt(3.5^2 + .5^2) = 3.54, sqrt(3.5^2 + .5^2 + .5^2) = 3.57, sqrt(.5^2 + .5^2) = 0.71.
    c.check("precision by hand", wr.precision(vox, seg, 3.6) == 1.0
            and abs(wr.precision(vox, seg, 3.55) - 2 / 3) < 1e-12 and abs(wr.precision(vox, seg, 1.0) - 1 / 3) < 1e-12,
            "distances 3.54, 3.57, 0.71")


def refusals(c, full):
    for args, named in ((["--radius", "0"], "--radius 0"), (["--level", "-1"], "--level -1"),
                        (["--box", "0:100,0:100"], "--box 0:100,0:100"), (["--min-voxels", "0"], "--min-voxels 0")):
        out = os.path.join(c.work, "refused.json")
        r = subprocess.run([c.python, c.script, os.path.join(c.work, "v.npy"), full, "--json", out] + args,
                           capture_output=True, text=True)
        c.check(f"refuses {named}", r.returncode == 2 and named in r.stderr and not os.path.exists(out),
                r.stderr.strip().splitlines()[-1])


def main():
    c = Checks(sys.argv[1], sys.argv[2])
    full = os.path.join(c.work, "full.csv")
    truth(full, (AXIS_A, AXIS_B))
    tubes(c, full)
    level_pieces_and_distances(c, load_script(c.source), full)
    refusals(c, full)
    print(f"web-recall: {len(c.failures)} failure(s)")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
