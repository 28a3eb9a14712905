#!/usr/bin/env bash
# `make install` then `make uninstall` (scripts/install, scripts/uninstall) into scratch prefixes:
# every installed file goes, every folder the install made goes once empty, and a folder that was
# there before (empty or not) stays, as does one where something else was put meanwhile.
# Usage: uninstall_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d /tmp/physarum-uninstall.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "uninstall_test: FAIL: $*" >&2; exit 1; }
tree() { (cd "$1" && find . | LC_ALL=C sort); }

# A prefix that exists, with an empty folder and a non-empty one that the install also uses.
prefix=$tmp/usr
mkdir -p "$prefix/bin" "$prefix/share/applications" "$prefix/share/doc/other"
echo "#!/bin/sh" >"$prefix/bin/other-tool"
echo "other" >"$prefix/share/doc/other/README"
tree "$prefix" >"$tmp/before"
"$src/scripts/install" "$build" "$prefix" "$tmp/record" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "install"; }
[ -x "$prefix/bin/physarum" ] && [ -f "$prefix/share/physarum/presets/coral.toml" ] || fail "nothing was installed"
# Something of the user's lands in a folder the install made: that folder must stay.
man_dir=$(dirname "$(find "$prefix/share/man" -name 'physarum.1*' | head -1)")
echo "theirs" >"$man_dir/theirs.1"
"$src/scripts/uninstall" "$tmp/record" | tee "$tmp/uninstall.log"
[ ! -e "$tmp/record" ] || fail "the record outlives the uninstall"
# Expected: what was there before, plus the user's file and the folders above it.
{
  cat "$tmp/before"
  rel=${man_dir#"$prefix"}
  while [ -n "$rel" ]; do echo ".$rel"; rel=${rel%/*}; done
  echo ".${man_dir#"$prefix"}/theirs.1"
} | LC_ALL=C sort -u >"$tmp/expected"
tree "$prefix" >"$tmp/after"
diff "$tmp/expected" "$tmp/after" || fail "after uninstalling, the prefix differs from before (above: - missing, + left over)"
grep -q "kept $man_dir" "$tmp/uninstall.log" || fail "uninstall did not say why it kept $man_dir"

# A prefix that does not exist, below a folder that does not either: both go, their parent stays.
prefix=$tmp/fresh/local
"$src/scripts/install" "$build" "$prefix" "$tmp/record" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "install"; }
# Installing twice keeps the first record's folders (the second finds them already there).
"$src/scripts/install" "$build" "$prefix" "$tmp/record" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "install"; }
[ -x "$prefix/bin/physarum" ] || fail "nothing was installed in the fresh prefix"
"$src/scripts/uninstall" "$tmp/record"
[ ! -e "$tmp/fresh" ] || { tree "$tmp/fresh"; fail "the folders the install made are left (above)"; }
[ -d "$tmp" ] || fail "the parent of the prefix was removed"

# A relative PREFIX is refused, naming it, and installs nothing.
if (cd "$tmp" && "$src/scripts/install" "$build" rel "$tmp/record2" 2>"$tmp/err"); then fail "a relative PREFIX was taken"; fi
grep -q "'rel'" "$tmp/err" || fail "the message does not name the PREFIX: $(cat "$tmp/err")"
[ ! -e "$tmp/rel" ] && [ ! -e "$tmp/record2" ] || fail "a refused install changed something"
echo "uninstall_test: passed"
