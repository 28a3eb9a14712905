// .npy files: the bytes against the format specification (checked by hand here), round trips,
// refusal of malformed files, and a failed write on a full disk.
#include "sim/npy.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using test::read_file;
using test::temp_dir;
using test::write_file;

// What numpy 1.x writes for np.save of a float32 C-order array of h x w, without the data.
std::string header_of(int h, int w) {
  return test::npy_bytes("<f4", "(" + std::to_string(h) + ", " + std::to_string(w) + ")", nullptr, 0);
}

TEST(Npy, BytesFollowTheSpec) {
  const auto dir = temp_dir();
  const std::vector<float> data{1.0f, -2.5f, 0.0f, 3.25f, 1e-3f, 42.0f};  // 2 x 3
  write_npy(dir / "a.npy", data.data(), 2, 3);
  const std::string bytes = read_file(dir / "a.npy");
  const std::string header = header_of(2, 3);
  ASSERT_EQ(header.size(), 128u);  // 10 + 60 characters of dict + '\n' = 71, padded to 128
  ASSERT_EQ(bytes.size(), header.size() + data.size() * 4);
  EXPECT_EQ(bytes.substr(0, header.size()), header);
  // 1.0f little-endian is 00 00 80 3f.
  EXPECT_EQ(bytes.substr(header.size(), 4), std::string("\x00\x00\x80\x3f", 4));
  EXPECT_EQ(std::memcmp(bytes.data() + header.size(), data.data(), data.size() * 4), 0);
}

TEST(Npy, RoundTrips) {
  const auto dir = temp_dir();
  const int h = 37, w = 129;
  std::vector<float> data(static_cast<size_t>(h) * w);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.37f - 100.0f;
  write_npy(dir / "b.npy", data.data(), h, w);
  const NpyArray a = read_npy(dir / "b.npy");
  EXPECT_EQ(a.height, h);
  EXPECT_EQ(a.width, w);
  EXPECT_EQ(a.data, data);
  // The header length makes the data start at a multiple of 64 for large shapes too.
  const std::string bytes = read_file(dir / "b.npy");
  EXPECT_EQ((bytes.size() - data.size() * 4) % 64, 0u);
}

TEST(Npy, ReadsAHandWrittenFile) {
  const auto dir = temp_dir();
  // Another writer may order the keys differently and pad differently.
  std::string dict = "{'shape': (1, 2), 'fortran_order': False, 'descr': '<f4'}   \n";
  std::string bytes = "\x93NUMPY";
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(dict.size());
  bytes += '\x00';
  bytes += dict;
  const float v[2] = {0.5f, -1.0f};
  bytes.append(reinterpret_cast<const char*>(v), 8);
  write_file(dir / "c.npy", bytes);
  const NpyArray a = read_npy(dir / "c.npy");
  EXPECT_EQ(a.height, 1);
  EXPECT_EQ(a.width, 2);
  EXPECT_EQ(a.data, (std::vector<float>{0.5f, -1.0f}));
}

TEST(Npy, RefusesMalformedFiles) {
  const auto dir = temp_dir();
  const std::string good = header_of(2, 2) + std::string(16, '\0');
  const auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::pair<const char*, std::string> cases[] = {
      {"empty", ""},
      {"wrong magic", "\x93NUMPZ" + good.substr(6)},
      {"truncated data", good.substr(0, good.size() - 1)},
      {"trailing bytes", good + "x"},
      {"float64", replace("'<f4'", "'<f8'")},
      {"big-endian", replace("'<f4'", "'>f4'")},
      {"fortran order", replace("False", "True ")},
      {"three dimensions", replace("(2, 2), }", "(4,1,1),}")},
      {"version 9", replace(std::string("\x01\x00", 2), std::string("\x09\x00", 2))},
  };
  for (const auto& [name, bytes] : cases) {
    write_file(dir / "bad.npy", bytes);
    try {
      read_npy(dir / "bad.npy");
      ADD_FAILURE() << name << ": accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bad.npy"), std::string::npos) << name << ": " << e.what();
    }
  }
  EXPECT_THROW(read_npy(dir / "missing.npy"), Error);
}

TEST(Npy, WriteReportsAFullDisk) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  const std::vector<float> data(1000, 1.0f);
  try {
    write_npy("/dev/full", data.data(), 10, 100);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::exists("/dev/full"));
}

TEST(Npy, WriteReportsAMissingDirectory) {
  const auto dir = temp_dir();
  const float v = 1.0f;
  EXPECT_THROW(write_npy(dir / "no" / "such" / "x.npy", &v, 1, 1), Error);
}

}  // namespace
}  // namespace physarum
