// The headless progress line: its numbers, its width, and silence when not on a terminal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "video/progress.hpp"

namespace physarum::app {
namespace {

TEST(Progress, Durations) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(7.4), "0:07");
  EXPECT_EQ(format_duration(62), "1:02");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  EXPECT_EQ(format_duration(-1), "--:--");
  EXPECT_EQ(format_duration(1.0 / 0.0), "--:--");
}

TEST(Progress, LineShowsStepFramesFpsAndEta) {
  ProgressState s;
  s.step = 250;
  s.total_steps = 1000;
  s.frames = 25;
  s.elapsed_s = 5.0;  // 50 steps/s -> 750 steps left = 15 s; 25 frames / 5 s = 5 fps
  const std::string line = format_progress(s, 120);
  EXPECT_NE(line.find(" 25%"), std::string::npos) << line;
  EXPECT_NE(line.find("step 250/1000"), std::string::npos) << line;
  EXPECT_NE(line.find("frames 25"), std::string::npos) << line;
  EXPECT_NE(line.find("5.0 fps"), std::string::npos) << line;
  EXPECT_NE(line.find("ETA 0:15"), std::string::npos) << line;
  // The bar: a quarter filled.
  const size_t open = line.find('['), close = line.find(']');
  ASSERT_NE(open, std::string::npos);
  const std::string bar = line.substr(open + 1, close - open - 1);
  EXPECT_EQ(bar.size() / 4, static_cast<size_t>(std::count(bar.begin(), bar.end(), '#')));
  EXPECT_LT(line.size(), 120u);
}

TEST(Progress, BeforeTheRecordingStartsTheLineSaysItIsGrowing) {
  ProgressState s;
  s.step = 40;
  s.total_steps = 200;
  s.elapsed_s = 1.0;
  s.record_from = 100;
  const std::string growing = format_progress(s, 120);
  EXPECT_NE(growing.find("growing, recording from step 100"), std::string::npos) << growing;
  EXPECT_EQ(growing.find("frames"), std::string::npos) << growing;
  s.step = 100;
  s.frames = 1;
  const std::string recording = format_progress(s, 120);
  EXPECT_EQ(recording.find("growing"), std::string::npos) << recording;
  EXPECT_NE(recording.find("frames 1"), std::string::npos) << recording;
}

TEST(Progress, NarrowTerminalDropsTheBarAndNeverWraps) {
  ProgressState s{500, 1000, 10, 1.0};
  const std::string narrow = format_progress(s, 40);
  EXPECT_EQ(narrow.find('['), std::string::npos);
  EXPECT_LE(narrow.size(), 39u);
  ProgressState unknown{500, 0, 10, 1.0};
  const std::string u = format_progress(unknown, 120);
  EXPECT_EQ(u.find("ETA"), std::string::npos);
  EXPECT_NE(u.find("step 500"), std::string::npos);
}

TEST(Progress, SilentWhenNotATerminalOrQuiet) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressBar quiet(100, false, f, true);
    EXPECT_FALSE(quiet.active());
    ProgressBar not_tty(100, true, f);  // a file is not a terminal
    EXPECT_FALSE(not_tty.active());
    not_tty.update(50, 1);
  }
  EXPECT_EQ(std::ftell(f), 0L);
  {
    ProgressBar forced(100, true, f, true);
    forced.update(100, 3);
    forced.finish();
  }
  std::rewind(f);
  char buf[512] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  const std::string text(buf, n);
  EXPECT_NE(text.find("step 100/100"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  std::fclose(f);
}

}  // namespace
}  // namespace physarum::app
