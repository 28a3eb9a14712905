// The headless renderer's video frames go through the window's asynchronous readback ring, but
// must arrive exactly as the synchronous glReadPixels it replaced gave them: every frame, in order,
// the same bytes (rows bottom to top), even when the ring is smaller than the frames in flight.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gl_support.hpp"
#include "video/async_readback.hpp"
#include "video/frame_sink.hpp"

namespace physarum::app {
namespace {

struct Collect : FrameSink {
  std::vector<std::vector<uint8_t>> frames;
  bool write_rgba(const uint8_t* rgba, int width, int height) override {
    frames.emplace_back(rgba, rgba + static_cast<size_t>(width) * height * 4);
    return true;
  }
};

// Frame f: a background and a rectangle whose colour and place depend on f, so that frames differ
// from each other and the image is not symmetric (a row order mistake shows).
void draw_frame(int f, int w, int h) {
  glDisable(GL_SCISSOR_TEST);
  glClearColor(static_cast<float>(f % 7) / 7.0f, static_cast<float>(f % 3) / 3.0f, 0.25f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor((f * 5) % (w - 10), (f * 3) % (h / 2), 9, h / 2);
  glClearColor(1.0f, static_cast<float>(f % 5) / 5.0f, static_cast<float>(f % 11) / 11.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

std::vector<uint8_t> read_now(int w, int h) {
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  return rgba;
}

TEST(ReadbackLossless, EveryFrameArrivesInOrderWithTheSynchronousBytes) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const int w = 61, h = 37;  // odd: rows are not a multiple of any alignment but 1
  test::Fbo fbo(w, h);
  std::vector<std::vector<uint8_t>> expected;
  AsyncReadback rb(2);  // fewer buffers than frames in flight: the ring must wait, not drop
  Collect sink;
  const int frames = 25;
  for (int f = 0; f < frames; ++f) {
    draw_frame(f, w, h);
    expected.push_back(read_now(w, h));
    rb.start_lossless(w, h, sink);
    if (f % 4 == 0) rb.deliver(sink, false);  // sometimes the finished ones, as the frame loop does
  }
  rb.deliver(sink, true);
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(rb.dropped(), 0u);
  EXPECT_EQ(rb.submitted(), static_cast<uint64_t>(frames));
  EXPECT_EQ(rb.delivered(), static_cast<uint64_t>(frames));
  ASSERT_EQ(sink.frames.size(), expected.size());
  for (size_t f = 0; f < expected.size(); ++f) {
    EXPECT_EQ(sink.frames[f], expected[f]) << "frame " << f;
    if (f > 0) {
      EXPECT_NE(expected[f], expected[f - 1]) << "the test's frames must differ";
    }
  }
}

}  // namespace
}  // namespace physarum::app
