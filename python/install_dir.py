"""Prints where `cmake --install` should put the module, relative to the install prefix (argv[1])."""
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") or "/"
version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
# Debian's interpreter reads dist-packages: /usr/lib/python3/dist-packages for packages of /usr,
# /usr/local/lib/python3.X/dist-packages for everything else installed by hand.
if any(p.endswith("dist-packages") for p in sys.path):
    print("lib/python3/dist-packages" if prefix == "/usr" else f"lib/{version}/dist-packages")
else:
    path = sysconfig.get_path("platlib", "posix_prefix", vars={"platbase": "@", "base": "@"})
    print(path[2:] if path.startswith("@/") else f"lib/{version}/site-packages")
