#include "cli/decimal_option.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "sim/byte_size.hpp"
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
