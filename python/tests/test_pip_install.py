"""`pip install --no-build-isolation SOURCE` into a fresh venv (`python3 -m venv --system-site-packages`),
with the libraries of ctest's build folder (PHYSARUM_CMAKE_BUILD_DIR, so only python/src is compiled):
the module runs the README's example there, reads its data from the venv, says the project's version,
and `pip uninstall` takes it all away again. ctest runs it as python.pip."""

import json
import os
import subprocess
import sys

import pytest
from test_readme_example import readme_example, run_readme_example


def clean_env(**extra):
    """The environment without ctest's pointers at the build tree, so nothing but the venv is used."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("PHYSARUM_")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    build = os.environ.get("PHYSARUM_BUILD_DIR")
    if not build:
        pytest.skip("PHYSARUM_BUILD_DIR is not set (ctest sets it)")
    env_dir = tmp_path_factory.mktemp("pip") / "env"
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(env_dir)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"python3 -m venv failed (install python3-venv): {r.stderr.strip()}")
    return env_dir, build


@pytest.fixture(scope="module")
def installed(venv, source_dir):
    env_dir, build = venv
    # The pip build goes into ctest's build folder, kept, so that a second run compiles nothing.
    env = clean_env(PHYSARUM_CMAKE_BUILD_DIR=build, PHYSARUM_PIP_BUILD_DIR=os.path.join(build, "pip-test"))
    r = subprocess.run([str(env_dir / "bin" / "pip"), "install", "--no-build-isolation", "--no-index",
                        "--no-cache-dir", str(source_dir)], env=env, capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    return env_dir


def venv_python(env_dir, code, cwd):
    r = subprocess.run([str(env_dir / "bin" / "python"), "-c", code], cwd=cwd, env=clean_env(),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_module_in_the_venv_reads_its_data_from_the_venv(installed, tmp_path):
    out = venv_python(installed, "import json, physarum\n"
                      "print(json.dumps([physarum.__file__, physarum.data_dir]))\n"
                      "s = physarum.Sim(preset='coral', size=(48, 32), agents=300, backend='cpu')\n"
                      "s.step(2)\n", cwd=tmp_path)
    module_file, data_dir = json.loads(out)
    site = venv_python(installed, "import sysconfig; print(sysconfig.get_path('platlib'))", cwd=tmp_path).strip()
    assert os.path.dirname(module_file) == site
    assert data_dir == str(installed / "share" / "physarum")
    for kind in ("shaders", "palettes", "presets", "images", "points"):
        assert os.listdir(os.path.join(data_dir, kind)), kind


def test_the_versions_of_module_wheel_and_program_agree(installed, program, tmp_path):
    version, wheel_version = json.loads(venv_python(
        installed, "import json, importlib.metadata, physarum\n"
        "print(json.dumps([physarum.__version__, importlib.metadata.version('physarum')]))", cwd=tmp_path))
    said = subprocess.run([program, "--version"], capture_output=True, text=True, check=True).stdout.split()
    assert said[:2] == ["physarum", version]  # both CMake's PROJECT_VERSION
    assert wheel_version == version  # setup.py's reading of CMakeLists.txt


def test_the_readme_example_runs_in_the_venv(installed, source_dir):
    code = readme_example(source_dir)
    cuda = venv_python(installed, "import physarum; print(physarum.cuda_device())", cwd=source_dir).strip()
    if cuda and "import torch" in code:
        torch = subprocess.run([str(installed / "bin" / "python"), "-c", "import torch"], capture_output=True)
        if torch.returncode != 0:
            pytest.skip("the example reads a CUDA field with torch, which the venv cannot import")
    run_readme_example(installed / "bin" / "python", source_dir, clean_env())


def test_uninstall_removes_the_module_and_its_data(installed):
    assert list((installed / "share" / "physarum" / "presets").glob("*.toml"))
    r = subprocess.run([str(installed / "bin" / "pip"), "uninstall", "-y", "physarum"], env=clean_env(),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    left = [str(p) for p in installed.rglob("*physarum*") if not p.is_dir()]
    left += [str(p) for p in (installed / "share" / "physarum").rglob("*") if not p.is_dir()]
    assert left == []
