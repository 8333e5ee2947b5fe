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
#include <limits>
#include <type_traits>

#include "src/kernels/internal/activation.h"
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

template <PoolKind kind, typename T, typename Acc>
TfLiteStatus Pool(TfLiteContext* context, const OpData& d, const TfLitePoolParams& params,
                  const T* input, T* output, Acc lo, Acc hi) {
  for (int b = 0; b < d.batches; ++b) {
    for (int oy = 0; oy < d.out_h; ++oy) {
      const int y0 = oy * params.stride_height - d.pad_top;
      const int ky_begin = std::max(0, -y0);
      const int ky_end = std::min(params.filter_height, d.in_h - y0);
      for (int ox = 0; ox < d.out_w; ++ox) {
        const int x0 = ox * params.stride_width - d.pad_left;
        const int kx_begin = std::max(0, -x0);
        const int kx_end = std::min(params.filter_width, d.in_w - x0);
        const int count = std::max(0, ky_end - ky_begin) * std::max(0, kx_end - kx_begin);
        T* out = output + ((int64_t{b} * d.out_h + oy) * d.out_w + ox) * d.channels;
        if (kind != PoolKind::kMax && count == 0) {
          TF_LITE_KERNEL_LOG(context, "%s: a window covers no input element", OpName<kind>());
          return kTfLiteError;
        }
        for (int c = 0; c < d.channels; ++c) {
          Acc acc = kind == PoolKind::kMax ? static_cast<Acc>(std::numeric_limits<T>::lowest())
                                           : Acc(0);
          for (int ky = ky_begin; ky < ky_end; ++ky) {
            const T* row = input + ((int64_t{b} * d.in_h + y0 + ky) * d.in_w + x0) * d.channels + c;
            for (int kx = kx_begin; kx < kx_end; ++kx) {
              const Acc v = static_cast<Acc>(row[int64_t{kx} * d.channels]);
              if (kind == PoolKind::kMax) {
                if (acc < v) acc = v;
              } else if (kind == PoolKind::kAverage) {
                acc += v;
              } else {
                acc += v * v;
              }
            }
          }
          if (kind == PoolKind::kAverage) acc = AverageOf<T>(acc, count);
          if constexpr (kind == PoolKind::kL2) acc = std::sqrt(acc / static_cast<Acc>(count));
          out[c] = static_cast<T>(std::min(std::max(acc, lo), hi));
        }
      }
    }
  }
  return kTfLiteOk;
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
    switch (input->type) {
      case kTfLiteUInt8:
        return Pool<kind, uint8_t, int32_t>(context, d, params, input->data.uint8,
                                            output->data.uint8, d.act_min, d.act_max);
      case kTfLiteInt8:
        return Pool<kind, int8_t, int32_t>(context, d, params, input->data.int8,
                                           output->data.int8, d.act_min, d.act_max);
      default:
        return Pool<kind, int16_t, int32_t>(context, d, params, input->data.i16,
                                            output->data.i16, d.act_min, d.act_max);
    }
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
