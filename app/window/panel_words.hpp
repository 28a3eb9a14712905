// Words in the panel that read whole at any panel width: a combo whose box shows a short name and
// the long form on hover, and greyed notes that wrap.
#pragma once

#include <span>
#include <string>
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

// The names that did not fit their box when drawn (each once): the tests' check that nothing is
// cut off.
const std::vector<std::string>& cut_off_choices();

}  // namespace physarum::app
