// Seed images: good PNG and JPEG files (written here with stb_image_write or by hand) load with
// the luminance computed independently below; malformed ones are refused with a message naming the
// file; resizing keeps constants constant and places the image as Fit / Fill promise.
#include "sim/image.hpp"

#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace physarum {
namespace {

using test::read_file;
using test::temp_dir;
using test::write_file;

// Rec. 709 weights on the encoded sRGB values in [0, 1], computed in double.
double luma709(double r, double g, double b) {
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0;
}

std::string error_of(const std::filesystem::path& file) {
  try {
    load_luma(file);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// --- A minimal PNG writer (stored deflate blocks), for what stb_image_write cannot write: 16-bit
// samples and headers that lie.
uint32_t crc32(const std::string& bytes) {
  uint32_t c = 0xffffffffu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return c ^ 0xffffffffu;
}

void put32(std::string& s, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((v >> shift) & 0xff);
}

std::string chunk(const std::string& type, const std::string& data) {
  std::string out;
  put32(out, static_cast<uint32_t>(data.size()));
  const std::string body = type + data;
  out += body;
  put32(out, crc32(body));
  return out;
}

std::string zlib_stored(const std::string& raw) {
  std::string z = "\x78\x01";
  size_t pos = 0;
  do {
    const size_t n = std::min<size_t>(65535, raw.size() - pos);
    const bool last = pos + n == raw.size();
    z += static_cast<char>(last ? 1 : 0);
    z += static_cast<char>(n & 0xff);
    z += static_cast<char>(n >> 8);
    z += static_cast<char>(~n & 0xff);
    z += static_cast<char>((~n >> 8) & 0xff);
    z += raw.substr(pos, n);
    pos += n;
  } while (pos < raw.size());
  uint32_t a = 1, b = 0;  // Adler-32
  for (unsigned char ch : raw) {
    a = (a + ch) % 65521;
    b = (b + a) % 65521;
  }
  put32(z, (b << 16) | a);
  return z;
}

std::string ihdr(uint32_t w, uint32_t h, int depth, int color_type) {
  std::string d;
  put32(d, w);
  put32(d, h);
  d += static_cast<char>(depth);
  d += static_cast<char>(color_type);
  d += std::string(3, '\0');  // compression, filter, interlace
  return d;
}

const std::string kPngSignature("\x89PNG\r\n\x1a\n", 8);

// 16-bit greyscale PNG of w x h samples, rows unfiltered.
std::string png16_gray(int w, int h, const std::vector<uint16_t>& samples) {
  std::string raw;
  for (int y = 0; y < h; ++y) {
    raw += '\0';
    for (int x = 0; x < w; ++x) {
      const uint16_t v = samples[static_cast<size_t>(y) * w + x];
      raw += static_cast<char>(v >> 8);
      raw += static_cast<char>(v & 0xff);
    }
  }
  return kPngSignature + chunk("IHDR", ihdr(w, h, 16, 0)) + chunk("IDAT", zlib_stored(raw)) +
         chunk("IEND", "");
}

// An RGB test pattern with distinct channels so that swapped weights would show.
std::vector<unsigned char> pattern(int w, int h, int comp) {
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * comp);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      unsigned char* p = &px[(static_cast<size_t>(y) * w + x) * comp];
      const unsigned char v[4] = {
          static_cast<unsigned char>(x * 37 + y * 11), static_cast<unsigned char>(255 - x * 13),
          static_cast<unsigned char>(y * 29 + 7), static_cast<unsigned char>(60 + x * 20)};
      for (int k = 0; k < comp; ++k) p[k] = v[k];
    }
  }
  return px;
}

double expected_luma(const unsigned char* p, int comp) {
  switch (comp) {
    case 1: return p[0] / 255.0;
    case 2: return (p[0] / 255.0) * (p[1] / 255.0);
    case 3: return luma709(p[0], p[1], p[2]);
    default: return luma709(p[0], p[1], p[2]) * (p[3] / 255.0);
  }
}

TEST(Image, LosslessFormatsLoadWithRec709Luma) {
  const auto dir = temp_dir();
  const int w = 6, h = 5;
  struct Case {
    const char* name;
    int comp;
    int (*write)(const char*, int, int, int, const void*);
  };
  const auto png = [](const char* f, int ww, int hh, int c, const void* d) {
    return stbi_write_png(f, ww, hh, c, d, 0);
  };
  const Case cases[] = {
      {"g1.png", 1, png},
      {"ga.png", 2, png},
      {"rgb.png", 3, png},
      {"rgba.png", 4, png},
  };
  for (const Case& c : cases) {
    const auto px = pattern(w, h, c.comp);
    const auto file = dir / c.name;
    ASSERT_TRUE(c.write(file.c_str(), w, h, c.comp, px.data())) << c.name;
    const LumaImage img = load_luma(file);
    ASSERT_EQ(img.width, w) << c.name;
    ASSERT_EQ(img.height, h) << c.name;
    ASSERT_EQ(img.luma.size(), static_cast<size_t>(w * h)) << c.name;
    for (int i = 0; i < w * h; ++i) {
      EXPECT_NEAR(img.luma[i], expected_luma(&px[static_cast<size_t>(i) * c.comp], c.comp), 1e-6)
          << c.name << " pixel " << i;
    }
  }
}

TEST(Image, JpegLoadsCloseToTheSourceColour) {
  // JPEG is lossy; a flat colour survives within a few levels.
  const auto dir = temp_dir();
  const int w = 16, h = 16;
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < px.size(); i += 3) {
    px[i] = 200;
    px[i + 1] = 120;
    px[i + 2] = 40;
  }
  const auto file = dir / "flat.jpg";
  ASSERT_TRUE(stbi_write_jpg(file.c_str(), w, h, 3, px.data(), 95));
  const LumaImage img = load_luma(file);
  ASSERT_EQ(img.width, w);
  ASSERT_EQ(img.height, h);
  for (float v : img.luma) EXPECT_NEAR(v, luma709(200, 120, 40), 4.0 / 255.0);
}

TEST(Image, SixteenBitPngKeepsItsPrecision) {
  const auto dir = temp_dir();
  const std::vector<uint16_t> samples{0, 1, 32768, 65535, 12345, 54321};
  write_file(dir / "g16.png", png16_gray(3, 2, samples));
  const LumaImage img = load_luma(dir / "g16.png");
  ASSERT_EQ(img.width, 3);
  ASSERT_EQ(img.height, 2);
  for (size_t i = 0; i < samples.size(); ++i) EXPECT_NEAR(img.luma[i], samples[i] / 65535.0, 1e-7) << i;
  // 1/65535 is distinguishable from 0: the file was not reduced to 8 bits.
  EXPECT_GT(img.luma[1], 0.0f);
  EXPECT_LT(img.luma[1], 1.0f / 255.0f);
}

// The BMP, GIF and TGA decoders of stb_image read past buffers and decode bombs on hostile files;
// only PNG and JPEG (hardened Debian libraries) are taken, and the message says so.
TEST(Image, OtherFormatsAreRefusedSayingWhichAreAccepted) {
  const auto dir = temp_dir();
  const auto px = pattern(4, 3, 3);
  ASSERT_TRUE(stbi_write_bmp((dir / "x.bmp").c_str(), 4, 3, 3, px.data()));
  ASSERT_TRUE(stbi_write_tga((dir / "x.tga").c_str(), 4, 3, 3, px.data()));
  write_file(dir / "x.gif", std::string("GIF89a\x01\x00\x01\x00\x80\x00\x00", 13));
  for (const char* name : {"x.bmp", "x.tga", "x.gif"}) {
    const std::string msg = error_of(dir / name);
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
    EXPECT_NE(msg.find("only PNG and JPEG"), std::string::npos) << name << ": " << msg;
  }
  EXPECT_NE(error_of(dir / "x.bmp").find("BMP"), std::string::npos);
  EXPECT_NE(error_of(dir / "x.gif").find("GIF"), std::string::npos);
}

std::string jpeg_of(const std::filesystem::path& dir, int w, int h) {
  const auto px = pattern(w, h, 3);
  EXPECT_TRUE(stbi_write_jpg((dir / "src.jpg").c_str(), w, h, 3, px.data(), 90));
  return read_file(dir / "src.jpg");
}

// A few hundred bytes claiming 16000 x 16000 pixels: exactly the pixel limit, so only the check
// against what a file of that length can hold stops the decoder from allocating a gigabyte and
// working through it.
TEST(Image, TinyFilesClaimingHugeSizesAreRefusedBeforeDecoding) {
  const auto dir = temp_dir();
  write_file(dir / "bomb.png", kPngSignature + chunk("IHDR", ihdr(16000, 16000, 8, 0)) +
                                   chunk("IDAT", zlib_stored(std::string(16001, '\0'))) + chunk("IEND", ""));
  std::string jpeg = jpeg_of(dir, 8, 8);
  const size_t sof = jpeg.find("\xff\xc0");  // baseline start of frame: length, precision, height, width
  ASSERT_NE(sof, std::string::npos);
  for (size_t k : {sof + 5, sof + 7}) {
    jpeg[k] = static_cast<char>(16000 >> 8);
    jpeg[k + 1] = static_cast<char>(16000 & 0xff);
  }
  write_file(dir / "bomb.jpg", jpeg);
  for (const char* name : {"bomb.png", "bomb.jpg"}) {
    const std::string msg = error_of(dir / name);
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
    EXPECT_NE(msg.find("16000x16000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("can hold"), std::string::npos) << msg;
  }
}

// Every accepted format refuses a file cut short, even by its last bytes, and says the real reason.
TEST(Image, TruncatedFilesAreRefusedWithTheRealReason) {
  const auto dir = temp_dir();
  const auto px = pattern(40, 30, 3);
  ASSERT_TRUE(stbi_write_png((dir / "src.png").c_str(), 40, 30, 3, px.data(), 0));
  const std::string png = read_file(dir / "src.png");
  const std::string jpeg = jpeg_of(dir, 40, 30);
  ASSERT_NO_THROW(load_luma(dir / "src.png"));
  write_file(dir / "src.jpg", jpeg);
  ASSERT_NO_THROW(load_luma(dir / "src.jpg"));
  const std::pair<std::string, std::string> cases[] = {
      {"half.png", png.substr(0, png.size() / 2)},
      {"no-iend.png", png.substr(0, png.size() - 12)},
      {"half.jpg", jpeg.substr(0, jpeg.size() / 2)},
      {"no-eoi.jpg", jpeg.substr(0, jpeg.size() - 2)},
      {"header-only.jpg", jpeg.substr(0, jpeg.find("\xff\xda") + 4)},
  };
  for (const auto& [name, bytes] : cases) {
    write_file(dir / name, bytes);
    const std::string msg = error_of(dir / name);
    EXPECT_NE(msg.find(name), std::string::npos) << name << ": " << (msg.empty() ? "accepted" : msg);
    const bool is_jpeg = name.ends_with(".jpg");
    EXPECT_NE(msg.find(is_jpeg ? "not a valid JPEG" : "not a valid PNG"), std::string::npos) << msg;
    if (is_jpeg) {
      EXPECT_EQ(msg.find("png sig"), std::string::npos) << msg;  // stb_image said "bad png sig"
    }
  }
}

// Only regular files: a FIFO would block forever, a device reads without end, a directory is not
// an image. The test keeps the FIFO open for writing so that opening it cannot block.
TEST(Image, SpecialFilesAreRefusedAsNotRegular) {
  const auto dir = temp_dir();
  const auto fifo = dir / "pipe.png";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int keep = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(keep, 0);
  const std::string msg = error_of(fifo);
  ::close(keep);
  EXPECT_NE(msg.find("FIFO"), std::string::npos) << msg;
  EXPECT_NE(msg.find("only regular files"), std::string::npos) << msg;
  EXPECT_NE(error_of("/dev/zero").find("character device"), std::string::npos) << error_of("/dev/zero");
  EXPECT_NE(error_of(dir).find("a directory"), std::string::npos) << error_of(dir);
}

TEST(Image, MalformedFilesAreRefusedNamingTheFile) {
  const auto dir = temp_dir();
  // A good, incompressible PNG to damage.
  const int w = 64, h = 64;
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * 3);
  uint32_t s = 12345;
  for (auto& p : px) {
    s = s * 1664525u + 1013904223u;
    p = static_cast<unsigned char>(s >> 24);
  }
  ASSERT_TRUE(stbi_write_png((dir / "good.png").c_str(), w, h, 3, px.data(), 0));
  const std::string good = read_file(dir / "good.png");
  ASSERT_NO_THROW(load_luma(dir / "good.png"));

  std::string wrong_magic = good;
  wrong_magic[1] = 'Q';
  const std::pair<std::string, std::string> cases[] = {
      {"truncated.png", good.substr(0, good.size() / 2)},
      {"header-only.png", good.substr(0, 33)},
      {"wrong-magic.png", wrong_magic},
      {"empty.png", ""},
      {"text.png", "this is not an image\n"},
      {"huge.png", kPngSignature + chunk("IHDR", ihdr(100000, 100000, 8, 0)) +
                       chunk("IDAT", zlib_stored(std::string(100001, '\0'))) + chunk("IEND", "")},
      // Sides near 2^32: their product overflows 64 bits; each side alone is already too large.
      {"overflow.png",
       kPngSignature + chunk("IHDR", ihdr(0xffffffffu, 0xfffffffeu, 8, 0)) + chunk("IEND", "")},
      {"zero-width.png", kPngSignature + chunk("IHDR", ihdr(0, 10, 8, 0)) + chunk("IEND", "")},
  };
  for (const auto& [name, bytes] : cases) {
    write_file(dir / name, bytes);
    const std::string msg = error_of(dir / name);
    EXPECT_NE(msg.find(name), std::string::npos) << name << ": " << (msg.empty() ? "accepted" : msg);
  }
  EXPECT_NE(error_of(dir / "huge.png").find("megapixels"), std::string::npos) << error_of(dir / "huge.png");
  EXPECT_NE(error_of(dir / "overflow.png").find("4294967295x4294967294"), std::string::npos)
      << error_of(dir / "overflow.png");
  EXPECT_NE(error_of(dir / "empty.png").find("empty"), std::string::npos) << error_of(dir / "empty.png");
  EXPECT_NE(error_of(dir / "missing.png").find("missing.png"), std::string::npos);
  EXPECT_NE(error_of(dir).find(dir.string()), std::string::npos);  // a directory
}

// stb_image was compiled into the program a second time (third_party/stb_impl.cpp) beside Debian's
// libstb that ImGui links, and decoded untrusted files. Its error strings ("bad png sig") sit in the
// executable exactly when its implementation is compiled in; now the only copy is libstb's, and
// the program never calls its decoder.
TEST(ImageE2e, TheProgramHoldsNoCopyOfStbImage) {
  const std::string exe = read_file(PHYSARUM_EXE);
  ASSERT_GT(exe.size(), 100000u);
  EXPECT_EQ(exe.find("bad png sig"), std::string::npos);
  EXPECT_EQ(exe.find("stbi_load_from_memory"), std::string::npos);
}

TEST(Image, ResizingAConstantImageIsConstant) {
  LumaImage img;
  img.width = 37;
  img.height = 23;
  img.luma.assign(37 * 23, 0.6f);
  for (const Size field : {Size{64, 48}, Size{10, 7}, Size{37, 23}, Size{200, 20}}) {
    const auto f = image_to_field(img, field, 2.0f, ImageFit::Fill);
    ASSERT_EQ(f.size(), static_cast<size_t>(field.width * field.height));
    for (float v : f) ASSERT_NEAR(v, 1.2f, 1e-5) << field.width << "x" << field.height;
  }
}

TEST(Image, FitLetterboxesWithZeros) {
  LumaImage img;  // 2:1 into a square: a band of rows in the middle
  img.width = 100;
  img.height = 50;
  img.luma.assign(100 * 50, 0.5f);
  const auto f = image_to_field(img, {64, 64}, 3.0f, ImageFit::Fit);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const float expected = (y >= 16 && y < 48) ? 1.5f : 0.0f;
      ASSERT_NEAR(f[static_cast<size_t>(y) * 64 + x], expected, 1e-5) << x << "," << y;
    }
  }
}

TEST(Image, FillCropsTheCentre) {
  // 100x50, left half dark, right half bright, into 50x50: Fill shows columns 25..74 of the image,
  // so the dark/bright edge falls in the middle of the field.
  LumaImage img;
  img.width = 100;
  img.height = 50;
  img.luma.resize(100 * 50);
  for (int y = 0; y < 50; ++y) {
    for (int x = 0; x < 100; ++x) img.luma[static_cast<size_t>(y) * 100 + x] = x < 50 ? 0.0f : 1.0f;
  }
  const auto f = image_to_field(img, {50, 50}, 1.0f, ImageFit::Fill);
  for (int y = 0; y < 50; ++y) {
    for (int x = 0; x < 50; ++x) {
      const float v = f[static_cast<size_t>(y) * 50 + x];
      if (x < 23) {
        ASSERT_NEAR(v, 0.0f, 1e-5) << x << "," << y;
      }
      if (x > 26) {
        ASSERT_NEAR(v, 1.0f, 1e-5) << x << "," << y;
      }
      ASSERT_GE(v, 0.0f);
      ASSERT_LE(v, 1.0f);
    }
  }
}

TEST(Image, DownscalingKeepsTheMean) {
  // A smooth gradient halved in size keeps its average brightness (the filter is normalised).
  LumaImage img;
  img.width = 128;
  img.height = 64;
  img.luma.resize(128 * 64);
  double mean_in = 0;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 128; ++x) {
      const float v = static_cast<float>(x) / 127.0f;
      img.luma[static_cast<size_t>(y) * 128 + x] = v;
      mean_in += v;
    }
  }
  mean_in /= 128.0 * 64.0;
  const auto f = image_to_field(img, {64, 32}, 1.0f, ImageFit::Fill);
  double mean_out = 0;
  for (float v : f) mean_out += v;
  mean_out /= static_cast<double>(f.size());
  EXPECT_NEAR(mean_out, mean_in, 2e-3);
}

}  // namespace
}  // namespace physarum
