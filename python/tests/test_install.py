"""`cmake --install` puts the module where python3 looks for that prefix, and the installed module
finds its data beside it (PREFIX/share/physarum), not in the build tree."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    build = os.environ.get("PHYSARUM_BUILD_DIR")
    rel = os.environ.get("PHYSARUM_PYTHON_INSTALL_DIR")
    if not build or not rel or not shutil.which("cmake"):
        pytest.skip("PHYSARUM_BUILD_DIR / PHYSARUM_PYTHON_INSTALL_DIR not set, or no cmake (ctest sets them)")
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], check=True, capture_output=True)
    return prefix, rel


def test_install_folder_is_on_the_interpreters_path_for_usr_local(installed):
    _, rel = installed
    if "/usr/local/" + rel not in sys.path and rel != "lib/python3/dist-packages":
        # Not Debian's interpreter: the folder is the interpreter's own site-packages layout.
        assert rel.endswith("site-packages"), rel
    else:
        assert "/usr/local/" + rel in sys.path or "/usr/" + rel in sys.path


def test_installed_module_imports_and_finds_its_data_beside_it(installed, tmp_path):
    prefix, rel = installed
    folder = prefix / rel
    assert list(folder.glob("physarum*.so")) and (folder / "physarum.pyi").is_file()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PHYSARUM_")}
    env["PYTHONPATH"] = str(folder)
    code = (
        "import physarum\n"
        "s = physarum.Sim(preset='coral', size=(32, 24), agents=200, backend='cpu')\n"
        "s.step(2)\n"
        "print(physarum.__file__)\n"
        "print(physarum.data_dir)\n"
        "try:\n"
        "    physarum.Sim(preset='no-such-preset', backend='cpu')\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    module_file, data_dir, message = r.stdout.splitlines()[:3]
    assert pathlib.Path(module_file).parent == folder
    assert data_dir == str(prefix / "share" / "physarum")
    assert str(prefix / "share" / "physarum" / "presets") in message  # the installed data, not the build tree's


def test_the_build_trees_module_reads_the_build_trees_data(physarum):
    build = os.environ.get("PHYSARUM_BUILD_DIR")
    if not build or os.environ.get("PHYSARUM_DATA_DIR"):
        pytest.skip("PHYSARUM_BUILD_DIR not set (ctest sets it), or PHYSARUM_DATA_DIR set by hand")
    assert physarum.data_dir == str(pathlib.Path(build) / "share" / "physarum")
