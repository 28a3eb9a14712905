// What the program prints about names, paths and numbers a user or a file gave it: escaped so a
// terminal shows them as text, short with a hint where a folder is large, and saying what is wrong
// with the value as written.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli/help_format.hpp"
#include "export/svg.hpp"
#include "export_pipeline/export_plan.hpp"
#include "run/recipe.hpp"
#include "sim/params.hpp"
#include "sim/text.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

namespace fs = std::filesystem;

// Bytes a terminal acts on: C0 controls, DEL, and the UTF-8 encoding of C1 controls.
bool has_terminal_control(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u < 0x20 && s[i] != '\n') return true;
    if (u == 0x7f) return true;
    if (u == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      return true;
  }
  return false;
}

TEST(Text, PrintableEscapesEveryControlCharacterAndKeepsTheRest) {
  EXPECT_EQ(printable("coral"), "coral");
  EXPECT_EQ(printable("a\x1b[31mred"), "a\\x1b[31mred");
  EXPECT_EQ(printable("bell\a"), "bell\\x07");
  EXPECT_EQ(printable("two\nlines\r\tx\x7f"), "two\\nlines\\r\\tx\\x7f");
  EXPECT_EQ(printable("csi\xc2\x9b"
                      "2J"),
            "csi\\u009b2J");
  EXPECT_EQ(printable("caf\xc3\xa9 \xc2\xa0"), "caf\xc3\xa9 \xc2\xa0");  // é and a no-break space stay
  EXPECT_EQ(printable(std::string("nul\0x", 5)), "nul\\x00x");
  for (int c = 0; c < 256; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_FALSE(has_terminal_control(printable(one))) << c;
    EXPECT_EQ(printable(one).find('\n'), std::string::npos) << c;
  }
}

TEST(Text, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("coral", "coral"), 0u);
  EXPECT_EQ(edit_distance("corl", "coral"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "veins"), 5u);
  EXPECT_EQ(edit_distance("veins", "coral"), 5u);
}

TEST(NumbersAsWritten, AnOverlongSizeIsOutOfRangeNotMalformed) {
  for (const char* s : {"99999999999x5", "5x99999999999999999999", "16385x2"}) {
    try {
      (void)parse_size(s);
      ADD_FAILURE() << s;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
    }
  }
  for (const char* s : {"12", "5x", "x5", "5x5x5x5", "5xx5", "5 x5", "-5x5q"}) {
    try {
      (void)parse_size(s);
      ADD_FAILURE() << s;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("not WIDTHxHEIGHT"), std::string::npos) << e.what();
    }
  }
}

std::string usage_message(const std::string& resolution, Size field) {
  try {
    (void)app::export_resolution(resolution, field);
  } catch (const run::UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(NumbersAsWritten, ExportResolutionSaysWhatIsWrongWithTheValue) {
  const Size field{4000, 3000};
  // A scale that wrapped an int gave a negative size; one too long for a double gave "stod".
  const std::string wrapped = usage_message("1000000x", field);
  EXPECT_NE(wrapped.find("more than 16384 on a side"), std::string::npos) << wrapped;
  EXPECT_EQ(wrapped.find("-"), wrapped.find("--resolution")) << wrapped;  // no negative number
  const std::string huge = usage_message(std::string(400, '9') + "x", field);
  EXPECT_NE(huge.find("more than 16384 on a side"), std::string::npos) << huge;
  const std::string tiny = usage_message("0." + std::string(400, '0') + "1x", field);
  EXPECT_NE(tiny.find("gives 0x0"), std::string::npos) << tiny;
  const std::string big_wxh = usage_message("99999999999x99", field);
  EXPECT_NE(big_wxh.find("out of range"), std::string::npos) << big_wxh;
  EXPECT_EQ(big_wxh.find("expected WxH"), std::string::npos) << big_wxh;
  EXPECT_NE(usage_message("big", field).find("expected WxH"), std::string::npos);
  EXPECT_EQ(app::export_resolution("2x", Size{100, 50}), (Size{200, 100}));
  EXPECT_EQ(app::export_resolution("300x200", field), (Size{300, 200}));
}

TEST(NumbersAsWritten, PaperSidesTooLongForADoubleAreOutOfRange) {
  const std::string huge(400, '9');
  for (const std::string& s :
       {huge + "x100mm", "100x" + huge + "mm", std::string("5x100mm"), std::string("100x10001mm")}) {
    try {
      (void)app::exporter::parse_paper(s);
      ADD_FAILURE() << s;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("outside 10..10000 mm"), std::string::npos) << e.what();
      EXPECT_LT(std::string(e.what()).size(), 600u) << e.what();
    }
  }
  EXPECT_EQ(app::exporter::parse_paper("300x200.5mm").height_mm, 200.5);
  EXPECT_THROW((void)app::exporter::parse_paper("1e3x200mm"), Error);
}

// The program itself: ESC and BEL in a preset's name and summary, and in a value quoted back.
TEST(MessagesCli, NamesFromFilesAndArgumentsReachTheTerminalEscaped) {
  const fs::path dir = test::temp_dir();
  const fs::path user = dir / "config" / "physarum" / "presets";
  fs::create_directories(user);
  test::write_file(user / "evil\x1b]0;owned\a.toml", "# Looks \x1b[2Jharmless\x07 here.\n[model]\n");
  const std::vector<std::pair<std::string, std::string>> env{{"XDG_CONFIG_HOME", (dir / "config").string()}};
  const auto list = test::run_physarum({"presets"}, dir, env);
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_FALSE(has_terminal_control(list.out)) << list.out;
  EXPECT_NE(list.out.find("evil\\x1b]0;owned\\x07"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("Looks \\x1b[2Jharmless\\x07 here."), std::string::npos) << list.out;
  const auto bad = test::run_physarum(
      {"run", "--preset", "no\x1b[31mpe\nforged line", "--steps", "1", "--out", "o.npy"}, dir, env);
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_FALSE(has_terminal_control(bad.err)) << bad.err;
  EXPECT_EQ(bad.err.find("\nforged"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("no\\x1b[31mpe\\nforged line"), std::string::npos) << bad.err;
}

TEST(MessagesCli, AnUnknownCommandIsAUsageErrorEvenWithHelp) {
  const fs::path dir = test::temp_dir();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"rnu", "--help"}, std::vector<std::string>{"rnu"},
        std::vector<std::string>{"nosuch", "--steps", "1"}}) {
    const auto r = test::run_physarum(args, dir);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("there is no command '" + args[0] + "'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run, bench, render"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  const auto help = test::run_physarum({"run", "--help"}, dir);
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--steps"), std::string::npos);
}

}  // namespace
}  // namespace physarum

namespace physarum {
namespace {

// Every command's --help in one style: grouped, within 80 columns off a terminal (help2man's
// case), values in plain words with no CLI11 type clutter.
TEST(MessagesCli, EveryHelpIsGroupedWrappedAndPlain) {
  const fs::path dir = test::temp_dir();
  for (const char* sub :
       {"", "run", "bench", "render", "presets", "params", "export", "sensitivity", "atlas"}) {
    std::vector<std::string> args;
    if (*sub) args.push_back(sub);
    args.push_back("--help");
    const auto r = test::run_physarum(args, dir);
    EXPECT_EQ(r.exit_code, 0) << sub << ": " << r.err;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
      EXPECT_LE(line.size(), 80u) << sub << ": " << line;
      for (const char* clutter : {":INT", ":UINT", "TEXT:", ":{", "{false}", " in [", "=auto", "=500"}) {
        EXPECT_EQ(line.find(clutter), std::string::npos) << sub << ": " << line;
      }
    }
    EXPECT_NE(r.out.find("Command options:"), std::string::npos) << sub;
  }
  const auto window = test::run_physarum({"--help"}, dir);
  EXPECT_NE(window.out.find("\nSimulation:\n"), std::string::npos) << window.out;
  EXPECT_NE(window.out.find("\nWindow:\n"), std::string::npos) << window.out;
  EXPECT_NE(window.out.find("--record-fps INT"), std::string::npos) << window.out;
  EXPECT_NE(window.out.find("[1 to 240, default 60]"), std::string::npos) << window.out;
  EXPECT_NE(window.out.find("--backend auto|cpu|cuda"), std::string::npos) << window.out;
  const auto run = test::run_physarum({"run", "--help"}, dir);
  EXPECT_NE(run.out.find("\nSimulation:\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\nWindow:\n"), std::string::npos) << run.out;
}

TEST(HelpFormat, WrapTextBreaksAtSpacesWithinTheWidth) {
  EXPECT_EQ(app::wrap_text("one two three four five six seven", 20), "one two three four\nfive six seven");
  EXPECT_EQ(app::wrap_text("a\nb c", 80), "a\nb c");
  EXPECT_EQ(app::wrap_text("a-very-long-word x", 20), "a-very-long-word x");
  EXPECT_EQ(app::wrap_text("a-word-longer-than-twenty-chars y", 20), "a-word-longer-than-twenty-chars\ny");
}

}  // namespace
}  // namespace physarum
