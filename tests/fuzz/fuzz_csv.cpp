// libFuzzer target: arbitrary bytes as a CSV shard given to `sensitivity --merge`. A clean Error is
// the expected answer; what is read must write back to the same runs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sensitivity/runs.hpp"

namespace s = physarum::app::sensitivity;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  s::CsvFile csv;
  try {
    csv = s::parse_csv(std::string_view(reinterpret_cast<const char*>(data), size), "'fuzz.csv'");
  } catch (const physarum::Error&) {
    return 0;
  }
  (void)s::csv_text(csv.header, csv.runs);
  return 0;
}
