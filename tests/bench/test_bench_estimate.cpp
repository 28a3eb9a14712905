// What a long benchmark case says before it runs (bench/bench_estimate.hpp): the rate of its first
// warm-up steps, timed, and the steps still to come priced at it.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "bench/bench_estimate.hpp"

namespace physarum::app {
namespace {

TEST(BenchEstimate, TheLineSaysTheStepsTheRateAndTheTotal) {
  // 299 + 64 steps at 0.5 s: 181.5 s.
  const CaseEstimate e{"4096x4096 with 16M agents", 299, 64, "timed steps", 0.5, 1};
  EXPECT_DOUBLE_EQ(e.seconds(), 181.5);
  EXPECT_EQ(estimate_line(e),
            "physarum bench: 4096x4096 with 16M agents will take about 182 s (3:02) more: 299 warm-up steps "
            "and 64 timed steps at 0.5 s a step, timed over 1 step; Ctrl-C stops it");
  const CaseEstimate no_warmup{"x", 0, 10, "steps", 2, 3};
  EXPECT_NE(
      estimate_line(no_warmup).find("about 20 s (0:20) more: 10 steps at 2 s a step, timed over 3 steps"),
      std::string::npos)
      << estimate_line(no_warmup);
}

// Steps of 30 ms: the first slice (a step) is run untimed, the next ones (2, 4, ... steps) are
// timed until they pass a quarter second and price the rest: M steps timed, 20 - 1 - M warm-up
// steps and 300 more at about 30 ms, over 9 s. Said when the case is over the threshold, not said
// under it.
TEST(BenchEstimate, FirstWarmUpStepsAreTimedAndALongCaseIsAnnounced) {
  int steps = 0;
  const auto step = [&](uint64_t k) {
    for (uint64_t i = 0; i < k; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      ++steps;
    }
  };
  testing::internal::CaptureStderr();
  const double s = warm_up_announcing("the case", 20, 300, "timed steps", step, 5.0);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(steps, 20) << "every warm-up step is run";
  EXPECT_GE(s, 0.030);
  const auto first = said.find("timed over ");
  ASSERT_NE(first, std::string::npos) << said;
  const int timed = std::stoi(said.substr(first + 11));
  EXPECT_GE(timed, 6) << "2 + 4 steps take 180 ms, under a quarter second: " << said;
  EXPECT_LT(timed, 19) << said;
  const int left = 20 - 1 - timed;
  EXPECT_NE(said.find(std::to_string(left) + " warm-up steps and 300 timed steps"), std::string::npos)
      << said;
  const auto about = said.find("will take about ");
  ASSERT_NE(about, std::string::npos) << said;
  const double total = std::stod(said.substr(about + 16));
  EXPECT_NEAR(total, s * (left + 300), 1.0) << said;
  EXPECT_GE(total, 0.030 * (left + 300) - 0.5) << said;

  testing::internal::CaptureStderr();
  (void)warm_up_announcing("the case", 20, 300, "timed steps", step, 60.0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "a case under the threshold says nothing";
}

}  // namespace
}  // namespace physarum::app
