#include "src/kernels/internal/lut16.h"

#include <algorithm>
#include <cmath>

namespace tflite_c {
namespace kernels {
namespace internal {

void PopulateLut16Double(double input_scale, int32_t input_zero_point, double output_scale,
                         int32_t output_zero_point, double (*fn)(double), int16_t* lut) {
  const double in_lo = input_scale * (-32768 - input_zero_point);
  const double in_hi = input_scale * (32767 - input_zero_point);
  const double out_lo = output_scale * (-32768 - output_zero_point);
  const double out_hi = output_scale * (32767 - output_zero_point);
  constexpr int kSteps = kLut16Size - 1;
  const double step = (in_hi - in_lo) / kSteps;
  const double to_table = 65536.0 / (out_hi - out_lo);
  auto clamp = [](double v) { return std::min(32767.0, std::max(-32768.0, v)); };
  for (int i = 0; i < kSteps; ++i) {
    const double here = fn(in_lo + i * step);
    const double mid = fn(in_lo + i * step + step / 2);
    const double next = fn(in_lo + (i + 1) * step);
    const double sample = std::round(here * to_table);
    // What interpolating between this entry and the next would give at the
    // midpoint, against the true midpoint value.
    const double interpolated = std::round((next * to_table + std::round(here * to_table)) / 2);
    const double error = interpolated - std::round(mid * to_table);
    lut[i] = static_cast<int16_t>(clamp(sample - std::round(error / 2)));
  }
  lut[kSteps] = static_cast<int16_t>(clamp(std::round(fn(in_hi) * to_table)));
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
