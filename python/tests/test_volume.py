"""A volume from Python: Sim(size=(W, H, D)) grows what `physarum run --size WxHxD` grows, its field is
(D, H, W), point data is its food, and field_view() hands the volume out without a copy (NumPy on the
CPU; torch on the GPU where torch and a CUDA device are present)."""

import gc

import numpy as np
import pytest


def host_view(np_module, view):
    if not hasattr(np_module, "from_dlpack"):
        pytest.skip("this NumPy has no from_dlpack (NumPy 1.22 or later has)")
    return np_module.from_dlpack(view)


def write_points(folder):
    points = folder / "points.csv"
    points.write_text("x,y,z,weight\n0,0,0,1\n8,6,4,2\n4,3,2,0.5\n")
    return points


def test_a_volume_is_the_programs_volume_bit_for_bit(physarum, program, scratch):
    import subprocess

    points = write_points(scratch)
    out = scratch / "web.npy"
    subprocess.run([program, "run", "--size", "9x7x5", "--agents", "3000", "--seed", "2", "--steps", "6",
                    "--backend", "cpu", "--points", str(points), "--out", str(out)], check=True,
                   capture_output=True)
    sim = physarum.Sim(size=(9, 7, 5), agents=3000, seed=2, backend="cpu", environment_points=str(points))
    assert sim.size == (9, 7, 5)
    sim.step(6)
    field = sim.field
    assert field.shape == (5, 7, 9) and field.dtype == np.float32
    assert np.array_equal(field, np.load(out))
    assert field.sum() > 0
    agents = sim.agents
    assert set(agents) == {"x", "y", "z", "hx", "hy", "hz"} and agents["z"].shape == (3000,)
    assert (agents["z"] >= 0).all() and (agents["z"] < 5).all()
    lengths = np.sqrt(agents["hx"].astype(np.float64) ** 2 + agents["hy"] ** 2 + agents["hz"] ** 2)
    assert np.allclose(lengths, 1.0, atol=1e-5)


def test_the_cpu_volumes_view_is_its_memory(physarum):
    sim = physarum.Sim(size=(12, 10, 8), agents=2000, backend="cpu")
    sim.step(4)
    view = sim.field_view()
    assert view.shape == (8, 10, 12) and view.strides == (120, 12, 1)
    a = host_view(np, view)
    assert np.array_equal(a, sim.field)
    if a.flags.writeable:
        a[3, 4, 5] = 7.0
        assert sim.field[3, 4, 5] == np.float32(7.0)
    del view, sim
    gc.collect()
    assert a.shape == (8, 10, 12)  # the array keeps the Sim, and so its memory, alive


def test_a_plane_cannot_take_a_depth_of_four_sides(physarum):
    with pytest.raises(ValueError, match=r"\(width, height\) or \(width, height, depth\)"):
        physarum.Sim(size=(9, 7, 5, 3), backend="cpu")
    with pytest.raises(ValueError, match="seed image"):
        physarum.Sim(size=(9, 7, 5), agents=100, backend="cpu").seed_image(np.zeros((7, 9), np.float32))


def test_the_cuda_volume_reaches_torch_without_a_copy(physarum):
    torch = pytest.importorskip("torch", reason="torch is not installed (the GPU machine has it)")
    if not torch.cuda.is_available() or not physarum.cuda_device():
        pytest.skip("no CUDA device (or a physarum module built without CUDA)")
    sim = physarum.Sim(size=(48, 40, 32), agents=200_000, backend="cuda", seed=5)
    sim.step(40)
    t = torch.from_dlpack(sim.field_view())
    assert t.is_cuda and t.dtype == torch.float32 and tuple(t.shape) == (32, 40, 48)
    copy = sim.field
    assert torch.equal(t.cpu(), torch.from_numpy(copy))
    assert t.data_ptr() == torch.from_dlpack(sim.field_view()).data_ptr()
    # The same volume on the CPU: the same bytes.
    cpu = physarum.Sim(size=(48, 40, 32), agents=200_000, backend="cpu", seed=5)
    cpu.step(40)
    assert np.array_equal(cpu.field, copy)


def test_an_mcpm_volume_hands_out_its_trace_as_run_writes_it(physarum, program, scratch):
    import subprocess

    trace = scratch / "trace.npy"
    subprocess.run([program, "run", "--size", "10x8x6", "--agents", "2000", "--seed", "4", "--steps", "5",
                    "--backend", "cpu", "--set", "model.turn_rule=mcpm", "--out", str(scratch / "f.npy"),
                    "--trace", str(trace)], check=True, capture_output=True)
    sim = physarum.Sim(size=(10, 8, 6), agents=2000, seed=4, backend="cpu", model_turn_rule="mcpm")
    sim.step(5)
    t = sim.trace
    assert t.shape == (6, 8, 10) and np.array_equal(t, np.load(trace))
    # With the default trace decay the trace holds what the agents deposited, less its decay: > 0.
    assert t.sum() > 0
    with pytest.raises(ValueError, match="mcpm"):
        physarum.Sim(size=(10, 8, 6), agents=100, backend="cpu").trace
