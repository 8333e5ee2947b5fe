// Quantized (int8, uint8, int16) arithmetic of ADD, SUB and MUL, bit-exact
// with upstream's reference kernels. Prepare turns the tensors' scales into
// fixed-point multipliers once; Eval is integer-only.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_BINARY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_BINARY_H_

#include <algorithm>
#include <cstdint>

#include "src/kernels/internal/broadcast.h"
#include "src/kernels/internal/quant_math.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

enum class QuantBinaryKind { kAdd, kSub, kMul };

struct QuantBinaryParams {
  // ADD/SUB with int16 tensors whose scales are all powers of two (and
  // pot_scale_int16 set): one input is rescaled by a right shift only.
  bool pot_int16 = false;
  int left_shift = 0;  // headroom given to the inputs before rescaling
  int32_t offset_a = 0, offset_b = 0, offset_out = 0;
  QuantizedMultiplier mult_a, mult_b, mult_out;
  int pot_shift_a = 0, pot_shift_b = 0;  // right shifts of the POT path
  int32_t act_min = 0, act_max = 0;
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
      const int32_t product = (q.offset_a + x) * (q.offset_b + y);
      return clamp(q.offset_out + MultiplyByQuantizedMultiplier(product, q.mult_out));
    });
    return;
  }
  const int32_t sign = kind == QuantBinaryKind::kSub ? -1 : 1;
  if (q.pot_int16) {
    BroadcastBinary<T>(plan, a, b, out, [&](T x, T y) {
      return clamp(RoundingDivideByPOT(x, q.pot_shift_a) +
                   sign * RoundingDivideByPOT(y, q.pot_shift_b));
    });
    return;
  }
  const int32_t headroom = int32_t{1} << q.left_shift;
  BroadcastBinary<T>(plan, a, b, out, [&](T x, T y) {
    const int32_t sa = MultiplyByQuantizedMultiplier((q.offset_a + x) * headroom, q.mult_a);
    const int32_t sb = MultiplyByQuantizedMultiplier((q.offset_b + y) * headroom, q.mult_b);
    return clamp(MultiplyByQuantizedMultiplier(sa + sign * sb, q.mult_out) + q.offset_out);
  });
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_BINARY_H_
