// The file `render --report FILE --seeds A..B` writes: the recipe, a summary of every measure over
// the seeds (report/ensemble_summary.hpp) and each seed's own report, exactly as `render --seed S
// --report` writes it. A shard (--shard K/N) writes the same file for its seeds; --merge reads shards
// back and writes the file the whole ensemble writes, byte for byte. Shards come from other machines
// and other people: they are read as untrusted files (regular files only, bounded size, strict JSON).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sensitivity/plan.hpp"
#include "sim/json_value.hpp"

namespace physarum::app {

// More runs than one ensemble is meant for: a range above it is refused before anything runs (and a
// file claiming one is not one this program wrote).
inline constexpr uint64_t kMaxEnsembleSeeds = 10'000;

// What an ensemble file may hold when read back: its bytes (ten thousand seed reports of a few
// kilobytes each fit) and its JSON values (a seed report holds a few dozen).
inline constexpr uint64_t kMaxEnsembleFileBytes = uint64_t{64} << 20;
inline constexpr size_t kMaxEnsembleValuesPerSeed = 256;

struct SeedRange {
  uint32_t first = 0;
  uint32_t last = 0;
  uint64_t count() const { return uint64_t{last} - first + 1; }
  std::string text() const { return std::to_string(first) + ".." + std::to_string(last); }
};

// "A..B": decimal seeds 0 to 4294967295, A <= B, at most kMaxEnsembleSeeds of them. Throws Error
// naming the text and what was expected.
SeedRange parse_seed_range(const std::string& text);

struct SeedReport {
  uint32_t seed = 0;
  JsonValue report;  // an object: the single run's report
};

struct Ensemble {
  std::string recipe;  // the command of the whole ensemble (without --shard)
  SeedRange seeds;
  std::optional<sensitivity::Shard> shard;  // none: every seed of the range
  std::vector<SeedReport> runs;             // ascending seeds
};

// Seed `seed` of `range` belongs to shard (index mod N) + 1, index = seed - first: round robin, as
// sensitivity's runs are shared out.
bool seed_in_shard(const SeedRange& range, uint32_t seed, const sensitivity::Shard& shard);

// The file's text; `summary` (an object) goes between the recipe and the runs.
std::string ensemble_json(const Ensemble& e, const JsonValue& summary);

// The text of an ensemble file (its summary is not read: it is made again from the runs). Throws
// Error "<name>: ..." for what this program does not write: not JSON, a key missing or of another
// type, a seed outside the range or the shard, seeds out of order or repeated.
Ensemble parse_ensemble(std::string_view text, std::string_view name);

// A file through the regular-file and size checks (sim/input_file.hpp), then parse_ensemble.
Ensemble read_ensemble(const std::filesystem::path& file);

// The shards as one ensemble: the same recipe and range in each, every seed of the range once. Throws
// Error naming the files that disagree, a seed two of them hold, or the seeds none holds.
Ensemble merge_ensembles(const std::vector<Ensemble>& shards, const std::vector<std::string>& names);

}  // namespace physarum::app
