#include "cli/decimal_option.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "sim/params.hpp"

namespace physarum::app {

CLI::Validator decimal_integer() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const size_t sign = !s.empty() && s.front() == '-' ? 1 : 0;
        const bool digits = s.size() > sign && s.find_first_not_of("0123456789", sign) == std::string::npos;
        if (!digits) return "'" + s + "' is not a whole decimal number";
        const size_t first = std::min(s.find_first_not_of('0', sign), s.size() - 1);
        s.erase(sign, first - sign);  // "007" -> "7", "-00" -> "-0": never read as octal
        return "";
      },
      "", "DECIMAL");
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](const std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str()) return "";  // not a number at all: the option's own conversion says so
        // Thresholds are floats: a finite double beyond the float range would become infinite.
        if (!std::isfinite(v) || std::fabs(v) > std::numeric_limits<float>::max())
          return "'" + s + "' is not a finite number";
        return "";
      },
      "", "FINITE");
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

CLI::Validator byte_size() {
  return CLI::Validator(
      [](const std::string& s) -> std::string {
        try {
          (void)parse_byte_size(s);
        } catch (const Error& e) {
          return e.what();
        }
        return "";
      },
      "", "SIZE");
}

}  // namespace physarum::app
