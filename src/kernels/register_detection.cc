#include "src/kernels/register_detection.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// As TensorFlow Lite 2.19's builtin resolver: both NMS builtins have only
// version 1, and the custom op is registered by name, version 1.
void RegisterDetectionKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinNonMaxSuppressionV4, Register_NON_MAX_SUPPRESSION_V4(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinNonMaxSuppressionV5, Register_NON_MAX_SUPPRESSION_V5(), 1, 1);
  resolver->AddCustom("TFLite_Detection_PostProcess", Register_DETECTION_POSTPROCESS(), 1, 1);
}

}  // namespace tflite_c
