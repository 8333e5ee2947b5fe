#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {

void RegisterMediaPipeKernels(MutableOpResolver* resolver) {
  const TfLiteOperator* const ops[] = {
      mediapipe::Register_CONVOLUTION_2D_TRANSPOSE_BIAS(),
      mediapipe::Register_MAX_POOLING_WITH_ARGMAX_2D(),
      mediapipe::Register_MAX_UNPOOLING_2D(),
      mediapipe::Register_LITERT_MAX_UNPOOLING_2D(),
      mediapipe::Register_LANDMARKS_TO_TRANSFORM_MATRIX_V1(),
      mediapipe::Register_LANDMARKS_TO_TRANSFORM_MATRIX_V2(),
      mediapipe::Register_TRANSFORM_LANDMARKS_V1(),
      mediapipe::Register_TRANSFORM_LANDMARKS_V2(),
      mediapipe::Register_TRANSFORM_TENSOR_BILINEAR_V1(),
      mediapipe::Register_TRANSFORM_TENSOR_BILINEAR_V2(),
  };
  mediapipe::AddOperators(resolver, ops, sizeof(ops) / sizeof(ops[0]));
}

}  // namespace tflite_c
