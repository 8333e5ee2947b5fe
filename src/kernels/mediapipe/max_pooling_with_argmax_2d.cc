// MediaPipe's "MaxPoolingWithArgmax2D": max pooling that also says where
// each maximum came from, so that MaxUnpooling2D can put it back.
//
//   input:   [N, H, W, C] float32
//   outputs: values [N, OH, OW, C] float32 and indices [N, OH, OW, C]
//            (float32 as the converter declares it, or int32)
//   options: a TfLitePoolParams struct (padding, strides, filter size,
//            fused activation)
//
// An index is the position of the maximum inside its window, row-major:
// ky * filter_width + kx, counted from the window's (possibly padded) origin.
// Ties keep the first maximum; padding never wins.
#include <limits>

#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "MaxPoolingWithArgmax2D";

TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  PoolingOpData* data;
  PoolingTensors t;
  MEDIAPIPE_ENSURE_OK(PreparePoolingNode(context, node, kName, /*unpooling=*/false,
                                         /*int_indices_only=*/false, &data, &t));
  const TfLitePoolParams& p = data->params;
  const Nhwc& in = t.in;
  Nhwc out = in;
  out.height = PooledSize(p.padding, in.height, p.stride_height, p.filter_height);
  out.width = PooledSize(p.padding, in.width, p.stride_width, p.filter_width);
  data->pad_top = PaddingBefore(in.height, out.height, p.stride_height, p.filter_height);
  data->pad_left = PaddingBefore(in.width, out.width, p.stride_width, p.filter_width);
  MEDIAPIPE_ENSURE_OK(ResizeNhwc(context, t.output, out));
  return ResizeNhwc(context, t.output_indices, out);
}

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const PoolingOpData*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLitePoolParams& p = data->params;
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* values = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TfLiteOpaqueTensor* indices = TfLiteOpaqueNodeGetOutput(context, node, 1);
  Nhwc in, out;
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, input, kName, "input", &in));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, values, kName, "output", &out));
  if (out.size() == 0) return kTfLiteOk;
  const auto* x = static_cast<const float*>(TfLiteOpaqueTensorData(input));
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(values));
  void* index_data = TfLiteOpaqueTensorData(indices);
  TF_LITE_OPAQUE_ENSURE(context, x != nullptr && y != nullptr && index_data != nullptr);
  const bool int_indices = TfLiteOpaqueTensorType(indices) == kTfLiteInt32;

  for (int n = 0; n < out.batch; ++n) {
    for (int oy = 0; oy < out.height; ++oy) {
      const int y0 = oy * p.stride_height - data->pad_top;
      for (int ox = 0; ox < out.width; ++ox) {
        const int x0 = ox * p.stride_width - data->pad_left;
        for (int c = 0; c < out.channels; ++c) {
          float best = std::numeric_limits<float>::lowest();
          int64_t best_index = 0;  // a window of sides < 2^24 may pass int
          bool found = false;
          for (int ky = 0; ky < p.filter_height; ++ky) {
            const int iy = y0 + ky;
            if (iy < 0 || iy >= in.height) continue;
            for (int kx = 0; kx < p.filter_width; ++kx) {
              const int ix = x0 + kx;
              if (ix < 0 || ix >= in.width) continue;
              const float v = x[in.Offset(n, iy, ix, c)];
              if (!found || v > best) {
                found = true;
                best = v;
                best_index = static_cast<int64_t>(ky) * p.filter_width + kx;
              }
            }
          }
          const size_t at = out.Offset(n, oy, ox, c);
          y[at] = Activate(p.activation, best);
          if (int_indices) {
            static_cast<int32_t*>(index_data)[at] = static_cast<int32_t>(best_index);
          } else {
            static_cast<float*>(index_data)[at] = static_cast<float>(best_index);
          }
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_MAX_POOLING_WITH_ARGMAX_2D() {
  return PoolingOperator<kName, Prepare, Invoke>();
}

}  // namespace mediapipe
}  // namespace tflite_c
