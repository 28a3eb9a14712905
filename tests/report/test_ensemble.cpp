// Ensembles of runs (render --seeds): the statistics against published values and hand sums, the
// summary over whatever keys the single report has, and shards read back and merged.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/network.hpp"
#include "report/ensemble_report.hpp"
#include "report/ensemble_summary.hpp"
#include "report/render_report.hpp"
#include "sensitivity/summary.hpp"
#include "sim/json_value.hpp"
#include "test_support.hpp"

namespace physarum::app {
namespace {

// Two-sided 95% quantiles of Student's t (any statistics table; these to 6 decimals).
TEST(EnsembleStatistics, StudentTMatchesPublishedQuantiles) {
  const std::pair<int, double> known[] = {
      {1, 12.706},    {2, 4.303},     {10, 2.228},     {30, 2.042},      {31, 2.039513},
      {40, 2.021075}, {60, 2.000298}, {120, 1.979930}, {1000, 1.962339}, {100000, 1.959988}};
  for (const auto& [dof, t] : known) EXPECT_NEAR(sensitivity::student_t95(dof), t, 1e-6) << dof;
  // Decreasing towards the normal's quantile, with no step where the table hands over.
  for (int dof = 1; dof < 200; ++dof) {
    EXPECT_GT(sensitivity::student_t95(dof), sensitivity::student_t95(dof + 1)) << dof;
  }
  EXPECT_GT(sensitivity::student_t95(1'000'000), sensitivity::kNormal975);
}

TEST(EnsembleStatistics, MeanSdAndIntervalOfAKnownSample) {
  const sensitivity::MeanCi m = sensitivity::mean_ci({1, 2, 3, 4, 5, NAN});
  EXPECT_EQ(m.n, 5);
  EXPECT_DOUBLE_EQ(m.mean, 3.0);
  EXPECT_DOUBLE_EQ(m.sd, std::sqrt(2.5));
  EXPECT_NEAR(m.half, 2.776 * std::sqrt(2.5) / std::sqrt(5.0), 1e-12);
  const sensitivity::MeanCi one = sensitivity::mean_ci({7});
  EXPECT_EQ(one.n, 1);
  EXPECT_TRUE(std::isnan(one.sd) && std::isnan(one.half));
}

// Wilson score intervals as tabulated (e.g. Newcombe 1998, Table I; R's prop.test without correction).
TEST(EnsembleStatistics, WilsonIntervalOfAShare) {
  double low = 0, high = 0;
  wilson95(8, 8, low, high);
  EXPECT_NEAR(low, 0.6756, 1e-4);
  EXPECT_EQ(high, 1.0);
  wilson95(5, 10, low, high);
  EXPECT_NEAR(low, 0.2366, 1e-4);
  EXPECT_NEAR(high, 0.7634, 1e-4);
  wilson95(0, 29, low, high);
  EXPECT_EQ(low, 0.0);
  EXPECT_NEAR(high, 0.1170, 1e-4);
  wilson95(0, 0, low, high);
  EXPECT_TRUE(std::isnan(low) && std::isnan(high));
}

SeedReport seed(uint32_t s, const std::string& json) {
  return {s, parse_json(json, "seed")};
}

const MeasureSummary* find(const std::vector<MeasureSummary>& all, const std::string& key) {
  for (const MeasureSummary& m : all)
    if (m.key == key) return &m;
  return nullptr;
}

// Whatever keys the report has: numbers and nested numbers by their dotted keys, true/false as a share,
// text, lists and the run's own keys left out, null not counted.
TEST(EnsembleSummary, EveryNumberAndBooleanOfTheReportsWhateverTheirKeys) {
  const std::vector<SeedReport> runs = {
      seed(1, R"({"steps": 10, "recipe": "r", "cost": 1.5, "linked": true, "graph": {"nodes": 4, "edges": 3},
                  "name": "x", "list": [1, 2], "ratio": null})"),
      seed(2, R"({"steps": 10, "recipe": "r", "cost": 2.5, "linked": false, "graph": {"nodes": 6, "edges": 5},
                  "name": "y", "list": [3], "ratio": 4})"),
      seed(3, R"({"steps": 10, "recipe": "r", "cost": 3.5, "linked": true, "graph": {"nodes": 8, "edges": 7},
                  "name": "z", "list": [], "ratio": null, "late": 1})"),
  };
  const std::vector<MeasureSummary> s = summarise(runs);
  std::vector<std::string> keys;
  for (const MeasureSummary& m : s) keys.push_back(m.key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"cost", "linked", "graph.nodes", "graph.edges", "ratio", "late"}));
  const MeasureSummary& cost = *find(s, "cost");
  EXPECT_EQ(cost.n, 3);
  EXPECT_DOUBLE_EQ(cost.mean, 2.5);
  EXPECT_DOUBLE_EQ(cost.sd, 1.0);
  EXPECT_NEAR(cost.low, 2.5 - 4.303 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(cost.high, 2.5 + 4.303 / std::sqrt(3.0), 1e-12);
  const MeasureSummary& linked = *find(s, "linked");
  EXPECT_TRUE(linked.share);
  EXPECT_NEAR(linked.mean, 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(linked.low, 0.2077, 1e-4);  // Wilson, 2 of 3
  EXPECT_NEAR(linked.high, 0.9385, 1e-4);
  EXPECT_DOUBLE_EQ(find(s, "graph.edges")->mean, 5.0);
  EXPECT_EQ(find(s, "ratio")->n, 1);
  EXPECT_TRUE(std::isnan(find(s, "ratio")->low));
  EXPECT_EQ(find(s, "late")->n, 1);
}

// The real report: every number and boolean that network_json writes is summarised, and none of the
// keys render_report adds about the run.
TEST(EnsembleSummary, TheRenderReportsMeasuresAreAllSummarised) {
  analysis::NetworkReport r;
  r.towns = 3;
  r.towns_connected = true;
  r.network_length = 120.5;
  r.mst_length = 80;
  r.ratio = 1.5;
  r.fault_tolerance = 0.25;
  const std::string extra =
      "  \"steps\": 5,\n  \"recipe\": \"r\",\n  \"threshold_from\": \"absolute\",\n"
      "  \"food\": null,\n  \"walls\": null,\n";
  const JsonValue report = parse_json(analysis::network_json(r, extra), "report");
  const std::vector<MeasureSummary> s = summarise({{1, report}, {2, report}});
  size_t leaves = 0;
  // Nested numbers (the graph's nodes and edges) are summarised under dotted keys.
  std::vector<std::pair<std::string, JsonValue>> measures;
  for (const auto& [key, v] : parse_json(analysis::network_json(r), "measures").members) {
    if (v.kind != JsonValue::Kind::Object) measures.emplace_back(key, v);
    for (const auto& [inner, w] : v.members) measures.emplace_back(key + "." + inner, w);
  }
  for (const auto& [key, v] : measures) {
    if (v.kind != JsonValue::Kind::Number && v.kind != JsonValue::Kind::Bool) continue;
    ++leaves;
    const MeasureSummary* m = find(s, key);
    ASSERT_NE(m, nullptr) << key;
    EXPECT_EQ(m->n, 2) << key;
    EXPECT_EQ(m->mean, v.kind == JsonValue::Kind::Bool ? (v.boolean ? 1.0 : 0.0) : v.number) << key;
  }
  EXPECT_EQ(s.size(), leaves);
  for (const std::string_view key : kReportRunKeys) {
    EXPECT_NE(report.find(key), nullptr) << key << " is not a key of the render report";
    EXPECT_EQ(find(s, std::string(key)), nullptr) << key;
  }
}

TEST(EnsembleSeeds, RangesAreCheckedAndNamed) {
  const SeedRange r = parse_seed_range("7..38");
  EXPECT_EQ(r.first, 7u);
  EXPECT_EQ(r.count(), 32u);
  EXPECT_EQ(parse_seed_range("4294967295..4294967295").count(), 1u);
  for (const char* bad :
       {"5..3", "1..", "..4", "1-4", "a..b", "-1..3", "0..4294967296", "1...3", " 1..3", "1..3 "}) {
    EXPECT_EQ(test::error_of([&] { (void)parse_seed_range(bad); }),
              "--seeds " + std::string(bad) +
                  ": expected A..B, seeds from 0 to 4294967295 with A <= B, e.g. 1..32");
  }
  EXPECT_EQ(test::error_of([] { (void)parse_seed_range("0..4294967295"); }),
            "--seeds 0..4294967295: 4294967296 runs; an ensemble holds at most 10000");
}

Ensemble ensemble_of(uint32_t first, uint32_t last, std::optional<sensitivity::Shard> shard) {
  Ensemble e;
  e.recipe = "physarum render --seeds " + std::to_string(first) + ".." + std::to_string(last);
  e.seeds = {first, last};
  e.shard = shard;
  for (uint32_t s = first; s <= last; ++s) {
    if (shard && !seed_in_shard(e.seeds, s, *shard)) continue;
    e.runs.push_back(seed(
        s, "{\"cost\": " + std::to_string(1.0 + s / 7.0) + ", \"ok\": " + (s % 3 ? "true" : "false") + "}"));
  }
  return e;
}

std::string file_of(const Ensemble& e) {
  return ensemble_json(e, summary_json(summarise(e.runs)));
}

TEST(EnsembleShards, ShardsReadBackAndMergeToTheWholeEnsemblesFile) {
  const Ensemble whole = ensemble_of(10, 20, std::nullopt);
  std::vector<Ensemble> shards;
  std::vector<std::string> names;
  for (int k : {3, 1, 2}) {  // any order
    const std::string text = file_of(ensemble_of(10, 20, sensitivity::Shard{k, 3}));
    shards.push_back(parse_ensemble(text, "shard" + std::to_string(k)));
    names.push_back("shard" + std::to_string(k));
    EXPECT_EQ(file_of(shards.back()), text);  // read back whole
  }
  EXPECT_EQ(shards[1].runs.size(), 4u);  // seeds 10, 13, 16, 19
  EXPECT_EQ(shards[1].runs[1].seed, 13u);
  EXPECT_EQ(file_of(merge_ensembles(shards, names)), file_of(whole));
  // A file of the whole ensemble merges to itself.
  EXPECT_EQ(file_of(merge_ensembles({parse_ensemble(file_of(whole), "w")}, {"w"})), file_of(whole));
}

TEST(EnsembleShards, MergeRefusesShardsThatDoNotMakeOneEnsemble) {
  const auto shard = [](int k, int n) { return ensemble_of(1, 9, sensitivity::Shard{k, n}); };
  EXPECT_EQ(test::error_of([&] { (void)merge_ensembles({shard(1, 2)}, {"a.json"}); }),
            "seeds 2, 4, 6, 8 of --seeds 1..9 are in none of the reports: merge every shard of the ensemble");
  EXPECT_EQ(test::error_of([&] {
              (void)merge_ensembles({shard(1, 2), shard(1, 3), shard(2, 2)}, {"a", "b", "c"});
            }),
            "seed 1 is in both a and b");
  Ensemble other = shard(2, 2);
  other.recipe += " --steps 5";
  EXPECT_EQ(test::error_of([&] {
              (void)merge_ensembles({shard(1, 2), other}, {"a", "b"});
            }),
            "b is another ensemble than a: recipe \"physarum render --seeds 1..9 --steps 5\", not "
            "\"physarum render --seeds 1..9\"");
  Ensemble shorter = shard(2, 2);
  shorter.seeds.last = 8;
  EXPECT_EQ(test::error_of([&] {
              (void)merge_ensembles({shard(1, 2), shorter}, {"a", "b"});
            }),
            "b is another ensemble than a: --seeds 1..8, not 1..9");
}

TEST(EnsembleShards, FilesThatThisProgramDidNotWriteAreRefusedNamingTheFault) {
  const std::string good = file_of(ensemble_of(1, 4, sensitivity::Shard{2, 2}));
  EXPECT_NO_THROW((void)parse_ensemble(good, "s"));
  const auto error = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    return test::error_of([&] { (void)parse_ensemble(text, "'s.json'"); });
  };
  EXPECT_EQ(error("\"seed\": 2", "\"seed\": 3"), "'s.json': runs[0]: seed 3 is not in shard 2/2");
  EXPECT_EQ(error("\"seed\": 2", "\"seed\": 9"), "'s.json': runs[0]: seed 9 is not one of --seeds 1..4");
  EXPECT_EQ(error("\"seed\": 4", "\"seed\": 2"),
            "'s.json': runs[1]: seed 2 comes after seed 2 (they ascend, each once)");
  EXPECT_EQ(error("\"seed\": 2", "\"seed\": 2.5"), "'s.json': runs[0]: seed 2.5 is not one of --seeds 1..4");
  EXPECT_EQ(error("\"seeds\": \"1..4\"", "\"seeds\": \"4..1\""),
            "'s.json': --seeds 4..1: expected A..B, seeds from 0 to 4294967295 with A <= B, e.g. 1..32");
  EXPECT_EQ(error("\"shard\": \"2/2\"", "\"shard\": \"3/2\""),
            "'s.json': --shard 3/2: expected K/N with 1 <= K <= N, e.g. 2/8");
  EXPECT_EQ(error("\"recipe\"", "\"Recipe\""), "'s.json': no \"recipe\"");
  EXPECT_EQ(
      error("\"seeds\"", "\"Seeds\""),
      "'s.json': no \"seeds\": not an ensemble's report (render --seeds A..B --report FILE writes one)");
  EXPECT_EQ(error("\"shard\": \"2/2\"", "\"shard\": 2"), "'s.json': \"shard\" must be a string");
  EXPECT_EQ(error("\"runs\": [", "\"runs\": [,"), "'s.json': line 19, column 12: expected a JSON value");
  EXPECT_EQ(error("\"runs\": [", "\"runs\": 5, \"x\": ["), "'s.json': \"runs\" must be a list");
  EXPECT_EQ(test::error_of([] { (void)parse_ensemble("[]", "'s.json'"); }),
            "'s.json': not an ensemble report (a JSON object)");
}

TEST(EnsembleShards, OnlyRegularFilesAreRead) {
  const auto dir = test::temp_dir();
  EXPECT_NE(test::error_of([&] { (void)read_ensemble(dir); }).find("only regular files are accepted"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { (void)read_ensemble(dir / "none.json"); }).find("none.json"),
            std::string::npos);
  test::write_file(dir / "s.json", file_of(ensemble_of(1, 2, std::nullopt)));
  EXPECT_EQ(read_ensemble(dir / "s.json").runs.size(), 2u);
}

}  // namespace
}  // namespace physarum::app
