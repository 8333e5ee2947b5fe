// Conversion of quantized or half-precision tensors to float, shared by
// DEQUANTIZE and NumericVerify:
//   UINT8 / INT8 / INT16 / INT4: out = scale * (q - zero_point), per tensor
//     (computed in double, like upstream) or per channel along the
//     quantized dimension (computed in float, like upstream). INT4 constants
//     are packed two per byte, low nibble first.
//   FLOAT16: exact widening.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_DEQUANTIZE_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_DEQUANTIZE_UTIL_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Fails, reporting as "<op>: ...", unless `input`'s per-channel
// quantization (if any) fits its shape; per-channel INT16 is not supported.
TfLiteStatus CheckDequantizable(TfLiteContext* context, const char* op,
                                const TfLiteTensor* input);

// Writes the NumElements(input) float values of `input` (UINT8, INT8,
// INT16, INT4 or FLOAT16, checked by CheckDequantizable) to `out`.
void DequantizeToFloat(const TfLiteTensor* input, float* out);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_DEQUANTIZE_UTIL_H_
