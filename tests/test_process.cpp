// run_capture's time limit: a child that hangs is killed, with or without its output open.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <chrono>

#include "process.hpp"

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

}  // namespace
}  // namespace physarum::app
