#include "sim/byte_size.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "sim/params.hpp"

namespace physarum {

std::string format_bytes(uint64_t bytes) {
  char buf[32];
  const double b = static_cast<double>(bytes);
  if (b >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  } else if (b >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  } else if (b < 1e3) {
    std::snprintf(buf, sizeof buf, "%.0f bytes", b);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f KB", b / 1e3);
  }
  return buf;
}

uint64_t parse_byte_size(const std::string& text) {
  static constexpr std::pair<const char*, double> kUnits[] = {
      {"", 1},      {"b", 1},        {"kb", 1e3},        {"mb", 1e6},           {"gb", 1e9},
      {"tb", 1e12}, {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
  constexpr double kMax = 1e18;  // 1 EB: far above any disk, far below what a uint64_t holds
  const std::string usage = "'" + text + "' is not a size such as 512MB, 4GB or 1.5TB";
  const size_t number_end = text.find_first_not_of("0123456789.");
  const std::string number = text.substr(0, number_end);
  std::string unit = number_end == std::string::npos ? std::string() : text.substr(number_end);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const size_t dot = number.find('.');
  // Digits on both sides of at most one dot: strtod alone would take "1e3", "0x10", "inf" or " 4".
  if (number.empty() || number.front() == '.' || number.back() == '.' ||
      (dot != std::string::npos && number.find('.', dot + 1) != std::string::npos)) {
    throw Error(usage);
  }
  const double* scale = nullptr;
  for (const auto& [name, factor] : kUnits) {
    if (unit == name) scale = &factor;
  }
  if (!scale) throw Error(usage + " (units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
  const double bytes = std::strtod(number.c_str(), nullptr) * *scale;
  if (!(bytes >= 1.0)) throw Error("'" + text + "' is less than one byte; a size must be at least 1B");
  if (!(bytes <= kMax)) throw Error("'" + text + "' is more than 1000000TB (1 EB)");
  return static_cast<uint64_t>(bytes);
}

}  // namespace physarum
