#include "window/layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the viewport's work area, ini settings handlers

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>

#include "run/preset_library.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {
namespace {

ImGuiViewportP* main_viewport() {
  return static_cast<ImGuiViewportP*>(ImGui::GetMainViewport());
}

void menu_bar(LayoutState& layout, bool& visible) {
  if (!ImGui::BeginMenuBar()) return;
  // Toggles in the bar itself, not behind a menu: one click, and the highlight says what is open.
  ImGui::MenuItem("Performance (P)", nullptr, &layout.performance_open);
  ImGui::MenuItem("Explore (E)", nullptr, &layout.explore_open);
  ImGui::MenuItem("Atlas (A)", nullptr, &layout.atlas_open);
  if (ImGui::MenuItem("Hide (Tab)")) visible = false;
  ImGui::EndMenuBar();
}

// ImGui writes tree nodes' open state (0 or 1) into the window's storage under their id; other
// values there are not open states.
bool is_open_state(const ImGuiStorage::ImGuiStoragePair& p) {
  return p.val_i == 0 || p.val_i == 1;
}

void* read_open(ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) {
  return std::strcmp(name, "Layout") == 0 ? handler->UserData : nullptr;
}

void read_line(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
  auto& st = *static_cast<LayoutState*>(entry);
  int v = 0;
  unsigned id = 0;
  float scale = 0;
  // Earlier versions kept Performance=, Explore= and Atlas= (open or not): ignored, they start closed.
  const auto valid = [](float k) { return k >= kMinUiScale && k <= kMaxUiScale; };
  if (std::sscanf(line, "UiScale=%f", &scale) == 1 && valid(scale)) st.ui_scale = scale;
  if (std::sscanf(line, "WrittenAtScale=%f", &scale) == 1 && valid(scale)) st.written_at_scale = scale;
  if (std::sscanf(line, "Open=0x%X,%d", &id, &v) == 2 && (v == 0 || v == 1)) {
    st.restored_sections.emplace_back(static_cast<uint32_t>(id), v);
  }
}

void write_all(ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
  const auto& st = *static_cast<const LayoutState*>(handler->UserData);
  out->appendf("[%s][Layout]\n", handler->TypeName);
  if (st.ui_scale > 0) out->appendf("UiScale=%g\n", static_cast<double>(st.ui_scale));
  out->appendf("WrittenAtScale=%g\n", static_cast<double>(ui_scale()));  // the panel's width is at it
  if (const ImGuiWindow* panel = ImGui::FindWindowByName(kPanelWindow)) {
    for (const auto& p : panel->StateStorage.Data)
      if (is_open_state(p)) out->appendf("Open=0x%08X,%d\n", p.key, p.val_i);
  } else {  // the panel never showed this session (--hide-panel): keep what was read
    for (const auto& [id, open] : st.restored_sections) out->appendf("Open=0x%08X,%d\n", id, open);
  }
  out->append("\n");
}

constexpr const char* kSettingsType = "Physarum";

}  // namespace

bool begin_side_panel(LayoutState& layout, bool& visible) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float scale = ui_scale();
  const float widest = std::max(kPanelMinWidth * scale, kPanelMaxFraction * vp->Size.x);
  const float narrowest = std::min(kPanelMinWidth * scale, widest);
  ImGui::SetNextWindowPos(vp->Pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::min(kPanelWidth * scale, widest), vp->Size.y), ImGuiCond_FirstUseEver);
  // Full height always; the width is the user's (dragged at the right edge, kept in the ini file).
  ImGui::SetNextWindowSizeConstraints(ImVec2(narrowest, vp->Size.y), ImVec2(widest, vp->Size.y));
  ImGui::SetNextWindowBgAlpha(0.96f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  const bool open = ImGui::Begin(kPanelWindow, nullptr, flags);
  if (!layout.restored_sections.empty()) {
    ImGuiStorage* storage = ImGui::GetStateStorage();
    for (const auto& [id, state] : layout.restored_sections) storage->SetInt(id, state);
    layout.restored_sections.clear();
  }
  if (open) menu_bar(layout, visible);
  return open;
}

void end_side_panel() {
  const float width = ImGui::GetWindowWidth();
  ImGui::End();
  ImGuiViewportP* vp = main_viewport();
  vp->WorkOffsetMin.x += width;
  vp->UpdateWorkRect();
}

void dock_under_field(const char* window_name, float width) {
  ImGuiWindow* w = ImGui::FindWindowByName(window_name);
  if (!w || !w->Active) return;
  // One band under the field, shared side by side: windows with a width fill it from the right,
  // one without takes what is left. The band is as tall as its tallest window.
  // The band is this frame's, of this ImGui context (the tests make several).
  static struct {
    const ImGuiContext* context = nullptr;
    int frame = -1;
    float right = 0, height = 0;
  } band;
  ImGuiViewportP* vp = main_viewport();
  const ImGuiContext* context = ImGui::GetCurrentContext();
  if (band.context != context || band.frame != ImGui::GetFrameCount())
    band = {context, ImGui::GetFrameCount(), 0, 0};
  const ImRect work = vp->GetWorkRect();
  const float bottom = work.Max.y + band.height;  // the band's bottom: where the work area ended before it
  const float space = work.GetHeight() + band.height;
  // As tall as its contents (a strip's own size would be whatever its first frame had), a title
  // bar when collapsed; the field keeps half the height at least.
  const float wanted = w->Collapsed ? w->TitleBarHeight() : ImGui::CalcWindowNextAutoFitSize(w).y;
  const float height = std::min(wanted, 0.5f * space);
  const float right = work.Max.x - band.right;
  const float left = width > 0 ? std::max(work.Min.x, right - px(width)) : work.Min.x;
  ImGui::SetWindowPos(window_name, ImVec2(left, bottom - height));
  ImGui::SetWindowSize(window_name, ImVec2(right - left, height));
  band.right += right - left;
  if (height > band.height) {
    vp->WorkOffsetMax.y -= height - band.height;
    band.height = height;
    vp->UpdateWorkRect();
  }
}

float field_cover(const ImRect& r) {
  const ImRect work = main_viewport()->GetWorkRect();
  const float area = work.GetWidth() * work.GetHeight();
  if (!(area > 0)) return 0;
  const float w = std::min(r.Max.x, work.Max.x) - std::max(r.Min.x, work.Min.x);
  const float h = std::min(r.Max.y, work.Max.y) - std::max(r.Min.y, work.Min.y);
  return w > 0 && h > 0 ? w * h / area : 0;
}

void place_over_field(const char* window_name, ImVec2 pos, ImVec2 pivot, ImVec2 size) {
  const ImGuiWindow* w = ImGui::FindWindowByName(window_name);
  if (w && w->WasActive) return;  // open already: where the user has it
  std::optional<ImRect> remembered;
  if (w) {
    remembered = ImRect(w->Pos, ImVec2(w->Pos.x + w->SizeFull.x, w->Pos.y + w->SizeFull.y));
  } else if (const ImGuiWindowSettings* s = ImGui::FindWindowSettings(ImHashStr(window_name))) {
    remembered = ImRect(ImVec2(s->Pos.x, s->Pos.y), ImVec2(s->Pos.x + s->Size.x, s->Pos.y + s->Size.y));
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImRect window(vp->Pos, ImVec2(vp->Pos.x + vp->Size.x, vp->Pos.y + vp->Size.y));
  if (remembered && window.Contains(*remembered) && field_cover(*remembered) <= kMaxFieldCover) return;
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always, pivot);
  if (size.x > 0 && size.y > 0) ImGui::SetNextWindowSize(size, ImGuiCond_Always);
}

void rescale_panel(float ratio) {
  if (!(ratio > 0) || ratio == 1.0f) return;
  if (ImGuiWindow* w = ImGui::FindWindowByName(kPanelWindow)) {
    ImGui::SetWindowSize(w, ImVec2(w->SizeFull.x * ratio, w->SizeFull.y));
  } else if (ImGuiWindowSettings* s = ImGui::FindWindowSettings(ImHashStr(kPanelWindow))) {
    s->Size.x = static_cast<short>(std::lround(s->Size.x * ratio));
  }
}

render::Area field_area() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImVec2 s = ImGui::GetIO().DisplayFramebufferScale;
  return {(vp->WorkPos.x - vp->Pos.x) * s.x, (vp->WorkPos.y - vp->Pos.y) * s.y, vp->WorkSize.x * s.x,
          vp->WorkSize.y * s.y};
}

std::filesystem::path prepare_ini_file() {
  const std::filesystem::path dir = run::user_config_dir();
  if (dir.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec)) {
    std::fprintf(stderr, "physarum: cannot create %s (%s): the window's layout will not be kept\n",
                 dir.c_str(), ec ? ec.message().c_str() : "not a folder");
    return {};
  }
  return dir / "imgui.ini";
}

LayoutSettings::LayoutSettings(LayoutState& state) : state_(state) {
  ImGuiSettingsHandler h;
  h.TypeName = kSettingsType;
  h.TypeHash = ImHashStr(kSettingsType);
  h.ReadOpenFn = read_open;
  h.ReadLineFn = read_line;
  h.WriteAllFn = write_all;
  h.UserData = &state_;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
}

LayoutSettings::~LayoutSettings() {
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (!g) return;
  ImGuiIO& io = ImGui::GetIO();
  // ImGui would write the file again when its context ends, without this section.
  if (io.IniFilename && g->SettingsLoaded) ImGui::SaveIniSettingsToDisk(io.IniFilename);
  io.IniFilename = nullptr;
  auto& handlers = g->SettingsHandlers;
  for (int i = 0; i < handlers.Size; ++i) {
    if (handlers[i].UserData == &state_) {
      handlers.erase(handlers.Data + i);
      break;
    }
  }
}

}  // namespace physarum::app
