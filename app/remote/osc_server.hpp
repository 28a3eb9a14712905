// An OSC server (liblo, UDP) on a background thread. It only queues what arrives: the window
// applies the messages on its own thread once a frame (window/remote_control.hpp), so nothing
// here touches the simulation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace physarum::app {

// One argument as the sender typed it. monostate: a type taken as "no value" (nil, impulse) or one
// we do not read (blob, MIDI, char, timetag); OscMessage::types keeps its tag for the messages.
using OscArg = std::variant<std::monostate, int64_t, float, double, std::string, bool>;

struct OscMessage {
  std::string address;  // "/physarum/model/decay"
  std::string types;    // the OSC type tags, one per argument: "f", "ii", "s", "T"
  std::vector<OscArg> args;
};

// The message as a person would write it, for refusals: "/physarum/model/decay 0.02". Bytes that
// are not printable ASCII become '?', and long texts are cut, so a stranger's packet cannot move
// the terminal's cursor or fill the screen.
std::string describe(const OscMessage& m);
// One argument the same way: "0.02", "3", "\"magma\"", "true".
std::string describe(const OscArg& a);

class OscServer {
 public:
  // A sender faster than the window (or a flood) is cut off here; the rest are counted as dropped.
  static constexpr size_t kQueueLimit = 4096;

  // Listens on UDP `port` of every interface; 0 picks a free port (port() says which). Throws
  // Error naming the port when it cannot listen (in use, not allowed).
  explicit OscServer(int port);
  ~OscServer();
  OscServer(const OscServer&) = delete;
  OscServer& operator=(const OscServer&) = delete;

  int port() const { return port_; }

  // Everything that arrived since the last call, oldest first.
  std::vector<OscMessage> take();
  // Messages dropped since the last call because the queue was full.
  uint64_t take_dropped();
  // Packets liblo could not read since the last call (malformed, unknown type), as liblo says it.
  std::vector<std::string> take_errors();

  struct Shared;  // the queue, shared with liblo's thread

 private:
  std::unique_ptr<Shared> shared_;
  void* thread_ = nullptr;  // lo_server_thread
  int port_ = 0;
};

}  // namespace physarum::app
