#include "export_pipeline/export_volume.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "export/mesh_files.hpp"
#include "export/output_paths.hpp"
#include "export/vdb_file.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

namespace ex = exporter;
namespace fs = std::filesystem;
using run::UsageError;

// Upper bounds from the options and the volume's size alone (as a plane's, export_writers.cpp).
uint64_t voxels_of(const OutputShape& s) {
  return cells_of(s.field);
}
std::string volume_text(const OutputShape& s) {
  return "the " + format_size(s.field) + " volume";
}

// Making the mesh holds, once for every mesh output: the padded signed field, the mask, its labels
// and search (about 30 bytes a voxel of the padded volume), whatever the surface.
uint64_t mesh_working_set(const OutputShape& s) {
  return 30 * (static_cast<uint64_t>(s.field.width) + 2) * (static_cast<uint64_t>(s.field.height) + 2) *
         (static_cast<uint64_t>(s.field.depth) + 2);
}
// On top of the working set: 60 bytes a vertex (positions, normals and their sums) and 96 a
// triangle (the indices, the simplifier's copy and the topology checks' sorted edges and links).
MeshBound mesh_bound(const OutputShape& s, const exporter::SurfaceSize& size) {
  return {size.vertices, size.triangles, mesh_working_set(s) + 60 * size.vertices + 96 * size.triangles};
}
std::string mesh_text(const OutputShape& s, const MeshBound& b) {
  return "the iso-surface of " + volume_text(s) + ", " + format_count(b.triangles) +
         " triangles before --triangles";
}

// Formats that only a volume has: a plane's export takes none of that extension.
bool volume_only(const ExportOptions& o) {
  const auto only = [](const OutputFormat* f) {
    return f != nullptr && (f->needs == OutputNeeds::Volume || f->needs == OutputNeeds::Mesh) &&
           !output_format_for_extension(f->extensions[0], kPlaneExportOffer);
  };
  if (!o.format.empty()) return only(output_format_named(o.format, kVolumeExportOffer));
  return std::ranges::any_of(
      o.outs, [&](const std::string& out) { return only(output_format_for(out, kVolumeExportOffer)); });
}

}  // namespace

namespace volume_formats {

// One PNG a z, rows y top to bottom, the whole volume on one scale (its minimum to its maximum), which
// each file's Description states so that values can be recovered.
void write_slices(const fs::path& out, const OutputSource& source) {
  const VolumeInputs& in = *source.volume;
  const auto [mn, mx] = std::minmax_element(in.grid.values.begin(), in.grid.values.end());
  const double lo = *mn, hi = *mx, top = in.options.bits == 16 ? 65535.0 : 255.0;
  const double scale = hi > lo ? top / (hi - lo) : 0.0;
  const size_t plane = static_cast<size_t>(in.size.width) * static_cast<size_t>(in.size.height);
  std::vector<uint16_t> px(plane);
  char range[160];
  std::snprintf(range, sizeof range, "value = %.9g + sample * %.9g", lo, scale > 0 ? 1.0 / scale : 0.0);
  const fs::path first = slice_path(out, 0, in.size.depth);
  make_folder_for(first.has_parent_path() ? first.parent_path() : ".", "slices");
  for (int z = 0; z < in.size.depth; ++z) {
    throw_if_stopped();
    const float* v = in.grid.values.data() + static_cast<size_t>(z) * plane;
    for (size_t i = 0; i < plane; ++i) px[i] = static_cast<uint16_t>(std::lround((v[i] - lo) * scale));
    const TextChunks text = {{"Software", "physarum"},
                             {"Comment", in.recipe},
                             {"Description", "slice z = " + std::to_string(z) + " of " +
                                                 std::to_string(in.size.depth) + "; " + range}};
    write_grey_png(slice_path(out, z, in.size.depth), px, in.size.width, in.size.height, in.options.bits,
                   text);
  }
}

void write_vdb(const fs::path& out, const OutputSource& source) {
  const VolumeInputs& in = *source.volume;
  const size_t voxels = in.grid.voxels();
  float largest = 0;
  for (float v : in.values) largest = std::max(largest, std::abs(v));
  std::vector<ex::VdbChannel> channels;
  for (int c = 0; c < in.species; ++c) {
    channels.push_back(
        {in.names[static_cast<size_t>(c)], in.values.data() + static_cast<size_t>(c) * voxels});
  }
  ex::VdbOptions vo;
  vo.voxel_size = in.options.voxel_size;
  vo.cutoff = static_cast<float>(in.options.vdb_cutoff * largest);
  vo.recipe = in.recipe;
  ex::write_vdb(out, in.size.width, in.size.height, in.size.depth, channels, vo);
}

void write_ply(const fs::path& out, const OutputSource& in) {
  write_file_atomically(out, ex::ply_bytes(in.volume->mesh, in.volume->recipe));
}
void write_obj(const fs::path& out, const OutputSource& in) {
  write_file_atomically(out, ex::obj_bytes(in.volume->mesh, in.volume->recipe));
}
void write_glb(const fs::path& out, const OutputSource& in) {
  write_file_atomically(out, ex::glb_bytes(in.volume->mesh, "physarum " PHYSARUM_VERSION, in.volume->recipe));
}

OutputEstimate estimate_slices(const OutputShape& s) {
  const int bits = s.options->bits;
  const uint64_t png = png_bytes_bound(s.field.width, s.field.height, 1, bits / 8);
  const uint64_t plane = static_cast<uint64_t>(s.field.width) * static_cast<uint64_t>(s.field.height);
  return {
      {png * static_cast<uint64_t>(s.field.depth), 2 * plane + png},
      std::to_string(s.field.depth) + " slices of " + volume_text(s) + " at --bits " + std::to_string(bits)};
}

// A leaf of 8^3 voxels holds 4 bytes a voxel and its masks (well under 5 bytes a voxel with the tree
// above it), on disk and in memory alike; the file is read back once to make its id stable.
OutputEstimate estimate_vdb(const OutputShape& s) {
  const uint64_t bytes = (5 * voxels_of(s) + (uint64_t{1} << 20)) * static_cast<uint64_t>(s.planes);
  return {{bytes, 3 * bytes}, volume_text(s) + " with every voxel active"};
}

// Each file is built whole in memory before it is written.
OutputEstimate estimate_ply(const OutputShape& s) {
  const uint64_t file = 24 * s.mesh.vertices + 13 * s.mesh.triangles + 4096;
  return {{file, file}, mesh_text(s, s.mesh)};
}
// A vertex is two lines of three shortest floats (at most 15 characters each); a face three pairs
// of indices of at most 10 digits.
OutputEstimate estimate_obj(const OutputShape& s) {
  const uint64_t file = 2 * 52 * s.mesh.vertices + 72 * s.mesh.triangles + 4096;
  return {{file, file}, mesh_text(s, s.mesh)};
}
// tinygltf holds the buffer, its stream and the string made of it.
OutputEstimate estimate_glb(const OutputShape& s) {
  const uint64_t file = 24 * s.mesh.vertices + 12 * s.mesh.triangles + 8192;
  return {{file, 3 * file}, mesh_text(s, s.mesh)};
}

}  // namespace volume_formats

bool exports_volume(const ExportOptions& o, const Preset& preset) {
  if (o.field.empty()) return preset.run.size.volume();
  NpyVolume v;
  try {
    v = read_npy_volume_field(o.field, false);
  } catch (const Error& e) {
    // Not a volume's: a plane's reader says what is wrong with it, unless only a volume would do.
    if (volume_only(o)) throw UsageError(std::string("--field: ") + e.what());
    return false;
  }
  return v.dimensions == 4 || v.depth > kMaxSpecies || volume_only(o);
}

std::filesystem::path slice_path(const std::filesystem::path& pattern, int z, int depth) {
  const std::string name = pattern.filename().string();
  const size_t first = name.find('#');
  const int needed = static_cast<int>(std::to_string(std::max(depth - 1, 0)).size());
  const auto padded = [&](size_t width) {
    std::string digits = std::to_string(z);
    return std::string(width > digits.size() ? width - digits.size() : 0, '0') + digits;
  };
  if (first == std::string::npos) {
    const std::string stem = pattern.stem().string(), ext = pattern.extension().string();
    return pattern.parent_path() / (stem + "_" + padded(static_cast<size_t>(std::max(4, needed))) + ext);
  }
  const size_t last = name.find_first_not_of('#', first);
  const size_t run = (last == std::string::npos ? name.size() : last) - first;
  return pattern.parent_path() / (name.substr(0, first) + padded(std::max(run, static_cast<size_t>(needed))) +
                                  name.substr(first + run));
}

namespace {

// Options that shape a plane's outputs alone, refused when given with a volume.
constexpr const char* kPlaneOnly[] = {"--resolution", "--threshold",  "--smooth",   "--report",
                                      "--graph",      "--tile-size",  "--bands",    "--levels",
                                      "--paper",      "--margin",     "--contours", "--contour-at",
                                      "--tolerance",  "--min-length", "--stroke",   "--skeleton"};

const OutputFormat& volume_format_of(const std::string& out, const std::string& forced) {
  if (!forced.empty()) {
    if (const OutputFormat* f = output_format_named(forced, kVolumeExportOffer)) return *f;
    throw UsageError("--format " + forced + ": a volume exports as " +
                     or_list(output_format_names(kVolumeExportOffer)));
  }
  if (const OutputFormat* f = output_format_for(out, kVolumeExportOffer)) return *f;
  throw UsageError("--out " + out + ": a volume exports as " + output_extensions(kVolumeExportOffer) +
                   ", not '" + lowercase_extension(out) + "' (or give --format)");
}

// The volume's size and channels before it is grown (the recipe's) or read (the .npy's header).
OutputShape volume_shape(const ExportOptions& o, const Preset& preset) {
  OutputShape s{.options = &o, .field = preset.run.size, .planes = preset.species.count()};
  if (o.field.empty()) return s;
  NpyVolume v;
  try {
    v = read_npy_volume_field(o.field, false);
  } catch (const Error& e) {
    throw UsageError(std::string("--field: ") + e.what());
  }
  s.field = {v.width, v.height, v.depth};
  s.planes = v.species;
  return s;
}

// The outputs against --output-budget: before the volume exists (`mesh` null), what grows with the
// volume alone (the mesh's working set, not its surface); with the surface's bound, everything.
void check_volume_budget(const ExportOptions& o, const ExportPlan& plan, OutputShape shape,
                         const MeshBound* mesh) {
  OutputBudget budget;
  budget.add("the volume and its sum", volume_text(shape),
             {0, 4 * voxels_of(shape) * static_cast<uint64_t>(shape.planes + 2)});
  if (plan.needs_mesh) {
    if (mesh != nullptr) {
      budget.add("the mesh", mesh_text(shape, *mesh), {0, mesh->held});
    } else {
      budget.add("the mesh's working set", "the signed field and labels of " + volume_text(shape),
                 {0, mesh_working_set(shape)});
    }
  }
  if (mesh != nullptr) shape.mesh = *mesh;
  for (const ExportOutput& out : plan.outputs) {
    const bool sized_by_surface = out.format->needs == OutputNeeds::Mesh;
    if (sized_by_surface && mesh == nullptr) continue;  // checked once the surface's bound is known
    OutputEstimate e = out.format->estimate(shape);
    budget.add("--out " + out.path.string(), std::move(e.because), e.cost);
  }
  budget.check(o.output_budget);
}

void check_volume_options(const ExportOptions& o) {
  for (const char* name : kPlaneOnly) {
    if (o.command.has(name)) {
      throw UsageError(std::string(name) + " shapes a plane's export; a volume exports as " +
                       output_extensions(kVolumeExportOffer) +
                       ", its mesh's level set by --iso or --floor-fraction");
    }
  }
  if (o.iso && o.floor_fraction) throw UsageError("--iso and --floor-fraction exclude each other");
}

}  // namespace

void plan_volume(const ExportOptions& o, const Preset& preset, ExportPlan& plan) {
  check_volume_options(o);
  plan.volume = true;
  OutputPaths paths;
  OutputShape shape = volume_shape(o, preset);
  for (const std::string& out : o.outs) {
    const OutputFormat& f = volume_format_of(out, o.format);
    if (f.name == "vdb" && !exporter::vdb_available()) {
      throw UsageError("--out " + out + ": " + exporter::vdb_missing_message());
    }
    plan.outputs.push_back({out, &f});
    plan.needs_mesh = plan.needs_mesh || f.needs == OutputNeeds::Mesh;
    if (f.name == "slices") {
      // The first and the last slice stand for the stack: the same folder, the same kind of name.
      // Their folder is made when missing, as render makes a PNG sequence's (write_slices).
      paths.add("--out " + out + " (its first slice)", slice_path(out, 0, shape.field.depth),
                WritableTarget::InFolderToMake);
      paths.add("--out " + out + " (its last slice)",
                slice_path(out, shape.field.depth - 1, shape.field.depth), WritableTarget::InFolderToMake);
    } else {
      paths.add("--out", out);
    }
  }
  if (o.channel >= shape.planes) {
    throw UsageError("--channel " + std::to_string(o.channel) + ": the volume has " +
                     std::to_string(shape.planes) + " species");
  }
  if (o.channel >= 0) shape.planes = 1;
  check_volume_budget(o, plan, shape, nullptr);
}

namespace {

std::vector<std::string> channel_names(const SpeciesSet& species, int count) {
  if (count == 1) return {"density"};
  std::vector<std::string> names;
  for (int c = 0; c < count; ++c) {
    names.push_back(species.count() == count ? species.list[static_cast<size_t>(c)].name
                                             : "species" + std::to_string(c));
  }
  return names;
}

// The volume `physarum run` grows from the same recipe, resolved once by the plan.
void grow_volume(const ExportOptions& o, const ExportPlan& plan, VolumeInputs& in) {
  run::Run sim(run::with_base(o.sim, plan.preset));
  o.command.say_chosen(plan.chosen);
  if (!sim.food_note().empty()) std::fprintf(stderr, "physarum: food: %s\n", sim.food_note().c_str());
  step_in_slices(static_cast<uint64_t>(o.steps), [&](uint64_t k) { sim.step(k); });
  Volume& v = sim.volume();
  v.read_field(in.values);
  throw_if_stopped();
  in.size = v.size();
  in.species = v.species_count();
  in.names = channel_names(sim.preset().species, in.species);
}

void read_volume(const ExportOptions& o, const ExportPlan& plan, VolumeInputs& in) {
  NpyVolume v;
  try {
    v = read_npy_volume_field(o.field);
  } catch (const Error& e) {
    throw UsageError(std::string("--field: ") + e.what());
  }
  // A NaN or infinity would take over the slices' scale, the level and the mesh.
  const auto bad = std::ranges::count_if(v.data, [](float x) { return !std::isfinite(x); });
  if (bad > 0) {
    throw UsageError("--field " + o.field + ": " + std::to_string(bad) + " of " +
                     std::to_string(v.data.size()) +
                     " voxels are not finite numbers (NaN or infinity); a field has finite values only");
  }
  in.values = std::move(v.data);
  in.size = {v.width, v.height, v.depth};
  in.species = v.species;
  in.names = channel_names(plan.preset.species, in.species);
}

void keep_channel(VolumeInputs& in, int channel) {
  const size_t n = static_cast<size_t>(cells_of(in.size));
  const auto first = in.values.begin() + static_cast<std::ptrdiff_t>(n * static_cast<size_t>(channel));
  in.values = std::vector<float>(first, first + static_cast<std::ptrdiff_t>(n));
  in.names = {in.names[static_cast<size_t>(channel)]};
  in.species = 1;
}

void sum_channels(VolumeInputs& in) {
  in.grid = {in.size.width, in.size.height, in.size.depth, {}};
  const size_t n = in.grid.voxels();
  in.grid.values.assign(in.values.begin(), in.values.begin() + static_cast<std::ptrdiff_t>(n));
  for (size_t c = 1; c < static_cast<size_t>(in.species); ++c) {
    for (size_t i = 0; i < n; ++i) in.grid.values[i] += in.values[c * n + i];
  }
}

// The inside cleaned as a plane's cave floor is (islands, voids, one region), then, once the surface's
// size is within --output-budget, meshed.
void make_mesh(const ExportOptions& o, const ExportPlan& plan, VolumeInputs& in) {
  in.level = o.iso ? *o.iso
                   : exporter::quantile(in.grid.values, 1.0 - o.floor_fraction.value_or(kVolumeInsideShare));
  exporter::Mask mask = exporter::inside_mask(in.grid, in.level);
  std::vector<int> labels;
  std::vector<int64_t> sizes;
  in.regions_before = exporter::label_regions(mask, 1, labels, sizes);
  throw_if_stopped();
  exporter::remove_islands(mask, 0, o.min_island);
  exporter::remove_islands(mask, 1, o.min_island);
  if (o.connect == "largest") exporter::keep_largest_floor(mask);
  if (o.connect == "corridors") in.corridors = exporter::join_with_corridors(mask, o.min_width);
  throw_if_stopped();
  in.regions_after = exporter::label_regions(mask, 1, labels, sizes);
  labels = {};
  const auto inside = std::ranges::count(mask.cells, uint8_t{1});
  in.inside_share = static_cast<double>(inside) / static_cast<double>(mask.cells.size());
  if (inside == 0) {
    char level[32];
    std::snprintf(level, sizeof level, "%.9g", static_cast<double>(in.level));
    throw UsageError(std::string("no voxel is inside the mesh at level ") + level +
                     " (after --min-island): give a lower --iso or a larger --floor-fraction");
  }
  const OutputShape shape{.options = &o, .field = in.size, .planes = o.channel >= 0 ? 1 : in.species};
  const MeshBound bound = mesh_bound(shape, exporter::surface_size(mask));
  check_volume_budget(o, plan, shape, &bound);
  in.mesh = exporter::iso_surface(in.grid, in.level, mask, o.voxel_size, stop_on_signal());
  throw_if_stopped();
  in.decimated = exporter::decimate(in.mesh, static_cast<size_t>(o.triangles));
  in.topology = exporter::mesh_topology(in.mesh);
}

}  // namespace

VolumeInputs prepare_volume(const ExportOptions& o, const ExportPlan& plan) {
  VolumeInputs in{.options = o, .recipe = o.command.recipe};
  if (o.field.empty()) {
    grow_volume(o, plan, in);
  } else {
    read_volume(o, plan, in);
  }
  if (o.channel >= 0) keep_channel(in, o.channel);
  sum_channels(in);
  if (plan.needs_mesh) make_mesh(o, plan, in);
  return in;
}

void print_volume_summary(const ExportPlan& plan, const VolumeInputs& in) {
  std::printf("export volume %s (%d channel%s)", format_size(in.size).c_str(), in.species,
              in.species > 1 ? "s" : "");
  if (plan.needs_mesh) {
    const exporter::DecimateReport& d = in.decimated;
    std::printf(
        ": level %.6g, inside %.2f%%, regions %d -> %d, corridors %d; mesh %zu vertices, %zu triangles",
        static_cast<double>(in.level), 100 * in.inside_share, in.regions_before, in.regions_after,
        in.corridors, in.mesh.vertex_count(), in.mesh.triangle_count());
    if (d.tries > 0 && !d.gave_up) {
      std::printf(
          " (simplified from %zu in %d tr%s%s)", d.before, d.tries, d.tries > 1 ? "ies" : "y",
          d.after > static_cast<size_t>(in.options.triangles) ? "; fewer triangles broke the surface" : "");
    }
    if (d.gave_up) std::printf(" (not simplified: %d tries broke the surface)", d.tries);
    std::printf(", %s, Euler characteristic %lld, %lld shell%s",
                in.topology.manifold ? "closed manifold" : "NOT manifold",
                static_cast<long long>(in.topology.euler), static_cast<long long>(in.topology.shells),
                in.topology.shells == 1 ? "" : "s");
  }
  std::printf("\n");
  for (const ExportOutput& out : plan.outputs) {
    if (out.format->name == "slices") {
      std::printf(
          "wrote %s .. %s (%d slices)\n", printable(slice_path(out.path, 0, in.size.depth).string()).c_str(),
          printable(slice_path(out.path, in.size.depth - 1, in.size.depth).string()).c_str(), in.size.depth);
    } else {
      std::printf("wrote %s\n", printable(out.path.string()).c_str());
    }
  }
  std::fflush(stdout);
}

}  // namespace physarum::app
