// "Render at 4x detail": the window's run grown again headless, K times finer (docs/MODEL.md,
// "Scale"), instead of enlarging the pixels on screen. The live preset (every edit, its keyframes)
// is written next to the picture as its recipe, and `physarum render --preset RECIPE --scale K
// --steps STEP --out PICTURE` runs as a child process while the window goes on; the window says
// when it is written. A seed image dropped on the window is not part of a preset: the picture grows
// from the preset's own seeding.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/preset.hpp"

namespace physarum::app {

inline constexpr int kDetailScale = 4;

// The child's argument vector: `program` render with the recipe, the scale, the steps grown so far
// (at least 1) and the backend ("cpu" or "cuda").
std::vector<std::string> detail_render_argv(const std::string& program, const std::filesystem::path& recipe,
                                            uint64_t steps, int scale, const std::string& backend,
                                            const std::filesystem::path& picture);

class DetailRender {
 public:
  struct Ended {
    bool ok = false;
    std::string message;  // "Saved X (4x detail, 12 s)" or why not, with the child's last words
  };

  DetailRender() = default;
  DetailRender(const DetailRender&) = delete;
  DetailRender& operator=(const DetailRender&) = delete;
  // A render still running when the window closes is stopped (render writes nothing partial).
  ~DetailRender();

  // Writes `p` to `picture` with .toml for .png and starts the child (`program`: this program's
  // file). Returns why not (one already running, the recipe cannot be written); empty when started.
  std::string start(const Preset& p, uint64_t steps, int scale, const std::string& backend,
                    const std::filesystem::path& picture, const std::string& program);
  // Once the child has ended: what came of it (asked each frame; never blocks).
  std::optional<Ended> poll();
  bool running() const { return pid_ > 0; }
  // "rendering physarum-...-4x.png at 4x detail: 12 s", for the panel while it runs.
  std::string status() const;

 private:
  pid_t pid_ = -1;
  std::filesystem::path picture_, log_;
  int scale_ = kDetailScale;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace physarum::app
