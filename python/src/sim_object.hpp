// physarum.Sim: a simulation driven from Python. A run of the run library (run/run.hpp), made from a
// recipe and stepped as the command line steps it, so a Sim and `physarum run` with the same preset,
// seed and --set give the same bytes (environment and keyframes included).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"

namespace physarum::python {

struct SimArgs {
  std::optional<Size> size;
  std::string agents;  // as --agents takes it; empty: the preset's
  std::string preset;  // name or file; empty: the built-in defaults
  std::string backend = "auto";
  std::optional<uint32_t> seed;
  int threads = 0;
  std::vector<std::string> sets;  // "section.key=value"
};

class Sim {
 public:
  explicit Sim(const SimArgs& a);

  void step(long long n);
  pybind11::array_t<float> field();
  // A volume's MCPM trace, shaped as its field; ValueError without one.
  pybind11::array_t<float> trace();
  pybind11::dict agents();
  void set(const std::vector<std::string>& assignments);
  void seed_image_file(const std::string& path, const std::string& fit);
  void seed_image_array(const pybind11::array& image, const std::string& fit);
  void brush(float x, float y, float radius, float amount, int channel);
  pybind11::dict timings();
  pybind11::array_t<uint8_t> render(const std::optional<std::string>& palette,
                                    const std::optional<std::string>& cave, const std::optional<Size>& size);

  // The field where the backend keeps it (waits for queued work).
  FieldStorage storage();

  // A volume's size has its depth (run/run.hpp, is_volume).
  Size size() const;
  uint64_t agent_count() const;
  uint64_t steps_done() const { return run_->steps_done(); }
  int species_count() const;
  std::string backend_name() const;
  const std::string& note() const { return run_->note(); }
  std::string preset_toml();

 private:
  // Runs f (C++ only, no Python objects) without the GIL and with this Sim to itself: other Python
  // threads run meanwhile, and two threads never drive one backend at once. The GIL is let go
  // before the lock is taken, so a thread waiting for the lock never holds the GIL.
  template <class F>
  decltype(auto) locked(F&& f) {
    pybind11::gil_scoped_release unlocked;
    std::lock_guard lock(mutex_);
    return f();
  }

  std::mutex mutex_;
  std::unique_ptr<run::Run> run_;
};

}  // namespace physarum::python
