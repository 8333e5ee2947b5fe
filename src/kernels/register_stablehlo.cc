#include "src/kernels/register_stablehlo.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's: version 1 only for each.
void RegisterStablehloKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinStablehloAdd, Register_STABLEHLO_ADD(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloMultiply, Register_STABLEHLO_MULTIPLY(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloMaximum, Register_STABLEHLO_MAXIMUM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloMinimum, Register_STABLEHLO_MINIMUM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloAnd, Register_STABLEHLO_AND(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloShiftLeft, Register_STABLEHLO_SHIFT_LEFT(), 1, 1);
}

}  // namespace tflite_c
