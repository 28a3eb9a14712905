// CUDA-GL interop when publishing fails after the backend has enqueued its write into the texture:
// the texture must not go back to GL (unmapped) before that write has finished, or GL reads a
// half-written field. Needs a CUDA device and the NVIDIA EGL device; skips elsewhere.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gl_support.hpp"
#include "render/cuda_interop.hpp"
#include "render/gl_objects.hpp"
#include "sim/backend.hpp"

namespace physarum {
namespace {

// The CUDA backend, except that publish() fails after the backend's own publish (its kernel
// enqueued on its own stream, maybe still running).
class PublishThenFail final : public Backend {
 public:
  PublishThenFail(const SimConfig& c, std::unique_ptr<Backend> inner)
      : Backend(c), inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  BackendKind kind() const override { return inner_->kind(); }
  void step(int n) override { inner_->step(n); }
  void set_species(const SpeciesSet& s) override { inner_->set_species(s); }
  using Backend::set_field;
  void set_field(const std::vector<float>& v, int channel) override { inner_->set_field(v, channel); }
  void set_agents(const AgentState& a) override { inner_->set_agents(a); }
  void brush(const BrushStroke& b) override { inner_->brush(b); }
  void read_field(std::vector<float>& out) override { inner_->read_field(out); }
  AgentState read_agents() override { return inner_->read_agents(); }
  StageTimings timings() override { return inner_->timings(); }
  bool can_publish() const override { return true; }
  uint64_t publish_stream() const override { return inner_->publish_stream(); }
  void publish(uint64_t surface) override {
    inner_->publish(surface);
    throw Error("failing after the publish kernel was enqueued");
  }

 private:
  std::unique_ptr<Backend> inner_;
};

TEST(RenderGpu, AFailedPublishReturnsTheTextureOnlyAfterTheWriteFinished) {
  if (!cuda_built() || cuda_device().empty()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context on the NVIDIA device: " << why;
  // A large field, so the publish kernel is still running when a premature unmap would happen.
  SimConfig c;
  c.size = {8192, 8192};
  c.agents = 1000;
  PublishThenFail backend(c, create_backend(BackendKind::Cuda, c));
  std::vector<float> field(static_cast<size_t>(c.size.width) * c.size.height);
  for (size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>(i % 1000);
  backend.set_field(field);

  render::Texture tex = render::make_texture_2d(c.size.width, c.size.height, GL_R32F);
  const float minus_one = -1.0f;
  glClearTexImage(tex.get(), 0, GL_RED, GL_FLOAT, &minus_one);
  render::CudaGlTexture interop(tex.get());
  EXPECT_THROW(interop.publish(backend), Error);

  std::vector<float> from_gl(field.size(), -2.0f);
  glGetTextureImage(tex.get(), 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(from_gl.size() * sizeof(float)),
                    from_gl.data());
  render::check_gl("glGetTextureImage");
  EXPECT_EQ(std::memcmp(field.data(), from_gl.data(), field.size() * sizeof(float)), 0)
      << "GL read the texture before the publish kernel had finished writing it";
}

}  // namespace
}  // namespace physarum
