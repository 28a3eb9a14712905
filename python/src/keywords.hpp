// Python keyword arguments as the command line's --set assignments: `model_decay=0.02` (or the key
// as written on the command line, `**{"model.decay": 0.02}`) is "model.decay=0.02".
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace physarum::python {

// "model_decay" -> "model.decay", "species_1_decay" -> "species.1.decay"; a name with a dot is kept.
// Unknown sections are left for apply_override to refuse with its message.
std::string dotted_key(const std::string& name);

// The value as the command line would spell it: True/False -> true/false, numbers by repr (the
// shortest text that reads back as the same double, which parses to the same float as the
// command line's text), (W, H) -> "WxH", strings as they are. Raises ValueError for anything else.
std::string value_text(const std::string& key, pybind11::handle value);

// Every item of `mapping` (a dict or kwargs) as "section.key=value", in the order given.
std::vector<std::string> assignments(pybind11::handle mapping);

}  // namespace physarum::python
