// `physarum sensitivity` run whole: twin runs that differ by one perturbation, the distance between
// them every K steps, the largest Lyapunov exponent fitted from it, across a parameter sweep or for
// every model parameter (average); a shard of the runs, or the merge of shards' CSVs; the summary on
// stdout and the files asked for.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "run/recipe.hpp"
#include "sensitivity/fit.hpp"

namespace physarum::app::sensitivity {

inline constexpr const char* kDefaultPerturb = "agent:0:theta:1e-4";
// Without a size or agents in the recipe: the size and count this command was tuned with (the
// built-in defaults are made for a GPU at 1920x1080).
inline constexpr const char* kDefaultSize = "256x256";
inline constexpr const char* kDefaultAgents = "40K";

// What the command line asked for; the options name each field in messages (--perturb, --csv).
struct SensitivityRequest {
  run::Recipe sim;
  int steps = 1500;
  int every = 10;
  std::string perturb;  // empty: kDefaultPerturb
  std::string sweep;
  bool average = false;
  double eps = 1e-3;
  int repeats = 1;
  double fit_below = kDefaultFitBelow;
  std::string shard;
  std::vector<std::string> merge;
  std::string out;
  std::string csv, json, plot;
  std::string plot_size = "1000x750";
  // What the run chose for the user ("640x360 with 60K agents (...)"), said once the recipe resolves.
  std::function<void(const std::string& chosen)> say_chosen = [](const std::string&) {};
};

// Throws UsageError for what the user can fix in the command (naming the option and the value),
// Error for what failed while running. Returns the exit code.
int run_sensitivity(SensitivityRequest r);

}  // namespace physarum::app::sensitivity
