// Presets: reading every key, defaults, round trips, every kind of bad input with its line, atomic
// save, and --set style overrides.
#include "sim/preset.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "test_support.hpp"

namespace physarum {
namespace {

using test::read_file;
using test::temp_dir;
using test::write_file;

// The message of the Error that parse_preset throws, or "" when it does not throw.
std::string parse_error(const std::string& text, const std::string& source = "p.toml") {
  try {
    parse_preset(text, source);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

Preset unusual_preset() {
  Preset p;
  p.model.sensor_angle_deg = 22.5f;
  p.model.rotation_angle_deg = 33.333332f;
  p.model.sensor_distance = 9.1f;
  p.model.step_size = 1.1f;
  p.model.deposit = 0.3f;
  p.model.decay = 0.0125f;
  p.model.diffuse = 0.1f;  // not exactly representable: round trip must still be exact
  p.model.turn_rule = TurnRule::Jones;
  p.model.jitter = std::nextafter(0.1f, 1.0f);
  p.spawn.mode = SpawnMode::Ring;
  p.spawn.field_strength = 7.25f;
  p.spawn.agents_from_image = true;
  p.run.size = {640, 360};
  p.run.agents = 123457;  // no short form: written as an integer
  p.run.seed = 4000000000u;
  p.display.palette = "viridis";
  p.display.mapping = Mapping::Linear;
  p.display.exposure = 1.7f;
  p.display.gamma = 0.8f;
  p.display.auto_range = false;
  p.display.invert = true;
  p.display.cave = CaveMode::Binary;
  p.display.levels = 7;
  p.display.threshold = 0.35f;
  p.display.smoothing = 3;
  return p;
}

TEST(Preset, EmptyTextGivesDefaults) {
  EXPECT_EQ(parse_preset(""), Preset{});
}

TEST(Preset, ReadsTheDocumentedSchema) {
  const Preset p = parse_preset(R"(
[model]
sensor_angle_deg = 30.0
rotation_angle_deg = 15.0
sensor_distance = 9.0
step_size = 2.0
deposit = 0.5
decay = 0.05
diffuse = 0.4
turn_rule = "jones"
jitter = 0.1
[spawn]
mode = "disc"
field_strength = 2.0
agents_from_image = true
[run]
size = "640x480"
agents = "250K"
seed = 7
[display]
palette = "magma"
mapping = "linear"
exposure = 2.0
gamma = 0.5
auto_range = false
invert = true
cave = "quantile"
levels = 8
threshold = 0.25
smoothing = 2
)");
  EXPECT_EQ(p.model.sensor_angle_deg, 30.0f);
  EXPECT_EQ(p.model.rotation_angle_deg, 15.0f);
  EXPECT_EQ(p.model.sensor_distance, 9.0f);
  EXPECT_EQ(p.model.step_size, 2.0f);
  EXPECT_EQ(p.model.deposit, 0.5f);
  EXPECT_EQ(p.model.decay, 0.05f);
  EXPECT_EQ(p.model.diffuse, 0.4f);
  EXPECT_EQ(p.model.turn_rule, TurnRule::Jones);
  EXPECT_EQ(p.model.jitter, 0.1f);
  EXPECT_EQ(p.spawn.mode, SpawnMode::Disc);
  EXPECT_EQ(p.spawn.field_strength, 2.0f);
  EXPECT_TRUE(p.spawn.agents_from_image);
  EXPECT_EQ(p.run.size, (Size{640, 480}));
  EXPECT_EQ(p.run.agents, 250000u);
  EXPECT_EQ(p.run.seed, 7u);
  EXPECT_EQ(p.display.palette, "magma");
  EXPECT_EQ(p.display.mapping, Mapping::Linear);
  EXPECT_EQ(p.display.exposure, 2.0f);
  EXPECT_EQ(p.display.gamma, 0.5f);
  EXPECT_FALSE(p.display.auto_range);
  EXPECT_TRUE(p.display.invert);
  EXPECT_EQ(p.display.cave, CaveMode::Quantile);
  EXPECT_EQ(p.display.levels, 8);
  EXPECT_EQ(p.display.threshold, 0.25f);
  EXPECT_EQ(p.display.smoothing, 2);
}

TEST(Preset, MissingKeysTakeDefaults) {
  const Preset p = parse_preset("[model]\ndecay = 0\n[run]\nagents = 5000\n");
  Preset expected;
  expected.model.decay = 0.0f;  // an integer is accepted for a float key
  expected.run.agents = 5000;
  EXPECT_EQ(p, expected);
}

TEST(Preset, RoundTripsExactly) {
  const Preset p = unusual_preset();
  const std::string text = preset_to_toml(p);
  EXPECT_EQ(parse_preset(text), p) << text;
  // And the defaults, whose agents are written in the short form "2M".
  EXPECT_EQ(parse_preset(preset_to_toml(Preset{})), Preset{});
  EXPECT_NE(preset_to_toml(Preset{}).find("agents = \"2M\""), std::string::npos) << preset_to_toml(Preset{});
}

TEST(Preset, SaveThenLoadRoundTrips) {
  const auto dir = temp_dir();
  const Preset p = unusual_preset();
  save_preset(p, dir / "a.toml");
  EXPECT_EQ(load_preset(dir / "a.toml"), p);
  // Saving again replaces the file and leaves no temporary file behind.
  Preset q = p;
  q.model.decay = 0.5f;
  save_preset(q, dir / "a.toml");
  EXPECT_EQ(load_preset(dir / "a.toml"), q);
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
}

struct BadCase {
  const char* name;
  const char* text;
  const char* key;  // must appear in the message
  int line;
};

TEST(Preset, EveryKindOfBadPresetNamesKeyAndLine) {
  const BadCase cases[] = {
      {"unknown key", "[model]\ndecay = 0.1\ndecy = 0.1\n", "model.decy", 3},
      {"unknown table", "[model]\ndecay = 0.1\n\n[modle]\ndecay = 0.1\n", "modle", 4},
      {"top-level key", "decay = 0.1\n", "decay", 1},
      {"wrong type (string for float)", "[model]\ndecay = \"lots\"\n", "model.decay", 2},
      {"wrong type (float for bool)", "[spawn]\nagents_from_image = 1.0\n", "spawn.agents_from_image", 2},
      {"wrong type (float for int)", "[run]\nseed = 1.5\n", "run.seed", 2},
      {"wrong type (table for key)", "[model]\n[model.decay]\n", "model.decay", 2},
      {"out of range", "[model]\n\ndecay = 2.0\n", "model.decay", 3},
      {"negative distance", "[model]\nsensor_distance = -1.0\n", "model.sensor_distance", 2},
      {"NaN", "[model]\ndiffuse = nan\n", "model.diffuse", 2},
      {"infinity", "[model]\ndeposit = inf\n", "model.deposit", 2},
      {"float overflow", "[model]\ndeposit = 1e300\n", "model.deposit", 2},
      {"bad enum", "[model]\nturn_rule = \"left\"\n", "model.turn_rule", 2},
      {"zero size", "[run]\nsize = \"0x5\"\n", "run.size", 2},
      {"negative agents", "[run]\nagents = -3\n", "run.agents", 2},
      {"seed too large", "[run]\nseed = 4294967296\n", "run.seed", 2},
      {"levels out of range", "[display]\nlevels = 17\n", "display.levels", 2},
      {"bad cave mode", "[display]\ncave = \"sometimes\"\n", "display.cave", 2},
  };
  for (const BadCase& c : cases) {
    const std::string msg = parse_error(c.text);
    EXPECT_NE(msg.find(std::string("p.toml:") + std::to_string(c.line) + ": "), std::string::npos)
        << c.name << ": " << msg;
    EXPECT_NE(msg.find(c.key), std::string::npos) << c.name << ": " << msg;
  }
}

TEST(Preset, SyntaxErrorNamesTheLine) {
  const std::string msg = parse_error("[model]\ndecay = 0.1\nsensor_distance = = 3\n");
  EXPECT_NE(msg.find("p.toml:3:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("syntax"), std::string::npos) << msg;
}

TEST(Preset, LoadNamesAMissingFile) {
  const auto dir = temp_dir();
  try {
    load_preset(dir / "nope.toml");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nope.toml"), std::string::npos) << e.what();
  }
}

TEST(Preset, LoadErrorsNameTheFile) {
  const auto dir = temp_dir();
  write_file(dir / "bad.toml", "[model]\ndecay = 3\n");
  try {
    load_preset(dir / "bad.toml");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "bad.toml").string() + ":2: model.decay"), std::string::npos)
        << e.what();
  }
}

TEST(Preset, FailedSaveOverADirectoryLeavesEverythingIntact) {
  // rename() cannot replace a directory with a file, whoever runs the test.
  const auto dir = temp_dir();
  std::filesystem::create_directory(dir / "target.toml");
  write_file(dir / "target.toml" / "inside", "keep");
  EXPECT_THROW(save_preset(Preset{}, dir / "target.toml"), Error);
  EXPECT_TRUE(std::filesystem::is_directory(dir / "target.toml"));
  EXPECT_EQ(read_file(dir / "target.toml" / "inside"), "keep");
  int entries = 0;  // no temporary file left behind
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(Preset, FailedSaveToUnwritableDirectoryLeavesOldFileIntact) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: directory permissions do not stop writes";
  const auto dir = temp_dir();
  const auto locked = dir / "locked";
  std::filesystem::create_directory(locked);
  const std::string old_text = "[model]\ndecay = 0.5\n";
  write_file(locked / "p.toml", old_text);
  ASSERT_EQ(::chmod(locked.c_str(), 0500), 0);
  std::string msg;
  try {
    save_preset(Preset{}, locked / "p.toml");
  } catch (const Error& e) {
    msg = e.what();
  }
  ::chmod(locked.c_str(), 0700);
  EXPECT_NE(msg.find("p.toml"), std::string::npos) << "expected an Error naming the file, got: " << msg;
  EXPECT_EQ(read_file(locked / "p.toml"), old_text);
  EXPECT_EQ(load_preset(locked / "p.toml").model.decay, 0.5f);
}

TEST(Preset, FailedSaveWhereNoFileCanBeCreatedLeavesTheOldOneIntact) {
  // /proc accepts no new files, even from root: the temporary file cannot be made, and the
  // existing /proc/version must read as before.
  const std::filesystem::path target = "/proc/version";
  if (!std::filesystem::exists(target)) GTEST_SKIP() << "no /proc/version on this system";
  const std::string before = read_file(target);
  try {
    save_preset(Preset{}, target);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/version"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_file(target), before);
}

TEST(Preset, SaveRefusesAnInvalidPreset) {
  const auto dir = temp_dir();
  write_file(dir / "p.toml", "old");
  Preset p;
  p.model.decay = std::nanf("");
  EXPECT_THROW(save_preset(p, dir / "p.toml"), Error);
  EXPECT_EQ(read_file(dir / "p.toml"), "old");
}

TEST(Preset, OverridesParseByTheKeysType) {
  Preset p;
  apply_override(p, "model.decay=0");
  apply_override(p, "model.turn_rule=jones");
  apply_override(p, "model.sensor_distance = 7.5");
  apply_override(p, "spawn.agents_from_image=true");
  apply_override(p, "spawn.mode=\"ring\"");
  apply_override(p, "run.agents=250K");
  apply_override(p, "run.size=64x48");
  apply_override(p, "run.seed=99");
  apply_override(p, "display.levels=3");
  Preset expected;
  expected.model.decay = 0.0f;
  expected.model.turn_rule = TurnRule::Jones;
  expected.model.sensor_distance = 7.5f;
  expected.spawn.agents_from_image = true;
  expected.spawn.mode = SpawnMode::Ring;
  expected.run.agents = 250000;
  expected.run.size = {64, 48};
  expected.run.seed = 99;
  expected.display.levels = 3;
  EXPECT_EQ(p, expected);
}

TEST(Preset, BadOverridesThrowAndChangeNothing) {
  const char* bad[] = {"model.decay=2",
                       "model.decay=abc",
                       "model.decay=nan",
                       "model.nope=1",
                       "modle.decay=1",
                       "model.decay",
                       "decay=1",
                       "run.seed=-1",
                       "run.agents=-3",
                       "display.levels=1",
                       "spawn.agents_from_image=maybe",
                       "run.size=0x5"};
  for (const char* a : bad) {
    Preset p;
    try {
      apply_override(p, a);
      ADD_FAILURE() << a << ": no error";
    } catch (const Error& e) {
      const std::string assignment(a);
      EXPECT_NE(std::string(e.what()).find(assignment.substr(0, assignment.find('='))), std::string::npos)
          << a << ": " << e.what();
    }
    EXPECT_EQ(p, Preset{}) << a;
  }
}

// toml++ recurses once per level of a dotted key or table header with no limit: a file of a few
// hundred kilobytes overflowed the stack and killed the program. Each shape is refused before
// parsing, naming the file and the line.
TEST(Preset, DeepNestingIsRefusedWithFileAndLine) {
  const int depth = 200000;
  std::string dotted;
  for (int i = 0; i < depth; ++i) dotted += i ? ".a" : "a";
  const std::pair<std::string, std::string> cases[] = {
      {"header", "[model]\ndecay = 0.5\n[" + dotted + "]\n"},
      {"array of tables", "[model]\ndecay = 0.5\n[[" + dotted + "]]\n"},
      {"dotted key", "[model]\ndecay = 0.5\n" + dotted + " = 1\n"},
      {"inline tables", "[model]\ndecay = 0.5\nx = " + std::string(depth, '{') + "\n"},
      {"arrays", "[model]\ndecay = 0.5\nx = " + std::string(depth, '[') + "\n"},
  };
  for (const auto& [what, text] : cases) {
    const std::string msg = parse_error(text, "deep.toml");
    EXPECT_EQ(msg.rfind("deep.toml:3: ", 0), 0u) << what << ": " << msg;
    EXPECT_NE(msg.find("nested more than"), std::string::npos) << what << ": " << msg;
  }
  // Dots and brackets inside strings and comments, and numbers, are not nesting.
  const std::string deep_text(3000, '.');
  EXPECT_EQ(
      parse_error("# " + deep_text + "\n[display]\npalette = \"" + deep_text + "[[[{{{\"\n" +
                  "[model]\ndecay = 0.125\n\"a.b.c.d.e.f.g.h.i\" = 1\n"),
      "p.toml:6: model.a.b.c.d.e.f.g.h.i: unknown key (known keys: sensor_angle_deg, rotation_angle_deg, "
      "sensor_distance, step_size, deposit, decay, diffuse, turn_rule, jitter, ring, sharpness, "
      "trace_decay)");
  EXPECT_EQ(parse_error("[model]\ndecay = 0.125\n[display]\npalette = '''\n" + deep_text + "\n[[[\n'''\n"),
            "");
}

// A FIFO blocked the program forever, /dev/zero read until the size limit, a directory gave a
// stream error: regular files only, said plainly. The test holds the FIFO open for writing, so the
// old code got past open() and then waited in read() for ever (ctest's timeout failed it).
TEST(Preset, SpecialFilesAreRefusedAsNotRegular) {
  const auto dir = temp_dir();
  const auto fifo = dir / "pipe.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int keep = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(keep, 0);
  const auto load_error = [](const std::filesystem::path& f) -> std::string {
    try {
      load_preset(f);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  const std::string fifo_msg = load_error(fifo);
  ::close(keep);
  EXPECT_NE(fifo_msg.find("FIFO"), std::string::npos) << fifo_msg;
  EXPECT_NE(fifo_msg.find("only regular files"), std::string::npos) << fifo_msg;
  EXPECT_NE(load_error("/dev/zero").find("character device"), std::string::npos) << load_error("/dev/zero");
  EXPECT_NE(load_error(dir).find("a directory"), std::string::npos) << load_error(dir);
}

// Exact or refused: a float that only fits as 0 is not silently 0, a fractional agent count is not
// rounded, and a range message prints the value exactly (1.00000012 is not "1").
TEST(Preset, NumbersAreExactOrRefused) {
  const auto override_error = [](const std::string& a) -> std::string {
    Preset p;
    try {
      apply_override(p, a);
    } catch (const Error& e) {
      EXPECT_EQ(p, Preset{}) << a;
      return e.what();
    }
    return "";
  };
  EXPECT_NE(override_error("model.deposit=1e-50").find("too small"), std::string::npos)
      << override_error("model.deposit=1e-50");
  EXPECT_NE(parse_error("[model]\ndeposit = 1e-50\n").find("p.toml:2: model.deposit"), std::string::npos)
      << parse_error("[model]\ndeposit = 1e-50\n");
  for (const char* count :
       {"run.agents=1.5", "run.agents=1000.5", "run.agents=1.0005K", "run.agents=2.0000001M"}) {
    EXPECT_NE(override_error(count).find("whole number"), std::string::npos)
        << count << ": " << override_error(count);
  }
  EXPECT_NE(override_error("run.agents=0x10").find("not a number"), std::string::npos)
      << override_error("run.agents=0x10");
  Preset p;
  apply_override(p, "run.agents=1.5K");
  EXPECT_EQ(p.run.agents, 1500u);
  apply_override(p, "run.agents=0.25M");
  EXPECT_EQ(p.run.agents, 250000u);
  apply_override(p, "run.agents=12.000K");
  EXPECT_EQ(p.run.agents, 12000u);
  apply_override(p, "run.agents=010");  // decimal: ten, never octal eight
  EXPECT_EQ(p.run.agents, 10u);
  const std::string msg = override_error("model.decay=1.0000001");
  EXPECT_NE(msg.find("1.0000001 is out of range"), std::string::npos) << msg;
  // The bounds are compared as the float the value is stored in: the documented lower bound 1e-6
  // is allowed although float(1e-6) is a little below the double 1e-6.
  EXPECT_EQ(override_error("display.exposure=1e-6"), "");
}

// Found by tests/fuzz/fuzz_set.cpp: --set display.palette with bytes that are not UTF-8 was
// accepted, and a preset saved from it could not be read back (TOML is UTF-8). Now refused; valid
// UTF-8 of every length still round-trips.
TEST(Preset, OverrideStringsMustBeUtf8) {
  for (const std::string bad :
       {"m\xffs", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\xe2\x82"}) {
    Preset p;
    try {
      apply_override(p, "display.palette=" + bad);
      ADD_FAILURE() << "accepted " << testing::PrintToString(bad);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
    }
    EXPECT_EQ(p, Preset{});
  }
  Preset p;
  apply_override(p, "display.palette=caf\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x8c\x8a");
  EXPECT_EQ(parse_preset(preset_to_toml(p)), p);
}

}  // namespace
}  // namespace physarum
