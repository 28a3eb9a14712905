// The one table of output formats (export_pipeline/output_formats.hpp): every entry is whole and
// found by its own extension, no caller could pick two formats for one name, the writers of stills
// and fields write what the older writers wrote, and render, export and the window refuse an
// unknown extension with the table's own list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "export_pipeline/export_plan.hpp"
#include "export_pipeline/output_formats.hpp"
#include "png_image.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"
#include "video/video_quality.hpp"
#include "window/window_recording.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_physarum;
using test::temp_dir;

// Every caller of the table and what it offers.
struct Caller {
  const char* name;
  OutputOffer offer;
};
const Caller kCallers[] = {{"render", kRenderOffer},
                           {"a plane's export", kPlaneExportOffer},
                           {"a volume's export", kVolumeExportOffer},
                           {"the window", kWindowOffer}};

// A name with the entry's extension that the entry alone should claim.
fs::path name_for(const OutputFormat& f, std::string_view extension) {
  return f.frame_pattern ? fs::path("frames/%05d" + std::string(extension))
                         : fs::path("x" + std::string(extension));
}

TEST(OutputFormats, EveryEntryIsWholeAndFoundByItsOwnExtensionAndName) {
  std::set<std::string_view> names;
  for (const OutputFormat& f : output_formats()) {
    SCOPED_TRACE(std::string(f.name));
    EXPECT_TRUE(names.insert(f.name).second) << "a second entry named " << f.name;
    EXPECT_FALSE(f.what.empty());
    ASSERT_NE(f.estimate, nullptr);
    if (f.needs == OutputNeeds::Video) {
      // The recorder writes a video frame by frame: the entry names its format, of the same extension.
      EXPECT_EQ(f.write, nullptr);
      EXPECT_EQ(format_extension(f.video), f.extensions[0]);
    } else {
      EXPECT_NE(f.write, nullptr);
    }
    const OutputOffer alone = {f.needs};
    EXPECT_EQ(output_format_named(f.name, alone), &f);
    for (std::string_view ext : f.extensions) {
      if (ext.empty()) continue;
      EXPECT_EQ(ext[0], '.');
      EXPECT_TRUE(
          std::ranges::none_of(ext, [](char c) { return std::isupper(static_cast<unsigned char>(c)); }));
      EXPECT_EQ(output_format_for(name_for(f, ext), alone), &f) << ext;
      // Case-insensitive, as every extension the program takes.
      std::string upper(ext);
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      EXPECT_EQ(output_format_for(name_for(f, upper), alone), &f) << upper;
    }
  }
}

// Two formats a caller offers never share an extension (a frame pattern and a plain name are told
// apart), so the table's order never silently decides what a file becomes.
TEST(OutputFormats, NoCallerCouldPickTwoFormatsForOneName) {
  for (const Caller& c : kCallers) {
    std::set<std::string> claimed;
    for (const OutputFormat& f : output_formats()) {
      if (!c.offer.has(f.needs)) continue;
      for (std::string_view ext : f.extensions) {
        if (ext.empty()) continue;
        const std::string key = (f.frame_pattern ? "pattern " : "") + std::string(ext);
        EXPECT_TRUE(claimed.insert(key).second) << c.name << " has two formats for " << key;
        EXPECT_EQ(output_format_for(name_for(f, ext), c.offer), &f) << c.name << ": " << ext;
      }
    }
    EXPECT_EQ(output_format_for("x.foo", c.offer), nullptr) << c.name;
    EXPECT_EQ(output_format_for("x", c.offer), nullptr) << c.name;
  }
}

TEST(OutputFormats, TheListsInMessagesAndHelpHoldEveryFormatACallerTakes) {
  EXPECT_EQ(output_extensions(kRenderOffer),
            ".png, .exr, .npy, .mp4, .webm or .gif, or a numbered PNG sequence such as frames/%05d.png");
  EXPECT_EQ(output_extensions(kWindowOffer), ".png");
  for (const Caller& c : kCallers) {
    const std::string list = output_extensions(c.offer), help = output_formats_help(c.offer);
    for (const OutputFormat& f : output_formats()) {
      if (!c.offer.has(f.needs) || f.extensions[0].empty()) continue;
      EXPECT_NE(list.find(f.extensions[0]), std::string::npos) << c.name << ": " << list;
      EXPECT_NE(help.find(std::string(f.extensions[0]) + " (" + std::string(f.what) + ")"), std::string::npos)
          << c.name << ": " << help;
    }
  }
  EXPECT_EQ(or_list({"a"}), "a");
  EXPECT_EQ(or_list({"a", "b", "c"}), "a, b or c");
}

// A shape where every estimate has what it reads.
OutputShape full_shape(const ExportOptions& o, const VideoQuality& q) {
  OutputShape s{.options = &o, .field = {64, 48}, .planes = 2};
  s.grid = {64, 48};
  s.grid_text = "a 64x48 grid";
  s.paper_mm = 297;
  s.mesh = {1000, 2000, 100000};
  s.image = {64, 48};
  s.image_text = "a 64x48 image";
  s.frames_in_flight = 7;
  s.video_frames = 10;
  s.quality = &q;
  return s;
}

TEST(OutputFormats, EveryEstimateCostsSomethingAndSaysWhy) {
  ExportOptions o;
  const VideoQuality q;
  OutputShape s = full_shape(o, q);
  for (const OutputFormat& f : output_formats()) {
    if (f.needs == OutputNeeds::Volume || f.needs == OutputNeeds::Mesh) s.field = {16, 12, 8};
    const OutputEstimate e = f.estimate(s);
    EXPECT_GT(e.cost.disk + e.cost.memory, 0u) << f.name;
    EXPECT_FALSE(e.because.empty()) << f.name;
    s.field = {64, 48};
  }
}

std::vector<float> noise(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// The field through the table, against the npy writer called directly with the shape `physarum run`
// gives a plane of species and a volume.
TEST(OutputFormats, TheFieldIsWrittenAsRunWritesIt) {
  const fs::path dir = temp_dir();
  const OutputFormat& npy = *output_format_for("f.npy", kRenderOffer);
  const std::vector<float> values = noise(3 * 5 * 4 * 2, 1);
  npy.write(dir / "plane.npy", {.field = {values.data(), {5, 4}, 6}});
  write_npy(dir / "plane_direct.npy", values.data(), 4, 5, 6);
  EXPECT_EQ(read_file(dir / "plane.npy"), read_file(dir / "plane_direct.npy"));
  npy.write(dir / "one.npy", {.field = {values.data(), {5, 4}, 1}});
  write_npy(dir / "one_direct.npy", values.data(), 4, 5, 1);
  EXPECT_EQ(read_file(dir / "one.npy"), read_file(dir / "one_direct.npy"));
  npy.write(dir / "volume.npy", {.field = {values.data(), {5, 4, 3}, 2}});
  write_npy_shape(dir / "volume_direct.npy", values.data(), {2, 3, 4, 5});
  EXPECT_EQ(read_file(dir / "volume.npy"), read_file(dir / "volume_direct.npy"));
  // The estimate bounds the file.
  const OutputShape shape{.field = {5, 4, 3}, .planes = 2};
  EXPECT_GE(npy.estimate(shape).cost.disk, fs::file_size(dir / "volume.npy"));
}

// The window's screenshot goes through the table: the pixels come back as given, and a format the
// window cannot write is refused naming the file and the extensions it takes.
TEST(OutputFormats, TheWindowsPictureIsThePngEntrysAndBoundedByItsEstimate) {
  const fs::path dir = temp_dir();
  const Size size{37, 23};
  std::vector<uint8_t> rgba(static_cast<size_t>(size.width) * size.height * 4);
  std::mt19937 rng(2);
  for (uint8_t& b : rgba) b = static_cast<uint8_t>(rng());
  write_picture(dir / "shot.PNG", rgba, size);
  const test::RgbaImage back = test::load_rgba_png(dir / "shot.PNG");
  ASSERT_EQ(back.w, size.width);
  ASSERT_EQ(back.h, size.height);
  EXPECT_EQ(back.rgba, rgba);
  const OutputShape shape{.image = size, .image_text = "x"};
  EXPECT_GE(picture_format_of("shot.png").estimate(shape).cost.disk, fs::file_size(dir / "shot.PNG"));
  try {
    write_picture(dir / "shot.exr", rgba, size);
    ADD_FAILURE() << "an .exr from the window's 8-bit picture was written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shot.exr"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(output_extensions(kWindowOffer)), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "shot.exr"));
}

// The 16-bit still and the EXR from a deep picture: bounded by their estimates.
TEST(OutputFormats, DeepStillsAreBoundedByTheirEstimates) {
  const fs::path dir = temp_dir();
  const Size size{40, 30};
  const std::vector<float> rgba = noise(static_cast<size_t>(size.width) * size.height * 4, 3);
  for (const char* sample : {"half", "float"}) {
    for (const char* file : {"deep.png", "deep.exr"}) {
      DeepStillOptions deep;
      deep.depth = 16;
      deep.exr_sample = sample;
      Picture picture;
      picture.size = size;
      picture.rgba = &rgba;
      picture.alpha = true;
      picture.deep = deep;
      picture.comment = "c";
      const OutputFormat& f = *output_format_for(file, kRenderOffer);
      f.write(dir / file, {.picture = &picture});
      OutputShape shape;
      shape.image = size;
      shape.image_text = "x";
      shape.deep = deep;
      EXPECT_GE(f.estimate(shape).cost.disk, fs::file_size(dir / file)) << file << " " << sample;
    }
  }
}

// The commands refuse a name no format of theirs has, listing the table's extensions, and write
// nothing; the window before it looks for a display.
TEST(OutputFormatsCli, UnknownExtensionsAreRefusedWithTheTablesList) {
  const fs::path dir = temp_dir();
  const std::vector<std::string> run = {"--backend", "cpu", "--size", "32x32", "--agents", "100"};
  const auto with = [&](std::vector<std::string> a, const std::vector<std::string>& more) {
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  const struct {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {
      {with({"render", "--steps", "1"}, with(run, {"--out", "x.foo"})),
       "--out x.foo: the extension must be " + output_extensions(kRenderOffer)},
      {with({"export", "--steps", "1"}, with(run, {"--out", "x.foo"})),
       "(use " + output_extensions(kPlaneExportOffer) + ", or --format)"},
      {with({"export", "--steps", "1", "--size", "16x16x16"}, {"--agents", "100", "--out", "x.foo"}),
       "a volume exports as " + output_extensions(kVolumeExportOffer)},
      {with({"--frames", "1", "--screenshot", "x.exr"}, run),
       "--screenshot x.exr: the window writes its pictures as " + output_extensions(kWindowOffer)},
  };
  for (const auto& c : cases) {
    const test::ProcessResult r = run_physarum(c.args, dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.says << "\n" << r.err;
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "stdout.txt" || name == "stderr.txt") << name;
  }
}

}  // namespace
}  // namespace physarum::app
