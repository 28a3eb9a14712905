// Outputs whose size follows from the options (a large --resolution, hundreds of SVG contour
// levels at zero tolerance) are estimated before the run and refused above a budget, so a typo
// costs a message instead of minutes of work and gigabytes of disk or memory. Each estimate is an
// upper bound computed from the options and the field's size alone; the writers' own files say
// how each bound follows from what they write (export_pipeline/export_writers.cpp and
// export_volume.cpp, and render's plan in cli/cmd_render.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace physarum::app {

// Large enough for a 4K still or an 8192x8192 cave mask, small enough to stop a typo before it
// fills a disk or the memory of an ordinary machine.
inline constexpr const char* kDefaultOutputBudget = "2GB";

struct OutputCost {
  uint64_t disk = 0;    // bytes written
  uint64_t memory = 0;  // bytes held at most while making it (the file's bytes built in memory included)
};

// Upper bound of a PNG of width x height pixels of `channels` samples of `sample_bytes`: the raw
// rows with their filter bytes, deflate's stored blocks (5 bytes per 65535), the chunks' framing,
// and room for the text chunks.
uint64_t png_bytes_bound(int width, int height, int channels, int sample_bytes);

class OutputBudget {
 public:
  // `what` names the output as the user gave it ("--out map.svg"); `because` the options that
  // size it ("--contours 256 at --tolerance 0 on a 4096x4096 grid").
  void add(std::string what, std::string because, OutputCost cost);
  // The sums over everything added (saturating: a bound never wraps).
  OutputCost total() const;
  // Throws UsageError when the disk or the memory total is above `budget` (text as
  // --output-budget takes it), naming the largest outputs, their options, the estimate, the
  // budget and how to raise it.
  void check(const std::string& budget) const;

 private:
  struct Item {
    std::string what, because;
    OutputCost cost;
  };
  std::vector<Item> items_;
};

}  // namespace physarum::app
