#include "src/kernels/register_layout.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver; the
// kernels implement every type those versions introduce (except the hybrid
// and 4-bit variants noted in each kernel, which Prepare rejects by name).
void RegisterLayoutKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinPad, Register_PAD(), 1, 6);
  resolver->AddBuiltin(kTfLiteBuiltinPadv2, Register_PADV2(), 1, 6);
  resolver->AddBuiltin(kTfLiteBuiltinMaxPool2d, Register_MAX_POOL_2D(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinAveragePool2d, Register_AVERAGE_POOL_2D(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinConcatenation, Register_CONCATENATION(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinDequantize, Register_DEQUANTIZE(), 1, 9);
}

}  // namespace tflite_c
