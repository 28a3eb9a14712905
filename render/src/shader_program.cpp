#include "render/shader_program.hpp"

#include <glad/gl.h>

#include <cstdlib>
#include <sstream>

#include "sim/data_dir.hpp"
#include "sim/input_file.hpp"
#include "sim/params.hpp"

namespace physarum::render {
namespace {

// The shader folder can be any folder (PHYSARUM_SHADER_DIR): its files are read as a user's are.
std::string read_text(const std::filesystem::path& file) {
  return read_input_file(file, "shader file", size_t{1} << 20);
}

// Expands #include lines. Each file gets a source-string number for #line, so a driver message
// "1:12(3): error" means line 12 of files[1]; the message we throw lists the numbers.
std::string expand(const std::string& file, std::vector<std::string>& files, int depth) {
  if (depth > 8) throw Error("shader " + file + ": #include nested too deeply");
  const int number = static_cast<int>(files.size());
  files.push_back(file);
  std::istringstream in(read_text(shader_dir() / file));
  std::ostringstream out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("#include", 0) == 0) {
      const auto a = line.find('"');
      const auto b = line.rfind('"');
      if (a == std::string::npos || b <= a)
        throw Error(file + ":" + std::to_string(line_no) + ": bad #include");
      out << "#line 1 " << files.size() << "\n";
      out << expand(line.substr(a + 1, b - a - 1), files, depth + 1);
      out << "#line " << line_no + 1 << " " << number << "\n";
    } else {
      out << line << "\n";
      // #version must come first, so the first #line goes right after it.
      if (line_no == 1 && line.rfind("#version", 0) == 0) out << "#line 2 " << number << "\n";
    }
  }
  return out.str();
}

std::string source_table(const std::vector<std::string>& files) {
  std::string t;
  for (size_t i = 0; i < files.size(); ++i) {
    t += "  source " + std::to_string(i) + " = " + (shader_dir() / files[i]).string() + "\n";
  }
  return t;
}

int location(const Program& p, const char* name) {
  return glGetUniformLocation(p.get(), name);
}

}  // namespace

std::filesystem::path shader_dir() {
  return data_dir(DataKind::shaders);
}

Program build_program(const std::vector<ShaderStage>& stages) {
  Program program(glCreateProgram());
  std::vector<Shader> shaders;
  std::string names;
  for (const auto& stage : stages) {
    std::vector<std::string> files;
    const std::string text = expand(stage.file, files, 0);
    Shader s(glCreateShader(stage.type));
    const char* src = text.c_str();
    glShaderSource(s.get(), 1, &src, nullptr);
    glCompileShader(s.get());
    GLint ok = GL_FALSE;
    glGetShaderiv(s.get(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
      GLint len = 0;
      glGetShaderiv(s.get(), GL_INFO_LOG_LENGTH, &len);
      std::string log(static_cast<size_t>(len > 0 ? len : 1), '\0');
      glGetShaderInfoLog(s.get(), len, nullptr, log.data());
      throw Error("shader " + stage.file + " does not compile (messages read source:line):\n" +
                  source_table(files) + log.c_str());
    }
    glAttachShader(program.get(), s.get());
    shaders.push_back(std::move(s));
    names += (names.empty() ? "" : " + ") + stage.file;
  }
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  for (const auto& s : shaders) glDetachShader(program.get(), s.get());
  if (ok != GL_TRUE) {
    GLint len = 0;
    glGetProgramiv(program.get(), GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<size_t>(len > 0 ? len : 1), '\0');
    glGetProgramInfoLog(program.get(), len, nullptr, log.data());
    throw Error("shader program " + names + " does not link:\n" + log.c_str());
  }
  return program;
}

void set_uniform(const Program& p, const char* name, int v) {
  glProgramUniform1i(p.get(), location(p, name), v);
}
void set_uniform(const Program& p, const char* name, float v) {
  glProgramUniform1f(p.get(), location(p, name), v);
}
void set_uniform(const Program& p, const char* name, float x, float y) {
  glProgramUniform2f(p.get(), location(p, name), x, y);
}
void set_uniform(const Program& p, const char* name, float x, float y, float z) {
  glProgramUniform3f(p.get(), location(p, name), x, y, z);
}

}  // namespace physarum::render
