#include "errors.hpp"

#include "run/recipe.hpp"

namespace py = pybind11;

namespace physarum::python {

void register_errors(py::module_& m) {
  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  error.doc() = "A failure inside physarum (a device error, an unreadable file): the message says what.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const run::UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const run::InputError& e) {  // a file named in the arguments
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const OutOfMemoryError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
}

}  // namespace physarum::python
