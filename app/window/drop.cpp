#include "window/drop.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <filesystem>

#include "run/environment_maps.hpp"
#include "run/seeding.hpp"

namespace physarum::app {
namespace {

constexpr const char* kDialog = "Dropped image";

void tell(Toasts& toasts, bool ok, const std::string& message) {
  if (ok) {
    toasts.info(message);
  } else {
    toasts.error(message);
  }
}

}  // namespace

std::optional<DropKind> drop_kind_for_mods(int mods) {
  if ((mods & GLFW_MOD_CONTROL) != 0) return DropKind::Walls;
  if ((mods & GLFW_MOD_SHIFT) != 0) return DropKind::Food;
  return std::nullopt;
}

bool load_dropped_image(WindowCore& core, const std::string& path, DropKind kind, ImageFit fit,
                        std::string* message) {
  Backend* twin = core.twin.backend();
  if (kind == DropKind::Seed) {
    if (!core.run().seed_from_image(path, fit, message)) return false;
    // The twin takes the same seed (it decodes the file again; the same bytes give the same seed).
    if (twin != nullptr && !run::seed_from_image(*twin, core.preset, path, fit, nullptr)) {
      core.twin.stop("the twin could not take the dropped image, so it stopped");
    }
    return true;
  }
  Backend* plane = core.run().world().plane();
  if (!plane) {  // a volume's food and walls are volumes (points, .npy), not images
    *message = std::string("a ") + (kind == DropKind::Food ? "food" : "walls") +
               " map image acts on a plane; this run is a volume";
    return false;
  }
  const run::MapKind map = kind == DropKind::Food ? run::MapKind::Food : run::MapKind::Walls;
  if (!run::set_map_from_image(*plane, map, path, fit, core.preset.environment.walls_threshold, message)) {
    return false;
  }
  if (twin != nullptr &&
      !run::set_map_from_image(*twin, map, path, fit, core.preset.environment.walls_threshold, nullptr)) {
    core.twin.stop("the twin could not take the dropped map, so it stopped");
  }
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  (kind == DropKind::Food ? core.preset.environment.food : core.preset.environment.walls) =
      ec ? path : absolute.lexically_normal().string();
  core.preset.environment.fit = fit;
  return true;
}

void DropDialog::take(WindowCore& core, std::vector<DroppedFile>& dropped, ImageFit fit, Toasts& toasts) {
  for (const DroppedFile& f : dropped) {
    if (const auto kind = drop_kind_for_mods(f.mods)) {
      std::string message;
      tell(toasts, load_dropped_image(core, f.path, *kind, fit, &message), message);
    } else {
      waiting_.push_back(f.path);
    }
  }
  dropped.clear();
}

void DropDialog::draw(WindowCore& core, ImageFit fit, Toasts& toasts) {
  if (waiting_.empty()) {
    // Answered by Esc (cancel_first) while open: close it so it holds no input.
    if (ImGui::IsPopupOpen(kDialog) && ImGui::BeginPopupModal(kDialog)) {
      ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
    }
    return;
  }
  if (!ImGui::IsPopupOpen(kDialog)) ImGui::OpenPopup(kDialog);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kDialog, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const std::string path = waiting_.front();
  ImGui::Text("%s", std::filesystem::path(path).filename().string().c_str());
  ImGui::TextUnformatted("Use this image as:");
  std::optional<DropKind> chosen;
  bool cancel = false;
  if (ImGui::Button("Seed the field")) chosen = DropKind::Seed;
  ImGui::SameLine();
  if (ImGui::Button("Food map")) chosen = DropKind::Food;
  ImGui::SameLine();
  if (ImGui::Button("Walls map")) chosen = DropKind::Walls;
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) cancel = true;  // Esc too: the window's keys call cancel_first()
  ImGui::TextDisabled("Next time: Shift-drop for food, Ctrl-drop for walls");
  if (chosen || cancel) {
    ImGui::CloseCurrentPopup();
    answer(core, chosen, fit, toasts);
  }
  ImGui::EndPopup();
}

void DropDialog::answer(WindowCore& core, std::optional<DropKind> kind, ImageFit fit, Toasts& toasts) {
  if (waiting_.empty()) return;
  const std::string path = waiting_.front();
  waiting_.erase(waiting_.begin());
  if (!kind) return;
  std::string message;
  tell(toasts, load_dropped_image(core, path, *kind, fit, &message), message);
}

void DropDialog::cancel_first() {
  if (!waiting_.empty()) waiting_.erase(waiting_.begin());
}

}  // namespace physarum::app
