#include "src/core/operator_internal.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {

void RegisterMediaPipeKernels(MutableOpResolver* resolver) {
  const TfLiteOperator* const ops[] = {
      mediapipe::Register_CONVOLUTION_2D_TRANSPOSE_BIAS(),
      mediapipe::Register_MAX_POOLING_WITH_ARGMAX_2D(),
      mediapipe::Register_MAX_UNPOOLING_2D(),
  };
  for (const TfLiteOperator* op : ops) {
    if (op == nullptr) continue;
    const TfLiteRegistration reg = RegistrationFromOperator(op);
    resolver->AddCustom(TfLiteOperatorGetCustomName(op), &reg, 1, 1);
  }
}

}  // namespace tflite_c
