#!/usr/bin/env bash
# scripts/make-points.py writes the shipped examples/galaxies.csv and assets/points/cosmic-web.csv
# (with its truth) byte for byte from their recorded arguments, and the same arguments twice give
# the same bytes; another seed gives another catalogue.
# --truth writes the filaments the points lie along; bad shares are refused.
# 77: skipped, saying why (no numpy).
set -euo pipefail
src=$1
python=$2
"$python" -c 'import numpy' 2>/dev/null || { echo "python3-numpy is not installed (scripts/install-deps installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" "$src/scripts/make-points.py" --seed 3 --points 20000 --out "$work/a.csv"
cmp "$work/a.csv" "$src/examples/galaxies.csv" || { echo "FAIL: the script no longer writes examples/galaxies.csv"; exit 1; }
"$python" "$src/scripts/make-points.py" --seed 7 --points 4000 --nodes 24 --cluster-share 0.15 --field-share 0.15 \
  --out "$work/web.csv" --truth "$work/web-truth.csv"
cmp "$work/web.csv" "$src/assets/points/cosmic-web.csv" || { echo "FAIL: the script no longer writes cosmic-web.csv"; exit 1; }
cmp "$work/web-truth.csv" "$src/assets/points/cosmic-web-truth.csv" || { echo "FAIL: nor its truth"; exit 1; }
"$python" "$src/scripts/make-points.py" --seed 4 --points 500 --out "$work/b.csv"
[ "$(wc -l <"$work/b.csv")" -eq 501 ] || { echo "FAIL: 500 points and a header expected"; exit 1; }
head -1 "$work/b.csv" | grep -qx 'x,y,z,weight' || { echo "FAIL: no header"; exit 1; }
if cmp -s <(tail -n +2 "$work/b.csv") <(sed -n 2,501p "$work/a.csv"); then echo "FAIL: seed 4 wrote seed 3's points"; exit 1; fi
if "$python" "$src/scripts/make-points.py" --points 0 --out "$work/c.csv" 2>"$work/err"; then echo "FAIL: --points 0 taken"; exit 1; fi
grep -q -- '--points 0' "$work/err" || { echo "FAIL: the refusal does not name the value"; cat "$work/err"; exit 1; }
[ ! -e "$work/c.csv" ] || { echo "FAIL: a refused run wrote a file"; exit 1; }
# --truth: with every point on a filament, each lies within 5 sigma (4 units) of a segment of the
# truth file, and the truth is the same whatever the point count.
"$python" "$src/scripts/make-points.py" --seed 5 --points 300 --cluster-share 0 --field-share 0 \
  --out "$work/f.csv" --truth "$work/f-truth.csv"
"$python" "$src/scripts/make-points.py" --seed 5 --points 40 --out "$work/g.csv" --truth "$work/g-truth.csv"
cmp "$work/f-truth.csv" "$work/g-truth.csv" || { echo "FAIL: the truth depends on the point count"; exit 1; }
head -1 "$work/f-truth.csv" | grep -qx 'x0,y0,z0,x1,y1,z1' || { echo "FAIL: no truth header"; exit 1; }
"$python" - "$work/f.csv" "$work/f-truth.csv" <<'PY' || exit 1
import sys
import numpy as np
p = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)[:, :3]
s = np.loadtxt(sys.argv[2], delimiter=",", skiprows=1, ndmin=2)
a, b = s[:, :3], s[:, 3:]
t = np.clip(np.einsum("pij,ij->pi", p[:, None, :] - a, b - a) / np.sum((b - a) ** 2, axis=1), 0, 1)
d = np.linalg.norm(a + t[:, :, None] * (b - a) - p[:, None, :], axis=2).min(axis=1)
if len(s) < 11 or d.max() > 4.0:
    sys.exit(f"FAIL: {len(s)} filaments, a filament point {d.max():.2f} units from the truth")
PY
for bad in "--cluster-share 1.5" "--field-share -0.1" "--cluster-share 0.6 --field-share 0.6"; do
  # shellcheck disable=SC2086
  if "$python" "$src/scripts/make-points.py" $bad --out "$work/h.csv" 2>"$work/err"; then echo "FAIL: $bad taken"; exit 1; fi
  grep -q -- "${bad%% *}" "$work/err" || { echo "FAIL: the refusal of $bad does not name it"; cat "$work/err"; exit 1; }
  [ ! -e "$work/h.csv" ] || { echo "FAIL: a refused run wrote a file"; exit 1; }
done
echo "make-points: ok"
