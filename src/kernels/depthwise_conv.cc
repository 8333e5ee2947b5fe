// DEPTHWISE_CONV_2D, NHWC: input [N, H, W, Cin], filter [1, KH, KW, Cout],
// optional bias [Cout], output [N, OH, OW, Cout] with Cout = Cin * multiplier.
// Output channel c reads input channel c / multiplier. FLOAT32.
//
// The multiplier is derived from the shapes; params->depth_multiplier is
// redundant and, like upstream, not relied upon.
#include <cstring>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DEPTHWISE_CONV_2D";

struct OpData {
  internal::ConvGeometry g;
  int out_c;
  int multiplier;
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  if (params == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: missing params", kOp);
    return kTfLiteError;
  }
  internal::ConvTensors t;
  TF_LITE_ENSURE_OK(context, internal::GetConvTensors(context, node, kOp, &t));
  const internal::ConvWindowParams window{params->padding, params->stride_height,
                                          params->stride_width, params->dilation_height_factor,
                                          params->dilation_width_factor};
  internal::ConvGeometry& g = data->g;
  TF_LITE_ENSURE_OK(context, internal::ComputeConvGeometry(context, kOp, t, window, &g));

  data->out_c = internal::Dim(t.filter, 3);
  if (internal::Dim(t.filter, 0) != 1 || data->out_c <= 0 || data->out_c % g.in_c != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: filter [%d, %d, %d, %d] does not fit %d input channels (expected "
                       "[1, KH, KW, a multiple of them])",
                       kOp, internal::Dim(t.filter, 0), g.filter_h, g.filter_w, data->out_c,
                       g.in_c);
    return kTfLiteError;
  }
  data->multiplier = data->out_c / g.in_c;
  TF_LITE_ENSURE_OK(context, internal::CheckBiasSize(context, kOp, t.bias, data->out_c));
  return internal::ResizeOutput(context, t.output, {g.batches, g.out_h, g.out_w, data->out_c});
}

// Accumulates one filter tap into one output pixel's channels.
inline void AccumulateTap(const float* __restrict in, const float* __restrict taps,
                          float* __restrict out, int in_c, int multiplier) {
  if (multiplier == 1) {
    for (int c = 0; c < in_c; ++c) out[c] += in[c] * taps[c];
    return;
  }
  for (int c = 0; c < in_c; ++c) {
    const float v = in[c];
    const float* t = taps + c * multiplier;
    float* o = out + c * multiplier;
    for (int m = 0; m < multiplier; ++m) o[m] += v * t[m];
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const auto& p = *static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  const internal::ConvGeometry& g = data.g;
  const int out_c = data.out_c;
  const float* input = internal::InputAt(context, node, 0)->data.f;
  const float* filter = internal::InputAt(context, node, 1)->data.f;
  const TfLiteTensor* bias_tensor = internal::GetOptionalInput(context, node, 2);
  const float* bias = bias_tensor ? bias_tensor->data.f : nullptr;
  float* output = internal::OutputAt(context, node, 0)->data.f;
  const auto range = internal::GetActivationRange<float>(p.activation);

  // One output row (fixed batch and y) per work item.
  auto run_rows = [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / g.out_h;
      const int y = static_cast<int>(row % g.out_h);
      float* out_row = output + row * g.out_w * out_c;
      std::memset(out_row, 0, sizeof(float) * g.out_w * out_c);
      const int y0 = y * p.stride_height - g.pad_top;
      for (int x = 0; x < g.out_w; ++x) {
        float* out = out_row + int64_t{x} * out_c;
        const int x0 = x * p.stride_width - g.pad_left;
        for (int ky = 0; ky < g.filter_h; ++ky) {
          const int iy = y0 + ky * p.dilation_height_factor;
          if (iy < 0 || iy >= g.in_h) continue;
          for (int kx = 0; kx < g.filter_w; ++kx) {
            const int ix = x0 + kx * p.dilation_width_factor;
            if (ix < 0 || ix >= g.in_w) continue;
            const float* in = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c;
            const float* taps = filter + (int64_t{ky} * g.filter_w + kx) * out_c;
            AccumulateTap(in, taps, out, g.in_c, data.multiplier);
          }
        }
      }
      internal::AddBiasAndClamp(out_row, g.out_w, out_c, bias, range);
    }
  };
  const int64_t rows = int64_t{g.batches} * g.out_h;
  const int64_t work = rows * g.out_w * out_c * g.filter_h * g.filter_w;
  internal::ParallelFor(internal::ThreadsForWork(internal::KernelThreads(context), work), rows,
                        run_rows);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_DEPTHWISE_CONV_2D() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
