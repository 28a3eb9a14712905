"""examples/python_tour.py writes the picture it says it writes, and nothing else; without matplotlib it
writes nothing and says so."""

import os
import pathlib
import subprocess
import sys

import pytest

SMALL = ["--size", "64", "--agents", "2000", "--steps", "20", "--backend", "cpu"]


def run_tour(source_dir, cwd, extra_path=None):
    env = dict(os.environ)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join([str(extra_path), env.get("PYTHONPATH", "")])
    script = source_dir / "examples" / "python_tour.py"
    r = subprocess.run([sys.executable, str(script), *SMALL, "--out", "tour"], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"python_tour.py exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_the_tour_writes_its_picture(physarum, source_dir, scratch):
    try:
        import matplotlib.image
    except ImportError as e:
        pytest.skip(f"matplotlib is not installed (python3-matplotlib; scripts/install-deps installs it): {e}")
    out = run_tour(source_dir, scratch)
    assert "wrote tour.png" in out
    assert sorted(p.name for p in scratch.iterdir()) == ["tour.png"]
    picture = matplotlib.image.imread(scratch / "tour.png")
    # Two panels of a grown network side by side (one where there is no OpenGL): wider than tall, not blank.
    assert picture.shape[1] > picture.shape[0] > 100
    assert picture[..., :3].std() > 0.1


def test_without_matplotlib_the_tour_writes_nothing_and_says_so(physarum, source_dir, scratch):
    blocker = scratch / "no-matplotlib"
    (blocker / "matplotlib").mkdir(parents=True)
    (blocker / "matplotlib" / "__init__.py").write_text("raise ImportError('matplotlib hidden by the test')\n")
    work = scratch / "work"
    work.mkdir()
    out = run_tour(source_dir, work, extra_path=blocker)
    assert "matplotlib is not installed (python3-matplotlib): tour.png not written" in out
    assert list(work.iterdir()) == []
    # The rest of the tour still runs: the NumPy model against physarum's first step.
    assert "NumPy reference after one step" in out
