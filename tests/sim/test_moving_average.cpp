// The backends' stage-time averages: the last N samples only, and a batch of steps weighs as many
// steps as it holds (the CUDA backend times 16 batches of different lengths).
#include <gtest/gtest.h>

#include "moving_average.hpp"

namespace physarum {
namespace {

TEST(MovingAverage, AveragesOnlyTheLastCapacitySamples) {
  MovingAverage avg(3);
  EXPECT_EQ(avg.mean(), 0.0);  // no sample yet
  for (double v : {100.0, 1.0, 2.0, 3.0}) avg.add(v);
  EXPECT_DOUBLE_EQ(avg.mean(), 2.0);  // 100 has left the window
  EXPECT_DOUBLE_EQ(avg.units(), 3.0);
}

TEST(MovingAverage, ABatchCountsAsManyUnitsAsItHolds) {
  MovingAverage avg(2);
  avg.add(10.0, 10);                          // 10 steps in 10 ms
  avg.add(2.0, 1);                            // 1 step in 2 ms
  EXPECT_DOUBLE_EQ(avg.mean(), 12.0 / 11.0);  // per step, not the mean of 1 and 2 ms
  EXPECT_DOUBLE_EQ(avg.units(), 11.0);
}

TEST(StageAverages, EachStageIsAveragedOverTheLast64StepsAndSamplesCountsThem) {
  StageAverages avg;
  StageTimings slow;
  slow.agents_ms = 1000;
  avg.add(slow);  // pushed out by the 64 below
  for (int i = 0; i < 64; ++i) {
    StageTimings t;
    t.agents_ms = i % 2 ? 3.0 : 1.0;
    t.field_ms = 0.5;
    t.step_ms = t.agents_ms + t.field_ms;
    avg.add(t);
  }
  const StageTimings a = avg.average();
  EXPECT_DOUBLE_EQ(a.agents_ms, 2.0);
  EXPECT_DOUBLE_EQ(a.field_ms, 0.5);
  EXPECT_DOUBLE_EQ(a.step_ms, 2.5);
  EXPECT_EQ(a.sort_ms, 0.0);
  EXPECT_EQ(a.samples, 64);
}

}  // namespace
}  // namespace physarum
