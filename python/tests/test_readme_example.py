"""The README's Python example, run as written (from the source folder, as it says), in a fresh
interpreter with nothing but the module and NumPy."""

import importlib.util
import os
import pathlib
import re
import subprocess
import sys


def readme_example(source_dir):
    text = (source_dir / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## From Python") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def run_readme_example(python, source_dir, env):
    """Runs the example with `python` from the source folder and checks what it prints."""
    r = subprocess.run([str(python), "-c", readme_example(source_dir)], cwd=source_dir, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["(360,", "640)", "(360,", "640,", "4)", "(360,", "640)", "True"], r.stdout


def test_the_readme_python_example_runs_as_written(physarum, source_dir):
    code = readme_example(source_dir)
    assert "import torch" not in code.split("else:")[0], "torch only where the CUDA backend needs it"
    if physarum.cuda_device() and importlib.util.find_spec("torch") is None:
        import pytest

        pytest.skip("the example reads a CUDA field with torch, which is not installed here")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(pathlib.Path(physarum.__file__).parent)
    run_readme_example(sys.executable, source_dir, env)
