// Files a user names are read only when they are regular files: the helper itself, and the palette
// loader, whose folder is scanned at start (a FIFO there blocked the window before it opened).
#include "sim/input_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "render/palette.hpp"
#include "sim/params.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using test::error_of;

TEST(InputFile, ReadsRegularFilesAndRefusesEverythingElse) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "a.txt", "hello");
  EXPECT_EQ(read_input_file(dir / "a.txt", "thing", 5), "hello");
  EXPECT_NE(error_of([&] { read_input_file(dir / "a.txt", "thing", 4); }).find("limit"), std::string::npos);
  EXPECT_NE(error_of([&] { read_input_file(dir / "none", "thing", 4); }).find("No such file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_input_file(dir, "thing", 4); }).find("a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { read_input_file("/dev/null", "thing", 4); }).find("character device"),
            std::string::npos);
}

TEST(InputFile, PaletteFromAFifoIsRefusedNotWaitedFor) {
  const auto dir = test::temp_dir();
  const auto fifo = dir / "pipe.palette";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Held open for writing: the old code opened it and then waited in read() for ever.
  const int keep = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(keep, 0);
  const std::string msg = error_of([&] { render::load_palette(fifo); });
  ::close(keep);
  EXPECT_NE(msg.find("FIFO"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pipe.palette"), std::string::npos) << msg;
}

}  // namespace
}  // namespace physarum
