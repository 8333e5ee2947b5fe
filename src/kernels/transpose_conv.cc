// TRANSPOSE_CONV, NHWC: inputs output_shape (INT32 [4]), filter
// [Cout, KH, KW, Cin], input [N, H, W, Cin] and an optional bias [Cout];
// output [N, OH, OW, Cout] as output_shape says (resized at Eval when
// output_shape is not constant). FLOAT32; quantized int8 (per-channel),
// uint8 and int16x8 (int32 or int64 bias), see quant_conv.h.
//
// Input pixel (y, x) spreads its values over output pixels
// (y * stride - pad + ky, x * stride - pad + kx). Each output value is
// gathered from the input pixels that reach it, which sums the same products
// as upstream's scatter (exactly, for the integer paths).
#include <vector>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/padding.h"
#include "src/kernels/internal/quant_conv.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "TRANSPOSE_CONV";

struct OpData {
  bool quantized = false;
  internal::QuantConvParams quant;
};

struct Geometry {
  int batches, in_h, in_w, in_c, out_h, out_w, out_c, filter_h, filter_w, pad_top, pad_left;
};

TfLiteStatus ResizeFromShapeTensor(TfLiteContext* context, const TfLiteTensor* shape,
                                   TfLiteTensor* output) {
  if (shape->type != kTfLiteInt32 || internal::NumElements(shape) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: output_shape must be an INT32 tensor of 4 elements", kOp);
    return kTfLiteError;
  }
  const int32_t* d = shape->data.i32;
  for (int i = 0; i < 4; ++i) {
    if (d[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: output_shape has a negative dimension %d", kOp, d[i]);
      return kTfLiteError;
    }
  }
  return internal::ResizeOutput(context, output, {d[0], d[1], d[2], d[3]});
}

TfLiteStatus GetGeometry(TfLiteContext* context, const TfLiteTransposeConvParams& p,
                         const TfLiteTensor* filter, const TfLiteTensor* input,
                         const TfLiteTensor* output, Geometry* g) {
  g->batches = internal::Dim(input, 0);
  g->in_h = internal::Dim(input, 1);
  g->in_w = internal::Dim(input, 2);
  g->in_c = internal::Dim(input, 3);
  g->out_c = internal::Dim(filter, 0);
  g->filter_h = internal::Dim(filter, 1);
  g->filter_w = internal::Dim(filter, 2);
  g->out_h = internal::Dim(output, 1);
  g->out_w = internal::Dim(output, 2);
  if (internal::Dim(filter, 3) != g->in_c || internal::Dim(output, 3) != g->out_c ||
      internal::Dim(output, 0) != g->batches) {
    TF_LITE_KERNEL_LOG(context, "%s: filter, input and output_shape do not agree", kOp);
    return kTfLiteError;
  }
  // Padding is that of a convolution from the output back to the input.
  internal::WindowAxis y, x;
  TF_LITE_ENSURE_OK(context, internal::ComputeWindowAxis(context, kOp, internal::kHeightAxis,
                                                         {p.padding, p.stride_height, 1},
                                                         g->out_h, g->filter_h, &y));
  TF_LITE_ENSURE_OK(context, internal::ComputeWindowAxis(context, kOp, internal::kWidthAxis,
                                                         {p.padding, p.stride_width, 1},
                                                         g->out_w, g->filter_w, &x));
  g->pad_top = y.pad_before;
  g->pad_left = x.pad_before;
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  // Checked again with the whole window once the output size is known.
  TF_LITE_ENSURE_OK(context, internal::CheckPositive(context, kOp, internal::kHeightAxis.stride,
                                                     params->stride_height));
  TF_LITE_ENSURE_OK(context, internal::CheckPositive(context, kOp, internal::kWidthAxis.stride,
                                                     params->stride_width));
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 4, 1));
  const TfLiteTensor* inputs[3];  // output_shape, filter, input
  for (int i = 0; i < 3; ++i) {
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &inputs[i]));
  }
  const TfLiteTensor *shape = inputs[0], *filter = inputs[1], *input = inputs[2];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 3);
  if (internal::NumDims(input) != 4 || internal::NumDims(filter) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: input and filter must be 4-D", kOp);
    return kTfLiteError;
  }
  const int out_c = internal::Dim(filter, 0);
  TF_LITE_ENSURE_OK(context, internal::CheckBiasSize(context, kOp, bias, out_c));
  data->quantized = internal::IsQuantizedType(input->type);
  if (data->quantized) {
    TF_LITE_ENSURE_OK(context, internal::PrepareQuantConv(
                                   context, kOp, internal::QuantConvKind::kTransposeConv, input,
                                   filter, bias, output, params->activation, 0, out_c,
                                   &data->quant));
  } else {
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "input", input, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context,
                      internal::ExpectType(context, kOp, "filter", filter, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "bias", bias, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context,
                      internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  }
  if (!internal::IsConstantOrPersistent(shape)) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeFromShapeTensor(context, shape, output);
}

// Sums acc(input_offset, filter_offset) over the (input pixel, tap) pairs
// reaching output pixel (b, oy, ox); offsets index channel 0 of each.
template <typename Fn>
void ForEachContribution(const Geometry& g, const TfLiteTransposeConvParams& p, int b, int oy,
                         int ox, Fn fn) {
  for (int ky = 0; ky < g.filter_h; ++ky) {
    const int ny = oy + g.pad_top - ky;
    if (ny < 0 || ny % p.stride_height != 0 || ny / p.stride_height >= g.in_h) continue;
    const int iy = ny / p.stride_height;
    for (int kx = 0; kx < g.filter_w; ++kx) {
      const int nx = ox + g.pad_left - kx;
      if (nx < 0 || nx % p.stride_width != 0 || nx / p.stride_width >= g.in_w) continue;
      const int ix = nx / p.stride_width;
      fn(((int64_t{b} * g.in_h + iy) * g.in_w + ix) * g.in_c,
         (int64_t{ky} * g.filter_w + kx) * g.in_c);
    }
  }
}

template <typename Out, typename Fn>
void ForEachOutput(const Geometry& g, Out* out, Fn value) {
  for (int b = 0; b < g.batches; ++b) {
    for (int oy = 0; oy < g.out_h; ++oy) {
      for (int ox = 0; ox < g.out_w; ++ox) {
        for (int oc = 0; oc < g.out_c; ++oc) *out++ = value(b, oy, ox, oc);
      }
    }
  }
}

template <typename T, typename Filter>
void EvalQuantized(const OpData& d, const Geometry& g, const TfLiteTransposeConvParams& p,
                   const TfLiteTensor* filter, const TfLiteTensor* input, const TfLiteTensor* bias,
                   TfLiteTensor* output) {
  using Acc = internal::QuantAcc<T>;
  const internal::QuantConvParams& q = d.quant;
  const T* in = static_cast<const T*>(input->data.data);
  const Filter* f = static_cast<const Filter*>(filter->data.data);
  const int64_t filter_stride = int64_t{g.filter_h} * g.filter_w * g.in_c;
  ForEachOutput(g, static_cast<T*>(output->data.data), [&](int b, int oy, int ox, int oc) {
    Acc acc = 0;
    ForEachContribution(g, p, b, oy, ox, [&](int64_t in_offset, int64_t tap_offset) {
      const Filter* w = f + oc * filter_stride + tap_offset;
      for (int ic = 0; ic < g.in_c; ++ic) {
        const Acc product = static_cast<Acc>(in[in_offset + ic] + q.input_offset) *
                            static_cast<Acc>(w[ic] + q.filter_offset);
        acc = internal::WrappingAdd(acc, product);
      }
    });
    acc = internal::WrappingAdd<Acc>(acc, static_cast<Acc>(internal::BiasAt(bias, oc)));
    return internal::Requantize<T>(acc, q, oc);
  });
}

void EvalFloat(const Geometry& g, const TfLiteTransposeConvParams& p, const TfLiteTensor* filter,
               const TfLiteTensor* input, const TfLiteTensor* bias, TfLiteTensor* output) {
  const auto range = internal::GetActivationRange<float>(p.activation);
  const int64_t filter_stride = int64_t{g.filter_h} * g.filter_w * g.in_c;
  ForEachOutput(g, output->data.f, [&](int b, int oy, int ox, int oc) {
    float acc = bias ? bias->data.f[oc] : 0.0f;
    ForEachContribution(g, p, b, oy, ox, [&](int64_t in_offset, int64_t tap_offset) {
      const float* w = filter->data.f + oc * filter_stride + tap_offset;
      for (int ic = 0; ic < g.in_c; ++ic) acc += input->data.f[in_offset + ic] * w[ic];
    });
    return internal::ApplyRange(acc, range);
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const auto& params = *static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  const TfLiteTensor* shape = internal::InputAt(context, node, 0);
  const TfLiteTensor* filter = internal::InputAt(context, node, 1);
  const TfLiteTensor* input = internal::InputAt(context, node, 2);
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 3);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, ResizeFromShapeTensor(context, shape, output));
  }
  Geometry g;
  TF_LITE_ENSURE_OK(context, GetGeometry(context, params, filter, input, output, &g));
  if (!data.quantized) {
    EvalFloat(g, params, filter, input, bias, output);
    return kTfLiteOk;
  }
  internal::DispatchQuantConvTypes(input->type, [&](auto t, auto f) {
    EvalQuantized<decltype(t), decltype(f)>(data, g, params, filter, input, bias, output);
  });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_TRANSPOSE_CONV() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
