#include "system/gnuplot.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <vector>

#include "sim/params.hpp"
#include "system/process.hpp"

namespace physarum::app {

namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) throw Error("plot: cannot create a temporary directory");
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_text_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw Error("plot: cannot write '" + file.string() + "'");
}

std::string gnuplot_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string gnuplot_number(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

void run_gnuplot(const ScratchDir& dir, const std::string& script, const std::string& png) {
  const auto gnuplot = find_on_path("gnuplot");
  if (!gnuplot) throw Error("plot: gnuplot is not installed (sudo apt-get install gnuplot-nox)");
  write_text_file(dir.path() / "plot.gp", script);
  // gnuplot runs in the scratch directory: relative names there, whatever the output path holds.
  const ProcessOutput r = run_capture(
      {*gnuplot, "-e", "cd " + gnuplot_string(dir.path().string()), (dir.path() / "plot.gp").string()}, true,
      std::chrono::seconds(60));
  if (r.timed_out || !wait_status_ok(r.wait_status) || !fs::exists(dir.path() / png)) {
    throw Error("plot: gnuplot failed (" + describe_wait_status(r.wait_status) + "): " + r.out);
  }
}

}  // namespace physarum::app
