"""A Sim is a run of the run library, as `physarum run` is: a preset's [environment] (food and walls)
and its [[keyframe]] story grow the same bytes in both, and a map file that cannot be used is refused
with a ValueError naming it."""

import os

import pytest
from test_results import run_field


def test_towns_grows_with_its_food_and_walls(physarum, program, scratch):
    recipe = {"size": (96, 64), "agents": 3000, "seed": 5}
    expected = run_field(program, scratch, "--preset", "towns", "--size", "96x64", "--agents", "3000",
                         "--seed", "5", "--steps", "30")
    sim = physarum.Sim(preset="towns", backend="cpu", **recipe)
    sim.step(30)
    assert sim.field.max() > 0
    assert sim.field.tobytes() == expected.tobytes()
    # Without the maps the same recipe grows another field: the comparison above can fail.
    bare = physarum.Sim(preset="towns", backend="cpu", environment_food="", environment_walls="", **recipe)
    bare.step(30)
    assert bare.field.tobytes() != expected.tobytes()


def test_condense_shatter_follows_its_keyframes(physarum, program, scratch, source_dir):
    steps = 260  # past the keyframe at step 200, into the ramp toward step 550
    expected = run_field(program, scratch, "--preset", "condense-shatter", "--size", "64x48", "--agents",
                         "2000", "--steps", str(steps))
    sim = physarum.Sim(preset="condense-shatter", size=(64, 48), agents=2000, backend="cpu")
    sim.step(100)
    sim.step(steps - 100)
    assert sim.field.tobytes() == expected.tobytes()

    # The same preset without its [[keyframe]] tables grows another field.
    source = (source_dir / "assets" / "presets" / "condense-shatter.toml").read_text()
    still = scratch / "still.toml"
    still.write_text(source[: source.index("[[keyframe]]")])
    plain = physarum.Sim(preset=str(still), size=(64, 48), agents=2000, backend="cpu")
    plain.step(steps)
    assert plain.field.tobytes() != expected.tobytes()


@pytest.mark.parametrize("key", ["environment_food", "environment_walls"])
def test_a_map_that_is_not_a_regular_file_is_a_value_error_naming_it(physarum, scratch, key):
    fifo = scratch / "maps.fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        with pytest.raises(ValueError) as e:
            physarum.Sim(size=(32, 24), agents=200, backend="cpu", **{key: path})
        assert path in str(e.value)
        assert "only regular files are accepted" in str(e.value)


def test_a_live_change_of_the_environment_reaches_the_run(physarum):
    sim = physarum.Sim(preset="towns", size=(64, 48), agents=1500, backend="cpu")
    with pytest.raises(ValueError, match="/dev/zero"):
        sim.set(environment_food="/dev/zero")
    twin = physarum.Sim(preset="towns", size=(64, 48), agents=1500, backend="cpu")
    sim.set(environment_food_strength=0)
    sim.step(20)
    twin.step(20)
    assert sim.field.tobytes() != twin.field.tobytes()


def test_agents_follow_the_area_and_a_detail_scales_the_run(physarum):
    # towns is made at 960x540 with 60K agents: a quarter of the cells, a quarter of the agents.
    small = physarum.Sim(preset="towns", backend="cpu", size=(480, 270))
    assert small.agent_count == 15000
    assert physarum.Sim(preset="towns", backend="cpu", size=(480, 270), agents=20000).agent_count == 20000
    fine = physarum.Sim(preset="towns", backend="cpu", size=(240, 135), run_scale=2)
    assert fine.size == (480, 270)
    assert fine.agent_count == 15000
    with pytest.raises(ValueError, match="run.scale"):
        physarum.Sim(preset="towns", backend="cpu", run_scale=9)
