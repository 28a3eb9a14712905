// PNG through libpng. libpng reports errors by longjmp, so every call into it happens inside
// functions that own nothing needing a destructor (PngJob below holds the state); the C++ side
// allocates between those calls and turns the recorded message into an Error.
#include <png.h>

#include <csetjmp>
#include <cstring>
#include <memory>
#include <vector>

#include "image_decoders.hpp"

namespace physarum::image_detail {
namespace {

// Deflate cannot expand data more than about 1032:1 (a 258-byte match costs at least 2 bits), so a
// file claiming more pixel data than that times its length is lying, whatever its header says.
constexpr double kMaxDeflateRatio = 1032.0;

struct PngJob {
  std::string_view bytes;
  size_t pos = 0;
  png_structp png = nullptr;
  png_infop info = nullptr;
  char message[256] = {};
  // Filled by read_header.
  png_uint_32 width = 0, height = 0;
  int channels = 0, bytes_per_sample = 0, passes = 1;
  size_t rowbytes = 0;
};

void on_error(png_structp png, png_const_charp msg) {
  auto* job = static_cast<PngJob*>(png_get_error_ptr(png));
  std::snprintf(job->message, sizeof job->message, "%s", msg);
  png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}  // ancillary trouble; critical trouble is an error

void on_read(png_structp png, png_bytep out, size_t n) {
  auto* job = static_cast<PngJob*>(png_get_io_ptr(png));
  if (n > job->bytes.size() - job->pos) png_error(png, "the file ends early (truncated)");
  std::memcpy(out, job->bytes.data() + job->pos, n);
  job->pos += n;
}

// Signature and chunks up to the first IDAT; transforms to 8- or 16-bit grey, grey+alpha, RGB or
// RGBA with the stored (gamma-encoded) values, as the file holds them.
bool read_header(PngJob& job) {
  if (setjmp(png_jmpbuf(job.png))) return false;
  png_set_read_fn(job.png, &job, on_read);
  png_set_user_limits(job.png, 0x7fffffffu, 0x7fffffffu);  // our own limit is checked on the product
  png_set_chunk_malloc_max(job.png, 8u << 20);             // a text or ICC chunk, never megabytes
  png_set_chunk_cache_max(job.png, 1000);
  png_read_info(job.png, job.info);
  const int color = png_get_color_type(job.png, job.info);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(job.png);
  if (color == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(job.png, job.info) < 8)
    png_set_expand_gray_1_2_4_to_8(job.png);
  if (png_get_valid(job.png, job.info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(job.png);
  job.passes = png_set_interlace_handling(job.png);
  png_read_update_info(job.png, job.info);
  job.width = png_get_image_width(job.png, job.info);
  job.height = png_get_image_height(job.png, job.info);
  job.channels = png_get_channels(job.png, job.info);
  job.bytes_per_sample = png_get_bit_depth(job.png, job.info) == 16 ? 2 : 1;
  job.rowbytes = png_get_rowbytes(job.png, job.info);
  return true;
}

// Rows one at a time into `rows` (one row buffer, or the whole image when interlaced), each
// finished row handed to the luma conversion; then the rest of the file up to IEND, so a file cut
// after its pixel data is refused too.
bool read_pixels(PngJob& job, unsigned char* rows, float* luma, float* rgb) {
  if (setjmp(png_jmpbuf(job.png))) return false;
  const bool whole = job.passes > 1;
  for (int pass = 0; pass < job.passes; ++pass) {
    for (png_uint_32 y = 0; y < job.height; ++y) {
      png_bytep row = rows + (whole ? y * job.rowbytes : 0);
      png_read_row(job.png, row, nullptr);
      if (!whole) {
        row_to_luma(row, static_cast<int>(job.width), job.channels, job.bytes_per_sample,
                    luma + static_cast<size_t>(y) * job.width);
        if (rgb)
          row_to_rgb(row, static_cast<int>(job.width), job.channels, job.bytes_per_sample,
                     rgb + static_cast<size_t>(y) * job.width * 3);
      }
    }
  }
  png_read_end(job.png, nullptr);
  return true;
}

}  // namespace

LumaImage decode_png(std::string_view bytes, const std::string& name, bool colour) {
  // The size from IHDR first, by hand: libpng's own refusal of huge sides would not say "megapixels".
  const auto be32 = [&](size_t at) {
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    return (static_cast<long long>(b[at]) << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];
  };
  if (bytes.size() >= 24 && bytes.substr(12, 4) == "IHDR") check_size(name, be32(16), be32(20), 0);

  PngJob job;
  job.bytes = bytes;
  job.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &job, on_error, on_warning);
  if (!job.png) throw Error("cannot decode " + name + ": out of memory");
  job.info = png_create_info_struct(job.png);
  const auto cleanup = [](PngJob* j) { png_destroy_read_struct(&j->png, &j->info, nullptr); };
  const std::unique_ptr<PngJob, decltype(cleanup)> guard(&job, cleanup);
  if (!job.info) throw Error("cannot decode " + name + ": out of memory");
  const auto corrupt = [&] { return Error(name + " is not a valid PNG: " + job.message); };

  if (!read_header(job)) throw corrupt();
  if (job.width == 0 || job.height == 0) {
    throw Error(name + " has no pixels (" + std::to_string(job.width) + "x" + std::to_string(job.height) +
                ")");
  }
  const bool whole = job.passes > 1;
  const double row_buffer = static_cast<double>(job.rowbytes) * (whole ? job.height : 1);
  const double rgb_bytes = colour ? 12.0 * job.width * static_cast<double>(job.height) : 0.0;
  check_size(name, job.width, job.height, row_buffer + rgb_bytes);
  // Each row is stored behind a filter byte, interlaced passes a little more; all of it deflated.
  const double raw = static_cast<double>(job.height) * (static_cast<double>(job.rowbytes) + 1);
  if (raw > kMaxDeflateRatio * static_cast<double>(bytes.size()) + 4096) {
    throw Error(name + " claims " + std::to_string(job.width) + "x" + std::to_string(job.height) +
                " pixels, more than a PNG of " + std::to_string(bytes.size()) +
                " bytes can hold; it is corrupt or truncated");
  }

  LumaImage img;
  img.width = static_cast<int>(job.width);
  img.height = static_cast<int>(job.height);
  img.luma.resize(static_cast<size_t>(job.width) * job.height);
  std::vector<unsigned char> rows(static_cast<size_t>(row_buffer));
  if (colour) img.rgb.resize(img.luma.size() * 3);
  if (!read_pixels(job, rows.data(), img.luma.data(), colour ? img.rgb.data() : nullptr)) throw corrupt();
  if (whole) {
    for (png_uint_32 y = 0; y < job.height; ++y) {
      row_to_luma(rows.data() + y * job.rowbytes, img.width, job.channels, job.bytes_per_sample,
                  img.luma.data() + static_cast<size_t>(y) * job.width);
      if (colour)
        row_to_rgb(rows.data() + y * job.rowbytes, img.width, job.channels, job.bytes_per_sample,
                   img.rgb.data() + static_cast<size_t>(y) * job.width * 3);
    }
  }
  return img;
}

}  // namespace physarum::image_detail
