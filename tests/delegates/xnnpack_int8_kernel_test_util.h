// Shared by the white-box tests of our XNNPACK build's int8 microkernels:
// the parameters they take, XNNPACK's fp32 requantization written out from
// its definition, and a small deterministic generator.
#ifndef TFLITE_C_TESTS_DELEGATES_XNNPACK_INT8_KERNEL_TEST_UTIL_H_
#define TFLITE_C_TESTS_DELEGATES_XNNPACK_INT8_KERNEL_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tflite_c {
namespace testing {

// XNNPACK's xnn_qs8_qc8w_conv_minmax_params, fp32_scalar member (x86).
union QC8Params {
  struct {
    int16_t output_zero_point;
    int16_t output_min;
    int16_t output_max;
  } fp32_scalar;
  char size[64];
};

struct Int8Rng {
  uint32_t state = 2024;
  int operator()(int lo, int hi) {
    state = state * 1664525u + 1013904223u;
    return lo + int((state >> 8) % uint32_t(hi - lo + 1));
  }
};

// Kernel parameters with a random output zero point (-128..127) and clamp
// (min -128..0, max 0..127), and those values.
struct OutputQuantization {
  QC8Params params;
  int zero_point, min, max;
};
inline OutputQuantization RandomOutputQuantization(Int8Rng& r) {
  OutputQuantization q;
  std::memset(&q.params, 0, sizeof(q.params));
  q.zero_point = r(-128, 127);
  q.min = r(-128, 0);
  q.max = r(0, 127);
  q.params.fp32_scalar.output_zero_point = int16_t(q.zero_point);
  q.params.fp32_scalar.output_min = int16_t(q.min);
  q.params.fp32_scalar.output_max = int16_t(q.max);
  return q;
}

// An int32 accumulator to int8: times the channel's scale in float, clamped
// above at out_max - zero_point, rounded to nearest (ties to even),
// saturated to int16, plus the zero point (saturating), saturated to int8,
// clamped below at out_min.
inline int8_t Requantize(int32_t acc, float scale, int zero_point, int out_min, int out_max) {
  float scaled = float(acc) * scale;
  scaled = std::min(scaled, float(out_max - zero_point));
  const long rounded = std::lrint(scaled);
  int v = int(std::max<long>(std::min<long>(rounded, 32767), -32768));
  v = std::max(-32768, std::min(32767, v + zero_point));
  v = std::max(-128, std::min(127, v));
  return int8_t(std::max(v, out_min));
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_DELEGATES_XNNPACK_INT8_KERNEL_TEST_UTIL_H_
