// Words in the panel that read whole at any panel width: a combo whose box shows a short name and
// the long form on hover, and greyed notes that wrap.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace physarum::app {

struct Choice {
  const char* name;  // a few words: what the box shows
  const char* note;  // the long form, on hover
};

// True when the choice changed. `value` out of range shows the first choice and is not changed
// until one is picked.
bool choice_combo(const char* label, int& value, std::span<const Choice> choices);

// A greyed note (ImGui::TextDisabled) wrapped at the panel's edge instead of cut off.
void note(const char* text);

// `text` in lines no wider than `width`, broken at spaces only (and at its own newlines): ImGui's
// TextWrapped also breaks after '.' and ',', which split "lambda = 0.0244" into "0." and "0244". A
// word wider than `width` gets a line of its own, whole. `measure`: a string's width.
std::vector<std::string> wrap_at_spaces(std::string_view text, float width,
                                        const std::function<float(std::string_view)>& measure);

// Text wrapped at the window's edge by wrap_at_spaces: numbers read whole.
void text_wrapped(std::string_view text);

// The names that did not fit their box when drawn (each once): the tests' check that nothing is
// cut off.
const std::vector<std::string>& cut_off_choices();

}  // namespace physarum::app
