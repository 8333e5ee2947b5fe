// MAX_POOL_2D and AVERAGE_POOL_2D, NHWC: input [N, H, W, C] → output
// [N, OH, OW, C]. FLOAT32, UINT8, INT8 and INT16. L2_POOL_2D (FLOAT32 only,
// as upstream): the square root of the mean of the squares in the window.
//
// Windows are clipped to the image: padding positions are neither compared
// nor counted, so an average (and the mean of squares) is over the valid taps
// only. Quantized inputs
// and outputs share scale and zero point, so pooling works directly on the
// stored integers; an average is rounded to nearest with ties away from zero
// (UINT8 sums are never negative), and the fused activation clamps in the
// quantized domain.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/padding.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

enum class PoolKind { kMax, kAverage, kL2 };

struct OpData {
  int batches, in_h, in_w, channels, out_h, out_w;
  int pad_top, pad_left;
  int32_t act_min, act_max;  // quantized types
  // AVERAGE_POOL_2D of integers: a window's sum may leave int32 (an int16
  // window of more than 65,535 taps, an 8-bit one of more than 8.4 million),
  // so it is summed in int64.
  bool wide_sums = false;
};

template <PoolKind kind>
constexpr const char* OpName() {
  return kind == PoolKind::kMax ? "MAX_POOL_2D"
         : kind == PoolKind::kAverage ? "AVERAGE_POOL_2D"
                                      : "L2_POOL_2D";
}

template <PoolKind kind>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* op = OpName<kind>();
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  const auto* params = static_cast<const TfLitePoolParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  if (input->type != kTfLiteFloat32 &&
      (kind == PoolKind::kL2 || (input->type != kTfLiteUInt8 && input->type != kTfLiteInt8 &&
                                 input->type != kTfLiteInt16))) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (output->type != input->type) {
    return internal::TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  if (internal::NumDims(input) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: input must be 4-D (NHWC), got rank %d", op,
                       internal::NumDims(input));
    return kTfLiteError;
  }
  data->batches = internal::Dim(input, 0);
  data->in_h = internal::Dim(input, 1);
  data->in_w = internal::Dim(input, 2);
  data->channels = internal::Dim(input, 3);
  internal::WindowAxis h, w;
  TF_LITE_ENSURE_OK(context, internal::ComputeWindowAxis(
                                 context, op, internal::kHeightAxis,
                                 {params->padding, params->stride_height, 1}, data->in_h,
                                 params->filter_height, &h));
  TF_LITE_ENSURE_OK(context, internal::ComputeWindowAxis(
                                 context, op, internal::kWidthAxis,
                                 {params->padding, params->stride_width, 1}, data->in_w,
                                 params->filter_width, &w));
  data->out_h = h.out_size;
  data->out_w = w.out_size;
  data->pad_top = h.pad_before;
  data->pad_left = w.pad_before;
  if (input->type != kTfLiteFloat32) {
    if (input->params.zero_point != output->params.zero_point ||
        std::abs(input->params.scale - output->params.scale) > 1e-6f) {
      TF_LITE_KERNEL_LOG(context, "%s: input and output must have the same scale and zero point",
                         op);
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context,
                      internal::QuantizedActivationRange(context, op, params->activation, output,
                                                         &data->act_min, &data->act_max));
    // Taps inside the image bound a window (each factor fits in int).
    const int64_t taps = int64_t{std::min(params->filter_height, data->in_h)} *
                         std::min(params->filter_width, data->in_w);
    const int64_t largest = input->type == kTfLiteInt16 ? 32768 : 255;
    data->wide_sums = kind == PoolKind::kAverage && taps * largest > INT32_MAX;
  }
  return internal::ResizeOutput(context, output,
                                {data->batches, data->out_h, data->out_w, data->channels});
}

// Divides a window sum by its tap count, rounding as the quantized kernels do.
template <typename T, typename Acc>
Acc AverageOf(Acc sum, int count) {
  if constexpr (std::is_floating_point_v<T>) {
    return sum / static_cast<Acc>(count);
  } else {
    return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
  }
}

// The window of output position `o` along an axis of `in_size` inputs,
// clipped to the image: the input index of its first tap inside and how many
// taps lie inside (0: none; `first` is then meaningless).
struct TapRange {
  int first, count;
};
inline TapRange ClippedWindow(int o, int stride, int pad_before, int filter, int in_size) {
  const int start = o * stride - pad_before;
  const int begin = std::max(0, -start);
  return {start + begin, std::max(0, std::min(filter, in_size - start) - begin)};
}

// One output pixel: every channel's window, taps in (ky, kx) order as the
// channel's own loop would take them (so sums round as they would one
// channel at a time), channels innermost so the loads are contiguous.
// `first` is the window's first tap inside the image; `taps_h` x `taps_w`
// taps are read from there.
template <PoolKind kind, typename T, typename Acc>
void PoolPixel(const T* __restrict first, int64_t row_stride, int channels, int taps_h,
               int taps_w, Acc lo, Acc hi, Acc* __restrict acc, T* __restrict out) {
  const Acc init =
      kind == PoolKind::kMax ? static_cast<Acc>(std::numeric_limits<T>::lowest()) : Acc(0);
  for (int c = 0; c < channels; ++c) acc[c] = init;
  for (int ky = 0; ky < taps_h; ++ky) {
    for (int kx = 0; kx < taps_w; ++kx) {
      const T* __restrict src = first + ky * row_stride + int64_t{kx} * channels;
      for (int c = 0; c < channels; ++c) {
        const Acc v = static_cast<Acc>(src[c]);
        if constexpr (kind == PoolKind::kMax) {
          acc[c] = acc[c] < v ? v : acc[c];
        } else if constexpr (kind == PoolKind::kAverage) {
          acc[c] += v;
        } else {
          acc[c] += v * v;
        }
      }
    }
  }
  const int count = taps_h * taps_w;
  for (int c = 0; c < channels; ++c) {
    Acc a = acc[c];
    if constexpr (kind == PoolKind::kAverage) a = AverageOf<T>(a, count);
    if constexpr (kind == PoolKind::kL2) a = std::sqrt(a / static_cast<Acc>(count));
    out[c] = static_cast<T>(std::min(std::max(a, lo), hi));
  }
}

template <PoolKind kind, typename T, typename Acc>
TfLiteStatus Pool(TfLiteContext* context, const OpData& d, const TfLitePoolParams& params,
                  const T* input, T* output, Acc lo, Acc hi) {
  const auto window_y = [&](int oy) {
    return ClippedWindow(oy, params.stride_height, d.pad_top, params.filter_height, d.in_h);
  };
  const auto window_x = [&](int ox) {
    return ClippedWindow(ox, params.stride_width, d.pad_left, params.filter_width, d.in_w);
  };
  // An average (or L2) window wholly in the padding has no tap to divide by;
  // whether one exists depends on the geometry alone.
  if (kind != PoolKind::kMax && d.batches > 0 && d.out_h > 0 && d.out_w > 0) {
    bool empty = false;
    for (int oy = 0; oy < d.out_h; ++oy) empty |= window_y(oy).count == 0;
    for (int ox = 0; ox < d.out_w; ++ox) empty |= window_x(ox).count == 0;
    if (empty) {
      TF_LITE_KERNEL_LOG(context, "%s: a window covers no input element", OpName<kind>());
      return kTfLiteError;
    }
  }
  const int64_t row_stride = int64_t{d.in_w} * d.channels;
  const int64_t rows = int64_t{d.batches} * d.out_h;
  // Each tap is one load and one compare or add per channel, like a
  // depthwise multiply-add. Taps are at most the image's (a hostile window
  // can be 2^31 wide), and the product saturates.
  const int64_t taps = int64_t{std::min(params.filter_height, d.in_h)} *
                       std::min(params.filter_width, d.in_w) * internal::kDepthwiseMacCost;
  int64_t work = 0;
  if (__builtin_mul_overflow(rows * d.out_w * d.channels, taps, &work)) work = INT64_MAX;
  internal::ParallelFor(
      internal::ThreadsForWork(internal::KernelThreads(context), work), rows,
      [&](int64_t begin, int64_t end) {
        std::vector<Acc> acc(static_cast<size_t>(d.channels));
        for (int64_t row = begin; row < end; ++row) {
          const int64_t b = row / d.out_h;
          const TapRange ty = window_y(static_cast<int>(row % d.out_h));
          for (int ox = 0; ox < d.out_w; ++ox) {
            const TapRange tx = window_x(ox);
            // Only a non-empty window's first tap is a position in the image.
            const T* first =
                ty.count > 0 && tx.count > 0
                    ? input + (b * d.in_h + ty.first) * row_stride + int64_t{tx.first} * d.channels
                    : input;
            PoolPixel<kind, T, Acc>(first, row_stride, d.channels, ty.count, tx.count, lo, hi,
                                    acc.data(), output + (row * d.out_w + ox) * d.channels);
          }
        }
      });
  return kTfLiteOk;
}

// The integer element types, summed (AVERAGE_POOL_2D) in `Acc`.
template <PoolKind kind, typename Acc>
TfLiteStatus PoolIntegers(TfLiteContext* context, const OpData& d, const TfLitePoolParams& params,
                          const TfLiteTensor* input, TfLiteTensor* output) {
  switch (input->type) {
    case kTfLiteUInt8:
      return Pool<kind, uint8_t, Acc>(context, d, params, input->data.uint8, output->data.uint8,
                                      d.act_min, d.act_max);
    case kTfLiteInt8:
      return Pool<kind, int8_t, Acc>(context, d, params, input->data.int8, output->data.int8,
                                     d.act_min, d.act_max);
    default:
      return Pool<kind, int16_t, Acc>(context, d, params, input->data.i16, output->data.i16,
                                      d.act_min, d.act_max);
  }
}

template <PoolKind kind>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& d = *static_cast<const OpData*>(node->user_data);
  const auto& params = *static_cast<const TfLitePoolParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (kind == PoolKind::kL2 || input->type == kTfLiteFloat32) {
    const auto range = internal::GetActivationRange<float>(params.activation);
    return Pool<kind, float, float>(context, d, params, input->data.f, output->data.f, range.min,
                                    range.max);
  }
  if constexpr (kind == PoolKind::kL2) {
    return kTfLiteError;  // unreachable: Prepare admits FLOAT32 only
  } else {
    if constexpr (kind == PoolKind::kAverage) {
      if (d.wide_sums) return PoolIntegers<kind, int64_t>(context, d, params, input, output);
    }
    return PoolIntegers<kind, int32_t>(context, d, params, input, output);
  }
}

template <PoolKind kind>
const TfLiteRegistration* RegisterPool() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare<kind>, Eval<kind>);
  return &r;
}

}  // namespace

const TfLiteRegistration* Register_MAX_POOL_2D() { return RegisterPool<PoolKind::kMax>(); }
const TfLiteRegistration* Register_AVERAGE_POOL_2D() {
  return RegisterPool<PoolKind::kAverage>();
}
const TfLiteRegistration* Register_L2_POOL_2D() { return RegisterPool<PoolKind::kL2>(); }

}  // namespace kernels
}  // namespace tflite_c
