// How C++ errors reach Python: a bad argument is a ValueError carrying the command line's message,
// running out of memory a MemoryError, anything else physarum.Error (a RuntimeError).
#pragma once

#include <pybind11/pybind11.h>

#include <utility>

#include "sim/params.hpp"

namespace physarum::python {

// Registers physarum.Error on the module and the translators for every C++ exception the library
// throws (run::UsageError, run::InputError, physarum::OutOfMemoryError, physarum::Error).
void register_errors(pybind11::module_& m);

// Runs f; a physarum::Error it throws is a bad argument: rethrown as ValueError with the same text
// (out-of-memory stays MemoryError).
template <class F>
decltype(auto) as_value_error(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error& e) {
    throw pybind11::value_error(e.what());
  }
}

}  // namespace physarum::python
