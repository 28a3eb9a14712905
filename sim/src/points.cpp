// Point data: a CSV read line by line in chunks (a million points in well under a second, never the
// whole file in memory next to the points), a .npy through the table reader of sim/npy.cpp, and the
// fit into voxels by one affine map per axis.
#include "sim/points.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

#include "sim/input_file.hpp"
#include "sim/npy.hpp"
#include "sim/params.hpp"
#include "sim/text.hpp"

namespace physarum {
namespace {

constexpr std::array<const char*, 4> kColumns{"x", "y", "z", "weight"};
// Longer lines are not points: refusing them bounds the memory a line without an end can take.
constexpr size_t kMaxLine = 4096;

std::string shortest(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// The checks every point passes, from either format; `where()` says "'a.csv': line 7" or the like,
// built only for a message.
template <class Where>
void check_point(const std::array<double, 4>& v, int columns, const Where& where) {
  for (int c = 0; c < columns; ++c) {
    if (!std::isfinite(v[c])) {
      throw Error(where() + ": " + kColumns[c] + " = " + shortest(v[c]) + " is not finite");
    }
  }
  if (v[3] < 0) throw Error(where() + ": weight " + shortest(v[3]) + " is negative");
  if (v[3] > std::numeric_limits<float>::max()) {
    throw Error(where() + ": weight " + shortest(v[3]) + " is beyond a float");
  }
}

// A CSV value without the blanks around it and the double quotes some writers put around it.
std::string_view field_text(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = trim(s.substr(1, s.size() - 2));
  return s;
}

// A value from the file in a message: at most 40 bytes, safe to print on a terminal.
std::string quoted(std::string_view s) {
  // Built piecewise: GCC 12 warns falsely (-Wrestrict) about "'" + std::string.
  std::string out(1, '\'');
  out.append(printable(s.substr(0, 40))).append(s.size() > 40 ? "...'" : "'");
  return out;
}

// One CSV line after another, into points.
class CsvPoints {
 public:
  explicit CsvPoints(std::string name) : name_(std::move(name)) {}

  void line(std::string_view text) {
    ++line_;
    if (line_ == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 BOM
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    text = trim(text);
    if (text.empty() || text.front() == '#') return;
    std::array<std::string_view, 5> fields;
    int n = 0;
    for (size_t start = 0;; ++n) {
      const size_t comma = text.find(',', start);
      if (n < 5) {
        fields[n] = field_text(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    ++n;
    if (columns_ == 0 && points_.empty() && !number(fields[0])) return header(fields, n);
    if (n < 3 || n > 4 || (columns_ != 0 && n != columns_)) {
      throw at(std::to_string(n) + " columns, expected " +
               (columns_
                    ? std::to_string(columns_) + " as " + (header_ ? "the header says" : "the first line had")
                    : std::string("3 (x,y,z) or 4 (x,y,z,weight)")));
    }
    columns_ = n;
    if (static_cast<int64_t>(points_.size()) == kMaxPoints) {
      throw at("more than " + std::to_string(kMaxPoints) + " points, the most a file may hold");
    }
    std::array<double, 4> v{0, 0, 0, 1};
    for (int c = 0; c < n; ++c) v[c] = value(fields[c], c);
    check_point(v, n, [&] { return name_ + ": line " + std::to_string(line_); });
    points_.push_back({v[0], v[1], v[2], static_cast<float>(v[3])});
  }

  std::vector<Point> finish() {
    if (points_.empty()) throw Error(name_ + " holds no points (only a header, comments or blank lines)");
    return std::move(points_);
  }

 private:
  Error at(const std::string& why) const {
    return Error(name_ + ": line " + std::to_string(line_) + ": " + why);
  }

  static bool number(std::string_view s) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double v;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ptr != s.data();
  }

  double value(std::string_view s, int column) const {
    const std::string_view text = s;
    if (s.size() > 1 && s.front() == '+' && s[1] != '-') s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    const std::string what = std::string(kColumns[column]) + " " + quoted(text);
    if (r.ec == std::errc::result_out_of_range) throw at(what + " is beyond a double");
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) throw at(what + " is not a number");
    return v;
  }

  void header(const std::array<std::string_view, 5>& fields, int n) {
    bool names = n == 3 || n == 4;
    for (int c = 0; names && c < n; ++c) {
      std::string lower(fields[c]);
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      names = lower == kColumns[c];
    }
    if (!names) {
      throw at("the header names other columns than x,y,z or x,y,z,weight: " + quoted(fields[0]) +
               " first, " + std::to_string(n) + " in all");
    }
    header_ = true;
    columns_ = n;
  }

  std::string name_;
  std::vector<Point> points_;
  int64_t line_ = 0;
  int columns_ = 0;
  bool header_ = false;
};

[[noreturn]] void too_long(const InputFile& in) {
  throw Error(in.name() + ": a line is longer than " + std::to_string(kMaxLine) + " bytes");
}

std::vector<Point> read_csv(InputFile& in, std::string start) {
  if (in.size() == 0) throw Error(in.name() + " is empty");
  CsvPoints csv(in.name());
  std::string buf = std::move(start);
  std::vector<char> chunk(1 << 20);
  size_t begin = 0;
  for (bool end = false; !end;) {
    const size_t got = in.read_some(chunk.data(), chunk.size());
    end = got == 0;
    buf.erase(0, begin);
    buf.append(chunk.data(), got);
    begin = 0;
    for (size_t nl; (nl = buf.find('\n', begin)) != std::string::npos; begin = nl + 1) {
      if (nl - begin > kMaxLine) too_long(in);
      csv.line(std::string_view(buf).substr(begin, nl - begin));
    }
    if (buf.size() - begin > kMaxLine) too_long(in);
  }
  if (begin < buf.size()) csv.line(std::string_view(buf).substr(begin));
  return csv.finish();
}

std::vector<Point> read_npy_points(const std::filesystem::path& file, const std::string& name) {
  std::vector<Point> points;
  const NpyRows rows = [&](const NpyTable& t, const double* v, int64_t first, int64_t count) {
    if (first == 0) points.reserve(static_cast<size_t>(t.rows));  // once: the shape is known
    for (int64_t r = 0; r < count; ++r, v += t.columns) {
      const std::array<double, 4> p{v[0], v[1], v[2], t.columns == 4 ? v[3] : 1.0};
      check_point(p, t.columns, [&] { return name + ": row " + std::to_string(first + r) + " (from 0)"; });
      points.push_back({p[0], p[1], p[2], static_cast<float>(p[3])});
    }
  };
  const NpyTable t = read_npy_table(file, "points file", kMaxPointsFileBytes, {3, 4, kMaxPoints}, rows);
  if (t.rows == 0) {
    throw Error(name + " holds no points: its shape is (0, " + std::to_string(t.columns) + ")");
  }
  return points;
}

}  // namespace

std::vector<Point> read_points(const std::filesystem::path& file) {
  InputFile in(file, "points file", kMaxPointsFileBytes);
  std::string start(6, '\0');
  start.resize(in.read_some(start.data(), start.size()));
  if (lowercase_extension(file) == ".npy" || start == "\x93NUMPY") return read_npy_points(file, in.name());
  return read_csv(in, std::move(start));
}

namespace {

// Voxel coordinate c = (p - origin) * scale + shift along one axis, then floor(c) clamped to
// [0, n - 1]; with a box, only points within [lo, hi] are kept.
struct Axis {
  double origin = 0;
  double scale = 0;
  double shift = 0;
  int n = 1;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool inside(double p) const { return p >= lo && p <= hi; }
  uint64_t voxel(double p) const {
    const double c = std::floor((p - origin) * scale + shift);
    return static_cast<uint64_t>(std::clamp(c, 0.0, static_cast<double>(n - 1)));
  }
};

const char* const kAxes[] = {"x", "y", "z"};

double coordinate(const Point& p, int a) {
  return a == 0 ? p.x : a == 1 ? p.y : p.z;
}

std::array<Axis, 3> box_axes(const Box3& box, const std::array<int, 3>& n) {
  std::array<Axis, 3> axes;
  for (int a = 0; a < 3; ++a) {
    const double lo = box.min[a], hi = box.max[a];
    const std::string range = std::string(kAxes[a]) + " from " + shortest(lo) + " to " + shortest(hi);
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi)) {
      throw Error("points box: " + range + " is not a range (min must be below max, both finite)");
    }
    if (!std::isfinite(hi - lo)) throw Error("points box: " + range + " is wider than a double holds");
    axes[a] = {lo, n[a] / (hi - lo), 0, n[a], lo, hi};
  }
  return axes;
}

// The bounding box scaled uniformly so that its extremes fall on the centres of the outer voxels
// (half a voxel of margin) along the axis that limits the scale, centred on every axis.
std::array<Axis, 3> bounds_axes(std::span<const Point> points, const std::array<int, 3>& n) {
  std::array<double, 3> lo, hi;
  lo.fill(std::numeric_limits<double>::infinity());
  hi.fill(-std::numeric_limits<double>::infinity());
  for (const Point& p : points) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], coordinate(p, a));
      hi[a] = std::max(hi[a], coordinate(p, a));
    }
  }
  // A flat axis (one value) or one voxel thick does not limit the scale; if none does, every
  // point lands in the middle voxel of each axis.
  double scale = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 3; ++a) {
    const double span = hi[a] - lo[a];
    if (!std::isfinite(span)) {
      throw Error("the points' " + std::string(kAxes[a]) + " from " + shortest(lo[a]) + " to " +
                  shortest(hi[a]) + " is wider than a double holds");
    }
    if (span > 0 && n[a] > 1) scale = std::min(scale, (n[a] - 1) / span);
  }
  if (std::isinf(scale)) scale = 0;
  std::array<Axis, 3> axes;
  for (int a = 0; a < 3; ++a) axes[a] = {lo[a] + 0.5 * (hi[a] - lo[a]), scale, 0.5 * n[a], n[a]};
  return axes;
}

void check_fit_input(std::span<const Point> points, Size size) {
  if (size.width < 1 || size.height < 1 || size.depth < 1) {
    throw Error("cannot fit points into a volume of " + std::to_string(size.width) + "x" +
                std::to_string(size.height) + "x" + std::to_string(size.depth) +
                ": every side needs a voxel");
  }
  const uint64_t plane = static_cast<uint64_t>(size.width) * static_cast<uint64_t>(size.height);
  if (plane > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(size.depth)) {
    throw Error("cannot fit points into a volume of " + std::to_string(size.width) + "x" +
                std::to_string(size.height) + "x" + std::to_string(size.depth) +
                ": more voxels than an index holds");
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    check_point({p.x, p.y, p.z, p.weight}, 4, [&] { return "point " + std::to_string(i) + " (from 0)"; });
  }
}

}  // namespace

FittedPoints fit_points(std::span<const Point> points, Size size, const std::optional<Box3>& box) {
  check_fit_input(points, size);
  const std::array<int, 3> n{size.width, size.height, size.depth};
  const std::array<Axis, 3> axes = box ? box_axes(*box, n) : bounds_axes(points, n);
  FittedPoints out;
  // (voxel, index) pairs sorted: equal voxels keep the order of `points`, so each sum is fixed.
  std::vector<std::pair<uint64_t, size_t>> keys;
  keys.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    if (!axes[0].inside(p.x) || !axes[1].inside(p.y) || !axes[2].inside(p.z)) {
      ++out.dropped;
      continue;
    }
    const uint64_t x = axes[0].voxel(p.x), y = axes[1].voxel(p.y), z = axes[2].voxel(p.z);
    keys.emplace_back((z * static_cast<uint64_t>(n[1]) + y) * static_cast<uint64_t>(n[0]) + x, i);
  }
  out.kept = static_cast<int64_t>(keys.size());
  std::sort(keys.begin(), keys.end());
  for (size_t k = 0; k < keys.size();) {
    const uint64_t voxel = keys[k].first;
    double sum = 0;
    for (; k < keys.size() && keys[k].first == voxel; ++k) sum += points[keys[k].second].weight;
    if (sum > std::numeric_limits<float>::max()) {
      throw Error("the points in voxel " + std::to_string(voxel) + " weigh " + shortest(sum) +
                  " together, beyond a float");
    }
    out.food.push_back({voxel, static_cast<float>(sum)});
  }
  return out;
}

Box3 parse_box3(const std::string& text) {
  const auto refused = [&](const std::string& why) {
    std::string m = "points box '";
    m.append(text).append("': ").append(why);
    return Error(m.append(" (expected xmin:xmax,ymin:ymax,zmin:zmax, e.g. 0:100,0:100,0:50)"));
  };
  Box3 box;
  std::string_view rest = text;
  for (int a = 0; a < 3; ++a) {
    const size_t comma = a < 2 ? rest.find(',') : rest.size();
    if (comma == std::string_view::npos) throw refused("three ranges are needed");
    const std::string_view range = rest.substr(0, comma);
    const size_t colon = range.find(':');
    if (colon == std::string_view::npos) throw refused(std::string(kAxes[a]).append(" is not min:max"));
    double* ends[2] = {&box.min[a], &box.max[a]};
    const std::string_view parts[2] = {range.substr(0, colon), range.substr(colon + 1)};
    for (int e = 0; e < 2; ++e) {
      std::string_view s = parts[e];
      if (s.size() > 1 && s.front() == '+' && s[1] != '-') s.remove_prefix(1);
      const auto r = std::from_chars(s.data(), s.data() + s.size(), *ends[e]);
      if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(*ends[e])) {
        throw refused(std::string(kAxes[a]).append(" ").append(parts[e]).append(" is not a finite number"));
      }
    }
    if (!(box.min[a] < box.max[a]))
      throw refused(std::string(kAxes[a]).append("'s min is not below its max"));
    rest = a < 2 ? rest.substr(comma + 1) : std::string_view();
  }
  return box;
}

std::string format_box3(const Box3& box) {
  std::string out;
  for (int a = 0; a < 3; ++a) {
    if (a > 0) out.push_back(',');
    out.append(shortest(box.min[a])).push_back(':');
    out.append(shortest(box.max[a]));
  }
  return out;
}

}  // namespace physarum
