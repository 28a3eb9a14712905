// Draws the field: owns the field texture (R32F for one species; RGBA32F with one channel per
// species for several, unused channels 0; fed by CUDA-GL interop or through a pixel buffer), the palette
// lookup texture, the display-range buffer and the programs. Needs a current OpenGL 4.5 core context for its
// whole life.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "render/colormap.hpp"
#include "render/compute_pass.hpp"
#include "render/cuda_interop.hpp"
#include "render/gl_objects.hpp"
#include "render/gpu_range.hpp"
#include "render/palette.hpp"
#include "render/palette_texture.hpp"
#include "render/view.hpp"
#include "sim/backend.hpp"

namespace physarum::render {

class FieldRenderer {
 public:
  // Around the picture and before the first field (the volume renderer's too).
  static constexpr float kBackground[3] = {0.07f, 0.07f, 0.08f};

  FieldRenderer();  // builds the programs; throws Error (missing shader files, compile errors)
  ~FieldRenderer();
  FieldRenderer(const FieldRenderer&) = delete;
  FieldRenderer& operator=(const FieldRenderer&) = delete;

  void set_palette(const Palette& p);
  // Bicubic sampling (shaders/bicubic.glsl) where a cell covers more than one pixel, for images
  // larger than the field (`render --resolution 4x`); off, each pixel shows its cell as it is.
  void set_bicubic(bool on) { bicubic_ = on; }

  // This frame's field from the backend: published through interop when the backend can and
  // registration worked, else read to the host and uploaded through a pixel buffer. With
  // `need_host_copy` a host copy is made as well (quantile cave levels need the whole field).
  void update_field(Backend& backend, bool need_host_copy);
  // The field from host memory: colours.count planes (S, H, W), each width * height floats,
  // row-major; one species (the default) is one plane, coloured by the palette.
  void upload_host_field(const float* data, Size size, const ChannelColours& colours = {});
  // The environment overlays' maps (render/environment_overlay.hpp): the food map E and the walls
  // (1 = wall), each W x H of the field or empty (none). update_field() does this itself whenever
  // the backend's environment_version() changes; draws show them as display.show_walls/show_food say.
  void set_environment_maps(const std::vector<float>& food, const std::vector<uint8_t>& walls, Size size);
  bool has_walls_map() const { return static_cast<bool>(walls_tex_); }
  bool has_food_map() const { return static_cast<bool>(food_tex_); }

  // Computes the display range (on the host when this frame's field is there or none is needed,
  // else with a compute shader) and draws into the bound framebuffer's (0, 0, fb_w, fb_h).
  // Display values out of range are clamped and NaN/infinite ones replaced (drawable_display).
  void draw(const DisplayParams& d, const View& view, int fb_w, int fb_h) {
    draw(d, view, Area::whole(fb_w, fb_h), fb_w, fb_h);
  }
  // The same, fitted into `area` of the framebuffer (the window's field rectangle); the rest of
  // the framebuffer is cleared to the background.
  void draw(const DisplayParams& d, const View& view, const Area& area, int fb_w, int fb_h);
  // The same field with the same display again, e.g. into the recorder's framebuffer: reuses the
  // range (and binary cave) of the last draw() and is not timed, so draw_ms() stays the frame's.
  void draw_again(const DisplayParams& d, const View& view, int fb_w, int fb_h);

  Size field_size() const { return size_; }
  int channels() const { return colours_.count; }
  bool interop_active() const { return interop_ != nullptr; }
  const std::string& interop_status() const { return interop_status_; }
  bool host_field_current() const { return host_current_; }
  // Quantile cave levels need a range computed on the host from the whole field. True when one
  // was, with the same inputs as `d` (cave mode, levels, auto-range); between host copies it
  // serves, else the next update must bring a host copy.
  bool has_host_range_for(const DisplayParams& d) const;
  // The next draw computes the range on the GPU even though the host has the field (tests).
  void forget_host_field() { host_current_ = false; }
  const std::vector<float>& host_field() const { return host_; }
  // Duration of the latest draw whose GL timer query has completed (ms; 0 before the first).
  double draw_ms() const { return timer_.ms(); }

 private:
  void allocate(Size size, const ChannelColours& colours);
  void compute_range(const DisplayParams& d);
  void draw_field(const DisplayParams& d, const View& view, const Area& area, int fb_w, int fb_h,
                  bool new_range);
  void build_binary_cave(int passes, int cave_channel);
  void update_environment(const Backend& backend);
  void set_environment_uniforms(const Program& p, const DisplayParams& d);

  Program minmax_prog_, cave_prog_, colour_prog_;
  Program float_colour_prog_;  // built when first drawn into a float target
  ComputePass colour_pass_;
  PaletteTexture lut_;
  Texture field_tex_;
  Texture cave_tex_[2];
  int cave_result_ = 0;
  Buffer pbo_;
  GpuRange range_;  // the display range the colour pass reads
  GpuTimer timer_;
  bool bicubic_ = false;

  // The environment overlays: textures only while the run has food / walls.
  Texture food_tex_;   // R32F
  Texture walls_tex_;  // R8UI
  Size env_size_{0, 0};
  uint64_t env_version_ = 0;  // Backend::environment_version() of the maps uploaded (0: none yet)
  std::vector<float> env_food_;
  std::vector<uint8_t> env_walls_;

  Size size_{0, 0};
  std::unique_ptr<CudaGlTexture> interop_;
  bool interop_failed_ = false;
  std::string interop_status_ = "no field yet";
  ChannelColours colours_;
  std::vector<float> host_;         // planar (S, H, W), as the backend reads it
  std::vector<float> interleaved_;  // several species: the texture's RGBA layout, for upload
  bool host_current_ = false;
  HostRange host_range_;
};

// Reads the bound framebuffer's (0, 0, w, h) as RGBA8, rows top to bottom.
std::vector<uint8_t> read_framebuffer_rgba(int w, int h);
// The same as floats (4 a pixel), as a float colour target holds them: the shader's output before
// any rounding to 8 bits.
std::vector<float> read_framebuffer_rgba_float(int w, int h);

}  // namespace physarum::render
