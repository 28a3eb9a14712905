"""Conformance: a Sim grows the recipes of tests/data/conformance/recipes.toml (several species with
an interaction matrix, food and walls in a closed box, keyframes of model keys, species keys and the
matrix, an image seed) to the bytes of `physarum run`; with live edits (a brush stroke and set() at a
given step) to the bytes of a run made with the simulation library alone
(tests/conformance_reference.hpp, the physarum_conformance_reference program). The C++ surfaces are
compared in tests/test_conformance.cpp."""

import os
import pathlib
import subprocess

import numpy as np
import pytest
from conftest import run_program

tomllib = pytest.importorskip("tomllib", reason="the recipes are TOML: Python 3.11 or later reads them")

SOURCE = pathlib.Path(os.environ.get("PHYSARUM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DATA = SOURCE / "tests" / "data" / "conformance"
RECIPES_FILE = DATA / "recipes.toml"
with open(RECIPES_FILE, "rb") as f:
    RECIPES = tomllib.load(f)["recipe"]
RECIPE_NAMES = [r["name"] for r in RECIPES]


@pytest.fixture(scope="module")
def reference():
    exe = os.environ.get("PHYSARUM_CONFORMANCE_REFERENCE")
    if not exe or not os.access(exe, os.X_OK):
        pytest.skip("PHYSARUM_CONFORMANCE_REFERENCE does not name the C++ reference (ctest sets it)")
    return exe


def new_sim(physarum, recipe):
    """The recipe's simulation before its first step, as `physarum run` sets it up."""
    sim = physarum.Sim(preset=str(DATA / recipe["preset"]), backend="cpu")
    if "image" in recipe:
        sim.seed_image(str(DATA / recipe["image"]))  # as --image: before the first step
    return sim


def assert_same_bytes(field, expected):
    assert field.dtype == expected.dtype == np.float32
    assert field.shape == expected.shape
    if field.tobytes() != expected.tobytes():
        differ = np.flatnonzero(field.view(np.uint32) != expected.view(np.uint32))
        first = differ[0]
        pytest.fail(f"{differ.size} of {field.size} floats differ; the first at {first}: "
                    f"{field.flat[first]!r}, expected {expected.flat[first]!r}")


@pytest.mark.parametrize("recipe", RECIPES, ids=RECIPE_NAMES)
def test_sim_gives_the_bytes_of_physarum_run(physarum, program, scratch, recipe):
    out = scratch / "run.npy"
    steps = recipe["before"] + recipe["after"]
    args = ["run", "--preset", str(DATA / recipe["preset"]), "--backend", "cpu", "--steps", str(steps),
            "--out", str(out)]
    if "image" in recipe:
        args += ["--image", str(DATA / recipe["image"])]
    rc, _, err = run_program(program, *args)
    assert rc == 0, err
    expected = np.load(out)
    assert expected.max() > 0  # a grown field, not an empty one that anything empty would match

    sim = new_sim(physarum, recipe)
    sim.step(recipe["before"])
    sim.step(recipe["after"])  # in two calls: still the same run
    assert sim.steps_done == steps
    assert_same_bytes(sim.field, expected)


@pytest.mark.parametrize("recipe", RECIPES, ids=RECIPE_NAMES)
def test_sim_with_live_edits_gives_the_bytes_of_the_library(physarum, reference, scratch, recipe):
    out = scratch / "reference.npy"
    subprocess.run([reference, str(RECIPES_FILE), recipe["name"], "live", str(out)], check=True)
    expected = np.load(out)

    sim = new_sim(physarum, recipe)
    sim.step(recipe["before"])
    brush = recipe["brush"]
    sim.brush(brush["x"], brush["y"], radius=brush["radius"], amount=brush["amount"], channel=brush["channel"])
    sim.set(dict(assignment.split("=", 1) for assignment in recipe["set"]))
    sim.step(recipe["after"])
    assert_same_bytes(sim.field, expected)


def test_the_live_edits_change_the_run(physarum, reference, scratch):
    """So that the test above can fail: a Sim that ignored the edits would not match."""
    recipe = RECIPES[0]
    out = scratch / "reference.npy"
    subprocess.run([reference, str(RECIPES_FILE), recipe["name"], "live", str(out)], check=True)
    sim = new_sim(physarum, recipe)
    sim.step(recipe["before"] + recipe["after"])
    assert sim.field.tobytes() != np.load(out).tobytes()
