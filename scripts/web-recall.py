#!/usr/bin/env python3
"""Measures how well a grown volume network reconstructs a known web: recall and precision.

  physarum run --preset cosmic-web --steps 300 --trace trace.npy
  python3 scripts/web-recall.py trace.npy assets/points/cosmic-web-truth.csv --json web.json

The volume (a float .npy of shape (D, H, W), or (S, D, H, W), whose channels are summed: the MCPM
trace `--trace` writes, or the field) holds the network; the truth (a CSV, `x0,y0,z0,x1,y1,z1` a
row, as scripts/make-points.py --truth writes) holds the filaments as segments in the catalogue's
units. `--box` says which part of those units fills the volume, as the preset's
`environment.points_box` does (default 0:100,0:100,0:100, make-points.py's box): a unit coordinate
p lands at the continuous voxel coordinate (p - min) W / (max - min), and voxel (x, y, z) has its
centre at (x + 0.5, y + 0.5, z + 0.5).

Ridges: the network's centre lines. The volume is blurred once (each voxel the mean of its 3 x 3 x 3
neighbours, wrapping as the volume does) so that one voxel's noise makes no ridge; a voxel is a
ridge voxel when its blurred value is above `--level` times the volume's mean (what every voxel
would hold were the agents' visits spread evenly: agents per voxel set it, not the volume's size)
and it is a local maximum along at least two of
the three axes: at least both neighbours along the axis and above one of them (a crest between two
voxels keeps both). A tube is a
maximum across it along the two axes nearest its cross-section, so its centre line is kept, and its
flanks, a maximum at most along the axis nearest the tube's own (and not at all where the tube runs
along an axis: equal neighbours are no maximum), are not; a sheet is a maximum along at most one
axis, a flat background along none. Last, ridge pieces (26-connected) of fewer than `--min-voxels`
voxels are dropped: a lone bright point, such as a single catalogue point far from the web, is no
filament.

  recall    the share of the true filaments' length within R voxels (--radius, default 3) of a ridge
            voxel, the filaments sampled every 0.25 voxel;
  precision the share of ridge voxels within R voxels of a true filament.

Cost: the blur and the maxima are a few passes over the volume; recall looks at the voxels of a
ball of radius R around each sample; precision measures each ridge voxel's distance to each segment
(ridge voxels times segments, in blocks), linear in the volume for a fixed truth.

Prints `recall R precision P (N ridge voxels, L voxels of filament)` and, with --json, writes those
numbers. Needs numpy (python3-numpy).
"""
import argparse
import json
import sys

import numpy as np

SAMPLE_SPACING = 0.25


def parse_box(text):
    try:
        ranges = [tuple(float(v) for v in r.split(":")) for r in text.split(",")]
    except ValueError:
        ranges = []
    if len(ranges) != 3 or any(len(r) != 2 or not r[0] < r[1] for r in ranges):
        raise ValueError(f"--box {text}: expected xmin:xmax,ymin:ymax,zmin:zmax with each min below its max")
    return ranges


def load_volume(path):
    volume = np.load(path).astype(np.float64)
    if volume.ndim == 4:
        volume = volume.sum(axis=0)
    if volume.ndim != 3:
        raise ValueError(f"{path}: shape {volume.shape}, expected (D, H, W) or (S, D, H, W)")
    return volume


def load_truth(path, box, shape):
    """The segments in voxel coordinates (x, y, z), an (n, 2, 3) array."""
    rows = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    if rows.shape[1] != 6:
        raise ValueError(f"{path}: {rows.shape[1]} columns, expected x0,y0,z0,x1,y1,z1")
    sides = np.array([shape[2], shape[1], shape[0]], dtype=np.float64)
    lo = np.array([r[0] for r in box])
    hi = np.array([r[1] for r in box])
    return ((rows.reshape(-1, 2, 3) - lo) * (sides / (hi - lo)))


def blurred(volume):
    out = volume
    for axis in range(3):
        out = (np.roll(out, 1, axis) + out + np.roll(out, -1, axis)) / 3.0
    return out


def ridges(volume, level, min_voxels):
    """The ridge voxels' indices (z, y, x), an (n, 3) array (see the module's text)."""
    smooth = blurred(volume)
    strong = smooth > level * smooth.mean()
    maxima = np.zeros(smooth.shape, dtype=np.int8)
    for axis in range(3):
        before, after = np.roll(smooth, 1, axis), np.roll(smooth, -1, axis)
        maxima += (smooth >= before) & (smooth >= after) & ((smooth > before) | (smooth > after))
    return without_specks(np.argwhere(strong & (maxima >= 2)), min_voxels)


def without_specks(voxels, min_voxels):
    """The voxels whose 26-connected component (not across the volume's faces) holds at least
    min_voxels of them: a lone bright point is no filament."""
    index = {tuple(v): i for i, v in enumerate(voxels.tolist())}
    steps = [(dz, dy, dx) for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dz, dy, dx) != (0, 0, 0)]
    keep = np.zeros(len(voxels), dtype=bool)
    seen = np.zeros(len(voxels), dtype=bool)
    for start in range(len(voxels)):
        if seen[start]:
            continue
        seen[start] = True
        component, frontier = [start], [start]
        while frontier:
            z, y, x = voxels[frontier.pop()]
            for dz, dy, dx in steps:
                j = index.get((z + dz, y + dy, x + dx))
                if j is not None and not seen[j]:
                    seen[j] = True
                    component.append(j)
                    frontier.append(j)
        if len(component) >= min_voxels:
            keep[component] = True
    return voxels[keep]


def samples(segments):
    """Points along every segment, SAMPLE_SPACING apart, and the length each stands for."""
    points, weights = [], []
    for a, b in segments:
        length = float(np.linalg.norm(b - a))
        n = max(1, int(np.ceil(length / SAMPLE_SPACING)))
        t = (np.arange(n) + 0.5) / n
        points.append(a + t[:, None] * (b - a))
        weights.append(np.full(n, length / n))
    return np.concatenate(points), np.concatenate(weights)


def recall(ridge_voxels, shape, segments, radius):
    mask = np.zeros(shape, dtype=bool)
    mask[tuple(ridge_voxels.T)] = True
    points, weights = samples(segments)
    # The voxels whose centres may lie within the radius of a sample: a cube around its voxel.
    base = np.floor(points).astype(np.int64)  # (x, y, z)
    r = int(np.ceil(radius)) + 1
    near = np.zeros(len(points), dtype=bool)
    for dz in range(-r, r + 1):
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                voxel = base + np.array([dx, dy, dz])
                centre = voxel + 0.5
                close = np.sum((centre - points) ** 2, axis=1) <= radius * radius
                # Voxels outside the volume wrap as the volume does; the truth lies inside it.
                x, y, z = (voxel[:, 0] % shape[2], voxel[:, 1] % shape[1], voxel[:, 2] % shape[0])
                near |= close & mask[z, y, x]
    return float(weights[near].sum() / weights.sum()), float(weights.sum())


def precision(ridge_voxels, segments, radius):
    if len(ridge_voxels) == 0:
        return 0.0
    centres = ridge_voxels[:, ::-1].astype(np.float64) + 0.5  # (x, y, z)
    a, b = segments[:, 0, :], segments[:, 1, :]
    ab = b - a
    ab2 = np.maximum(np.sum(ab * ab, axis=1), 1e-300)
    close = 0
    for start in range(0, len(centres), 4096):
        p = centres[start:start + 4096, None, :]  # (n, 1, 3) against (m, 3)
        t = np.clip(np.sum((p - a) * ab, axis=2) / ab2, 0.0, 1.0)
        d2 = np.sum((a + t[:, :, None] * ab - p) ** 2, axis=2)
        close += int(np.count_nonzero(d2.min(axis=1) <= radius * radius))
    return close / len(centres)


def measure(volume, segments, radius, level, min_voxels):
    found = ridges(volume, level, min_voxels)
    rec, length = recall(found, volume.shape, segments, radius)
    return {"recall": rec, "precision": precision(found, segments, radius), "ridge_voxels": int(len(found)),
            "filament_length_voxels": length, "radius_voxels": radius, "level": level,
            "min_voxels": min_voxels}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("volume", help="the grown network: a float .npy, (D, H, W) or (S, D, H, W)")
    parser.add_argument("truth", help="the true filaments: a CSV x0,y0,z0,x1,y1,z1 a row")
    parser.add_argument("--box", default="0:100,0:100,0:100",
                        help="the truth's units that fill the volume, xmin:xmax,ymin:ymax,zmin:zmax")
    parser.add_argument("--radius", type=float, default=3.0, help="R in voxels (default 3)")
    parser.add_argument("--level", type=float, default=3.0,
                        help="ridges are above this times the mean voxel (default 3)")
    parser.add_argument("--min-voxels", type=int, default=8,
                        help="drop ridge pieces of fewer voxels, 26-connected (default 8)")
    parser.add_argument("--json", help="also write the numbers to this JSON file")
    args = parser.parse_args(argv)
    if not args.radius > 0:
        parser.error(f"--radius {args.radius:g}: a length above 0 voxels")
    if not args.level >= 0:
        parser.error(f"--level {args.level:g}: 0 or more")
    if args.min_voxels < 1:
        parser.error(f"--min-voxels {args.min_voxels}: at least 1")
    try:
        box = parse_box(args.box)
        volume = load_volume(args.volume)
        segments = load_truth(args.truth, box, volume.shape)
    except (OSError, ValueError) as e:
        parser.error(str(e))
    result = measure(volume, segments, args.radius, args.level, args.min_voxels)
    print(f"recall {result['recall']:.3f} precision {result['precision']:.3f} ({result['ridge_voxels']} ridge "
          f"voxels, {result['filament_length_voxels']:.0f} voxels of filament, R {args.radius:g})")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
