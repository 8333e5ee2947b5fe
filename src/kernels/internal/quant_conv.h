// Quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED share one shape of
// arithmetic: integer products accumulated (int32, or int64 for int16
// activations), plus an integer bias, requantized per output channel to the
// output type. This file holds the Prepare-time parameters, checked and
// computed as upstream does, and the requantization step.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_CONV_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_CONV_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/wrapping_math.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct QuantConvParams {
  int32_t input_offset = 0;   // -input zero point
  int32_t filter_offset = 0;  // -filter zero point where upstream honours it
  int32_t output_offset = 0;  // output zero point
  internal::ScratchVector<QuantizedMultiplier> channel_multipliers;  // one per output channel
  int32_t act_min = 0, act_max = 0;
  // Upstream's x86 build runs the int8 GEMMs of per-channel CONV_2D and of
  // FULLY_CONNECTED through ruy, whose AVX2 kernels round both rescaling
  // steps half up instead of half away from zero.
  bool round_half_up = false;
};

// Which upstream kernel's conventions to follow.
enum class QuantConvKind {
  kConv,           // CONV_2D
  kDepthwiseConv,  // DEPTHWISE_CONV_2D
  kTransposeConv,  // TRANSPOSE_CONV
  kFullyConnected  // FULLY_CONNECTED
};

// Checks input/filter/bias/output types and quantization (int8 input with
// int8 filter and int32 bias; uint8/uint8/int32; int16 with int8 filter and
// int32/int64 bias; per-channel filter scales along `channel_dim`, which has
// `channels` entries) and fills `q`. `bias` may be null.
TfLiteStatus PrepareQuantConv(TfLiteContext* context, const char* op, QuantConvKind kind,
                              const TfLiteTensor* input, const TfLiteTensor* filter,
                              const TfLiteTensor* bias, const TfLiteTensor* output,
                              TfLiteFusedActivation activation, int channel_dim, int channels,
                              QuantConvParams* q);

// For CONV_2D and DEPTHWISE_CONV_2D: sets *quantized to whether the input is
// quantized and, if so, prepares `q` as PrepareQuantConv does.
TfLiteStatus PrepareConvQuantization(TfLiteContext* context, const char* op, QuantConvKind kind,
                                     const ConvTensors& t, TfLiteFusedActivation activation,
                                     int channel_dim, int channels, bool* quantized,
                                     QuantConvParams* q);

// Accumulator type for an activation type: int64 for int16, else int32.
template <typename T>
using QuantAcc = std::conditional_t<std::is_same_v<T, int16_t>, int64_t, int32_t>;
// The plain (unblocked) quantized loops add their products into QuantAcc<T>
// with WrappingAdd (wrapping_math.h): a hostile layer deeper than about 33,000
// products of 8-bit values leaves the int32 range, and the sum then wraps
// around as upstream's int32 sums do, instead of a signed overflow. (Each
// product fits: at most 255 * 255 for 8-bit values.)

// Reads bias[c] (int32 or int64) from `bias`, or 0 without one.
inline int64_t BiasAt(const TfLiteTensor* bias, int c) {
  if (bias == nullptr) return 0;
  return bias->type == kTfLiteInt64 ? bias->data.i64[c] : bias->data.i32[c];
}

// x * multiplier * 2^shift as ruy's x86 kernels compute it: the doubling
// high multiply and the final right shift both round half up.
inline int32_t MultiplyByQuantizedMultiplierHalfUp(int32_t x, QuantizedMultiplier m) {
  const int left = m.shift > 0 ? std::min(m.shift, 31) : 0;
  const int right = m.shift > 0 ? 0 : std::min(-m.shift, 31);
  const int64_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  const int32_t high = static_cast<int32_t>((shifted * m.multiplier + (int64_t{1} << 30)) >> 31);
  if (right == 0) return high;
  return static_cast<int32_t>((int64_t{high} + (int64_t{1} << (right - 1))) >> right);
}

// Rescales the accumulator of output channel `c` and clamps it to the
// activation range.
template <typename Out, typename Acc>
inline Out Requantize(Acc acc, const QuantConvParams& q, int c) {
  int32_t scaled;
  if constexpr (std::is_same_v<Acc, int32_t>) {
    scaled = q.round_half_up
                 ? MultiplyByQuantizedMultiplierHalfUp(acc, q.channel_multipliers[c])
                 : MultiplyByQuantizedMultiplier(acc, q.channel_multipliers[c]);
  } else {
    scaled = MultiplyByQuantizedMultiplier(acc, q.channel_multipliers[c]);
  }
  const int32_t v = scaled + q.output_offset;
  return static_cast<Out>(std::min(q.act_max, std::max(q.act_min, v)));
}

// Computes every output value of a quantized convolution with output
// channels `out_c`: accumulate(b, y, x, oc) returns the products' sum, to
// which the bias is added before requantizing. `work_per_value` (multiply-
// adds per output value) sizes the threads.
template <typename T, typename Accumulate>
void RunQuantConv(TfLiteContext* context, const ConvGeometry& g, int out_c,
                  int64_t work_per_value, const QuantConvParams& q, const TfLiteTensor* bias,
                  TfLiteTensor* output, Accumulate accumulate) {
  T* out = static_cast<T*>(output->data.data);
  ForOutputRows(context, g, int64_t{g.out_w} * out_c * work_per_value,
                [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / g.out_h;
      const int y = static_cast<int>(row % g.out_h);
      for (int x = 0; x < g.out_w; ++x) {
        T* o = out + (row * g.out_w + x) * out_c;
        for (int oc = 0; oc < out_c; ++oc) {
          const QuantAcc<T> acc = WrappingAdd<QuantAcc<T>>(
              accumulate(b, y, x, oc), static_cast<QuantAcc<T>>(BiasAt(bias, oc)));
          o[oc] = Requantize<T>(acc, q, oc);
        }
      }
    }
  });
}

// Calls fn(T{}, Filter{}) with the activation and filter types of a quantized
// convolution whose input has type `input`.
template <typename Fn>
void DispatchQuantConvTypes(TfLiteType input, Fn fn) {
  switch (input) {
    case kTfLiteUInt8:
      fn(uint8_t{}, uint8_t{});
      break;
    case kTfLiteInt16:
      fn(int16_t{}, int8_t{});
      break;
    default:
      fn(int8_t{}, int8_t{});
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_CONV_H_
