// Pinned results: hashes of the field and of the agents after a fixed number of steps, for three
// fixed configurations. The CPU test (test_pinned.cpp) and the CUDA test (test_cuda.cpp) check
// their backend against the same numbers, so a change that alters both backends together (which
// the CPU-vs-CUDA comparisons cannot see) still fails.
//
// The numbers ARE the model. A change to them means the model's output changed: update
// docs/MODEL.md first, then regenerate them with
//   PHYSARUM_PRINT_PINNED=1 build/tests/physarum_tests --gtest_filter='Pinned.*'
// which prints the values the CPU backend computes now, ready to paste below.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/image.hpp"
#include "sim/spawn.hpp"

namespace physarum::test {

struct PinnedCase {
  const char* name;
  int steps;
  uint64_t field_hash;
  uint64_t agents_hash;
};

// For test names and messages: the configuration's name, not its bytes.
inline void PrintTo(const PinnedCase& c, std::ostream* os) {
  *os << c.name;
}

// Computed once from main at 44b4355 (its CPU backend, 1 and 3 threads agreeing), by this file's
// run_pinned() linked against that commit's library.
inline constexpr PinnedCase kPinned[] = {
    {"plain", 300, 0xf9c90d19fb466a13ULL, 0xaa0871ebc256e5b1ULL},
    {"jones_jitter", 300, 0x5acfebec5a5b2da1ULL, 0x4ae7ad345ffcd096ULL},
    {"image_seed", 300, 0x81125ffa27fe092dULL, 0xc66e912db610d446ULL},
};

// FNV-1a, 64-bit, over raw bytes (floats as stored: little-endian IEEE-754 on every target here).
class Fnv1a64 {
 public:
  void add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 0x100000001b3ULL;
    }
  }
  template <class T>
  void add(const std::vector<T>& v) {
    add(v.data(), v.size() * sizeof(T));
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

inline uint64_t field_hash(Backend& b) {
  std::vector<float> f;
  b.read_field(f);
  Fnv1a64 h;
  h.add(f);
  return h.value();
}

// Agents sorted by id (read_agents() returns them so): every x, then every y, then every theta.
inline uint64_t agents_hash(Backend& b) {
  const AgentState a = b.read_agents();
  for (size_t i = 0; i < a.id.size(); ++i) {
    if (a.id[i] != i) return 0;  // not sorted by id: no pinned value will match
  }
  Fnv1a64 h;
  h.add(a.x);
  h.add(a.y);
  h.add(a.theta);
  return h.value();
}

// A synthetic grey image with integer-only pixel values (no libm: the same bytes everywhere),
// deliberately not the field's size so the resize is exercised.
inline LumaImage pinned_image() {
  LumaImage img;
  img.width = 97;
  img.height = 61;
  img.luma.resize(static_cast<size_t>(img.width) * img.height);
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const int dx = x - 48;
      const int dy = y - 30;
      const int ring = (dx * dx + dy * dy) / 40 % 3;  // concentric bands
      img.luma[static_cast<size_t>(y) * img.width + x] = ring == 0 ? 1.0f : (ring == 1 ? 0.25f : 0.0f);
    }
  }
  return img;
}

inline SimConfig pinned_config(const std::string& name) {
  SimConfig c;
  c.size = Size{192, 128};
  c.agents = 20'000;
  c.seed = 1;
  if (name == "jones_jitter") {
    c.seed = 7;
    c.model.turn_rule = TurnRule::Jones;
    c.model.jitter = 0.3f;
    c.spawn.mode = SpawnMode::Disc;
  } else if (name == "image_seed") {
    c.seed = 3;
    c.spawn.agents_from_image = true;
  }
  return c;
}

// The backend `make` builds from the agents spawn_agents gives for the configuration, seeded as
// the program seeds it (run/src/seeding.cpp: brightness in [0, 1] spawns agents, times
// field_strength is the field), then stepped.
template <class MakeBackend>
std::unique_ptr<Backend> run_pinned(const PinnedCase& pc, MakeBackend&& make) {
  const SimConfig c = pinned_config(pc.name);
  std::unique_ptr<Backend> b = make(c, spawn_agents(c.spawn.mode, c.size, c.agents, c.seed));
  if (std::string(pc.name) == "image_seed") {
    std::vector<float> field = image_to_field(pinned_image(), c.size, 1.0f, ImageFit::Fill);
    const AgentState agents = spawn_from_image(field, c.size, c.agents, c.seed);
    for (float& v : field) v *= c.spawn.field_strength;
    b->set_field(field);
    b->set_agents(agents);
  }
  b->step(pc.steps);
  return b;
}

}  // namespace physarum::test
