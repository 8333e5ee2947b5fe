// MediaPipe's "MaxUnpooling2D": the inverse of MaxPoolingWithArgmax2D. Each
// input value goes back to the place its index names inside its window; every
// other output element is zero.
//
//   inputs:  values [N, H, W, C] float32, indices [N, H, W, C] (float32 or
//            int32; ky * filter_width + kx within the window)
//   output:  [N, OH, OW, C] float32, OH = H * stride (SAME) or
//            (H - 1) * stride + filter_height (VALID), likewise OW
//   options: a TfLitePoolParams struct (padding, strides, filter size)
//
// Where windows overlap, a later window overwrites an earlier one; an index
// that points outside the output (into padding) is dropped.
#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "MaxUnpooling2D";

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const PoolingOpData*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLitePoolParams& p = data->params;
  UnpoolingBuffers b;
  bool done;
  MEDIAPIPE_ENSURE_OK(BeginUnpooling(context, node, kName, &b, &done));
  if (done) return kTfLiteOk;
  const Nhwc &in = b.in, &out = b.out;
  const float* x = b.x;
  const void* index_data = b.indices;
  float* y = b.y;
  const bool int_indices = b.index_type == kTfLiteInt32;
  // Each side is below 2^24 (Prepare), their product may not fit in int.
  const int64_t window = static_cast<int64_t>(p.filter_height) * p.filter_width;

  for (int n = 0; n < in.batch; ++n) {
    for (int iy = 0; iy < in.height; ++iy) {
      for (int ix = 0; ix < in.width; ++ix) {
        for (int c = 0; c < in.channels; ++c) {
          const size_t at = in.Offset(n, iy, ix, c);
          // Checked before any float-to-int conversion (NaN or huge values).
          const float k_float = int_indices ? 0.0f : static_cast<const float*>(index_data)[at];
          if (!int_indices && !(k_float >= 0.0f && k_float < static_cast<float>(window))) continue;
          const int k = int_indices ? static_cast<const int32_t*>(index_data)[at]
                                    : static_cast<int>(k_float);
          if (k < 0 || k >= window) continue;
          const int oy = iy * p.stride_height - data->pad_top + k / p.filter_width;
          const int ox = ix * p.stride_width - data->pad_left + k % p.filter_width;
          if (oy < 0 || oy >= out.height || ox < 0 || ox >= out.width) continue;
          y[out.Offset(n, oy, ox, c)] = x[at];
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_MAX_UNPOOLING_2D() {
  return PoolingOperator<kName, PrepareUnpooling<kName, /*int_indices_only=*/false>, Invoke>();
}

}  // namespace mediapipe
}  // namespace tflite_c
