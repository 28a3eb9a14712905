"""Bad arguments raise ValueError with the command line's own message, and change nothing."""

import numpy as np
import pytest
from conftest import run_program


def cli_message(program, scratch, *args):
    """What `physarum run` says about the same arguments (its stderr, less the program's name)."""
    rc, _, err = run_program(program, "run", "--backend", "cpu", "--steps", "1", "--out", str(scratch / "x.npy"), *args)
    assert rc != 0
    return err.strip().removeprefix("physarum: ").removeprefix("error: ")


@pytest.mark.parametrize(
    "kwargs, cli",
    [
        ({"model_decay": 2}, ["--set", "model.decay=2"]),
        ({"model_bogus": 1}, ["--set", "model.bogus=1"]),
        ({"model_turn_rule": "sideways"}, ["--set", "model.turn_rule=sideways"]),
        ({"size": (0, 5)}, ["--size", "0x5"]),
        ({"agents": "lots"}, ["--agents", "lots"]),
        ({"preset": "no-such-preset"}, ["--preset", "no-such-preset"]),
    ],
)
def test_constructor_refuses_with_the_command_lines_message(physarum, program, scratch, kwargs, cli):
    with pytest.raises(ValueError) as e:
        physarum.Sim(backend="cpu", **kwargs)
    assert str(e.value) == cli_message(program, scratch, *cli)


@pytest.mark.parametrize(
    "kwargs, text",
    [
        ({"backend": "gpu"}, "backend 'gpu' is not one of: auto, cpu, cuda"),
        ({"seed": -1}, "seed -1 is not an integer in [0, 4294967295]"),
        ({"threads": -2}, "threads = -2 is out of range"),
        ({"size": "big"}, "size: expected (width, height)"),
        ({"model_decay": [1, 2, 3]}, "model.decay: [1, 2, 3] is not a value physarum takes"),
    ],
)
def test_constructor_refuses_other_bad_arguments(physarum, kwargs, text):
    with pytest.raises(ValueError, match=None) as e:
        physarum.Sim(**{"backend": "cpu", **kwargs})
    assert text in str(e.value)


def test_bad_calls_raise_value_error_and_change_nothing(physarum):
    sim = physarum.Sim(size=(48, 32), agents=800, backend="cpu")
    twin = physarum.Sim(size=(48, 32), agents=800, backend="cpu")
    sim.step(5)
    twin.step(5)
    with pytest.raises(ValueError, match="model.decay=2: model.decay = 2 is out of range"):
        sim.set(model_decay=2)
    with pytest.raises(ValueError, match="cannot change in a running simulation"):
        sim.set(run_size=(64, 64))
    with pytest.raises(ValueError, match="brush: radius 500.000000 is out of range"):
        sim.brush(3, 3, radius=500)
    with pytest.raises(ValueError, match="brush: channel 2 does not exist"):
        sim.brush(3, 3, channel=2)
    with pytest.raises(ValueError, match="the number of steps must be 0 to"):
        sim.step(-1)
    with pytest.raises(ValueError, match="brightness must be in"):
        sim.seed_image(np.full((4, 4), 2.0, dtype=np.float32))
    with pytest.raises(ValueError, match="cannot open|cannot read|No such|does not exist|not a regular"):
        sim.seed_image("/nonexistent/seed.png")
    with pytest.raises(ValueError, match="no palette named 'plaid'"):
        sim.render(palette="plaid")
    with pytest.raises(ValueError, match="cave"):
        sim.render(cave="deep")
    # A set with one good and one bad key changes nothing either.
    with pytest.raises(ValueError):
        sim.set(model_decay=0.5, model_diffuse=7)
    sim.step(5)
    twin.step(5)
    assert sim.field.tobytes() == twin.field.tobytes()


@pytest.mark.parametrize("seed", ["abc", 1.5, True, [1]])
def test_a_seed_of_another_type_is_a_type_error_with_the_command_lines_words(physarum, seed):
    with pytest.raises(TypeError) as e:
        physarum.Sim(size=(16, 16), agents=10, backend="cpu", seed=seed)
    assert str(e.value) == f"seed {seed!r} is not an integer in [0, 4294967295]"


@pytest.mark.parametrize("seed", [-1, 2**32, 2**70])
def test_a_seed_out_of_range_is_a_value_error_naming_it(physarum, seed):
    with pytest.raises(ValueError) as e:
        physarum.Sim(size=(16, 16), agents=10, backend="cpu", seed=seed)
    assert str(e.value) == f"seed {seed} is not an integer in [0, 4294967295]"


def test_a_seed_of_numpys_integer_types_is_taken(physarum):
    a = physarum.Sim(size=(16, 16), agents=10, backend="cpu", seed=np.uint32(7))
    b = physarum.Sim(size=(16, 16), agents=10, backend="cpu", seed=7)
    a.step(2)
    b.step(2)
    assert a.field.tobytes() == b.field.tobytes()


@pytest.mark.parametrize(
    "image, error, text",
    [
        (np.zeros((2, 3, 4)), ValueError, "not (2, 3, 4)"),
        (np.zeros(5), ValueError, "not (5,)"),
        (np.array([["a", "b"], ["c", "d"]]), TypeError, "the array must hold numbers"),
        (123, TypeError, "expected a PNG or JPEG file or an (H, W) or (H, W, 3) array, not 123"),
        (None, TypeError, "not None"),
    ],
)
def test_a_seed_image_of_the_wrong_shape_or_type_says_which(physarum, image, error, text):
    sim = physarum.Sim(size=(16, 16), agents=10, backend="cpu")
    before = sim.field.tobytes()
    with pytest.raises(error) as e:
        sim.seed_image(image)
    assert text in str(e.value)
    assert sim.field.tobytes() == before
