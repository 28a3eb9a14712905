#include "export/exr_writer.hpp"

#include <Imath/half.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <ImfStdIO.h>

#include <algorithm>
#include <cmath>
#include <exception>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"

namespace physarum::app::exporter {

ExrSample parse_exr_sample(const std::string& text) {
  if (text == "half") return ExrSample::Half;
  if (text == "float") return ExrSample::Float;
  throw Error("'" + text + "' is not an EXR sample type (half or float)");
}

double srgb_to_linear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

namespace {

// One plane a channel, in the sample type asked for; EXR reads them through strided slices.
template <typename T>
std::string encode_planes(const std::vector<float>& rgba, int width, int height, bool alpha,
                          Imf::PixelType type) {
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  const int channels = alpha ? 4 : 3;
  std::vector<T> planes(n * static_cast<size_t>(channels));
  for (size_t i = 0; i < n; ++i) {
    const float a = alpha ? std::clamp(rgba[4 * i + 3], 0.0f, 1.0f) : 1.0f;
    for (int c = 0; c < 3; ++c) {
      const double v = srgb_to_linear(std::clamp(static_cast<double>(rgba[4 * i + c]), 0.0, 1.0));
      planes[static_cast<size_t>(c) * n + i] = static_cast<T>(static_cast<float>(v) * a);
    }
    if (alpha) planes[3 * n + i] = static_cast<T>(a);
  }
  Imf::Header header(width, height);
  header.compression() = Imf::ZIP_COMPRESSION;
  Imf::FrameBuffer fb;
  const char* names[] = {"R", "G", "B", "A"};
  for (int c = 0; c < channels; ++c) {
    header.channels().insert(names[c], Imf::Channel(type));
    fb.insert(names[c], Imf::Slice(type, reinterpret_cast<char*>(planes.data() + static_cast<size_t>(c) * n),
                                   sizeof(T), sizeof(T) * static_cast<size_t>(width)));
  }
  Imf::StdOSStream stream;
  {
    Imf::OutputFile file(stream, header);
    file.setFrameBuffer(fb);
    file.writePixels(height);
  }
  return stream.str();
}

}  // namespace

std::string encode_exr(const std::vector<float>& rgba, int width, int height, bool alpha, ExrSample sample) {
  if (width <= 0 || height <= 0 ||
      rgba.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 4)
    throw Error("EXR size does not match its pixels");
  try {
    return sample == ExrSample::Half ? encode_planes<half>(rgba, width, height, alpha, Imf::HALF)
                                     : encode_planes<float>(rgba, width, height, alpha, Imf::FLOAT);
  } catch (const std::exception& e) {
    throw Error(std::string("cannot encode EXR: ") + e.what());
  }
}

void write_exr(const std::filesystem::path& file, const std::vector<float>& rgba, int width, int height,
               bool alpha, ExrSample sample) {
  write_file_atomically(file, encode_exr(rgba, width, height, alpha, sample));
}

}  // namespace physarum::app::exporter
