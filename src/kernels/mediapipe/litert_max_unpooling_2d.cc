// LiteRT's "LiteRtMaxUnpooling2D" (TFLite's perception MaxUnpooling2D under
// the name LiteRT registers it with). Unlike MediaPipe's MaxUnpooling2D, an
// index is not a position inside the pooling window but a flat position in
// the output's [OH, OW, C] block of the same batch: (oy * OW + ox) * C + c,
// which is what TensorFlow's max_pool_with_argmax returns without the batch.
//
//   inputs:  values [N, H, W, C] float32, indices [N, H, W, C] int32
//   output:  [N, OH, OW, C] float32, OH = H * stride (SAME) or
//            (H - 1) * stride + filter_height (VALID), likewise OW
//   options: a TfLitePoolParams struct (padding, strides, filter size)
//
// Every value is written to the place its index names (a later input
// element overwrites an earlier one that names the same place); every other
// output element is zero. Indices outside [0, OH * OW * C) are dropped
// (upstream writes out of bounds for them).
#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "LiteRtMaxUnpooling2D";

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  UnpoolingBuffers b;
  bool done;
  MEDIAPIPE_ENSURE_OK(BeginUnpooling(context, node, kName, &b, &done));
  if (done) return kTfLiteOk;
  const auto* index = static_cast<const int32_t*>(b.indices);
  const size_t per_batch = static_cast<size_t>(b.out.height) * b.out.width * b.out.channels;
  const size_t per_input_batch = static_cast<size_t>(b.in.height) * b.in.width * b.in.channels;
  for (int n = 0; n < b.in.batch; ++n) {
    const size_t in_base = n * per_input_batch;
    float* y_batch = b.y + n * per_batch;
    for (size_t i = 0; i < per_input_batch; ++i) {
      const int32_t k = index[in_base + i];
      if (k < 0 || static_cast<size_t>(k) >= per_batch) continue;
      y_batch[k] = b.x[in_base + i];
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_LITERT_MAX_UNPOOLING_2D() {
  return PoolingOperator<kName, PrepareUnpooling<kName, /*int_indices_only=*/true>, Invoke>();
}

}  // namespace mediapipe
}  // namespace tflite_c
