// `render --report FILE --seeds A..B` as a user runs it: each seed's report is the one `render --seed S
// --report` writes, the summary is their mean and interval (recomputed in python3), shards merge into
// the unsharded file byte for byte, and bad requests are refused before any run, writing nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cuda_pair.hpp"
#include "export_support.hpp"
#include "test_support.hpp"

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

// The towns preset small: its food and walls make towns, so every kind of measure is there.
std::vector<std::string> towns(std::vector<std::string> extra, const std::string& backend = "cpu") {
  std::vector<std::string> a = {"render",  "--preset", "towns",     "--size", "160x90",    "--agents", "2000",
                                "--steps", "150",      "--backend", backend,  "--threads", "1",        "-q"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

ProcessResult physarum(const std::vector<std::string>& args, const fs::path& dir) {
  return run_physarum(args, dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
}

TEST(EnsembleCli, EachSeedsReportIsTheSingleRunsAndTheSummaryIsTheirMeanAndInterval) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  const ProcessResult e = physarum(towns({"--seeds", "4..6", "--report", "ens.json"}), dir);
  ASSERT_EQ(e.exit_code, 0) << e.err << e.out;
  EXPECT_NE(e.out.find("towns_connected (share)"), std::string::npos) << e.out;
  const ProcessResult one = physarum(towns({"--seed", "5", "--report", "one.json", "--out", "one.npy"}), dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::string check = R"(
import json, math, statistics, sys
e = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
assert [r["seed"] for r in e["runs"]] == [4, 5, 6] and e["count"] == 3 and e["shard"] is None, e
assert e["seeds"] == "4..6" and "--seeds 4..6" in e["recipe"] and "--seed " not in e["recipe"], e["recipe"]
assert e["runs"][1]["report"] == one, (e["runs"][1]["report"], one)
def flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        if prefix == "" and k in ("steps", "recipe", "threshold_from", "food", "walls"):
            continue
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "."))
        elif v is None or isinstance(v, (int, float)):
            out[prefix + k] = v
    return out
reports = [flat(r["report"]) for r in e["runs"]]
expected = [k for k in reports[0] if any(r[k] is not None for r in reports)]
assert list(e["summary"]) == expected, (list(e["summary"]), expected)
for k, s in e["summary"].items():
    values = [r[k] for r in reports if r[k] is not None]
    assert s["n"] == len(values), k
    if isinstance(values[0], bool):
        p, n, z = sum(values) / len(values), len(values), 1.959963984540054
        c = (p + z * z / (2 * n)) / (1 + z * z / n)
        h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        got = [s["share"]] + s["ci95"]
        want = [p, max(0, c - h), min(1, c + h)]
    else:
        m, sd = statistics.mean(values), statistics.stdev(values)
        got = [s["mean"], s["sd"]] + s["ci95"]
        want = [m, sd, m - 4.303 * sd / math.sqrt(3), m + 4.303 * sd / math.sqrt(3)]
    for g, w in zip(got, want):
        assert abs(g - w) <= 1e-9 * max(1, abs(w)), (k, got, want)
print(len(e["summary"]), one["towns"])
)";
  const ProcessResult p =
      run_physarum({"-c", check, (dir / "ens.json").string(), (dir / "one.json").string()}, dir, {}, {},
                   find_program("python3"));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  int measures = 0, town_count = 0;
  ASSERT_EQ(std::sscanf(p.out.c_str(), "%d %d", &measures, &town_count), 2) << p.out;
  EXPECT_GE(measures, 10);
  EXPECT_GT(town_count, 1);  // the towns are found at this size, so the share and the ratios exist
}

TEST(EnsembleCli, ShardsMergeIntoTheUnshardedFileByteForByte) {
  const fs::path dir = temp_dir();
  ASSERT_EQ(physarum(towns({"--seeds", "1..5", "--report", "all.json"}), dir).exit_code, 0);
  for (const auto& [shard, file] : {std::pair{"1/2", "s1.json"}, std::pair{"2/2", "s2.json"}}) {
    const ProcessResult s = physarum(towns({"--seeds", "1..5", "--shard", shard, "--report", file}), dir);
    ASSERT_EQ(s.exit_code, 0) << s.err;
  }
  EXPECT_NE(read_file(dir / "s2.json").find("\"shard\": \"2/2\""), std::string::npos);
  EXPECT_NE(read_file(dir / "s2.json"), read_file(dir / "all.json"));
  const ProcessResult m =
      physarum({"render", "--merge", "s2.json", "s1.json", "--report", "merged.json"}, dir);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(read_file(dir / "merged.json"), read_file(dir / "all.json"));
}

TEST(EnsembleCli, BadRequestsAreRefusedBeforeAnyRunAndWriteNothing) {
  const fs::path dir = temp_dir();
  write_file(dir / "old.json", "kept\n");
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--seeds", "5..3", "--report", "old.json"}, "--seeds 5..3: expected A..B"},
      {{"--seeds", "0..4294967295", "--report", "old.json"},
       "4294967296 runs; an ensemble holds at most 10000"},
      {{"--seeds", "1..3", "--report", "old.json", "--out", "x.png"},
       "--out x.png: --seeds writes one report over many runs, and a picture, video or graph is of one run"},
      {{"--seeds", "1..3"}, "--seeds writes one report over the seeds: give --report FILE.json"},
      {{"--shard", "1/2", "--report", "old.json"}, "--shard 1/2 shares out the runs of --seeds A..B"},
      {{"--seeds", "1..3", "--shard", "3/2", "--report", "old.json"}, "--shard 3/2: expected K/N"},
      {{"--seed", "3", "--seeds", "1..3", "--report", "old.json"}, "--seed and --seeds 1..3: choose one"},
      {{"--seeds", "1..3", "--report", "old.json", "--graph", "g.graphml"},
       "--graph g.graphml: --seeds writes one report over many runs"},
      {{"--seeds", "1..3", "--report", "old.json", "--depth", "16"},
       "--depth 16: --seeds writes one report over many runs"},
      {{"--merge", "a.json", "--report", "old.json", "--resolution", "2x"},
       "--resolution 2x: --merge writes one report over many runs"},
      {{"--seeds", "1..3", "--merge", "a.json", "--report", "old.json"},
       "--merge joins reports already made"},
      {{"--seeds", "1..3", "--report", "old.json", "--output-budget", "10KB"}, "--report old.json"},
      {{"--seeds", "1..3", "--report", "no/such/dir.json"}, "no/such/dir.json"},
      {{}, "--out is required"},
  };
  for (const auto& [args, message] : cases) {
    const ProcessResult r = physarum(towns(args), dir);
    EXPECT_EQ(r.exit_code, 2) << message << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  EXPECT_EQ(read_file(dir / "old.json"), "kept\n");
  for (const auto& f : fs::directory_iterator(dir)) {
    const std::string name = f.path().filename().string();
    EXPECT_TRUE(name == "old.json" || name == "stdout.txt" || name == "stderr.txt" || name == "config")
        << name;
  }
}

TEST(EnsembleCli, MergeReadsOnlyWholeEnsemblesFromRegularFiles) {
  const fs::path dir = temp_dir();
  ASSERT_EQ(physarum(towns({"--seeds", "2..4", "--shard", "1/2", "--report", "s1.json"}), dir).exit_code, 0);
  fs::create_directory(dir / "folder.json");
  const auto merge = [&](std::vector<std::string> in, const std::string& out) {
    std::vector<std::string> a = {"render", "--merge"};
    a.insert(a.end(), in.begin(), in.end());
    a.insert(a.end(), {"--report", out});
    return physarum(a, dir);
  };
  ProcessResult r = merge({"s1.json"}, "all.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("seed 3 of --seeds 2..4 is in none of the reports"), std::string::npos) << r.err;
  r = merge({"s1.json", "folder.json"}, "all.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("folder.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("only regular files are accepted"), std::string::npos) << r.err;
  r = merge({"s1.json", "s1.json"}, "all.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("seed 2 is in both s1.json and s1.json"), std::string::npos) << r.err;
  r = merge({"s1.json"}, "s1.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--report s1.json is also a report given to --merge"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "all.json"));
}

// Backends give the same bits, and the file names no backend: an ensemble grown on the GPU is the CPU's.
TEST(EnsembleCliGpu, OnCudaTheFileIsTheCpusByteForByte) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const fs::path dir = temp_dir();
  ASSERT_EQ(physarum(towns({"--seeds", "1..4", "--report", "cpu.json"}), dir).exit_code, 0);
  const ProcessResult g = physarum(towns({"--seeds", "1..4", "--report", "cuda.json"}, "cuda"), dir);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(read_file(dir / "cuda.json"), read_file(dir / "cpu.json"));
}

// A preset without food or walls: on the GPU its seeds grow as one batch (one launch per stage for
// all), and the file is still the CPU's, where each seed runs alone.
TEST(EnsembleCliGpu, BatchedSeedsOnCudaWriteTheCpusFileByteForByte) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const fs::path dir = temp_dir();
  const auto jones = [](const std::string& backend, const std::string& out) {
    return std::vector<std::string>{"render",   "--preset", "jones-2010", "--size",   "160x90",
                                    "--agents", "3000",     "--steps",    "200",      "--backend",
                                    backend,    "--seeds",  "1..6",       "--report", out};
  };
  const ProcessResult c = physarum(jones("cpu", "cpu.json"), dir);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const ProcessResult g = physarum(jones("cuda", "cuda.json"), dir);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_NE(g.err.find("seeds 1 to 6 (6 of 6)"), std::string::npos) << g.err;
  EXPECT_EQ(read_file(dir / "cuda.json"), read_file(dir / "cpu.json"));
}

}  // namespace
}  // namespace physarum::test
