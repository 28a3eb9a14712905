// Point data: CSV and .npy read into the same points, each refusal naming the file, the place and
// the value, and fits into voxels worked out by hand (docs/MODEL.md, "Point data").
#include "sim/points.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "sim/npy.hpp"
#include "sim/params.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using test::error_of;
using test::npy_bytes;
using test::temp_dir;
using test::write_file;

template <class T>
std::string npy_of(const std::vector<T>& values, int columns) {
  // Built piecewise: GCC 12 warns falsely (-Wrestrict) about "(" + std::string.
  std::string shape(1, '(');
  shape.append(std::to_string(values.size() / columns)).append(", ").append(std::to_string(columns)) += ')';
  return npy_bytes(sizeof(T) == 4 ? "<f4" : "<f8", shape, values.data(), values.size() * sizeof(T));
}

// Each refusal names the file and the place; `parts` must all appear in the message.
void expect_refused(const std::filesystem::path& file, const std::vector<std::string>& parts) {
  const std::string e = error_of([&] { read_points(file); });
  ASSERT_FALSE(e.empty()) << file << " was read";
  EXPECT_NE(e.find(file.filename().string()), std::string::npos) << e;
  for (const std::string& p : parts) EXPECT_NE(e.find(p), std::string::npos) << "'" << p << "' not in: " << e;
}

const std::vector<Point> kFour{{0.5, -1.25, 300, 1}, {2, 1e-3, -4.5, 2.5}, {-7, 0, 1e6, 0}, {1, 2, 3, 1}};

TEST(Points, CsvReadsHeaderCommentsBlankLinesAndExponents) {
  const auto dir = temp_dir();
  write_file(dir / "a.csv",
             "\xEF\xBB\xBF# a catalogue\r\n X , Y ,Z,Weight\r\n\r\n0.5,-1.25,3e2,1\n"
             "  +2, 1E-3 ,-4.5,\"2.5\"\n# between\n\t\n-7,0,1e+06,0\n1,2,3,1");  // no newline at the end
  EXPECT_EQ(read_points(dir / "a.csv"), kFour);
  write_file(dir / "b.csv", "1,2,3\n4.5,5,6\n");
  EXPECT_EQ(read_points(dir / "b.csv"), (std::vector<Point>{{1, 2, 3, 1}, {4.5, 5, 6, 1}}));
  write_file(dir / "c.csv", "x,y,z\n1,2,3\n");
  EXPECT_EQ(read_points(dir / "c.csv"), (std::vector<Point>{{1, 2, 3, 1}}));
}

TEST(Points, NpyFloat32AndFloat64GiveTheCsvPoints) {
  const auto dir = temp_dir();
  std::vector<double> f64;
  std::vector<float> f32;
  for (const Point& p : kFour) {
    f64.insert(f64.end(), {p.x, p.y, p.z, p.weight});
    // float32 holds these coordinates only where they are binary fractions: 1e-3 is not one.
    f32.insert(f32.end(), {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z)});
  }
  write_file(dir / "a.npy", npy_of(f64, 4));
  EXPECT_EQ(read_points(dir / "a.npy"), kFour);
  write_file(dir / "b.npy", npy_of(f32, 3));
  const std::vector<Point> b = read_points(dir / "b.npy");
  ASSERT_EQ(b.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(b[i].x, static_cast<double>(static_cast<float>(kFour[i].x)));
    EXPECT_EQ(b[i].y, static_cast<double>(static_cast<float>(kFour[i].y)));
    EXPECT_EQ(b[i].z, static_cast<double>(static_cast<float>(kFour[i].z)));
    EXPECT_EQ(b[i].weight, 1.0f);
  }
  // Told apart by the magic, whatever the name.
  write_file(dir / "c.dat", npy_of(f64, 4));
  EXPECT_EQ(read_points(dir / "c.dat"), kFour);
}

// Coverage of the chunked reading (a chunk is 1 MiB of CSV, 16384 rows of .npy): 100K random
// points written with the shortest exact decimal read back bit for bit in both formats.
TEST(Points, HundredThousandPointsReadBackExactly) {
  const auto dir = temp_dir();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1e5, 1e5);
  std::vector<Point> points(100000);
  std::vector<double> table;
  std::string csv = "x,y,z,weight\n";
  for (Point& p : points) {
    p = {u(rng), u(rng) * 1e-9, u(rng) * 1e20, static_cast<float>(std::abs(u(rng)))};
    table.insert(table.end(), {p.x, p.y, p.z, p.weight});
    for (const double v : {p.x, p.y, p.z, static_cast<double>(p.weight)}) {
      char buf[32];
      csv.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
      csv += ',';
    }
    csv.back() = '\n';
  }
  write_file(dir / "a.csv", csv);
  write_file(dir / "a.npy", npy_of(table, 4));
  EXPECT_EQ(read_points(dir / "a.csv"), points);
  EXPECT_EQ(read_points(dir / "a.npy"), points);
}

TEST(Points, BadCsvFilesAreRefusedNamingLineAndValue) {
  const auto dir = temp_dir();
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {"", {"is empty"}},
      {"# nothing\n\n", {"no points"}},
      {"x,y,z,weight\n", {"no points"}},
      {"1,2,3\n1,nan,3\n", {"line 2", "y = nan", "not finite"}},
      {"1,2,3\n1,2,-inf\n", {"line 2", "z = -inf", "not finite"}},
      {"1,2,3,1\n1,2,3,-0.5\n", {"line 2", "weight -0.5", "negative"}},
      {"1,2,3,1e39\n", {"line 1", "weight 1e+39", "beyond a float"}},
      {"1,2,3,nan\n", {"line 1", "weight = nan"}},
      {"1,2\n", {"line 1", "2 columns"}},
      {"1,2,3,4,5\n", {"line 1", "5 columns"}},
      {"1,2,3\n1,2,3,4\n", {"line 2", "4 columns, expected 3 as the first line had"}},
      {"x,y,z\n1,2,3,4\n", {"line 2", "4 columns, expected 3 as the header says"}},
      {"x,y,z\n\n1,2,abc\n", {"line 3", "z 'abc' is not a number"}},
      {"1,2,3\n1,2,3x\n", {"line 2", "'3x' is not a number"}},
      {"1,2,3\n1,1e400,3\n", {"line 2", "y '1e400' is beyond a double"}},
      {"lon,lat,dist\n1,2,3\n", {"line 1", "header names other columns", "'lon'"}},
      {"\x1b[2J,y,z\n", {"line 1", "'\\x1b[2J'"}},  // printed as an escape, not to the terminal
      {"x,y,z\nx,y,z\n", {"line 2", "x 'x' is not a number"}},
      {"1,2,3\n" + std::string(5000, '1') + ",2,3\n", {"longer than 4096 bytes"}},
  };
  int i = 0;
  for (const auto& [text, parts] : cases) {
    const auto file = dir / ("bad" + std::to_string(i++) + ".csv");
    write_file(file, text);
    SCOPED_TRACE(text.substr(0, 60));
    expect_refused(file, parts);
  }
}

TEST(Points, BadNpyFilesAreRefusedNamingRowAndValue) {
  const auto dir = temp_dir();
  const std::vector<double> nan_row{1, 2, 3, 4, 5, NAN};
  const std::vector<double> negative{1, 2, 3, 1, 4, 5, 6, -2};
  const std::vector<float> two_columns{1, 2, 3, 4};
  const std::vector<int32_t> ints{1, 2, 3};
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {npy_of(nan_row, 3), {"row 1 (from 0)", "z = nan"}},
      {npy_of(negative, 4), {"row 1 (from 0)", "weight -2 is negative"}},
      {npy_of(two_columns, 2), {"shape (2, 2) has 2 columns, expected 3 to 4"}},
      {npy_bytes("<f4", "(1, 1, 3)", ints.data(), 12), {"shape (1, 1, 3) has 3 dimensions"}},
      {npy_bytes("<i4", "(1, 3)", ints.data(), 12), {"dtype '<i4'"}},
      {npy_bytes(">f4", "(1, 3)", ints.data(), 12), {"dtype '>f4'"}},
      {npy_bytes("<f4", "(0, 3)", nullptr, 0), {"no points"}},
      {npy_bytes("<f4", "(2, 3)", ints.data(), 12), {"size", "for 2 rows of 3"}},
      {npy_bytes("<f8", "(100000001, 3)", nullptr, 0), {"100000001 rows, at most 100000000"}},
      {std::string("\x93NUMPY\x01", 7), {"too short"}},
  };
  int i = 0;
  for (const auto& [bytes, parts] : cases) {
    const auto file = dir / ("bad" + std::to_string(i++) + ".npy");
    write_file(file, bytes);
    SCOPED_TRACE(i);
    expect_refused(file, parts);
  }
}

TEST(Points, FilesThatAreNotRegularOrTooLargeAreRefused) {
  const auto dir = temp_dir();
  expect_refused(dir / "missing.csv", {"cannot open points"});
  std::filesystem::create_directory(dir / "d.csv");
  expect_refused(dir / "d.csv", {"points"});
  // A sparse file: as large as its length says, without the disk.
  write_file(dir / "huge.csv", "1,2,3\n");
  ASSERT_EQ(::truncate((dir / "huge.csv").c_str(), static_cast<off_t>(kMaxPointsFileBytes) + 1), 0);
  expect_refused(dir / "huge.csv", {"2147483649 bytes"});
}

uint64_t index_of(int x, int y, int z, Size s) {
  return (static_cast<uint64_t>(z) * s.height + y) * s.width + x;
}

TEST(FitPoints, CubeCornersLandOnTheCornerVoxels) {
  std::vector<Point> corners;
  std::vector<VoxelFood> expected;
  const Size size{4, 4, 4};
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        corners.push_back({-10.0 + 7 * i, 100.0 + 7 * j, 0.25 + 7 * k, 1.0f + i + 2 * j + 4 * k});
        expected.push_back({index_of(3 * i, 3 * j, 3 * k, size), 1.0f + i + 2 * j + 4 * k});
      }
    }
  }
  std::reverse(corners.begin(), corners.end());  // the output is sorted by voxel whatever the order
  const FittedPoints f = fit_points(corners, size);
  EXPECT_EQ(f.food, expected);
  EXPECT_EQ(f.kept, 8);
  EXPECT_EQ(f.dropped, 0);
}

// x spans 10, y spans 2, z is flat: x limits the scale to 7/10 voxel per unit in an 8^3 volume (its
// extremes on the centres of voxels 0 and 7, half a voxel in), y's extremes fall 0.7 voxel either
// side of the middle (4 -/+ 0.7: voxels 3 and 4), z in the middle. x = 1 and 9 are 4 -/+ 2.8 (voxels
// 1 and 6), where a fit without the margin (8/10 voxel per unit) would give 0 and 7.
TEST(FitPoints, AFlatSetKeepsItsAspectCentred) {
  const std::vector<Point> plane{{0, 0, 5}, {10, 0, 5}, {0, 2, 5}, {10, 2, 5},
                                 {5, 1, 5}, {1, 1, 5},  {9, 1, 5}};
  const Size size{8, 8, 8};
  const FittedPoints f = fit_points(plane, size);
  const std::vector<VoxelFood> expected{{index_of(0, 3, 4, size), 1}, {index_of(7, 3, 4, size), 1},
                                        {index_of(0, 4, 4, size), 1}, {index_of(1, 4, 4, size), 1},
                                        {index_of(4, 4, 4, size), 1}, {index_of(6, 4, 4, size), 1},
                                        {index_of(7, 4, 4, size), 1}};
  EXPECT_EQ(f.food, expected);
}

TEST(FitPoints, OnePointOrOneValueLandsInTheMiddleVoxel) {
  const Size odd{5, 6, 7};
  EXPECT_EQ(fit_points(std::vector<Point>{{1e9, -3, 0.5, 2}}, odd).food,
            (std::vector<VoxelFood>{{index_of(2, 3, 3, odd), 2}}));
  const std::vector<Point> same(3, Point{1, 1, 1, 0.5f});
  EXPECT_EQ(fit_points(same, odd).food, (std::vector<VoxelFood>{{index_of(2, 3, 3, odd), 1.5f}}));
  // A volume one voxel deep: z does not limit the scale, and every z lands in its one layer.
  const Size thin{4, 4, 1};
  EXPECT_EQ(fit_points(std::vector<Point>{{0, 0, 0}, {3, 3, 100}}, thin).food,
            (std::vector<VoxelFood>{{index_of(0, 0, 0, thin), 1}, {index_of(3, 3, 0, thin), 1}}));
}

TEST(FitPoints, PointsInOneVoxelSumTheirWeightsInDouble) {
  // The box [0, 3]^3 at one voxel per unit: a voxel coordinate is p + 0.5.
  const std::vector<Point> points{{0, 0, 0, 0.25f}, {3, 3, 3, 1}, {0.1, 0.4, 0.2, 2}};
  EXPECT_EQ(fit_points(points, {4, 4, 4}).food, (std::vector<VoxelFood>{{0, 2.25f}, {63, 1}}));
  // Summed in float one after another, 2^24 + 1 + 1 would stay 2^24.
  const std::vector<Point> big{{0, 0, 0, 16777216.0f}, {0, 0, 0, 1}, {0, 0, 0, 1}};
  EXPECT_EQ(fit_points(big, {2, 2, 2}).food.at(0).weight, 16777218.0f);
}

TEST(FitPoints, ABoxFillsTheVolumeAndCountsWhatItDrops) {
  // x from 0 to 8 and y, z from 0 to 4 onto 4^3: two units a voxel along x, one along y and z.
  const Box3 box{{0, 0, 0}, {8, 4, 4}};
  const std::vector<Point> points{{0.5, 0.5, 0.5}, {8, 4, 4},   {7.9, 0, 0}, {-0.1, 1, 1},
                                  {1, 1, 4.01},    {3.9, 2, 3}, {1, -1, 1}};
  const Size size{4, 4, 4};
  const FittedPoints f = fit_points(points, size, box);
  EXPECT_EQ(f.kept, 4);
  EXPECT_EQ(f.dropped, 3);
  EXPECT_EQ(f.food, (std::vector<VoxelFood>{{index_of(0, 0, 0, size), 1},
                                            {index_of(3, 0, 0, size), 1},
                                            {index_of(1, 2, 3, size), 1},
                                            {index_of(3, 3, 3, size), 1}}));
  const FittedPoints none = fit_points(points, size, Box3{{100, 100, 100}, {101, 101, 101}});
  EXPECT_TRUE(none.food.empty());
  EXPECT_EQ(none.dropped, 7);
}

TEST(FitPoints, BadInputIsRefusedNamingTheValue) {
  const std::vector<Point> ok{{0, 0, 0}, {1, 1, 1}};
  EXPECT_NE(error_of([&] { fit_points(ok, {4, 0, 4}); }).find("4x0x4"), std::string::npos);
  EXPECT_NE(error_of([&] {
              fit_points(ok, {1 << 30, 1 << 30, 1 << 30});
            }).find("more voxels"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              fit_points(ok, {4, 4, 4}, Box3{{0, 2, 0}, {1, 2, 1}});
            }).find("y from 2 to 2"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              fit_points(ok, {4, 4, 4}, Box3{{0, 0, NAN}, {1, 1, 1}});
            }).find("z from nan to 1"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              fit_points(ok, {4, 4, 4}, Box3{{-1e308, 0, 0}, {1e308, 1, 1}});
            }).find("wider"),
            std::string::npos);
  const std::vector<Point> wide{{-1e308, 0, 0}, {1e308, 0, 0}};
  EXPECT_NE(error_of([&] {
              fit_points(wide, {4, 4, 4});
            }).find("x from -1e+308 to 1e+308"),
            std::string::npos);
  const std::vector<Point> bad{{0, 0, 0}, {0, INFINITY, 0}};
  EXPECT_NE(error_of([&] {
              fit_points(bad, {4, 4, 4});
            }).find("point 1 (from 0): y = inf"),
            std::string::npos);
  const std::vector<Point> heavy(3, Point{0, 0, 0, 3e38f});
  EXPECT_NE(error_of([&] { fit_points(heavy, {4, 4, 4}); }).find("beyond a float"), std::string::npos);
}

// 100K random points against a map summed point by point: the sorted, merged list is the same.
TEST(FitPoints, RandomPointsMatchAVoxelByVoxelSum) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g(0, 30);
  std::vector<Point> points(100000);
  for (Point& p : points) p = {g(rng), 2 * g(rng), 0.5 * g(rng), static_cast<float>(rng() % 1000) / 64.0f};
  const Size size{33, 64, 17};
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const Point& p : points) {
    const double c[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], c[a]), hi[a] = std::max(hi[a], c[a]);
  }
  const int n[3] = {size.width, size.height, size.depth};
  double scale = INFINITY;
  for (int a = 0; a < 3; ++a) scale = std::min(scale, (n[a] - 1) / (hi[a] - lo[a]));
  std::map<uint64_t, double> sums;
  for (const Point& p : points) {
    const double c[3] = {p.x, p.y, p.z};
    int v[3];
    for (int a = 0; a < 3; ++a) {
      v[a] = static_cast<int>(std::floor((c[a] - (lo[a] + 0.5 * (hi[a] - lo[a]))) * scale + 0.5 * n[a]));
      ASSERT_GE(v[a], 0);
      ASSERT_LT(v[a], n[a]);
    }
    sums[index_of(v[0], v[1], v[2], size)] += p.weight;  // weights are multiples of 1/64: sums are exact
  }
  std::vector<VoxelFood> expected;
  for (const auto& [voxel, sum] : sums) expected.push_back({voxel, static_cast<float>(sum)});
  const FittedPoints f = fit_points(points, size);
  EXPECT_EQ(f.food, expected);
  EXPECT_EQ(f.kept, 100000);
}

}  // namespace
}  // namespace physarum
