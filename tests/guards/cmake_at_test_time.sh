#!/bin/sh
# Runs `cmake "$@"` with the cmake of the machine the tests run on: the path found at configure
# time ($1) may not exist there (a build tree copied to another machine). No cmake at all: exit 77,
# which ctest reports as skipped (SKIP_RETURN_CODE), with the places looked at.
configured="$1"
shift
if [ -x "$configured" ]; then
  exec "$configured" "$@"
fi
found="$(command -v cmake 2>/dev/null)"
if [ -n "$found" ]; then
  exec "$found" "$@"
fi
echo "physarum test: skipped: no cmake at $configured nor on PATH ($PATH)"
exit 77
