"""Shared set-up of the Python module's tests: the module (skipped, saying why, when it cannot be
imported), the physarum program to compare with, and a scratch folder."""

import os
import pathlib
import subprocess

import pytest


@pytest.fixture(scope="session")
def physarum():
    try:
        import physarum as module
    except ImportError as e:
        # Under ctest the module was built: failing to import it (a missing symbol, another Python)
        # is a failure, not a reason to skip.
        if os.environ.get("PHYSARUM_BUILD_DIR"):
            pytest.fail(f"the physarum module was built but cannot be imported: {e}")
        pytest.skip(f"the physarum module cannot be imported ({e}); build it and set PYTHONPATH=build/python")
    return module


@pytest.fixture(scope="session")
def program():
    exe = os.environ.get("PHYSARUM_EXE")
    if not exe or not os.access(exe, os.X_OK):
        pytest.skip("PHYSARUM_EXE does not name the physarum program (ctest sets it)")
    return exe


@pytest.fixture(scope="session")
def source_dir():
    return pathlib.Path(os.environ.get("PHYSARUM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def scratch(tmp_path):
    return tmp_path


def run_program(exe, *args):
    """Runs the physarum program; returns (exit code, stdout, stderr)."""
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr
