// Draws a volume (sim/volume.hpp) by ray marching its field in a compute pass (shaders/volume.glsl,
// render/compute_pass.hpp) as display.volume_mode says: emission-absorption with the palette as transfer
// function, maximum intensity, or a shaded iso-surface; inside the clip box, seen by the orbit camera
// (render/orbit_camera.hpp), with the slicing plane, food and walls drawn in. Owns one R32F 3D
// texture per species (fed by CUDA-GL interop or uploaded from the host), the palette texture and
// the programs. Needs a current OpenGL 4.5 core context for its whole life.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/colormap.hpp"
#include "render/compute_pass.hpp"
#include "render/gl_objects.hpp"
#include "render/gpu_range.hpp"
#include "render/orbit_camera.hpp"
#include "render/palette.hpp"
#include "render/palette_texture.hpp"
#include "render/view.hpp"
#include "sim/points.hpp"

namespace physarum {
class Volume;
}

namespace physarum::render {

class CudaGlVolume;

class VolumeRenderer {
 public:
  VolumeRenderer();  // builds the programs; throws Error (missing shader files, compile errors)
  ~VolumeRenderer();
  VolumeRenderer(const VolumeRenderer&) = delete;
  VolumeRenderer& operator=(const VolumeRenderer&) = delete;

  void set_palette(const Palette& p);  // the transfer function
  // Empty-space skipping (on by default): rays step over the 8^3 bricks of voxels that cannot change
  // the picture. The picture is the same either way (tests compare); only the time differs.
  void set_empty_space_skipping(bool on) { skip_ = on; }

  // This frame's volume (the field, or the trace as display.volume_source says when the volume
  // has one; else the field): a CUDA volume's device field goes into the 3D textures through
  // interop (no host copy) when it can, else read_field()/read_trace() and an upload. `colours`:
  // each species' (channel_colours of the run's species); white when its count is not the volume's.
  // The walls come along the first time a volume is seen; set_environment() replaces them (and
  // must, when they change). `host`: through the host even where interop could serve (quantile cave
  // levels need the whole volume there now and then: has_host_range_for). Throws Error.
  void update_volume(Volume& v, const DisplayParams& d, const ChannelColours& colours = {},
                     bool host = false);
  // The volume from host memory: colours.count planes (S, D, H, W), z slowest, each W*H*D floats.
  void upload_host_volume(const float* data, Size size, const ChannelColours& colours = {});
  // The overlays: the food's voxels (sim/points.hpp, E = weight) and the walls, (D, H, W) bytes,
  // non-zero = wall, for a volume of `size`; empty: none. Drawn as display.show_food/show_walls say.
  void set_environment(const std::vector<VoxelFood>& food, const std::vector<uint8_t>& walls, Size size);

  // Draws the volume into `area` of the bound framebuffer (fb_w x fb_h, y down in `area`); the rest
  // of the framebuffer is cleared to the background. Display values out of range are clamped.
  void draw(const DisplayParams& d, const Area& area, int fb_w, int fb_h);
  void draw(const DisplayParams& d, int fb_w, int fb_h) { draw(d, Area::whole(fb_w, fb_h), fb_w, fb_h); }

  Size volume_size() const { return size_; }  // {0, 0} before the first volume
  int channels() const { return colours_.count; }
  // The volume as last read to the host ((S, D, H, W)); empty while interop feeds the textures.
  const std::vector<float>& host_volume() const { return host_; }
  // The next draws compute the range on the GPU, as after an interop frame, though the host has the
  // volume (tests).
  void forget_host_volume() { host_current_ = false; }
  // As FieldRenderer's: a range computed on the host with the same inputs as `d` serves quantile
  // cave levels between host copies.
  bool has_host_range_for(const DisplayParams& d) const;
  // Channel c of the 3D texture read back (W*H*D floats, x fastest): what the shaders sample.
  std::vector<float> read_texture(int c) const;
  // Duration of the latest draw whose GL timer query has completed (ms; 0 before the first).
  double draw_ms() const { return range_timer_.ms() + bricks_timer_.ms() + march_timer_.ms(); }
  // The draw's stages, each as draw_ms(): the display range, the bricks for skipping, the ray march.
  struct StageMs {
    double range = 0, bricks = 0, march = 0;
  };
  StageMs stage_ms() const { return {range_timer_.ms(), bricks_timer_.ms(), march_timer_.ms()}; }
  bool interop_active() const { return interop_ready_; }
  const std::string& interop_status() const { return interop_status_; }

 private:
  void allocate(Size size, const ChannelColours& colours);
  void compute_range(const DisplayParams& d);
  void set_uniforms(const Program& p, const DisplayParams& d, const Area& area, int fb_w, int fb_h);
  void set_environment_uniforms(const Program& p, const DisplayParams& d);
  // Which of the overlays `d` shows that this volume has (walls, food).
  struct Shown {
    bool walls = false, food = false;
  };
  Shown shown_environment(const DisplayParams& d) const;
  void upload_food(const std::vector<VoxelFood>& food, Size size);
  void upload_walls(const std::vector<uint8_t>& walls, Size size);
  bool publish_through_interop(Volume& v);
  void build_bricks(const DisplayParams& d);

  Program march_prog_;        // volume_march.comp: into RGBA8
  Program float_march_prog_;  // volume_march_float.comp, built when first drawn into a float target
  Program range_prog_, bricks_prog_;
  ComputePass march_pass_;
  PaletteTexture lut_;
  Texture field_tex_[kMaxSpecies];  // R32F 3D, one per species
  Texture food_tex_;                // R32F 3D, E (only while there is food)
  Texture walls_tex_;               // R8 3D, 1 = wall (only while there are walls)
  Texture bricks_tex_;              // RGBA32F 3D: each brick's maxima (volume_bricks.comp)
  bool skip_ = true;
  bool bricks_stale_ = true;  // the volume or what of the environment shows changed since
  int bricks_env_ = -1;       // the food and walls shown when they were built (bits)
  GpuRange gpu_range_;        // the display range the ray marcher reads
  GpuTimer range_timer_, bricks_timer_, march_timer_;

  Size size_{0, 0};
  Size food_size_{0, 0}, walls_size_{0, 0};
  ChannelColours colours_;
  std::vector<float> host_;
  bool host_current_ = false;
  HostRange host_range_;              // the last host copy's, for quantile cave levels in interop frames
  const Volume* walls_of_ = nullptr;  // the volume whose walls were last uploaded
  const uint8_t* walls_data_ = nullptr;
  std::vector<std::unique_ptr<CudaGlVolume>> interop_;  // one per species' texture
  bool interop_ready_ = false;
  bool interop_failed_ = false;
  std::string interop_status_ = "no volume yet";
};

// The voxel layer a slice at fraction `at` of a side of `side` voxels shows: floor(at * side), kept
// inside. The 3D view's slicing plane passes through that layer's centres.
int slice_index(float at, int side);
// The slice of a volume across `axis` (not Off) at fraction `at`, as a plane the 2D renderer draws
// (FieldRenderer::upload_host_field): `channels` planes (S, rows, columns), each plane of `volume`'s
// (S, D, H, W) values. z: rows y, columns x (W x H); y: rows z, columns x (W x D); x: rows z,
// columns y (H x D). `plane` is set to its size.
std::vector<float> extract_slice(const std::vector<float>& volume, Size size, int channels, SliceAxis axis,
                                 float at, Size& plane);

}  // namespace physarum::render
