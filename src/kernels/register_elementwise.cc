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
}

}  // namespace tflite_c
