// Fused activations (the `activation` field of many builtin params) as a
// clamp range, which is how the runtime applies them.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_ACTIVATION_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_ACTIVATION_H_

#include <cstdint>
#include <limits>

#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

template <typename T>
struct ActivationRange {
  T min;
  T max;
};

// Only the clamping activations (RELU, RELU6, RELU_N1_TO_1) restrict the
// range. Like upstream, every other value, including the non-clamping
// TANH/SIGN_BIT/SIGMOID, leaves the full range of T: upstream's fused kernels
// ignore them too, and matching its numerics matters more than rejecting them.
// Note that the full float range is [lowest, max], not [-inf, inf], so a fused
// op maps +-inf to +-FLT_MAX, again as upstream does.
template <typename T>
ActivationRange<T> GetActivationRange(TfLiteFusedActivation activation) {
  switch (activation) {
    case kTfLiteActRelu:
      return {T(0), std::numeric_limits<T>::max()};
    case kTfLiteActRelu6:
      return {T(0), T(6)};
    case kTfLiteActReluN1To1:
      return {T(-1), T(1)};
    default:
      return {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()};
  }
}

// Clamps `v` into `r`; NaN stays NaN (both comparisons are false).
template <typename T>
inline T ApplyRange(T v, ActivationRange<T> r) {
  return v < r.min ? r.min : (v > r.max ? r.max : v);
}

template <typename T>
void ApplyRangeInPlace(T* data, int64_t n, ActivationRange<T> r) {
  for (int64_t i = 0; i < n; ++i) data[i] = ApplyRange(data[i], r);
}

// out[row, c] = clamp(out[row, c] + bias[c]) for `rows` rows of `channels`;
// `bias` may be null.
void AddBiasAndClamp(float* out, int64_t rows, int channels, const float* bias,
                     ActivationRange<float> range);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_ACTIVATION_H_
