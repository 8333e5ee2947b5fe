// DEPTHWISE_CONV_2D, NHWC: input [N, H, W, Cin], filter [1, KH, KW, Cout],
// optional bias [Cout], output [N, OH, OW, Cout] with Cout = Cin * multiplier.
// Output channel c reads input channel c / multiplier. FLOAT32; quantized
// int8 (per-channel), uint8 and int16x8, see quant_conv.h; FLOAT32 with an
// INT8 filter ("hybrid"), see conv_hybrid.h.
//
// The multiplier is derived from the shapes; params->depth_multiplier is
// redundant and, like upstream, not relied upon.
//
// 8-bit inputs accumulate a whole output pixel at once, channel-innermost
// like the float path, with the filter packed once as int16 (value plus
// filter offset); int16 activations (int64 sums) take the direct path.
#include <algorithm>
#include <cstring>
#include <vector>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_hybrid.h"
#include "src/kernels/internal/conv_im2col.h"
#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/qgemm.h"
#include "src/kernels/internal/quant_conv.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/target_clones.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DEPTHWISE_CONV_2D";

// The kernel a node runs, chosen in Prepare.
enum class Path {
  kFloat,
  kQuant8,       // 8-bit activations: int32 sums with the packed int16 filter
  kQuantDirect,  // int16 activations (int64 sums)
  kHybrid,       // FLOAT32 input, INT8 filter (conv_hybrid.h)
};

struct OpData {
  Path path = Path::kFloat;
  internal::ConvGeometry g;
  int out_c;
  int multiplier;
  internal::ConvWindowParams window;
  internal::QuantConvParams quant;
  // kQuant8: filter + filter offset, [KH * KW, Cout], packed in Prepare
  // when the filter is constant, else at every Eval.
  bool qfilter_packed = false;
  internal::ScratchVector<int16_t> qfilter;
  internal::RequantizeTable requant;  // filled in Prepare (bias constant) or Eval
  bool requant_ready = false;
  internal::HybridConvData hybrid_data;
};

void PackQuantizedFilter(OpData* d, const TfLiteTensor* filter) {
  internal::PackFilterInt16(filter, int64_t{d->g.filter_h} * d->g.filter_w * d->out_c,
                            d->quant.filter_offset, &d->qfilter);
}

// Chooses the path and prepares it.
TfLiteStatus PreparePath(TfLiteContext* context, const internal::ConvTensors& t,
                         TfLiteFusedActivation activation, OpData* data) {
  if (internal::IsHybridConv(t)) {
    data->path = Path::kHybrid;
    return internal::PrepareHybridConv(context, kOp, /*depthwise=*/true, t, data->g, data->window,
                                       activation, data->out_c, 1, &data->hybrid_data);
  }
  bool quantized = false;
  TF_LITE_ENSURE_OK(context, internal::PrepareConvQuantization(
                                 context, kOp, internal::QuantConvKind::kDepthwiseConv, t,
                                 activation, 3, data->out_c, &quantized, &data->quant));
  data->path = !quantized                         ? Path::kFloat
               : t.input->type == kTfLiteInt16 ? Path::kQuantDirect
                                                : Path::kQuant8;
  data->qfilter_packed = false;
  data->requant_ready = false;
  if (data->path != Path::kQuant8) return kTfLiteOk;
  if (internal::IsConstantOrPersistent(t.filter) && t.filter->data.raw != nullptr) {
    PackQuantizedFilter(data, t.filter);
    data->qfilter_packed = true;
  }
  if (t.bias == nullptr || internal::IsConstantOrPersistent(t.bias)) {
    internal::FillRequantizeTable(data->quant, t.bias, data->out_c, &data->requant);
    data->requant_ready = true;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  internal::ConvTensors t;
  TF_LITE_ENSURE_OK(context, internal::GetConvTensors(context, node, kOp, &t, /*hybrid_ok=*/true));
  const internal::ConvWindowParams window{params->padding, params->stride_height,
                                          params->stride_width, params->dilation_height_factor,
                                          params->dilation_width_factor};
  internal::ConvGeometry& g = data->g;
  TF_LITE_ENSURE_OK(context, internal::ComputeConvGeometry(context, kOp, t, window, &g));
  data->window = window;

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
  TF_LITE_ENSURE_OK(context, PreparePath(context, t, params->activation, data));
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

// kVectors x 8 channels of one output pixel from channel `c`, accumulated in
// registers over the taps (pairs of input and filter pointers).
template <int kVectors>
TFLITE_C_ALWAYS_INLINE void DepthwiseVectors(const float* const* taps, int count, int c,
                                             float* out) {
  internal::Float8 acc[kVectors] = {};
  for (int t = 0; t < count; ++t) {
    const float* in = taps[2 * t] + c;
    const float* w = taps[2 * t + 1] + c;
    for (int j = 0; j < kVectors; ++j) {
      acc[j] += *reinterpret_cast<const internal::Float8*>(in + 8 * j) *
                *reinterpret_cast<const internal::Float8*>(w + 8 * j);
    }
  }
  for (int j = 0; j < kVectors; ++j) *reinterpret_cast<internal::Float8*>(out + c + 8 * j) = acc[j];
}

// One output pixel of a multiplier-1 float depthwise convolution, before the
// bias: each channel's sum over the window's taps inside the image, from 0
// in tap order (so it rounds as accumulating tap by tap into the output
// would; contraction is off), `count` pairs of (input, filter) pointers at
// channel 0 in `taps`.
TFLITE_C_ALWAYS_INLINE void DepthwisePixelBody(const float* const* taps, int count, int channels,
                                               float* __restrict out) {
  int c = 0;
  for (; c + 32 <= channels; c += 32) DepthwiseVectors<4>(taps, count, c, out);
  // The remaining whole vectors in one pass over the taps.
  switch ((channels - c) / 8) {
    case 3:
      DepthwiseVectors<3>(taps, count, c, out);
      break;
    case 2:
      DepthwiseVectors<2>(taps, count, c, out);
      break;
    case 1:
      DepthwiseVectors<1>(taps, count, c, out);
      break;
    default:
      break;
  }
  c += (channels - c) / 8 * 8;
  for (; c < channels; ++c) {
    float acc = 0;
    for (int t = 0; t < count; ++t) acc += taps[2 * t][c] * taps[2 * t + 1][c];
    out[c] = acc;
  }
}

TFLITE_C_TARGET_CLONES
void DepthwisePixel(const float* const* taps, int count, int channels, float* __restrict out) {
  DepthwisePixelBody(taps, count, channels, out);
}

// `pixels` consecutive output pixels of one row whose windows lie wholly
// inside the image: pixel p's taps read `in` + p * `step` + offsets[t], in
// tap order, with filter pointers taps[2t + 1] (taps[2t] is overwritten).
// Results equal DepthwisePixel's on the same taps.
TFLITE_C_TARGET_CLONES
void DepthwiseInteriorRun(const float* in, int64_t step, const int64_t* offsets, const float** taps,
                          int count, int channels, int pixels, float* __restrict out) {
  for (int p = 0; p < pixels; ++p) {
    const float* base = in + p * step;
    for (int t = 0; t < count; ++t) taps[2 * t] = base + offsets[t];
    DepthwisePixelBody(taps, count, channels, out + int64_t{p} * channels);
  }
}

// Padding taps are skipped, which equals reading the input's zero point.
template <typename T, typename Filter>
void EvalQuantized(TfLiteContext* context, const OpData& d, const TfLiteTensor* input,
                   const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const T* in = static_cast<const T*>(input->data.data);
  const Filter* f = static_cast<const Filter*>(filter->data.data);
  const int32_t input_offset = d.quant.input_offset;
  const int32_t filter_offset = d.quant.filter_offset;
  internal::RunQuantConv<T>(context, d.g, d.out_c, int64_t{d.g.filter_h} * d.g.filter_w, d.quant,
                            bias, output, [&](int64_t b, int y, int x, int oc) {
    const T* src = in + oc / d.multiplier;
    internal::QuantAcc<T> acc = 0;
    internal::ForEachInputTap(d.g, d.window, b, y, x, [&](int64_t offset, int tap) {
      acc += static_cast<internal::QuantAcc<T>>(src[offset] + input_offset) *
             static_cast<internal::QuantAcc<T>>(f[int64_t{tap} * d.out_c + oc] + filter_offset);
    });
    return acc;
  });
}

// 8-bit activations: int32 sums of (input + input offset) * packed filter
// for all channels of one output pixel, then requantized.
template <typename T>
void EvalQuantized8(TfLiteContext* context, const OpData& d, const TfLiteTensor* input,
                    TfLiteTensor* output) {
  const internal::ConvGeometry& g = d.g;
  const T* in = static_cast<const T*>(input->data.data);
  T* out = static_cast<T*>(output->data.data);
  const int out_c = d.out_c;
  const int32_t input_offset = d.quant.input_offset;
  const internal::RequantizeParams rp = d.requant.At(0);  // adds the bias
  internal::ForOutputRows(context, g,
                          internal::kDepthwiseMacCost * g.out_w * out_c * g.filter_h * g.filter_w,
                          [&](int64_t begin, int64_t end) {
    std::vector<int32_t> sums(static_cast<size_t>(out_c));
    int32_t* __restrict acc = sums.data();
    internal::DepthwiseTapScratch scratch;
    for (int64_t row = begin; row < end; ++row) {
      for (int x = 0; x < g.out_w; ++x) {
        internal::DepthwisePixelSums(g, d.window, in, d.qfilter.data(), out_c, d.multiplier,
                                     input_offset, row / g.out_h, static_cast<int>(row % g.out_h),
                                     x, &scratch, acc);
        internal::RequantizeRow(acc, out_c, rp, out + (row * g.out_w + x) * out_c);
      }
    }
  });
}

void EvalQuant8(TfLiteContext* context, OpData* data, const internal::ConvTensors& t) {
  if (!data->qfilter_packed) PackQuantizedFilter(data, t.filter);
  if (!data->requant_ready) {
    internal::FillRequantizeTable(data->quant, t.bias, data->out_c, &data->requant);
  }
  if (t.input->type == kTfLiteUInt8) {
    EvalQuantized8<uint8_t>(context, *data, t.input, t.output);
  } else {
    EvalQuantized8<int8_t>(context, *data, t.input, t.output);
  }
}

void EvalFloat(TfLiteContext* context, const OpData& data, const internal::ConvTensors& t,
               TfLiteFusedActivation activation) {
  const internal::ConvGeometry& g = data.g;
  const int out_c = data.out_c;
  const float* input = t.input->data.f;
  const float* filter = t.filter->data.f;
  const float* bias = t.bias ? t.bias->data.f : nullptr;
  float* output = t.output->data.f;
  const auto range = internal::GetActivationRange<float>(activation);

  internal::ForOutputRows(context, g,
                          internal::kDepthwiseMacCost * g.out_w * out_c * g.filter_h * g.filter_w,
                          [&](int64_t begin, int64_t end) {
    // Windows of up to kMaxGatheredTaps taps keep their (input, filter)
    // pointer pairs and offsets here (6 KB); larger ones, rare, go tap by
    // tap into the output row (the same sums in the same order).
    const int64_t window_taps = int64_t{g.filter_h} * g.filter_w;
    const bool gathered = data.multiplier == 1 && window_taps <= internal::kMaxGatheredTaps;
    const float* taps[2 * internal::kMaxGatheredTaps];
    int64_t offsets[internal::kMaxGatheredTaps];
    if (gathered) {
      for (int ky = 0; ky < g.filter_h; ++ky) {
        for (int kx = 0; kx < g.filter_w; ++kx) {
          offsets[ky * g.filter_w + kx] = (int64_t{ky} * data.window.dilation_h * g.in_w +
                                           int64_t{kx} * data.window.dilation_w) *
                                          g.in_c;
        }
      }
    }
    // Output columns [x_lo, x_hi) have every window column inside the image
    // (in 64 bits: hostile strides and paddings reach INT_MAX).
    const int64_t stride_w = data.window.stride_w;
    const int64_t span_w = int64_t{g.filter_w - 1} * data.window.dilation_w;
    const int64_t last_start = int64_t{g.in_w} - 1 - span_w + g.pad_left;  // x * stride <= this
    const int x_lo =
        static_cast<int>(std::min<int64_t>(g.out_w, (g.pad_left + stride_w - 1) / stride_w));
    const int x_hi = static_cast<int>(std::max<int64_t>(
        x_lo, last_start < 0 ? 0 : std::min<int64_t>(g.out_w, last_start / stride_w + 1)));
    for (int64_t row = begin; row < end; ++row) {
      float* out_row = output + row * g.out_w * out_c;
      const int64_t b = row / g.out_h;
      const int y = static_cast<int>(row % g.out_h);
      if (gathered) {
        const auto edge_pixel = [&](int x) {
          int count = 0;
          internal::ForEachInputTap(g, data.window, b, y, x, [&](int64_t offset, int tap) {
            taps[2 * count] = input + offset;
            taps[2 * count + 1] = filter + int64_t{tap} * out_c;
            ++count;
          });
          DepthwisePixel(taps, count, out_c, out_row + int64_t{x} * out_c);
        };
        const int64_t iy0 = int64_t{y} * data.window.stride_h - g.pad_top;
        const bool rows_inside =
            iy0 >= 0 && iy0 + int64_t{g.filter_h - 1} * data.window.dilation_h < g.in_h;
        if (!rows_inside || x_lo >= x_hi) {
          for (int x = 0; x < g.out_w; ++x) edge_pixel(x);
        } else {
          for (int x = 0; x < x_lo; ++x) edge_pixel(x);
          for (int t = 0; t < window_taps; ++t) taps[2 * t + 1] = filter + int64_t{t} * out_c;
          const int64_t ix0 = x_lo * stride_w - g.pad_left;
          DepthwiseInteriorRun(input + ((b * g.in_h + iy0) * g.in_w + ix0) * g.in_c,
                               stride_w * g.in_c, offsets,
                               taps, static_cast<int>(window_taps), out_c, x_hi - x_lo,
                               out_row + int64_t{x_lo} * out_c);
          for (int x = x_hi; x < g.out_w; ++x) edge_pixel(x);
        }
      } else {
        std::memset(out_row, 0, sizeof(float) * g.out_w * out_c);
        for (int x = 0; x < g.out_w; ++x) {
          internal::ForEachInputTap(g, data.window, b, y, x, [&](int64_t offset, int tap) {
            AccumulateTap(input + offset, filter + int64_t{tap} * out_c,
                          out_row + int64_t{x} * out_c, g.in_c, data.multiplier);
          });
        }
      }
      internal::AddBiasAndClamp(out_row, g.out_w, out_c, bias, range);
    }
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto& data = *static_cast<OpData*>(node->user_data);
  const auto& p = *static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  const internal::ConvTensors t{internal::InputAt(context, node, 0),
                                internal::InputAt(context, node, 1),
                                internal::GetOptionalInput(context, node, 2),
                                internal::OutputAt(context, node, 0)};
  switch (data.path) {
    case Path::kHybrid:
      internal::EvalHybridConv(context, &data.hybrid_data, data.g, t.input, t.filter, t.bias,
                               t.output);
      break;
    case Path::kQuant8:
      EvalQuant8(context, &data, t);
      break;
    case Path::kQuantDirect:
      internal::DispatchQuantConvTypes(t.input->type, [&](auto in, auto f) {
        EvalQuantized<decltype(in), decltype(f)>(context, data, t.input, t.filter, t.bias,
                                                 t.output);
      });
      break;
    case Path::kFloat:
      EvalFloat(context, data, t, p.activation);
      break;
  }
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
