#!/usr/bin/env python3
"""scripts/web-recall.py on volumes whose answer is known by hand.

A Gaussian tube (sigma 1 voxel) laid exactly on a true filament: every sample of the filament has a
ridge voxel on the tube's axis within R, and every ridge voxel (the axis, and a few more where
the blur rounds its ends) is within R of it: recall 1, precision 1. The same tube on half the
filament: recall 1/2 plus the R and the voxel of the blur that reach beyond its end. A tube parallel
to the filament 10 voxels away, R 3: recall 0 and precision 0. An empty volume and a uniform one have no ridge: recall 0. A
diagonal tube is found as an axis-aligned one is. The level cuts at the crest worked out by hand;
small pieces of ridge go. Bad arguments are refused, naming the value, and write nothing.

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


def main():
    source, python = sys.argv[1], sys.argv[2]
    wr = load_script(source)
    work = tempfile.mkdtemp(prefix="web-recall-")
    failures = []

    def check(name, ok, detail):
        print(("ok   " if ok else "FAIL ") + name + ": " + detail)
        if not ok:
            failures.append(name)

    def measure(volume, segments_path, radius=3.0, level=3.0):
        np.save(os.path.join(work, "v.npy"), volume)
        out = os.path.join(work, "r.json")
        r = subprocess.run([python, os.path.join(source, "scripts", "web-recall.py"), os.path.join(work, "v.npy"),
                            segments_path, "--radius", str(radius), "--level", str(level), "--json", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"web-recall.py exited {r.returncode}: {r.stderr}")
        with open(out) as f:
            result = json.load(f)
        # What it prints is what it writes.
        assert f"recall {result['recall']:.3f} precision {result['precision']:.3f}" in r.stdout, r.stdout
        return result

    axis_a, axis_b = (4.0, 16.5, 16.5), (28.0, 16.5, 16.5)  # on the centres of row y = z = 16
    full = os.path.join(work, "full.csv")
    truth(full, (axis_a, axis_b))
    r = measure(tube(axis_a, axis_b), full)
    check("tube on the filament", r["recall"] == 1.0 and r["precision"] == 1.0 and r["ridge_voxels"] >= 24, str(r))
    check("filament length", abs(r["filament_length_voxels"] - 24.0) < 1e-9, str(r["filament_length_voxels"]))

    # Half the tube: x from 4 to 16. The blur carries it one voxel on, so the last ridge voxel is x = 16
    # (centre 16.5), and R 3 reaches the samples up to x = 19.5: of the 96 samples at 4.125 + 0.25 k,
    # k = 0 .. 61, 62 of them.
    r = measure(tube(axis_a, (16.0, 16.5, 16.5)), full)
    check("tube on half the filament", abs(r["recall"] - 62 / 96) < 1e-12 and r["precision"] == 1.0, str(r))

    r = measure(tube((4.0, 26.5, 16.5), (28.0, 26.5, 16.5)), full)
    check("tube 10 voxels away", r["recall"] == 0.0 and r["precision"] == 0.0 and r["ridge_voxels"] > 0, str(r))

    # On a background of 1, a tube of 3 whose blurred crest is 1 + 3 (0.607 + 1 + 0.607)^2 / 9 = 2.63
    # times a volume mean of 1 + 3 x (the tube's sum) / N^3: a ridge just below that level, none above.
    lifted = 1 + 3 * tube(axis_a, axis_b).astype(np.float64)
    crest = (1 + 3 * (2 * np.exp(-0.5) + 1) ** 2 / 9) / lifted.mean()
    low, high = measure(lifted, full, level=crest - 0.01), measure(lifted, full, level=crest + 0.01)
    check("level", low["recall"] == 1.0 and low["precision"] == 1.0 and high["ridge_voxels"] == 0,
          f"crest {crest:.3f} x the mean: {low} {high}")

    # Pieces of ridge: 26-connected (a corner touch joins), not across the volume's faces; those
    # of fewer than min_voxels go.
    pieces = np.array([[5, 5, 5], [6, 6, 6], [7, 7, 7],  # three joined corner to corner
                       [20, 20, 20], [20, 20, 21], [20, 21, 21], [21, 21, 21],  # four, face and edge
                       [0, 10, 10], [N - 1, 10, 10]])  # two lone voxels on opposite faces
    kept = {tuple(v) for v in wr.without_specks(pieces, 3).tolist()}
    check("pieces of ridge", kept == {tuple(v) for v in pieces[:7].tolist()}
          and len(wr.without_specks(pieces, 4)) == 4 and len(wr.without_specks(pieces, 1)) == 9, str(sorted(kept)))

    diagonal_a, diagonal_b = (6.5, 6.5, 6.5), (25.5, 25.5, 25.5)
    diagonal = os.path.join(work, "diagonal.csv")
    truth(diagonal, (diagonal_a, diagonal_b))
    r = measure(tube(diagonal_a, diagonal_b), diagonal)
    check("diagonal tube", r["recall"] == 1.0 and r["precision"] == 1.0, str(r))

    for name, volume in (("empty", np.zeros((N, N, N), np.float32)), ("uniform", np.full((N, N, N), 3.0, np.float32))):
        r = measure(volume, full)
        check(f"{name} volume", r["recall"] == 0.0 and r["precision"] == 0.0 and r["ridge_voxels"] == 0, str(r))

    # Several species: the channels are summed, so a tube split between two is the whole tube.
    whole = tube(axis_a, axis_b)
    r = measure(np.stack([whole * 0.25, whole * 0.75]), full)
    check("two channels summed", r["recall"] == 1.0 and r["precision"] == 1.0, str(r))

    # Linear in the segments' count and their positions: the module's distance to a segment
    # against one worked out by hand (a point above the middle, beyond an end, on the line).
    seg = np.array([[[0.0, 0.0, 0.0], [10.0, 0.0, 0.0]]])
    vox = np.array([[0, 3, 5], [0, 0, 13], [0, 0, 2]])  # (z, y, x): centres (5.5, 3.5, .5), (13.5, .5, .5), ...
    # Distances: sqrt(3.5^2 + .5^2) = 3.54, sqrt(3.5^2 + .5^2 + .5^2) = 3.57, sqrt(.5^2 + .5^2) = 0.71.
    check("precision by hand", wr.precision(vox, seg, 3.6) == 1.0 and abs(wr.precision(vox, seg, 3.55) - 2 / 3) < 1e-12
          and abs(wr.precision(vox, seg, 1.0) - 1 / 3) < 1e-12, "distances 3.54, 3.57, 0.71")

    for args, named in ((["--radius", "0"], "--radius 0"), (["--level", "-1"], "--level -1"),
                        (["--box", "0:100,0:100"], "--box 0:100,0:100"), (["--min-voxels", "0"], "--min-voxels 0")):
        out = os.path.join(work, "refused.json")
        r = subprocess.run([python, os.path.join(source, "scripts", "web-recall.py"), os.path.join(work, "v.npy"),
                            full, "--json", out] + args, capture_output=True, text=True)
        check(f"refuses {named}", r.returncode == 2 and named in r.stderr and not os.path.exists(out), r.stderr.strip())

    print(f"web-recall: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
