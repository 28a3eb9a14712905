// Writes that cannot lose data (sim/atomic_file.hpp) and the three writers built on it: .npy
// fields, PNG images and presets. A failure midway is made real with a file size limit
// (RLIMIT_FSIZE, SIGXFSZ ignored): write() then fails with EFBIG exactly as on a full disk.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using test::read_file;
using test::temp_dir;
using test::write_file;

// For its lifetime, this process cannot grow a file past `bytes`: the write that would fails.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    rlimit r = saved_;
    r.rlim_cur = bytes;
    ok_ = ::setrlimit(RLIMIT_FSIZE, &r) == 0;
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, old_handler_);
  }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  bool ok_ = false;
  sighandler_t old_handler_ = SIG_DFL;
};

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

mode_t mode_of(const std::filesystem::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Noise compresses badly, so its PNG is large: far past a 4 KiB limit.
std::vector<uint8_t> noise_rgba(int w, int h) {
  std::vector<uint8_t> px(static_cast<size_t>(w) * h * 4);
  uint32_t s = 12345;
  for (auto& b : px) {
    s = s * 1664525U + 1013904223U;
    b = static_cast<uint8_t>(s >> 24);
  }
  return px;
}

// --- The helper itself.

TEST(AtomicWrite, WritesAndReplacesAFileLeavingNothingElse) {
  const auto dir = temp_dir();
  write_file_atomically(dir / "a.txt", "first");
  EXPECT_EQ(read_file(dir / "a.txt"), "first");
  write_file_atomically(dir / "a.txt", "second, longer");
  EXPECT_EQ(read_file(dir / "a.txt"), "second, longer");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"a.txt"});
}

TEST(AtomicWrite, ANewFileGetsMode0666LessTheUmask) {
  const auto dir = temp_dir();
  const mode_t old = ::umask(027);
  write_file_atomically(dir / "a.txt", "x");
  ::umask(old);
  EXPECT_EQ(mode_of(dir / "a.txt"), 0640U);
}

TEST(AtomicWrite, ReplacingAFileKeepsItsPermissions) {
  const auto dir = temp_dir();
  write_file(dir / "a.txt", "old");
  ASSERT_EQ(::chmod((dir / "a.txt").c_str(), 0600), 0);
  write_file_atomically(dir / "a.txt", "new");
  EXPECT_EQ(mode_of(dir / "a.txt"), 0600U);
}

TEST(AtomicWrite, AFailureMidwayKeepsTheOldFileAndLeavesNoTemporary) {
  const auto dir = temp_dir();
  write_file(dir / "a.bin", "old contents");
  const std::string big(1 << 20, 'x');
  std::string msg;
  {
    FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.ok());
    msg = error_of([&] { write_file_atomically(dir / "a.bin", big); });
  }
  EXPECT_NE(msg.find("a.bin"), std::string::npos) << "expected an error naming the file, got: " << msg;
  EXPECT_NE(msg.find("write failed"), std::string::npos) << msg;
  EXPECT_EQ(read_file(dir / "a.bin"), "old contents");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"a.bin"});
}

// The check the subcommands and the recorder make before any work: the same refusals as the
// writer's, plus a folder that does not exist; a new name or an existing file passes.
TEST(CheckWritableTarget, RefusesAMissingFolderAndWhatIsNotARegularFile) {
  const auto dir = temp_dir();
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(dir / "folder");
  std::filesystem::create_symlink(dir / "nothing", dir / "dangling");
  const std::vector<std::pair<std::filesystem::path, std::string>> refused{
      {dir / "fifo", "it exists and is a FIFO"},
      {dir / "folder", "it exists and is a directory"},
      {"/dev/null", "it exists and is a device"},
      {dir / "dangling", "it is a symbolic link to nothing"},
      {dir / "no-such-folder" / "a.npy",
       "the folder '" + (dir / "no-such-folder").string() + "' does not exist"}};
  for (const auto& [path, why] : refused) {
    const std::string msg = error_of([&] { check_writable_target(path, "render to"); });
    EXPECT_NE(msg.find("cannot render to '" + path.string() + "': " + why), std::string::npos) << msg;
  }
  write_file_atomically(dir / "existing", "x");
  EXPECT_NO_THROW(check_writable_target(dir / "existing"));
  EXPECT_NO_THROW(check_writable_target("/dev/null", "record to", WritableTarget::RegularFileOrDevice));
  EXPECT_THROW(check_writable_target(dir / "fifo", "record to", WritableTarget::RegularFileOrDevice), Error);
  EXPECT_NO_THROW(check_writable_target(dir / "new.png"));
  EXPECT_FALSE(std::filesystem::exists(dir / "new.png"));  // a check only: nothing is created
}

// A folder the writer may not write to: even an existing file in it is replaced through a
// temporary file made beside it, so both are refused before any work. Root writes everywhere, so
// the check runs in a child that has given up root.
TEST(CheckWritableTarget, RefusesAFolderItCannotWriteTo) {
  // Under the system's temporary folder, not PHYSARUM_TEST_TMP: the child runs as nobody, who may
  // not enter a build folder inside root's home (a checkout under /root).
  std::string base_name = (std::filesystem::temp_directory_path() / "physarum-read-only-XXXXXX").string();
  ASSERT_NE(::mkdtemp(base_name.data()), nullptr);
  const std::filesystem::path base = base_name;
  std::filesystem::permissions(base, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                         std::filesystem::perms::group_exec |
                                         std::filesystem::perms::others_read |
                                         std::filesystem::perms::others_exec);
  const auto dir = base / "read-only";
  std::filesystem::create_directory(dir);
  write_file_atomically(dir / "existing", "x");
  std::filesystem::permissions(dir,
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                                   std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                                   std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    int refused = 0;
    for (const char* name : {"new.png", "existing"}) {
      try {
        check_writable_target(dir / name);
      } catch (const Error& e) {
        const std::string want = "the folder '" + dir.string() + "' is not writable";
        if (std::string(e.what()).find(want) != std::string::npos) ++refused;
      }
    }
    ::_exit(refused == 2 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
  std::filesystem::remove_all(base);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 3) << "could not give up root";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a folder it cannot write to was let through";
}

TEST(AtomicWrite, RefusesAnExistingPathThatIsNotARegularFile) {
  const auto dir = temp_dir();
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(dir / "folder");
  const std::vector<std::pair<std::filesystem::path, std::string>> cases{
      {dir / "fifo", "a FIFO"}, {dir / "folder", "a directory"}, {"/dev/null", "a device"}};
  for (const auto& [path, kind] : cases) {
    const std::string msg = error_of([&] { write_file_atomically(path, "x"); });
    EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(kind + ", not a regular file"), std::string::npos) << msg;
  }
  EXPECT_TRUE(std::filesystem::is_fifo(dir / "fifo"));
  EXPECT_TRUE(std::filesystem::is_empty(dir / "folder"));
  EXPECT_EQ(entries(dir).size(), 2U);  // no temporary file was created
}

TEST(AtomicWrite, ASymbolicLinkIsFollowedAndKept) {
  const auto dir = temp_dir();
  write_file(dir / "real.txt", "old");
  std::filesystem::create_symlink("real.txt", dir / "link.txt");
  write_file_atomically(dir / "link.txt", "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.txt"));
  EXPECT_EQ(read_file(dir / "real.txt"), "new");
}

// --- .npy

TEST(NpyAtomic, AFailedWriteKeepsTheOldArray) {
  const auto dir = temp_dir();
  const std::vector<float> old{1, 2, 3, 4, 5, 6};
  write_npy(dir / "f.npy", old.data(), 2, 3);
  const std::vector<float> big(256 * 256, 0.5f);
  std::string msg;
  {
    FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.ok());
    msg = error_of([&] { write_npy(dir / "f.npy", big.data(), 256, 256); });
  }
  EXPECT_NE(msg.find("f.npy"), std::string::npos) << "expected an error naming the file, got: " << msg;
  const NpyArray back = read_npy(dir / "f.npy");
  EXPECT_EQ(back.height, 2);
  EXPECT_EQ(back.width, 3);
  EXPECT_EQ(back.data, old);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"f.npy"});
}

TEST(NpyAtomic, RefusesAFifoWithoutBlocking) {
  const auto dir = temp_dir();
  ASSERT_EQ(::mkfifo((dir / "f.npy").c_str(), 0600), 0);
  const float v = 1.0f;
  const std::string msg = error_of([&] { write_npy(dir / "f.npy", &v, 1, 1); });
  EXPECT_NE(msg.find("not a regular file"), std::string::npos) << msg;
}

// --- PNG

TEST(PngAtomic, AWriteThatFailsMidwayIsReportedAndKeepsTheOldImage) {
  const auto dir = temp_dir();
  const auto small = noise_rgba(4, 4);
  write_png_rgba(dir / "i.png", small.data(), 4, 4);
  const std::string old = read_file(dir / "i.png");
  const auto big = noise_rgba(256, 256);
  std::string msg;
  {
    FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.ok());
    msg = error_of([&] { write_png_rgba(dir / "i.png", big.data(), 256, 256); });
  }
  EXPECT_NE(msg.find("i.png"), std::string::npos) << "a truncated PNG was reported as written";
  EXPECT_TRUE(read_file(dir / "i.png") == old) << "the old image was changed";
  EXPECT_EQ(entries(dir), std::vector<std::string>{"i.png"});
}

TEST(PngAtomic, AGoodWriteRoundTrips) {
  const auto dir = temp_dir();
  const auto px = noise_rgba(37, 21);
  write_png_rgba(dir / "i.png", px.data(), 37, 21);
  const std::string bytes = read_file(dir / "i.png");
  ASSERT_GT(bytes.size(), 8U);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

// --- The program, as a user meets a full disk: exit 1, a message, the old file whole.

// Runs PHYSARUM_EXE in `dir` with a file size limit; stdout and stderr go to a file each (their
// text stays far below the limit).
test::ProcessResult run_physarum_limited(const std::vector<std::string>& args,
                                         const std::filesystem::path& dir, rlim_t limit) {
  std::vector<std::string> argv_s{PHYSARUM_EXE};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s{"EGL_PLATFORM=surfaceless"};  // headless GL as the render tests use it
  for (char** e = environ; *e; ++e) {
    if (std::string(*e).rfind("EGL_PLATFORM=", 0) != 0) env_s.emplace_back(*e);
  }
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string out = (dir / "stdout.txt").string();
  const std::string err = (dir / "stderr.txt").string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
    const rlimit r{limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &r);
    ::signal(SIGXFSZ, SIG_IGN);  // stays ignored across exec: write() returns EFBIG instead
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0 || ::chdir(dir.c_str()) != 0) ::_exit(127);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  test::ProcessResult r;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.out = read_file(dir / "stdout.txt");
  r.err = read_file(dir / "stderr.txt");
  std::filesystem::remove(dir / "stdout.txt");
  std::filesystem::remove(dir / "stderr.txt");
  return r;
}

TEST(AtomicWriteCli, RunOnAFullDiskExitsWithAMessageAndKeepsTheOldField) {
  const auto dir = temp_dir();
  const std::vector<float> old{7, 8, 9, 10};
  write_npy(dir / "x.npy", old.data(), 2, 2);
  const auto r = run_physarum_limited(
      {"run", "--steps", "2", "--size", "128x96", "--agents", "500", "--backend", "cpu", "--out", "x.npy"},
      dir, 8192);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("x.npy"), std::string::npos) << r.err;
  EXPECT_EQ(read_npy(dir / "x.npy").data, old);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"x.npy"});
}

TEST(AtomicWriteCli, RenderOnAFullDiskExitsWithAMessageAndKeepsTheOldImage) {
  const auto dir = temp_dir();
  const auto px = noise_rgba(4, 4);
  write_png_rgba(dir / "x.png", px.data(), 4, 4);
  const std::string old = read_file(dir / "x.png");
  // A larger image than the limit allows (random agents make a noisy picture).
  const auto r = run_physarum_limited({"render", "--steps", "20", "--size", "256x256", "--agents", "30K",
                                       "--backend", "cpu", "--out", "x.png"},
                                      dir, 2048);
  if (r.err.find("EGL") != std::string::npos && r.exit_code != 0 &&
      r.err.find("x.png") == std::string::npos) {
    GTEST_SKIP() << "no headless OpenGL here: " << r.err;
  }
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("x.png"), std::string::npos) << r.err;
  EXPECT_TRUE(read_file(dir / "x.png") == old) << "the old image was changed";
  EXPECT_EQ(entries(dir), std::vector<std::string>{"x.png"});
}

}  // namespace
}  // namespace physarum
