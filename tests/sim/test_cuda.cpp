// The CUDA backend against the CPU backend: bit-identical fields and agents after many steps, live
// parameter changes, brush strokes, publishing into a surface, and out-of-memory recovery.
// Every test skips, saying why, when the build has no CUDA backend or the machine has no device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends.hpp"
#include "cuda_pair.hpp"
#include "pinned_results.hpp"
#include "sim/backend.hpp"
#include "sim/spawn.hpp"

#if defined(PHYSARUM_HAS_CUDA)
#include <cuda_runtime.h>

#include "event_query.hpp"
#endif

using namespace physarum;

namespace {

#if defined(PHYSARUM_HAS_CUDA)

using test::make_pair;
using test::make_species_pair;
using test::Pair;
using test::same_bits;
using test::step_both;

void expect_identical(Pair& p) {
  AgentState ag;
  test::expect_same_field_and_agents(p, &ag);
  if (::testing::Test::HasFatalFailure()) return;
  EXPECT_TRUE(same_bits(p.cpu->read_agents().id, ag.id, "agent id"));
}

// A smooth, non-trivial seed field (as an image seed would give).
std::vector<float> smooth_pattern(Size s, float strength) {
  std::vector<float> f(static_cast<size_t>(s.width) * s.height);
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      const double v = 0.5 + 0.5 * std::sin(0.05 * x) * std::cos(0.07 * y);
      f[static_cast<size_t>(y) * s.width + x] = strength * static_cast<float>(v);
    }
  }
  return f;
}

#endif

}  // namespace

// The name says whether a CUDA backend can be had: a name, and --backend cuda runs on that device;
// none, and --backend cuda is refused with a message while auto falls back to the CPU.
TEST(Cuda, DeviceNameSaysWhetherACudaBackendCanBeMade) {
  std::string name;
  ASSERT_NO_THROW(name = cuda_device());
  SimConfig c;
  c.size = Size{64, 48};
  c.agents = 1000;
  std::string note;
  if (name.empty()) {
    EXPECT_THROW(create_backend(BackendKind::Cuda, c), Error);
    EXPECT_NE(create_backend(BackendKind::Auto, c, &note)->name().find("cpu"), std::string::npos);
    EXPECT_EQ(note.rfind("cpu: ", 0), 0U) << note;
    return;
  }
  const auto b = create_backend(BackendKind::Cuda, c, &note);
  EXPECT_EQ(b->name(), "cuda (" + name + ")");
  EXPECT_EQ(note, "cuda: " + name);
}

#if defined(PHYSARUM_HAS_CUDA)

TEST(Cuda, OddSizeWrapsAtEveryEdgeLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{257, 131};
  c.agents = 5000;
  c.seed = 11;
  c.model.sensor_distance = 9.0f;  // sensors reach across the edges often
  Pair p = make_pair(c);
  expect_identical(p);
  // Uneven step counts: single steps, graph chunks and their boundaries all get exercised.
  step_both(p, 1);
  step_both(p, 37);
  step_both(p, 962);
  expect_identical(p);
}

// The window's and render's pattern: many short calls (a frame's 1-9 steps), now run as cached
// graphs keyed by length, field parity and agent buffer, with the sorts between them and one call in
// K run kernel by kernel for timings; now and then a long call across sort boundaries, a kernel
// change (the graphs are captured again) and new agents (the sort's counts made afresh). Every
// combination comes up many times; the result must stay the CPU's, bit for bit.
TEST(Cuda, ManyShortCallsOfVaryingLengthLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{301, 173};
  c.agents = 20'000;
  c.seed = 21;
  Pair p = make_pair(c);
  uint32_t lcg = 12345;
  for (int call = 0; call < 600; ++call) {
    lcg = lcg * 1664525u + 1013904223u;
    int n = 1 + static_cast<int>((lcg >> 24) % 9);
    if (call % 97 == 96) n = 65 + call % 7;  // longer than a chunk (64), misaligned: short runs around it
    step_both(p, n);
    if (call == 200) {
      ModelParams m = p.cpu->model();
      m.turn_rule = TurnRule::Jones;  // another agent kernel (ids read): the graphs are remade
      m.jitter = 0.2f;
      p.cpu->set_model(m);
      p.gpu->set_model(m);
    }
    if (call == 350) {
      const AgentState a = p.cpu->read_agents();
      p.gpu->set_agents(a);  // the same agents, uploaded: the next sort counts them afresh
      expect_identical(p);
    }
    if (call == 420) {
      ModelParams m = p.cpu->model();
      m.turn_rule = TurnRule::Simple;  // and back: the id-free kernel again
      m.jitter = 0.0f;
      p.cpu->set_model(m);
      p.gpu->set_model(m);
    }
  }
  expect_identical(p);
  const StageTimings t = p.gpu->timings();
  EXPECT_GT(t.agents_ms, 0.0) << "one call in K is still timed stage by stage";
  EXPECT_GT(t.field_ms, 0.0);
  EXPECT_GT(t.sort_ms, 0.0) << "sorts between short graphs are timed";
  EXPECT_GT(t.step_ms, 0.0);
}

TEST(Cuda, MillionAgentsRuleSimpleLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{1024, 1024};
  c.agents = 1'000'000;
  c.seed = 3;
  c.model.turn_rule = TurnRule::Simple;
  Pair p = make_pair(c);
  step_both(p, 1000);
  expect_identical(p);
}

TEST(Cuda, JonesWithJitterAndSeededFieldLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{640, 480};
  c.agents = 150'000;
  c.seed = 5;
  c.model.turn_rule = TurnRule::Jones;
  c.model.jitter = 0.3f;
  Pair p = make_pair(c);
  const std::vector<float> seed = smooth_pattern(c.size, 3.0f);
  p.cpu->set_field(seed);
  p.gpu->set_field(seed);
  expect_identical(p);
  step_both(p, 1000);
  expect_identical(p);
}

TEST(Cuda, LiveParameterChangesLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{300, 200};
  c.agents = 40'000;
  c.seed = 9;
  Pair p = make_pair(c);
  step_both(p, 250);
  ModelParams m = c.model;
  m.sensor_angle_deg = 30.0f;
  m.rotation_angle_deg = 20.0f;
  m.decay = 0.05f;
  m.diffuse = 0.4f;
  m.deposit = 2.5f;
  m.turn_rule = TurnRule::Jones;
  m.jitter = 0.1f;
  p.cpu->set_model(m);
  p.gpu->set_model(m);
  EXPECT_EQ(p.gpu->model(), m);
  step_both(p, 333);
  ModelParams bad = m;
  bad.decay = -1.0f;
  EXPECT_THROW(p.gpu->set_model(bad), Error);
  EXPECT_EQ(p.gpu->model(), m);  // a rejected change changes nothing
  m.sensor_distance = 12.0f;
  m.step_size = 1.7f;
  m.turn_rule = TurnRule::Simple;
  p.cpu->set_model(m);
  p.gpu->set_model(m);
  step_both(p, 417);
  expect_identical(p);
  // Rule simple with no jitter needs no ids: the kernel that skips loading them, and back.
  m.jitter = 0.0f;
  p.cpu->set_model(m);
  p.gpu->set_model(m);
  step_both(p, 211);
  expect_identical(p);
  m.turn_rule = TurnRule::Jones;
  p.cpu->set_model(m);
  p.gpu->set_model(m);
  step_both(p, 101);
  expect_identical(p);
}

TEST(Cuda, BrushStrokesLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{257, 131};
  c.agents = 5000;
  c.seed = 21;
  Pair p = make_pair(c);
  step_both(p, 100);
  const BrushStroke strokes[] = {
      {0.2f, 0.7f, 6.5f, 4.0f},       // across the top-left corner
      {256.9f, 130.1f, 3.0f, 2.0f},   // bottom-right corner
      {128.0f, 65.0f, 20.0f, -1.5f},  // erase
      {-3.5f, 140.2f, 2.0f, 7.0f},    // outside the field: wraps in
      {100.0f, 60.0f, 80.0f, 0.25f},  // taller than the field: wraps onto itself
      {10.0f, 10.0f, 0.0f, 1.0f},     // one cell
  };
  for (const BrushStroke& b : strokes) {
    p.cpu->brush(b);
    p.gpu->brush(b);
    expect_identical(p);
    step_both(p, 17);
  }
  EXPECT_THROW(p.gpu->brush(BrushStroke{NAN, 0.0f, 3.0f, 1.0f}), Error);
  step_both(p, 500);
  expect_identical(p);
}

TEST(Cuda, SetAgentsAndFieldMidRunLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{200, 150};
  c.agents = 20'000;
  c.seed = 4;
  Pair p = make_pair(c);
  step_both(p, 123);
  const AgentState fresh = spawn_agents(SpawnMode::Ring, c.size, c.agents, 77);
  p.cpu->set_agents(fresh);
  p.gpu->set_agents(fresh);
  const std::vector<float> f = smooth_pattern(c.size, 1.5f);
  p.cpu->set_field(f);
  p.gpu->set_field(f);
  step_both(p, 301);
  expect_identical(p);
  AgentState bad = fresh;
  bad.id[0] = bad.id[1];
  EXPECT_THROW(p.gpu->set_agents(bad), Error);
  EXPECT_THROW(p.gpu->set_field(std::vector<float>(5, 0.0f)), Error);
  expect_identical(p);
}

TEST(Cuda, PublishWritesTheFieldIntoASurface) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{333, 171};
  c.agents = 10'000;
  Pair p = make_pair(c);
  p.gpu->step(57);
  ASSERT_TRUE(p.gpu->can_publish());
  EXPECT_FALSE(p.cpu->can_publish());

  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  ASSERT_EQ(cudaMallocArray(&array, &desc, c.size.width, c.size.height, cudaArraySurfaceLoadStore),
            cudaSuccess);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  ASSERT_EQ(cudaCreateSurfaceObject(&surface, &res), cudaSuccess);

  p.gpu->publish(static_cast<uint64_t>(surface));
  std::vector<float> expected;
  p.gpu->read_field(expected);  // synchronises the backend's stream, so the publish is done
  std::vector<float> got(expected.size(), -1.0f);
  const size_t row = static_cast<size_t>(c.size.width) * sizeof(float);
  EXPECT_EQ(cudaMemcpy2DFromArray(got.data(), row, array, 0, 0, row, c.size.height, cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_TRUE(same_bits(expected, got, "published field"));
  double sum = 0;
  for (float v : expected) sum += v;
  EXPECT_GT(sum, 0.0);  // a field that is really there, not zeros on both sides

  EXPECT_EQ(cudaDestroySurfaceObject(surface), cudaSuccess);
  EXPECT_EQ(cudaFreeArray(array), cudaSuccess);
  const StageTimings t = p.gpu->timings();
  EXPECT_GT(t.samples, 0);
  EXPECT_GT(t.agents_ms, 0.0);
  EXPECT_GT(t.field_ms, 0.0);
  EXPECT_GT(t.step_ms, 0.0);
}

TEST(Cuda, OutOfMemoryThrowsAndThePreviousBackendKeepsRunning) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig small;
  small.size = Size{128, 96};
  small.agents = 4000;
  small.seed = 2;
  Pair p = make_pair(small);
  step_both(p, 10);

  // Leave the device with little free memory, then ask for a large simulation.
  size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  void* hog = nullptr;
  const size_t leave = size_t{200} << 20;
  ASSERT_GT(free_b, leave);
  ASSERT_EQ(cudaMalloc(&hog, free_b - leave), cudaSuccess);
  SimConfig big;
  big.size = Size{3840, 2160};
  big.agents = 10'000'000;
  AgentState many = spawn_agents(SpawnMode::Random, big.size, big.agents, 1);
  try {
    auto b = make_cuda_backend(big, std::move(many));
    ADD_FAILURE() << "a simulation needing more than the free memory was created";
  } catch (const Error& e) {
    // It says what the run needs and what the device has free.
    const std::string msg = e.what();
    EXPECT_NE(msg.find("out of GPU memory: 3840x2160 with 10M agents needs "), std::string::npos) << msg;
    EXPECT_NE(msg.find(" free of "), std::string::npos) << msg;
  }
  // No leak check: the backend refuses before it allocates anything (the free-memory check comes
  // first), so a comparison of free memory here could not fail.
  EXPECT_EQ(cudaFree(hog), cudaSuccess);

  step_both(p, 200);
  expect_identical(p);
}

// The same pinned hashes the CPU backend is held to (tests/pinned_results.hpp): with CUDA equal to
// the CPU in every other test, this catches a change that moves both together.
class CudaPinned : public ::testing::TestWithParam<test::PinnedCase> {};

TEST_P(CudaPinned, MatchesThePinnedHashes) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const test::PinnedCase& pc = GetParam();
  const auto b = test::run_pinned(
      pc, [](const SimConfig& c, AgentState a) { return make_cuda_backend(c, std::move(a)); });
  EXPECT_EQ(test::field_hash(*b), pc.field_hash) << pc.name << ": the model's output changed (docs/MODEL.md)";
  EXPECT_EQ(test::agents_hash(*b), pc.agents_hash)
      << pc.name << ": the model's output changed (docs/MODEL.md)";
}

INSTANTIATE_TEST_SUITE_P(Model, CudaPinned, ::testing::ValuesIn(test::kPinned),
                         [](const ::testing::TestParamInfo<test::PinnedCase>& i) {
                           return std::string(i.param.name);
                         });

// The device keeps subnormals (built with -ftz=false): a field decaying into the subnormal range
// is bit-identical to the CPU's.
TEST(Cuda, SubnormalFieldLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{64, 48};
  c.agents = 40;
  c.seed = 2;
  c.model.decay = 0.9f;
  Pair p = make_pair(c);
  step_both(p, 120);
  std::vector<float> f;
  p.cpu->read_field(f);
  size_t subnormal = 0;
  for (float v : f) subnormal += std::fpclassify(v) == FP_SUBNORMAL ? 1 : 0;
  ASSERT_GT(subnormal, 100U) << "the configuration must reach subnormal values to test anything";
  expect_identical(p);
}

// event_done's reading of cudaEventQuery (no device needed): only cudaErrorNotReady means "not
// finished"; every other error is reported, including one left pending by an earlier call, which
// "not ready" handling must not clear silently.
TEST(Cuda, EventQueryOnlyNotReadyMeansNotDone) {
  using cuda::classify_event_query;
  auto o = classify_event_query(cudaSuccess, cudaSuccess);
  EXPECT_TRUE(o.done);
  EXPECT_EQ(o.report, cudaSuccess);
  EXPECT_FALSE(o.clear_last_error);

  o = classify_event_query(cudaErrorNotReady, cudaSuccess);
  EXPECT_FALSE(o.done);
  EXPECT_EQ(o.report, cudaSuccess);
  EXPECT_FALSE(o.clear_last_error);

  o = classify_event_query(cudaErrorNotReady, cudaErrorNotReady);  // the runtime kept our "not ready"
  EXPECT_FALSE(o.done);
  EXPECT_EQ(o.report, cudaSuccess);
  EXPECT_TRUE(o.clear_last_error);

  o = classify_event_query(cudaErrorNotReady, cudaErrorInvalidConfiguration);  // an unchecked launch
  EXPECT_FALSE(o.done);
  EXPECT_EQ(o.report, cudaErrorInvalidConfiguration);

  o = classify_event_query(cudaErrorIllegalAddress, cudaErrorIllegalAddress);  // a device fault
  EXPECT_FALSE(o.done);
  EXPECT_EQ(o.report, cudaErrorIllegalAddress);
}

// --- Several species (docs/MODEL.md, "Several species"): the CUDA backend's interleaved channels (float2,
// float4, S = 3 padded) against the CPU backend, bit for bit.

namespace {

// S species on an odd size: one on the Jones rule, one with jitter, a negative entry in W, a
// different seed pattern per channel (as a colour image gives), then live changes of W and of a
// species' parameters mid-run, across graph chunks and single steps.
void species_like_cpu(int species) {
  SimConfig c;
  c.size = Size{131, 97};
  c.agents = 20'011;
  c.seed = 21;
  const SpawnMode modes[4] = {SpawnMode::Random, SpawnMode::Disc, SpawnMode::Ring, SpawnMode::Random};
  for (int s = 0; s < species; ++s) {
    Species sp;
    sp.share = 1.0f + 0.5f * static_cast<float>(s);
    sp.spawn = modes[s];
    sp.model.sensor_distance = 4.0f + 2.0f * static_cast<float>(s);
    sp.model.decay = 0.01f * static_cast<float>(s + 1);
    sp.model.diffuse = 0.15f + 0.1f * static_cast<float>(s);
    c.species.list.push_back(sp);
  }
  c.species.list[0].model.turn_rule = TurnRule::Jones;
  c.species.list[1].model.jitter = 0.3f;
  for (int s = 0; s < species; ++s)
    for (int t = 0; t < species; ++t)
      c.species.interaction.push_back(s == t ? 1.0f : (t == (s + 1) % species ? -1.5f : 0.25f));
  Pair p = make_species_pair(c);
  ASSERT_EQ(p.gpu->species_count(), species);
  std::vector<float> planes;
  for (int s = 0; s < species; ++s) {
    const std::vector<float> f = smooth_pattern(c.size, 1.0f + static_cast<float>(s));
    planes.insert(planes.end(), f.begin(), f.end());
  }
  p.cpu->set_field(planes);
  p.gpu->set_field(planes);
  expect_identical(p);
  step_both(p, 1);
  step_both(p, 400);
  expect_identical(p);

  SpeciesSet live = p.cpu->species();
  live.interaction[1] = -2.0f;
  live.interaction[static_cast<size_t>(species)] = 3.0f;
  live.list[species - 1].model.rotation_angle_deg = 30.0f;
  live.list[species - 1].model.turn_rule = TurnRule::Jones;
  live.list[0].model.decay = 0.2f;
  p.cpu->set_species(live);
  p.gpu->set_species(live);
  step_both(p, 599);
  expect_identical(p);
}

}  // namespace

TEST(CudaSpecies, TwoSpeciesLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  species_like_cpu(2);
}

TEST(CudaSpecies, ThreeSpeciesPaddedLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  species_like_cpu(3);
}

TEST(CudaSpecies, FourSpeciesLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  species_like_cpu(4);
}

// One species with W = [[0.5]] takes the weighted kernel; switching to [[1]] and back live swaps
// kernels (and the captured graphs) without a difference from the CPU.
TEST(CudaSpecies, OneSpeciesWeightedAndBackLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{97, 61};
  c.agents = 6000;
  c.seed = 4;
  c.species.list = {Species{}};
  c.species.interaction = {0.5f};
  Pair p = make_species_pair(c);
  step_both(p, 100);
  expect_identical(p);
  SpeciesSet live = p.cpu->species();
  live.interaction = {1.0f};
  p.cpu->set_species(live);
  p.gpu->set_species(live);
  step_both(p, 100);
  live.interaction = {-0.75f};
  p.cpu->set_species(live);
  p.gpu->set_species(live);
  step_both(p, 100);
  expect_identical(p);
}

TEST(CudaSpecies, ChannelBrushAndFieldLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = Size{73, 41};
  c.agents = 3000;
  c.seed = 8;
  c.species.list = {Species{}, Species{}, Species{}};
  c.species.interaction = {1, -1, 0, 0, 1, -1, -1, 0, 1};
  Pair p = make_species_pair(c);
  const std::vector<float> grey = smooth_pattern(c.size, 2.0f);
  p.cpu->set_field(grey);  // one plane: every channel
  p.gpu->set_field(grey);
  expect_identical(p);
  const std::vector<float> one = smooth_pattern(c.size, 5.0f);
  p.cpu->set_field(one, 1);
  p.gpu->set_field(one, 1);
  for (const BrushStroke& b :
       {BrushStroke{10, 10, 6, 4, 2}, BrushStroke{70, 40, 9, -1, 0}, BrushStroke{30, 20, 5, 2, -1}}) {
    p.cpu->brush(b);
    p.gpu->brush(b);
  }
  expect_identical(p);
  step_both(p, 50);
  expect_identical(p);
}

// The field pass walks strips of rows with each thread owning 16 bytes of a row and its
// neighbours' values coming from the next lanes (kernels.cu, field_kernel_strip); where a row does
// not fill whole 16-byte groups the row's last thread holds fewer cells and loads them one by one.
// Every edge of that design: fields narrower than a warp, a width one more or less than a warp's
// span, widths of every remainder, a single column or row, a last strip that is cut short; for one
// to four species, against the CPU backend bit for bit.
TEST(CudaSpecies, FieldPassAtEveryEdgeWidthLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const int widths[] = {1, 2, 3, 4, 5, 8, 31, 32, 33, 64, 127, 128, 129, 132, 260};
  const int heights[] = {1, 3, 17, 65};
  for (int species = 1; species <= 4; ++species) {
    for (const int w : widths) {
      for (const int h : heights) {
        SimConfig c;
        c.size = Size{w, h};
        c.agents = static_cast<uint64_t>(w) * static_cast<uint64_t>(h) / 3 + 7;
        c.seed = static_cast<uint32_t>(w * 131 + h);
        if (species > 1) {
          for (int s = 0; s < species; ++s) {
            Species sp;
            sp.model.decay = 0.02f * static_cast<float>(s + 1);
            sp.model.diffuse = 0.1f + 0.2f * static_cast<float>(s);
            sp.model.deposit = 1.0f + static_cast<float>(s);
            c.species.list.push_back(sp);
          }
          for (int s = 0; s < species; ++s)
            for (int t = 0; t < species; ++t) c.species.interaction.push_back(s == t ? 1.0f : -0.5f);
        }
        SCOPED_TRACE(::testing::Message() << species << " species, " << w << "x" << h);
        Pair p = species > 1 ? make_species_pair(c) : make_pair(c);
        std::vector<float> planes;
        for (int s = 0; s < species; ++s) {
          const std::vector<float> f = smooth_pattern(c.size, 1.0f + static_cast<float>(s));
          planes.insert(planes.end(), f.begin(), f.end());
        }
        p.cpu->set_field(planes);
        p.gpu->set_field(planes);
        step_both(p, 3);
        expect_identical(p);
        if (::testing::Test::HasFailure()) return;  // one size's report is enough
      }
    }
  }
}

#endif
