// Reading a file a user named (an image, a preset, a palette, a field, a CSV): regular files only. A
// FIFO would block the program forever, a device can be endless, a directory reads as an error deep
// inside a parser; each is refused up front with a message that says what was given instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace physarum {

// An open regular file of at most max_bytes, for a reader that checks a header before it decides
// how much more to read. `what` names it in messages ("image", "preset"). The constructor throws
// Error when the path is missing or unreadable, is not a regular file, or is larger than max_bytes.
class InputFile {
 public:
  InputFile(const std::filesystem::path& file, std::string_view what, uint64_t max_bytes);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  uint64_t size() const { return size_; }
  const std::string& name() const { return name_; }  // "image 'a.png'"
  // Exactly n more bytes; throws Error when the file ends first.
  void read(void* out, size_t n);
  // Up to n more bytes, fewer only at the end of the file; returns how many.
  size_t read_some(void* out, size_t n);

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string name_;
};

// The whole file, checked as InputFile checks it.
std::string read_input_file(const std::filesystem::path& file, std::string_view what, size_t max_bytes);

}  // namespace physarum
