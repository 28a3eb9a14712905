// GLSL programs built from files under shaders/. A line `#include "file.glsl"` pulls in another
// file from the same folder. Compile and link errors throw Error naming the files and lines.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "render/gl_objects.hpp"

namespace physarum::render {

// The shaders folder (sim/data_dir.hpp: $PHYSARUM_SHADER_DIR, $PHYSARUM_DATA_DIR, or next to the program).
std::filesystem::path shader_dir();

struct ShaderStage {
  unsigned int type;  // GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER
  std::string file;   // relative to shader_dir()
};
Program build_program(const std::vector<ShaderStage>& stages);

// Uniform setters by name (a missing uniform, optimised away, is silently skipped as GL does).
void set_uniform(const Program& p, const char* name, int v);
void set_uniform(const Program& p, const char* name, float v);
void set_uniform(const Program& p, const char* name, float x, float y);
void set_uniform(const Program& p, const char* name, float x, float y, float z);

}  // namespace physarum::render
