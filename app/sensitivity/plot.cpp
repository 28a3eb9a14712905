#include "sensitivity/plot.hpp"

#include <cmath>
#include <cstdio>

#include "system/gnuplot.hpp"
#include "system/process.hpp"

namespace physarum::app::sensitivity {
namespace {

namespace fs = std::filesystem;

// The word after `option` in a recipe ("--perturb agent:0:theta:1e-4 ..." gives "agent:0:theta:1e-4").
std::string recipe_word_after(const std::string& recipe, const std::string& option) {
  const size_t at = recipe.find(option + " ");
  if (at == std::string::npos) return "?";
  const size_t start = at + option.size() + 1;
  return recipe.substr(start, recipe.find(' ', start) - start);
}

// One block per run (gnuplot's "index"): step, distance, colour value; zeros have no logarithm.
// The fitted lines likewise, into fits.dat.
void write_distance_series(const fs::path& dir, const CsvHeader& h, const std::vector<RunData>& runs,
                           const Analysis& a) {
  std::string series, fits;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunData& r = runs[i];
    if (h.mode == Mode::Sweep && r.repeat != 0) continue;  // one curve per swept value
    const double colour = h.mode == Mode::Sweep ? r.value : static_cast<double>(r.point);
    for (const Record& rec : r.records) {
      if (rec.field_distance > 0)
        series += gnuplot_number(static_cast<double>(rec.step)) + " " + gnuplot_number(rec.field_distance) +
                  " " + gnuplot_number(colour) + "\n";
    }
    series += "\n\n";
    const LyapunovFit& f = a.fits[i];
    if (f.ok) {
      for (int64_t s : {f.from_step, f.to_step}) {
        fits += gnuplot_number(static_cast<double>(s)) + " " +
                gnuplot_number(std::exp(f.intercept + f.lambda * static_cast<double>(s))) + " " +
                gnuplot_number(colour) + "\n";
      }
      fits += "\n\n";
    }
  }
  write_text_file(dir / "series.dat", series.empty() ? "0 1 0\n" : series);
  write_text_file(dir / "fits.dat", fits.empty() ? "0 1 0\n" : fits);
}

// The upper panel: distance against steps, one curve per run, the fits dashed.
std::string distance_panel(const CsvHeader& h, const std::vector<RunData>& runs) {
  // The perturbation (or, for --average, the relative step), not the whole recipe: that is in the CSV.
  const std::string what = h.mode == Mode::Average ? std::string("each model parameter in turn")
                                                   : recipe_word_after(h.recipe, "--perturb");
  std::string gp =
      "set title " + gnuplot_string("distance between twin runs A and B (B: " + what + ")") + "\n";
  gp += "set logscale y\nset xlabel 'step'\nset ylabel 'relative L2 field distance'\nset format y '%.0e'\n";
  gp += "unset key\n";
  if (h.mode == Mode::Sweep) {
    gp += "set palette defined (0 '#2040c0', 0.5 '#20a060', 1 '#d02020')\nset cblabel " +
          gnuplot_string(runs.empty() ? "" : runs[0].parameter) + "\n";
  } else {
    gp += "set palette rgbformulae 33,13,10\nunset colorbox\n";
  }
  return gp +
         "plot 'series.dat' using 1:2:3 with lines lw 1 lc palette, "
         "'fits.dat' using 1:2:3 with lines dt 2 lw 3 lc palette\n";
}

// The lower panel of a sweep: lambda against the swept value, with its interval.
std::string lambda_panel(const fs::path& dir, const std::vector<RunData>& runs, const Analysis& a) {
  std::string lam;
  for (const PointSummary& p : a.points) {
    if (std::isfinite(p.lambda.mean)) {
      lam += gnuplot_number(p.value) + " " + gnuplot_number(p.lambda.mean) + " " +
             gnuplot_number(std::isfinite(p.lambda.half) ? p.lambda.half : 0) + "\n";
    }
  }
  write_text_file(dir / "lambda.dat", lam.empty() ? "0 0 0\n" : lam);
  return "unset logscale y\nset format y '%g'\nset title 'largest Lyapunov exponent (slope of ln distance, "
         "mean and 95% interval over seeds)'\nset xlabel " +
         gnuplot_string(runs.empty() ? "" : runs[0].parameter) +
         "\nset ylabel 'lambda per step'\nset xzeroaxis lt -1\nunset colorbox\n"
         "plot 'lambda.dat' using 1:2:3 with yerrorlines lw 2 pt 7 lc rgb '#c03020'\n";
}

// The lower panel of --average: the ranked derivative norms as bars.
std::string average_panel(const fs::path& dir, const Analysis& a) {
  std::string bars;
  int rank = 0;
  for (int i : a.ranking) {
    const PointSummary& p = a.points[static_cast<size_t>(i)];
    bars += std::to_string(rank++) + " " +
            gnuplot_number(std::isfinite(p.derivative.mean) ? p.derivative.mean : 0) + " " +
            gnuplot_string(p.parameter) + "\n";
  }
  write_text_file(dir / "average.dat", bars.empty() ? "0 0 \"-\"\n" : bars);
  return "set title 'derivative norm per parameter (relative field change per relative change), ranked'\n"
         "set xlabel ''\nset ylabel 'derivative norm'\nset style fill solid 0.7\nset boxwidth 0.7\n"
         "set xtics rotate by -30\nset format y '%g'\n"
         "plot 'average.dat' using 1:2:xtic(3) with boxes lc rgb '#3070b0'\n";
}

}  // namespace

bool can_plot() {
  return find_on_path("gnuplot").has_value();
}

void plot_png(const fs::path& out, const CsvHeader& h, const std::vector<RunData>& runs, const Analysis& a,
              int width, int height) {
  ScratchDir dir;
  write_distance_series(dir.path(), h, runs, a);

  const bool lower = h.mode != Mode::Single;
  std::string gp = "set terminal pngcairo size " + std::to_string(width) + "," + std::to_string(height) +
                   " noenhanced font 'sans,10'\nset output 'plot.png'\nset grid\n";
  if (lower) gp += "set multiplot layout 2,1\n";
  gp += distance_panel(h, runs);
  if (h.mode == Mode::Sweep) gp += lambda_panel(dir.path(), runs, a);
  if (h.mode == Mode::Average) gp += average_panel(dir.path(), a);
  if (lower) gp += "unset multiplot\n";
  run_gnuplot(dir, gp, "plot.png");
  std::error_code ec;
  fs::copy_file(dir.path() / "plot.png", out, fs::copy_options::overwrite_existing, ec);
  if (ec) throw Error("plot: cannot write '" + out.string() + "': " + ec.message());
}

}  // namespace physarum::app::sensitivity
