#include "src/kernels/internal/activation.h"

namespace tflite_c {
namespace kernels {
namespace internal {

void AddBiasAndClamp(float* out, int64_t rows, int channels, const float* bias,
                     ActivationRange<float> range) {
  if (bias == nullptr) {
    ApplyRangeInPlace(out, rows * channels, range);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    float* row = out + r * channels;
    for (int c = 0; c < channels; ++c) row[c] = ApplyRange(row[c] + bias[c], range);
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
