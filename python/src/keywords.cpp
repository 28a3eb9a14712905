#include "keywords.hpp"

#include <cctype>

namespace py = pybind11;

namespace physarum::python {

std::string dotted_key(const std::string& name) {
  if (name.find('.') != std::string::npos) return name;
  std::string out = name;
  const auto first = out.find('_');
  if (first == std::string::npos) return out;
  out[first] = '.';
  // species_N_key: the species' number is a section of its own.
  if (out.rfind("species.", 0) == 0) {
    size_t i = first + 1;
    while (i < out.size() && std::isdigit(static_cast<unsigned char>(out[i]))) ++i;
    if (i > first + 1 && i < out.size() && out[i] == '_') out[i] = '.';
  }
  return out;
}

std::string value_text(const std::string& key, py::handle value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value))
    return py::repr(value).cast<std::string>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  // NumPy scalars and other number types: their exact value as a Python int or float.
  if (py::hasattr(value, "__index__"))
    return py::str(py::int_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  if (py::hasattr(value, "__float__"))
    return py::repr(py::float_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
    const auto seq = value.cast<py::sequence>();
    if (seq.size() == 2 && py::isinstance<py::int_>(seq[0]) && py::isinstance<py::int_>(seq[1])) {
      return py::str(seq[0]).cast<std::string>() + "x" + py::str(seq[1]).cast<std::string>();
    }
    // Rows of numbers (the interaction matrix): [[1, -1], [0.5, 1]], each number exactly.
    std::string rows = "[";
    for (const auto row : seq) {
      if (!py::isinstance<py::tuple>(row) && !py::isinstance<py::list>(row)) {
        rows.clear();
        break;
      }
      rows += rows.size() > 1 ? ", [" : "[";
      bool first = true;
      for (const auto x : row.cast<py::sequence>()) {
        rows += (first ? "" : ", ") + value_text(key, x);
        first = false;
      }
      rows += "]";
    }
    if (!rows.empty() && seq.size() > 0) return rows + "]";
  }
  throw py::value_error(key + ": " + py::repr(value).cast<std::string>() +
                        " is not a value physarum takes (a number, True/False, a string or (W, H))");
}

std::vector<std::string> assignments(py::handle mapping) {
  std::vector<std::string> out;
  if (mapping.is_none()) return out;
  for (const auto& item : mapping.cast<py::dict>()) {
    const std::string key = dotted_key(py::str(item.first).cast<std::string>());
    out.push_back(key + "=" + value_text(key, item.second));
  }
  return out;
}

}  // namespace physarum::python
