// The run library (run/run.hpp): a recipe's in-memory seed image reaches the field before the first
// step, live edits refuse what needs a new run and change nothing then, a map that is not a regular
// file is an InputError naming it, and step() sets each keyframed value before the step it belongs to.
#include "run/run.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace physarum::run {
namespace {

Recipe small_recipe() {
  Recipe r;
  r.size = "32x32";
  r.agents = "200";
  r.backend = "cpu";
  r.threads = 1;
  return r;
}

TEST(RunLibrary, PictureSeedsTheFieldLetterboxedBeforeTheFirstStep) {
  Recipe r = small_recipe();
  LumaImage wide;
  wide.width = 16;
  wide.height = 8;
  wide.luma.assign(16 * 8, 0.5f);
  r.picture = wide;
  r.image_fit = "fit";  // a 2:1 image in a square field: bands of 0 above and below
  run::Run run(r);
  std::vector<float> field;
  run.backend().read_field(field);
  ASSERT_EQ(field.size(), 32u * 32u);
  const float strength = run.preset().spawn.field_strength;
  EXPECT_EQ(field[0 * 32 + 16], 0.0f);   // top band
  EXPECT_EQ(field[31 * 32 + 16], 0.0f);  // bottom band
  EXPECT_NEAR(field[16 * 32 + 16], 0.5f * strength, 1e-5f);
  EXPECT_NEAR(field[16 * 32 + 0], 0.5f * strength, 1e-5f);
}

TEST(RunLibrary, SetRefusesWhatNeedsANewRunAndChangesNothing) {
  run::Run run(small_recipe());
  const Preset before = run.preset();
  try {
    run.set({"model.decay=0.5", "run.seed=9"});
    FAIL() << "run.seed changed in a running simulation";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot change in a running simulation"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(run.preset(), before);
  EXPECT_EQ(run.backend().model(), before.model);
  EXPECT_THROW(run.set({"model.decay=7"}), UsageError);
  EXPECT_EQ(run.backend().model(), before.model);

  run.set({"model.decay=0.5"});
  EXPECT_EQ(run.backend().model().decay, 0.5f);
  EXPECT_EQ(run.preset().model.decay, 0.5f);
}

TEST(RunLibrary, AMapThatIsNotARegularFileIsAnInputErrorNamingIt) {
  for (const char* key : {"food", "walls"}) {
    Recipe r = small_recipe();
    (std::string(key) == "food" ? r.food : r.walls) = "/dev/zero";
    try {
      run::Run run(r);
      FAIL() << key << ": /dev/zero was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("environment." + std::string(key)), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("/dev/zero"), std::string::npos) << e.what();
    }
  }
}

TEST(RunLibrary, StepSetsEachKeyframedValueBeforeItsStep) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "ramp.toml",
                   "[[keyframe]]\nstep = 0\nmodel.decay = 0.1\n[[keyframe]]\nstep = 10\nmodel.decay = 0.2\n");
  Recipe r = small_recipe();
  r.preset = (dir / "ramp.toml").string();
  run::Run run(r);
  run.step(5);
  // Step 4 ran with the decay of step 4 (linear: 0.14); the live preset already holds step 5's.
  EXPECT_NEAR(run.backend().model().decay, 0.14f, 1e-6f);
  EXPECT_NEAR(run.preset().model.decay, 0.15f, 1e-6f);
  run.step(10);
  EXPECT_NEAR(run.backend().model().decay, 0.2f, 1e-6f);
}

}  // namespace
}  // namespace physarum::run
