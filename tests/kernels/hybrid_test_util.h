// Shared reference of the hybrid (dynamic-range) kernel tests: upstream's
// procedure for quantizing a float row to int8, written here independently
// of the runtime so the tests can compute their expected outputs.
#ifndef TFLITE_C_TESTS_KERNELS_HYBRID_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_HYBRID_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tflite_c {
namespace testing {

struct RowQ {
  std::vector<int32_t> q;
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// round(x * 127 / max|x|) in [-127, 127]; an all-zero row gives scale 1.
inline RowQ QuantizeSymmetric(const float* x, size_t n) {
  float range = 0;
  for (size_t i = 0; i < n; ++i) range = std::max(range, std::fabs(x[i]));
  RowQ r;
  r.q.assign(n, 0);
  if (range == 0) return r;
  r.scale = range / 127.0f;
  for (size_t i = 0; i < n; ++i) {
    const float v = std::round(x[i] * (127.0f / range));
    r.q[i] = static_cast<int32_t>(std::min(127.0f, std::max(-127.0f, v)));
  }
  return r;
}

// [min(x, 0), max(x, 0)] onto [-128, 127]; the zero point is taken from the
// end of the range with the smaller error, rounded and clamped.
inline RowQ QuantizeAsymmetric(const float* x, size_t n) {
  float lo = 0, hi = 0;
  for (size_t i = 0; i < n; ++i) lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
  RowQ r;
  r.q.assign(n, 0);
  if (lo == hi) return r;
  const double scale = (double{hi} - lo) / 255.0;
  const double from_min = -128.0 - lo / scale, from_max = 127.0 - hi / scale;
  const double zp = (128.0 + std::fabs(lo / scale) < 127.0 + std::fabs(hi / scale)) ? from_min
                                                                                      : from_max;
  r.zero_point = zp <= -128 ? -128 : zp >= 127 ? 127 : static_cast<int32_t>(std::round(zp));
  r.scale = static_cast<float>(scale);
  const float inv = 1.0f / r.scale;
  for (size_t i = 0; i < n; ++i) {
    const float v = std::round(static_cast<float>(r.zero_point) + x[i] * inv);
    r.q[i] = static_cast<int32_t>(std::min(127.0f, std::max(-128.0f, v)));
  }
  return r;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_HYBRID_TEST_UTIL_H_
