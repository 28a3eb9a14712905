// Files a user names, read as the program reads them: a FIFO or a device is refused before it is
// opened for good (a FIFO blocked forever, /dev/zero read without end), and a file is checked by
// its header before its data is read (a field larger than any simulation was read whole first).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "run/preset_library.hpp"
#include "sensitivity/plan.hpp"
#include "sensitivity/runs.hpp"
#include "sim/npy.hpp"
#include "sim/params.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

namespace sens = app::sensitivity;

using test::error_of;

// A FIFO that holds `bytes` and reaches its end a second after it is made: a reader that opens it
// reads it whole, so a reader that should have refused it accepts it (and fails the test) instead
// of waiting for ever.
class FeedingFifo {
 public:
  FeedingFifo(const std::filesystem::path& path, const std::string& bytes) {
    if (::mkfifo(path.c_str(), 0600) != 0) return;
    fd_ = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);  // a program run meanwhile holds no writer
    if (fd_ >= 0 && ::write(fd_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
      ADD_FAILURE() << "the FIFO did not take " << bytes.size() << " bytes";
    }
    closer_ = std::thread([fd = fd_] {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      ::close(fd);
    });
  }
  ~FeedingFifo() {
    if (closer_.joinable()) closer_.join();
  }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
  std::thread closer_;
};

// Bytes this process has read through read(2) so far (/proc/self/io, rchar).
uint64_t bytes_read_so_far() {
  std::ifstream io("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value) {
    if (key == "rchar:") return value;
  }
  return 0;
}

// A version 1.0 .npy header for `shape`, padded as NumPy pads it; the data is not included.
std::string npy_header(const std::string& shape) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + shape + "), }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY\x01";
  h += '\0';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

TEST(Readers, FieldFromAFifoOrADeviceIsRefused) {
  const auto dir = test::temp_dir();
  write_npy(dir / "good.npy", std::vector<float>(6, 1.0f).data(), 2, 3);
  const FeedingFifo fifo(dir / "pipe.npy", test::read_file(dir / "good.npy"));
  ASSERT_TRUE(fifo.ok());
  const std::string msg = error_of([&] { read_npy_planes(dir / "pipe.npy"); });
  EXPECT_NE(msg.find("FIFO"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pipe.npy"), std::string::npos) << msg;
  const std::string zero = error_of([] { read_npy_planes("/dev/zero"); });
  EXPECT_NE(zero.find("character device"), std::string::npos) << zero;
}

TEST(Readers, FieldLargerThanASimulationIsRefusedFromItsHeader) {
  const auto dir = test::temp_dir();
  // Wider than kMaxSide, and more planes than species: small files, refused by shape.
  const std::string wide = npy_header("1, " + std::to_string(kMaxSide + 1));
  test::write_file(dir / "wide.npy", wide + std::string(size_t{4} * (kMaxSide + 1), '\0'));
  const std::string planes = npy_header(std::to_string(kMaxSpecies + 1) + ", 2, 2");
  test::write_file(dir / "planes.npy", planes + std::string(size_t{16} * (kMaxSpecies + 1), '\0'));
  for (const char* name : {"wide.npy", "planes.npy"}) {
    const std::string msg = error_of([&] { read_npy_planes(dir / name); });
    EXPECT_NE(msg.find("too large"), std::string::npos) << name << ": " << msg;
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
  }
  // A sparse file of the size its (too large) shape promises: refused without reading its data.
  const int64_t h = kMaxSide + 1, w = 4096;
  const std::string header = npy_header(std::to_string(h) + ", " + std::to_string(w));
  const auto big = dir / "big.npy";
  test::write_file(big, header);
  std::filesystem::resize_file(big, header.size() + static_cast<uint64_t>(h * w) * 4);
  const uint64_t before = bytes_read_so_far();
  EXPECT_NE(error_of([&] { read_npy_planes(big); }).find("too large"), std::string::npos);
  EXPECT_LT(bytes_read_so_far() - before, uint64_t{1} << 20);
}

TEST(Readers, TheLargestFieldShapeIsStillRead) {
  const auto dir = test::temp_dir();
  const std::vector<float> values(static_cast<size_t>(kMaxSpecies) * 2 * kMaxSide, 0.5f);
  write_npy(dir / "edge.npy", values.data(), 2, kMaxSide, kMaxSpecies);
  const NpyArray a = read_npy_planes(dir / "edge.npy");
  EXPECT_EQ(a.planes, kMaxSpecies);
  EXPECT_EQ(a.width, kMaxSide);
  EXPECT_EQ(a.data, values);
}

TEST(Readers, SensitivityCsvFromAFifoOrADeviceIsRefused) {
  const auto dir = test::temp_dir();
  sens::CsvHeader h;
  h.recipe = "physarum sensitivity";
  const std::string csv = sens::csv_text(h, {{0, "agent:0:theta:1e-6", 1e-6, 1e-6, 0, 42, {{2, 0.5, 0.0}}}});
  ASSERT_EQ(sens::parse_csv(csv, "'x'").runs.size(), 1u);  // what the FIFO holds is a good shard
  const FeedingFifo fifo(dir / "pipe.csv", csv);
  ASSERT_TRUE(fifo.ok());
  const std::string msg = error_of([&] { sens::merge_csv({dir / "pipe.csv"}); });
  ASSERT_NE(msg.find("FIFO"), std::string::npos) << msg;  // (/dev/zero below was read without end)
  EXPECT_NE(msg.find("pipe.csv"), std::string::npos) << msg;
  const std::string zero = error_of([] { sens::merge_csv({"/dev/zero"}); });
  EXPECT_NE(zero.find("character device"), std::string::npos) << zero;
}

TEST(Readers, PresetSummaryReadsOnlyTheStartOfAFile) {
  const auto dir = test::temp_dir();
  // One comment line of 256 MiB (a sparse file: no disk spent): the summary needs its first words.
  const auto file = dir / "long.toml";
  test::write_file(file, "# Starts like a summary. ");
  std::filesystem::resize_file(file, uint64_t{256} << 20);
  const uint64_t before = bytes_read_so_far();
  const std::string summary = run::preset_summary(file, 40);
  EXPECT_LT(bytes_read_so_far() - before, uint64_t{1} << 20);
  EXPECT_EQ(summary, "Starts like a summary.");
}

// Through the program: the same refusals are usage errors (exit 2) naming the file, and nothing is
// written.
TEST(ExportCli, FieldFromAFifoIsRefused) {
  const auto dir = test::temp_dir();
  write_npy(dir / "good.npy", std::vector<float>(16, 1.0f).data(), 4, 4);
  const FeedingFifo fifo(dir / "pipe.npy", test::read_file(dir / "good.npy"));
  ASSERT_TRUE(fifo.ok());
  const auto r = test::run_physarum({"export", "--field", "pipe.npy", "--out", "x.png"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("FIFO"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

TEST(SensitivityCli, MergeOfAFifoIsRefused) {
  const auto dir = test::temp_dir();
  sens::CsvHeader h;
  h.recipe = "physarum sensitivity";
  const FeedingFifo fifo(dir / "pipe.csv",
                         sens::csv_text(h, {{0, "agent:0:theta:1e-6", 1e-6, 1e-6, 0, 42, {}}}));
  ASSERT_TRUE(fifo.ok());
  const auto r = test::run_physarum({"sensitivity", "--merge", "pipe.csv", "--out", "all.csv"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("FIFO"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "all.csv"));
}

// 10^5 sweep values x 10^5 repeats: refused at once by its count, where the plan was built whole
// (10^10 jobs, std::bad_alloc after the machine's memory).
TEST(SensitivityCli, APlanOfTooManyRunsIsRefused) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"sensitivity", "--sweep", "model.decay=0.1:0.2:100000", "--repeats",
                                     "100000", "--shard", "1/1000", "--csv", "x.csv"},
                                    dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("10000000000 twin runs"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.csv"));
}

// The jobs are made one at a time, in the order the whole list had them: point-major, then
// repeat, seeds counting from the preset's.
TEST(Readers, PlanJobsAreMadeInOrderWithoutAList) {
  Preset base;
  base.run.seed = 7;
  const sens::SweepSpec sweep = sens::parse_sweep("model.decay=0.1:0.4:4");
  const sens::Plan plan = sens::make_plan(sens::Mode::Sweep, base, sens::Perturbation{}, sweep, 0.1, 3);
  ASSERT_EQ(plan.job_count(), 12u);
  const std::vector<double> values = sens::sweep_values(sweep);
  for (uint64_t j = 0; j < plan.job_count(); ++j) {
    const sens::Job job = plan.job(j);
    const int point = static_cast<int>(j / 3), repeat = static_cast<int>(j % 3);
    EXPECT_EQ(job.point, point);
    EXPECT_EQ(job.repeat, repeat);
    EXPECT_EQ(job.seed, 7u + static_cast<uint32_t>(repeat));
    EXPECT_EQ(job.value, values[static_cast<size_t>(point)]);
    ASSERT_EQ(job.sets.size(), 1u);
    EXPECT_EQ(job.sets[0].rfind("model.decay=", 0), 0u);
  }
  // The largest plan holds one point, not kMaxRuns jobs.
  const sens::Plan big = sens::make_plan(sens::Mode::Single, base, sens::parse_perturbation("field:1,1:0.5"),
                                         {}, 0.1, static_cast<int>(sens::kMaxRuns));
  EXPECT_EQ(big.job_count(), sens::kMaxRuns);
  EXPECT_EQ(big.job(sens::kMaxRuns - 1).seed, 7u + static_cast<uint32_t>(sens::kMaxRuns - 1));
  const std::string msg = error_of([&] {
    sens::make_plan(sens::Mode::Single, base, sens::Perturbation{}, {}, 0.1,
                    static_cast<int>(sens::kMaxRuns) + 1);
  });
  EXPECT_NE(msg.find(std::to_string(sens::kMaxRuns + 1) + " twin runs"), std::string::npos) << msg;
}

// A shard claiming more runs than any plan would make the merge count past them.
TEST(Readers, ShardClaimingMoreRunsThanAnyPlanIsRefused) {
  sens::CsvHeader h;
  h.points = 100000;
  h.repeats = 100000;
  const std::string msg = error_of([&] { sens::parse_csv(sens::csv_text(h, {}), "'x.csv'"); });
  EXPECT_NE(msg.find("10000000000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'x.csv':3"), std::string::npos) << msg;
}

// A shader folder (PHYSARUM_SHADER_DIR) is any folder a user names: a FIFO there is refused, not
// waited on. The other shaders are the shipped ones.
TEST(HeadlessRenderE2e, AShaderFolderWithAFifoIsRefused) {
  const auto dir = test::temp_dir();
  const std::filesystem::path shaders = std::filesystem::path(PHYSARUM_SOURCE_DIR) / "shaders";
  std::filesystem::create_directory(dir / "shaders");
  for (const auto& e : std::filesystem::directory_iterator(shaders)) {
    if (e.path().filename() != "field_colour.comp") {
      std::filesystem::create_symlink(e.path(), dir / "shaders" / e.path().filename());
    }
  }
  const FeedingFifo fifo(dir / "shaders/field_colour.comp", test::read_file(shaders / "field_colour.comp"));
  ASSERT_TRUE(fifo.ok());
  const auto r = test::run_physarum(
      {"render", "--steps", "1", "--backend", "cpu", "--size", "64x64", "--agents", "1000", "--out", "x.png"},
      dir, {{"EGL_PLATFORM", "surfaceless"}, {"PHYSARUM_SHADER_DIR", (dir / "shaders").string()}});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("field_colour.comp' is a FIFO"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

}  // namespace
}  // namespace physarum
