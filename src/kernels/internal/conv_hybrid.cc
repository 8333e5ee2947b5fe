#include "src/kernels/internal/conv_hybrid.h"

#include <algorithm>
#include <limits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_im2col.h"
#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/qgemm.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

void PackFilter(HybridConvData* d, const TfLiteTensor* filter, int64_t count) {
  PackFilterInt16(filter, count, /*offset=*/0, &d->filter);
}

int64_t FilterCount(const HybridConvData& d, const ConvGeometry& g) {
  return d.depthwise ? int64_t{g.filter_h} * g.filter_w * d.out_c : int64_t{d.out_c} * d.patch_cols;
}

// Quantizes each batch of the input and records its scale and zero point.
void QuantizeInput(HybridConvData* d, const ConvGeometry& g, const float* in) {
  const int64_t per_batch = int64_t{g.in_h} * g.in_w * g.in_c;
  for (int b = 0; b < g.batches; ++b) {
    const float* x = in + b * per_batch;
    int8_t* q = d->qinput.data() + b * per_batch;
    if (d->asymmetric) {
      QuantizeRowAsymmetric(x, static_cast<int>(per_batch), q, &d->batch_scales[b],
                            &d->batch_offsets[b]);
    } else {
      QuantizeRowSymmetric(x, static_cast<int>(per_batch), q, &d->batch_scales[b]);
      d->batch_offsets[b] = 0;
    }
  }
}

// out[c] = clamp(float(sums[c]) * channel_scale[c] * input_scale + bias[c]),
// the scales applied as `scaling` says.
inline void Dequantize(const int32_t* sums, int n, const float* channel_scales, float input_scale,
                       HybridScaling scaling, const float* bias, ActivationRange<float> range,
                       float* out) {
  for (int c = 0; c < n; ++c) {
    const float acc = static_cast<float>(sums[c]);
    float v;
    switch (scaling) {
      case HybridScaling::kChannelFirst: v = acc * channel_scales[c] * input_scale; break;
      case HybridScaling::kInputFirst: v = acc * input_scale * channel_scales[c]; break;
      default: v = acc * (channel_scales[c] * input_scale);
    }
    if (bias != nullptr) v += bias[c];
    out[c] = std::min(range.max, std::max(range.min, v));
  }
}

void EvalConv(TfLiteContext* context, HybridConvData* d, const ConvGeometry& g, const float* bias,
              float* out) {
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  const int64_t pixels_per_batch = int64_t{g.out_h} * g.out_w;
  const int out_c = d->out_c;
  const int group_out_c = out_c / d->groups;
  const auto range = GetActivationRange<float>(d->activation);
  const int64_t tile_rows = d->tiling.tile_rows;
  (void)context;
  ForEachConvTile(d->tiling.threads, pixels, tile_rows, [&](int64_t w, int64_t first,
                                                            int64_t count) {
    int16_t* patches = d->patches.data() + w * tile_rows * d->patch_cols;
    int32_t* sums = d->sums.data() + w * tile_rows * group_out_c;
    for (int group = 0; group < d->groups; ++group) {
      // Patches hold q - zero point of each batch's quantized input.
      Im2ColWidened(g, d->window, d->groups, d->patch_cols, d->qinput.data(), group, first, count,
                    [&](int64_t b) { return -d->batch_offsets[b]; }, patches);
      const int oc0 = group * group_out_c;
      QGemmS16(patches, count, d->patch_cols, d->filter.data() + int64_t{oc0} * d->patch_cols,
               group_out_c, d->patch_cols, d->patch_cols, sums, group_out_c);
      for (int64_t r = 0; r < count; ++r) {
        const int64_t b = (first + r) / pixels_per_batch;
        Dequantize(sums + r * group_out_c, group_out_c, d->channel_scales.data() + oc0,
                   d->batch_scales[b], d->scaling, bias == nullptr ? nullptr : bias + oc0, range,
                   out + (first + r) * out_c + oc0);
      }
    }
  });
}

void EvalDepthwise(TfLiteContext* context, HybridConvData* d, const ConvGeometry& g,
                   const float* bias, float* out) {
  const int out_c = d->out_c;
  const int m = d->multiplier;
  const auto range = GetActivationRange<float>(d->activation);
  ForOutputRows(context, g, int64_t{g.out_w} * out_c * g.filter_h * g.filter_w,
                [&](int64_t begin, int64_t end) {
    std::vector<int32_t> sums(static_cast<size_t>(out_c));
    int32_t* acc = sums.data();
    DepthwiseTapScratch scratch;
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / g.out_h;
      const int32_t offset = -d->batch_offsets[b];
      for (int x = 0; x < g.out_w; ++x) {
        DepthwisePixelSums(g, d->window, d->qinput.data(), d->filter.data(), out_c, m, offset, b,
                           static_cast<int>(row % g.out_h), x, &scratch, acc);
        Dequantize(acc, out_c, d->channel_scales.data(), d->batch_scales[b], d->scaling, bias, range,
                   out + (row * g.out_w + x) * out_c);
      }
    }
  });
}

// The filter, bias and output types: INT8 (or, for CONV_2D, INT4) filter,
// FLOAT32 bias and output.
TfLiteStatus CheckHybridTypes(TfLiteContext* context, const char* op, bool depthwise,
                              const ConvTensors& t) {
  const TfLiteTensor* filter = t.filter;
  const bool int4_ok = !depthwise;
  if (filter->type != kTfLiteInt8 && !(int4_ok && filter->type == kTfLiteInt4)) {
    return UnsupportedType(context, op, "filter (with FLOAT32 input)", filter->type);
  }
  TF_LITE_ENSURE_OK(context, ExpectType(context, op, "bias (with FLOAT32 input)", t.bias,
                                        kTfLiteFloat32));
  return ExpectType(context, op, "output (with FLOAT32 input)", t.output, kTfLiteFloat32);
}

// The filter's scales: one, or one per output channel along `channel_dim`,
// all positive; zero points 0.
TfLiteStatus CheckFilterScales(TfLiteContext* context, const char* op, const TfLiteTensor* filter,
                               int channel_dim, int out_c, const TfLiteAffineQuantization** out) {
  const TfLiteAffineQuantization* aq = HybridWeightQuantization(filter);
  if (aq == nullptr || aq->scale == nullptr || aq->scale->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %s filter with FLOAT32 input needs quantization scales", op,
                       TfLiteTypeGetName(filter->type));
    return kTfLiteError;
  }
  const int scale_count = aq->scale->size;
  if (scale_count != 1 && (scale_count != out_c || aq->quantized_dimension != channel_dim)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: filter has %d quantization scales (dimension %d), expected 1 or %d "
                       "(one per output channel, dimension %d)",
                       op, scale_count, aq->quantized_dimension, out_c, channel_dim);
    return kTfLiteError;
  }
  for (int i = 0; i < scale_count; ++i) {
    if (!(aq->scale->data[i] > 0.0f)) {
      TF_LITE_KERNEL_LOG(context, "%s: filter quantization scale %d is %g (must be positive)", op,
                         i, static_cast<double>(aq->scale->data[i]));
      return kTfLiteError;
    }
  }
  if (!ZeroPointsAreZero(*aq)) {
    TF_LITE_KERNEL_LOG(context, "%s: hybrid filters with a nonzero zero point are not supported",
                       op);
    return kTfLiteError;
  }
  *out = aq;
  return kTfLiteOk;
}

// The input quantization (symmetric or asymmetric), the order of the scales
// and the scale of each output channel, as upstream: CONV_2D takes the
// symmetric per-tensor route unless the scales differ or the convolution is
// grouped; DEPTHWISE_CONV_2D always the asymmetric per-channel one.
void ChooseScaling(const TfLiteAffineQuantization& aq, HybridConvData* d) {
  const int scale_count = aq.scale->size;
  bool scales_differ = false;
  for (int i = 1; i < scale_count; ++i) scales_differ |= aq.scale->data[i] != aq.scale->data[0];
  d->asymmetric = d->depthwise || scales_differ || d->groups != 1;
  d->scaling = d->depthwise      ? HybridScaling::kInputFirst
               : d->groups != 1 ? HybridScaling::kChannelFirst
                                : HybridScaling::kProduct;
  if (scales_differ) {
    d->channel_scales.assign(aq.scale->data, aq.scale->data + scale_count);
  } else {
    d->channel_scales.assign(static_cast<size_t>(d->out_c), aq.scale->data[0]);
  }
}

// Packs a constant filter now; a variable one must be INT8 (packed at Eval).
TfLiteStatus PackConstantFilter(TfLiteContext* context, const char* op, const TfLiteTensor* filter,
                                const ConvGeometry& g, HybridConvData* d) {
  const int64_t count = FilterCount(*d, g);
  const int64_t needed = filter->type == kTfLiteInt4 ? (count + 1) / 2 : count;
  d->filter_packed = false;
  if (IsConstantOrPersistent(filter)) {
    if (filter->data.raw == nullptr || static_cast<int64_t>(filter->bytes) < needed) {
      TF_LITE_KERNEL_LOG(context, "%s: filter holds %zu bytes, expected %lld", op, filter->bytes,
                         static_cast<long long>(needed));
      return kTfLiteError;
    }
    PackFilter(d, filter, count);
    d->filter_packed = true;
  } else if (filter->type == kTfLiteInt4) {
    TF_LITE_KERNEL_LOG(context, "%s: INT4 filters must be constant", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The quantized input, its per-batch scales and zero points, and for CONV_2D
// the tiles and their patches and sums.
TfLiteStatus SizeScratch(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                         const ConvGeometry& g, HybridConvData* d) {
  if (int64_t{g.in_h} * g.in_w * g.in_c > std::numeric_limits<int>::max()) {
    TF_LITE_KERNEL_LOG(context, "%s: hybrid input batches of more than 2^31 values are not supported",
                       op);
    return kTfLiteError;
  }
  d->qinput.assign(static_cast<size_t>(NumElements(input)), 0);
  d->batch_scales.assign(static_cast<size_t>(g.batches), 1.0f);
  d->batch_offsets.assign(static_cast<size_t>(g.batches), 0);
  d->patches.clear();
  d->sums.clear();
  d->tiling = ConvTiling{};
  if (d->depthwise) return kTfLiteOk;
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  d->tiling = PlanConvTiles(context, pixels, d->patch_cols, d->out_c, kInt16TileValues);
  const int64_t rows = d->tiling.threads * d->tiling.tile_rows;
  d->patches.assign(static_cast<size_t>(rows * d->patch_cols), 0);
  d->sums.assign(static_cast<size_t>(rows * (d->out_c / d->groups)), 0);
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus PrepareHybridConv(TfLiteContext* context, const char* op, bool depthwise,
                               const ConvTensors& t, const ConvGeometry& g,
                               const ConvWindowParams& window, TfLiteFusedActivation activation,
                               int out_c, int groups, HybridConvData* d) {
  TF_LITE_ENSURE_OK(context, CheckHybridTypes(context, op, depthwise, t));
  const TfLiteAffineQuantization* aq = nullptr;
  TF_LITE_ENSURE_OK(context, CheckFilterScales(context, op, t.filter, depthwise ? 3 : 0, out_c,
                                               &aq));
  d->depthwise = depthwise;
  d->out_c = out_c;
  d->groups = depthwise ? 1 : groups;
  d->multiplier = depthwise ? out_c / g.in_c : 1;
  d->window = window;
  d->activation = activation;
  d->patch_cols = depthwise ? 0 : int64_t{g.filter_h} * g.filter_w * (g.in_c / d->groups);
  // Bounds the int32 sums (|filter * (q - zp)| <= 128 * 255 per tap).
  const int64_t depth = depthwise ? int64_t{g.filter_h} * g.filter_w : d->patch_cols;
  if (depth > kMaxQGemmDepth) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: hybrid filters deeper than %lld values (here %lld) are not supported",
                       op, static_cast<long long>(kMaxQGemmDepth), static_cast<long long>(depth));
    return kTfLiteError;
  }
  ChooseScaling(*aq, d);
  TF_LITE_ENSURE_OK(context, PackConstantFilter(context, op, t.filter, g, d));
  return SizeScratch(context, op, t.input, g, d);
}

void EvalHybridConv(TfLiteContext* context, HybridConvData* d, const ConvGeometry& g,
                    const TfLiteTensor* input, const TfLiteTensor* filter,
                    const TfLiteTensor* bias, TfLiteTensor* output) {
  if (int64_t{g.batches} * g.out_h * g.out_w == 0) return;
  if (!d->filter_packed) PackFilter(d, filter, FilterCount(*d, g));
  QuantizeInput(d, g, input->data.f);
  const float* b = bias == nullptr ? nullptr : bias->data.f;
  if (d->depthwise) {
    EvalDepthwise(context, d, g, b, output->data.f);
  } else {
    EvalConv(context, d, g, b, output->data.f);
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
