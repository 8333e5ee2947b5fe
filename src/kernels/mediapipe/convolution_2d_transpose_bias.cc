// MediaPipe's "Convolution2DTransposeBias": a float32 transposed convolution
// whose weights and bias are inputs (older converters had no bias input on
// TRANSPOSE_CONV) and whose output size follows from the input size.
//
//   inputs:  input [N, H, W, I], filter [O, KH, KW, I], bias [O]
//   output:  [N, OH, OW, O], OH = H * stride (SAME) or (H - 1) * stride + KH
//            (VALID), likewise OW
//   options: a TfLiteTransposeConvParams struct (padding, stride_w, stride_h)
//
// Each input pixel scatters input . filter[o, ky, kx, :] to output pixel
// (y * stride + ky - pad_top, x * stride + kx - pad_left), where the padding
// is that of the forward convolution mapping the output back to the input.
#include <vector>

#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "Convolution2DTransposeBias";

using OpData = WindowOpData<TfLiteTransposeConvParams>;
constexpr auto Init = InitWindowOp<TfLiteTransposeConvParams>;
constexpr auto Free = FreeWindowOp<TfLiteTransposeConvParams>;

TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  auto* data = static_cast<OpData*>(TfLiteOpaqueNodeGetUserData(node));
  TF_LITE_OPAQUE_ENSURE(context, data != nullptr);
  const TfLiteTransposeConvParams& p = data->params;
  MEDIAPIPE_ENSURE_OK(CheckArity(context, node, kName, 3, 1));
  MEDIAPIPE_ENSURE_OK(
      CheckWindow(context, kName, p.padding, p.stride_height, p.stride_width));

  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* filter = TfLiteOpaqueNodeGetInput(context, node, 1);
  const TfLiteOpaqueTensor* bias = TfLiteOpaqueNodeGetInput(context, node, 2);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  Nhwc in, f;
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, input, kName, "input", &in));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, filter, kName, "filter", &f));
  TF_LITE_OPAQUE_ENSURE(context, bias != nullptr && output != nullptr);
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, input, kName, "input"));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, filter, kName, "filter"));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, bias, kName, "bias"));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, output, kName, "output"));
  // filter is [O, KH, KW, I]: Nhwc names them batch, height, width, channels.
  if (f.channels != in.channels) {
    TfLiteOpaqueContextReportError(context, "%s: filter has %d input channels, input has %d",
                                   kName, f.channels, in.channels);
    return kTfLiteError;
  }
  if (TfLiteOpaqueTensorNumDims(bias) != 1 || TfLiteOpaqueTensorDim(bias, 0) != f.batch) {
    TfLiteOpaqueContextReportError(context, "%s: bias must be 1-D with %d elements", kName,
                                   f.batch);
    return kTfLiteError;
  }

  MEDIAPIPE_ENSURE_OK(CheckWindowExtent(context, kName, in, p.stride_height, p.stride_width,
                                        f.height, f.width));
  Nhwc out;
  out.batch = in.batch;
  out.height = UpsampledSize(p.padding, in.height, p.stride_height, f.height);
  out.width = UpsampledSize(p.padding, in.width, p.stride_width, f.width);
  out.channels = f.batch;
  data->pad_top = PaddingBefore(out.height, in.height, p.stride_height, f.height);
  data->pad_left = PaddingBefore(out.width, in.width, p.stride_width, f.width);
  return ResizeNhwc(context, output, out);
}

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLiteTransposeConvParams& p = data->params;
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* filter = TfLiteOpaqueNodeGetInput(context, node, 1);
  const TfLiteOpaqueTensor* bias = TfLiteOpaqueNodeGetInput(context, node, 2);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  Nhwc in, f, out;
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, input, kName, "input", &in));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, filter, kName, "filter", &f));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, output, kName, "output", &out));
  const auto* x = static_cast<const float*>(TfLiteOpaqueTensorData(input));
  const auto* w = static_cast<const float*>(TfLiteOpaqueTensorData(filter));
  const auto* b = static_cast<const float*>(TfLiteOpaqueTensorData(bias));
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(output));
  if (out.size() == 0) return kTfLiteOk;
  TF_LITE_OPAQUE_ENSURE(context, x != nullptr && w != nullptr && b != nullptr && y != nullptr);

  // Start every output pixel at the bias, then scatter-add each input pixel.
  for (size_t i = 0; i < out.size(); i += out.channels) {
    for (int o = 0; o < out.channels; ++o) y[i + o] = b[o];
  }
  const int in_channels = in.channels;
  for (int n = 0; n < in.batch; ++n) {
    for (int iy = 0; iy < in.height; ++iy) {
      for (int ix = 0; ix < in.width; ++ix) {
        const float* pixel = x + in.Offset(n, iy, ix, 0);
        for (int ky = 0; ky < f.height; ++ky) {
          const int oy = iy * p.stride_height + ky - data->pad_top;
          if (oy < 0 || oy >= out.height) continue;
          for (int kx = 0; kx < f.width; ++kx) {
            const int ox = ix * p.stride_width + kx - data->pad_left;
            if (ox < 0 || ox >= out.width) continue;
            float* dst = y + out.Offset(n, oy, ox, 0);
            for (int o = 0; o < out.channels; ++o) {
              const float* wk = w + f.Offset(o, ky, kx, 0);
              float acc = 0.0f;
              for (int c = 0; c < in_channels; ++c) acc += pixel[c] * wk[c];
              dst[o] += acc;
            }
          }
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_CONVOLUTION_2D_TRANSPOSE_BIAS() {
  static const TfLiteOperator* op = MakeCustomOperator(kName, Init, Free, Prepare, Invoke);
  return op;
}

}  // namespace mediapipe
}  // namespace tflite_c
