#include "window/atlas_window.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include "run/batch.hpp"
#include "sim/registry.hpp"
#include "window/gallery.hpp"
#include "window/layout.hpp"
#include "window/panel_words.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {
namespace {

using Clock = std::chrono::steady_clock;

// Steps between looks at the stop flag: a cancel or a new grid waits at most this long.
constexpr uint64_t kSlice = 5;
// New pictures of the growing worlds at most this often.
constexpr auto kSnapshotEvery = std::chrono::milliseconds(250);
constexpr int kMinTile = 16;

std::string number(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

atlas::Axis make_axis(const char* option, const AtlasAxisChoice& a, const Preset& base) {
  if (a.count < kAtlasMinCount || a.count > kAtlasMaxCount) {
    throw run::UsageError(std::string(option) + " count " + std::to_string(a.count) + " is outside " +
                          std::to_string(kAtlasMinCount) + " to " + std::to_string(kAtlasMaxCount));
  }
  return atlas::parse_axis(
      option, a.key + "=" + number(a.from) + ":" + number(a.to) + ":" + std::to_string(a.count), base);
}

}  // namespace

AtlasGrid make_atlas_grid(const Preset& live, const AtlasSettings& s) {
  if (s.steps < 1) throw run::UsageError("atlas steps " + std::to_string(s.steps) + ": at least 1");
  AtlasGrid g;
  g.base = live;
  g.base.keyframes.clear();
  g.x = make_axis("x", s.x, g.base);
  g.y = make_axis("y", s.y, g.base);
  g.steps = s.steps;
  atlas::check_axes(run::with_base(run::Recipe{}, g.base), g.x, g.y);
  return g;
}

std::vector<run::Recipe> atlas_recipes(const AtlasGrid& g) {
  const run::Recipe tile = preview_recipe(g.base, kAtlasTileSize);
  std::vector<run::Recipe> out;
  for (int iy = 0; iy < g.y.n; ++iy)
    for (int ix = 0; ix < g.x.n; ++ix) out.push_back(atlas::world_recipe(tile, g.x, ix, g.y, iy));
  return out;
}

Preset atlas_tile_preset(const AtlasGrid& g, int ix, int iy) {
  return run::resolve(atlas::world_recipe(run::with_base(run::Recipe{}, g.base), g.x, ix, g.y, iy));
}

CommandResult load_atlas_tile(WindowCore& core, const AtlasGrid& g, int ix, int iy) {
  Preset p;
  try {
    p = atlas_tile_preset(g, ix, iy);
  } catch (const std::exception& e) {
    return CommandResult::refused(e.what());
  }
  if (const CommandResult r = core.apply_preset(p, core.preset_file); !r) return r;
  (void)core.reset();  // grown from the start, as the tile was; a refusal shows as the notice
  return CommandResult::done();
}

std::string atlas_tooltip(const AtlasGrid& g, int ix, int iy) {
  const auto line = [](const atlas::Axis& a, int i) {
    std::string s = a.key + " = " + atlas::tick_label(a.value(i));
    if (!a.unit.empty()) s += " " + a.unit;
    return s;
  };
  return line(g.x, ix) + "\n" + line(g.y, iy);
}

atlas::MosaicLayout atlas_screen_layout(const AtlasGrid& g, int tile) {
  atlas::MosaicLayout l;
  l.nx = g.x.n;
  l.ny = g.y.n;
  l.tile_w = l.tile_h = tile;
  return l;
}

void AtlasGrower::start(const AtlasGrid& g, const render::Palette& palette, int threads) {
  cancel();
  std::vector<run::Recipe> recipes = atlas_recipes(g);
  {
    std::lock_guard lock(mutex_);
    latest_ = {latest_.version + 1, 0, {}, "", ""};
  }
  growing_ = true;
  thread_ = std::thread([this, r = std::move(recipes), steps = static_cast<uint64_t>(g.steps), palette,
                         threads]() mutable { grow(std::move(r), steps, std::move(palette), threads); });
}

void AtlasGrower::cancel() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  stop_ = false;
  growing_ = false;
}

AtlasGrower::Snapshot AtlasGrower::take_if_newer(uint64_t version) {
  std::lock_guard lock(mutex_);
  if (latest_.version <= version) return {version, latest_.steps_done, {}, latest_.note, latest_.error};
  return latest_;
}

void AtlasGrower::grow(std::vector<run::Recipe> recipes, uint64_t steps, render::Palette palette,
                       int threads) {
  try {
    run::Batch batch(recipes, threads);
    {
      std::lock_guard lock(mutex_);
      latest_.note = batch.note();
    }
    auto shown = Clock::now();
    std::vector<float> field;
    for (uint64_t done = 0; !stop_;) {
      const bool finished = done >= steps;
      if (finished || Clock::now() - shown > kSnapshotEvery) {
        std::vector<PreviewImage> tiles;
        for (size_t i = 0; i < batch.worlds(); ++i) {
          batch.read_field(i, field);
          tiles.push_back(colour_preview(field, batch.size(i), batch.preset(i), batch.species(i), palette));
        }
        std::lock_guard lock(mutex_);
        latest_.tiles = std::move(tiles);
        latest_.steps_done = done;
        ++latest_.version;
        shown = Clock::now();
      }
      if (finished) break;
      const uint64_t k = std::min(kSlice, steps - done);
      batch.step(k);
      done += k;
    }
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    latest_.error = e.what();
  }
  growing_ = false;
}

void AtlasWindow::grow(WindowCore& core, Toasts& toasts) {
  try {
    grid_ = make_atlas_grid(core.preset, settings);
  } catch (const std::exception& e) {
    toasts.error(e.what());
    return;
  }
  const render::PaletteSet& pals = core.palettes();
  grower_.start(grid_, pals.palettes[pals.index_of(grid_.base.display.palette)], background_threads());
  shown_ = true;
  textures_.clear();
  steps_done_ = 0;
}

void AtlasWindow::upload_latest() {
  AtlasGrower::Snapshot s = grower_.take_if_newer(version_);
  note_ = s.error.empty() ? s.note : "failed: " + s.error;
  if (s.tiles.empty()) return;
  version_ = s.version;
  steps_done_ = s.steps_done;
  textures_.clear();
  for (const PreviewImage& img : s.tiles) textures_.push_back(upload_preview(img));
}

// The key on one line, its range and count under it: the window stays narrow beside the field.
void AtlasWindow::axis_controls(const char* id, AtlasAxisChoice& a, const Preset& live,
                                const std::vector<std::string>& keys) {
  ImGui::PushID(id);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(id);
  ImGui::SameLine();
  const float indent = ImGui::GetCursorPosX();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##key", a.key.c_str(), ImGuiComboFlags_HeightLarge)) {
    for (const std::string& k : keys) {
      if (ImGui::Selectable(k.c_str(), k == a.key) && k != a.key) {
        a.key = k;
        // A new key starts over its Explore range where it has one: values that give structure.
        const registry::Param* p = registry::resolve(live, k).param;
        if (p->explore_hi > p->explore_lo) {
          a.from = p->explore_lo;
          a.to = p->explore_hi;
        }
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SetCursorPosX(indent);
  ImGui::SetNextItemWidth(px(70));
  ImGui::InputDouble("##from", &a.from, 0, 0, "%.4g");
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(px(70));
  ImGui::InputDouble("##to", &a.to, 0, 0, "%.4g");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(px(80));
  ImGui::InputInt("##count", &a.count);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("values along this axis, %d to %d", kAtlasMinCount, kAtlasMaxCount);
  ImGui::PopID();
}

void AtlasWindow::controls(WindowCore& core, Toasts& toasts) {
  const std::vector<std::string> keys = atlas::sweepable_keys(core.preset);
  axis_controls("x", settings.x, core.preset, keys);
  axis_controls("y", settings.y, core.preset, keys);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("steps");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(px(100));
  ImGui::InputInt("##steps", &settings.steps, 100, 1000);
  ImGui::SameLine();
  if (ImGui::Button(grower_.growing() ? "Restart" : "Grow")) grow(core, toasts);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("grow the live preset over these values, a small world a tile");
  if (grower_.growing()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) grower_.cancel();
  }
  if (!shown_) {
    note("Grow: one small world of the live preset a tile");
    return;
  }
  ImGui::SameLine();
  const float done = static_cast<float>(steps_done_) / static_cast<float>(std::max(1, grid_.steps));
  const std::string progress = std::to_string(steps_done_) + " / " + std::to_string(grid_.steps) + " steps";
  ImGui::ProgressBar(done, ImVec2(-1, 0), progress.c_str());
  note(note_.c_str());  // wrapped: the window is narrow
}

// Each axis's values under (x) and beside (y) the tiles, thinned where they would touch, and the
// keys with their units.
void AtlasWindow::tick_labels(const atlas::MosaicLayout& l, float x0, float y0) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  const float line = ImGui::GetTextLineHeight();
  float widest = 0;
  for (int i = 0; i < l.nx; ++i)
    widest = std::max(widest, ImGui::CalcTextSize(atlas::tick_label(grid_.x.value(i)).c_str()).x);
  const int every = std::max(1, static_cast<int>(std::ceil((widest + 8) / static_cast<float>(l.tile_w))));
  const float below = y0 + static_cast<float>(l.ny * l.tile_h) + 2;
  for (int i = 0; i < l.nx; i += every) {
    const std::string t = atlas::tick_label(grid_.x.value(i));
    const float cx = x0 + static_cast<float>(l.tile_x(i)) + static_cast<float>(l.tile_w) / 2;
    dl->AddText(ImVec2(cx - ImGui::CalcTextSize(t.c_str()).x / 2, below), colour, t.c_str());
  }
  const int every_y = std::max(1, static_cast<int>(std::ceil((line + 2) / static_cast<float>(l.tile_h))));
  for (int i = 0; i < l.ny; i += every_y) {
    const std::string t = atlas::tick_label(grid_.y.value(i));
    const float cy = y0 + static_cast<float>(l.tile_y(i)) + static_cast<float>(l.tile_h) / 2;
    dl->AddText(ImVec2(x0 - 6 - ImGui::CalcTextSize(t.c_str()).x, cy - line / 2), colour, t.c_str());
  }
  const std::string xl = "x: " + grid_.x.label();
  const float mid = x0 + static_cast<float>(l.nx * l.tile_w) / 2;
  dl->AddText(ImVec2(mid - ImGui::CalcTextSize(xl.c_str()).x / 2, below + line + 2), colour, xl.c_str());
}

void AtlasWindow::mosaic(WindowCore& core, Toasts& toasts) {
  const std::string yl = "y: " + grid_.y.label();
  ImGui::TextUnformatted(yl.c_str());
  const float line = ImGui::GetTextLineHeight();
  float left = 0;
  for (int i = 0; i < grid_.y.n; ++i)
    left = std::max(left, ImGui::CalcTextSize(atlas::tick_label(grid_.y.value(i)).c_str()).x);
  left += 10;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fit = std::min(
      (avail.x - left - 4) / static_cast<float>(grid_.x.n),
      (avail.y - 2 * line - 2 * ImGui::GetStyle().ItemSpacing.y - 8) / static_cast<float>(grid_.y.n));
  const int tile = std::clamp(static_cast<int>(fit), kMinTile, kAtlasTileSize.width);
  const atlas::MosaicLayout l = atlas_screen_layout(grid_, tile);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float x0 = at.x + left, y0 = at.y;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int iy = 0; iy < l.ny; ++iy) {
    for (int ix = 0; ix < l.nx; ++ix) {
      const ImVec2 p(x0 + static_cast<float>(l.tile_x(ix)), y0 + static_cast<float>(l.tile_y(iy)));
      const ImVec2 q(p.x + static_cast<float>(tile), p.y + static_cast<float>(tile));
      const size_t i = static_cast<size_t>(iy * l.nx + ix);
      if (i < textures_.size()) {
        dl->AddImage(texture_id(textures_[i]), p, q);
      } else {
        dl->AddRectFilled(p, q, IM_COL32(40, 40, 48, 255));
      }
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(x0, y0));
  ImGui::InvisibleButton("##tiles", ImVec2(static_cast<float>(l.nx * tile), static_cast<float>(l.ny * tile)));
  int ix = 0, iy = 0;
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (ImGui::IsItemHovered() && l.tile_at(static_cast<int>(m.x - x0), static_cast<int>(m.y - y0), &ix, &iy)) {
    const ImVec2 p(x0 + static_cast<float>(l.tile_x(ix)), y0 + static_cast<float>(l.tile_y(iy)));
    dl->AddRect(p, ImVec2(p.x + static_cast<float>(tile), p.y + static_cast<float>(tile)),
                IM_COL32(255, 255, 255, 255));
    ImGui::SetTooltip("%s\nclick: load into the simulation (Ctrl+Z undoes it)",
                      atlas_tooltip(grid_, ix, iy).c_str());
    if (ImGui::IsItemClicked()) {
      if (const CommandResult r = load_atlas_tile(core, grid_, ix, iy); r) {
        toasts.info("loaded " + grid_.x.assignment(ix) + ", " + grid_.y.assignment(iy));
      } else {
        toasts.error(r.error());
      }
    }
  }
  tick_labels(l, x0, y0);
  ImGui::Dummy(ImVec2(0, 2 * line + px(8)));
}

void AtlasWindow::draw(WindowCore& core, Toasts& toasts, bool& open) {
  upload_latest();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Beside the panel, at most 40% of the field's width and as tall as its controls and a square
  // mosaic need: most of the field stays in view.
  const float w = std::min(px(840), 0.4f * vp->WorkSize.x);
  const float h = std::min(w + px(190), vp->WorkSize.y - px(20));
  place_over_field("Atlas", ImVec2(vp->WorkPos.x + px(10), vp->WorkPos.y + px(10)), ImVec2(0, 0),
                   ImVec2(w, h));
  ImGui::SetNextWindowBgAlpha(0.9f);
  if (ImGui::Begin("Atlas", &open)) {
    controls(core, toasts);
    if (shown_) mosaic(core, toasts);
  }
  ImGui::End();
  if (!open) grower_.cancel();
}

}  // namespace physarum::app
