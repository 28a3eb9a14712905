// What a sensitivity command runs: twin-run jobs (one per point and repeat), made from
// the mode (one perturbation, a sweep of one parameter, or every model parameter for --average),
// and the slice of it one shard runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sensitivity/perturbation.hpp"
#include "sim/params.hpp"

namespace physarum::app::sensitivity {

enum class Mode { Single, Sweep, Average };
std::string to_string(Mode m);
Mode parse_mode(const std::string& s);  // throws Error

struct SweepSpec {
  std::string key;  // "model.sensor_angle_deg"
  double from = 0, to = 0;
  int count = 0;
};
// "KEY=FROM:TO:COUNT", COUNT >= 1 (1: FROM alone). Throws Error saying what was expected.
SweepSpec parse_sweep(const std::string& spec);
// FROM + (TO - FROM) * i / (COUNT - 1), rounded to float as a preset stores it.
std::vector<double> sweep_values(const SweepSpec& s);

struct Shard {
  int index = 1;  // 1..count
  int count = 1;
};
Shard parse_shard(const std::string& spec);  // "K/N", 1 <= K <= N; throws Error

// What the repeats of one point share.
struct Point {
  std::string parameter;          // the swept or perturbed key, or the perturbation spec
  double value = 0;               // its value in A (Single: the perturbation's eps)
  std::vector<std::string> sets;  // extra --set for both twins (the sweep value)
  Perturbation perturbation;
};

struct Job {
  int point = 0;          // sweep value index, parameter index (--average), or 0
  std::string parameter;  // the swept or perturbed key, or the perturbation spec
  double value = 0;       // its value in A (Single: the perturbation's eps)
  int repeat = 0;
  uint32_t seed = 0;
  std::vector<std::string> sets;  // extra --set for both twins (the sweep value)
  Perturbation perturbation;
};

// More twin runs than any machine finishes; a plan above it is refused before anything runs (and a
// CSV claiming more is not one this program wrote).
inline constexpr uint64_t kMaxRuns = 10'000'000;

// The jobs are made one at a time from the points (a shard never holds the others in memory).
struct Plan {
  Mode mode = Mode::Single;
  int points = 1;
  int repeats = 1;
  uint32_t seed = 0;  // of repeat 0
  std::vector<Point> point_list;
  uint64_t job_count() const { return static_cast<uint64_t>(points) * static_cast<uint64_t>(repeats); }
  Job job(uint64_t index) const;  // point-major, then repeat; index < job_count()
};

// `base` is the resolved preset of A (for parameter values and the --average keys); seeds are
// base.run.seed + repeat. Throws Error for a key the preset lacks, or for more than kMaxRuns jobs.
Plan make_plan(Mode mode, const Preset& base, const Perturbation& perturbation, const SweepSpec& sweep,
               double average_eps, int repeats);

// Job j belongs to shard (j mod N) + 1: round robin, so each shard gets cheap and dear points alike.
bool in_shard(uint64_t job_index, const Shard& s);

}  // namespace physarum::app::sensitivity
