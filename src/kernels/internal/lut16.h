// The double-precision variant of PopulateLut16 (quant_math.h): upstream
// builds INT16 SOFTMAX's exp and 1/(1+x) tables in double, from raw scales
// and zero points, and matching its results bit for bit needs the same
// arithmetic. Look entries up with LookupLut (quant_math.h).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_LUT16_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_LUT16_H_

#include <cstdint>

#include "src/kernels/internal/quant_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Table (kLut16Size entries) of fn over the int16 input range (real = scale *
// (q - zero point)) producing int16 outputs of the given quantization.
void PopulateLut16Double(double input_scale, int32_t input_zero_point, double output_scale,
                         int32_t output_zero_point, double (*fn)(double), int16_t* lut);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_LUT16_H_
