#include "report/ensemble_report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/input_file.hpp"
#include "sim/json_text.hpp"
#include "sim/params.hpp"

namespace physarum::app {
namespace {

using Kind = JsonValue::Kind;

bool parse_seed(std::string_view s, uint32_t& out) {
  if (s.empty() || s.size() > 10 || s.find_first_not_of("0123456789") != std::string_view::npos) return false;
  const std::from_chars_result r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

JsonValue string_value(const std::string& s) {
  JsonValue v;
  v.kind = Kind::String;
  v.text = s;
  return v;
}

JsonValue number_value(double x) {
  JsonValue v;
  v.kind = Kind::Number;
  v.number = x;
  return v;
}

// The member `key` of `object`, of kind `kind`; throws Error naming the file, the place and the key.
const JsonValue& member(const JsonValue& object, std::string_view key, Kind kind, const std::string& where) {
  const JsonValue* v = object.find(key);
  static constexpr const char* kNames[] = {"null",     "true or false", "a number",
                                           "a string", "a list",        "an object"};
  if (!v) throw Error(where + ": no \"" + std::string(key) + "\"");
  if (v->kind != kind) {
    throw Error(where + ": \"" + std::string(key) + "\" must be " + kNames[static_cast<int>(kind)]);
  }
  return *v;
}

SeedReport seed_report(const JsonValue& run, const Ensemble& e, const std::string& where) {
  if (run.kind != Kind::Object) throw Error(where + ": must be an object with \"seed\" and \"report\"");
  const double seed = member(run, "seed", Kind::Number, where).number;
  if (seed != std::floor(seed) || seed < e.seeds.first || seed > e.seeds.last) {
    throw Error(where + ": seed " + json_number(seed) + " is not one of --seeds " + e.seeds.text());
  }
  SeedReport r{static_cast<uint32_t>(seed), member(run, "report", Kind::Object, where)};
  if (e.shard && !seed_in_shard(e.seeds, r.seed, *e.shard)) {
    throw Error(where + ": seed " + std::to_string(r.seed) + " is not in shard " +
                std::to_string(e.shard->index) + "/" + std::to_string(e.shard->count));
  }
  return r;
}

// Up to five seeds of `seeds`, and how many there are in all.
std::string some_seeds(const std::vector<uint32_t>& seeds) {
  std::string s;
  for (size_t i = 0; i < seeds.size() && i < 5; ++i) s += (i ? ", " : "") + std::to_string(seeds[i]);
  if (seeds.size() > 5) s += ", ... (" + std::to_string(seeds.size()) + " seeds)";
  return s;
}

}  // namespace

SeedRange parse_seed_range(const std::string& text) {
  const size_t dots = text.find("..");
  SeedRange r;
  if (dots == std::string::npos || !parse_seed(std::string_view(text).substr(0, dots), r.first) ||
      !parse_seed(std::string_view(text).substr(dots + 2), r.last) || r.first > r.last) {
    throw Error("--seeds " + text + ": expected A..B, seeds from 0 to 4294967295 with A <= B, e.g. 1..32");
  }
  if (r.count() > kMaxEnsembleSeeds) {
    throw Error("--seeds " + text + ": " + std::to_string(r.count()) + " runs; an ensemble holds at most " +
                std::to_string(kMaxEnsembleSeeds));
  }
  return r;
}

bool seed_in_shard(const SeedRange& range, uint32_t seed, const sensitivity::Shard& shard) {
  return sensitivity::in_shard(uint64_t{seed} - range.first, shard);
}

std::string ensemble_json(const Ensemble& e, const JsonValue& summary) {
  JsonValue doc;
  doc.kind = Kind::Object;
  doc.members.emplace_back("recipe", string_value(e.recipe));
  doc.members.emplace_back("seeds", string_value(e.seeds.text()));
  doc.members.emplace_back(
      "shard", e.shard ? string_value(std::to_string(e.shard->index) + "/" + std::to_string(e.shard->count))
                       : JsonValue{});
  doc.members.emplace_back("count", number_value(static_cast<double>(e.runs.size())));
  doc.members.emplace_back("summary", summary);
  JsonValue runs;
  runs.kind = Kind::Array;
  for (const SeedReport& r : e.runs) {
    JsonValue run;
    run.kind = Kind::Object;
    run.members.emplace_back("seed", number_value(r.seed));
    run.members.emplace_back("report", r.report);
    runs.items.push_back(std::move(run));
  }
  doc.members.emplace_back("runs", std::move(runs));
  return json_document(doc) + "\n";
}

Ensemble parse_ensemble(std::string_view text, std::string_view name) {
  const std::string where(name);
  const JsonValue doc = parse_json(text, name, kMaxEnsembleSeeds * kMaxEnsembleValuesPerSeed);
  if (doc.kind != Kind::Object) throw Error(where + ": not an ensemble report (a JSON object)");
  Ensemble e;
  e.recipe = member(doc, "recipe", Kind::String, where).text;
  // A single run's report has a recipe too: the likeliest wrong file to be given.
  if (!doc.find("seeds")) {
    throw Error(where +
                ": no \"seeds\": not an ensemble's report (render --seeds A..B --report FILE writes one)");
  }
  const std::string& seeds = member(doc, "seeds", Kind::String, where).text;
  const JsonValue* shard = doc.find("shard");
  const bool sharded = shard && shard->kind != Kind::Null;
  const std::string shard_text = sharded ? member(doc, "shard", Kind::String, where).text : "";
  try {
    e.seeds = parse_seed_range(seeds);
    if (sharded) e.shard = sensitivity::parse_shard(shard_text);
  } catch (const Error& x) {
    throw Error(where + ": " + x.what());
  }
  (void)member(doc, "summary", Kind::Object, where);
  const JsonValue& runs = member(doc, "runs", Kind::Array, where);
  for (size_t i = 0; i < runs.items.size(); ++i) {
    e.runs.push_back(seed_report(runs.items[i], e, where + ": runs[" + std::to_string(i) + "]"));
    if (i > 0 && e.runs[i].seed <= e.runs[i - 1].seed) {
      throw Error(where + ": runs[" + std::to_string(i) + "]: seed " + std::to_string(e.runs[i].seed) +
                  " comes after seed " + std::to_string(e.runs[i - 1].seed) + " (they ascend, each once)");
    }
  }
  return e;
}

Ensemble read_ensemble(const std::filesystem::path& file) {
  const std::string text = read_input_file(file, "ensemble report", kMaxEnsembleFileBytes);
  std::string name = "'";  // appended, not concatenated: GCC 12 warns (-Wrestrict, wrongly) on "'" + string
  name += file.string();
  name += '\'';
  return parse_ensemble(text, name);
}

Ensemble merge_ensembles(const std::vector<Ensemble>& shards, const std::vector<std::string>& names) {
  if (shards.empty()) throw Error("no ensemble reports to merge");
  Ensemble all;
  all.recipe = shards[0].recipe;
  all.seeds = shards[0].seeds;
  struct Held {
    uint32_t seed;
    size_t file, run;
    bool operator<(const Held& o) const { return seed < o.seed; }
  };
  std::vector<Held> held;
  for (size_t f = 0; f < shards.size(); ++f) {
    const Ensemble& s = shards[f];
    if (s.recipe != all.recipe || s.seeds.first != all.seeds.first || s.seeds.last != all.seeds.last) {
      throw Error(names[f] + " is another ensemble than " + names[0] + ": " +
                  (s.recipe != all.recipe
                       ? "recipe " + json_string(s.recipe) + ", not " + json_string(all.recipe)
                       : "--seeds " + s.seeds.text() + ", not " + all.seeds.text()));
    }
    for (size_t i = 0; i < s.runs.size(); ++i) held.push_back({s.runs[i].seed, f, i});
  }
  std::stable_sort(held.begin(), held.end());
  std::vector<uint32_t> missing;
  uint64_t next = all.seeds.first;
  for (size_t i = 0; i < held.size(); ++i) {
    if (i > 0 && held[i].seed == held[i - 1].seed) {
      throw Error("seed " + std::to_string(held[i].seed) + " is in both " + names[held[i - 1].file] +
                  " and " + names[held[i].file]);
    }
    for (; next < held[i].seed; ++next) missing.push_back(static_cast<uint32_t>(next));
    next = uint64_t{held[i].seed} + 1;
  }
  for (; next <= all.seeds.last; ++next) missing.push_back(static_cast<uint32_t>(next));
  if (!missing.empty()) {
    throw Error("seed" + std::string(missing.size() > 1 ? "s " : " ") + some_seeds(missing) + " of --seeds " +
                all.seeds.text() + (missing.size() > 1 ? " are" : " is") +
                " in none of the reports: merge every shard of the ensemble");
  }
  for (const Held& h : held) all.runs.push_back(shards[h.file].runs[h.run]);
  return all;
}

}  // namespace physarum::app
