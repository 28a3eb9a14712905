// run_capture's time limit: a child that hangs is killed, with or without its output open; and
// shell_quote.
#include <sys/wait.h>
#include <wordexp.h>

#include <gtest/gtest.h>

#include <chrono>

#include "system/process.hpp"

namespace physarum::app {
namespace {

using namespace std::chrono_literals;

TEST(Process, RunCaptureReturnsOutputAndStatus) {
  const ProcessOutput r = run_capture({"sh", "-c", "echo out; echo err >&2; exit 3"}, true);
  EXPECT_FALSE(r.timed_out);
  ASSERT_TRUE(WIFEXITED(r.wait_status));
  EXPECT_EQ(WEXITSTATUS(r.wait_status), 3);
  EXPECT_NE(r.out.find("out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("err"), std::string::npos) << r.out;
}

TEST(Process, RunCaptureKillsAChildThatHangsWithItsOutputOpen) {
  const ProcessOutput r = run_capture({"sh", "-c", "echo started; exec sleep 60"}, false, 300ms);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(wait_status_ok(r.wait_status));
  ASSERT_TRUE(WIFSIGNALED(r.wait_status)) << describe_wait_status(r.wait_status);
  EXPECT_EQ(WTERMSIG(r.wait_status), SIGKILL);
  EXPECT_EQ(r.out, "started\n");
}

TEST(Process, RunCaptureKillsAChildThatHangsAfterClosingItsOutput) {
  const ProcessOutput r = run_capture({"sh", "-c", "exec >&-; exec sleep 60"}, false, 300ms);
  EXPECT_TRUE(r.timed_out);
  ASSERT_TRUE(WIFSIGNALED(r.wait_status)) << describe_wait_status(r.wait_status);
  EXPECT_EQ(WTERMSIG(r.wait_status), SIGKILL);
}

// shell_quote's words read back by the shell's own rules (wordexp, no command substitution).
TEST(Process, ShellQuoteRoundTripsThroughShellWordSplitting) {
  for (const std::string w : {"plain.mp4", "with space.mp4", "-lead", "it's", "a:b", "$HOME", "`x`", "~/f",
                              "back\\slash", "tab\there", "", "\"quoted\""}) {
    const std::string line = "cmd " + shell_quote(w);
    wordexp_t we{};
    ASSERT_EQ(::wordexp(line.c_str(), &we, WRDE_NOCMD | WRDE_UNDEF), 0) << line;
    ASSERT_EQ(we.we_wordc, 2u) << line;
    EXPECT_EQ(std::string(we.we_wordv[1]), w) << line;
    ::wordfree(&we);
  }
  EXPECT_EQ(shell_quote("plain.mp4"), "plain.mp4");
}

}  // namespace
}  // namespace physarum::app
