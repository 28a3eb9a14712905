// Saving a preset must not change the process-wide umask, not even for a moment: the window saves
// from a worker thread while other threads may be creating files, which would then get the wrong
// permissions. This file interposes umask() for the whole test executable (forwarding to libc)
// so the test sees every call the library makes.
#include <dlfcn.h>
#include <sys/stat.h>

#include <atomic>

#include "sim/preset.hpp"
#include "test_support.hpp"

namespace {
std::atomic<int> g_umask_calls{0};
}  // namespace

extern "C" mode_t umask(mode_t mask) noexcept {
  ++g_umask_calls;
  using Fn = mode_t (*)(mode_t);
  static const Fn real = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, "umask"));
  return real(mask);
}

namespace physarum {
namespace {

TEST(PresetSave, NeverTouchesTheUmaskAndTheFileGets0666LessIt) {
  const auto dir = test::temp_dir();
  const mode_t before = ::umask(026);
  const int calls_before = g_umask_calls.load();
  save_preset(Preset{}, dir / "p.toml");
  save_preset(Preset{}, dir / "p2.toml");
  const int calls = g_umask_calls.load() - calls_before;
  const mode_t after = ::umask(before);
  EXPECT_EQ(calls, 0) << "save_preset called umask(), which changes it for every thread";
  EXPECT_EQ(after, 026U);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "p.toml").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0666U & ~026U);
  EXPECT_EQ(load_preset(dir / "p.toml"), Preset{});
}

}  // namespace
}  // namespace physarum
