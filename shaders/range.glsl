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
  // Several species: each channel's range (lo/hi above are then the cave value's).
  uint channel_min_key[4];
  uint channel_max_key[4];
  float channel_lo[4];
  float channel_inv_span[4];
};

// The value cave maps read: one species' field as it is; with several channels (RGBA, unused
// ones 0) the chosen channel, or for cave_channel < 0 the sum in channel order (precise: no
// reordering, so it is the CPU's sum bit for bit).
float cave_value(vec4 f, int channels, int cave_channel) {
  if (channels <= 1) return f.r;
  if (cave_channel >= 0 && cave_channel < channels) return f[cave_channel];
  precise float v = f.r + f.g;
  if (channels > 2) v = v + f.b;
  if (channels > 3) v = v + f.a;
  return v;
}

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

// Several species: per-workgroup sums of each channel (range_minmax writes, range_finish adds them
// in workgroup order), for each channel's mean and so its black level.
layout(std430, binding = 1) buffer PartialSums {
  float partial_sum[];  // [workgroup * 4 + channel]
};

// Mirrors channel_black_level() in render/src/colormap_cpu.cpp (and its constants in colormap.hpp).
const float kBlackLevelFrom = 0.02;
const float kBlackLevelFull = 0.2;
float channel_black_level(float lo, float hi, float mean) {
  float span = hi - lo;
  if (!(span > 0.0) || isinf(mean) || isnan(mean)) return lo;
  float r = (mean - lo) / span;
  float w = clamp((r - kBlackLevelFrom) / (kBlackLevelFull - kBlackLevelFrom), 0.0, 1.0);
  return lo + w * (mean - lo);
}
