// The display's mapping (sim/display_mapping.hpp), the one curve the renderers, the exporters and the
// shader share: its values by hand, its float and double forms as one curve, and the shader's constant.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/display_mapping.hpp"
#include "test_support.hpp"

using namespace physarum;

namespace {

TEST(DisplayMapping, LogCurveByHand) {
  // t = ln(1 + 1000 x) / ln(1001): x = 0.001 gives ln 2 / ln 1001; t = 1/2 comes back as
  // (sqrt(1001) - 1) / 1000.
  EXPECT_NEAR(apply_mapping(0.001, Mapping::Log), 0.10032881506161208, 1e-15);
  EXPECT_NEAR(apply_mapping(0.001f, Mapping::Log), 0.10032881506161208, 1e-7);
  EXPECT_NEAR(invert_mapping(0.5, Mapping::Log), (std::sqrt(1001.0) - 1.0) / 1000.0, 1e-15);
  EXPECT_NEAR(invert_mapping(0.5f, Mapping::Log), (std::sqrt(1001.0) - 1.0) / 1000.0, 1e-8);
  EXPECT_EQ(apply_mapping(0.0, Mapping::Log), 0.0);
  EXPECT_EQ(apply_mapping(1.0, Mapping::Log), 1.0);
  for (const double x : {0.0, 0.3, 1.0, 2.5}) {
    EXPECT_EQ(apply_mapping(x, Mapping::Linear), x);
    EXPECT_EQ(invert_mapping(x, Mapping::Linear), x);
    EXPECT_EQ(apply_mapping(static_cast<float>(x), Mapping::Linear), static_cast<float>(x));
  }
}

// The float form (the renderers' and the bands') and the double one (heights, contour levels) are
// the same curve and each other's inverse, to their precisions.
TEST(DisplayMapping, FloatAndDoubleFormsAreOneCurve) {
  for (int k = 0; k <= 1000; ++k) {
    const double x = k / 1000.0;
    const double t = apply_mapping(x, Mapping::Log);
    EXPECT_NEAR(apply_mapping(static_cast<float>(x), Mapping::Log), t, 2e-6) << x;
    EXPECT_NEAR(invert_mapping(t, Mapping::Log), x, 1e-12) << x;
    EXPECT_NEAR(invert_mapping(static_cast<float>(t), Mapping::Log), x, 2e-6 * (1.0 + 1000.0 * x)) << x;
  }
}

// shaders/range.glsl restates the curve in GLSL: its constant is the header's.
TEST(DisplayMapping, TheShaderUsesTheSameLogScale) {
  const std::string glsl = test::read_file(std::string(PHYSARUM_SOURCE_DIR) + "/shaders/range.glsl");
  const std::string decl = "const float kLogScale = ";
  const size_t at = glsl.find(decl);
  ASSERT_NE(at, std::string::npos) << "shaders/range.glsl no longer declares kLogScale";
  EXPECT_EQ(std::stof(glsl.substr(at + decl.size())), kLogScale);
  EXPECT_NE(glsl.find("log(1.0 + kLogScale * x) * kInvLogDenominator"), std::string::npos);
  EXPECT_NE(glsl.find("const float kInvLogDenominator = 1.0 / log(1.0 + kLogScale);"), std::string::npos);
}

}  // namespace
