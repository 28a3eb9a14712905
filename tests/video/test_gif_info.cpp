// Reading a GIF's frames and delays (video/gif_info.hpp), on GIFs built here byte by byte.
#include <gtest/gtest.h>

#include <string>

#include "sim/params.hpp"
#include "video/gif_info.hpp"

namespace physarum::app {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s += static_cast<char>(v);
  return s;
}

// 2x1, a global table of 2 colours, the loop block, then two frames: 4 cs, and 5 cs with a local
// table of 2 colours. The image data is two bytes in one sub-block (not decoded).
std::string two_frame_gif() {
  std::string g = "GIF89a" + bytes({2, 0, 1, 0, 0x80, 0, 0}) + bytes({0, 0, 0, 255, 255, 255});
  g += bytes({0x21, 0xFF, 11}) + "NETSCAPE2.0" + bytes({3, 1, 0, 0, 0});
  g += bytes({0x21, 0xF9, 4, 0, 4, 0, 0, 0});
  g += bytes({0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0});
  g += bytes({0x21, 0xF9, 4, 0, 5, 0, 0, 0});
  g += bytes({0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0x80, 1, 2, 3, 4, 5, 6, 2, 2, 0x44, 0x01, 0});
  return g + bytes({0x3B});
}

TEST(GifInfo, FramesAndDelaysOfAHandMadeGif) {
  const GifInfo g = parse_gif(two_frame_gif());
  EXPECT_EQ(g.width, 2);
  EXPECT_EQ(g.height, 1);
  ASSERT_EQ(g.frames(), 2u);
  EXPECT_EQ(g.delays_cs[0], 4);
  EXPECT_EQ(g.delays_cs[1], 5);
  EXPECT_EQ(g.total_cs(), 9);
  EXPECT_DOUBLE_EQ(g.fps(), 200.0 / 9.0);  // two frames in 0.09 s
}

TEST(GifInfo, ACutShortOrUnknownFileIsRefusedSayingWhere) {
  const std::string g = two_frame_gif();
  EXPECT_THROW(parse_gif(g.substr(0, g.size() - 4)), Error);
  try {
    parse_gif(g.substr(0, 19) + bytes({0x99}));  // after the header, screen and colour table
    FAIL() << "an unknown block was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0x99 at byte 19"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_gif("PNG not a gif"), Error);
}

}  // namespace
}  // namespace physarum::app
