#include "window/detail_render.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "system/process.hpp"

namespace physarum::app {

std::vector<std::string> detail_render_argv(const std::string& program, const std::filesystem::path& recipe,
                                            uint64_t steps, int scale, const std::string& backend,
                                            const std::filesystem::path& picture) {
  return {program,     "render",
          "--preset",  recipe.string(),
          "--scale",   std::to_string(scale),
          "--steps",   std::to_string(steps > 0 ? steps : 1),
          "--backend", backend,
          "--out",     picture.string()};
}

DetailRender::~DetailRender() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  (void)wait_process(pid_);
  std::error_code ec;
  std::filesystem::remove(log_, ec);
}

std::string DetailRender::start(const Preset& p, uint64_t steps, int scale, const std::string& backend,
                                const std::filesystem::path& picture, const std::string& program) {
  if (running()) return "a detail render is already running: " + status();
  if (program.empty()) return "cannot find this program's own file to render with";
  std::filesystem::path recipe = picture;
  recipe.replace_extension(".toml");
  try {
    save_preset(p, recipe);
  } catch (const std::exception& e) {
    return std::string("cannot write the recipe: ") + e.what();
  }
  log_ = picture.string() + ".log";
  const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write " + log_.string();
  try {
    // Its own process group: a Ctrl-C on the window's terminal stops the window, which stops it.
    pid_ = spawn_process(detail_render_argv(program, recipe, steps, scale, backend, picture), {-1, fd, fd},
                         true);
  } catch (const std::exception& e) {
    ::close(fd);
    return std::string("cannot start the render: ") + e.what();
  }
  ::close(fd);
  picture_ = picture;
  scale_ = scale;
  started_ = std::chrono::steady_clock::now();
  return {};
}

std::string DetailRender::status() const {
  const auto s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_);
  return "rendering " + picture_.filename().string() + " at " + std::to_string(scale_) +
         "x detail: " + std::to_string(s.count()) + " s";
}

std::optional<DetailRender::Ended> DetailRender::poll() {
  if (pid_ <= 0) return std::nullopt;
  const std::optional<int> status = poll_process(pid_);
  if (!status) return std::nullopt;
  pid_ = -1;
  const auto s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_);
  std::ifstream in(log_);
  std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::error_code ec;
  std::filesystem::remove(log_, ec);
  if (wait_status_ok(*status)) {
    return Ended{true, "Saved " + picture_.string() + " (" + std::to_string(scale_) + "x detail, " +
                           std::to_string(s.count()) + " s; its recipe beside it)"};
  }
  while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
  const size_t last = said.rfind('\n');
  const std::string last_line = last == std::string::npos ? said : said.substr(last + 1);
  return Ended{false, "the " + std::to_string(scale_) + "x detail render failed (" +
                          describe_wait_status(*status) + ")" + (last_line.empty() ? "" : ": " + last_line)};
}

}  // namespace physarum::app
