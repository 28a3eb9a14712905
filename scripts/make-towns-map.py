#!/usr/bin/env python3
"""Draws the map of the towns showcase (standard library only, deterministic).

  towns_walls.png  a stylised coast: white land, black sea (a walls image: dark pixels are walls).
                   A wavy coastline along the bottom, a deep bay cut into the middle, a peninsula
                   on the right, an inland lake and a few islands offshore.
  towns_food.png   24 towns as white dots on black (a food image), all on the mainland: the
                   network has to run round the bay and the lake to link them.

Run it from anywhere: `python3 scripts/make-towns-map.py [outdir]` (default assets/images). The
towns are drawn from random.Random(2010) (the year of the railway experiment); the same script
always writes the same bytes.
"""
import importlib.util
import math
import os
import random
import sys

W, H = 640, 360
TOWNS = 24
SS = 4  # supersampling per axis for anti-aliased edges


def load_write_png():
    # One PNG writer for every generated image: make-images.py's.
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("make_images", os.path.join(here, "make-images.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write_png


def ellipse(x, y, cx, cy, rx, ry, wobble=0.0, phase=0.0):
    """<= 1 inside an ellipse whose radius wobbles with the angle (a rugged outline)."""
    dx, dy = (x - cx) / rx, (y - cy) / ry
    a = math.atan2(dy, dx)
    r = 1.0 + wobble * (0.6 * math.sin(3 * a + phase) + 0.4 * math.sin(7 * a + 2 * phase))
    return math.hypot(dx, dy) / r


def coast_y(x):
    """The mainland's coast: land above this line, sea below."""
    return (H * 0.70 + 16 * math.sin(x * 0.021 + 0.4) + 9 * math.sin(x * 0.057 + 1.3)
            + 4 * math.sin(x * 0.13 + 2.1) - 22 * math.exp(-((x - 580) / 45.0) ** 2))


def is_land(x, y):
    land = y < coast_y(x)
    # The bay: sea reaching up into the middle of the land.
    if ellipse(x, y, 300, 190, 40, 80, 0.12, 0.7) < 1.0 or ellipse(x, y, 305, 265, 75, 42, 0.08, 1.6) < 1.0:
        land = False
    # The peninsula: land running down into the sea on the right.
    if ellipse(x, y, 470, 262, 34, 70, 0.12, 1.9) < 1.0:
        land = True
    # An inland lake in the upper left.
    if ellipse(x, y, 150, 115, 48, 26, 0.15, 0.3) < 1.0:
        land = False
    # Islands offshore (no towns: they cannot be reached on foot).
    for cx, cy, rx, ry, ph in ((90, 320, 30, 14, 0.2), (210, 335, 18, 10, 1.1), (585, 330, 22, 12, 2.5)):
        if ellipse(x, y, cx, cy, rx, ry, 0.2, ph) < 1.0:
            land = True
    return land


def walls_rows():
    rows = []
    n = SS * SS
    for y in range(H):
        row = bytearray(W)
        for x in range(W):
            inside = 0
            for j in range(SS):
                for i in range(SS):
                    if is_land(x + (i + 0.5) / SS - 0.5, y + (j + 0.5) / SS - 0.5):
                        inside += 1
            row[x] = (255 * inside + n // 2) // n
        rows.append(bytes(row))
    return rows


def mainland_mask(rows):
    """Land pixels 4-connected to the top-left corner (the mainland)."""
    seen = bytearray(W * H)
    stack = [(5, 5)]
    seen[5 * W + 5] = 1
    while stack:
        x, y = stack.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < W and 0 <= ny < H and not seen[ny * W + nx] and rows[ny][nx] >= 128:
                seen[ny * W + nx] = 1
                stack.append((nx, ny))
    return seen


def place_towns(rows, rng):
    """Towns on the mainland, at least 14 px from the sea and 42 px from each other; a few cities."""
    main = mainland_mask(rows)

    def clear_of_sea(x, y, margin):
        for dy in range(-margin, margin + 1):
            for dx in range(-margin, margin + 1):
                if dx * dx + dy * dy > margin * margin:
                    continue
                px, py = x + dx, y + dy
                if 0 <= px < W and 0 <= py < H and not main[py * W + px]:
                    return False
        return True

    towns = []
    tries = 0
    while len(towns) < TOWNS:
        tries += 1
        if tries > 100000:
            raise SystemExit("could not place the towns")
        x, y = rng.randint(12, W - 13), rng.randint(12, H - 13)
        if not clear_of_sea(x, y, 14):
            continue
        if any((x - tx) ** 2 + (y - ty) ** 2 < 42 ** 2 for tx, ty, _ in towns):
            continue
        r = 5.0 if len(towns) < 4 else 3.5  # the first four are cities
        towns.append((x, y, r))
    return towns


def food_rows(towns):
    rows = []
    n = SS * SS
    for y in range(H):
        row = bytearray(W)
        for x in range(W):
            inside = 0
            for tx, ty, r in towns:
                if abs(x - tx) > r + 1 or abs(y - ty) > r + 1:
                    continue
                for j in range(SS):
                    for i in range(SS):
                        px, py = x + (i + 0.5) / SS - 0.5, y + (j + 0.5) / SS - 0.5
                        if (px - tx) ** 2 + (py - ty) ** 2 <= r * r:
                            inside += 1
            row[x] = min(255, (255 * inside + n // 2) // n)
        rows.append(bytes(row))
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "assets", "images")
    os.makedirs(out, exist_ok=True)
    write_png = load_write_png()
    walls = walls_rows()
    towns = place_towns(walls, random.Random(2010))
    write_png(os.path.join(out, "towns_walls.png"), W, H, walls, False)
    write_png(os.path.join(out, "towns_food.png"), W, H, food_rows(towns), False)
    land = sum(1 for r in walls for v in r if v >= 128)
    print("wrote towns_walls.png (land %.0f%%) and towns_food.png (%d towns) to %s"
          % (100.0 * land / (W * H), len(towns), os.path.normpath(out)))


if __name__ == "__main__":
    main()
