#include "render/gl_objects.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/params.hpp"

namespace physarum::render {

void gl_delete(GlKind kind, unsigned int name) noexcept {
  // A destructor may run after the loader is gone (context lost at exit): then there is nothing
  // left to free, so do nothing rather than call a null pointer.
  switch (kind) {
    case GlKind::Texture:
      if (glad_glDeleteTextures) glDeleteTextures(1, &name);
      break;
    case GlKind::Buffer:
      if (glad_glDeleteBuffers) glDeleteBuffers(1, &name);
      break;
    case GlKind::Program:
      if (glad_glDeleteProgram) glDeleteProgram(name);
      break;
    case GlKind::VertexArray:
      if (glad_glDeleteVertexArrays) glDeleteVertexArrays(1, &name);
      break;
    case GlKind::Framebuffer:
      if (glad_glDeleteFramebuffers) glDeleteFramebuffers(1, &name);
      break;
    case GlKind::Query:
      if (glad_glDeleteQueries) glDeleteQueries(1, &name);
      break;
    case GlKind::Shader:
      if (glad_glDeleteShader) glDeleteShader(name);
      break;
  }
}

static const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    default: return "unknown GL error";
  }
}

bool clip_to_area(const Area& area, int fb_w, int fb_h, const float rgba[4]) {
  glDisable(GL_SCISSOR_TEST);
  if (area == Area::whole(fb_w, fb_h)) return false;
  glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
  glClear(GL_COLOR_BUFFER_BIT);
  // GL counts rows from the bottom.
  const int x0 = static_cast<int>(std::lround(area.x)), x1 = static_cast<int>(std::lround(area.x + area.w));
  const int y0 = static_cast<int>(std::lround(area.y)), y1 = static_cast<int>(std::lround(area.y + area.h));
  glEnable(GL_SCISSOR_TEST);
  glScissor(x0, fb_h - y1, std::max(0, x1 - x0), std::max(0, y1 - y0));
  return true;
}

void check_gl(const char* what) {
  GLenum first = GL_NO_ERROR;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    if (first == GL_NO_ERROR) first = e;
  }
  if (first != GL_NO_ERROR) throw Error(std::string("OpenGL error in ") + what + ": " + gl_error_name(first));
}

#if !defined(NDEBUG)
static void GLAD_API_PTR on_gl_message(GLenum, GLenum type, GLuint, GLenum severity, GLsizei,
                                       const GLchar* message, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  std::fprintf(stderr, "physarum: GL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "message", message);
}
#endif

void enable_gl_debug_output() {
#if !defined(NDEBUG)
  if (!GLAD_GL_KHR_debug && !GLAD_GL_VERSION_4_3) return;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_gl_message, nullptr);
#endif
}

Texture make_texture_2d(int width, int height, unsigned int internal_format, int levels) {
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  Texture tex(t);
  glTextureStorage2D(t, levels, internal_format, width, height);
  check_gl("creating a texture");
  return tex;
}

Texture make_texture_3d(int width, int height, int depth, unsigned int internal_format) {
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_3D, 1, &t);
  Texture tex(t);
  glTextureStorage3D(t, 1, internal_format, width, height, depth);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
    glTextureParameteri(t, wrap, GL_CLAMP_TO_EDGE);
  check_gl("creating a 3D texture");
  return tex;
}

GpuTimer::GpuTimer() : query_{make_query(GL_TIME_ELAPSED), make_query(GL_TIME_ELAPSED)} {}

void GpuTimer::begin() {
  const int other = 1 - next_;
  if (pending_[other]) {
    GLint available = 0;
    glGetQueryObjectiv(query_[other].get(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (available) {
      GLuint64 ns = 0;
      glGetQueryObjectui64v(query_[other].get(), GL_QUERY_RESULT, &ns);
      ms_ = static_cast<double>(ns) * 1e-6;
      pending_[other] = false;
    }
  }
  timing_ = !pending_[next_];
  if (timing_) glBeginQuery(GL_TIME_ELAPSED, query_[next_].get());
}

void GpuTimer::end() {
  if (!timing_) return;
  glEndQuery(GL_TIME_ELAPSED);
  pending_[next_] = true;
  next_ = 1 - next_;
  timing_ = false;
}

Buffer make_buffer(long long bytes, const void* data, unsigned int flags_or_usage, bool immutable) {
  GLuint b = 0;
  glCreateBuffers(1, &b);
  Buffer buf(b);
  if (immutable) {
    glNamedBufferStorage(b, static_cast<GLsizeiptr>(bytes), data, flags_or_usage);
  } else {
    glNamedBufferData(b, static_cast<GLsizeiptr>(bytes), data, flags_or_usage);
  }
  check_gl("creating a buffer");
  return buf;
}

VertexArray make_vertex_array() {
  GLuint v = 0;
  glCreateVertexArrays(1, &v);
  return VertexArray(v);
}

Framebuffer make_framebuffer() {
  GLuint f = 0;
  glCreateFramebuffers(1, &f);
  return Framebuffer(f);
}

Query make_query(unsigned int target) {
  GLuint q = 0;
  glCreateQueries(target, 1, &q);
  return Query(q);
}

}  // namespace physarum::render
