#include "window/explore_strip.hpp"

#include <imgui.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "run/preset_library.hpp"
#include "window/explore_favourites.hpp"
#include "window/explore_morph.hpp"
#include "window/gallery.hpp"
#include "window/layout.hpp"
#include "window/panel_values.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {
namespace {

constexpr float kPreviewWidth = 128;  // three to a row
constexpr float kEnlarged = 3;        // a hovered preview, times its size

std::vector<std::string> smooth_palettes(const render::PaletteSet& set) {
  std::vector<std::string> names;
  for (const auto& p : set.palettes) {
    if (!p.discrete) names.push_back(p.name);
  }
  return names;
}

ImVec2 preview_size(float width) {
  return {width, width * static_cast<float>(kPreviewSize.height) / static_cast<float>(kPreviewSize.width)};
}

}  // namespace

ExploreStrip::Entry& ExploreStrip::add(std::deque<Entry>& to, const std::string& label, const Preset& p,
                                       WindowCore& core) {
  const auto& pal = core.palettes().palettes[core.palettes().index_of(p.display.palette)];
  const uint64_t id = next_id_++;
  worker_.request(id, p, pal);
  to.push_back({id, label, p, {}, {}});
  if (&to == &entries_ && entries_.size() > kStrip) entries_.pop_front();
  return to.back();
}

bool ExploreStrip::apply(WindowCore& core, Toasts& toasts, const Entry& e, bool restart) {
  if (const CommandResult r = core.apply_preset(e.preset, core.preset_file); !r) {
    toasts.error(r.error());
    return false;
  }
  if (restart) (void)core.reset();  // grow the new parameters from the start; a refusal shows as the notice
  shown_ = e.label;
  return true;
}

void ExploreStrip::explore(WindowCore& core, Toasts& toasts) {
  explore_seed(core, toasts, next_seed_);
}

void ExploreStrip::explore_seed(WindowCore& core, Toasts& toasts, uint64_t seed) {
  next_seed_ = seed + 1;
  const Preset p = explore_draw(core.preset, seed, smooth_palettes(core.palettes()), locks);
  const Entry& e = add(entries_, "explore-" + std::to_string(seed), p, core);
  if (apply(core, toasts, e, true)) toasts.info("explore seed " + std::to_string(seed));
}

void ExploreStrip::explore_strip(WindowCore& core, Toasts& toasts) {
  const uint64_t first = next_seed_;
  const std::vector<std::string> palettes = smooth_palettes(core.palettes());
  for (size_t k = 0; k < kStrip; ++k) {
    const uint64_t seed = next_seed_++;
    add(entries_, "explore-" + std::to_string(seed), explore_draw(core.preset, seed, palettes, locks), core);
  }
  toasts.info("explore seeds " + std::to_string(first) + " to " + std::to_string(next_seed_ - 1) +
              " growing together: click one to run it");
}

std::vector<std::string> ExploreStrip::strip_labels() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.label);
  return out;
}

void ExploreStrip::mutate(WindowCore& core, Toasts& toasts) {
  try {
    Preset p = explore_mutate(core.preset, mutate_amount, next_seed_, locks);
    ++next_seed_;
    p.keyframes.clear();  // the mutated values hold, rather than being overridden by keyframes
    // "explore-7-m3" mutated again is "explore-7-m4", not "explore-7-m3-m4": names stay short.
    const std::string base = shown_.empty() ? "explore" : shown_.substr(0, shown_.find("-m"));
    const Entry& e = add(entries_, base + "-m" + std::to_string(++mutations_), p, core);
    if (apply(core, toasts, e, true)) toasts.info("mutated by " + std::to_string(mutate_amount).substr(0, 4));
  } catch (const std::exception& ex) {
    toasts.error(ex.what());
  }
}

ExploreStrip::Entry ExploreStrip::running(const WindowCore& core) const {
  return {0, shown_.empty() ? "explore" : shown_, core.preset, {}, {}};
}

void ExploreStrip::save_current(WindowCore& core, Toasts& toasts) {
  save_as_preset(running(core), toasts);
}

void ExploreStrip::favourite_current(WindowCore& core, Toasts& toasts) {
  add_favourite(core, running(core), toasts);
}

void ExploreStrip::upload_finished() {
  for (PreviewWorker::Done& d : worker_.take_done()) {
    if (d.image.rgba.empty()) continue;
    for (std::deque<Entry>* list : {&entries_, &favourites_}) {
      for (Entry& e : *list) {
        if (e.id == d.id && !e.texture) e.texture = upload_preview(d.image);
      }
    }
  }
}

bool ExploreStrip::preview(const Entry& e, float width) {
  bool clicked = false;
  if (e.texture) {
    clicked = ImGui::ImageButton(texture_id(e.texture), preview_size(width), ImVec2(0, 0), ImVec2(1, 1), 1);
  } else {
    const ImVec2 s = preview_size(width);
    clicked = ImGui::Button("growing...", ImVec2(s.x + 2, s.y + 2));
  }
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(e.label.c_str());
    if (e.texture) ImGui::Image(texture_id(e.texture), preview_size(width * kEnlarged));
    ImGui::TextDisabled("click: show it    right-click: favourite, save, morph");
    ImGui::EndTooltip();
  }
  return clicked;
}

bool ExploreStrip::entry_menu(WindowCore& core, Toasts& toasts, const Entry& e, bool favourite) {
  if (!ImGui::BeginPopupContextItem("##entry")) return false;
  if (!favourite && ImGui::MenuItem("Add to favourites")) add_favourite(core, e, toasts);
  if (ImGui::MenuItem("Save as preset")) save_as_preset(e, toasts);
  if (ImGui::MenuItem("Morph: use as A")) a_ = {true, e.label, e.preset};
  if (ImGui::MenuItem("Morph: use as B")) b_ = {true, e.label, e.preset};
  const bool remove = favourite && ImGui::MenuItem("Remove from favourites");
  ImGui::EndPopup();
  return remove;
}

void ExploreStrip::load_favourites_once(WindowCore& core) {
  if (favourites_loaded_) return;
  favourites_loaded_ = true;
  for (Favourite& f : load_favourites(favourites_dir())) {
    add(favourites_, f.file.stem().string(), f.preset, core).file = f.file.string();
  }
}

void ExploreStrip::add_favourite(WindowCore& core, const Entry& e, Toasts& toasts) {
  load_favourites_once(core);  // the saved ones first, so the new one is not listed twice
  Entry& f = add(favourites_, e.label, e.preset, core);
  const std::filesystem::path dir = favourites_dir();
  if (dir.empty()) {
    toasts.info("favourite kept for this session (no data folder to save it in)");
    return;
  }
  try {
    f.file = save_unique_preset(e.preset, dir, e.label).string();
    toasts.info("favourite saved as " + std::filesystem::path(f.file).stem().string());
  } catch (const std::exception& ex) {
    toasts.error(std::string("favourite kept for this session only: ") + ex.what());
  }
}

void ExploreStrip::save_as_preset(const Entry& e, Toasts& toasts) {
  try {
    const auto file = save_unique_preset(e.preset, run::user_preset_dir(), e.label);
    toasts.info("saved preset " + file.stem().string() + " in " + file.parent_path().string());
  } catch (const std::exception& ex) {
    toasts.error(std::string("cannot save the preset: ") + ex.what());
  }
}

void ExploreStrip::header(WindowCore& core, Toasts& toasts) {
  if (ImGui::Button("Explore (E)")) explore(core, toasts);
  ImGui::SameLine();
  if (ImGui::Button("Draw 12")) explore_strip(core, toasts);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the next 12 seeds' previews, grown together: click one to run it");
  ImGui::SameLine();
  if (!shown_.empty()) {
    ImGui::TextUnformatted(shown_.c_str());
  } else {
    ImGui::TextDisabled("next seed %llu", static_cast<unsigned long long>(next_seed_));
  }
  ImGui::SetNextItemWidth(px(120));
  const bool typed =
      ImGui::InputTextWithHint("##seed", "seed", typed_, sizeof typed_,
                               ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CharsDecimal);
  ImGui::SameLine();
  if (ImGui::Button("Draw this seed") || typed) {
    uint64_t seed = 0;
    const std::string_view text(typed_);
    const auto r = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      toasts.error("explore seed '" + std::string(text) + "': type a whole number");
    } else {
      explore_seed(core, toasts, seed);
    }
  }
  // What is running now, whatever made it (a preset, an edit, a draw).
  const Entry now = running(core);
  if (ImGui::Button("Save as preset")) save_current(core, toasts);
  ImGui::SameLine();
  if (ImGui::Button("Favourite")) favourite_current(core, toasts);
  ImGui::SameLine();
  if (ImGui::Button("Morph A")) a_ = {true, now.label, now.preset};
  ImGui::SameLine();
  if (ImGui::Button("Morph B")) b_ = {true, now.label, now.preset};
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the current parameters become an end of the morph below");
}

void ExploreStrip::strip(WindowCore& core, Toasts& toasts) {
  // Newest first; a click returns to that result.
  int shown = 0;
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it, ++shown) {
    if (shown % 3 != 0) ImGui::SameLine();
    ImGui::PushID(static_cast<int>(it->id & 0x7fffffff));
    const bool clicked = preview(*it, px(kPreviewWidth));
    (void)entry_menu(core, toasts, *it, false);
    ImGui::PopID();
    if (clicked) {
      const Entry e{it->id, it->label, it->preset, {}, {}};
      (void)apply(core, toasts, e, true);
      break;
    }
  }
}

void ExploreStrip::lock_and_mutate(WindowCore& core, Toasts& toasts) {
  ImGui::SetNextItemWidth(px(160));
  ImGui::SliderFloat("##amount", &mutate_amount, 0, 1, "amount %.2f");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("how far each value may move, as a fraction of its Explore range");
  ImGui::SameLine();
  if (ImGui::Button("Mutate")) mutate(core, toasts);
  ImGui::TextDisabled("locked values stay as they are while the rest vary:");
  const bool species = !core.preset.species.list.empty();
  int column = 0;
  for (const registry::Param* p : explored_params()) {
    if (p->section == registry::Section::Interaction && !species) continue;
    const std::string name = lock_name(*p);
    bool on = locks.count(name) != 0;
    // Three columns: the window stays low enough to leave the field visible at 1280x720.
    if (const int c = column++ % 3; c != 0) ImGui::SameLine(static_cast<float>(8 + 135 * c));
    const bool matrix = p->section == registry::Section::Interaction;
    if (ImGui::Checkbox(matrix ? "interaction matrix" : label_of(*p).c_str(), &on)) {
      if (on) {
        locks.insert(name);
      } else {
        locks.erase(name);
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(p->doc).c_str());
  }
}

void ExploreStrip::favourites(WindowCore& core, Toasts& toasts) {
  load_favourites_once(core);
  if (favourites_.empty()) ImGui::TextDisabled("right-click a preview, or press Favourite above");
  int shown = 0;
  for (auto it = favourites_.begin(); it != favourites_.end(); ++it, ++shown) {
    if (shown % 3 != 0) ImGui::SameLine();
    ImGui::PushID(static_cast<int>(it->id & 0x7fffffff));
    const bool clicked = preview(*it, px(kPreviewWidth));
    const bool remove = entry_menu(core, toasts, *it, true);
    ImGui::PopID();
    if (remove) {
      std::error_code ec;
      if (!it->file.empty() && !std::filesystem::remove(it->file, ec) && ec) {
        toasts.error("cannot remove " + it->file + ": " + ec.message());
      } else {
        favourites_.erase(it);
      }
      break;
    }
    if (clicked) {
      const Entry e{it->id, it->label, it->preset, {}, {}};
      (void)apply(core, toasts, e, true);
      break;
    }
  }
}

void ExploreStrip::morph(WindowCore& core, Toasts& toasts) {
  ImGui::Text("A: %s", a_.set ? a_.label.c_str() : "(press Morph A)");
  ImGui::Text("B: %s", b_.set ? b_.label.c_str() : "(press Morph B)");
  if (!a_.set || !b_.set) return;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##t", &morph_t, 0, 1, "A %.2f B")) {
    try {
      Preset m = app::morph(a_.preset, b_.preset, morph_t);
      m.run = core.preset.run;  // the running field and agents stay: the morph changes the values live
      m.spawn = core.preset.spawn;
      m.keyframes.clear();
      if (const CommandResult r = core.apply_preset(m, core.preset_file); !r) toasts.error(r.error());
      shown_ = "morph-" + std::to_string(std::lround(morph_t * 100));
    } catch (const std::exception& ex) {
      toasts.error(ex.what());
    }
  }
  ImGui::SetNextItemWidth(px(120));
  ImGui::InputInt("steps##story", &story_steps, 100, 1000);
  ImGui::SameLine();
  if (ImGui::Button("As a story")) {
    try {
      if (story_steps < 1) throw Error("a story needs at least 1 step, not " + std::to_string(story_steps));
      const uint64_t from = core.steps_done();
      morph_story(core.preset, a_.preset, b_.preset, from, static_cast<uint64_t>(story_steps));
      toasts.info("story: A at step " + std::to_string(from) + ", B at step " +
                  std::to_string(from + story_steps));
    } catch (const std::exception& ex) {
      toasts.error(ex.what());
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("write A and B as two keyframes of the running preset");
}

void ExploreStrip::draw(WindowCore& core, Toasts& toasts) {
  upload_finished();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Anchored at the bottom right and sized to fit: it grows upward as results arrive.
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x - px(10), vp->WorkPos.y + vp->WorkSize.y - px(10)),
      ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowBgAlpha(0.85f);
  // Never more than half the field's height: with every section open the content scrolls instead,
  // and the field stays in view (layout.hpp: kMaxFieldCover).
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(vp->WorkSize.x - px(20), kMaxFieldCover * vp->WorkSize.y));
  if (ImGui::Begin("Explore", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    header(core, toasts);
    strip(core, toasts);
    if (ImGui::CollapsingHeader("Lock and mutate")) lock_and_mutate(core, toasts);
    if (ImGui::CollapsingHeader("Favourites")) favourites(core, toasts);
    if (ImGui::CollapsingHeader("Morph")) morph(core, toasts);
  }
  ImGui::End();
}

}  // namespace physarum::app
