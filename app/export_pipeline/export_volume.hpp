// `physarum export` of a volume (grown from a 3-D recipe or read from a (D, H, W) / (S, D, H, W)
// .npy): the field itself (.npy), a stack of PNG slices, OpenVDB fog volumes and the iso-surface as
// a mesh (.ply, .obj, .glb). The plan (what is refused before the run) and the writers, behind the
// same small interface as a plane's (export_writers.hpp).
#pragma once

#include <array>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "export/volume_mesh.hpp"
#include "export_pipeline/export_plan.hpp"
#include "export_pipeline/export_writers.hpp"

namespace physarum::app {

// The share of a volume's voxels inside its mesh when neither --iso nor --floor-fraction is given: a
// grown network fills a small part of its box, and a plane's 0.45 would mesh mostly the haze.
inline constexpr double kVolumeInsideShare = 0.1;

struct VolumeInputs {
  const ExportOptions& options;
  std::vector<float> values{};  // the field, (S, D, H, W), --channel's channel alone when one is chosen
  Size size{};
  int species = 1;
  std::vector<std::string> names{};  // each channel's: the species' names, "density" for one
  exporter::VolumeGrid grid{};       // the sum of the channels: what the slices and the mesh show
  std::string recipe;
  // The mesh, when an output needs it: the level, the inside's regions before and after the clean-up.
  float level = 0;
  double inside_share = 0;
  int regions_before = 0, regions_after = 0, corridors = 0;
  exporter::Mesh mesh{};
  exporter::DecimateReport decimated{};
  exporter::MeshTopology topology{};
};

// The volume's shape before it is grown or read.
struct VolumeShape {
  Size size;
  int planes = 1;  // after --channel
};

// The iso-surface's vertices and triangles before --triangles (exporter::surface_size, known once the
// inside is cleaned up) and the bytes held while making it. The plan, before the volume exists,
// checks the part that grows with the volume alone; the mesh and its files are checked against
// --output-budget again before the surface is made.
struct MeshBound {
  uint64_t vertices = 0, triangles = 0, held = 0;
};

struct VolumeWriter {
  std::string_view name;
  std::array<std::string_view, 2> extensions;
  bool mesh = false;
  void (*write)(const std::filesystem::path& out, const VolumeInputs& in) = nullptr;
  // The mesh's writers size their files by the surface's bound (MeshBound), known once the inside is.
  OutputEstimate (*estimate)(const ExportOptions& o, const VolumeShape& s, const MeshBound& m) = nullptr;
};

std::span<const VolumeWriter> volume_writers();
const VolumeWriter* volume_writer_named(std::string_view name);

// Whether the export grows (the recipe's size has a depth) or reads a volume: a 4-D .npy, or a 3-D
// one whose first side is more than a plane's species can be, or any 3-D one when an output is a
// volume's alone (.vdb, a mesh). Throws UsageError for a --field that is not a volume's when only a
// volume would do.
bool exports_volume(const ExportOptions& o, const Preset& preset);

// Fills plan.outputs (each with its volume writer) and checks everything a volume can refuse before
// it is grown or read: options that shape a plane's outputs, formats, paths, --channel, the budget.
void plan_volume(const ExportOptions& o, const Preset& preset, ExportPlan& plan);

// Grows or reads the volume and makes the mesh when the plan needs one.
VolumeInputs prepare_volume(const ExportOptions& o, const ExportPlan& plan);
void print_volume_summary(const ExportPlan& plan, const VolumeInputs& in);

// The file of slice z in a stack written to `pattern`: a run of '#' in its name becomes z with that
// many digits at least, else "_" and z with four digits at least goes before the extension
// (web.png -> web_0000.png, web_0001.png, ...): names that sort in slice order, which image-sequence
// readers (Fiji's Import > Image Sequence, 3D Slicer) expect.
std::filesystem::path slice_path(const std::filesystem::path& pattern, int z, int depth);

}  // namespace physarum::app
