#include "keyframe_keys.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "sim/preset.hpp"
#include "toml_text.hpp"

namespace physarum::keyframe_keys {

void flatten(const toml::table& t, const std::string& prefix, Leaves& out) {
  for (const auto& [k, node] : t) {
    const std::string name = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = node.as_table()) {
      flatten(*sub, name, out);
    } else if (const toml::array* a = node.as_array();
               a != nullptr && !a->empty() && a->is_array_of_tables()) {
      for (size_t i = 0; i < a->size(); ++i)
        flatten(*(*a)[i].as_table(), name + "." + std::to_string(i), out);
    } else {
      out.emplace_back(name, &node);
    }
  }
}

const toml::node* PresetKeys::find(std::string_view key) const {
  for (const auto& [name, node] : leaves) {
    if (name == key) return node;
  }
  return nullptr;
}

PresetKeys preset_keys(const Preset& p) {
  Preset plain = p;
  plain.keyframes.clear();
  PresetKeys k;
  k.doc = toml::parse(preset_to_toml(plain));
  flatten(k.doc, "", k.leaves);
  return k;
}

bool keyframable(std::string_view key) {
  if (key.rfind("run.", 0) == 0 || key.rfind("spawn.", 0) == 0) return false;
  if (key.rfind("species.", 0) == 0) {
    const std::string_view last = key.substr(key.rfind('.') + 1);
    if (last == "name" || last == "spawn" || last == "share") return false;
  }
  return true;
}

namespace {
std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "true or false";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}
}  // namespace

KeyframeValue value_of(std::string_view key, const toml::node& node, const toml::node& like) {
  KeyframeValue v;
  v.key = std::string(key);
  if (like.is_floating_point()) {
    double d = 0;
    if (const auto f = node.as_floating_point()) {
      d = f->get();
    } else if (const auto i = node.as_integer()) {
      d = static_cast<double>(i->get());
    } else {
      throw Error("expected a number, got " + type_name(node));
    }
    const auto f = static_cast<float>(d);
    if (!std::isfinite(d) || !std::isfinite(f)) throw Error("must be a finite float");
    if (d != 0 && std::fabs(f) < std::numeric_limits<float>::min()) throw Error("is too small for a float");
    v.number = true;
    v.value = f;
    return v;
  }
  if (node.type() != like.type()) throw Error("expected " + type_name(like) + ", got " + type_name(node));
  if (const auto s = node.as_string()) {
    v.text = s->get();
    v.toml = toml_quote(v.text);
  } else if (const auto b = node.as_boolean()) {
    v.text = v.toml = b->get() ? "true" : "false";
  } else if (const auto i = node.as_integer()) {
    v.text = v.toml = std::to_string(i->get());
  } else if (const toml::array* a = node.as_array()) {
    std::ostringstream os;
    os << toml::toml_formatter(*a, toml::format_flags::none);
    v.text = v.toml = os.str();
  } else {
    throw Error("cannot be keyframed (" + type_name(node) + ")");
  }
  return v;
}

}  // namespace physarum::keyframe_keys
