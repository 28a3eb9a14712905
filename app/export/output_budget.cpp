#include "export/output_budget.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "run/recipe.hpp"
#include "sim/byte_size.hpp"

namespace physarum::app {
namespace {

uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

// A budget that would let the command through, rounded up to a whole GB (or MB) so it reads as
// one a person would type.
std::string raised_budget(uint64_t needed) {
  const double gb = static_cast<double>(needed) / 1e9;
  if (gb >= 1.0) return std::to_string(static_cast<uint64_t>(std::ceil(gb))) + "GB";
  return std::to_string(static_cast<uint64_t>(std::ceil(static_cast<double>(needed) / 1e6))) + "MB";
}

}  // namespace

uint64_t png_bytes_bound(int width, int height, int channels, int sample_bytes) {
  const uint64_t rows = static_cast<uint64_t>(height);
  const uint64_t raw =
      rows * (1 + static_cast<uint64_t>(width) * static_cast<uint64_t>(channels * sample_bytes));
  // Stored deflate blocks add 5 bytes per 65535, zlib 6; IDAT chunks of at least 8 KB add 12 bytes
  // each (under 1/512); the signature, IHDR, IEND and the text chunks fit in 64 KB.
  return raw + raw / 8192 * 5 + raw / 512 + 6 + 65536;
}

void OutputBudget::add(std::string what, std::string because, OutputCost cost) {
  items_.push_back({std::move(what), std::move(because), cost});
}

OutputCost OutputBudget::total() const {
  OutputCost t;
  for (const Item& i : items_) {
    t.disk = add_saturating(t.disk, i.cost.disk);
    t.memory = add_saturating(t.memory, i.cost.memory);
  }
  return t;
}

void OutputBudget::check(const std::string& budget) const {
  const uint64_t limit = parse_byte_size(budget);
  const OutputCost t = total();
  if (t.disk <= limit && t.memory <= limit) return;
  std::vector<const Item*> largest;
  for (const Item& i : items_) largest.push_back(&i);
  const auto size = [](const Item* i) { return std::max(i->cost.disk, i->cost.memory); };
  std::ranges::sort(largest, [&](const Item* a, const Item* b) { return size(a) > size(b); });
  std::string m = "the outputs are estimated at up to " + format_bytes(t.disk) + " on disk and " +
                  format_bytes(t.memory) + " of memory, above the output budget of " + format_bytes(limit) +
                  " (--output-budget " + budget + "); the largest:";
  for (size_t k = 0; k < largest.size() && k < 3; ++k) {
    const Item& i = *largest[k];
    m += std::string(k == 0 ? " " : "; ") + i.what + " (" + i.because + "): ";
    if (i.cost.disk > 0) m += format_bytes(i.cost.disk) + " on disk, ";
    m += format_bytes(i.cost.memory) + " of memory";
  }
  m += ". Make them smaller, or raise the budget with --output-budget " +
       raised_budget(std::max(t.disk, t.memory));
  throw run::UsageError(m);
}

}  // namespace physarum::app
