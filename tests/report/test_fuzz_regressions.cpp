// Every input a fuzz target ever choked on (tests/fuzz/regressions/TARGET/) goes through the same
// parser here, in the normal build: a clean Error or a valid result, never a crash. The fuzz build
// (make fuzz) starts from these files too.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "report/ensemble_report.hpp"
#include "report/ensemble_summary.hpp"
#include "sensitivity/runs.hpp"
#include "sim/image.hpp"
#include "sim/keyframes.hpp"
#include "sim/npy.hpp"
#include "sim/points.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

std::vector<std::filesystem::path> inputs(const std::string& target) {
  const std::filesystem::path dir =
      std::filesystem::path(PHYSARUM_SOURCE_DIR) / "tests/fuzz/regressions" / target;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  return files;
}

TEST(FuzzRegressions, ImageInputsGiveACleanAnswer) {
  const auto files = inputs("image");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    try {
      const LumaImage img = load_luma(f);
      ASSERT_EQ(img.luma.size(), static_cast<size_t>(img.width) * static_cast<size_t>(img.height)) << f;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
}

TEST(FuzzRegressions, PresetInputsGiveACleanAnswer) {
  const auto files = inputs("preset");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    try {
      const Preset p = parse_preset(test::read_file(f), f.filename().string());
      EXPECT_EQ(parse_preset(preset_to_toml(p)), p) << f;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(f.filename().string() + ":", 0), 0u) << e.what();
    }
  }
}

TEST(FuzzRegressions, SetInputsGiveACleanAnswer) {
  const auto files = inputs("set");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    Preset p;
    try {
      apply_override(p, test::read_file(f));
    } catch (const Error&) {
      EXPECT_EQ(p, Preset{}) << f;  // a refused override changes nothing
      continue;
    }
    EXPECT_EQ(parse_preset(preset_to_toml(p)), p) << f;
  }
}

TEST(FuzzRegressions, NpyInputsGiveACleanAnswer) {
  const auto files = inputs("npy");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    try {
      const NpyArray a = read_npy_planes(f);
      EXPECT_EQ(a.data.size(),
                static_cast<size_t>(a.planes) * static_cast<size_t>(a.height) * static_cast<size_t>(a.width))
          << f;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
}

// What is read is finite with weights >= 0 and fits into a small volume.
TEST(FuzzRegressions, PointsInputsGiveACleanAnswer) {
  const auto files = inputs("points");
  ASSERT_FALSE(files.empty());
  int read = 0;
  for (const auto& f : files) {
    try {
      const std::vector<Point> points = read_points(f);
      for (const Point& p : points) {
        EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) && p.weight >= 0) << f;
      }
      EXPECT_EQ(fit_points(points, {7, 5, 3}).kept, static_cast<int64_t>(points.size())) << f;
      ++read;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(read, 1);
}

// Through the merge of one shard: a header the reader accepts is then counted through.
TEST(FuzzRegressions, CsvInputsGiveACleanAnswer) {
  const auto files = inputs("csv");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    try {
      const app::sensitivity::CsvFile csv = app::sensitivity::merge_csv({f});
      EXPECT_EQ(app::sensitivity::csv_text(csv.header, csv.runs), test::read_file(f)) << f;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
}

// Through the merge of one file, as `render --merge` reads it: what is read writes back the same
// file (the one valid input is a shard the program wrote), anything else is refused naming the file.
TEST(FuzzRegressions, EnsembleInputsGiveACleanAnswer) {
  const auto files = inputs("ensemble");
  ASSERT_FALSE(files.empty());
  int read = 0;
  for (const auto& f : files) {
    try {
      const app::Ensemble e = app::read_ensemble(f);
      EXPECT_EQ(app::ensemble_json(e, app::summary_json(app::summarise(e.runs))), test::read_file(f)) << f;
      ++read;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(read, 1);
}

TEST(FuzzRegressions, KeyframeInputsGiveACleanAnswer) {
  const auto files = inputs("keyframe");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    Preset p;
    try {
      p = parse_preset(test::read_file(f), f.filename().string());
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(f.filename().string() + ":", 0), 0u) << e.what();
      continue;
    }
    for (const Keyframe& k : p.keyframes) {
      for (const uint64_t step : {k.step == 0 ? 0 : k.step - 1, k.step, k.step + 1}) {
        EXPECT_NO_THROW(validate(preset_at(p, step))) << f << " at step " << step;
      }
    }
    EXPECT_EQ(parse_preset(preset_to_toml(p)), p) << f;
  }
}

}  // namespace
}  // namespace physarum
