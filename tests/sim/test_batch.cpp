// Batches of worlds (docs/MODEL.md, "Batches"): the CUDA batch against each world run alone, bit for
// bit (one species with mixed rules, three species, a live change of one world, a step count that
// crosses a sort), which worlds may share a batch, and run::Batch against run::Run on either path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda_pair.hpp"
#include "run/batch.hpp"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/world_batch.hpp"
#include "test_support.hpp"

using namespace physarum;

namespace {

// World b of a batch of one species: its own angles, decay, diffuse, seed; world 2 Jones with
// jitter (the batch then reads ids for all), the others the simple rule. An odd size.
SimConfig single_world(int b) {
  SimConfig c;
  c.size = Size{131, 97};
  c.agents = 3001;
  c.seed = 100U + static_cast<uint32_t>(b);
  c.threads = 1;
  c.model.sensor_angle_deg = 10.0f + 17.0f * static_cast<float>(b);
  c.model.rotation_angle_deg = 80.0f - 11.0f * static_cast<float>(b);
  c.model.decay = 0.02f * static_cast<float>(b + 1);
  c.model.diffuse = 0.1f + 0.15f * static_cast<float>(b);
  c.model.sensor_distance = 3.0f + static_cast<float>(b);
  if (b == 2) {
    c.model.turn_rule = TurnRule::Jones;
    c.model.jitter = 0.3f;
  }
  return c;
}

// World b of a batch of three species (a padded channel): shares and the matrix differ by world.
SimConfig three_species_world(int b) {
  SimConfig c;
  c.size = Size{67, 45};
  c.agents = 2503;
  c.seed = 7U + static_cast<uint32_t>(b);
  c.threads = 1;
  for (int s = 0; s < 3; ++s) {
    Species sp;
    sp.share = 1.0f + static_cast<float>((s + b) % 3);
    sp.model.sensor_angle_deg = 20.0f + 10.0f * static_cast<float>(s + b);
    sp.model.decay = 0.03f + 0.01f * static_cast<float>(s);
    sp.model.turn_rule = s == 1 ? TurnRule::Jones : TurnRule::Simple;
    c.species.list.push_back(sp);
  }
  c.species.interaction = {1.0f, -0.5f * static_cast<float>(b), 0.25f, 0.5f, 1.0f, -1.0f, 0.0f, 0.75f, 1.0f};
  return c;
}

#if defined(PHYSARUM_HAS_CUDA)
// World w of the batch against the same world made alone on `kind`, after the same steps.
void expect_world_as_alone(WorldBatch& batch, int w, Backend& alone) {
  ASSERT_EQ(batch.steps_done(), alone.steps_done());
  std::vector<float> fb, fa;
  batch.read_field(w, fb);
  alone.read_field(fa);
  EXPECT_TRUE(test::same_bits(fa, fb, "field")) << "world " << w << " against " << alone.name();
  const AgentState ab = batch.read_agents(w);
  const AgentState aa = alone.read_agents();
  EXPECT_TRUE(test::same_bits(aa.x, ab.x, "agent x")) << "world " << w;
  EXPECT_TRUE(test::same_bits(aa.theta, ab.theta, "agent theta")) << "world " << w;
}
#endif

}  // namespace

TEST(CudaBatch, EachWorldOfOneSpeciesIsItsRunAloneOnCudaAndCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
#if defined(PHYSARUM_HAS_CUDA)
  std::vector<SimConfig> worlds;
  for (int b = 0; b < 5; ++b) worlds.push_back(single_world(b));
  const std::unique_ptr<WorldBatch> batch = create_cuda_batch(worlds);
  EXPECT_EQ(batch->worlds(), 5);
  batch->step(1);
  batch->step(69);  // across the sort at step 64, in a graph and a short run
  for (int b = 0; b < 5; ++b) {
    for (BackendKind kind : {BackendKind::Cuda, BackendKind::Cpu}) {
      const std::unique_ptr<Backend> alone = create_backend(kind, worlds[static_cast<size_t>(b)]);
      alone->step(70);
      expect_world_as_alone(*batch, b, *alone);
    }
  }
#endif
}

TEST(CudaBatch, EachWorldOfThreeSpeciesIsItsRunAloneAndALiveChangeReachesOnlyItsWorld) {
  SKIP_WITHOUT_CUDA_DEVICE();
#if defined(PHYSARUM_HAS_CUDA)
  std::vector<SimConfig> worlds;
  for (int b = 0; b < 3; ++b) worlds.push_back(three_species_world(b));
  const std::unique_ptr<WorldBatch> batch = create_cuda_batch(worlds);
  batch->step(40);
  SpeciesSet changed = worlds[1].species;
  changed.list[2].model.rotation_angle_deg = 90.0f;
  changed.list[0].model.jitter = 0.5f;
  batch->set_species(1, changed);
  batch->step(90);
  for (int b = 0; b < 3; ++b) {
    const std::unique_ptr<Backend> alone = create_backend(BackendKind::Cpu, worlds[static_cast<size_t>(b)]);
    alone->step(40);
    if (b == 1) alone->set_species(changed);
    alone->step(90);
    expect_world_as_alone(*batch, b, *alone);
  }
  std::vector<float> none;
  EXPECT_THROW(batch->read_field(3, none), Error);
#endif
}

// 16-bit counts (one species, rows of a multiple of 4 cells, fewer than 65536 agents a world), sparse
// and dense, their spent counts zeroed by the field pass (the default) or by the agents: each world
// as the CPU grows it alone.
TEST(CudaBatch, WorldsWithSixteenBitCountsGrowWhatTheCpuGrowsSparseOrDense) {
  SKIP_WITHOUT_CUDA_DEVICE();
#if defined(PHYSARUM_HAS_CUDA)
  for (const char* zero : {"0", "1"})
    for (const uint64_t agents : {uint64_t{2000}, uint64_t{30000}}) {  // 0.16 and 2.4 agents a cell
      const test::ScopedEnv who("PHYSARUM_CUDA_AGENTS_ZERO_COUNTS", zero);
      std::vector<SimConfig> worlds;
      for (int b = 0; b < 4; ++b) {
        SimConfig c = single_world(b);
        c.size = Size{128, 100};
        c.agents = agents;
        worlds.push_back(c);
      }
      const std::unique_ptr<WorldBatch> batch = create_cuda_batch(worlds);
      EXPECT_NE(batch->name().find("16-bit counts"), std::string::npos) << batch->name();
      batch->step(1);
      batch->step(69);  // across the sort at step 64: its scan reads the 16-bit counts
      for (int b = 0; b < 4; ++b) {
        const std::unique_ptr<Backend> alone =
            create_backend(BackendKind::Cpu, worlds[static_cast<size_t>(b)]);
        alone->step(70);
        expect_world_as_alone(*batch, b, *alone);
      }
    }
#endif
}

// One world switches between 16- and 32-bit counts when walls come and go and when W stops or
// starts being [[1]] (those kernels count in 32 bits), and keeps the CPU's bytes throughout.
TEST(CudaBatch, ACountWidthChangeMidRunKeepsTheCpusBytes) {
  SKIP_WITHOUT_CUDA_DEVICE();
#if defined(PHYSARUM_HAS_CUDA)
  SimConfig c = single_world(1);
  c.size = Size{96, 64};
  c.agents = 5000;
  std::unique_ptr<Backend> cpu = create_backend(BackendKind::Cpu, c);
  std::unique_ptr<Backend> gpu = create_backend(BackendKind::Cuda, c);
  Environment walled;
  walled.walls.assign(static_cast<size_t>(96 * 64), 0);
  for (int y = 10; y < 50; ++y) walled.walls[static_cast<size_t>(y * 96 + 40)] = 1;
  const SpeciesSet plain = resolve_species(c.species, c.model, c.spawn.mode);
  SpeciesSet repelled = plain;
  repelled.interaction = {-0.5f};
  const auto both = [&](const auto& change) {
    for (Backend* b : {cpu.get(), gpu.get()}) {
      change(*b);
      b->step(37);
    }
    std::vector<float> fc, fg;
    cpu->read_field(fc);
    gpu->read_field(fg);
    EXPECT_TRUE(test::same_bits(fc, fg, "field")) << "after step " << gpu->steps_done();
    EXPECT_TRUE(test::same_bits(cpu->read_agents().x, gpu->read_agents().x, "agent x"));
  };
  both([](Backend&) {});                                       // 16-bit
  both([&](Backend& b) { b.set_environment(walled); });        // walls: 32-bit
  both([](Backend& b) { b.set_environment(Environment{}); });  // 16-bit again
  both([&](Backend& b) { b.set_species(repelled); });          // W = [[-0.5]]: 32-bit
  both([&](Backend& b) { b.set_species(plain); });             // 16-bit again
#endif
}

TEST(Batch, WorldsOfAnotherSizeCountOrDetailOrWithWallsAreRefusedByName) {
  std::vector<SimConfig> w(3, single_world(0));
  EXPECT_EQ(batch_refusal(w), "");
  EXPECT_NE(batch_refusal({}), "");
  w[2].size = Size{130, 97};
  EXPECT_NE(batch_refusal(w).find("world 2 is 130x97 and world 0 131x97"), std::string::npos)
      << batch_refusal(w);
  w[2] = single_world(0);
  w[1].agents = 3000;
  EXPECT_NE(batch_refusal(w).find("world 1 has 3000 agents and world 0 3001"), std::string::npos)
      << batch_refusal(w);
  w[1] = single_world(0);
  w[1].scale = 2;
  w[1].size = Size{262, 194};
  EXPECT_NE(batch_refusal(w).find("world 1 is 262x194"), std::string::npos) << batch_refusal(w);
  w[1].size = w[0].size;
  EXPECT_NE(batch_refusal(w).find("detail 2"), std::string::npos) << batch_refusal(w);
  w[1] = single_world(0);
  w[0].environment.boundary = Boundary::Walls;
  EXPECT_NE(batch_refusal(w).find("world 0 has food or walls"), std::string::npos) << batch_refusal(w);
  w[0] = three_species_world(0);
  w[0].size = w[1].size;
  w[0].agents = w[1].agents;
  EXPECT_NE(batch_refusal(w).find("world 1 has 1 species and world 0 3"), std::string::npos)
      << batch_refusal(w);
  // Too many cells in all for 31-bit cell numbers.
  std::vector<SimConfig> big(600, single_world(0));
  for (SimConfig& c : big) c.size = Size{2000, 2000};
  EXPECT_NE(batch_refusal(big).find("more than one batch holds"), std::string::npos) << batch_refusal(big);
}

namespace {
std::vector<run::Recipe> jones_recipes(const std::string& backend) {
  std::vector<run::Recipe> out;
  for (int i = 0; i < 4; ++i) {
    run::Recipe r;
    r.preset = "jones-2010-map";
    r.size = "96x64";
    r.agents = "1500";
    r.backend = backend;
    r.sets = {"model.sensor_angle_deg=" + std::to_string(10 + 25 * i),
              "model.rotation_angle_deg=" + std::to_string(60 - 12 * i)};
    out.push_back(r);
  }
  return out;
}

// Every world of the batch as run::Run grows it alone.
void expect_batch_as_runs(const std::vector<run::Recipe>& recipes, uint64_t steps, int threads = 0) {
  run::Batch batch(recipes, threads);
  batch.step(steps / 2);
  batch.step(steps - steps / 2);
  ASSERT_EQ(batch.worlds(), recipes.size());
  for (size_t i = 0; i < recipes.size(); ++i) {
    run::Run alone(recipes[i]);
    alone.step(steps);
    std::vector<float> a, b;
    alone.backend().read_field(a);
    batch.read_field(i, b);
    EXPECT_EQ(a, b) << "world " << i << " (" << batch.note() << ")";
    EXPECT_EQ(batch.preset(i), alone.preset());
    EXPECT_EQ(batch.species(i), alone.backend().species());
    std::vector<uint8_t> wa, wb;
    alone.backend().read_walls(wa);
    batch.read_walls(i, wb);
    EXPECT_EQ(wa, wb);
  }
}
}  // namespace

TEST(Batch, CpuWorldsSideBySideGrowWhatEachRunGrowsAlone) {
  const std::vector<run::Recipe> recipes = jones_recipes("cpu");
  EXPECT_EQ(run::batch_refusal(recipes), "world 0 asks for the CPU");
  expect_batch_as_runs(recipes, 30);
  run::Batch b(recipes);
  EXPECT_FALSE(b.batched());
  if (default_threads() > 1) {
    EXPECT_NE(b.note().find("4 worlds side by side"), std::string::npos) << b.note();
  }
}

// The window grows its atlas and previews beside its own run: at most the threads it gives them.
TEST(Batch, AThreadLimitCapsTheWorldsSideBySideAndKeepsTheirBytes) {
  const std::vector<run::Recipe> recipes = jones_recipes("cpu");
  run::Batch one(recipes, 1);
  EXPECT_NE(one.note().find("one after another on cpu (1 thread)"), std::string::npos) << one.note();
  expect_batch_as_runs(recipes, 20, 1);
  if (default_threads() > 1) {
    run::Batch two(recipes, 2);
    EXPECT_EQ(two.note(), "cpu, 4 worlds side by side on 2 threads");
    EXPECT_EQ(run::side_by_side_lanes(recipes, 2), 2);
    expect_batch_as_runs(recipes, 20, 2);
  }
  EXPECT_EQ(run::side_by_side_lanes(recipes, 1), 0);
}

TEST(Batch, WorldsWithWallsRunOneByOneAndSaySo) {
  std::vector<run::Recipe> recipes = jones_recipes("cpu");
  for (run::Recipe& r : recipes) {
    r.sets.push_back("environment.boundary=walls");
    r.threads = 1;
  }
  run::Batch b(recipes);
  EXPECT_FALSE(b.batched());
  EXPECT_NE(b.note().find("one after another on cpu"), std::string::npos) << b.note();
  expect_batch_as_runs(recipes, 12);
}

TEST(CudaBatch, RunBatchOfAtlasWorldsIsOneLaunchAndGrowsEachRunsBytes) {
  SKIP_WITHOUT_CUDA_DEVICE();
  const std::vector<run::Recipe> recipes = jones_recipes("auto");
  EXPECT_EQ(run::batch_refusal(recipes), "");
  run::Batch b(recipes);
  EXPECT_TRUE(b.batched());
  EXPECT_NE(b.note().find("4 worlds a launch"), std::string::npos) << b.note();
  expect_batch_as_runs(recipes, 100);
}
