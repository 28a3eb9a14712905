// The ctest labels of tests/CMakeLists.txt come from test names; the helpers that run the program,
// Xvfb or ffmpeg fail a test whose name would label it `unit`.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace physarum::test {
namespace {

TEST(TestLabels, PatternsMatchLikeGoogleTestFilters) {
  EXPECT_TRUE(matches_pattern("Cli.*", "Cli.BadArgumentsExitTwoNamingTheValue"));
  EXPECT_FALSE(matches_pattern("Cli.*", "CliX.Anything"));
  EXPECT_TRUE(matches_pattern("*Cuda*.*", "Model/CudaPinned.MatchesThePinnedHashes/plain"));
  EXPECT_TRUE(matches_pattern("*.*OnCuda", "WindowTwin.ZeroPerturbationStaysAtDistanceZeroOnCuda"));
  EXPECT_FALSE(matches_pattern("*Gpu.*", "RenderGl.GpuRangeReductionMatchesHost"));
  EXPECT_TRUE(
      matches_pattern("RecorderSignals.Sig*", "RecorderSignals.SigintMidRecordingLeavesAPlayableFile"));
  EXPECT_FALSE(matches_pattern("RecorderSignals.Sig*", "RecorderSignals.StopRequestFlag"));
  EXPECT_TRUE(matches_pattern("a?c", "abc"));
  EXPECT_FALSE(matches_pattern("a?c", "ac"));
  EXPECT_TRUE(matches_pattern("*", ""));
}

TEST(TestLabels, RunningTheProgramUnderAUnitTestsNameFails) {
  EXPECT_NONFATAL_FAILURE(expect_labelled_end_to_end("runs the program"),
                          "end its suite's name in Cli or E2e");
}

}  // namespace
}  // namespace physarum::test
