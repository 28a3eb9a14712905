// Conformance: the same recipes (tests/data/conformance/recipes.toml: several species with an
// interaction matrix, food and walls in a closed box, keyframes of model keys, species keys and the
// matrix, an image seed) grown by every surface give the same bytes as a run made with the
// simulation library alone (conformance_reference.hpp): `physarum run`, `render --out .npy`,
// `export --steps --out .npy`, the sensitivity twins with no perturbation, and the window's core,
// with and without live edits (a brush stroke and a parameter change at a given step). The Python
// module's side is python/tests/test_conformance.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "conformance_reference.hpp"
#include "gl_support.hpp"
#include "sensitivity/perturbation.hpp"
#include "sensitivity/twin_runs.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;
namespace cf = test::conformance;

const std::vector<cf::Recipe>& recipes() {
  static const std::vector<cf::Recipe> all = cf::load_recipes(cf::recipes_file(PHYSARUM_TEST_DATA));
  return all;
}

// Read while the tests are registered: a broken recipes file fails every test (recipe() throws
// again, with the reason) instead of ending the whole test program.
std::vector<std::string> recipe_names() {
  std::vector<std::string> names;
  try {
    for (const cf::Recipe& r : recipes()) names.push_back(r.name);
  } catch (const std::exception&) {
    names = {"unreadable_recipes"};
  }
  return names;
}

// One reference per recipe and kind in this process: several tests compare with it.
const std::vector<float>& reference(const cf::Recipe& r, bool live_edits) {
  static std::map<std::pair<std::string, bool>, std::vector<float>> cache;
  const auto key = std::make_pair(r.name, live_edits);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, cf::reference_field(r, live_edits)).first;
  return it->second;
}

// Equal bytes, or how many floats differ and where the first one is.
::testing::AssertionResult same_bytes(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " floats, the reference has " << want.size();
  }
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0 && differ++ == 0) first = i;
  }
  if (differ == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differ << " of " << got.size() << " floats differ; the first at "
                                       << first << ": " << got[first] << ", the reference " << want[first];
}

class ConformanceE2e : public ::testing::TestWithParam<std::string> {
 protected:
  const cf::Recipe& recipe() const {
    for (const cf::Recipe& r : recipes()) {
      if (r.name == GetParam()) return r;
    }
    throw std::runtime_error("no recipe " + GetParam());
  }
  run::Recipe options() const {
    const cf::Recipe& r = recipe();
    run::Recipe o;
    o.preset = r.preset.string();
    o.image = r.image.string();
    o.backend = "cpu";
    return o;
  }
  // A command of the program growing the recipe into `out` (its field as .npy).
  std::vector<std::string> command(const std::string& name, const fs::path& out) const {
    const cf::Recipe& r = recipe();
    std::vector<std::string> args{name,        "--preset", r.preset.string(),         "--backend",
                                  "cpu",       "--steps",  std::to_string(r.steps()), "--out",
                                  out.string()};
    if (!r.image.empty()) args.insert(args.end(), {"--image", r.image.string()});
    return args;
  }
  // The field a command of the program writes, checked against the reference.
  void expect_command_gives_reference(const std::string& name) {
    const fs::path dir = test::temp_dir();
    const fs::path out = dir / "field.npy";
    const auto result = test::run_physarum(command(name, out), dir, {{"EGL_PLATFORM", "surfaceless"}});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const NpyArray a = read_npy_planes(out);
    const Preset p = load_preset(recipe().preset);
    EXPECT_EQ(a.width, p.run.size.width);
    EXPECT_EQ(a.height, p.run.size.height);
    EXPECT_EQ(a.planes, std::max(1, p.species.count()));
    EXPECT_TRUE(same_bytes(a.data, reference(recipe(), false))) << "physarum " << name;
  }
};

TEST_P(ConformanceE2e, RunCommandGivesTheReference) {
  expect_command_gives_reference("run");
}

TEST_P(ConformanceE2e, RenderCommandGivesTheReference) {
  expect_command_gives_reference("render");
}

// `export --out FILE.npy` writes the grown field as `run` does; a program without that output skips
// the export test, saying so, rather than failing it.
bool export_writes_npy() {
  const fs::path dir = test::temp_dir();
  const auto help = test::run_physarum({"export", "--help"}, dir);
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    const bool out_or_format =
        line.find("--out ") != std::string::npos || line.find("--format ") != std::string::npos;
    if (out_or_format && line.find("npy") != std::string::npos) return true;
  }
  return false;
}

TEST_P(ConformanceE2e, ExportCommandGivesTheReference) {
  if (!export_writes_npy()) GTEST_SKIP() << "`physarum export --help` names no .npy output (--out, --format)";
  expect_command_gives_reference("export");
}

TEST_P(ConformanceE2e, SensitivityTwinsWithoutPerturbationBothGiveTheReference) {
  const cf::Recipe& r = recipe();
  const sensitivity::TwinResult twins =
      sensitivity::run_twins(options(), sensitivity::parse_perturbation("agent:0:theta:0"), r.steps(), 20);
  ASSERT_EQ(twins.records.back().step, r.steps());
  EXPECT_TRUE(same_bytes(twins.field_a, reference(r, false))) << "twin A";
  EXPECT_TRUE(same_bytes(twins.field_b, reference(r, false))) << "twin B";
}

// The window's core steps as the window does: frames of steps_per_frame steps.
void run_frames(WindowCore& core, int steps) {
  for (int done = 0; done < steps;) {
    core.steps_per_frame = std::min(7, steps - done);
    core.step();
    done += core.steps_per_frame;
  }
}

TEST_P(ConformanceE2e, WindowCoreGivesTheReference) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(options());
  run_frames(core, recipe().steps());
  ASSERT_EQ(core.backend().steps_done(), static_cast<uint64_t>(recipe().steps()));
  std::vector<float> field;
  core.backend().read_field(field);
  EXPECT_TRUE(same_bytes(field, reference(recipe(), false)));
}

TEST_P(ConformanceE2e, WindowCoreWithLiveEditsGivesTheReference) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const cf::Recipe& r = recipe();
  WindowCore core(options());
  run_frames(core, r.before);
  core.brush(r.brush);
  // As the panel changes a value: on the live preset, then applied to the running simulation.
  Preset next = core.preset;
  for (const std::string& s : r.sets) apply_override(next, s);
  const CommandResult applied =
      next.species.list.empty() ? core.apply_model(next.model) : core.apply_species(next.species);
  ASSERT_TRUE(applied.ok()) << applied.error();
  run_frames(core, r.after);
  std::vector<float> field;
  core.backend().read_field(field);
  EXPECT_TRUE(same_bytes(field, reference(r, true)));
}

// The recipes test what they claim: each ingredient changes the reference, so a surface that drops
// one cannot match by accident.
TEST_P(ConformanceE2e, EveryIngredientOfTheRecipeShapesTheReference) {
  const cf::Recipe& r = recipe();
  const std::vector<float>& plain = reference(r, false);
  EXPECT_GT(*std::max_element(plain.begin(), plain.end()), 0.0f) << "a grown field";
  cf::Recipe unbrushed = r;
  unbrushed.brush.amount = 0;  // max(0, F + 0) = F: the stroke changes nothing
  EXPECT_FALSE(same_bytes(cf::reference_field(unbrushed, true), reference(r, true))) << "the brush stroke";
  cf::Recipe unset = r;
  unset.sets.clear();
  EXPECT_FALSE(same_bytes(cf::reference_field(unset, true), reference(r, true))) << "the live parameters";

  const fs::path dir = test::temp_dir();
  const Preset p = cf::reference_preset(r);  // map paths absolute: the variants may live elsewhere
  const auto without = [&](const char* what, auto change) {
    Preset q = p;
    change(q);
    cf::Recipe variant = r;
    variant.preset = dir / (std::string(what) + ".toml");
    save_preset(q, variant.preset);
    EXPECT_FALSE(same_bytes(cf::reference_field(variant, false), plain)) << "without " << what;
  };
  if (!p.keyframes.empty()) without("keyframes", [](Preset& q) { q.keyframes.clear(); });
  // Keyframes that name the matrix would hide the preset's own (their first value holds until then).
  if (p.species.count() > 1 && p.keyframes.empty()) {
    without("the matrix", [](Preset& q) {
      const size_t s = q.species.list.size();
      q.species.interaction.assign(s * s, 0.0f);
      for (size_t i = 0; i < s; ++i) q.species.interaction[i * s + i] = 1.0f;
    });
  }
  if (!p.environment.food.empty()) without("food", [](Preset& q) { q.environment.food.clear(); });
  if (!p.environment.walls.empty()) without("walls", [](Preset& q) { q.environment.walls.clear(); });
  if (p.environment.boundary == Boundary::Walls) {
    without("the box", [](Preset& q) { q.environment.boundary = Boundary::Wrap; });
    // Walls hold no trail (docs/MODEL.md, "Environment"), in every channel.
    const std::vector<uint8_t> walls = run_walls(cf::reference_environment(p), p.run.size);
    const size_t cells = walls.size();
    size_t wall_values = 0;
    for (size_t i = 0; i < plain.size(); ++i) {
      if (walls[i % cells] == 0) continue;
      ++wall_values;
      ASSERT_EQ(plain[i], 0.0f) << "trail in the wall cell " << i % cells;
    }
    EXPECT_GT(wall_values, 0u);
  }
  if (!r.image.empty()) {
    cf::Recipe unseeded = r;
    unseeded.image.clear();
    EXPECT_FALSE(same_bytes(cf::reference_field(unseeded, false), plain)) << "without the image";
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(, ConformanceE2e, ::testing::ValuesIn(recipe_names()), test_name);

}  // namespace
}  // namespace physarum::app
