// 8-bit quantized (INT8, UINT8) elementwise activations computed through a
// 256-entry table built once in Prepare: out = quantize(fn(dequantize(in))),
// as upstream's default kernels do for LOGISTIC and TANH.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_LUT8_OP_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_LUT8_OP_H_

#include <cstdint>

#include "src/kernels/internal/quant_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct Lut8Data {
  bool active = false;  // the input is INT8 or UINT8
  int8_t lut_int8[kLut8Size];
  uint8_t lut_uint8[kLut8Size];
};

// When input 0 of `node` is INT8 or UINT8: checks one input, one output of
// the same type, both quantized (and the output scale equal to
// `output_scale` unless that is 0), fills the table and sizes the output.
// Otherwise leaves `data` inactive and returns kTfLiteOk without checks.
TfLiteStatus PrepareLut8(TfLiteContext* context, TfLiteNode* node, const char* op,
                         float (*fn)(float), float output_scale, Lut8Data* data);

// Applies the table prepared by PrepareLut8 (which must be active).
void EvalLut8(const TfLiteTensor* input, TfLiteTensor* output, const Lut8Data& data);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_LUT8_OP_H_
