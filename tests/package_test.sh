#!/usr/bin/env bash
# `make package` makes a .deb that holds the program, its data, the man page, the desktop entry,
# the icon and the Python module, depends on Debian runtime packages, follows Debian's policy
# (copyright, changelog, owners, modes, stripped, no RPATH), installs with dpkg into a throwaway
# root, and runs from there, the module with the search path Debian's python3 has. With "lintian"
# as third argument it checks only that lintian finds no error or warning in it. Skips (exit 77)
# where cpack, dpkg-deb or (for that check) lintian are missing.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR [lintian]
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
mode=${3:-}
tools="cpack dpkg-deb dpkg"
# lintian pulls in some 130 Perl packages, too many for `make test` to install by itself.
[ "$mode" = lintian ] && tools="$tools lintian"
for tool in $tools; do
  if ! command -v $tool >/dev/null; then
    echo "package_test: Skipped"
    echo "  no $tool on this machine: the .deb cannot be made or checked$([ $tool = lintian ] && echo " by it (apt-get install lintian)")"
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
if [ "$mode" = lintian ]; then
  # lintian warns when run as root (as in a container); that line is no finding about the package.
  lintian --tag-display-limit 0 "$deb" 2>&1 | grep -v "running with root privileges" | tee "$tmp/lintian.log" || true
  grep -qE '^[EW]: ' "$tmp/lintian.log" && fail "lintian reports errors or warnings (above)"
  echo "package_test: lintian finds no error or warning in $(basename "$deb") ($(lintian --version))"
  exit 0
fi
dpkg-deb -f "$deb" Package Version Maintainer Section Priority Depends Recommends
field() { dpkg-deb -f "$deb" "$1"; }
[[ "$(field Version)" =~ ^[0-9.]+-[0-9]+$ ]] || fail "Version has no Debian revision: $(field Version)"
maintainer=$(field Maintainer)
address='^[^<>@]+ <[^<>@]+@[^<>@]+\.[a-z]+>$'
[[ "$maintainer" =~ $address ]] || fail "the Maintainer is not a name and an address: $maintainer"
case "$maintainer" in *@localhost* | *example*) fail "the Maintainer is a placeholder: $maintainer" ;; esac
[ -n "$(field Section)" ] && [ -n "$(field Priority)" ] || fail "Section or Priority missing"
depends=$(field Depends)
for lib in libglfw3 libegl1 libgl1 libc6 libstdc++6 liblo7 librtmidi; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
recommends=$(field Recommends)
for pkg in python3 python3-numpy; do
  grep -qE -- "(^|, )$pkg( |,|$)" <<<"$recommends" || fail "Recommends lacks $pkg (the Python module): $recommends"
done
dpkg-deb -c "$deb" >"$tmp/listing"
awk '{print $6}' "$tmp/listing" >"$tmp/contents"
for f in ./usr/bin/physarum ./usr/share/physarum/shaders/field_colour.comp ./usr/share/physarum/presets/coral.toml \
         ./usr/share/man/man1/physarum.1.gz ./usr/share/applications/physarum.desktop \
         ./usr/share/icons/hicolor/scalable/apps/physarum.svg ./usr/share/doc/physarum/LICENSE \
         ./usr/share/doc/physarum/copyright ./usr/share/doc/physarum/changelog.Debian.gz \
         ./usr/lib/python3/dist-packages/physarum.pyi; do
  grep -qx -- "$f" "$tmp/contents" || fail "the package lacks $f"
done
awk '$2 != "root/root" {print "  " $2, $6}' "$tmp/listing" | grep . && fail "files not owned by root:root (above)"
awk '$1 ~ /^.....w|^........w/ {print "  " $1, $6}' "$tmp/listing" | grep . && fail "group- or world-writable files (above)"

# The Debian files, read back independently of how they were made.
mkdir -p "$tmp/x"
dpkg-deb -x "$deb" "$tmp/x"
doc=$tmp/x/usr/share/doc/physarum
head -1 "$doc/copyright" | grep -qx "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ||
  fail "the copyright file is not machine-readable (DEP-5)"
grep -qx "Copyright: $(sed -n 's/^Copyright (c) //p' "$src/LICENSE")" "$doc/copyright" || fail "copyright holder differs from LICENSE"
# The licence text, unindented and with "." lines blank again, is LICENSE's from its first paragraph on.
diff <(sed -n '/^ Permission/,$p' "$doc/copyright" | sed 's/^ //; s/^\.$//') \
     <(sed -n '/^Permission/,$p' "$src/LICENSE") || fail "the copyright file's licence text differs from LICENSE"
for gz in "$doc/changelog.Debian.gz" "$tmp/x/usr/share/man/man1/physarum.1.gz"; do
  gzip -t "$gz" || fail "$gz is not gzip"
  # Bytes 3-7 of a gzip header: flags (FNAME is 0x08) and the time stamp; gzip -n leaves both empty.
  [ "$(od -An -tx1 -j3 -N5 "$gz" | tr -d ' ')" = 0000000000 ] || fail "$gz holds a name or time stamp (not gzip -n)"
done
zcat "$doc/changelog.Debian.gz" | head -1 | grep -q "^physarum ($(field Version)) " ||
  fail "the changelog's newest entry is not version $(field Version)"
for elf in "$tmp/x/usr/bin/physarum" "$tmp/x"/usr/lib/python3/dist-packages/physarum*.so; do
  [ -f "$elf" ] || fail "no $elf"
  readelf -S "$elf" | grep -qE '\.(symtab|debug_)' && fail "$elf is not stripped"
  readelf -d "$elf" | grep -qE 'RPATH|RUNPATH' && fail "$elf has an RPATH"
done


# Install into a throwaway root with its own dpkg database (its dependencies are this machine's).
mkdir -p "$tmp/root" "$tmp/admin/updates" "$tmp/admin/info"
touch "$tmp/admin/status"
dpkg --force-not-root --force-depends --root="$tmp/root" --admindir="$tmp/admin" --log=/dev/null -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg -i into a throwaway root"; }
dpkg --admindir="$tmp/admin" -s physarum | grep -q "Status: install ok installed" || fail "dpkg does not list physarum as installed"
HOME=$tmp "$tmp/root/usr/bin/physarum" presets | tee "$tmp/presets.txt"
grep -q "^shipped ($tmp/root/usr/share/physarum/presets)" "$tmp/presets.txt" || fail "the packaged program does not find its presets"
# The module: Debian's python3 must find it on its own search path (here each /usr folder of that
# path moved into the throwaway root), for this interpreter's version, with its data beside it.
# Debian's interpreter, not one first on PATH (pyenv, a venv), is the one the package serves.
py=/usr/bin/python3
if [ -n "$(ls "$tmp"/root/usr/lib/python3*/dist-packages/physarum*.so 2>/dev/null)" ] && [ -x $py ] &&
  $py -c "import numpy" 2>/dev/null; then
  (cd "$tmp" && env -u PYTHONPATH -u PHYSARUM_DATA_DIR $py -c "
import sys
sys.path[:] = ['$tmp/root' + p for p in sys.path if p.startswith('/usr/')]
import physarum
assert physarum.__file__.startswith('$tmp/root/usr/lib/'), physarum.__file__
try:
    physarum.Sim(preset='no-such-preset', backend='cpu')
except ValueError as e:
    assert '$tmp/root/usr/share/physarum/presets' in str(e), e
s = physarum.Sim(preset='coral', size=(32, 24), agents=200, backend='cpu')
s.step(2)
print('python3 imports', physarum.__file__)") || fail "the packaged module does not import, or not with its data"
else
  echo "package_test: no Python module in the package, or no $py with NumPy here: the module is not tried"
fi
echo "package_test: passed ($(basename "$deb"))"
