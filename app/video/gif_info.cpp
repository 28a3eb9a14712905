#include "video/gif_info.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>

#include "sim/params.hpp"

namespace physarum::app {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  size_t at() const { return at_; }
  bool done() const { return at_ >= b_.size(); }
  unsigned byte() {
    need(1);
    return static_cast<unsigned char>(b_[at_++]);
  }
  unsigned word() {  // little-endian, as every GIF field
    const unsigned lo = byte();
    return lo | (byte() << 8);
  }
  void skip(size_t n) {
    need(n);
    at_ += n;
  }
  // Data sub-blocks: a length byte and that many bytes, until a length of 0.
  void skip_sub_blocks() {
    for (unsigned n = byte(); n != 0; n = byte()) skip(n);
  }

 private:
  void need(size_t n) const {
    if (b_.size() - at_ < n) throw Error("the GIF is cut short at byte " + std::to_string(at_));
  }
  std::string_view b_;
  size_t at_ = 0;
};

size_t colour_table_bytes(unsigned packed) {
  return (packed & 0x80) != 0 ? 3u * (1u << ((packed & 7) + 1)) : 0;
}

}  // namespace

int GifInfo::total_cs() const {
  return std::accumulate(delays_cs.begin(), delays_cs.end(), 0);
}

double GifInfo::fps() const {
  const int total = total_cs();
  return total > 0 ? 100.0 * static_cast<double>(frames()) / total : 0.0;
}

GifInfo parse_gif(std::string_view bytes) {
  if (bytes.substr(0, 6) != "GIF87a" && bytes.substr(0, 6) != "GIF89a") throw Error("not a GIF file");
  Reader r(bytes);
  r.skip(6);
  GifInfo g;
  g.width = static_cast<int>(r.word());
  g.height = static_cast<int>(r.word());
  const unsigned packed = r.byte();
  r.skip(2 + colour_table_bytes(packed));  // background colour, aspect, global colour table
  int delay = 0;                           // from the Graphic Control Extension before an image
  while (true) {
    const size_t block_at = r.at();
    const unsigned kind = r.byte();
    if (kind == 0x3B) return g;  // the trailer
    if (kind == 0x21) {
      const unsigned label = r.byte();
      if (label == 0xF9) {
        if (r.byte() != 4)
          throw Error("a GIF frame's control block at byte " + std::to_string(block_at) + " is not 4 bytes");
        r.skip(1);
        delay = static_cast<int>(r.word());
        r.skip(1);
      }
      r.skip_sub_blocks();
    } else if (kind == 0x2C) {
      r.skip(8);                                 // left, top, width, height
      r.skip(colour_table_bytes(r.byte()) + 1);  // a local colour table, the LZW code size
      r.skip_sub_blocks();
      g.delays_cs.push_back(delay);
      delay = 0;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", kind);
      throw Error(std::string("unknown GIF block ") + hex + " at byte " + std::to_string(block_at));
    }
  }
}

GifInfo read_gif(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open " + file.string());
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    return parse_gif(bytes);
  } catch (const Error& e) {
    throw Error(file.string() + ": " + e.what());
  }
}

}  // namespace physarum::app
