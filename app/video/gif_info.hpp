// What a GIF file holds, read from its blocks: its frames and the delay of each, so what is said
// about a GIF made here is what a player will show (ffmpeg brings the frames to the GIF's rate,
// and a GIF's delays are whole hundredths of a second).
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace physarum::app {

struct GifInfo {
  int width = 0;  // the logical screen
  int height = 0;
  std::vector<int> delays_cs;  // one per frame (image), in hundredths of a second; 0 when it has none
  size_t frames() const { return delays_cs.size(); }
  int total_cs() const;
  // Frames a second as it plays: frames over the sum of the delays (0 when they sum to 0).
  double fps() const;
};

// Throws Error naming the byte where the blocks stop making sense (not a GIF, cut short, an unknown
// block).
GifInfo parse_gif(std::string_view bytes);
GifInfo read_gif(const std::filesystem::path& file);

}  // namespace physarum::app
