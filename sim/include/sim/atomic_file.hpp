// Writing a file so that a failure never destroys what was there. The bytes go to a hidden
// temporary file beside the target, are flushed to disk, and only then renamed over the target: a
// reader sees the old file or the whole new one, never a truncated one. Used for presets, .npy
// fields and PNG images alike.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace physarum {

class AtomicFileWriter {
 public:
  // `action` starts every error message: "cannot <action> '<target>': <why>" ("write",
  // "save preset"). Refuses a target that exists and is not a regular file (a FIFO, a directory,
  // a device) before creating anything; a symbolic link is followed to the file it names. The
  // temporary file is created with mode 0666 less the umask, like any new file (an existing
  // target's permission bits are kept). Throws Error.
  AtomicFileWriter(std::filesystem::path target, std::string action = "write");
  ~AtomicFileWriter();  // not committed: the temporary file is removed
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // Appends n bytes; every write is checked (a full disk, a file size limit). Throws Error and
  // removes the temporary file; the target is untouched.
  void write(const void* data, size_t n);
  // fsync, close (checked), rename over the target, fsync the directory. Throws Error and removes
  // the temporary file when any step before the rename fails.
  void commit();

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporary() const { return temp_; }

 private:
  [[noreturn]] void fail(const std::string& what, int err);
  void discard() noexcept;

  std::filesystem::path target_;
  std::filesystem::path temp_;
  std::string action_;
  std::string shown_;  // the target as the caller named it, for messages
  int fd_ = -1;
};

// What check_writable_target lets through besides a regular file (or a new name).
enum class WritableTarget {
  RegularFile,          // files written whole (AtomicFileWriter): --out of run and render
  RegularFileOrDevice,  // a stream (the recorder's ffmpeg): /dev/null will do
  InFolderToMake,       // one of a stack of files (a volume's slices) whose folder the command makes
};

// Refuses, before any work is done, a target that cannot be written: its folder does not exist
// (unless `kind` is InFolderToMake and check_folder_to_make lets it through) or is not writable, or it exists
// and is not a regular file (a directory, a FIFO, a device unless `kind` allows one; a link is followed). The
// subcommands' --out files and the recorder's output go through it. Throws Error "cannot <action> '<target>':
// <why>".
void check_writable_target(const std::filesystem::path& target, const std::string& action = "write",
                           WritableTarget kind = WritableTarget::RegularFile);

// A folder that an output of many files fills (a PNG sequence's frames, a volume's slices) is made
// when missing, and the folders above it, as a user naming "frames/%05d.png" expects. The checks
// come before any work: a `dir` that exists and is not a folder, or a missing one whose nearest
// existing folder above is not one or cannot be written, is refused; nothing is made. `what` names
// the files in messages ("frames", "slices"). Throws Error "cannot write <what> to <dir>: <why>".
void check_folder_to_make(const std::filesystem::path& dir, const std::string& what);
// The same checks, then makes `dir` and the folders above it when missing. Throws Error naming the
// folder that could not be made and why.
void make_folder_for(const std::filesystem::path& dir, const std::string& what);

// The whole of `bytes` through an AtomicFileWriter.
void write_file_atomically(const std::filesystem::path& file, std::string_view bytes,
                           const std::string& action = "write");

}  // namespace physarum
