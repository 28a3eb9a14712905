// Several GPUs: the headless GL context goes on the EGL device that is the simulating CUDA device,
// and interop is used only when the GL context runs on that device. The choices are plain
// functions, checked here without a GPU; the GPU machine runs the real paths (test_cuda.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "render/cuda_interop.hpp"
#include "render/egl_context.hpp"

namespace physarum::render {
namespace {

TEST(GpuMatching, EglDeviceIsTheOneThatIsTheCudaDevice) {
  // Mesa's software device first, then CUDA devices 1 and 0: device 0 is the third.
  EXPECT_EQ(choose_egl_device({-1, 1, 0}, 0), 2);
  EXPECT_EQ(choose_egl_device({-1, 1, 0}, 1), 1);
  EXPECT_EQ(choose_egl_device({0, 1, 2, 3}, 3), 3);
}

TEST(GpuMatching, WithoutTheCudaDeviceTheFirstCudaOneIsTaken) {
  EXPECT_EQ(choose_egl_device({-1, 2, 1}, 0), 1);
  EXPECT_EQ(choose_egl_device({-1, -1}, 0), -1);
  EXPECT_EQ(choose_egl_device({}, 0), -1);
}

TEST(GpuMatching, InteropOnlyWhenGlRunsOnTheCudaDevice) {
  const int both[] = {1, 0};
  EXPECT_TRUE(gl_runs_on_cuda_device(both, 2, 0));
  const int other[] = {1};
  EXPECT_FALSE(gl_runs_on_cuda_device(other, 1, 0));
  EXPECT_FALSE(gl_runs_on_cuda_device(nullptr, 0, 0));
}

}  // namespace
}  // namespace physarum::render
