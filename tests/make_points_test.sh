#!/usr/bin/env bash
# scripts/make-points.py writes the shipped examples/galaxies.csv byte for byte from its recorded
# arguments, and the same arguments twice give the same bytes; another seed gives another catalogue.
# 77: skipped, saying why (no numpy).
set -euo pipefail
src=$1
python=$2
"$python" -c 'import numpy' 2>/dev/null || { echo "python3-numpy is not installed (scripts/install-deps installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" "$src/scripts/make-points.py" --seed 3 --points 20000 --out "$work/a.csv"
cmp "$work/a.csv" "$src/examples/galaxies.csv" || { echo "FAIL: the script no longer writes examples/galaxies.csv"; exit 1; }
"$python" "$src/scripts/make-points.py" --seed 4 --points 500 --out "$work/b.csv"
[ "$(wc -l <"$work/b.csv")" -eq 501 ] || { echo "FAIL: 500 points and a header expected"; exit 1; }
head -1 "$work/b.csv" | grep -qx 'x,y,z,weight' || { echo "FAIL: no header"; exit 1; }
if cmp -s <(tail -n +2 "$work/b.csv") <(sed -n 2,501p "$work/a.csv"); then echo "FAIL: seed 4 wrote seed 3's points"; exit 1; fi
if "$python" "$src/scripts/make-points.py" --points 0 --out "$work/c.csv" 2>"$work/err"; then echo "FAIL: --points 0 taken"; exit 1; fi
grep -q -- '--points 0' "$work/err" || { echo "FAIL: the refusal does not name the value"; cat "$work/err"; exit 1; }
[ ! -e "$work/c.csv" ] || { echo "FAIL: a refused run wrote a file"; exit 1; }
echo "make-points: ok"
