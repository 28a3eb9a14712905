// libFuzzer target: arbitrary bytes as an ensemble shard given to `render --merge`. A clean Error is
// the expected answer; what is read must write back to a file that reads back the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "report/ensemble_report.hpp"

namespace a = physarum::app;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  a::Ensemble e;
  try {
    e = a::parse_ensemble(std::string_view(reinterpret_cast<const char*>(data), size), "'fuzz.json'");
  } catch (const physarum::Error&) {
    return 0;
  }
  const std::string text = a::ensemble_json(e, physarum::parse_json("{}", "summary"));
  const a::Ensemble back = a::parse_ensemble(text, "'written.json'");
  if (back.runs.size() != e.runs.size() ||
      a::ensemble_json(back, physarum::parse_json("{}", "summary")) != text)
    std::abort();
  return 0;
}
