"""render(): the window's shader offscreen through EGL, the same image `physarum render` writes."""

import numpy as np
import pytest
from conftest import run_program


def rendered(physarum, sim, **kwargs):
    try:
        return sim.render(**kwargs)
    except physarum.Error as e:
        pytest.skip(f"no OpenGL 4.5 context here: {e}")


def test_render_equals_physarum_render(physarum, program, scratch):
    Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed (python3-pil) to read the PNG")
    sim = physarum.Sim(size=(120, 80), agents=4000, seed=9, backend="cpu", display_palette="viridis")
    sim.step(60)
    rgba = rendered(physarum, sim)
    assert rgba.shape == (80, 120, 4) and rgba.dtype == np.uint8
    png = scratch / "frame.png"
    rc, _, err = run_program(program, "render", "--backend", "cpu", "--size", "120x80", "--agents", "4000",
                             "--seed", "9", "--set", "display.palette=viridis", "--steps", "60", "-q",
                             "--out", str(png))
    assert rc == 0, err
    expected = np.asarray(Image.open(png).convert("RGBA"))
    assert np.array_equal(rgba, expected)
    assert len(np.unique(rgba.reshape(-1, 4), axis=0)) > 10  # a picture, not a flat colour


def test_render_arguments_equal_the_same_display_set(physarum):
    a = physarum.Sim(size=(64, 48), agents=2000, backend="cpu")
    a.step(40)
    by_args = rendered(physarum, a, palette="magma", cave="even", size=(32, 24))
    assert by_args.shape == (24, 32, 4)
    a.set(display_palette="magma", display_cave="even")
    assert np.array_equal(a.render(size=(32, 24)), by_args)
    assert not np.array_equal(a.render(size=(32, 24), cave="off"), by_args)


def test_render_blends_keyframed_palettes(physarum, scratch):
    story = scratch / "story.toml"
    story.write_text('[[keyframe]]\nstep = 0\ndisplay.palette = "inferno"\n'
                     '[[keyframe]]\nstep = 100\ndisplay.palette = "viridis"\n')
    sim = physarum.Sim(preset=str(story), size=(120, 80), agents=4000, seed=9, backend="cpu")
    sim.step(50)  # halfway, linear: each entry of the table is the mean of the two palettes' entries
    rgba = rendered(physarum, sim).astype(int)
    inferno = sim.render(palette="inferno").astype(int)
    viridis = sim.render(palette="viridis").astype(int)
    # The same field through the same mapping picks the same entry of either table, so the blend's
    # pixel is the two pixels' mean, rounded half up.
    assert np.max(np.abs(rgba - (inferno + viridis + 1) // 2)) <= 1
    assert np.mean(np.abs(rgba - inferno) > 8) > 0.2, "the held palette was drawn, not the blend"
