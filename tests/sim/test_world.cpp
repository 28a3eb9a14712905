// One World for planes and volumes (sim/world.hpp): a plane and a volume answer the same questions
// through it, each is found by asking for it, one function per kind makes its configuration from a
// preset with the values both take filled alike, and run::Run holds either as its world.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/keyframes.hpp"
#include "sim/volume.hpp"
#include "sim/world.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

Preset plane_preset() {
  run::Recipe r;
  r.size = "32x24";
  r.agents = "3000";
  r.seed = 5;
  return run::resolve(r);
}

Preset volume_preset() {
  run::Recipe r;
  r.size = "9x7x5";
  r.agents = "2000";
  r.seed = 3;
  return run::resolve(r);
}

// Two species made of `m`, the second depositing twice as much, repelling each other a little.
SpeciesSet two_species(const ModelParams& m) {
  Species a;
  a.name = "a";
  a.colour = 0xff0000;
  a.model = m;
  Species b = a;
  b.name = "b";
  b.colour = 0x00ff00;
  b.model.deposit = 2 * m.deposit;
  SpeciesSet s;
  s.list = {a, b};
  s.interaction = {1.0f, -0.25f, -0.25f, 1.0f};
  return s;
}

std::unique_ptr<World> make_plane(const Preset& p) {
  return create_backend(BackendKind::Cpu, config_from(p, 1));
}
std::unique_ptr<World> make_volume(const Preset& p) {
  return create_volume(BackendKind::Cpu, volume_config(p, 1));
}

std::vector<float> field_of(World& w) {
  std::vector<float> f;
  w.read_field(f);
  return f;
}

size_t product(const std::vector<int>& shape) {
  return std::accumulate(shape.begin(), shape.end(), size_t{1}, std::multiplies<>());
}

TEST(World, APlaneAndAVolumeAnswerAsAWorldAndAreFoundByAsking) {
  const std::unique_ptr<World> plane = make_plane(plane_preset());
  const std::unique_ptr<World> volume = make_volume(volume_preset());
  EXPECT_EQ(plane->size(), (Size{32, 24, 1}));
  EXPECT_EQ(volume->size(), (Size{9, 7, 5}));
  EXPECT_EQ(plane->agent_count(), 3000u);
  EXPECT_EQ(volume->agent_count(), 2000u);
  EXPECT_EQ(plane->species_count(), 1);
  EXPECT_EQ(volume->species_count(), 1);
  EXPECT_EQ(plane->kind(), BackendKind::Cpu);
  EXPECT_EQ(volume->kind(), BackendKind::Cpu);
  EXPECT_EQ(plane->field_shape(), (std::vector<int>{24, 32}));
  EXPECT_EQ(volume->field_shape(), (std::vector<int>{5, 7, 9}));
  EXPECT_EQ(field_of(*plane).size(), size_t{24 * 32});
  EXPECT_EQ(field_of(*volume).size(), size_t{5 * 7 * 9});

  EXPECT_EQ(plane->plane(), dynamic_cast<Backend*>(plane.get()));
  EXPECT_NE(plane->plane(), nullptr);
  EXPECT_EQ(plane->volume(), nullptr);
  EXPECT_EQ(volume->volume(), dynamic_cast<Volume*>(volume.get()));
  EXPECT_NE(volume->volume(), nullptr);
  EXPECT_EQ(volume->plane(), nullptr);
  const World& const_plane = *plane;
  EXPECT_EQ(const_plane.plane(), plane->plane());
  EXPECT_EQ(const_plane.volume(), nullptr);

  plane->step(3);
  volume->step(2);
  EXPECT_EQ(plane->steps_done(), 3u);
  EXPECT_EQ(volume->steps_done(), 2u);
}

TEST(World, SeveralSpeciesComeFirstInTheFieldShapeAndResolveAlike) {
  Preset p = plane_preset();
  p.species = two_species(p.model);
  Preset v = volume_preset();
  v.species = two_species(v.model);
  const std::unique_ptr<World> plane = make_plane(p);
  const std::unique_ptr<World> volume = make_volume(v);
  EXPECT_EQ(plane->field_shape(), (std::vector<int>{2, 24, 32}));
  EXPECT_EQ(volume->field_shape(), (std::vector<int>{2, 5, 7, 9}));
  EXPECT_EQ(field_of(*plane).size(), product(plane->field_shape()));
  EXPECT_EQ(field_of(*volume).size(), product(volume->field_shape()));
  EXPECT_EQ(plane->species(), resolve_species(p.species, p.model, p.spawn.mode));
  EXPECT_EQ(volume->species(), resolve_species(v.species, v.model, SpawnMode::Random));
  EXPECT_EQ(volume->species().list[1].model.deposit, 2 * v.model.deposit);
  // One species without [[species]]: resolved into a list of one made of the model.
  const std::unique_ptr<World> one = make_volume(volume_preset());
  ASSERT_EQ(one->species().list.size(), 1u);
  EXPECT_EQ(one->species().list[0].model, volume_preset().model);
}

// A timed step is one step: the same bytes as step(1), and its stages are that step's.
void expect_timed_step_is_a_step(World& timed, World& plain) {
  plain.step(1);
  const StageTimings t = timed.timed_step();
  EXPECT_EQ(timed.steps_done(), 1u);
  EXPECT_EQ(t.samples, 1);
  EXPECT_GT(t.step_ms, 0.0);
  EXPECT_NEAR(t.step_ms, t.agents_ms + t.field_ms + t.sort_ms, 1e-9 + 1e-9 * t.step_ms);
  EXPECT_EQ(field_of(timed), field_of(plain));
}

TEST(World, ATimedStepIsOneStepOfThePlaneOrTheVolume) {
  const auto plane_a = make_plane(plane_preset());
  const auto plane_b = make_plane(plane_preset());
  expect_timed_step_is_a_step(*plane_a, *plane_b);
  const auto volume_a = make_volume(volume_preset());
  const auto volume_b = make_volume(volume_preset());
  expect_timed_step_is_a_step(*volume_a, *volume_b);
}

TEST(World, SetLiveModelIsWhatEachKindsOwnSetterDoes) {
  Preset p = plane_preset();
  const auto plane = make_plane(p);
  auto by_hand = create_backend(BackendKind::Cpu, config_from(p, 1));
  p.model.deposit *= 3;
  p.model.sensor_angle_deg += 10;
  plane->set_live_model(p);
  set_live_parameters(*by_hand, p);
  EXPECT_EQ(plane->species().list[0].model, p.model);
  plane->step(4);
  by_hand->step(4);
  EXPECT_EQ(field_of(*plane), field_of(*by_hand));

  Preset v = volume_preset();
  const auto volume = make_volume(v);
  auto volume_by_hand = create_volume(BackendKind::Cpu, volume_config(v, 1));
  v.model.deposit *= 3;
  v.environment.food_strength = 2.5f;
  volume->set_live_model(v);
  volume_by_hand->set_live(volume_config(v, 1), 2.5f);
  EXPECT_EQ(volume->species().list[0].model, v.model);
  volume->step(4);
  volume_by_hand->step(4);
  EXPECT_EQ(field_of(*volume), field_of(*volume_by_hand));
}

TEST(World, SetLiveModelRefusesANewNumberOfSpeciesAndChangesNothing) {
  for (const Preset& base : {plane_preset(), volume_preset()}) {
    const auto world = base.run.size.volume() ? make_volume(base) : make_plane(base);
    const SpeciesSet before = world->species();
    Preset two = base;
    two.species = two_species(base.model);
    two.model.deposit *= 5;
    const std::string m = test::error_of([&] { world->set_live_model(two); });
    EXPECT_NE(m.find("species"), std::string::npos) << m;
    EXPECT_EQ(world->species(), before) << format_size(base.run.size);
  }
}

TEST(WorldConfig, APlaneAndAVolumeTakeThePresetsSharedValuesAlike) {
  Preset p = volume_preset();
  p.run.agents = 1234;
  p.run.seed = 77;
  p.model.deposit = 0.75f;
  p.species = two_species(p.model);
  p.environment.boundary = Boundary::Walls;
  const VolumeConfig v = volume_config(p, 3);
  EXPECT_EQ(v.size, (Size{9, 7, 5}));
  EXPECT_EQ(v.agents, 1234u);
  EXPECT_EQ(v.seed, 77u);
  EXPECT_EQ(v.model.deposit, 0.75f);
  EXPECT_EQ(v.species, p.species);
  EXPECT_EQ(v.threads, 3);
  EXPECT_EQ(v.boundary, Boundary::Walls);

  Preset q = plane_preset();
  q.run.agents = 1234;
  q.run.seed = 77;
  q.run.scale = 2;
  q.model.deposit = 0.75f;
  q.species = two_species(q.model);
  q.spawn.mode = SpawnMode::Disc;
  const SimConfig c = config_from(q, 3);
  EXPECT_EQ(c.size, (Size{32, 24, 1}));
  EXPECT_EQ(c.agents, 1234u);
  EXPECT_EQ(c.seed, 77u);
  EXPECT_EQ(c.model.deposit, 0.75f);
  EXPECT_EQ(c.species, q.species);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.scale, 2);
  EXPECT_EQ(c.spawn.mode, SpawnMode::Disc);
  // A plane's config validates its preset: a value out of range is refused, named.
  q.model.decay = 2.0f;
  const std::string m = test::error_of([&] { (void)config_from(q); });
  EXPECT_NE(m.find("decay"), std::string::npos) << m;
}

TEST(RunWorld, TheRunsWorldIsItsPlaneOrItsVolumeAndItsGettersAreTheWorlds) {
  for (const char* size : {"32x24", "9x7x5"}) {
    run::Recipe r;
    r.size = size;
    r.agents = "2000";
    r.backend = "cpu";
    r.threads = 1;
    run::Run run(r);
    run.step(3);
    World& w = run.world();
    EXPECT_EQ(run.is_volume(), w.volume() != nullptr) << size;
    if (Backend* plane = w.plane()) {
      EXPECT_EQ(plane, &run.backend());
    } else {
      EXPECT_EQ(w.volume(), &run.volume());
    }
    EXPECT_EQ(run.size(), w.size());
    EXPECT_EQ(run.size(), parse_size(size));
    EXPECT_EQ(run.steps_done(), 3u);
    EXPECT_EQ(w.steps_done(), 3u);
    EXPECT_EQ(run.agent_count(), 2000u);
    EXPECT_EQ(run.species_count(), w.species_count());
    EXPECT_EQ(run.name(), w.name());
    EXPECT_EQ(run.kind(), BackendKind::Cpu);
  }
}

}  // namespace
}  // namespace physarum
