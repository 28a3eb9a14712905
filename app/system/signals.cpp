#include "system/signals.hpp"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "sim/elapsed.hpp"

namespace physarum::app {

namespace {

std::atomic<int> g_stop{-1};  // -1: no request; otherwise the signal number (0 = by request_stop)
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_stop_signal(int sig) {
  // Only async-signal-safe work here: one lock-free store.
  g_stop.store(sig, std::memory_order_relaxed);
}

struct Registry {
  // Recursive: finalising an entry unregisters it from the same thread.
  std::recursive_mutex mutex;
  std::vector<Finalisable*> open;
};

Registry& registry() {
  static Registry r;
  return r;
}

void at_exit_finalise() {
  finalise_open();
}

}  // namespace

void install_signal_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    registry();  // constructed before atexit registration, so destroyed after the handler runs
    std::atexit(at_exit_finalise);
  });
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);  // the terminal was closed: finish the recording all the same
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

bool stop_requested() {
  return g_stop.load(std::memory_order_relaxed) >= 0;
}

int stop_signal() {
  return std::max(0, g_stop.load(std::memory_order_relaxed));
}

void request_stop(int signal) {
  g_stop.store(signal < 0 ? 0 : signal, std::memory_order_relaxed);
}

void clear_stop_request() {
  g_stop.store(-1, std::memory_order_relaxed);
}

int exit_code_for_signal(int signal) {
  return 128 + signal;
}

void throw_if_stopped() {
  if (stop_requested()) throw Stopped();
}

StopCheck stop_on_signal() {
  return [] { return stop_requested(); };
}

void step_in_slices(uint64_t n, const std::function<void(uint64_t)>& step) {
  // Capped so that an asynchronous backend, whose step() only queues work, never has more than
  // this many steps in flight when the stop comes.
  constexpr uint64_t kMaxSlice = 256;
  constexpr double kQuickMs = 100;
  uint64_t slice = 1;
  for (uint64_t done = 0; done < n;) {
    throw_if_stopped();
    const uint64_t k = std::min(slice, n - done);
    const auto t0 = std::chrono::steady_clock::now();
    step(k);
    done += k;
    if (ms_since(t0) < kQuickMs) slice = std::min(slice * 2, kMaxSlice);
  }
  throw_if_stopped();
}

int report_stopped(const char* command, const char* left_alone) {
  const int sig = stop_signal();
  const char* name = sig == SIGINT    ? "SIGINT"
                     : sig == SIGTERM ? "SIGTERM"
                     : sig == SIGHUP  ? "SIGHUP"
                                      : "a request";
  std::fprintf(stderr, "physarum %s: interrupted by %s (signal %d); %s\n", command, name, sig, left_alone);
  return exit_code_for_signal(sig);
}

void register_open(Finalisable* f) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (std::find(r.open.begin(), r.open.end(), f) == r.open.end()) r.open.push_back(f);
}

void unregister_open(Finalisable* f) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::erase(r.open, f);
}

void finalise_open() noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  // Finalising unregisters, so walk a copy; the lock keeps each entry alive meanwhile (its
  // destructor unregisters first and waits here).
  const std::vector<Finalisable*> open = r.open;
  for (Finalisable* f : open) {
    if (std::find(r.open.begin(), r.open.end(), f) != r.open.end()) f->finalise();
  }
}

}  // namespace physarum::app
