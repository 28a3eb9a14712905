// A run scaled by its area keeps its look (aspect, agents per cell), and the CPU's frame budget
// picks the largest such run that fits, never below a readable size.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "run/area_fit.hpp"
#include "run/recipe.hpp"

namespace physarum::run {
namespace {

double density(const RunParams& r) {
  return static_cast<double>(r.agents) / (static_cast<double>(r.size.width) * r.size.height);
}

RunParams run_of(int w, int h, uint64_t agents) {
  RunParams r;
  r.size = {w, h};
  r.agents = agents;
  r.seed = 42;
  return r;
}

TEST(AreaFit, ScalingTheAreaKeepsAspectDensityAndSeed) {
  const RunParams full = run_of(1920, 1080, 1'000'000);
  const RunParams quarter = scale_area(full, 0.25);
  EXPECT_EQ(quarter.size.width, 960);
  EXPECT_EQ(quarter.size.height, 540);
  EXPECT_EQ(quarter.agents, 250'000u);
  EXPECT_EQ(quarter.seed, 42u);

  const RunParams odd = scale_area(run_of(1000, 300, 123'457), 0.37);
  const double side = std::sqrt(0.37);
  EXPECT_EQ(odd.size.width, static_cast<int>(std::lround(1000 * side)));
  EXPECT_EQ(odd.size.height, static_cast<int>(std::lround(300 * side)));
  EXPECT_NEAR(density(odd), 123'457.0 / 300'000.0,
              0.02 * 123'457.0 / 300'000.0);  // agents rounded to thousands

  // Larger works the same way (a later size scale).
  const RunParams twice = scale_area(run_of(640, 360, 100'000), 4.0);
  EXPECT_EQ(twice.size.width, 1280);
  EXPECT_EQ(twice.size.height, 720);
  EXPECT_EQ(twice.agents, 400'000u);
}

TEST(AreaFit, AFactorThatIsNotPositiveIsRefusedByValue) {
  const RunParams r = run_of(100, 100, 1000);
  for (double bad : {0.0, -0.5, std::nan(""), static_cast<double>(INFINITY)}) {
    try {
      (void)scale_area(r, bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("area factor"), std::string::npos) << e.what();
    }
  }
}

TEST(AreaFit, ABraidSizedRunShrinksToTheLargestAreaWithinTheBudget) {
  const FrameBudget budget;  // the documented default
  const RunParams full = run_of(1920, 1080, 1'000'000);
  const int species = 4;
  const AreaFit fit = fit_to_budget(full, species, 1, budget);
  ASSERT_TRUE(fit.scaled);
  EXPECT_EQ(fit.full, full);

  // By hand: work = agents * (1 + 0.5 * (species - 1)) + 0.1 * cells * species per step,
  // proportional to the area.
  const double per_frame = budget.work_per_s / budget.fps;
  const double work = 1e6 * 2.5 + 0.1 * 1920.0 * 1080.0 * species;
  const double side = std::sqrt(per_frame / work);
  EXPECT_EQ(fit.run.size.width, static_cast<int>(std::lround(1920 * side)));
  EXPECT_EQ(fit.run.size.height, static_cast<int>(std::lround(1080 * side)));
  EXPECT_NEAR(density(fit.run), density(full), 0.01 * density(full));
  EXPECT_NEAR(static_cast<double>(fit.run.size.width) / fit.run.size.height, 16.0 / 9.0, 0.01);
  EXPECT_LE(frame_work(fit.run, species, 1), per_frame * 1.01);
  // Two steps a frame cost twice as much: with twice the budget the same run fits.
  FrameBudget twice = budget;
  twice.work_per_s *= 2.0;
  EXPECT_EQ(fit_to_budget(full, species, 2, twice).run, fit.run);
}

TEST(AreaFit, ARunWithinTheBudgetStaysAndNoneGoesBelowTheReadableSize) {
  const RunParams small = run_of(960, 540, 60'000);  // towns
  const AreaFit kept = fit_to_budget(small, 1, 1);
  EXPECT_FALSE(kept.scaled);
  EXPECT_EQ(kept.run, small);

  FrameBudget tiny;
  tiny.work_per_s = 1000.0;
  const AreaFit floor = fit_to_budget(run_of(1920, 1080, 6'000'000), 1, 1, tiny);
  EXPECT_TRUE(floor.scaled);
  EXPECT_EQ(floor.run.size.height, tiny.min_short_side);
  EXPECT_EQ(floor.run.size.width, 480);
  EXPECT_NEAR(density(floor.run), 6e6 / (1920.0 * 1080.0), 0.01 * 6e6 / (1920.0 * 1080.0));
}

TEST(AreaFit, AVolumeShrinksEachOfItsThreeSidesByTheCubeRootAndKeepsItsDensity) {
  RunParams full = run_of(256, 256, 10'000'000);  // web-3d
  full.size.depth = 192;
  const FrameBudget budget;
  const AreaFit fit = fit_to_budget(full, 1, 1, budget);
  ASSERT_TRUE(fit.scaled);
  // By hand: a volume's agent costs kVolumeAgentWork, a voxel as a cell.
  const double voxels = 256.0 * 256.0 * 192.0;
  const double work = 1e7 * 2.0 + 0.1 * voxels;
  const double side = std::cbrt(budget.work_per_s / budget.fps / work);
  EXPECT_EQ(fit.run.size.width, static_cast<int>(std::lround(256 * side)));
  EXPECT_EQ(fit.run.size.height, static_cast<int>(std::lround(256 * side)));
  EXPECT_EQ(fit.run.size.depth, static_cast<int>(std::lround(192 * side)));
  const Size s = fit.run.size;
  const double fitted = static_cast<double>(fit.run.agents) / (double(s.width) * s.height * s.depth);
  EXPECT_NEAR(fitted, 1e7 / voxels, 0.05 * 1e7 / voxels);
  // No side of a volume goes below its own floor, far under a plane's.
  FrameBudget tiny;
  tiny.work_per_s = 1000.0;
  EXPECT_EQ(fit_to_budget(full, 1, 1, tiny).run.size.depth, tiny.min_volume_side);
}

TEST(AreaFit, TheDescriptionNamesBothSizes) {
  const AreaFit fit = fit_to_budget(run_of(1920, 1080, 2'000'000), 1, 1);
  const std::string d = describe_fit(fit);
  EXPECT_NE(d.find(std::to_string(fit.run.size.width) + "x" + std::to_string(fit.run.size.height)),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("1920x1080 with 2M agents"), std::string::npos) << d;
}

}  // namespace
}  // namespace physarum::run
