// The data of a sensitivity command: one twin run's records with what identifies it, and the CSV
// that holds them (long format: one row per record), which shards write and --merge joins. The
// CSV is the source of truth: every summary, JSON and plot is computed from these rows, so a
// merged file gives the same results as one run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sensitivity/plan.hpp"
#include "sensitivity/twin_runs.hpp"

namespace physarum::app::sensitivity {

struct RunData {
  int point = 0;
  std::string parameter;
  double value = 0;
  double delta = 0;
  int repeat = 0;
  uint32_t seed = 0;
  std::vector<Record> records;
};

struct CsvHeader {
  std::string recipe;  // the command line that reproduces the data (no --shard, --csv, ...)
  Mode mode = Mode::Single;
  int points = 1;
  int repeats = 1;
  double fit_below = 0.3;
};

std::string csv_text(const CsvHeader& h, const std::vector<RunData>& runs);

struct CsvFile {
  CsvHeader header;
  std::string header_text;  // the comment and column lines, compared between shards
  std::vector<RunData> runs;
};
// A shard is read whole; far beyond the CSV of any plan one machine runs.
inline constexpr size_t kMaxCsvBytes = size_t{1} << 30;
// Throws Error naming the file and line for anything this program did not write.
CsvFile read_csv(const std::filesystem::path& file);
// The same for text already read; `name` leads every message ("'a.csv'").
CsvFile parse_csv(std::string_view text, const std::string& name);

// Joins shards: the same header in every file, no run twice, every point and repeat present.
// Runs come out in the order one run writes them. Throws Error saying which file or run is wrong.
CsvFile merge_csv(const std::vector<std::filesystem::path>& files);

}  // namespace physarum::app::sensitivity
