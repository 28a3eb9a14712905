// `physarum export` of a volume (grown from a 3-D recipe or read from a (D, H, W) / (S, D, H, W)
// .npy): the field itself (.npy), a stack of PNG slices, OpenVDB fog volumes and the iso-surface as
// a mesh (.ply, .obj, .glb). The plan (what is refused before the run) and the writers, entries of
// the one table of output formats (output_formats.hpp) as a plane's are.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "export/volume_mesh.hpp"
#include "export_pipeline/export_plan.hpp"
#include "export_pipeline/output_formats.hpp"

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

// A volume's formats (OutputNeeds::Volume and Mesh), entries of the one table (output_formats.cpp):
// each reads the source's volume (VolumeInputs); the mesh's size their files by the shape's mesh.
namespace volume_formats {
void write_slices(const std::filesystem::path& out, const OutputSource& in);
void write_vdb(const std::filesystem::path& out, const OutputSource& in);
void write_ply(const std::filesystem::path& out, const OutputSource& in);
void write_obj(const std::filesystem::path& out, const OutputSource& in);
void write_glb(const std::filesystem::path& out, const OutputSource& in);
OutputEstimate estimate_slices(const OutputShape& s);
OutputEstimate estimate_vdb(const OutputShape& s);
OutputEstimate estimate_ply(const OutputShape& s);
OutputEstimate estimate_obj(const OutputShape& s);
OutputEstimate estimate_glb(const OutputShape& s);
}  // namespace volume_formats

// Whether the export grows (the recipe's size has a depth) or reads a volume: a 4-D .npy, or a 3-D
// one whose first side is more than a plane's species can be, or any 3-D one when an output is a
// volume's alone (.vdb, a mesh). Throws UsageError for a --field that is not a volume's when only a
// volume would do.
bool exports_volume(const ExportOptions& o, const Preset& preset);

// Fills plan.outputs (each with its format) and checks everything a volume can refuse before
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
