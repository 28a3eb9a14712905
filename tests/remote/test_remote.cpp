// Live control over OSC: every registry key is an address and reads back as the value sent,
// species are numbered as --set numbers them, bad messages are refused naming the address and
// the value, liblo's server queues what arrives over the loopback, and a WindowCore (EGL, no
// window) changes when messages arrive; the window under Xvfb follows the Python example client.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <lo/lo.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gl_support.hpp"
#include "png_image.hpp"
#include "remote/osc_server.hpp"
#include "remote/remote_command.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "test_support.hpp"
#include "window/history.hpp"
#include "window/remote_control.hpp"
#include "window/window_core.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

using namespace std::chrono_literals;

constexpr const char* kTwoSpecies = R"([[species]]
name = "a"
[[species]]
name = "b"
colour = "#2040ff"
deposit = 2
[interaction]
matrix = [[1, -0.5], [-0.5, 1]]
)";

OscMessage msg(std::string address, std::vector<OscArg> args = {}) {
  return OscMessage{std::move(address), "", std::move(args)};
}

// The value as a sender would type it, from the Value alone (not through value_from_osc).
std::vector<OscArg> as_sent(const Value& v) {
  if (const auto* f = std::get_if<float>(&v)) return {*f};
  if (const auto* i = std::get_if<int64_t>(&v)) return {*i};
  if (const auto* b = std::get_if<bool>(&v)) return {*b};
  if (const auto* s = std::get_if<std::string>(&v)) return {*s};
  if (const auto* s = std::get_if<Size>(&v)) return {int64_t{s->width}, int64_t{s->height}};
  std::vector<OscArg> out;
  for (const float x : std::get<std::vector<float>>(v)) out.emplace_back(x);
  return out;
}

std::string address_of(const std::string& dotted) {
  std::string a = "/physarum/" + dotted;
  for (char& c : a) c = c == '.' ? '/' : c;
  return a;
}

TEST(RemoteCommand, EveryKeyOfThePresetIsAnAddressThatReadsBackItsValue) {
  for (const Preset& p : {Preset{}, parse_preset(kTwoSpecies, "two")}) {
    const std::vector<registry::Key> keys = registry::keys_of(p);
    ASSERT_GT(keys.size(), 20u);
    for (const registry::Key& k : keys) {
      const Value v = registry::get(p, k);
      if (std::holds_alternative<std::monostate>(v)) continue;  // an optional key that is not set
      // Text keys may be empty (no food map): a string is then the only way to write them.
      const RemoteCommand c = read_command(msg(address_of(k.name()), as_sent(v)), p);
      EXPECT_EQ(c.kind, RemoteCommand::Kind::Set);
      EXPECT_EQ(c.key, k) << k.name();
      EXPECT_EQ(c.value, v) << k.name();
    }
  }
}

TEST(RemoteCommand, SpeciesAreNumberedFromZeroAsSetNumbersThem) {
  const Preset p = parse_preset(kTwoSpecies, "two");
  const RemoteCommand c = read_command(msg("/physarum/species/1/deposit", {3.0f}), p);
  Preset by_osc = p;
  registry::set(by_osc, c.key, c.value);
  Preset by_set = p;
  apply_override(by_set, "species.1.deposit=3");
  EXPECT_EQ(by_osc, by_set);
  EXPECT_EQ(by_osc.species.list[1].model.deposit, 3.0f);
  EXPECT_EQ(by_osc.species.list[0].model.deposit, p.species.list[0].model.deposit);
}

TEST(RemoteCommand, NumbersAsControllersSendThem) {
  const Preset p;
  const auto value = [&](const char* address, std::vector<OscArg> args) {
    return read_command(msg(address, std::move(args)), p).value;
  };
  EXPECT_EQ(value("/physarum/model/decay", {0.02f}), Value(0.02f));
  EXPECT_EQ(value("/physarum/model/decay", {0.02}), Value(0.02f));  // a double, rounded once
  EXPECT_EQ(value("/physarum/model/decay", {std::string("0.02")}), Value(0.02f));
  EXPECT_EQ(value("/physarum/display/levels", {5.0f}), Value(int64_t{5}));  // TouchDesigner's floats
  EXPECT_EQ(value("/physarum/display/invert", {1.0f}), Value(true));
  EXPECT_EQ(value("/physarum/display/invert", {false}), Value(false));
  EXPECT_EQ(value("/physarum/display/mapping", {int64_t{1}}), Value(std::string("log")));
  EXPECT_EQ(value("/physarum/display/mapping", {std::string("log")}), Value(std::string("log")));
  EXPECT_EQ(value("/physarum/display/walls_colour", {1.0f, 0.5f, 0.0f}), Value(int64_t{0xff8000}));
  EXPECT_EQ(value("/physarum/display/walls_colour", {int64_t{0x123456}}), Value(int64_t{0x123456}));
  EXPECT_EQ(value("/physarum/run/size", {int64_t{320}, 200.0f}), Value(Size{320, 200}));
  const Preset two = parse_preset(kTwoSpecies, "two");
  EXPECT_EQ(read_command(msg("/physarum/interaction/matrix", {1.0f, 0.25f, -1.0f, 1.0f}), two).value,
            Value(std::vector<float>{1.0f, 0.25f, -1.0f, 1.0f}));
}

// The refusal's message names the address and the value as sent, and says why.
void expect_refused(const Preset& p, const OscMessage& m, const std::vector<std::string>& says) {
  const std::string e = test::error_of([&] { (void)read_command(m, p); });
  ASSERT_FALSE(e.empty()) << describe(m) << " was accepted";
  EXPECT_EQ(e.rfind("OSC " + describe(m) + ": ", 0), 0u) << e;
  for (const std::string& s : says) EXPECT_NE(e.find(s), std::string::npos) << e << "\nwants: " << s;
}

TEST(RemoteCommand, BadMessagesAreRefusedNamingTheAddressAndTheValue) {
  const Preset p;
  expect_refused(p, msg("/physarum/model/decay", {5.0f}), {"model.decay = 5", "0 to 1"});
  expect_refused(p, msg("/physarum/model/decay", {std::nanf("")}), {"/physarum/model/decay nan"});
  expect_refused(p, msg("/physarum/model/decay", {std::string("much")}), {"much"});
  expect_refused(p, msg("/physarum/model/decay", {true}), {"takes a number"});
  expect_refused(p, msg("/physarum/model/decay", {0.1f, 0.2f}), {"got 2 values"});
  expect_refused(p, msg("/physarum/model/decay"), {"got 0 values"});
  expect_refused(p, msg("/physarum/model/decoy", {0.1f}), {"decoy", "decay"});  // the known keys
  expect_refused(p, msg("/physarum/display/levels", {5.5f}), {"whole number"});
  expect_refused(p, msg("/physarum/display/mapping", {int64_t{7}}), {"linear, log"});
  expect_refused(p, msg("/physarum/species/1/deposit", {3.0f}), {"species"});
  expect_refused(p, msg("/other/model/decay", {0.1f}), {"unknown address", "/physarum/"});
  expect_refused(p, msg("/physarum/pause", {std::string("yes")}), {"1 or true"});
  // A stranger's bytes are shown, not sent to the terminal.
  expect_refused(p, msg("/physarum/model/\x1b[2Jdecay", {0.1f}), {"/physarum/model/?[2Jdecay"});
  const Preset two = parse_preset(kTwoSpecies, "two");
  expect_refused(two, msg("/physarum/model/decay", {0.1f}), {"species.N"});
  expect_refused(two, msg("/physarum/species/2/deposit", {1.0f}), {"species"});
  expect_refused(two, msg("/physarum/interaction/matrix", {1.0f, 0.0f, 1.0f}), {"2 x 2"});
}

TEST(RemoteCommand, ButtonsToggleOrAskForAState) {
  const Preset p;
  using K = RemoteCommand::Kind;
  EXPECT_EQ(read_command(msg("/physarum/reset"), p).kind, K::Reset);
  EXPECT_EQ(read_command(msg("/physarum/record"), p).kind, K::Record);
  EXPECT_EQ(read_command(msg("/physarum/pause"), p).on, std::nullopt);
  EXPECT_EQ(read_command(msg("/physarum/pause", {1.0f}), p).on, true);
  EXPECT_EQ(read_command(msg("/physarum/pause", {int64_t{0}}), p).on, false);
  EXPECT_EQ(read_command(msg("/physarum/record", {true}), p).on, true);
}

// Sends over UDP to the loopback with liblo's client, as any OSC program would.
class Sender {
 public:
  explicit Sender(int port) : to_(lo_address_new("127.0.0.1", std::to_string(port).c_str())) {}
  ~Sender() { lo_address_free(to_); }
  Sender(const Sender&) = delete;
  Sender& operator=(const Sender&) = delete;
  template <class... A>
  void send(const char* path, const char* types, A... args) {
    ASSERT_NE(lo_send(to_, path, types, args...), -1) << lo_address_errstr(to_);
  }

 private:
  lo_address to_;
};

std::vector<OscMessage> take_at_least(OscServer& s, size_t n) {
  std::vector<OscMessage> got;
  for (auto until = std::chrono::steady_clock::now() + 5s;
       got.size() < n && std::chrono::steady_clock::now() < until;) {
    for (OscMessage& m : s.take()) got.push_back(std::move(m));
    std::this_thread::sleep_for(5ms);
  }
  return got;
}

TEST(OscServer, QueuesWhatArrivesOverTheLoopbackAsTyped) {
  OscServer server(0);
  ASSERT_GT(server.port(), 0);
  Sender to(server.port());
  to.send("/physarum/model/decay", "f", 0.02f);
  to.send("/physarum/run/size", "ii", 320, 200);
  to.send("/physarum/display/palette", "s", "magma");
  to.send("/physarum/pause", "T");
  to.send("/physarum/model/deposit", "d", 2.5);
  const std::vector<OscMessage> got = take_at_least(server, 5);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].address, "/physarum/model/decay");
  EXPECT_EQ(got[0].types, "f");
  EXPECT_EQ(got[0].args, std::vector<OscArg>{0.02f});
  EXPECT_EQ(got[1].args, (std::vector<OscArg>{int64_t{320}, int64_t{200}}));
  EXPECT_EQ(got[2].args, std::vector<OscArg>{std::string("magma")});
  EXPECT_EQ(got[3].args, std::vector<OscArg>{true});
  EXPECT_EQ(got[4].args, std::vector<OscArg>{2.5});
  EXPECT_EQ(server.take_dropped(), 0u);
}

TEST(OscServer, APortInUseIsRefusedNamingIt) {
  OscServer first(0);
  const std::string e = test::error_of([&] { OscServer second(first.port()); });
  EXPECT_NE(e.find("UDP port " + std::to_string(first.port())), std::string::npos) << e;
  EXPECT_NE(test::error_of([] { OscServer bad(70000); }).find("70000"), std::string::npos);
}

struct LiveWindow {
  std::unique_ptr<render::EglContext> egl;
  std::unique_ptr<WindowCore> core;
  std::unique_ptr<test::Fbo> fbo;
};

// A WindowCore without a window, on the CPU; null (with the reason) without EGL.
LiveWindow live_window(const std::string& preset_text, std::string& why) {
  LiveWindow w;
  w.egl = test::try_egl(false, why);
  if (!w.egl) return w;
  const auto dir = test::temp_dir();
  test::write_file(dir / "p.toml", preset_text + "\n[run]\nsize = \"64x48\"\nagents = 2000\n");
  run::Recipe r;
  r.backend = "cpu";
  r.threads = 1;
  r.preset = (dir / "p.toml").string();
  w.core = std::make_unique<WindowCore>(r);
  w.fbo = std::make_unique<test::Fbo>(64, 48);
  return w;
}

// Applies frames until `n` messages were applied or refused (UDP over the loopback is quick but
// not instant).
void apply_until(RemoteControl& rc, WindowCore& core, uint64_t n, bool recording,
                 std::vector<PanelAction>& actions, Toasts& toasts) {
  for (auto until = std::chrono::steady_clock::now() + 5s;
       rc.applied() + rc.refused() < n && std::chrono::steady_clock::now() < until;) {
    (void)rc.apply(core, recording, actions, toasts);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(rc.applied() + rc.refused(), n);
}

// The field after `steps` of a run made from `p` from the start.
std::vector<float> grown(const Preset& p, int steps) {
  run::Recipe r;
  r.backend = "cpu";
  r.threads = 1;
  r.base = p;
  run::Run fresh(r);
  fresh.step(static_cast<uint64_t>(steps));
  std::vector<float> f;
  fresh.backend().read_field(f);
  return f;
}

TEST(RemoteControl, MessagesOverTheLoopbackChangeTheRunningSimulation) {
  std::string why;
  LiveWindow w = live_window("[model]\ndecay = 0.05\n", why);
  if (!w.core) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore& core = *w.core;
  RemoteControl rc(0);
  Sender to(rc.port());
  const Preset before = core.preset;
  to.send("/physarum/model/decay", "f", 0.02f);
  to.send("/physarum/display/exposure", "f", 2.0f);
  to.send("/physarum/model/decay", "f", 5.0f);                   // out of range
  to.send("/physarum/model/sensor_distance", "s", "far");        // not a number
  to.send("/physarum/display/palette", "s", "no-such-palette");  // not loaded
  to.send("/physarum/pause", "");
  std::vector<PanelAction> actions;
  Toasts toasts;
  apply_until(rc, core, 6, false, actions, toasts);
  EXPECT_EQ(rc.applied(), 3u);
  EXPECT_EQ(core.preset.model.decay, 0.02f);
  EXPECT_EQ(core.preset.display.exposure, 2.0f);
  EXPECT_EQ(core.preset.display.palette, before.display.palette);
  EXPECT_TRUE(core.paused());
  ASSERT_EQ(toasts.entries().size(), 3u);
  EXPECT_NE(toasts.entries()[0].text.find("/physarum/model/decay 5: model.decay = 5"), std::string::npos)
      << toasts.entries()[0].text;
  EXPECT_NE(toasts.entries()[1].text.find("\"far\""), std::string::npos) << toasts.entries()[1].text;
  EXPECT_NE(toasts.entries()[2].text.find("no palette named 'no-such-palette'"), std::string::npos);

  // The backend steps with the new decay: the same field as a run made with it from the start.
  Preset want = before;
  want.model.decay = 0.02f;
  want.display.exposure = 2.0f;
  core.toggle_pause();
  for (int f = 0; f < 5; ++f) {
    core.step();
    core.render(64, 48);
  }
  std::vector<float> got_field;
  core.backend().read_field(got_field);
  const std::vector<float> want_field = grown(want, 5);
  ASSERT_EQ(got_field.size(), want_field.size());
  EXPECT_EQ(std::memcmp(got_field.data(), want_field.data(), want_field.size() * sizeof(float)), 0);
}

TEST(RemoteControl, RecordFollowsTheRecording) {
  std::string why;
  LiveWindow w = live_window("", why);
  if (!w.core) GTEST_SKIP() << "no EGL context: " << why;
  RemoteControl rc(0);
  Sender to(rc.port());
  std::vector<PanelAction> actions;
  Toasts toasts;
  to.send("/physarum/record", "i", 1);  // already recording: nothing to do
  apply_until(rc, *w.core, 1, true, actions, toasts);
  EXPECT_TRUE(actions.empty());
  to.send("/physarum/record", "");
  to.send("/physarum/record", "");  // toggles twice: start, then stop
  apply_until(rc, *w.core, 3, false, actions, toasts);
  EXPECT_EQ(actions, (std::vector<PanelAction>{PanelAction::ToggleRecording, PanelAction::ToggleRecording}));
}

TEST(RemoteControl, ARepeatedRefusalIsToldOnceInAWhile) {
  std::string why;
  LiveWindow w = live_window("", why);
  if (!w.core) GTEST_SKIP() << "no EGL context: " << why;
  RemoteControl rc(0);
  Sender to(rc.port());
  std::vector<PanelAction> actions;
  Toasts toasts;
  const auto t = RemoteControl::Clock::now();
  const auto refused_until = [&](uint64_t n, RemoteControl::Clock::time_point now) {
    for (auto until = std::chrono::steady_clock::now() + 5s;
         rc.refused() < n && std::chrono::steady_clock::now() < until;) {
      (void)rc.apply(*w.core, false, actions, toasts, now);
      std::this_thread::sleep_for(5ms);
    }
    ASSERT_EQ(rc.refused(), n);
  };
  for (int i = 0; i < 3; ++i) to.send("/physarum/model/nothing", "f", 1.0f);
  refused_until(3, t);
  EXPECT_EQ(toasts.entries().size(), 1u);
  to.send("/physarum/model/nothing", "f", 1.0f);
  refused_until(4, t + RemoteControl::kQuiet);
  ASSERT_EQ(toasts.entries().size(), 2u);
  EXPECT_NE(toasts.entries()[1].text.find("/physarum/model/nothing 1: "), std::string::npos);
  EXPECT_NE(toasts.entries()[1].text.find("(ignored, and 2 times more since)"), std::string::npos)
      << toasts.entries()[1].text;
  to.send("/physarum/model/other", "f", 1.0f);  // another refusal is told at once
  refused_until(5, t + RemoteControl::kQuiet);
  EXPECT_EQ(toasts.entries().size(), 3u);
}

// A species' key reaches that species (numbered from 0): the run grows as one made with the value
// from the start.
TEST(RemoteControl, ASpeciesKeyReachesThatSpecies) {
  std::string why;
  LiveWindow w = live_window(kTwoSpecies, why);
  if (!w.core) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore& core = *w.core;
  bool recording = false;
  std::vector<PanelAction> actions;
  const RemoteCommand c = read_command(msg("/physarum/species/1/deposit", {5.0f}), core.preset);
  ASSERT_TRUE(apply_remote(c, core, recording, actions)) << core.notice();
  EXPECT_EQ(core.preset.species.list[1].model.deposit, 5.0f);
  EXPECT_EQ(core.preset.species.list[0].model.deposit, 1.0f);
  for (int f = 0; f < 4; ++f) {
    core.step();
    core.render(64, 48);
  }
  std::vector<float> field;
  core.backend().read_field(field);
  const std::vector<float> want = grown(core.preset, 4);
  ASSERT_EQ(field.size(), want.size());
  EXPECT_EQ(std::memcmp(field.data(), want.data(), want.size() * sizeof(float)), 0);
}

// run.* needs new agents: the run is made anew with the value, as the panel's Apply does, and the
// window is told so its fields follow.
TEST(RemoteControl, ARunKeyMakesTheRunAnew) {
  std::string why;
  LiveWindow w = live_window("", why);
  if (!w.core) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore& core = *w.core;
  core.step();
  RemoteControl rc(0);
  Sender to(rc.port());
  to.send("/physarum/run/seed", "f", 7.0f);
  std::vector<PanelAction> actions;
  Toasts toasts;
  bool rebuilt = false;
  for (auto until = std::chrono::steady_clock::now() + 5s;
       rc.applied() == 0 && std::chrono::steady_clock::now() < until;) {
    rebuilt |= rc.apply(core, false, actions, toasts);
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(rebuilt);
  EXPECT_EQ(core.preset.run.seed, 7u);
  EXPECT_EQ(core.backend().steps_done(), 0u);
  for (int f = 0; f < 3; ++f) core.step();
  std::vector<float> field;
  core.backend().read_field(field);
  EXPECT_EQ(field, grown(core.preset, 3));
}

// Frames at made-up times: a stream of changes, each less than kSettle after the last, becomes one
// undo step once it settles, as a slider's drag does.
TEST(RemoteControl, AStreamOfChangesIsOneUndoStep) {
  std::string why;
  LiveWindow w = live_window("[model]\ndecay = 0.05\n", why);
  if (!w.core) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore& core = *w.core;
  RemoteControl rc(0);
  Sender to(rc.port());
  ParamHistory history;
  history.reset(core.preset);
  std::vector<PanelAction> actions;
  Toasts toasts;
  auto t = RemoteControl::Clock::now();
  EXPECT_FALSE(rc.editing(t));
  for (const float decay : {0.04f, 0.03f, 0.02f}) {
    to.send("/physarum/model/decay", "f", decay);
    for (auto until = RemoteControl::Clock::now() + 5s;
         core.preset.model.decay != decay && RemoteControl::Clock::now() < until;) {
      EXPECT_FALSE(rc.apply(core, false, actions, toasts, t));
      std::this_thread::sleep_for(2ms);
    }
    ASSERT_EQ(core.preset.model.decay, decay);
    EXPECT_TRUE(rc.editing(t + RemoteControl::kSettle / 2));
    EXPECT_FALSE(history.observe(core.preset, rc.editing(t + RemoteControl::kSettle / 2)));
    t += RemoteControl::kSettle / 2;
  }
  t += RemoteControl::kSettle;
  EXPECT_FALSE(rc.editing(t));
  EXPECT_TRUE(history.observe(core.preset, rc.editing(t)));
  const std::optional<Preset> back = history.undo(core.preset);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->model.decay, 0.05f);  // the whole stream, back to before it
  EXPECT_FALSE(history.can_undo());
}

// A UDP port nobody listens on now (the kernel's choice for port 0).
int free_udp_port() {
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  close(fd);
  return ok ? ntohs(a.sin_port) : 0;
}

// The example client, as a user runs it.
void python_send(int port, const std::string& message) {
  const std::string cmd = "python3 " PHYSARUM_SOURCE_DIR "/examples/osc_send.py --port " +
                          std::to_string(port) + " " + message + " >/dev/null 2>&1";
  (void)std::system(cmd.c_str());
}

std::vector<std::string> window_args(const std::string& shot) {
  return {"--frames", "150",   "--screenshot", shot, "--backend",  "cpu",      "--threads", "1",
          "--size",   "96x64", "--agents",     "3K", "--no-vsync", "--window", "320x240",   "--hide-panel"};
}

TEST(WindowOscE2e, ThePythonExampleChangesTheRunningWindow) {
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const std::vector<std::pair<std::string, std::string>> env{{"DISPLAY", x.display()},
                                                             {"LIBGL_ALWAYS_SOFTWARE", "1"}};
  const auto plain = test::run_physarum(window_args("plain.png"), dir, env, {"WAYLAND_DISPLAY"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  std::vector<std::string> set = window_args("set.png");
  set.insert(set.end(), {"--set", "display.invert=true"});
  const auto by_set = test::run_physarum(set, dir, env, {"WAYLAND_DISPLAY"});
  ASSERT_EQ(by_set.exit_code, 0) << by_set.err;

  const int port = free_udp_port();
  ASSERT_GT(port, 0);
  std::vector<std::string> osc = window_args("osc.png");
  osc.insert(osc.end(), {"--osc", std::to_string(port)});
  test::Spawned running = test::spawn_physarum(osc, dir, env, {"WAYLAND_DISPLAY"});
  ASSERT_GT(running.pid, 0) << running.error;
  while (!running.exited()) {  // UDP sent before the server listens is lost: send until it ends
    python_send(port, "/physarum/display/invert true");
    python_send(port, "/physarum/model/decay 5");
    std::this_thread::sleep_for(20ms);
  }
  const auto r = running.wait();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("OSC: listening on UDP port " + std::to_string(port)), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("OSC /physarum/model/decay 5: model.decay = 5 is out of range"), std::string::npos)
      << r.err;
  // The message's display is the --set one's, exactly, and not the plain run's.
  const auto a = test::load_rgba_png(dir / "plain.png"), b = test::load_rgba_png(dir / "set.png"),
             c = test::load_rgba_png(dir / "osc.png");
  ASSERT_EQ(b.rgba.size(), c.rgba.size());
  EXPECT_NE(a.rgba, b.rgba);
  EXPECT_EQ(b.rgba, c.rgba) << "the OSC message did not reach the window: " << r.out;
}

}  // namespace
}  // namespace physarum::app
