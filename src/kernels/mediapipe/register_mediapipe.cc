#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {

void RegisterMediaPipeKernels(MutableOpResolver* resolver) {
  const TfLiteOperator* const ops[] = {
      mediapipe::Register_CONVOLUTION_2D_TRANSPOSE_BIAS(),
      mediapipe::Register_MAX_POOLING_WITH_ARGMAX_2D(),
      mediapipe::Register_MAX_UNPOOLING_2D(),
      mediapipe::Register_LITERT_MAX_UNPOOLING_2D(),
      mediapipe::Register_LANDMARKS_TO_TRANSFORM_MATRIX(1),
      mediapipe::Register_LANDMARKS_TO_TRANSFORM_MATRIX(2),
      mediapipe::Register_TRANSFORM_LANDMARKS(1),
      mediapipe::Register_TRANSFORM_LANDMARKS(2),
      mediapipe::Register_TRANSFORM_TENSOR_BILINEAR(1),
      mediapipe::Register_TRANSFORM_TENSOR_BILINEAR(2),
  };
  mediapipe::AddOperators(resolver, ops, sizeof(ops) / sizeof(ops[0]));
}

}  // namespace tflite_c
