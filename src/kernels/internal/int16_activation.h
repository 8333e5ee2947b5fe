// INT16 LOGISTIC and TANH: symmetric int16 tensors (zero points 0) with an
// output scale of 2^-15, as upstream requires. The value is computed in
// double precision and rounded to nearest: out = round(fn(in * scale) *
// 32768), clamped to the type. Upstream evaluates a 256-entry interpolated
// table instead, so results may differ from it by a unit or two in the last
// place (out of 32768).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_INT16_ACTIVATION_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_INT16_ACTIVATION_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct Int16ActivationData {
  bool active = false;  // the input is INT16
  double input_scale = 0;
};

// When input 0 of `node` is INT16: checks arity, types and quantization and
// sizes the output. Otherwise leaves `data` inactive and returns kTfLiteOk.
TfLiteStatus PrepareInt16Activation(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    Int16ActivationData* data);

void EvalInt16Activation(const TfLiteTensor* input, TfLiteTensor* output,
                         const Int16ActivationData& data, double (*fn)(double));

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_INT16_ACTIVATION_H_
