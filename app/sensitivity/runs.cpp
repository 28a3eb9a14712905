#include "sensitivity/runs.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <type_traits>

#include "sensitivity/fit.hpp"

#include "sim/input_file.hpp"

namespace physarum::app::sensitivity {
namespace {

constexpr const char* kTitle =
    "# physarum sensitivity: twin-run distances (README, \"Sensitivity analysis\")";
constexpr const char* kColumns = "point,parameter,value,delta,repeat,seed,step,field_distance,agent_fraction";

std::string quoted(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Fields of one CSV line; a field in double quotes may hold commas ("" is a quote).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool in_quotes = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      in_quotes = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// from_chars reads "nan" and "inf": no run writes them, so a file that holds them was not written
// by one.
template <typename T>
T number(const std::string& s, const std::string& where) {
  T v{};
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
    throw Error(where + ": '" + s + "' is not a number");
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(v)) throw Error(where + ": '" + s + "' is not a finite number");
  }
  return v;
}

// The recipe is a command line whose --set values may hold any character: on its comment line a
// newline would end the line and forge the lines after it. Control characters and the backslash
// are written as C escapes, read back by unescaped_recipe.
std::string escaped_recipe(const std::string& recipe) {
  std::string out;
  for (char c : recipe) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", u);
      out += esc;
    } else {
      out += c;
    }
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string unescaped_recipe(const std::string& line, const std::string& where) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    const auto u = static_cast<unsigned char>(line[i]);
    if (u < 0x20 || u == 0x7f) throw Error(where + ": the recipe holds an unescaped control character");
    if (line[i] != '\\') {
      out += line[i];
    } else if (i + 1 < line.size() && (line[i + 1] == '\\' || line[i + 1] == 'n')) {
      out += line[i + 1] == 'n' ? '\n' : '\\';
      ++i;
    } else if (i + 3 < line.size() && line[i + 1] == 'x' && hex_digit(line[i + 2]) >= 0 &&
               hex_digit(line[i + 3]) >= 0) {
      out += static_cast<char>(hex_digit(line[i + 2]) * 16 + hex_digit(line[i + 3]));
      i += 3;
    } else {
      throw Error(where + ": the recipe holds a '\\' that starts no escape");
    }
  }
  return out;
}

std::string header_text(const CsvHeader& h) {
  char fit[64];
  std::snprintf(fit, sizeof fit, "%.9g", h.fit_below);
  return std::string(kTitle) + "\n# recipe: " + escaped_recipe(h.recipe) + "\n# mode: " + to_string(h.mode) +
         "; points: " + std::to_string(h.points) + "; repeats: " + std::to_string(h.repeats) +
         "; fit_below: " + fit + "\n" + kColumns + "\n";
}

// "mode: sweep; points: 18; repeats: 3; fit_below: 0.3"
void parse_mode_line(const std::string& line, CsvHeader& h, const std::string& where) {
  std::istringstream in(line);
  std::string item;
  while (std::getline(in, item, ';')) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos) throw Error(where + ": expected 'key: value' in '" + line + "'");
    std::string key = item.substr(0, colon), value = item.substr(colon + 1);
    key.erase(0, key.find_first_not_of(' '));
    value.erase(0, value.find_first_not_of(' '));
    if (key == "mode")
      h.mode = parse_mode(value);
    else if (key == "points")
      h.points = number<int>(value, where);
    else if (key == "repeats")
      h.repeats = number<int>(value, where);
    else if (key == "fit_below")
      h.fit_below = number<double>(value, where);
    else
      throw Error(where + ": unknown key '" + key + "'");
  }
  if (h.points < 1 || h.repeats < 1) throw Error(where + ": points and repeats must be at least 1");
  if (static_cast<uint64_t>(h.points) * static_cast<uint64_t>(h.repeats) > kMaxRuns) {
    throw Error(where + ": points x repeats is " +
                std::to_string(static_cast<uint64_t>(h.points) * h.repeats) + ", more than the " +
                std::to_string(kMaxRuns) + " runs of any plan");
  }
  if (!(h.fit_below >= kMinFitBelow && h.fit_below <= kMaxFitBelow)) {
    char range[96];
    std::snprintf(range, sizeof range, "%g..%g", kMinFitBelow, kMaxFitBelow);
    throw Error(where + ": fit_below " + std::to_string(h.fit_below) + " is outside " + range +
                " (the range --fit-below takes)");
  }
}

// A row of the run before it must agree with it on everything but the step, which grows; a row
// of another run starts one, which must be new to the file.
struct RowChecker {
  const CsvHeader& header;
  std::map<std::pair<int, int>, int> first_line;  // (point, repeat) -> the line that started it

  void start(const RunData& r, int line, const std::string& where) {
    if (r.point < 0 || r.point >= header.points || r.repeat < 0 || r.repeat >= header.repeats) {
      throw Error(where + ": point " + std::to_string(r.point) + " repeat " + std::to_string(r.repeat) +
                  " is outside the recipe's " + std::to_string(header.points) + " points and " +
                  std::to_string(header.repeats) + " repeats");
    }
    const auto [it, fresh] = first_line.emplace(std::make_pair(r.point, r.repeat), line);
    if (!fresh) {
      throw Error(where + ": point " + std::to_string(r.point) + " repeat " + std::to_string(r.repeat) +
                  " again (its rows began at line " + std::to_string(it->second) + ")");
    }
  }

  static void follow(const RunData& run, const RunData& row, int64_t step, const std::string& where) {
    if (row.parameter != run.parameter || row.value != run.value || row.delta != run.delta ||
        row.seed != run.seed) {
      throw Error(where + ": the parameter, value, delta or seed differ from the rows before of point " +
                  std::to_string(run.point) + " repeat " + std::to_string(run.repeat));
    }
    if (!run.records.empty() && step <= run.records.back().step) {
      throw Error(where + ": step " + std::to_string(step) + " does not follow step " +
                  std::to_string(run.records.back().step) + " (a duplicated or reordered row)");
    }
  }
};

}  // namespace

std::string csv_text(const CsvHeader& h, const std::vector<RunData>& runs) {
  std::string out = header_text(h);
  char line[512];
  for (const RunData& r : runs) {
    const std::string parameter = quoted(r.parameter);
    for (const Record& rec : r.records) {
      std::snprintf(line, sizeof line, ",%.9g,%.17g,%d,%u,%lld,%.17g,%.17g\n", r.value, r.delta, r.repeat,
                    r.seed, static_cast<long long>(rec.step), rec.field_distance, rec.agent_fraction);
      out += std::to_string(r.point) + "," + parameter + line;
    }
  }
  return out;
}

CsvFile parse_csv(std::string_view text, const std::string& name) {
  std::istringstream in{std::string(text)};
  CsvFile csv;
  std::string line;
  std::vector<std::string> head;
  for (int i = 0; i < 4 && std::getline(in, line); ++i) head.push_back(line);
  if (head.size() != 4 || head[0] != kTitle || head[1].rfind("# recipe: ", 0) != 0 ||
      head[2].rfind("# mode: ", 0) != 0 || head[3] != kColumns) {
    throw Error(name + " is not a CSV written by physarum sensitivity (its first four lines differ)");
  }
  csv.header.recipe = unescaped_recipe(head[1].substr(10), name + ":2");
  parse_mode_line(head[2].substr(2), csv.header, name + ":3");
  csv.header_text = head[0] + "\n" + head[1] + "\n" + head[2] + "\n" + head[3] + "\n";
  RowChecker check{csv.header, {}};
  for (int n = 5; std::getline(in, line); ++n) {
    const std::string where = name + ":" + std::to_string(n);
    const std::vector<std::string> f = fields(line);
    if (f.size() != 9) throw Error(where + ": expected 9 fields, found " + std::to_string(f.size()));
    const RunData row{number<int>(f[0], where),
                      f[1],
                      number<double>(f[2], where),
                      number<double>(f[3], where),
                      number<int>(f[4], where),
                      number<uint32_t>(f[5], where),
                      {}};
    if (csv.runs.empty() || csv.runs.back().point != row.point || csv.runs.back().repeat != row.repeat) {
      check.start(row, n, where);
      csv.runs.push_back(row);
    }
    const Record rec{number<int64_t>(f[6], where), number<double>(f[7], where), number<double>(f[8], where)};
    RowChecker::follow(csv.runs.back(), row, rec.step, where);
    csv.runs.back().records.push_back(rec);
  }
  return csv;
}

CsvFile read_csv(const std::filesystem::path& file) {
  std::string name = "'";
  name += file.string();
  name += '\'';
  return parse_csv(read_input_file(file, "sensitivity CSV", kMaxCsvBytes), name);
}

CsvFile merge_csv(const std::vector<std::filesystem::path>& files) {
  if (files.empty()) throw Error("--merge: no files given");
  CsvFile merged;
  std::map<std::pair<int, int>, std::string> seen;  // (point, repeat) -> the file that had it
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& file = files[i];
    for (size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (files[j] == file || std::filesystem::equivalent(files[j], file, ec)) {
        throw Error("--merge: '" + file.string() + "' is given twice (also as '" + files[j].string() + "')");
      }
    }
    CsvFile part = read_csv(file);
    if (merged.header_text.empty()) {
      merged.header = part.header;
      merged.header_text = part.header_text;
    } else if (part.header_text != merged.header_text) {
      throw Error("--merge: '" + file.string() + "' comes from another recipe than '" + files[0].string() +
                  "' (their header lines differ)");
    }
    for (RunData& r : part.runs) {
      const auto [it, fresh] = seen.emplace(std::make_pair(r.point, r.repeat), file.string());
      if (!fresh) {
        throw Error("--merge: point " + std::to_string(r.point) + " repeat " + std::to_string(r.repeat) +
                    " is in both '" + it->second + "' and '" + file.string() + "'");
      }
      merged.runs.push_back(std::move(r));
    }
  }
  for (int p = 0; p < merged.header.points; ++p) {
    for (int r = 0; r < merged.header.repeats; ++r) {
      if (!seen.count({p, r})) {
        throw Error("--merge: point " + std::to_string(p) + " repeat " + std::to_string(r) +
                    " is in none of the files (a shard missing?)");
      }
    }
  }
  if (seen.size() != static_cast<size_t>(merged.header.points) * static_cast<size_t>(merged.header.repeats)) {
    throw Error("--merge: the files hold runs beyond the recipe's points and repeats");
  }
  std::sort(merged.runs.begin(), merged.runs.end(), [](const RunData& a, const RunData& b) {
    return a.point != b.point ? a.point < b.point : a.repeat < b.repeat;
  });
  return merged;
}

}  // namespace physarum::app::sensitivity
