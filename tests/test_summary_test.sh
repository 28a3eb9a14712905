#!/usr/bin/env bash
# scripts/test-summary against a made-up ctest log: the count of skipped tests and the reasons it
# lists must agree, parameterised tests (Prefix/Suite.Name/0) included.
set -euo pipefail
summary=$1/scripts/test-summary
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Testing/Temporary"
{
  for name in Cuda.Fill Gpu/Matching.Step/0 Gpu/Matching.Step/1 Species/Blend.OnCuda/three_species; do
    printf '[ RUN      ] %s\n/src/tests/test_cuda.cpp:12: Skipped\nno CUDA device\n\n' "$name"
    printf '[  SKIPPED ] %s (0 ms)\n' "$name"
  done
  printf '[ RUN      ] Window.Opens\n/src/tests/test_window.cpp:9: Skipped\nno display\n\n[  SKIPPED ] Window.Opens (3 ms)\n'
  printf '[ RUN      ] Cli.Runs\n[       OK ] Cli.Runs (20 ms)\n'
  printf '[  SKIPPED ] 5 tests, listed below:\n[  SKIPPED ] Cuda.Fill\n[  SKIPPED ] Gpu/Matching.Step/0\n'
} >"$work/Testing/Temporary/LastTest.log"
out=$(env -u PHYSARUM_CI "$summary" "$work")
echo "$out"
grep -qx 'Skipped 5 test(s), and why:' <<<"$out" || { echo "FAIL: expected a count of 5"; exit 1; }
grep -qx '  4 no CUDA device' <<<"$out" || { echo "FAIL: expected 4 CUDA reasons"; exit 1; }
grep -qx '  1 no display' <<<"$out" || { echo "FAIL: expected 1 display reason"; exit 1; }
listed=$(grep -E '^  [0-9]+ ' <<<"$out" | awk '{n += $1} END {print n}')
[ "$listed" -eq 5 ] || { echo "FAIL: reasons add up to $listed, not 5"; exit 1; }
echo "test-summary: count and reasons agree"

# In CI (PHYSARUM_CI) a skip for lack of something scripts/install-deps installs fails the summary;
# a skip for what CI cannot have (a CUDA device, an EGL context on the NVIDIA device) does not.
PHYSARUM_CI=1 "$summary" "$work" >/dev/null || { echo "FAIL: CUDA and display skips failed CI mode"; exit 1; }
printf '[ RUN      ] Video.Plays\n/src/tests/test_video.cpp:3: Skipped\nffmpeg/ffprobe not installed\n\n[  SKIPPED ] Video.Plays (1 ms)\n' \
  >>"$work/Testing/Temporary/LastTest.log"
printf 'gpu.one: Skipped\n  no EGL context on the NVIDIA device: none\n' >>"$work/Testing/Temporary/LastTest.log"
printf 'SKIPPED [1] tests/test_view.py:49: this NumPy gives read-only arrays from DLPack\n' >>"$work/Testing/Temporary/LastTest.log"
env -u PHYSARUM_CI "$summary" "$work" >/dev/null || { echo "FAIL: outside CI a skip is no failure"; exit 1; }
if out=$(PHYSARUM_CI=1 "$summary" "$work"); then echo "FAIL: CI mode passed a skip for lack of ffmpeg"; exit 1; fi
grep -q '1 ffmpeg/ffprobe not installed' <<<"$out" || { echo "FAIL: CI mode did not name ffmpeg: $out"; exit 1; }
sed -n '/FAILED in CI/,$p' <<<"$out" | grep -q 'NVIDIA' && { echo "FAIL: CI mode named the NVIDIA skip"; exit 1; }
sed -n '/FAILED in CI/,$p' <<<"$out" | grep -q 'read-only' && { echo "FAIL: CI mode named a skip that lacks nothing"; exit 1; }
grep -qx 'Skipped 7 test(s), and why:' <<<"$out" || { echo "FAIL: a script's skip (NAME: Skipped) counts once: $out"; exit 1; }
echo "test-summary: in CI a skip for lack of an installed program fails"
