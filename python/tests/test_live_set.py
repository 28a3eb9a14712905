"""set() changes a running simulation exactly as the C++ backend's set_model/set_species does."""

import os

import numpy as np
import pytest


@pytest.fixture(scope="module")
def reference():
    exe = os.environ.get("PHYSARUM_LIVE_SET_REFERENCE")
    if not exe or not os.access(exe, os.X_OK):
        pytest.skip("PHYSARUM_LIVE_SET_REFERENCE does not name the C++ reference (ctest sets it)")
    return exe


@pytest.mark.parametrize("key, value", [("model.sensor_angle_deg", 22.5), ("model.decay", 0.2), ("model.jitter", 0.3)])
def test_live_set_matches_the_cpp_backend(physarum, reference, scratch, key, value):
    import subprocess

    out = scratch / "ref.npy"
    subprocess.run([reference, "72", "56", "2000", "11", "25", "30", f"{key}={value}", str(out)], check=True)
    expected = np.load(out)

    sim = physarum.Sim(size=(72, 56), agents=2000, seed=11, backend="cpu", threads=1)
    sim.step(25)
    sim.set({key: value})
    sim.step(30)
    assert sim.field.tobytes() == expected.tobytes()

    unchanged = physarum.Sim(size=(72, 56), agents=2000, seed=11, backend="cpu")
    unchanged.step(55)
    assert unchanged.field.tobytes() != expected.tobytes()  # the change did change the run


def test_display_set_live_reaches_render_only(physarum):
    sim = physarum.Sim(size=(40, 30), agents=300, backend="cpu")
    sim.set(display_palette="viridis", display_levels=7)
    assert 'palette = "viridis"' in sim.preset_toml and "levels = 7" in sim.preset_toml
