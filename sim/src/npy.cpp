// NumPy .npy (format version 1.0): magic "\x93NUMPY", version 1.0, a little-endian uint16 header
// length, then a Python dict literal padded with spaces and a '\n' so that the data starts on a
// 64-byte boundary, then the float32 values in C order.
#include "sim/npy.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "sim/atomic_file.hpp"
#include "sim/input_file.hpp"
#include "sim/params.hpp"

namespace physarum {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kMaxHeaderLen = size_t{1} << 20;
// The largest file a field can be: the longest header and kMaxSpecies planes of kMaxSide^2 cells.
constexpr uint64_t kMaxFileBytes =
    12 + kMaxHeaderLen + uint64_t{kMaxSpecies} * uint64_t{kMaxSide} * uint64_t{kMaxSide} * 4;

uint32_t swap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

std::string header_text(const std::vector<int>& shape) {
  std::string dims;
  for (int d : shape) dims += std::to_string(d) + ", ";
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // a 1-tuple keeps its comma: (n,)
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  // magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64.
  const size_t unpadded = kMagicLen + 2 + 2 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  return dict;
}

// A tiny reader for the dict literal numpy writes: {'key': value, ...} where a value is a quoted
// string, True/False, or a tuple of integers.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view s) : s_(s) {}

  struct Entry {
    std::string key;
    std::string str;
    std::optional<bool> boolean;
    std::optional<std::vector<int64_t>> tuple;
  };

  std::vector<Entry> parse() {
    std::vector<Entry> out;
    expect('{');
    while (true) {
      skip();
      if (peek() == '}') break;
      Entry e;
      e.key = quoted();
      expect(':');
      skip();
      if (peek() == '\'' || peek() == '"') {
        e.str = quoted();
      } else if (peek() == '(') {
        e.tuple = tuple();
      } else if (s_.substr(i_, 4) == "True") {
        e.boolean = true;
        i_ += 4;
      } else if (s_.substr(i_, 5) == "False") {
        e.boolean = false;
        i_ += 5;
      } else {
        throw Error("unexpected value for '" + e.key + "'");
      }
      out.push_back(std::move(e));
      skip();
      if (peek() == ',') ++i_;
    }
    return out;
  }

 private:
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void expect(char c) {
    skip();
    if (peek() != c) throw Error(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string quoted() {
    skip();
    const char q = peek();
    if (q != '\'' && q != '"') throw Error("expected a quoted string");
    const size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) throw Error("unterminated string");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return out;
  }
  std::vector<int64_t> tuple() {
    std::vector<int64_t> out;
    expect('(');
    while (true) {
      skip();
      if (peek() == ')') break;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) throw Error("expected a dimension");
      int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        v = v * 10 + (peek() - '0');
        if (v > (int64_t{1} << 40)) throw Error("dimension too large");
        ++i_;
      }
      out.push_back(v);
      skip();
      if (peek() == ',') ++i_;
    }
    ++i_;
    return out;
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

void write_npy(const std::filesystem::path& file, const float* data, int height, int width, int planes) {
  if (height <= 0 || width <= 0 || planes <= 0) {
    throw Error("cannot write '" + file.string() + "': shape (" + std::to_string(height) + ", " +
                std::to_string(width) + ") is empty");
  }
  if (planes > 1) {
    write_npy_shape(file, data, {planes, height, width});
  } else {
    write_npy_shape(file, data, {height, width});
  }
}

void write_npy_shape(const std::filesystem::path& file, const float* data, const std::vector<int>& shape) {
  size_t count = 1;
  for (int d : shape) {
    if (d <= 0) throw Error("cannot write '" + file.string() + "': a dimension of its shape is empty");
    count *= static_cast<size_t>(d);
  }
  const std::string dict = header_text(shape);
  std::string header(kMagic, kMagicLen);
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  header += dict;

  // Streamed through a temporary file and renamed into place: a failure (a full disk) leaves any
  // old file whole, and no copy of the field is made in memory.
  AtomicFileWriter out(file);
  out.write(header.data(), header.size());
  if constexpr (std::endian::native == std::endian::little) {
    out.write(data, count * 4);
  } else {
    constexpr size_t kChunk = 1 << 16;
    std::vector<uint32_t> chunk(std::min(count, kChunk));
    for (size_t i = 0; i < count; i += kChunk) {
      const size_t n = std::min(count - i, kChunk);
      std::memcpy(chunk.data(), data + i, n * 4);
      for (size_t j = 0; j < n; ++j) chunk[j] = swap32(chunk[j]);
      out.write(chunk.data(), n * 4);
    }
  }
  out.commit();
}

namespace {

// The error for a file that is not what was asked for, naming it and what was expected.
struct NotNpy {
  std::string lead;  // "'<file>' is not a 2-D float32 .npy file: "
  Error operator()(const std::string& why) const { return Error(lead + why); }
};

struct NpyHeader {
  std::string text;   // the header's dictionary
  size_t prefix = 0;  // bytes before it: magic, version and length
};

NpyHeader read_header(InputFile& in, const NotNpy& bad) {
  char pre[10];
  if (in.read_some(pre, 10) != 10) throw bad("too short for a header");
  if (std::memcmp(pre, kMagic, kMagicLen) != 0) throw bad("wrong magic");
  const auto major = static_cast<unsigned char>(pre[6]);
  size_t header_len = 0;
  NpyHeader h;
  h.prefix = 10;
  if (major == 1) {
    header_len =
        static_cast<unsigned char>(pre[8]) | (static_cast<size_t>(static_cast<unsigned char>(pre[9])) << 8);
  } else if (major == 2 || major == 3) {
    char more[2];
    if (in.read_some(more, 2) != 2) throw bad("too short for a header");
    header_len = static_cast<unsigned char>(pre[8]) |
                 (static_cast<size_t>(static_cast<unsigned char>(pre[9])) << 8) |
                 (static_cast<size_t>(static_cast<unsigned char>(more[0])) << 16) |
                 (static_cast<size_t>(static_cast<unsigned char>(more[1])) << 24);
    h.prefix = 12;
    if (header_len > kMaxHeaderLen) throw bad("header too long");
  } else {
    throw bad("unsupported format version " + std::to_string(major));
  }
  h.text.assign(header_len, '\0');
  if (in.read_some(h.text.data(), header_len) != header_len) throw bad("truncated header");
  return h;
}

struct NpyShape {
  int64_t planes = 1;
  int64_t height = 0;
  int64_t width = 0;
  uint64_t count() const {
    return static_cast<uint64_t>(planes) * static_cast<uint64_t>(height) * static_cast<uint64_t>(width);
  }
};

struct NpyDict {
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
};

// The header's dtype, order and shape; each caller checks them, the dtype first.
NpyDict parse_dict(const std::string& header, const NotNpy& bad) {
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  try {
    for (auto& e : HeaderParser(header).parse()) {
      if (e.key == "descr") descr = e.str;
      if (e.key == "fortran_order") fortran = e.boolean;
      if (e.key == "shape") shape = e.tuple;
    }
  } catch (const Error& e) {
    throw bad(std::string("malformed header: ") + e.what());
  }
  if (!descr || !fortran || !shape) throw bad("header lacks descr, fortran_order or shape");
  return {std::move(*descr), *fortran, std::move(*shape)};
}

// The shape of a little-endian float32 array in C order: (H, W), or with allow_planes (S, H, W) of
// up to max_planes planes (the species of a field, or the depth of a volume).
NpyShape parse_shape(const std::string& header, bool allow_planes, const NotNpy& bad, int64_t max_planes) {
  const NpyDict dict = parse_dict(header, bad);
  const std::vector<int64_t>& shape = dict.shape;
  if (dict.descr != "<f4") throw bad("dtype '" + dict.descr + "', expected '<f4'");
  if (dict.fortran) throw bad("Fortran order");
  const bool three = allow_planes && shape.size() == 3;
  if (shape.size() != 2 && !three) {
    throw bad("shape has " + std::to_string(shape.size()) + " dimensions, expected " +
              (allow_planes ? "2 or 3" : "2"));
  }
  const NpyShape out{three ? shape[0] : 1, shape[three ? 1 : 0], shape[three ? 2 : 1]};
  const int64_t planes = out.planes, h = out.height, w = out.width;
  // A field is at most what a simulation holds: refused here, before its data is read.
  if (planes <= 0 || planes > max_planes || h <= 0 || w <= 0 || h > kMaxSide || w > kMaxSide) {
    throw bad("shape (" + (three ? std::to_string(planes) + ", " : std::string()) + std::to_string(h) + ", " +
              std::to_string(w) + ") is empty or too large (at most " +
              (three ? std::to_string(max_planes) + " planes of " : std::string()) +
              std::to_string(kMaxSide) + "x" + std::to_string(kMaxSide) + ")");
  }
  return out;
}

NpyArray read_npy_file(const std::filesystem::path& file, bool allow_planes, bool with_data = true,
                       int64_t max_planes = kMaxSpecies) {
  // Built piecewise: GCC 12 warns falsely (-Wrestrict) about "'" + std::string.
  std::string name(1, '\'');
  name.append(file.string()).push_back('\'');
  InputFile in(file, "field", kMaxFileBytes);
  const NotNpy bad{name + (allow_planes ? " is not a 2-D or 3-D float32 .npy file: "
                                        : " is not a 2-D float32 .npy file: ")};
  const NpyHeader header = read_header(in, bad);
  const NpyShape shape = parse_shape(header.text, allow_planes, bad, max_planes);

  const uint64_t count = shape.count();
  const uint64_t expected = header.prefix + header.text.size() + count * 4;
  if (in.size() != expected) {
    throw bad("size " + std::to_string(in.size()) + " bytes, expected " + std::to_string(expected) +
              " for shape (" + std::to_string(shape.height) + ", " + std::to_string(shape.width) + ")");
  }

  NpyArray a;
  a.height = static_cast<int>(shape.height);
  a.width = static_cast<int>(shape.width);
  a.planes = static_cast<int>(shape.planes);
  if (!with_data) return a;
  a.data.resize(count);
  in.read(a.data.data(), count * 4);
  if constexpr (std::endian::native == std::endian::big) {
    for (float& f : a.data) {
      uint32_t v;
      std::memcpy(&v, &f, 4);
      v = swap32(v);
      std::memcpy(&f, &v, 4);
    }
  }
  return a;
}

// The (rows, columns) of a 2-D float32 or float64 table, checked against the limits.
NpyTable parse_table(const std::string& header, const NpyTableLimits& limits, const NotNpy& bad) {
  const NpyDict dict = parse_dict(header, bad);
  if (dict.descr != "<f4" && dict.descr != "<f8") {
    throw bad("dtype '" + dict.descr + "', expected '<f4' or '<f8'");
  }
  if (dict.fortran) throw bad("Fortran order");
  std::string shape = "(";
  for (size_t i = 0; i < dict.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(dict.shape[i]);
  shape += dict.shape.size() == 1 ? ",)" : ")";
  if (dict.shape.size() != 2) {
    throw bad("shape " + shape + " has " + std::to_string(dict.shape.size()) + " dimensions, expected 2");
  }
  const int64_t rows = dict.shape[0], columns = dict.shape[1];
  if (columns < limits.min_columns || columns > limits.max_columns) {
    throw bad("shape " + shape + " has " + std::to_string(columns) + " columns, expected " +
              std::to_string(limits.min_columns) + " to " + std::to_string(limits.max_columns));
  }
  if (rows > limits.max_rows) {
    throw bad("shape " + shape + " has " + std::to_string(rows) + " rows, at most " +
              std::to_string(limits.max_rows) + " are read");
  }
  return {rows, static_cast<int>(columns), dict.descr == "<f8"};
}

// `values` little-endian float32 or float64 numbers as doubles; float32 widens exactly.
void widen(const char* in, size_t values, bool float64, double* out) {
  for (size_t i = 0; i < values; ++i) {
    unsigned char b[8];
    const size_t n = float64 ? 8 : 4;
    std::memcpy(b, in + i * n, n);
    if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + n);
    if (float64) {
      std::memcpy(&out[i], b, 8);
    } else {
      float f;
      std::memcpy(&f, b, 4);
      out[i] = f;
    }
  }
}

// The shape of a volume's float32 field in C order: (D, H, W) or (S, D, H, W).
NpyVolume parse_volume_shape(const std::string& header, const NotNpy& bad) {
  const NpyDict dict = parse_dict(header, bad);
  if (dict.descr != "<f4") throw bad("dtype '" + dict.descr + "', expected '<f4'");
  if (dict.fortran) throw bad("Fortran order");
  const std::vector<int64_t>& shape = dict.shape;
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  text += shape.size() == 1 ? ",)" : ")";
  if (shape.size() != 3 && shape.size() != 4) {
    throw bad("shape " + text + " has " + std::to_string(shape.size()) + " dimensions, expected 3 or 4");
  }
  const size_t first = shape.size() - 3;
  const int64_t s = first ? shape[0] : 1;
  const bool sides_ok = std::all_of(shape.begin() + static_cast<std::ptrdiff_t>(first), shape.end(),
                                    [](int64_t n) { return n > 0 && n <= kMaxSide; });
  if (s <= 0 || s > kMaxSpecies || !sides_ok) {
    throw bad("shape " + text + " is empty or too large (at most " + std::to_string(kMaxSpecies) +
              " species of sides up to " + std::to_string(kMaxSide) + ")");
  }
  NpyVolume v;
  v.species = static_cast<int>(s);
  v.dimensions = static_cast<int>(shape.size());
  v.depth = static_cast<int>(shape[first]);
  v.height = static_cast<int>(shape[first + 1]);
  v.width = static_cast<int>(shape[first + 2]);
  return v;
}

}  // namespace

NpyTable read_npy_table(const std::filesystem::path& file, std::string_view what, uint64_t max_bytes,
                        const NpyTableLimits& limits, const NpyRows& rows) {
  InputFile in(file, what, max_bytes);
  const NotNpy bad{in.name() + " is not a 2-D float32 or float64 .npy file: "};
  const NpyHeader header = read_header(in, bad);
  const NpyTable table = parse_table(header.text, limits, bad);
  const uint64_t value_bytes = table.float64 ? 8 : 4;
  const uint64_t row_bytes = value_bytes * static_cast<uint64_t>(table.columns);
  // rows <= max_rows and a bounded file keep this product far from overflowing.
  const uint64_t expected =
      header.prefix + header.text.size() + static_cast<uint64_t>(table.rows) * row_bytes;
  if (in.size() != expected) {
    throw bad("size " + std::to_string(in.size()) + " bytes, expected " + std::to_string(expected) + " for " +
              std::to_string(table.rows) + " rows of " + std::to_string(table.columns));
  }
  // In chunks: the file's bytes are never held whole next to what the caller makes of them.
  constexpr int64_t kChunkRows = 1 << 14;
  std::vector<char> bytes(static_cast<size_t>(std::min(table.rows, kChunkRows) * row_bytes));
  std::vector<double> values(bytes.size() / value_bytes);
  for (int64_t first = 0; first < table.rows; first += kChunkRows) {
    const int64_t count = std::min(table.rows - first, kChunkRows);
    const size_t n = static_cast<size_t>(count) * table.columns;
    in.read(bytes.data(), n * value_bytes);
    widen(bytes.data(), n, table.float64, values.data());
    rows(table, values.data(), first, count);
  }
  return table;
}

NpyArray read_npy(const std::filesystem::path& file) {
  return read_npy_file(file, false);
}
NpyArray read_npy_planes(const std::filesystem::path& file) {
  return read_npy_file(file, true);
}
NpyArray read_npy_planes_shape(const std::filesystem::path& file) {
  return read_npy_file(file, true, false);
}
NpyArray read_npy_volume(const std::filesystem::path& file) {
  return read_npy_file(file, true, true, kMaxSide);
}

NpyVolume read_npy_volume_field(const std::filesystem::path& file, bool with_data) {
  std::string name(1, '\'');
  name.append(file.string()).push_back('\'');
  InputFile in(file, "field", kMaxFileBytes);
  const NotNpy bad{name + " is not a volume's float32 .npy file, (D, H, W) or (S, D, H, W): "};
  const NpyHeader header = read_header(in, bad);
  NpyVolume v = parse_volume_shape(header.text, bad);
  // Each factor is at most kMaxSide (2^14) and S at most 4: the product stays far below 2^64.
  const uint64_t count = static_cast<uint64_t>(v.species) * static_cast<uint64_t>(v.depth) *
                         static_cast<uint64_t>(v.height) * static_cast<uint64_t>(v.width);
  const uint64_t expected = header.prefix + header.text.size() + count * 4;
  if (in.size() != expected) {
    throw bad("size " + std::to_string(in.size()) + " bytes, expected " + std::to_string(expected));
  }
  if (!with_data) return v;
  v.data.resize(count);
  in.read(v.data.data(), count * 4);
  if constexpr (std::endian::native == std::endian::big) {
    for (float& f : v.data) {
      uint32_t u;
      std::memcpy(&u, &f, 4);
      u = swap32(u);
      std::memcpy(&f, &u, 4);
    }
  }
  return v;
}

}  // namespace physarum
