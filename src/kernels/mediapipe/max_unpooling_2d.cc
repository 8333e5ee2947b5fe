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
#include <cstring>

#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "MaxUnpooling2D";

using OpData = WindowOpData<TfLitePoolParams>;
constexpr auto Init = InitWindowOp<TfLitePoolParams>;
constexpr auto Free = FreeWindowOp<TfLitePoolParams>;

TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  auto* data = static_cast<OpData*>(TfLiteOpaqueNodeGetUserData(node));
  TF_LITE_OPAQUE_ENSURE(context, data != nullptr);
  const TfLitePoolParams& p = data->params;
  PoolingTensors t;
  MEDIAPIPE_ENSURE_OK(PreparePooling(context, node, kName, p, /*unpooling=*/true,
                                     /*int_indices_only=*/false, &t));
  const Nhwc& in = t.in;
  Nhwc out = in;
  out.height = UpsampledSize(p.padding, in.height, p.stride_height, p.filter_height);
  out.width = UpsampledSize(p.padding, in.width, p.stride_width, p.filter_width);
  data->pad_top = PaddingBefore(out.height, in.height, p.stride_height, p.filter_height);
  data->pad_left = PaddingBefore(out.width, in.width, p.stride_width, p.filter_width);
  return ResizeNhwc(context, t.output, out);
}

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLitePoolParams& p = data->params;
  const TfLiteOpaqueTensor* values = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* indices = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  Nhwc in, out;
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, values, kName, "input", &in));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, output, kName, "output", &out));
  if (out.size() == 0) return kTfLiteOk;
  const auto* x = static_cast<const float*>(TfLiteOpaqueTensorData(values));
  const void* index_data = TfLiteOpaqueTensorData(indices);
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(output));
  TF_LITE_OPAQUE_ENSURE(context, y != nullptr);
  std::memset(y, 0, out.size() * sizeof(float));
  if (in.size() == 0) return kTfLiteOk;
  TF_LITE_OPAQUE_ENSURE(context, x != nullptr && index_data != nullptr);
  const bool int_indices = TfLiteOpaqueTensorType(indices) == kTfLiteInt32;
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
  static const TfLiteOperator* op = MakeCustomOperator(kName, Init, Free, Prepare, Invoke);
  return op;
}

}  // namespace mediapipe
}  // namespace tflite_c
