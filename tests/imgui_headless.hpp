// An ImGui context without a display or a renderer: a test builds frames and reads their draw lists
// (the font atlas is built here, as a renderer backend would). Destroyed with the object.
#pragma once

#include <imgui.h>

namespace physarum::test {

class HeadlessImGui {
 public:
  // A display of w x h; `ini`: the layout file (nullptr: none is read or written).
  explicit HeadlessImGui(float w = 1280, float h = 720, const char* ini = nullptr) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = ini;
    io.DisplaySize = ImVec2(w, h);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace physarum::test
