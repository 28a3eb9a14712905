#include "sim_object.hpp"

#include <algorithm>
#include <climits>
#include <utility>

#include "errors.hpp"
#include "headless.hpp"
#include "sim/image.hpp"
#include "sim/preset.hpp"

namespace py = pybind11;

namespace physarum::python {

namespace {

ImageFit parse_fit(const std::string& fit) {
  if (fit == "fill") return ImageFit::Fill;
  if (fit == "fit") return ImageFit::Fit;
  throw py::value_error("fit '" + fit + "' is not one of: fill, fit");
}

// A vector's floats as a NumPy array of `shape` that owns them (no copy).
py::array_t<float> to_array(std::vector<float>&& v, const std::vector<int>& shape) {
  auto* owned = new std::vector<float>(std::move(v));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<float>*>(p); });
  return py::array_t<float>(std::vector<py::ssize_t>(shape.begin(), shape.end()), owned->data(), free_it);
}

template <class T>
py::array_t<T> to_array_1d(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(owned->size())}, owned->data(), free_it);
}

}  // namespace

Sim::Sim(const SimArgs& a) {
  run::Recipe r;
  r.preset = a.preset;
  if (a.size) r.size = format_size(*a.size);
  r.agents = a.agents;
  r.seed = a.seed;
  r.backend = a.backend;
  r.threads = a.threads;
  r.sets = a.sets;
  // The command line's resolution and messages (run::UsageError becomes ValueError), checked before
  // anything is allocated; a preset file that fails to load is a bad argument too.
  (void)as_value_error([&] { return run::resolve(r); });
  try {
    (void)parse_backend_kind(a.backend);
  } catch (const Error& e) {
    throw py::value_error(std::string("backend ") + e.what());
  }
  if (a.threads < 0 || a.threads > kMaxThreads) {
    throw py::value_error("threads = " + std::to_string(a.threads) + " is out of range: allowed 0 (all) to " +
                          std::to_string(kMaxThreads));
  }
  py::gil_scoped_release unlocked;
  run_ = std::make_unique<run::Run>(r);  // a map file that cannot be used: run::InputError, a ValueError
}

void Sim::step(long long n) {
  if (n < 0 || n > INT_MAX) {
    throw py::value_error("step(" + std::to_string(n) + "): the number of steps must be 0 to " +
                          std::to_string(INT_MAX));
  }
  // The CPU backend works as it is called: chunks keep Ctrl-C responsive. The CUDA backend only
  // queues work (its CUDA graphs want the whole count in one call).
  const bool queued = run_->kind() == BackendKind::Cuda;
  const long long chunk = queued ? n : 16;
  for (long long done = 0; done < n;) {
    const int k = static_cast<int>(std::min(chunk, n - done));
    locked([&] { run_->step(static_cast<uint64_t>(k)); });
    done += k;
    if (done < n && PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

Size Sim::size() const {
  return run_->size();
}
uint64_t Sim::agent_count() const {
  return run_->agent_count();
}
int Sim::species_count() const {
  return run_->species_count();
}
std::string Sim::backend_name() const {
  return run_->name();
}

py::array_t<float> Sim::field() {
  std::vector<float> v;
  World& world = run_->world();
  locked([&] { world.read_field(v); });
  return to_array(std::move(v), world.field_shape());
}

py::array_t<float> Sim::trace() {
  Volume* volume = run_->world().volume();
  if (!volume || !volume->has_trace()) {
    throw py::value_error("trace: only a volume with a species whose turn_rule is mcpm keeps a trace");
  }
  std::vector<float> v;
  locked([&] { volume->read_trace(v); });
  return to_array(std::move(v), volume->field_shape());  // shaped as the field
}

py::dict Sim::agents() {
  if (Volume* volume = run_->world().volume()) {
    Agents3 a = locked([&] { return volume->agents(); });
    py::dict d;
    const char* names[] = {"x", "y", "z", "hx", "hy", "hz"};
    std::vector<float>* parts[] = {&a.x, &a.y, &a.z, &a.hx, &a.hy, &a.hz};
    for (int i = 0; i < 6; ++i) d[names[i]] = to_array_1d(std::move(*parts[i]));
    return d;
  }
  AgentState a = locked([&] { return run_->backend().read_agents(); });
  py::dict d;
  d["id"] = to_array_1d(std::move(a.id));
  d["x"] = to_array_1d(std::move(a.x));
  d["y"] = to_array_1d(std::move(a.y));
  d["theta"] = to_array_1d(std::move(a.theta));
  return d;
}

// Model and species take effect at the next step; display the next render(), spawn the next
// seed_image(). A refused change (run::UsageError, a ValueError) leaves everything as it was.
void Sim::set(const std::vector<std::string>& assignments) {
  locked([&] { run_->set(assignments); });
}

void Sim::seed_image_file(const std::string& path, const std::string& fit) {
  const ImageFit f = parse_fit(fit);
  locked([&] { as_value_error([&] { run_->seed_image(path, f); }); });
}

void Sim::seed_image_array(const py::array& image, const std::string& fit) {
  const ImageFit f = parse_fit(fit);
  // Brightness in [0, 1]: floats as they are, 8-bit and 16-bit integers scaled by their maximum.
  const int nd = static_cast<int>(image.ndim());
  if (nd != 2 && !(nd == 3 && image.shape(2) == 3)) {
    std::string shape;
    for (int i = 0; i < nd; ++i) shape += (i ? ", " : "") + std::to_string(image.shape(i));
    throw py::value_error("seed_image: an array must be (H, W) brightness or (H, W, 3) RGB, not (" + shape +
                          (nd == 1 ? ",)" : ")"));
  }
  float scale = 1.0f;
  if (image.dtype().is(py::dtype::of<uint8_t>())) scale = 1.0f / 255.0f;
  if (image.dtype().is(py::dtype::of<uint16_t>())) scale = 1.0f / 65535.0f;
  const auto values = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(image);
  if (!values)
    throw py::type_error("seed_image: the array must hold numbers, not " +
                         py::str(image.dtype()).cast<std::string>());
  LumaImage img;
  img.height = static_cast<int>(image.shape(0));
  img.width = static_cast<int>(image.shape(1));
  const size_t pixels = static_cast<size_t>(img.width) * static_cast<size_t>(img.height);
  if (pixels == 0) throw py::value_error("seed_image: the array is empty");
  const float* v = values.data();
  for (size_t i = 0; i < pixels * (nd == 3 ? 3 : 1); ++i) {
    if (!(v[i] * scale >= 0.0f && v[i] * scale <= 1.0f)) {
      throw py::value_error("seed_image: brightness must be in [0, 1] (integers: 0 to their type's maximum)");
    }
  }
  if (nd == 2) {
    img.luma.assign(v, v + pixels);
    for (float& x : img.luma) x *= scale;
  } else {
    // The luma of a colour image as the image decoder computes it (Rec. 709 weights).
    img.rgb.assign(v, v + pixels * 3);
    for (float& x : img.rgb) x *= scale;
    img.luma.resize(pixels);
    for (size_t i = 0; i < pixels; ++i) {
      img.luma[i] = 0.2126f * img.rgb[i * 3] + 0.7152f * img.rgb[i * 3 + 1] + 0.0722f * img.rgb[i * 3 + 2];
    }
  }
  locked([&] { as_value_error([&] { run_->seed_image(img, f); }); });
}

void Sim::brush(float x, float y, float radius, float amount, int channel) {
  locked([&] { as_value_error([&] { run_->brush(BrushStroke{x, y, radius, amount, channel}); }); });
}

py::dict Sim::timings() {
  const StageTimings t = locked([&] { return run_->backend().timings(); });
  py::dict d;
  d["agents_ms"] = t.agents_ms;
  d["field_ms"] = t.field_ms;
  d["sort_ms"] = t.sort_ms;
  d["publish_ms"] = t.publish_ms;
  d["step_ms"] = t.step_ms;
  d["samples"] = t.samples;
  return d;
}

py::array_t<uint8_t> Sim::render(const std::optional<std::string>& palette,
                                 const std::optional<std::string>& cave, const std::optional<Size>& size) {
  const Size out = size ? *size : run_->backend().size();
  if (out.width < 1 || out.height < 1 || out.width > kMaxSide || out.height > kMaxSide) {
    throw py::value_error("render: size " + std::to_string(out.width) + "x" + std::to_string(out.height) +
                          " is out of range: allowed 1 to " + std::to_string(kMaxSide) + " on a side");
  }
  std::vector<uint8_t> rgba = locked([&] {
    DisplayParams d = run_->preset().display;
    if (palette) d.palette = *palette;
    if (cave) d.cave = as_value_error([&] { return parse_cave_mode(*cave); });
    as_value_error([&] {
      validate(d);
      check_palette(d);
    });
    // A palette asked for by name is drawn alone; else the keyframes' blend, as `physarum render` draws it.
    return render_rgba(run_->backend(), d, out, palette ? nullptr : &run_->preset());
  });
  auto* owned = new std::vector<uint8_t>(std::move(rgba));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<uint8_t>*>(p); });
  return py::array_t<uint8_t>({static_cast<py::ssize_t>(out.height), static_cast<py::ssize_t>(out.width),
                               static_cast<py::ssize_t>(4)},
                              owned->data(), free_it);
}

FieldStorage Sim::storage() {
  return locked([&] { return run_->world().field_storage(); });
}

std::string Sim::preset_toml() {
  return locked([&] { return preset_to_toml(run_->preset()); });
}

}  // namespace physarum::python
