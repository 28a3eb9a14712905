#!/usr/bin/env python3
"""Draws the seed images in assets/images/ procedurally (standard library only).

Every picture here is made by this script, so the project ships nobody else's images. Run it from
anywhere: `python3 scripts/make-images.py [outdir]`. The output is deterministic (fixed seeds).

  maze.png    a perfect maze, white corridors on black: Physarum famously finds paths through one
  cities.png  bright "food" spots of different sizes scattered like towns, to grow a network between
  rings.png   interference of two sets of concentric rings with a soft vignette
"""
import math
import os
import random
import struct
import sys
import zlib

W, H = 640, 360


def write_png(path, width, height, rows, colour):
    """rows: list of bytes, one per row; colour: True for RGB, False for 8-bit grey."""
    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(r) for r in rows)  # filter type 0 on every row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2 if colour else 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", ihdr))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def maze(rng):
    cell = 20  # corridor pitch in pixels; corridors are half of it wide
    cw, ch = W // cell, H // cell
    grey = [[0] * W for _ in range(H)]
    seen = [[False] * cw for _ in range(ch)]

    def carve(x0, y0, x1, y1):
        for y in range(y0, y1):
            row = grey[y]
            for x in range(x0, x1):
                row[x] = 255

    def open_cell(cx, cy):
        x, y = cx * cell + cell // 4, cy * cell + cell // 4
        carve(x, y, x + cell // 2, y + cell // 2)

    # Depth-first search with an explicit stack (no recursion limit).
    stack = [(0, 0)]
    seen[0][0] = True
    open_cell(0, 0)
    while stack:
        cx, cy = stack[-1]
        nbrs = [(cx + dx, cy + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= cx + dx < cw and 0 <= cy + dy < ch and not seen[cy + dy][cx + dx]]
        if not nbrs:
            stack.pop()
            continue
        nx, ny = rng.choice(nbrs)
        seen[ny][nx] = True
        open_cell(nx, ny)
        # The passage between the two cells.
        x0 = min(cx, nx) * cell + cell // 4
        y0 = min(cy, ny) * cell + cell // 4
        x1 = max(cx, nx) * cell + cell // 4 + cell // 2
        y1 = max(cy, ny) * cell + cell // 4 + cell // 2
        carve(x0, y0, x1, y1)
        stack.append((nx, ny))
    return [bytes(r) for r in grey]


def cities(rng):
    spots = []
    # A few big towns and many villages, kept apart a little.
    while len(spots) < 36:
        x, y = rng.uniform(20, W - 20), rng.uniform(20, H - 20)
        r = 10.0 if len(spots) < 6 else rng.uniform(3.0, 6.0)
        if all((x - sx) ** 2 + (y - sy) ** 2 > (r + sr + 18) ** 2 for sx, sy, sr in spots):
            spots.append((x, y, r))
    rows = []
    for y in range(H):
        row = bytearray(W * 3)
        for x in range(W):
            v = 0.0
            for sx, sy, sr in spots:
                d2 = (x - sx) ** 2 + (y - sy) ** 2
                if d2 < 16 * sr * sr:
                    v += math.exp(-d2 / (2 * sr * sr))
            v = min(1.0, v)
            # Warm yellow spots; the simulation uses the luminance.
            row[3 * x] = int(255 * v)
            row[3 * x + 1] = int(220 * v)
            row[3 * x + 2] = int(120 * v)
        rows.append(bytes(row))
    return rows


def rings():
    c1 = (W * 0.35, H * 0.45)
    c2 = (W * 0.68, H * 0.58)
    rows = []
    for y in range(H):
        row = bytearray(W * 3)
        for x in range(W):
            d1 = math.hypot(x - c1[0], y - c1[1])
            d2 = math.hypot(x - c2[0], y - c2[1])
            a = 0.5 + 0.5 * math.cos(d1 * 0.22)
            b = 0.5 + 0.5 * math.cos(d2 * 0.17)
            vignette = max(0.0, 1.0 - ((x / W - 0.5) ** 2 + (y / H - 0.5) ** 2) * 2.2)
            v = (a * b) ** 1.5 * vignette
            # 64 levels per channel: looks the same, compresses to a fraction.
            row[3 * x] = int(255 * min(1.0, v * 0.6 + a * 0.15 * vignette)) & 0xFC
            row[3 * x + 1] = int(255 * min(1.0, v * 0.9)) & 0xFC
            row[3 * x + 2] = int(255 * min(1.0, v + b * 0.2 * vignette)) & 0xFC
        rows.append(bytes(row))
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "assets", "images")
    os.makedirs(out, exist_ok=True)
    write_png(os.path.join(out, "maze.png"), W, H, maze(random.Random(5)), False)
    write_png(os.path.join(out, "cities.png"), W, H, cities(random.Random(11)), True)
    write_png(os.path.join(out, "rings.png"), W, H, rings(), True)
    print("wrote maze.png, cities.png, rings.png to", os.path.normpath(out))


if __name__ == "__main__":
    main()
