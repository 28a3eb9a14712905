#include "render/png.hpp"

#include <stb_image_write.h>

#include <exception>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"

namespace physarum::render {
namespace {

// stb_image_write hands the encoded bytes to a C callback, which must not throw through stb's
// frames: the first failure is kept and rethrown once stb has returned.
struct PngSink {
  AtomicFileWriter* out;
  std::exception_ptr error;
};

void png_bytes(void* context, void* data, int size) {
  auto* sink = static_cast<PngSink*>(context);
  if (sink->error || size <= 0) return;
  try {
    sink->out->write(data, static_cast<size_t>(size));
  } catch (...) {
    sink->error = std::current_exception();
  }
}

}  // namespace

void write_png_rgba(const std::filesystem::path& file, const uint8_t* rgba, int width, int height) {
  // stbi_write_png() ignores fwrite's and fclose's results (a full disk reports success with a
  // truncated file): encode to a callback instead, every write checked, through a temporary file.
  AtomicFileWriter out(file, "write PNG");
  PngSink sink{&out, nullptr};
  const int ok = stbi_write_png_to_func(png_bytes, &sink, width, height, 4, rgba, width * 4);
  if (sink.error) std::rethrow_exception(sink.error);
  if (!ok) throw Error("cannot write PNG '" + file.string() + "': encoding failed (out of memory?)");
  out.commit();
}

}  // namespace physarum::render
