#include "sensitivity/twin.hpp"

#include <algorithm>

#include "run/run.hpp"
#include "sensitivity/distance.hpp"
#include "sensitivity/parameters.hpp"

namespace physarum::app::sensitivity {
namespace {

Record measure(Backend& a, Backend& b, std::vector<float>& fa, std::vector<float>& fb) {
  a.read_field(fa);
  b.read_field(fb);
  return {static_cast<int64_t>(a.steps_done()), relative_l2(fa, fb),
          cell_mismatch_fraction(a.read_agents(), b.read_agents())};
}

}  // namespace

TwinResult run_twins(const run::Recipe& a_options, const Perturbation& p, int steps, int every,
                     const StopCheck& stop) {
  TwinResult result;
  run::Recipe b_options = a_options;
  if (p.kind == Perturbation::Kind::Parameter) {
    // B is A's preset with the one value changed, typed.
    Preset b = run::resolve(a_options);
    result.delta = perturb_preset(p, b);
    b_options = run::with_base(a_options, b);
  } else {
    result.delta = p.eps;
  }
  run::Run a(a_options);
  run::Run b(b_options);
  perturb_state(p, b.backend());
  result.backend = a.backend().name();

  result.records.push_back(measure(a.backend(), b.backend(), result.field_a, result.field_b));
  // A stop is asked for between short slices, not only between records: --every may be large.
  constexpr int kSlice = 16;
  for (int done = 0; done < steps;) {
    const int n = std::min(every, steps - done);
    for (int k = 0; k < n;) {
      stop_if_asked(stop);
      const int m = std::min(kSlice, n - k);
      a.step(static_cast<uint64_t>(m));
      b.step(static_cast<uint64_t>(m));
      k += m;
    }
    done += n;
    result.records.push_back(measure(a.backend(), b.backend(), result.field_a, result.field_b));
  }
  return result;
}

}  // namespace physarum::app::sensitivity
