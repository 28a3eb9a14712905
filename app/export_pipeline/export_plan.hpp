// `physarum export` in three parts: a plan (every output with its format, the paper, the grid's
// size when it is known), checked whole before any field is grown or read; the field; then one
// writer per output (output_formats.hpp). export_run.hpp runs the three in turn.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/svg.hpp"
#include "run/recipe.hpp"

namespace physarum::app {

struct OutputFormat;

// What the command line said beyond the values: which options were given at all (some refuse to
// be combined with others whatever their value), and the words the files' comments carry.
struct ExportCommand {
  std::vector<std::string> given;  // every name of each option given ("--size", "-s")
  std::string recipe;              // the options that shaped the result, as key=value words
  std::string options;             // every option's name and values: at least as long as `recipe`
  // What the run chose for the user ("640x360 with 60K agents (...)"), said once the run is made.
  std::function<void(const std::string& chosen)> say_chosen = [](const std::string&) {};
  bool has(std::string_view name) const;
};

struct ExportOptions {
  run::Recipe sim;
  int steps = 0;
  std::string field;
  int channel = -1;  // -1: the sum of all planes
  std::vector<std::string> outs;
  std::string format;
  std::string resolution = "1x";
  std::optional<float> threshold;
  std::optional<double> floor_fraction;
  int smoothing = 2;
  int min_island = 16;
  std::string connect = "corridors";
  int min_width = 3;  // a corridor one cell wide is hard to walk through
  std::string report;
  std::string graph;  // the network as a graph: .graphml or .json
  int tile_size = 16;
  std::string bands;  // empty: floor/wall; even | quantile: level bands for .tmj and .csv
  int levels = 0;     // bands: 0 takes the preset's [display] levels
  std::string paper = "a4";
  double margin_mm = 10;
  int contours = 0;
  std::vector<float> contour_at;
  double tolerance_mm = 0.1;
  double min_length_mm = 0.5;  // shorter lines are specks a pen draws as blots
  double stroke_mm = 0.3;
  bool skeleton = false;  // SVG: add the network as a single-line drawing
  std::string output_budget;
  // A volume's outputs (export_volume.hpp).
  std::optional<float> iso;   // the mesh's level; none: --floor-fraction's share of voxels inside
  int64_t triangles = 0;      // decimate the mesh to at most this many; 0 keeps it whole
  double voxel_size = 1;      // world units a voxel, for the mesh and the .vdb
  int bits = 16;              // a PNG stack's bits a sample
  double vdb_cutoff = 0.001;  // .vdb: voxels at most this share of the largest |value| stay inactive
  ExportCommand command;
};

struct ExportOutput {
  std::filesystem::path path;
  const OutputFormat* format = nullptr;  // a plane's or a volume's (ExportPlan::volume)
};

struct ExportPlan {
  // The recipe resolved, once: the run grows from it and the checks read it.
  Preset preset;
  std::string chosen;  // what the resolution chose for the user (run::resolve's `chosen`)
  std::vector<ExportOutput> outputs;
  exporter::Paper paper;
  DisplayParams display;  // the preset's, before any keyframe
  // The cave clean-up costs more than everything else together on big grids: only when an output
  // or the report needs it.
  bool needs_cave = false;
  bool volume = false;      // the field grown or read is a volume: its outputs are a volume's formats
  bool needs_mesh = false;  // a volume output is a mesh
};

// Refuses what cannot work (UsageError naming the option and value) before anything is grown or
// read: conflicting options, an output whose format is unknown or whose folder is missing, a
// resolution or channel the grown field cannot have.
ExportPlan make_export_plan(const ExportOptions& o);

// --bands' band count: --levels, or the preset's display levels; 0 without --bands.
int band_count(const ExportOptions& o, const DisplayParams& display);

// The output grid for --resolution "WxH" or "Nx" (a scale, e.g. 4x or 0.5x) of a field of this
// size. Throws UsageError.
Size export_resolution(const std::string& resolution, Size field);

}  // namespace physarum::app
