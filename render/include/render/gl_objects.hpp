// One RAII type per OpenGL object: non-copyable, noexcept-movable, an explicit empty state, and a
// destructor that never throws. GL names are plain unsigned ints here so that this header needs no
// GL header; the .cpp holds the glCreate*/glDelete* calls. A current context is required to create
// or destroy any of them.
#pragma once

#include <utility>

#include "render/view.hpp"

namespace physarum::render {

enum class GlKind { Texture, Buffer, Program, VertexArray, Framebuffer, Query, Shader };

// Deletes a GL object of the given kind; implemented in gl_objects.cpp.
void gl_delete(GlKind kind, unsigned int name) noexcept;

template <GlKind K>
class GlObject {
 public:
  GlObject() noexcept = default;
  explicit GlObject(unsigned int name) noexcept : name_(name) {}  // takes ownership
  ~GlObject() { reset(); }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  GlObject(GlObject&& o) noexcept : name_(std::exchange(o.name_, 0u)) {}
  GlObject& operator=(GlObject&& o) noexcept {
    if (this != &o) {
      reset();
      name_ = std::exchange(o.name_, 0u);
    }
    return *this;
  }

  unsigned int get() const noexcept { return name_; }
  explicit operator bool() const noexcept { return name_ != 0; }
  unsigned int release() noexcept { return std::exchange(name_, 0u); }
  void reset() noexcept {
    if (name_ != 0) gl_delete(K, std::exchange(name_, 0u));
  }

 private:
  unsigned int name_ = 0;
};

using Texture = GlObject<GlKind::Texture>;
using Buffer = GlObject<GlKind::Buffer>;
using Program = GlObject<GlKind::Program>;
using VertexArray = GlObject<GlKind::VertexArray>;
using Framebuffer = GlObject<GlKind::Framebuffer>;
using Query = GlObject<GlKind::Query>;
using Shader = GlObject<GlKind::Shader>;

// Creation through the DSA entry points (GL 4.5), so objects exist before their first bind.
Texture make_texture_2d(int width, int height, unsigned int internal_format, int levels = 1);
// W x H x D, one level, linear filtering, clamped at the edges (a volume's field, food and walls).
Texture make_texture_3d(int width, int height, int depth, unsigned int internal_format);
Buffer make_buffer(long long bytes, const void* data, unsigned int flags_or_usage, bool immutable = false);
VertexArray make_vertex_array();
Framebuffer make_framebuffer();
Query make_query(unsigned int target);

// The GPU time of a draw without ever waiting for it: two GL_TIME_ELAPSED queries in turn, each read
// when the GPU has finished it (a frame or two later). begin()/end() around the draw.
class GpuTimer {
 public:
  GpuTimer();
  void begin();
  void end();
  double ms() const { return ms_; }  // the latest completed draw's (0 before the first)

 private:
  Query query_[2];
  bool pending_[2] = {false, false};
  bool timing_ = false;
  int next_ = 0;
  double ms_ = 0;
};

// Debug builds: GL errors and warnings reported through KHR_debug go to stderr as they happen
// (the context must be a debug context for most drivers). Does nothing in release builds.
void enable_gl_debug_output();

// Drawing into a part of the framebuffer: clears what lies outside `area` to `rgba` and restricts
// the following draws and copies to `area` with the scissor test; with the whole framebuffer,
// just turns the scissor test off (ImGui leaves it on). Returns true when the scissor is on: the
// caller turns it off after its draw.
bool clip_to_area(const Area& area, int fb_w, int fb_h, const float rgba[4]);

// Throws Error naming `what` and the GL error when glGetError() reports one; clears all pending.
void check_gl(const char* what);

}  // namespace physarum::render
