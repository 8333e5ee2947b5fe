#include "src/kernels/register_elementwise.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's. As in register.cc, a kernel
// registers its op's whole range and its Prepare rejects, by name, element
// types it does not implement.
void RegisterElementwiseKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinBatchMatmul, Register_BATCH_MATMUL(), 1, 4);

  resolver->AddBuiltin(kTfLiteBuiltinAbs, Register_ABS(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinCeil, Register_CEIL(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinCos, Register_COS(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinExp, Register_EXP(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinFloor, Register_FLOOR(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinLog, Register_LOG(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinLogicalNot, Register_LOGICAL_NOT(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinNeg, Register_NEG(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRound, Register_ROUND(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRsqrt, Register_RSQRT(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinSign, Register_SIGN(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinSin, Register_SIN(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinSqrt, Register_SQRT(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinSquare, Register_SQUARE(), 1, 1);
}

}  // namespace tflite_c
