// Presets with [[species]] tables and an [interaction] matrix: reading, round trips, --set, and every
// kind of bad species preset refused with its line and key.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

using namespace physarum;

namespace {

const char* kTwoSpecies = R"(# two colonies that avoid each other
[spawn]
field_strength = 2.0

[[species]]
name = "red"
colour = "#ff2010"
share = 3
sensor_angle_deg = 30.0
decay = 0.02
turn_rule = "jones"

[[species]]
name = "blue"
colour = "#1040FF"
share = 1.0
spawn = "ring"
diffuse = 0.5
jitter = 0.1

[interaction]
matrix = [[1, -0.5], [-1.25, 1.0]]
)";

// The error message for a preset, or "" when it is accepted.
std::string error_of(const std::string& text) {
  try {
    (void)parse_preset(text, "p.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(PresetSpecies, ReadsSpeciesAndMatrix) {
  const Preset p = parse_preset(kTwoSpecies, "two.toml");
  ASSERT_EQ(p.species.list.size(), 2u);
  const Species& red = p.species.list[0];
  const Species& blue = p.species.list[1];
  EXPECT_EQ(red.name, "red");
  EXPECT_EQ(red.colour, 0xff2010u);
  EXPECT_EQ(red.share, 3.0f);
  EXPECT_EQ(red.model.sensor_angle_deg, 30.0f);
  EXPECT_EQ(red.model.decay, 0.02f);
  EXPECT_EQ(red.model.turn_rule, TurnRule::Jones);
  EXPECT_EQ(red.spawn, SpawnMode::Random);
  EXPECT_EQ(blue.colour, 0x1040ffu);
  EXPECT_EQ(blue.spawn, SpawnMode::Ring);
  EXPECT_EQ(blue.model.diffuse, 0.5f);
  EXPECT_EQ(blue.model.jitter, 0.1f);
  EXPECT_EQ(blue.model.decay, ModelParams{}.decay);  // unset keys take the defaults
  EXPECT_EQ(p.species.interaction, (std::vector<float>{1.0f, -0.5f, -1.25f, 1.0f}));
  EXPECT_EQ(p.spawn.field_strength, 2.0f);
}

TEST(PresetSpecies, MatrixDefaultsToIdentity) {
  const Preset p = parse_preset("[[species]]\nshare = 1\n[[species]]\nshare = 2\n[[species]]\n", "p.toml");
  EXPECT_EQ(p.species.interaction, (std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
}

TEST(PresetSpecies, OldPresetsMeanOneSpecies) {
  const Preset p = parse_preset("[model]\ndecay = 0.1\n[spawn]\nmode = \"disc\"\n", "p.toml");
  EXPECT_TRUE(p.species.list.empty());
  EXPECT_EQ(preset_to_toml(p).find("species"), std::string::npos);  // written as before
}

TEST(PresetSpecies, RoundTripsThroughTextAndFile) {
  Preset p = parse_preset(kTwoSpecies, "two.toml");
  p.species.list[1].model.deposit = 0.1f;  // not exact in decimal: must still come back bit for bit
  p.species.interaction[1] = -1.0f / 3.0f;
  p.species.list[0].name = "quote \" and \\ back";
  EXPECT_EQ(parse_preset(preset_to_toml(p), "again.toml"), p);
  const auto file = std::filesystem::temp_directory_path() / "physarum_species_roundtrip.toml";
  save_preset(p, file);
  EXPECT_EQ(load_preset(file), p);
  std::filesystem::remove(file);
}

TEST(PresetSpecies, EveryKindOfBadSpeciesPresetNamesLineAndKey) {
  struct Case {
    std::string text;
    std::string expect;  // a substring of the message
  };
  const std::string two = "[[species]]\n[[species]]\n";
  const Case cases[] = {
      {"[[species]]\nspeed = 2\n", "p.toml:2: species.0.speed: unknown key"},
      {"[[species]]\ndecay = \"high\"\n", "p.toml:2: species.0.decay: expected a number"},
      {"[[species]]\nname = 3\n", "p.toml:2: species.0.name: expected a string"},
      {two + "decay = 2\n", "p.toml:3: species.1.decay: species.1.decay = 2 is out of range"},
      {"[[species]]\nshare = -1\n", "p.toml:2: species.0.share: species.0.share = -1 is out of range"},
      {"[[species]]\ncolour = \"red\"\n", "p.toml:2: species.0.colour: colour 'red' is not of the form"},
      {"[[species]]\ncolour = \"#12345g\"\n", "species.0.colour"},
      {"[[species]]\nturn_rule = \"left\"\n",
       "p.toml:2: species.0.turn_rule: species.0.turn_rule 'left' is not one of: simple, jones (a volume "
       "also: mcpm)"},
      {"[[species]]\nspawn = \"cloud\"\n", "p.toml:2: species.0.spawn:"},
      {two + "[interaction]\nmatrix = [[1, 0]]\n",
       "p.toml:4: interaction.matrix: must be 2 x 2 (one row per species); it has 1 rows"},
      {two + "[interaction]\nmatrix = [[1, 0], [0]]\n",
       "p.toml:4: interaction.matrix: must be 2 x 2; row 1 has 1 numbers"},
      {two + "[interaction]\nmatrix = [[1, 0], [0, 11]]\n",
       "interaction.matrix: entry [1][1] = 11 is out of range: allowed -10 to 10"},
      {two + "[interaction]\nmatrix = [[1, 0], [0, \"x\"]]\n",
       "interaction.matrix: entry [1][1] is not a number"},
      {two + "[interaction]\nmatrix = 1\n", "interaction.matrix: expected an array of rows"},
      {two + "[interaction]\nscale = 1\n", "p.toml:4: interaction.scale: unknown key"},
      {"[[species]]\nshare = 0\n[[species]]\nshare = 0.0\n", "the shares sum to 0"},
      {"[interaction]\nmatrix = [[1]]\n", "p.toml:1: interaction: needs [[species]] tables"},
      {"[model]\ndecay = 0.1\n[[species]]\n",
       "p.toml:1: model: a preset with [[species]] tables has no [model] table"},
      {"[spawn]\nmode = \"disc\"\n[[species]]\n", "p.toml:2: spawn.mode: a preset with [[species]]"},
      {"species = 3\n", "p.toml:1: species: must be written as [[species]] tables"},
      {two + two + "[[species]]\n",
       "p.toml:5: species: allowed 1 to 4 [[species]] tables; this preset has 5"},
  };
  for (const Case& c : cases) {
    const std::string msg = error_of(c.text);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "preset:\n" << c.text << "\nmessage: " << msg;
  }
}

TEST(PresetSpecies, OverridesSetSpeciesKeysAndTheMatrix) {
  Preset p = parse_preset(kTwoSpecies, "two.toml");
  apply_override(p, "species.1.decay=0.25");
  apply_override(p, "species.0.turn_rule=simple");
  apply_override(p, "species.0.colour=#00ff00");
  apply_override(p, "interaction.matrix=[[2, 0], [0, -3]]");
  EXPECT_EQ(p.species.list[1].model.decay, 0.25f);
  EXPECT_EQ(p.species.list[0].model.turn_rule, TurnRule::Simple);
  EXPECT_EQ(p.species.list[0].colour, 0x00ff00u);
  EXPECT_EQ(p.species.interaction, (std::vector<float>{2, 0, 0, -3}));

  const Preset before = p;
  for (const char* bad :
       {"species.2.decay=0.1", "species.x.decay=0.1", "species.0.speed=1", "species.0.decay=2",
        "species.0.decay=abc", "interaction.matrix=[[1]]", "interaction.matrix=[[1, 0], [0, 20]]",
        "interaction.matrix=nonsense", "model.decay=0.1", "spawn.mode=disc"}) {
    EXPECT_THROW(apply_override(p, bad), Error) << bad;
  }
  apply_override(p, "species.1.share=0");                       // the other species still has a share
  EXPECT_THROW(apply_override(p, "species.0.share=0"), Error);  // now none would
  EXPECT_EQ(p.species.list[0].share, 3.0f);
  p = before;
  try {
    apply_override(p, "species.0.decay=2");
    ADD_FAILURE() << "species.0.decay=2 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("species.0.decay=2: species.0.decay = 2 is out of range"), 0u)
        << e.what();
  }
  EXPECT_EQ(p, before);
  Preset single;
  EXPECT_THROW(apply_override(single, "species.0.decay=0.1"), Error);
  EXPECT_THROW(apply_override(single, "interaction.matrix=[[1]]"), Error);
}

// `physarum run --out` writes (S, H, W) for several species and (H, W) for one; the planes are the
// library's read_field for the same preset, bit for bit.
TEST(PresetSpeciesE2e, RunWritesOnePlanePerSpecies) {
  const auto dir = test::temp_dir();
  std::string text = kTwoSpecies;
  text += "[run]\nsize = \"31x17\"\nagents = 700\nseed = 9\n";
  test::write_file(dir / "two.toml", text);
  auto r = test::run_physarum(
      {"run", "--steps", "12", "--preset", "two.toml", "--backend", "cpu", "--out", "f.npy"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string bytes = test::read_file(dir / "f.npy");
  ASSERT_GT(bytes.size(), 10u);
  const size_t header_len =
      static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  const std::string header = bytes.substr(10, header_len);
  EXPECT_NE(header.find("'shape': (2, 17, 31)"), std::string::npos) << header;

  auto b = create_backend(BackendKind::Cpu, config_from(parse_preset(text, "two.toml")));
  b->step(12);
  std::vector<float> planes;
  b->read_field(planes);
  ASSERT_EQ(bytes.size() - 10 - header_len, planes.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(bytes.data() + 10 + header_len, planes.data(), planes.size() * sizeof(float)), 0);

  r = test::run_physarum({"run", "--steps", "2", "--size", "31x17", "--agents", "100", "--out", "one.npy"},
                         dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(test::read_file(dir / "one.npy").find("'shape': (17, 31)"), std::string::npos);
}
