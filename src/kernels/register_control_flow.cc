#include "src/kernels/register_control_flow.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver.
void RegisterControlFlowKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinWhile, Register_WHILE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinIf, Register_IF(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloCase, Register_STABLEHLO_CASE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinCallOnce, Register_CALL_ONCE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinVarHandle, Register_VAR_HANDLE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinReadVariable, Register_READ_VARIABLE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinAssignVariable, Register_ASSIGN_VARIABLE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinDensify, Register_DENSIFY(), 1, 1);
}

}  // namespace tflite_c
