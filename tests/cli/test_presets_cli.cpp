// `physarum presets` end to end: every shipped preset with the size, agents and species its file
// says (read here with toml++, not the program's preset reader) and its whole leading comment,
// wrapped but never cut; a user's preset that does not load is listed with the reason.
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace physarum {
namespace {

namespace fs = std::filesystem;

const fs::path kPresetDir = fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets";

// "300K", "1.5M", "6000" as a count.
uint64_t count_of(const std::string& s) {
  const char unit = s.empty() ? '\0' : s.back();
  const double scale = unit == 'K' ? 1e3 : unit == 'M' ? 1e6 : 1.0;
  return static_cast<uint64_t>(std::stod(scale == 1.0 ? s : s.substr(0, s.size() - 1)) * scale + 0.5);
}

std::string words_of(const std::string& text) {
  std::istringstream in(text);
  std::string w, out;
  while (in >> w) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

struct Expected {
  std::string size;
  uint64_t agents = 0;
  int species = 1;
  std::string description;  // its words, one space apart
};

Expected expected_from(const fs::path& file) {
  Expected e;
  const toml::table t = toml::parse_file(file.string());
  e.size = t["run"]["size"].value_or(std::string());
  if (auto s = t["run"]["agents"].value<std::string>()) {
    e.agents = count_of(*s);
  } else {
    e.agents = static_cast<uint64_t>(t["run"]["agents"].value_or(int64_t{0}));
  }
  if (const toml::array* sp = t["species"].as_array()) e.species = static_cast<int>(sp->size());
  std::ifstream in(file);
  std::string text;
  for (std::string line; std::getline(in, line) && line.rfind('#', 0) == 0;) {
    text += ' ';
    text.append(line, 1);
  }
  e.description = words_of(text);
  return e;
}

// The listing of one group: for each name, its header line and the description lines under it.
struct Listed {
  std::string header;
  std::string description;
};

std::map<std::string, Listed> parse_group(const std::string& out, const std::string& title) {
  std::map<std::string, Listed> m;
  std::istringstream in(out.substr(out.find(title + " (")));
  std::string line, current;
  std::getline(in, line);  // the title
  while (std::getline(in, line)) {
    if (line.rfind("      ", 0) == 0) {
      m[current].description += ' ';
      m[current].description += line;
    } else if (line.rfind("  ", 0) == 0) {
      current = line.substr(2, line.find(' ', 2) - 2);
      m[current].header = line;
    } else if (!line.empty()) {
      break;  // the next group
    }
  }
  return m;
}

TEST(PresetsCli, EveryShippedPresetWithItsSizeAgentsSpeciesAndWholeDescription) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"presets"}, dir, {{"XDG_CONFIG_HOME", (dir / "config").string()}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto listed = parse_group(r.out, "shipped");
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(kPresetDir)) {
    if (entry.path().extension() != ".toml") continue;
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    const Expected e = expected_from(entry.path());
    ASSERT_TRUE(listed.count(name)) << r.out;
    const Listed& l = listed.at(name);
    std::istringstream header(l.header);
    std::string got_name, size, agents, agents_word, species, species_word;
    header >> got_name >> size >> agents >> agents_word >> species >> species_word;
    EXPECT_EQ(size, e.size) << l.header;
    EXPECT_EQ(count_of(agents), e.agents) << l.header;
    EXPECT_EQ(agents_word, "agents") << l.header;
    EXPECT_EQ(species, std::to_string(e.species)) << l.header;
    EXPECT_EQ(species_word, "species") << l.header;
    EXPECT_FALSE(e.description.empty());
    EXPECT_EQ(words_of(l.description), e.description) << "the whole leading comment, not cut";
    ++checked;
  }
  EXPECT_GE(checked, 8u);
  EXPECT_EQ(checked, listed.size()) << r.out;
  // Not a terminal: wrapped to 100 columns, and no description is cut with "...".
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("shipped (", 0) == 0 || line.rfind("yours (", 0) == 0) continue;  // folders
    EXPECT_LE(line.size(), 100u) << line;
  }
  EXPECT_EQ(r.out.find("..."), std::string::npos) << r.out;
}

TEST(PresetsCli, AUsersPresetThatDoesNotLoadIsListedWithTheReason) {
  const auto dir = test::temp_dir();
  const fs::path presets = dir / "config" / "physarum" / "presets";
  fs::create_directories(presets);
  test::write_file(
      presets / "mine.toml",
      "# Mine: a wide fan.\n#\n# A second paragraph.\n[run]\nsize = \"320x200\"\nagents = 5000\n");
  test::write_file(presets / "broken.toml", "# Broken on purpose.\n[model]\ndecay = \"much\"\n");
  const auto r = test::run_physarum({"presets"}, dir, {{"XDG_CONFIG_HOME", (dir / "config").string()}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto yours = parse_group(r.out, "yours");
  ASSERT_EQ(yours.size(), 2u) << r.out;
  EXPECT_NE(yours.at("mine").header.find("320x200"), std::string::npos) << r.out;
  EXPECT_NE(yours.at("mine").header.find("5K agents"), std::string::npos) << r.out;
  EXPECT_NE(yours.at("mine").header.find("1 species"), std::string::npos) << r.out;
  EXPECT_EQ(words_of(yours.at("mine").description), "Mine: a wide fan. A second paragraph.");
  EXPECT_NE(yours.at("broken").header.find("not readable as a preset"), std::string::npos) << r.out;
  EXPECT_NE(yours.at("broken").header.find("decay"), std::string::npos)
      << "the reason names the key: " << r.out;
  EXPECT_EQ(words_of(yours.at("broken").description), "Broken on purpose.");
}

}  // namespace
}  // namespace physarum
