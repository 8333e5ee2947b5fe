#include "src/kernels/internal/quant_conv.h"

#include <cmath>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

TfLiteStatus CheckTypes(TfLiteContext* context, const char* op, QuantConvKind kind,
                        const TfLiteTensor* input, const TfLiteTensor* filter,
                        const TfLiteTensor* bias, const TfLiteTensor* output) {
  const TfLiteType in = input->type;
  const TfLiteType filter_type = in == kTfLiteUInt8 ? kTfLiteUInt8 : kTfLiteInt8;
  TF_LITE_ENSURE_OK(context, ExpectType(context, op, "filter", filter, filter_type));
  // FULLY_CONNECTED may widen int8 activations to an int16 output.
  const bool widened = kind == QuantConvKind::kFullyConnected && in == kTfLiteInt8 &&
                       output->type == kTfLiteInt16;
  if (output->type != in && !widened) {
    return TypeMismatch(context, op, "input", in, "output", output->type);
  }
  if (bias != nullptr) {
    const bool ok =
        bias->type == kTfLiteInt32 || (in == kTfLiteInt16 && bias->type == kTfLiteInt64);
    if (!ok) return UnsupportedType(context, op, "bias", bias->type);
  }
  if (in == kTfLiteInt16 && (input->params.zero_point != 0 || output->params.zero_point != 0)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: int16 input and output must be symmetric (zero points 0), got %d "
                       "and %d",
                       op, input->params.zero_point, output->params.zero_point);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The per-tensor multiplier upstream computes in float, after checking that
// the bias scale matches input scale x filter scale.
TfLiteStatus LegacyMultiplier(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                              const TfLiteTensor* filter, const TfLiteTensor* bias,
                              const TfLiteTensor* output, QuantizedMultiplier* m) {
  const double product_scale = static_cast<double>(input->params.scale * filter->params.scale);
  const double output_scale = static_cast<double>(output->params.scale);
  if (bias != nullptr) {
    const double diff = std::abs(product_scale - static_cast<double>(bias->params.scale));
    if (!(diff / output_scale <= 0.02)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: bias scale %g does not match input scale x filter scale %g", op,
                         bias->params.scale, product_scale);
      return kTfLiteError;
    }
  }
  *m = QuantizeMultiplier(product_scale / output_scale);
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus PrepareQuantConv(TfLiteContext* context, const char* op, QuantConvKind kind,
                              const TfLiteTensor* input, const TfLiteTensor* filter,
                              const TfLiteTensor* bias, const TfLiteTensor* output,
                              TfLiteFusedActivation activation, int channel_dim, int channels,
                              QuantConvParams* q) {
  TF_LITE_ENSURE_OK(context, CheckTypes(context, op, kind, input, filter, bias, output));
  QuantParams unused;
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input", input, &unused));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "filter", filter, &unused));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "output", output, &unused));
  const auto* affine = static_cast<const TfLiteAffineQuantization*>(filter->quantization.params);
  const int scales = affine->scale->size;
  const bool per_channel = scales > 1;
  if (per_channel && (input->type == kTfLiteUInt8 || scales != channels ||
                      affine->quantized_dimension != channel_dim)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: per-channel filter quantization needs int8/int16 activations and %d "
                       "scales along dimension %d, got %d along %d",
                       op, channels, channel_dim, scales, affine->quantized_dimension);
    return kTfLiteError;
  }
  const bool conv_like = kind != QuantConvKind::kFullyConnected;
  const bool per_channel_math = conv_like ? input->type != kTfLiteUInt8 : per_channel;
  if (conv_like && per_channel_math) {
    for (int i = 0; i < affine->zero_point->size; ++i) {
      if (affine->zero_point->data[i] != 0) {
        TF_LITE_KERNEL_LOG(context, "%s: filter zero points must be 0, got %d at %d", op,
                           affine->zero_point->data[i], i);
        return kTfLiteError;
      }
    }
  }

  q->input_offset = -input->params.zero_point;
  q->output_offset = output->params.zero_point;
  // int8 GEMMs of upstream's x86 build go through ruy (half-up rounding):
  // per-channel CONV_2D, and FULLY_CONNECTED whether per-channel or
  // per-tensor (the DTLN golden, an LSTM followed by a per-tensor int8
  // FULLY_CONNECTED, is bit-exact only with this).
  q->round_half_up = input->type == kTfLiteInt8 &&
                     ((kind == QuantConvKind::kConv && per_channel_math) ||
                      kind == QuantConvKind::kFullyConnected);
  q->filter_offset = per_channel_math ? 0 : -filter->params.zero_point;
  q->channel_multipliers.assign(static_cast<size_t>(channels), QuantizedMultiplier());
  if (per_channel_math) {
    for (int c = 0; c < channels; ++c) {
      const double scale = affine->scale->data[per_channel ? c : 0];
      q->channel_multipliers[c] = QuantizeMultiplier(static_cast<double>(input->params.scale) *
                                                     scale /
                                                     static_cast<double>(output->params.scale));
    }
  } else {
    QuantizedMultiplier m;
    TF_LITE_ENSURE_OK(context, LegacyMultiplier(context, op, input, filter, bias, output, &m));
    q->channel_multipliers.assign(static_cast<size_t>(channels), m);
  }
  // A rescale by 2^31 or more shifts every accumulator out of 32 bits
  // (upstream's kernels overflow there); no trained model comes close.
  for (int c = 0; c < channels; ++c) {
    if (q->channel_multipliers[c].shift > 31) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: input scale * filter scale / output scale is 2^%d or more at "
                         "channel %d",
                         op, q->channel_multipliers[c].shift - 1, c);
      return kTfLiteError;
    }
  }
  return QuantizedActivationRange(context, op, activation, output, &q->act_min, &q->act_max);
}

TfLiteStatus PrepareConvQuantization(TfLiteContext* context, const char* op, QuantConvKind kind,
                                     const ConvTensors& t, TfLiteFusedActivation activation,
                                     int channel_dim, int channels, bool* quantized,
                                     QuantConvParams* q) {
  *quantized = IsQuantizedType(t.input->type);
  if (!*quantized) return kTfLiteOk;
  return PrepareQuantConv(context, op, kind, t.input, t.filter, t.bias, t.output, activation,
                          channel_dim, channels, q);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
