// JPEG through libjpeg-turbo. Its errors longjmp, so the calls into it happen in functions that own
// nothing needing a destructor (JpegJob holds the state). Every libjpeg warning is treated as an
// error: "premature end of data" and "corrupt data" are warnings there, and would otherwise let a
// truncated or damaged file through with invented grey blocks.
#include <jerror.h>

#include <csetjmp>
#include <cstdio>
#include <memory>
#include <vector>

// jpeglib.h needs size_t and FILE declared first.
#include <jpeglib.h>

#include "image_decoders.hpp"

namespace physarum::image_detail {
namespace {

// Progressive files may hold any number of scans, each a pass over the whole image; real ones have
// about ten. libjpeg-turbo's own advice for untrusted input is to cap them.
constexpr int kMaxScans = 256;
// Every 8x8 block of at least one component costs at least one bit in some scan, and no component
// has fewer blocks than 1/16 of the image's (sampling factors are 1..4 in each direction).
constexpr double kMinBytesPerPixel = 1.0 / (64.0 * 16.0 * 8.0);

struct JpegJob {
  jpeg_decompress_struct cinfo{};
  jpeg_error_mgr err{};
  jpeg_progress_mgr progress{};
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = {};
};

JpegJob& job_of(j_common_ptr cinfo) {
  return *static_cast<JpegJob*>(cinfo->client_data);
}

void on_error(j_common_ptr cinfo) {
  (*cinfo->err->format_message)(cinfo, job_of(cinfo).message);
  std::longjmp(job_of(cinfo).jump, 1);
}

void on_message(j_common_ptr cinfo, int level) {
  if (level < 0) on_error(cinfo);  // a warning: corrupt or truncated data
}

void on_progress(j_common_ptr cinfo) {
  auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
  if (d->is_decompressor && d->input_scan_number > kMaxScans) {
    std::snprintf(job_of(cinfo).message, sizeof job_of(cinfo).message, "more than %d progressive scans",
                  kMaxScans);
    std::longjmp(job_of(cinfo).jump, 1);
  }
}

bool read_header(JpegJob& job, std::string_view bytes) {
  if (setjmp(job.jump)) return false;
  job.cinfo.client_data = &job;  // kept by jpeg_create_decompress, needed by on_error
  jpeg_create_decompress(&job.cinfo);
  job.cinfo.progress = &job.progress;
  jpeg_mem_src(&job.cinfo, reinterpret_cast<const unsigned char*>(bytes.data()),
               static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&job.cinfo, TRUE);
  return true;
}

bool start(JpegJob& job, size_t memory_limit) {
  if (setjmp(job.jump)) return false;
  job.cinfo.mem->max_memory_to_use = static_cast<long>(memory_limit);
  jpeg_start_decompress(&job.cinfo);
  return true;
}

bool read_rows(JpegJob& job, unsigned char* row, float* luma, float* rgb) {
  if (setjmp(job.jump)) return false;
  const int w = static_cast<int>(job.cinfo.output_width);
  const int channels = job.cinfo.output_components;
  while (job.cinfo.output_scanline < job.cinfo.output_height) {
    const JDIMENSION y = job.cinfo.output_scanline;
    JSAMPROW rows[1] = {row};
    if (jpeg_read_scanlines(&job.cinfo, rows, 1) != 1) {
      std::snprintf(job.message, sizeof job.message, "no data for row %u", y);
      return false;
    }
    row_to_luma(row, w, channels, 1, luma + static_cast<size_t>(y) * w);
    if (rgb) row_to_rgb(row, w, channels, 1, rgb + static_cast<size_t>(y) * w * 3);
  }
  jpeg_finish_decompress(&job.cinfo);  // reads to the end-of-image marker
  return true;
}

}  // namespace

LumaImage decode_jpeg(std::string_view bytes, const std::string& name, bool colour) {
  JpegJob job;
  job.cinfo.err = jpeg_std_error(&job.err);
  job.err.error_exit = on_error;
  job.err.emit_message = on_message;
  job.progress.progress_monitor = on_progress;
  const auto cleanup = [](JpegJob* j) { jpeg_destroy_decompress(&j->cinfo); };
  const std::unique_ptr<JpegJob, decltype(cleanup)> guard(&job, cleanup);
  const auto corrupt = [&] { return Error(name + " is not a valid JPEG: " + job.message); };

  if (!read_header(job, bytes)) throw corrupt();
  auto& c = job.cinfo;
  switch (c.jpeg_color_space) {
    case JCS_GRAYSCALE: c.out_color_space = JCS_GRAYSCALE; break;
    case JCS_YCbCr:
    case JCS_RGB: c.out_color_space = JCS_RGB; break;
    default:
      throw Error(name +
                  " is a CMYK or otherwise unusual JPEG; only greyscale and colour (RGB/YCbCr) "
                  "JPEGs are accepted: save it as RGB");
  }
  const long long w = c.image_width, h = c.image_height;
  if (w == 0 || h == 0)
    throw Error(name + " has no pixels (" + std::to_string(w) + "x" + std::to_string(h) + ")");
  // A progressive file keeps every coefficient (2 bytes each, about 3 samples per pixel at most).
  const double coefficients = c.progressive_mode ? 2.0 * 3.0 * static_cast<double>(w) * h : 0.0;
  const double rows = 16.0 * 3.0 * 2.0 * static_cast<double>(w);  // a band of working rows
  const double rgb_bytes = colour ? 12.0 * static_cast<double>(w) * h : 0.0;
  check_size(name, w, h, coefficients + rows + rgb_bytes);
  if (static_cast<double>(bytes.size()) < kMinBytesPerPixel * static_cast<double>(w) * h) {
    throw Error(name + " claims " + std::to_string(w) + "x" + std::to_string(h) +
                " pixels, more than a JPEG of " + std::to_string(bytes.size()) +
                " bytes can hold; it is corrupt or truncated");
  }
  if (!start(job, static_cast<size_t>(kImageMemoryBudget))) throw corrupt();

  LumaImage img;
  img.width = static_cast<int>(c.output_width);
  img.height = static_cast<int>(c.output_height);
  img.luma.resize(static_cast<size_t>(c.output_width) * c.output_height);
  std::vector<unsigned char> row(static_cast<size_t>(c.output_width) * c.output_components);
  if (colour) img.rgb.resize(img.luma.size() * 3);
  if (!read_rows(job, row.data(), img.luma.data(), colour ? img.rgb.data() : nullptr)) throw corrupt();
  return img;
}

}  // namespace physarum::image_detail
