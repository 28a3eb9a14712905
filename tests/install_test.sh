#!/usr/bin/env bash
# An installed physarum works on its own: install the build into a temporary prefix, move that
# prefix elsewhere, hide the source and build trees where the kernel lets us (a private mount
# namespace with empty tmpfs over them), then list presets, render a frame, grow a preset on its
# point catalogue and read the man page from the moved copy. A copy of the bare executable with no
# data beside it must say where it looked.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d /tmp/physarum-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
mv "$tmp/prefix" "$tmp/moved"
root=$tmp/moved
for f in bin/physarum share/physarum/shaders/field_colour.comp share/physarum/palettes/viridis.palette \
         share/physarum/presets/coral.toml share/physarum/images/maze.png share/physarum/points/cosmic-web.csv \
         share/applications/physarum.desktop \
         share/icons/hicolor/scalable/apps/physarum.svg share/doc/physarum/README.md share/doc/physarum/LICENSE; do
  [ -f "$root/$f" ] || fail "$f was not installed"
done

# The checks, run from an unrelated directory with no PHYSARUM_* variables.
cat >"$tmp/checks.sh" <<CHECKS
set -euo pipefail
cd "$tmp"
unset PHYSARUM_DATA_DIR PHYSARUM_SHADER_DIR PHYSARUM_PALETTE_DIR PHYSARUM_PRESET_DIR PHYSARUM_IMAGE_DIR
export HOME="$tmp/home" XDG_CONFIG_HOME= EGL_PLATFORM=surfaceless
"$root/bin/physarum" presets >presets.txt
grep -q "^shipped ($root/share/physarum/presets)" presets.txt
grep -q "^  coral " presets.txt
"$root/bin/physarum" render --preset coral --backend cpu --size 96x64 --agents 3000 --steps 5 --out frame.png --quiet
head -c 8 frame.png | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"
"$root/bin/physarum" run --preset cosmic-web --size 16x16x16 --steps 2 --out web.npy 2>web.err
grep -q "4000 points of $root/share/physarum/points/cosmic-web.csv" web.err
mkdir -p lonely/bin && cp "$root/bin/physarum" lonely/bin/
if lonely/bin/physarum render --size 32x32 --agents 10 --steps 1 --out lonely.png --quiet 2>lonely.err; then exit 3; fi
grep -q "looked in" lonely.err
grep -q "$tmp/lonely/share/physarum/shaders" lonely.err
CHECKS

# Libraries found through LD_LIBRARY_PATH inside the source tree (a machine that lacks some system
# packages may carry them there) would vanish with it: copy them out first.
if [ -n "${LD_LIBRARY_PATH:-}" ]; then
  kept=""
  IFS=: read -ra lib_dirs <<<"$LD_LIBRARY_PATH"
  for d in "${lib_dirs[@]}"; do
    case "$(cd "$d" 2>/dev/null && pwd -P)" in
      "$src"/* | "$(cd "$src" && pwd -P)"/*) mkdir -p "$tmp/libs" && cp -L "$d"/*.so* "$tmp/libs/" 2>/dev/null; d=$tmp/libs ;;
    esac
    kept=${kept:+$kept:}$d
  done
  export LD_LIBRARY_PATH=$kept
fi

hidden=no
if unshare -m true 2>/dev/null; then
  # Private mounts: empty tmpfs over the source tree (and the build tree, if it lies outside it).
  mounts="mount -t tmpfs none '$src'"
  case "$build" in "$src"/*) ;; *) mounts="$mounts && mount -t tmpfs none '$build'" ;; esac
  if unshare -m sh -c "$mounts && test ! -e '$src/CMakeLists.txt'" 2>/dev/null; then
    unshare -m sh -c "$mounts && bash '$tmp/checks.sh'" || fail "the installed copy did not work with the source tree hidden (see above)"
    hidden=yes
  fi
fi
if [ "$hidden" = no ]; then
  echo "install_test: cannot hide the source tree here (no private mounts); running from the moved copy"
  bash "$tmp/checks.sh" || fail "the installed copy did not work (see above)"
fi
cat "$tmp/presets.txt"
echo "a bare copy of the executable said:"; grep -A6 "error" "$tmp/lonely.err"

man_page=$root/share/man/man1/physarum.1.gz
[ -f "$man_page" ] || fail "no man page at share/man/man1/physarum.1.gz"
zgrep -q 'COMMAND: PHYSARUM RENDER' "$man_page" || fail "the man page lacks the render subcommand"
if command -v man >/dev/null; then
  MANPATH="$root/share/man" MANWIDTH=100 man physarum 2>/dev/null | grep -q -- "--preset" || fail "'man physarum' does not show the options"
fi
echo "install_test: passed (source tree hidden: $hidden)"
