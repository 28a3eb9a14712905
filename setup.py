"""`pip install --no-build-isolation .`: builds physarum with CMake for the Python that runs pip and
installs the module (`import physarum`), its data (PREFIX/share/physarum) and, built from source,
the `physarum` program, as `cmake --install` would into that environment's prefix.

    python3 -m venv --system-site-packages env && env/bin/pip install --no-build-isolation .

The build's own tools (cmake, a compiler, the -dev packages, setuptools, wheel) come from Debian
(scripts/install-deps), not from a package index: hence --no-build-isolation. The environment steers it:

  PHYSARUM_CMAKE_BUILD_DIR  a build folder of this project with position-independent libraries
                            (configured with -DCMAKE_POSITION_INDEPENDENT_CODE=ON, or with the Python
                            module, and built): only python/src is compiled, against its libraries,
                            and the wheel holds the module and the data, not the program. A
                            relative path is taken from the source folder (where pip builds).
  PHYSARUM_PIP_BUILD_DIR    where CMake builds (default: build/pip-<python>, or build/pip-<python>-module
                            with PHYSARUM_CMAKE_BUILD_DIR), kept so that a second install is quick.
  PHYSARUM_LIB_DIR          shared libraries the libraries of PHYSARUM_CMAKE_BUILD_DIR link that this
                            machine lacks, found by soname (python/libraries.cmake).
  CMAKE_ARGS                more options for CMake's configure, e.g. "-DPHYSARUM_CUDA=OFF".
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    """The version is CMakeLists.txt's `project(physarum VERSION ...)`, nowhere else."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(\s*physarum\s+VERSION\s+([0-9][0-9.]*)", text).group(1)


def module_dir():
    """Where pip puts the module relative to where it puts the data (the prefix): the module finds
    PREFIX/share/physarum that many folders above its own (python/src/data_location.cpp)."""
    return Path(os.path.relpath(sysconfig.get_path("platlib"), sysconfig.get_path("data"))).as_posix()


def libraries_from():
    given = os.environ.get("PHYSARUM_CMAKE_BUILD_DIR", "")
    return str(Path(given).resolve()) if given else ""


def build_dir():
    given = os.environ.get("PHYSARUM_PIP_BUILD_DIR")
    if given:
        return Path(given).resolve()
    name = "pip-" + sys.implementation.cache_tag + ("-module" if libraries_from() else "")
    return ROOT / "build" / name


def run(command):
    print("+ " + shlex.join(command), flush=True)
    subprocess.run(command, check=True)


def pybind11_include():
    """pip's pybind11 where this Python has one (the GPU machine), else CMake finds pybind11-dev's."""
    try:
        import pybind11
    except ImportError:
        return []
    return ["-DPHYSARUM_PYBIND11_INCLUDE_DIR=" + pybind11.get_include()]


class CMakeBuild(build_ext):
    """Configures, builds and installs into a stage folder with CMake; the module goes where pip puts
    extension modules, everything else the install put in the stage goes to the same place under the
    environment's prefix (data_files)."""

    def run(self):
        if self.inplace:
            sys.exit("physarum: no editable install (the module is compiled, its data installed): "
                     "use the build tree's module, PYTHONPATH=build/python, or pip install without -e")
        # cmake and ninja installed by pip into this environment count, as they would once activated.
        os.environ["PATH"] = sysconfig.get_path("scripts") + os.pathsep + os.environ.get("PATH", "")
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit("physarum: cmake not found: install it (sudo apt-get install cmake, or scripts/install-deps)")
        folder = build_dir()
        stage = folder / "pip-stage"
        self.configure(cmake, folder)
        build = [cmake, "--build", str(folder)]
        if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
            build += ["--parallel", str(os.cpu_count() or 1)]
        run(build)
        shutil.rmtree(stage, ignore_errors=True)
        run([cmake, "--install", str(folder), "--prefix", str(stage)])
        self.place(stage)

    def configure(self, cmake, folder):
        command = [cmake, "-S", str(ROOT), "-B", str(folder)]
        if not (folder / "CMakeCache.txt").exists() and shutil.which("ninja") and "CMAKE_GENERATOR" not in os.environ:
            command += ["-G", "Ninja"]
        command += [
            "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_TESTING=OFF",
            "-DPython3_EXECUTABLE=" + sys.executable,
            "-DPHYSARUM_PYTHON=ON",
            "-DPHYSARUM_PYTHON_REQUIRED=ON",
            "-DPHYSARUM_PYTHON_INSTALL_DIR=" + module_dir(),
            "-DPHYSARUM_LIBRARIES_FROM=" + libraries_from(),
            *pybind11_include(),
        ]
        if "PHYSARUM_LIB_DIR" in os.environ:
            command.append("-DPHYSARUM_LIB_DIR=" + os.environ["PHYSARUM_LIB_DIR"])
        run(command + shlex.split(os.environ.get("CMAKE_ARGS", "")))

    def place(self, stage):
        module_folder = stage / module_dir()
        modules = list(module_folder.glob("physarum*" + sysconfig.get_config_var("EXT_SUFFIX")))
        if len(modules) != 1:
            sys.exit(f"physarum: the install put {len(modules)} modules in {module_folder}, expected one")
        target = Path(self.get_ext_fullpath("physarum"))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(modules[0], target)
        # The stub beside the module, where editors and type checkers look for it.
        shutil.copy2(module_folder / "physarum.pyi", target.parent / "physarum.pyi")
        data = {}
        for path in sorted(stage.rglob("*")):
            if path.is_file() and module_folder not in path.parents:
                data.setdefault(path.parent.relative_to(stage).as_posix(), []).append(str(path))
        # Known only now that the install has run; install_data reads the list after the build.
        self.distribution.data_files = sorted(data.items())


# setuptools wants its egg-info folder to exist before it builds anything.
build_dir().mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    ext_modules=[Extension("physarum", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    packages=[],
    py_modules=[],
    # setuptools' own build and metadata folders inside CMake's, away from make's build/ and the source.
    options={
        "build": {"build_base": str(build_dir() / "setuptools")},
        "egg_info": {"egg_base": str(build_dir())},
    },
)
