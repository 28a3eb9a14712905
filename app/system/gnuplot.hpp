// gnuplot (Debian: gnuplot-nox) for the program's plots, started with an argument vector, no shell:
// a script and its data files in a private scratch directory, the PNG it draws copied out whole.
#pragma once

#include <filesystem>
#include <string>

namespace physarum::app {

// A private scratch directory, removed with everything in it when it goes. Throws Error when it
// cannot be made.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "physarum-plot");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Writes `text` to `file`; throws Error naming it.
void write_text_file(const std::filesystem::path& file, const std::string& text);

// A gnuplot string in double quotes, backslash and quote escaped.
std::string gnuplot_string(const std::string& s);

// A number as gnuplot reads it back exactly enough for a plot ("%.9g").
std::string gnuplot_number(double v);

// Runs `script` (which writes `png`, a name relative to `dir`) with gnuplot in `dir`, at most 60 s.
// Throws Error when gnuplot is missing, fails or writes no picture, with its message.
void run_gnuplot(const ScratchDir& dir, const std::string& script, const std::string& png);

}  // namespace physarum::app
