#include "src/kernels/internal/activation.h"

#include "src/kernels/internal/target_clones.h"

namespace tflite_c {
namespace kernels {
namespace internal {

namespace {

// clamp(v + bias) for n contiguous values, eight at a time: the same
// comparisons as ApplyRange, so NaN and -0 come out as they would one by one.
TFLITE_C_ALWAYS_INLINE void BiasClampSpan(float* out, const float* bias, int64_t n,
                                          ActivationRange<float> range) {
  const Float8 lo = Float8{} + range.min, hi = Float8{} + range.max;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    Float8 v = *reinterpret_cast<const Float8*>(out + i);
    if (bias != nullptr) v += *reinterpret_cast<const Float8*>(bias + i);
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    *reinterpret_cast<Float8*>(out + i) = v;
  }
  for (; i < n; ++i) out[i] = ApplyRange(bias != nullptr ? out[i] + bias[i] : out[i], range);
}

}  // namespace

TFLITE_C_TARGET_CLONES
void AddBiasAndClamp(float* out, int64_t rows, int channels, const float* bias,
                     ActivationRange<float> range) {
  if (bias == nullptr) {
    BiasClampSpan(out, nullptr, rows * channels, range);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) BiasClampSpan(out + r * channels, bias, channels, range);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
