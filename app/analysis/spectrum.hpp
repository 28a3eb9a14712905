// The wavelength of a pattern, from its radially averaged power spectrum (a plain DFT in double
// precision: fields here are small enough, and the result does not depend on an FFT library's
// rounding). Used to compare looks across detail levels and to measure each world of an atlas.
#pragma once

#include <vector>

#include "analysis/network.hpp"
#include "sim/params.hpp"

namespace physarum::app::analysis {

// |F(u, v)|^2 of the mean-removed field `f` (W x H, row-major): the 1D DFT of each row, then of
// each column.
std::vector<double> power_spectrum(const std::vector<double>& f, Size s);

// The radially averaged power of `f`: frequencies binned by |f| = sqrt((u/W)^2 + (v/H)^2) cycles per
// cell in bins of 1/max(W, H) (bin b is b/max(W, H) cycles per cell).
std::vector<double> radial_power(const std::vector<double>& f, Size s);

// The first two bins (the box itself, a wavelength of max(W, H) / 2 and more) say nothing of the
// pattern and are left out of both measures.
inline constexpr size_t kFirstSpectrumBin = 2;

// The wavelength in cells at the peak of the radial power.
double peak_wavelength(const std::vector<double>& radial, Size s);

// The pattern's wavelength in cells from the mean frequency of the radial power,
// 1 / (sum f P(f) / sum P(f)), as the characteristic length of a coarsening pattern is measured:
// the networks here have red spectra (the most power at the largest scales the box allows), so
// the peak sits on the box and jumps between neighbouring bins from run to run, while the mean
// takes in the whole spectrum. NaN when the radial power holds nothing past the first bins.
double mean_wavelength(const std::vector<double>& radial, Size s);

// The network's cells as the report finds them (the same share of the open cells), 1 and 0: the
// spectrum of the network's shape, not of how bright each trail happens to be.
std::vector<double> network_cells(const Grid& g, const Mask* walls);

}  // namespace physarum::app::analysis
