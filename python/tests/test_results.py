"""A Sim gives what the physarum program gives: the same preset, seed and overrides make the same
bytes as `physarum run --out x.npy`; image seeding, agents and the brush behave as the model says."""

import struct
import zlib

import numpy as np
import pytest
from conftest import run_program

SIZE = (96, 64)


def run_field(program, scratch, *args):
    out = scratch / "run.npy"
    rc, _, err = run_program(program, "run", "--backend", "cpu", *args, "--out", str(out))
    assert rc == 0, err
    return np.load(out)


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_same_bytes_as_physarum_run(physarum, program, scratch, backend):
    if backend == "cuda" and not physarum.cuda_device():
        pytest.skip("no CUDA device (or a module built without CUDA)")
    expected = run_field(program, scratch, "--size", "96x64", "--agents", "3000", "--seed", "7",
                         "--set", "model.decay=0.05", "--set", "model.turn_rule=jones", "--steps", "40")
    sim = physarum.Sim(size=SIZE, agents=3000, seed=7, backend=backend, model_decay=0.05, model_turn_rule="jones")
    sim.step(15)
    sim.step(25)  # steps in two calls: still the same run
    field = sim.field
    assert field.dtype == np.float32 and field.shape == (64, 96)
    assert field.max() > 0  # a grown field, not an empty one that would match anything empty
    assert field.tobytes() == expected.tobytes()


def test_same_bytes_with_a_shipped_preset_of_several_species(physarum, program, scratch):
    expected = run_field(program, scratch, "--preset", "territories", "--size", "80x48", "--agents", "4000",
                         "--seed", "3", "--steps", "30")
    sim = physarum.Sim(preset="territories", size=(80, 48), agents="4000", seed=3, backend="cpu")
    assert sim.species_count == expected.shape[0] > 1
    sim.step(30)
    field = sim.field
    assert field.shape == expected.shape == (sim.species_count, 48, 80)
    assert field.tobytes() == expected.tobytes()


def test_overrides_as_dotted_keys_and_as_underscores_are_the_same(physarum):
    a = physarum.Sim(size=(40, 30), agents=500, backend="cpu", **{"model.sensor_angle_deg": 30})
    b = physarum.Sim(size=(40, 30), agents=500, backend="cpu", model_sensor_angle_deg=30)
    c = physarum.Sim(size=(40, 30), agents=500, backend="cpu")
    for s in (a, b, c):
        s.step(20)
    assert a.field.tobytes() == b.field.tobytes()
    assert a.field.tobytes() != c.field.tobytes()
    assert "sensor_angle_deg = 30" in a.preset_toml


def test_agents_are_sorted_by_id_and_inside_the_field(physarum):
    sim = physarum.Sim(size=SIZE, agents=2500, backend="cpu", threads=2)
    sim.step(33)  # the CPU backend reorders agents every few steps
    a = sim.agents
    assert set(a) == {"id", "x", "y", "theta"}
    assert a["id"].dtype == np.uint32 and a["x"].dtype == np.float32
    assert np.array_equal(a["id"], np.arange(2500, dtype=np.uint32))
    assert ((a["x"] >= 0) & (a["x"] < SIZE[0]) & (a["y"] >= 0) & (a["y"] < SIZE[1])).all()


def test_brush_adds_amount_in_the_disc_of_the_model(physarum):
    sim = physarum.Sim(size=SIZE, agents=10, backend="cpu")
    sim.brush(20.5, 30.5, radius=3, amount=2.5)
    f = sim.field
    ys, xs = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    disc = (xs - 20) ** 2 + (ys - 30) ** 2 <= 9  # cells (dx, dy) from floor(centre) with dx^2 + dy^2 <= r^2
    assert (f[disc] == np.float32(2.5)).all() and (f[~disc] == 0).all()
    sim.brush(20, 30, radius=3, amount=-10)  # erasing stops at 0
    assert (sim.field == 0).all()


def grey_png(path, pixels):
    """An 8-bit greyscale PNG written by hand (no imaging library needed)."""
    h, w = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_seed_image_from_an_array_equals_the_same_image_from_a_file(physarum, program, scratch):
    rng = np.random.default_rng(5)
    pixels = rng.integers(0, 256, size=(50, 70), dtype=np.uint8)
    png = scratch / "seed.png"
    grey_png(png, pixels)
    expected = run_field(program, scratch, "--size", "96x64", "--agents", "1500", "--image", str(png),
                         "--set", "spawn.agents_from_image=true", "--steps", "12")
    from_file = physarum.Sim(size=SIZE, agents=1500, backend="cpu", spawn_agents_from_image=True)
    from_file.seed_image(png)
    from_array = physarum.Sim(size=SIZE, agents=1500, backend="cpu", spawn_agents_from_image=True)
    from_array.seed_image(pixels)
    assert from_file.field.tobytes() == from_array.field.tobytes()
    assert from_file.field.max() > 0
    for s in (from_file, from_array):
        s.step(12)
        assert s.field.tobytes() == expected.tobytes()


def test_timings_report_every_stage(physarum):
    sim = physarum.Sim(size=SIZE, agents=1000, backend="cpu")
    sim.step(5)
    t = sim.timings()
    assert set(t) == {"agents_ms", "field_ms", "sort_ms", "publish_ms", "step_ms", "samples"}
    assert t["samples"] == 5
    assert t["step_ms"] >= t["agents_ms"] >= 0


def test_agents_take_integers_of_any_kind_and_the_command_lines_text(physarum):
    assert physarum.Sim(size=(40, 30), agents=np.int64(500), backend="cpu").agent_count == 500
    assert physarum.Sim(size=(40, 30), agents="1.5K", backend="cpu").agent_count == 1500
