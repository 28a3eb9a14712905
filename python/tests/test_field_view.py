"""field_view(): the field without a copy through DLPack. On the CPU backend numpy.from_dlpack reads
host memory; where torch and a CUDA device are present, torch.from_dlpack reads the GPU field."""

import gc

import numpy as np
import pytest


def host_view(view):
    if not hasattr(np, "from_dlpack"):
        pytest.skip("this NumPy has no from_dlpack (NumPy 1.22 or later has)")
    return np.from_dlpack(view)


@pytest.mark.parametrize("preset, shape", [(None, (40, 56)), ("territories", (None, 40, 56))])
def test_cpu_view_equals_the_copy_and_outlives_the_sim(physarum, preset, shape):
    sim = physarum.Sim(preset=preset, size=(56, 40), agents=1500, backend="cpu")
    sim.step(20)
    view = sim.field_view()
    assert view.__dlpack_device__() == (1, 0) and view.device == "cpu"
    a = host_view(view)
    copy = sim.field
    assert a.shape == copy.shape and a.dtype == np.float32
    if len(shape) == 3:
        s = sim.species_count
        assert a.shape[0] == s > 1
        assert view.strides == (1, 56 * s, s)  # channels interleaved, as the backend keeps them
    else:
        assert view.strides == (56, 1)
    assert np.array_equal(a, copy)
    assert a.max() > 0
    del view, sim
    gc.collect()
    assert np.array_equal(a, copy)  # the array keeps the Sim, and so its memory, alive


def test_a_new_view_after_stepping_shows_the_new_field(physarum):
    sim = physarum.Sim(size=(48, 32), agents=800, backend="cpu")
    sim.step(3)
    sim.step(7)
    assert np.array_equal(host_view(sim.field_view()), sim.field)


def test_writing_through_the_view_changes_the_simulation(physarum):
    sim = physarum.Sim(size=(48, 32), agents=10, backend="cpu")
    a = host_view(sim.field_view())
    if not a.flags.writeable:
        pytest.skip("this NumPy gives read-only arrays from DLPack")
    a[5, 7] = 3.0
    assert sim.field[5, 7] == np.float32(3.0)


@pytest.mark.parametrize("preset", [None, "territories"])
def test_cuda_view_in_torch_equals_the_copy_without_copying(physarum, preset):
    torch = pytest.importorskip("torch", reason="torch is not installed (the GPU machine has it)")
    if not torch.cuda.is_available() or not physarum.cuda_device():
        pytest.skip("no CUDA device (or a physarum module built without CUDA)")
    sim = physarum.Sim(preset=preset, size=(320, 200), agents=20000, backend="cuda", seed=4)
    sim.step(50)
    view = sim.field_view()
    assert view.device == "cuda" and view.__dlpack_device__()[0] == 2
    t = torch.from_dlpack(view)
    assert t.is_cuda and t.dtype == torch.float32
    copy = sim.field
    assert tuple(t.shape) == copy.shape
    assert torch.equal(t.cpu(), torch.from_numpy(copy))
    # Zero copy: the tensor is the backend's memory; a second view of the same step is the same memory.
    assert t.data_ptr() == torch.from_dlpack(sim.field_view()).data_ptr()
    # It stays valid while the Sim lives, and the tensor keeps the Sim alive after the last reference.
    torch.cuda.synchronize()
    del view, sim
    gc.collect()
    assert torch.equal(t.cpu(), torch.from_numpy(copy))
    assert float(t.sum()) == pytest.approx(float(copy.astype(np.float64).sum()), rel=1e-5)


def test_a_view_taken_before_a_step_refuses_to_be_read_after_it(physarum):
    sim = physarum.Sim(size=(48, 32), agents=800, backend="cpu")
    sim.step(3)
    view = sim.field_view()
    sim.step(1)  # the field is now in the other buffer: the view's memory holds step 2's field
    with pytest.raises(BufferError, match="shows step 3 and the simulation is at step 4"):
        host_view(view)
    sim.step(1)  # back in the view's buffer, but a later step: still refused
    with pytest.raises(BufferError, match="shows step 3 and the simulation is at step 5"):
        host_view(view)
    assert np.array_equal(host_view(sim.field_view()), sim.field)
