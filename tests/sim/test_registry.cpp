// The parameter registry (sim/registry.hpp): its table is sane, the documents made from it match
// the committed ones, and values cross --set, presets and keyframes typed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"

using namespace physarum;
namespace reg = physarum::registry;

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text between the line holding `open` and the next line holding `close`.
std::string between(const std::string& text, const std::string& open, const std::string& close,
                    size_t from = 0) {
  const size_t a = text.find(open, from);
  if (a == std::string::npos) return "(no " + open + ")";
  const size_t start = text.find('\n', a) + 1;
  const size_t end = text.find(close, start);
  return text.substr(start, text.rfind('\n', end) + 1 - start);
}

}  // namespace

TEST(Registry, EveryEntryIsSane) {
  ASSERT_GE(reg::params().size(), 40u);
  for (const reg::Param& p : reg::params()) {
    SCOPED_TRACE(std::string(reg::section_name(p.section)) + "." + std::string(p.name));
    EXPECT_FALSE(p.doc.empty());
    EXPECT_LE(p.lo, p.hi);
    if (p.ui_hi > p.ui_lo) {
      EXPECT_GE(p.ui_lo, p.lo);
      EXPECT_LE(p.ui_hi, p.hi);
    }
    if (p.explore_hi > p.explore_lo && p.type == reg::Type::Float) {
      EXPECT_GE(p.explore_lo, p.lo);
      EXPECT_LE(p.explore_hi, p.hi);
    }
    const Value d = reg::default_value(p);
    if (p.type != reg::Type::Matrix) {
      EXPECT_NO_THROW(reg::check(p, d, "default"));
    }
    // Each value reads back from its own text exactly.
    if (p.type != reg::Type::Matrix && !std::holds_alternative<std::monostate>(d)) {
      EXPECT_EQ(reg::parse(p, reg::to_text(p, d)), d);
      EXPECT_EQ(reg::parse(p, reg::to_toml(p, d)), d) << reg::to_toml(p, d);
    }
    // A key is found by its name in exactly one table.
    EXPECT_EQ(reg::find(p.section, p.name), &p);
  }
}

TEST(Registry, TheSchemaTablesAreTheRegistrys) {
  const std::string readme =
      read_text(std::filesystem::path(PHYSARUM_SOURCE_DIR) / "assets/presets/README.md");
  for (const reg::Section s :
       {reg::Section::Model, reg::Section::Spawn, reg::Section::Run, reg::Section::Display,
        reg::Section::Environment, reg::Section::Species, reg::Section::Interaction}) {
    const std::string name(reg::section_name(s));
    EXPECT_EQ(between(readme, "<!-- registry:" + name + " ", "<!-- /registry -->"), reg::markdown_table(s))
        << "assets/presets/README.md's [" << name << "] table differs from the registry: paste the output of "
        << "`physarum params --markdown` between its markers";
  }
}

TEST(Registry, ThePythonStubsKeywordsAreTheRegistrys) {
  const std::string pyi = read_text(std::filesystem::path(PHYSARUM_SOURCE_DIR) / "python/physarum.pyi");
  const std::string expected = reg::python_keywords();
  size_t at = 0;
  for (int i = 0; i < 2; ++i) {  // Sim() and Sim.set()
    at = pyi.find("# registry:python", at);
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(between(pyi, "# registry:python", "# /registry", at), expected);
    ++at;
  }
  EXPECT_NE(expected.find("model_decay: float = ...,"), std::string::npos);
  EXPECT_NE(expected.find("display_palette: str = ...,"), std::string::npos);
}

TEST(Registry, SetValuesAreValuesNotDocuments) {
  Preset two = parse_preset("[[species]]\n[[species]]\n", "two.toml");
  apply_override(two, "interaction.matrix=[[1, -0.5], [0.25, 1]]");
  EXPECT_EQ(two.species.interaction, (std::vector<float>{1, -0.5f, 0.25f, 1}));
  const Preset before = two;
  for (const std::string& bad : std::vector<std::string>{
           "interaction.matrix=[[1, 0], [0, 1]]\n[model]\ndecay = 0.5", "interaction.matrix=[[1, 0]]",
           "interaction.matrix=" + std::string(100000, '[') + std::string(100000, ']'),
           "interaction.matrix=[[1, 0], [0, 1]] x", "interaction.matrix=[[1, 0], [0, 11]]",
           "interaction.matrix=[[1, 0], [0, nan]]", "species.0.decay=0.1\nspecies.1.decay=0.2"}) {
    SCOPED_TRACE(bad.substr(0, 60));
    EXPECT_THROW(apply_override(two, bad), Error);
    EXPECT_EQ(two, before);  // nothing changed
  }
  // A string value is a string, whatever it holds: it never becomes other keys.
  Preset one;
  apply_override(one, "display.palette=magma\"\n[model]\ndecay = 0.5");
  EXPECT_EQ(one.display.palette, "magma\"\n[model]\ndecay = 0.5");
  EXPECT_EQ(one.model.decay, Preset{}.model.decay);
}

TEST(Registry, KeysOfAPresetAreWhatItWrites) {
  const Preset two =
      parse_preset("[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\nfood_strength = 2\n", "t");
  const std::vector<reg::Key> keys = reg::keys_of(two);
  std::vector<std::string> names;
  for (const reg::Key& k : keys) names.push_back(k.name());
  for (const char* want : {"species.0.name", "species.1.decay", "species.1.food_strength",
                           "interaction.matrix", "display.palette", "run.size"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  EXPECT_EQ(std::find(names.begin(), names.end(), "model.decay"), names.end());  // each species holds it
  // Every key reads back through its own resolve, and keyframable_keys is the registry's flag.
  for (const reg::Key& k : keys) EXPECT_EQ(reg::resolve(two, k.name()), k);
  for (const std::string& k : keyframable_keys(two))
    EXPECT_TRUE(reg::resolve(two, k).param->keyframable) << k;
  EXPECT_THROW(reg::resolve(two, "model.decay"), Error);
  EXPECT_THROW(reg::resolve(two, "species.2.decay"), Error);
  EXPECT_THROW(reg::resolve(Preset{}, "model.nonsense"), Error);
}
