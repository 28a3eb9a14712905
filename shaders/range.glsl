// Shared by the field shader and the range compute shaders: the display range block (mirrors
// render::DisplayRange) and the mapping (mirrors render/src/colormap_cpu.cpp).
layout(std430, binding = 0) buffer RangeBuf {
  uint min_key;  // order-preserving keys of the field's min and max (GPU reduction)
  uint max_key;
  float lo;
  float inv_span;  // 1 / (hi - lo), 0 when the field is flat
  float hi;
  int threshold_count;
  float pad0;
  float pad1;
  float thresholds[16];  // cave levels, value space, ascending
};

const float kLogScale = 1000.0;
const float kInvLogDenominator = 1.0 / log(1.0 + kLogScale);

float apply_mapping(float x, int log_mapping) {
  return log_mapping != 0 ? log(1.0 + kLogScale * x) * kInvLogDenominator : x;
}

float invert_mapping(float t, int log_mapping) {
  return log_mapping != 0 ? (exp(t / kInvLogDenominator) - 1.0) / kLogScale : t;
}

// Float bits to a uint whose unsigned order is the float order (negative values included).
uint order_key(float f) {
  uint b = floatBitsToUint(f);
  return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u);
}

float from_order_key(uint k) {
  return uintBitsToFloat((k & 0x80000000u) != 0u ? (k & 0x7fffffffu) : ~k);
}
