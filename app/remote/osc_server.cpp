#include "remote/osc_server.hpp"

#include <lo/lo.h>

#include <charconv>
#include <deque>
#include <mutex>
#include <utility>

#include "sim/params.hpp"

namespace physarum::app {

struct OscServer::Shared {
  std::mutex mutex;
  std::deque<OscMessage> queue;
  uint64_t dropped = 0;
};

namespace {

// liblo's error callback has no user pointer: a failure to listen is reported on the thread that
// creates the server (kept per thread), a bad packet on the server's thread (kept for take_errors).
thread_local std::string creation_error;
thread_local bool creating = false;
std::mutex packet_errors_mutex;
std::vector<std::string> packet_errors;
constexpr size_t kPacketErrorLimit = 64;

void on_liblo_error(int num, const char* msg, const char* where) {
  std::string text = msg ? msg : "error";
  if (where) text.append(" (").append(where).append(")");
  text.append(" [liblo ").append(std::to_string(num)).append("]");
  if (creating) {
    creation_error = std::move(text);
    return;
  }
  const std::lock_guard lock(packet_errors_mutex);
  if (packet_errors.size() < kPacketErrorLimit) packet_errors.push_back(std::move(text));
}

OscArg arg_of(char type, const lo_arg* a) {
  switch (type) {
    case LO_INT32: return int64_t{a->i};
    case LO_INT64: return int64_t{a->h};
    case LO_FLOAT: return a->f;
    case LO_DOUBLE: return a->d;
    case LO_STRING:
    case LO_SYMBOL: return std::string(&a->s);
    case LO_TRUE: return true;
    case LO_FALSE: return false;
    default: return std::monostate{};
  }
}

int on_message(const char* path, const char* types, lo_arg** argv, int argc, lo_message, void* user) {
  auto* shared = static_cast<OscServer::Shared*>(user);
  OscMessage m;
  m.address = path ? path : "";
  m.types = types ? types : "";
  for (int i = 0; i < argc && i < static_cast<int>(m.types.size()); ++i) {
    m.args.push_back(arg_of(m.types[static_cast<size_t>(i)], argv[i]));
  }
  const std::lock_guard lock(shared->mutex);
  if (shared->queue.size() >= OscServer::kQueueLimit) {
    ++shared->dropped;
  } else {
    shared->queue.push_back(std::move(m));
  }
  return 0;  // handled: no other method is tried
}

std::string printable(std::string_view s, size_t limit) {
  std::string out;
  for (const char c : s.substr(0, limit)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > limit) out += "...";
  return out;
}

template <class T>
std::string shortest(T v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

std::string describe(const OscArg& a) {
  return std::visit(
      [](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return "(no value)";
        } else if constexpr (std::is_same_v<V, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<V, std::string>) {
          std::string quoted = "\"";
          quoted.append(printable(v, 80)).push_back('"');
          return quoted;
        } else {
          return shortest(v);
        }
      },
      a);
}

std::string describe(const OscMessage& m) {
  std::string out = printable(m.address, 120);
  for (const OscArg& a : m.args) out.append(" ").append(describe(a));
  return out;
}

OscServer::OscServer(int port) : shared_(std::make_unique<Shared>()) {
  if (port < 0 || port > 65535) {
    throw Error("OSC port " + std::to_string(port) + " is out of range: allowed 0 to 65535");
  }
  const std::string service = std::to_string(port);
  creating = true;
  creation_error.clear();
  lo_server_thread st =
      lo_server_thread_new_with_proto(port == 0 ? nullptr : service.c_str(), LO_UDP, on_liblo_error);
  creating = false;
  if (!st) {
    throw Error("cannot listen for OSC on UDP port " + service + ": " +
                (creation_error.empty() ? std::string("liblo refused") : creation_error));
  }
  thread_ = st;
  port_ = lo_server_thread_get_port(st);
  lo_server_thread_add_method(st, nullptr, nullptr, on_message, shared_.get());
  if (lo_server_thread_start(st) != 0) {
    lo_server_thread_free(st);
    throw Error("cannot start the OSC thread for UDP port " + service);
  }
}

OscServer::~OscServer() {
  // Stops and joins liblo's thread before the queue it writes to goes away.
  lo_server_thread_free(static_cast<lo_server_thread>(thread_));
}

std::vector<OscMessage> OscServer::take() {
  const std::lock_guard lock(shared_->mutex);
  std::vector<OscMessage> out(std::make_move_iterator(shared_->queue.begin()),
                              std::make_move_iterator(shared_->queue.end()));
  shared_->queue.clear();
  return out;
}

uint64_t OscServer::take_dropped() {
  const std::lock_guard lock(shared_->mutex);
  return std::exchange(shared_->dropped, 0);
}

std::vector<std::string> OscServer::take_errors() {
  const std::lock_guard lock(packet_errors_mutex);
  return std::exchange(packet_errors, {});
}

}  // namespace physarum::app
