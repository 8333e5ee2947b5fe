#include "src/kernels/register_random.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's: version 1 only for each.
void RegisterRandomKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRandomStandardNormal, Register_RANDOM_STANDARD_NORMAL(), 1,
                       1);
  resolver->AddBuiltin(kTfLiteBuiltinMultinomial, Register_MULTINOMIAL(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloRngBitGenerator,
                       Register_STABLEHLO_RNG_BIT_GENERATOR(), 1, 1);
}

}  // namespace tflite_c
