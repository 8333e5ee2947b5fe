// Quantized (int8, uint8, int16) arithmetic of ADD, SUB and MUL, bit-exact
// with upstream's reference kernels. Prepare turns the tensors' scales into
// fixed-point multipliers once; Eval is integer-only.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_BINARY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_BINARY_H_

#include <algorithm>
#include <cstdint>

#include "src/kernels/internal/broadcast.h"
#include "src/kernels/internal/qgemm.h"
#include "src/kernels/internal/quant_math.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// One quantized input brought to a fixed-point scale it shares with the other
// input of a binary op: (q - zero_point) * 2^left_shift, times `multiplier`.
// ADD, SUB, SQUARED_DIFFERENCE and the comparisons rescale their inputs so.
struct InputRescale {
  int32_t zero_point = 0;
  int left_shift = 0;  // headroom given to the input before rescaling
  QuantizedMultiplier multiplier;

  int32_t Apply(int32_t q) const {
    return MultiplyByQuantizedMultiplier((q - zero_point) * (int32_t{1} << left_shift),
                                         multiplier);
  }
};

// Fills the rescales of two inputs quantized as `a` and `b` to their common
// scale 2 * max(a.scale, b.scale) / 2^left_shift, and returns
// 2 * max(a.scale, b.scale).
double RescaleToTwiceMax(const QuantParams& a, const QuantParams& b, int left_shift,
                         InputRescale* rescale_a, InputRescale* rescale_b);

enum class QuantBinaryKind { kAdd, kSub, kMul };

struct QuantBinaryParams {
  // ADD/SUB with int16 tensors whose scales are all powers of two (and
  // pot_scale_int16 set): one input is rescaled by a right shift only.
  bool pot_int16 = false;
  InputRescale a, b;  // ADD/SUB: to the common scale; MUL: zero points only
  int32_t offset_out = 0;
  QuantizedMultiplier mult_out;
  int pot_shift_a = 0, pot_shift_b = 0;  // right shifts of the POT path
  int32_t act_min = 0, act_max = 0;
  // 8-bit ADD/SUB: the same arithmetic as rows of vectorizable steps.
  bool rows = false;
  QuantAddRowParams row;
};

// Validates the quantization of `a`, `b` and `out` (one quantized type) and
// fills `q`. `pot_scale_int16` is the op's builtin flag (ADD/SUB only).
TfLiteStatus PrepareQuantBinary(TfLiteContext* context, const char* op, QuantBinaryKind kind,
                                const TfLiteTensor* a, const TfLiteTensor* b,
                                const TfLiteTensor* out, TfLiteFusedActivation activation,
                                bool pot_scale_int16, QuantBinaryParams* q);

template <typename T>
void EvalQuantBinary(QuantBinaryKind kind, const QuantBinaryParams& q, const BroadcastPlan& plan,
                     const T* a, const T* b, T* out) {
  auto clamp = [&q](int32_t v) {
    return static_cast<T>(std::min(q.act_max, std::max(q.act_min, v)));
  };
  if (kind == QuantBinaryKind::kMul) {
    BroadcastBinary<T>(plan, a, b, out, [&](T x, T y) {
      const int32_t product = (x - q.a.zero_point) * (y - q.b.zero_point);
      return clamp(q.offset_out + MultiplyByQuantizedMultiplier(product, q.mult_out));
    });
    return;
  }
  const int32_t sign = kind == QuantBinaryKind::kSub ? -1 : 1;
  if constexpr (sizeof(T) == 1) {
    if (q.rows) {
      BroadcastRows<T>(plan, a, b, out,
                       [&q](const T* pa, int64_t sa, const T* pb, int64_t sb, int64_t n, T* o) {
                         QuantAddRow(pa, sa, pb, sb, n, q.row, o);
                       });
      return;
    }
  }
  if (q.pot_int16) {
    BroadcastBinary<T>(plan, a, b, out, [&](T x, T y) {
      return clamp(RoundingDivideByPOT(x, q.pot_shift_a) +
                   sign * RoundingDivideByPOT(y, q.pot_shift_b));
    });
    return;
  }
  BroadcastBinary<T>(plan, a, b, out, [&](T x, T y) {
    const int32_t sum = q.a.Apply(x) + sign * q.b.Apply(y);
    return clamp(MultiplyByQuantizedMultiplier(sum, q.mult_out) + q.offset_out);
  });
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_BINARY_H_
