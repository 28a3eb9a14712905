// The `physarum` Python module: bindings and their documentation. The work is in sim_object.cpp
// (the simulation), field_view.cpp (DLPack), headless.cpp (rendering) and keywords.cpp (--set).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "data_location.hpp"
#include "errors.hpp"
#include "field_view.hpp"
#include "headless.hpp"
#include "keywords.hpp"
#include "sim/backend.hpp"
#include "sim_object.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace physarum::python {
namespace {

// (width, height), or (width, height, depth) where a volume may be made.
std::optional<Size> size_arg(const py::object& size, const char* what, bool volume = false) {
  if (size.is_none()) return std::nullopt;
  const std::string expected = volume ? "(width, height) or (width, height, depth)" : "(width, height)";
  try {
    const auto sides = size.cast<std::vector<int>>();
    if (sides.size() == 2 || (volume && sides.size() == 3)) {
      return Size{sides[0], sides[1], sides.size() == 3 ? sides[2] : 1};
    }
  } catch (const py::cast_error&) {
  }
  throw py::value_error(std::string(what) + ": expected " + expected + " as integers, got " +
                        py::repr(size).cast<std::string>());
}

py::tuple size_tuple(Size s) {
  if (s.volume()) return py::make_tuple(s.width, s.height, s.depth);
  return py::make_tuple(s.width, s.height);
}

// A view of the field as it was when field_view() was called: what __dlpack__ hands out.
struct FieldView {
  py::object sim;  // keeps the Sim (and so the memory) alive while the view lives
  FieldStorage storage;
  FieldLayout layout;
  uint64_t step = 0;  // the step it shows; once the Sim has stepped on, its memory holds another
};

FieldView make_view(py::object sim_obj) {
  Sim& s = sim_obj.cast<Sim&>();
  FieldView v{sim_obj, s.storage(), {}, s.steps_done()};
  if (v.storage.data == nullptr) throw py::type_error("this backend does not expose its field");
  v.layout = field_layout(s.size(), s.species_count(), v.storage.cell_stride);
  return v;
}

const char* kModuleDoc =
    R"(physarum: a Physarum (slime-mould) transport network, simulated on the GPU or the CPU.

The same model, presets and results as the `physarum` program: a Sim made with the same preset,
seed and overrides as `physarum run` gives the same field, bit for bit.

    import physarum
    sim = physarum.Sim(size=(512, 512), agents=100_000, preset="defaults", seed=1)
    sim.step(500)
    field = sim.field                  # NumPy float32 (H, W)
    image = sim.render(palette="inferno")  # NumPy uint8 (H, W, 4)

On the CUDA backend, torch.from_dlpack(sim.field_view()) reads the field on the GPU without a copy.

A volume (docs/MODEL.md, "Volume"): size=(W, H, D), its field (D, H, W), point data as food:

    web = physarum.Sim(size=(128, 128, 128), agents=1_000_000, environment_points="galaxies.csv")
    web.step(300)
    volume = web.field                 # NumPy float32 (D, H, W)
)";

const char* kSimDoc = R"(A running simulation.

Sim(size=None, agents=None, preset=None, backend="auto", seed=None, threads=0, **overrides)

size      (width, height) of the field, or (width, height, depth) of a volume; None: the preset's.
agents    number of agents, an int or the command line's text ("250K", "1.5M"); None: the preset's.
preset    a shipped or saved preset's name (see `physarum presets`) or a TOML file; None: the
          built-in defaults.
backend   "auto" (CUDA when a device is present, else CPU), "cpu" or "cuda".
seed      0 to 4294967295; None: the preset's (1 for the built-in defaults).
threads   CPU backend threads; 0: OpenMP's default.
overrides preset keys as `physarum --set` takes them, with the dots as underscores
          (model_decay=0.02, species_1_sensor_angle_deg=30) or as written there
          (**{"model.decay": 0.02}). Applied after the preset; size, agents and seed win over
          run_size, run_agents and run_seed, as on the command line.

The preset's [environment] (food and walls maps) is loaded and its [[keyframe]] tables are followed
by step(), as `physarum run` does; a map that cannot be read raises ValueError naming the file.

Bad arguments raise ValueError with the command line's message; running out of memory raises
MemoryError; other failures physarum.Error (a RuntimeError).)";

// FieldView: the DLPack protocol and the layout it hands out.
void bind_field_view(py::module_& m) {
  py::class_<FieldView>(m, "FieldView", R"(The simulation's field without a copy, for DLPack consumers.

torch.from_dlpack(view) on the CUDA backend gives a CUDA tensor on the simulation's own device
memory; numpy.from_dlpack(view) on the CPU backend an array on its host memory. Shape (H, W) for one
species, (S, H, W) for several; the channels are interleaved in memory, so the strides are
(W*C, C) and (1, W*C, C) floats with C = S (4 for three species on CUDA).

A view is of the step it was taken at: once the Sim has stepped, handing it to a consumer raises
BufferError (call field_view() again; it costs nothing). A tensor made from it shares the
simulation's memory, which stays valid while the tensor lives (it holds the Sim) but is reused: the
backends alternate two buffers, so after step() the tensor shows another step's field (the current
one after every second step). Clone the tensor to keep a step. Writing into it changes the simulation.)")
      .def(
          "__dlpack__",
          [](const FieldView& v, py::object stream, py::object max_version, py::object dl_device,
             py::object copy) {
            (void)stream;       // field_view() waited for the backend's work: the data is ready on any stream
            (void)max_version;  // an unversioned capsule: what DLPack 0.x consumers and newer ones read
            if (!copy.is_none() && copy.cast<bool>()) {
              throw py::buffer_error("field_view() is a view: copy=True is not supported (use Sim.field)");
            }
            if (!dl_device.is_none() && !dl_device.cast<py::tuple>().equal(dlpack_device(v.storage))) {
              throw py::buffer_error(
                  "field_view() lives on its backend's device; use Sim.field for a host copy");
            }
            // The backends alternate two buffers: after a step this memory holds another step's field.
            const uint64_t now = v.sim.cast<Sim&>().steps_done();
            if (now != v.step) {
              throw py::buffer_error("this field_view() shows step " + std::to_string(v.step) +
                                     " and the simulation is at step " + std::to_string(now) +
                                     ": call field_view() again");
            }
            return make_dlpack_capsule(v.storage, v.layout, v.sim);
          },
          py::kw_only(), "stream"_a = py::none(), "max_version"_a = py::none(), "dl_device"_a = py::none(),
          "copy"_a = py::none(), "A DLPack capsule of the field (the DLPack protocol).")
      .def(
          "__dlpack_device__", [](const FieldView& v) { return dlpack_device(v.storage); },
          "(device type, device id): (1, 0) for host memory, (2, n) for CUDA device n.")
      .def_property_readonly(
          "shape",
          [](const FieldView& v) {
            py::tuple t(v.layout.ndim);
            for (int i = 0; i < v.layout.ndim; ++i) t[static_cast<size_t>(i)] = v.layout.shape[i];
            return t;
          },
          "(H, W) or (S, H, W); a volume's (D, H, W).")
      .def_property_readonly(
          "strides",
          [](const FieldView& v) {
            py::tuple t(v.layout.ndim);
            for (int i = 0; i < v.layout.ndim; ++i) t[static_cast<size_t>(i)] = v.layout.strides[i];
            return t;
          },
          "Strides in floats (not bytes), as DLPack gives them.")
      .def_property_readonly(
          "device", [](const FieldView& v) { return v.storage.on_cuda_device ? "cuda" : "cpu"; },
          "\"cuda\" or \"cpu\".");
}

// Sim(size=None, agents=None, preset=None, backend="auto", seed=None, threads=0, **overrides).
std::unique_ptr<Sim> make_sim(py::object size, py::object agents, py::object preset,
                              const std::string& backend, py::object seed, int threads,
                              py::kwargs overrides) {
  SimArgs a;
  a.size = size_arg(size, "size", true);
  if (!agents.is_none()) {
    if (py::isinstance<py::bool_>(agents)) throw py::value_error("agents: expected a number");
    // An integer of any kind (NumPy's too) as digits; text ("250K") as the command line reads it.
    a.agents = py::hasattr(agents, "__index__") ? py::str(py::int_(agents)).cast<std::string>()
                                                : py::str(agents).cast<std::string>();
  }
  if (!preset.is_none()) a.preset = py::str(preset).cast<std::string>();  // str or PathLike
  a.backend = backend;
  if (!seed.is_none()) {
    // The command line's message; a value of another type is a TypeError, not a failed cast.
    const auto refused = [&](const py::object& shown) {
      return std::string("seed ") + py::str(shown).cast<std::string>() +
             " is not an integer in [0, 4294967295]";
    };
    if (py::isinstance<py::bool_>(seed) || !py::hasattr(seed, "__index__"))
      throw py::type_error(refused(py::repr(seed)));
    const py::int_ s(seed);
    if (s < py::int_(0) || s > py::int_(4294967295LL)) throw py::value_error(refused(s));
    a.seed = s.cast<uint32_t>();
  }
  a.threads = threads;
  a.sets = assignments(overrides);
  return std::make_unique<Sim>(a);
}

// Making, stepping and changing a simulation, and reading its state.
void bind_sim_state(py::class_<Sim>& cls) {
  cls.def(py::init(&make_sim), "size"_a = py::none(), "agents"_a = py::none(), "preset"_a = py::none(),
          "backend"_a = "auto", "seed"_a = py::none(), "threads"_a = 0)
      .def("step", &Sim::step, "n"_a = 1,
           "Advances n steps (on the CUDA backend the work is queued; reading the field waits for it).")
      .def_property_readonly(
          "field", &Sim::field,
          "A copy of the field: NumPy float32 (H, W), (S, H, W) with several species, (D, H, W) of a volume.")
      .def_property_readonly("trace", &Sim::trace,
                             "A volume's MCPM trace (what its mcpm species deposit, never sensed): a copy "
                             "shaped as the field; ValueError when no species uses mcpm.")
      .def_property_readonly(
          "agents", &Sim::agents,
          "A copy of the agents sorted by id: {'id': uint32, 'x', 'y', 'theta': float32} "
          "NumPy arrays (cells and radians, y down); a volume's by id: {'x', 'y', 'z', 'hx', 'hy', 'hz'} "
          "(voxels, and the heading's unit vector).")
      .def(
          "set",
          [](Sim& s, py::object params, py::kwargs kwargs) {
            std::vector<std::string> all = assignments(params);
            for (auto& a : assignments(kwargs)) all.push_back(std::move(a));
            s.set(all);
          },
          "params"_a = py::none(),
          "Changes preset keys live, from the next step: model_*, species_* and environment_* reach the "
          "backend, display_* "
          "the next render(), spawn_* the next seed_image(). Keys as for Sim(); a dict of them is taken too. "
          "A refused value raises ValueError and changes nothing; run_* cannot change (make a new Sim).")
      .def(
          "seed_image",
          [](Sim& s, py::object image, const std::string& fit) {
            if (py::isinstance<py::array>(image)) {
              s.seed_image_array(image.cast<py::array>(), fit);
            } else if (py::isinstance<py::str>(image) || py::hasattr(image, "__fspath__")) {
              s.seed_image_file(py::str(image).cast<std::string>(), fit);
            } else {
              const py::array a = py::array::ensure(image);
              if (!a || a.ndim() == 0) {
                throw py::type_error(
                    "seed_image: expected a PNG or JPEG file or an (H, W) or (H, W, 3) array, not " +
                    py::repr(image).cast<std::string>().substr(0, 80));
              }
              s.seed_image_array(a, fit);
            }
          },
          "image"_a, "fit"_a = "fill",
          "Seeds the field from an image: a PNG or JPEG file, or an array of brightness (H, W) or colour "
          "(H, W, 3) in [0, 1] (integer arrays: 0 to their maximum). Resized to the field (fit: \"fill\" "
          "crops, \"fit\" letterboxes), times spawn_field_strength; spawn_agents_from_image respawns the "
          "agents.")
      .def("brush", &Sim::brush, "x"_a, "y"_a, "radius"_a = 10.0f, "amount"_a = 5.0f, "channel"_a = -1,
           "Paints pheromone (amount > 0) or erases (amount < 0) in a disc, in field cells (y down); "
           "channel -1 paints every species' channel.")
      .def("timings", &Sim::timings,
           "Milliseconds per step for each stage, averaged over recent steps: agents_ms, field_ms, sort_ms, "
           "publish_ms, step_ms, and the samples averaged.");
}

// Pictures of the field, views of it without a copy, and what the simulation is.
void bind_sim_outputs(py::class_<Sim>& cls) {
  cls.def(
         "render",
         [](Sim& s, std::optional<std::string> palette, std::optional<std::string> cave, py::object size) {
           return s.render(palette, cave, size_arg(size, "render: size"));
         },
         "palette"_a = py::none(), "cave"_a = py::none(), "size"_a = py::none(),
         "Draws the field with the window's shader, offscreen through EGL: NumPy uint8 (H, W, 4) RGBA, "
         "rows top to bottom. palette and cave (off, even, quantile, binary) default to the preset's "
         "display; size (width, height) to the field's. Raises physarum.Error when no OpenGL 4.5 "
         "context can be made (no GPU driver, and no Mesa: install libegl-mesa0 libgl1-mesa-dri).")
      .def(
          "field_view", [](py::object self) { return make_view(std::move(self)); },
          "The field without a copy (a FieldView for torch.from_dlpack / numpy.from_dlpack).")
      .def_property_readonly(
          "size", [](const Sim& s) { return size_tuple(s.size()); },
          "(width, height) of the field, (width, height, depth) of a volume.")
      .def_property_readonly("agent_count", &Sim::agent_count, "The number of agents.")
      .def_property_readonly("steps_done", &Sim::steps_done, "Steps run so far.")
      .def_property_readonly("species_count", &Sim::species_count, "The number of species (channels).")
      .def_property_readonly("backend", &Sim::backend_name, "The backend, e.g. 'cpu (16 threads)'.")
      .def_property_readonly("note", &Sim::note, "Which backend was chosen and why.")
      .def_property_readonly("preset_toml", &Sim::preset_toml,
                             "The parameters in force, as a preset file's text (save it to run it again).")
      .def("__repr__", [](const Sim& s) {
        return "<physarum.Sim " + format_size(s.size()) + ", " + std::to_string(s.agent_count()) +
               " agents, " + std::to_string(s.steps_done()) + " steps, " + s.backend_name() + ">";
      });
}

}  // namespace
}  // namespace physarum::python

PYBIND11_MODULE(physarum, m) {
  using namespace physarum;
  using namespace physarum::python;
  const std::string data_dir = point_data_dir_at_module();
  m.doc() = kModuleDoc;
  m.attr("__version__") = PHYSARUM_VERSION;
  // Where the shaders, palettes, presets and images are read from, so an installed copy can be
  // checked ("" when neither $PHYSARUM_DATA_DIR nor share/physarum beside the module is there).
  m.attr("data_dir") = data_dir;
  register_errors(m);

  bind_field_view(m);
  py::class_<Sim> sim(m, "Sim", kSimDoc);
  bind_sim_state(sim);
  bind_sim_outputs(sim);
  m.def("cuda_device", &cuda_device,
        "The name of CUDA device 0, or '' when there is none (or no CUDA build).");
  // The GL context goes before the interpreter (and the libraries it loaded) does.
  py::module_::import("atexit").attr("register")(py::cpp_function([] { release_renderer(); }));
}
