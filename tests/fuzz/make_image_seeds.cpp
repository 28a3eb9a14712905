// Writes the image fuzzer's seed corpus into the directory given: small PNGs and JPEGs of every
// kind the loader takes (grey, grey+alpha, RGB, RGBA, palette with transparency, 1/2/4/8/16-bit,
// interlaced; baseline, progressive, greyscale and subsampled JPEGs), made with libpng and
// libjpeg-turbo so that nothing is downloaded.
#include <png.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <jpeglib.h>

namespace {

std::string dir;

FILE* open_out(const std::string& name) {
  FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
  if (!f) {
    std::perror(name.c_str());
    std::exit(1);
  }
  return f;
}

void write_png(const std::string& name, int w, int h, int color, int depth, bool interlace, bool trns) {
  FILE* f = open_out(name);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) std::exit(1);
  png_init_io(png, f);
  png_set_IHDR(png, info, w, h, depth, color, interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (color == PNG_COLOR_TYPE_PALETTE) {
    png_color pal[4] = {{0, 0, 0}, {200, 100, 50}, {10, 250, 30}, {255, 255, 255}};
    png_set_PLTE(png, info, pal, 4);
    if (trns) {
      png_byte alpha[2] = {0, 128};
      png_set_tRNS(png, info, alpha, 2, nullptr);
    }
  } else if (trns) {
    png_color_16 t{};
    t.gray = 1;
    t.red = t.green = t.blue = 1;
    png_set_tRNS(png, info, nullptr, 0, &t);
  }
  png_write_info(png, info);
  if (depth == 16) png_set_swap(png);  // rows below are host-order 16-bit
  const int channels = png_get_channels(png, info);
  const size_t rowbytes = (static_cast<size_t>(w) * channels * depth + 7) / 8;
  std::vector<png_byte> img(rowbytes * h);
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<png_byte>(i * 37 + (i >> 3));
  if (color == PNG_COLOR_TYPE_PALETTE && depth == 8) {
    for (auto& b : img) b &= 3;
  }
  std::vector<png_bytep> rows(h);
  for (int y = 0; y < h; ++y) rows[y] = img.data() + y * rowbytes;
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(f);
}

void write_jpeg(const std::string& name, int w, int h, bool grey, bool progressive, int h_samp) {
  FILE* f = open_out(name);
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = w;
  c.image_height = h;
  c.input_components = grey ? 1 : 3;
  c.in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 75, TRUE);
  if (!grey) c.comp_info[0].h_samp_factor = h_samp;
  if (progressive) jpeg_simple_progression(&c);
  jpeg_start_compress(&c, TRUE);
  std::vector<JSAMPLE> row(static_cast<size_t>(w) * c.input_components);
  for (int y = 0; y < h; ++y) {
    for (size_t i = 0; i < row.size(); ++i) row[i] = static_cast<JSAMPLE>(i * 7 + y * 13);
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  dir = argv[1];
  write_png("g1.png", 9, 5, PNG_COLOR_TYPE_GRAY, 1, false, false);
  write_png("g2-trns.png", 7, 3, PNG_COLOR_TYPE_GRAY, 2, false, true);
  write_png("g4-interlaced.png", 11, 9, PNG_COLOR_TYPE_GRAY, 4, true, false);
  write_png("g8.png", 8, 8, PNG_COLOR_TYPE_GRAY, 8, false, false);
  write_png("g16.png", 5, 4, PNG_COLOR_TYPE_GRAY, 16, false, false);
  write_png("ga8.png", 6, 5, PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, false);
  write_png("rgb8-interlaced.png", 10, 10, PNG_COLOR_TYPE_RGB, 8, true, false);
  write_png("rgb16-trns.png", 4, 4, PNG_COLOR_TYPE_RGB, 16, false, true);
  write_png("rgba8.png", 5, 6, PNG_COLOR_TYPE_RGBA, 8, false, false);
  write_png("rgba16-interlaced.png", 9, 3, PNG_COLOR_TYPE_RGBA, 16, true, false);
  write_png("palette-trns.png", 8, 4, PNG_COLOR_TYPE_PALETTE, 8, false, true);
  write_png("palette2.png", 12, 3, PNG_COLOR_TYPE_PALETTE, 2, false, false);
  write_jpeg("grey.jpg", 16, 8, true, false, 1);
  write_jpeg("rgb444.jpg", 9, 7, false, false, 1);
  write_jpeg("rgb420.jpg", 17, 16, false, false, 2);
  write_jpeg("progressive.jpg", 24, 13, false, true, 2);
  write_jpeg("grey-progressive.jpg", 8, 24, true, true, 1);
  return 0;
}
