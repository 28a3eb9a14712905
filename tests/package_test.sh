#!/usr/bin/env bash
# `make package` makes a .deb that holds the program, its data, the man page, the desktop entry and
# the icon, depends on Debian runtime packages, installs with dpkg into a throwaway root, and runs
# from there. Skips (exit 77) where cpack or dpkg-deb are missing.
# Usage: package_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
for tool in cpack dpkg-deb dpkg; do
  if ! command -v $tool >/dev/null; then
    echo "package_test: Skipped"
    echo "  no $tool on this machine: the .deb cannot be made or checked"
    exit 77
  fi
done
tmp=$(mktemp -d /tmp/physarum-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "package_test: FAIL: $*" >&2; exit 1; }

if ! (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >cpack.log 2>&1); then
  if grep -q "Cannot find description file name" "$tmp/cpack.log"; then
    # A CMake installed without its data files (Templates/): cpack cannot run here at all.
    echo "package_test: Skipped"
    echo "  this machine's CMake lacks its CPack templates: $(grep -m1 'Cannot find' "$tmp/cpack.log")"
    exit 77
  fi
  cat "$tmp/cpack.log"
  fail "cpack"
fi
deb=$(ls "$tmp"/out/physarum_*.deb)
dpkg-deb -f "$deb" Package Version Depends Recommends
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libglfw3 libegl1 libgl1 libc6 libstdc++6; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
recommends=$(dpkg-deb -f "$deb" Recommends)
for pkg in python3 python3-numpy; do
  grep -qE -- "(^|, )$pkg( |,|$)" <<<"$recommends" || fail "Recommends lacks $pkg (the Python module): $recommends"
done
dpkg-deb -c "$deb" | awk '{print $6}' >"$tmp/contents"
for f in ./usr/bin/physarum ./usr/share/physarum/shaders/field_colour.comp ./usr/share/physarum/presets/coral.toml \
         ./usr/share/man/man1/physarum.1 ./usr/share/applications/physarum.desktop \
         ./usr/share/icons/hicolor/scalable/apps/physarum.svg ./usr/share/doc/physarum/LICENSE; do
  grep -qx -- "$f" "$tmp/contents" || fail "the package lacks $f"
done

# Install into a throwaway root with its own dpkg database (its dependencies are this machine's).
mkdir -p "$tmp/root" "$tmp/admin/updates" "$tmp/admin/info"
touch "$tmp/admin/status"
dpkg --force-not-root --force-depends --root="$tmp/root" --admindir="$tmp/admin" --log=/dev/null -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg -i into a throwaway root"; }
dpkg --admindir="$tmp/admin" -s physarum | grep -q "Status: install ok installed" || fail "dpkg does not list physarum as installed"
HOME=$tmp "$tmp/root/usr/bin/physarum" presets | tee "$tmp/presets.txt"
grep -q "^shipped ($tmp/root/usr/share/physarum/presets)" "$tmp/presets.txt" || fail "the packaged program does not find its presets"
echo "package_test: passed ($(basename "$deb"))"
