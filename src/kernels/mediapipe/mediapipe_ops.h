// MediaPipe's custom operators, built into the library and written against
// the opaque extension API only (see mediapipe_common.h).
//
// Upstream's builtin resolver does not list them, but upstream's C library
// runs the first three anyway: its default XNNPACK delegate implements
// Convolution2DTransposeBias, MaxPoolingWithArgmax2D and MaxUnpooling2D
// natively. The others are MediaPipe's own CPU kernels for the face
// landmark model with attention (Landmarks2TransformMatrix,
// TransformLandmarks, TransformTensorBilinear, versions 1 and 2, which
// MediaPipe registers by hand) and LiteRT's LiteRtMaxUnpooling2D. So that
// these models run here out of the box, the C API's default resolver
// includes them; an operator the application registers under the same name
// and version (TfLiteInterpreterOptionsAddOperator, ...AddCustomOp) takes
// precedence.
#ifndef TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_OPS_H_
#define TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_OPS_H_

#include <cstddef>

#include "src/core/op_resolver.h"
#include "tensorflow/lite/core/c/operator.h"

namespace tflite_c {

// Adds every operator below under its custom name and version.
void RegisterMediaPipeKernels(MutableOpResolver* resolver);

namespace mediapipe {

// Adds each non-null operator of ops[0..count) under its custom name and
// version (RegisterMediaPipeKernels, and a selective build's table).
void AddOperators(MutableOpResolver* resolver, const TfLiteOperator* const* ops, size_t count);

// Each returns an operator with static lifetime (never NULL unless out of
// memory at first use).
const TfLiteOperator* Register_CONVOLUTION_2D_TRANSPOSE_BIAS();
const TfLiteOperator* Register_MAX_POOLING_WITH_ARGMAX_2D();
const TfLiteOperator* Register_MAX_UNPOOLING_2D();
const TfLiteOperator* Register_LITERT_MAX_UNPOOLING_2D();
const TfLiteOperator* Register_LANDMARKS_TO_TRANSFORM_MATRIX(int version);  // 1 or 2
const TfLiteOperator* Register_TRANSFORM_LANDMARKS(int version);  // 1 or 2
const TfLiteOperator* Register_TRANSFORM_TENSOR_BILINEAR(int version);  // 1 or 2

}  // namespace mediapipe
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_OPS_H_
