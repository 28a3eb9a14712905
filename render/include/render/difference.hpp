// The twin view's picture of A - B (app/window/twin_view.hpp): a diverging colour map, blue where B is
// ahead, white where the twins agree, red where A is ahead; or |A - B| from white to red. Its own
// texture, program (shaders/difference.frag) and uniforms, apart from the field's: the field
// renderer never sees it. The difference comes from the host (read_field of both twins), at the
// modest rate a visual tool needs; a CUDA-side difference would skip the copies.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "render/gl_objects.hpp"
#include "render/view.hpp"
#include "sim/params.hpp"

namespace physarum::render {

// The map's ends and middle (RdBu's ends, white in between), linear RGB in [0, 1].
inline constexpr std::array<float, 3> kDifferenceNegative = {0.129f, 0.400f, 0.675f};  // blue: B > A
inline constexpr std::array<float, 3> kDifferenceZero = {1.0f, 1.0f, 1.0f};
inline constexpr std::array<float, 3> kDifferencePositive = {0.698f, 0.094f, 0.169f};  // red: A > B

// The colour of one difference d (A - B) with gain `inv_range` (1 / the difference shown at full
// colour): t = clamp(d * inv_range, -1, 1), white mixed towards red (t > 0) or blue (t < 0) by |t|;
// `absolute` colours |d| (white to red). RGBA8, alpha 255. The CPU version of difference.frag.
std::array<uint8_t, 4> difference_rgba(float d, float inv_range, bool absolute);

// A - B summed over the species' channels, one plane: a and b are (S, H, W) as read_field gives
// them. Also returns the largest |A - B| in `max_abs` (0 when the twins agree).
std::vector<float> difference_plane(const std::vector<float>& a, const std::vector<float>& b, size_t cells,
                                    float& max_abs);

class DifferenceRenderer {
 public:
  DifferenceRenderer();  // builds the program; throws Error (missing shader, compile errors)
  // One plane of width * height differences, row-major (y down).
  void upload(const float* difference, Size size);
  // Into the bound framebuffer's (0, 0, fb_w, fb_h), placed by `view` as the field is.
  void draw(const View& view, float inv_range, bool absolute, int fb_w, int fb_h) {
    draw(view, inv_range, absolute, Area::whole(fb_w, fb_h), fb_w, fb_h);
  }
  // The same, fitted into `area` of the framebuffer; the rest is cleared to the zero colour.
  void draw(const View& view, float inv_range, bool absolute, const Area& area, int fb_w, int fb_h);
  Size size() const { return size_; }

 private:
  Program prog_;
  VertexArray vao_;
  Texture tex_;
  Size size_{0, 0};
};

}  // namespace physarum::render
