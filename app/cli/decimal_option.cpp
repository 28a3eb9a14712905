#include "cli/decimal_option.hpp"

#include <string>

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

}  // namespace physarum::app
