#include "src/kernels/internal/quant_math.h"

#include <cmath>

#include "src/kernels/internal/quant_validate.h"

namespace tflite_c {
namespace kernels {
namespace internal {

QuantizedMultiplier QuantizeMultiplier(double real_multiplier) {
  QuantizedMultiplier q;
  // NaN / inf (from corrupt scales, which Prepare should refuse) would make
  // the conversion below undefined: they give the zero multiplier.
  if (real_multiplier == 0.0 || !std::isfinite(real_multiplier)) return q;
  int exponent = 0;
  const double fraction = std::frexp(real_multiplier, &exponent);
  int64_t fixed = static_cast<int64_t>(std::round(fraction * (int64_t{1} << 31)));
  if (fixed == (int64_t{1} << 31)) {
    // Rounding carried into the next power of two.
    fixed /= 2;
    ++exponent;
  }
  if (exponent < -31) {
    // Every bit would be shifted out: flush to zero.
    return q;
  }
  q.multiplier = static_cast<int32_t>(fixed);
  q.shift = exponent;
  return q;
}

int32_t MultiplyByQuantizedMultiplier(int64_t x, int32_t multiplier, int shift) {
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  // Valid models give a total shift in [1, 46]; the clamp and the wrapping
  // product keep a corrupt one defined.
  const int total_shift = std::min(std::max(15 - shift, 1), 62);
  const int64_t rounded = static_cast<int64_t>(static_cast<uint64_t>(x) *
                                                   static_cast<uint64_t>(int64_t{reduced}) +
                                               (uint64_t{1} << (total_shift - 1)));
  return static_cast<int32_t>(rounded >> total_shift);
}

namespace {

// Fixed-point helpers for InvSqrtQuantizedMultiplier. A value with I integer
// bits is a raw int32 r standing for r / 2^(31 - I).

// Product of values with I1 and I2 integer bits has I1 + I2 integer bits.
inline int32_t FixedMul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// Multiplies by 2^exponent with saturation (exponent > 0) or rounding (< 0).
int32_t SaturatingShift(int32_t x, int exponent) {
  if (exponent < 0) return RoundingDivideByPOT(x, -exponent);
  if (exponent == 0) return x;
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return std::numeric_limits<int32_t>::max();
  if (x < -threshold) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

}  // namespace

void InvSqrtQuantizedMultiplier(int32_t input, int reverse_shift, int32_t* multiplier,
                                int* shift) {
  if (input <= 1) {
    // 1 would overflow below and 0 is undefined; both map to the largest value.
    *multiplier = std::numeric_limits<int32_t>::max();
    *shift = 0;
    return;
  }
  int out_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++out_shift;
  }
  // Normalize input into [2^27, 2^29) by an even shift.
  const int leading_zeros = __builtin_clz(static_cast<uint32_t>(input));
  const int pairs = (leading_zeros - 1) / 2 - 1;
  out_shift -= pairs;
  input <<= 2 * pairs;

  // Newton-Raphson for 1/sqrt in Q3.28 (3 integer bits), starting at 1.
  constexpr int kIntBits = 3;
  const int32_t x_in = input >> 1;
  const int32_t half_x = RoundingDivideByPOT(x_in, 1);
  const int32_t three_halves = (1 << 28) + (1 << 27);
  int32_t y = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    // y^3 has 9 integer bits; rescale to 3.
    const int32_t y3 = SaturatingShift(FixedMul(FixedMul(y, y), y), 3 * kIntBits - kIntBits);
    // Both products have 6 integer bits; rescale the difference to 3.
    const int32_t diff = static_cast<int32_t>(static_cast<uint32_t>(FixedMul(three_halves, y)) -
                                              static_cast<uint32_t>(FixedMul(half_x, y3)));
    y = SaturatingShift(diff, 2 * kIntBits - kIntBits);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2)/2 in Q0.31
  int32_t result = FixedMul(y, kHalfSqrt2);
  if (out_shift < 0) {
    result <<= -out_shift;
    out_shift = 0;
  }
  *multiplier = result;
  *shift = out_shift * reverse_shift;
}

TfLiteStatus GetQuantParams(TfLiteContext* context, const char* op, const char* what,
                            const TfLiteTensor* t, QuantParams* params) {
  const auto* affine = static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
  if (t->quantization.type != kTfLiteAffineQuantization || affine == nullptr ||
      affine->scale == nullptr || affine->scale->size < 1 || affine->zero_point == nullptr ||
      affine->zero_point->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %s of type %s must have affine quantization", op, what,
                       TfLiteTypeGetName(t->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckQuantization(context, op, what, t));
  params->scale = affine->scale->data[0];
  params->zero_point = affine->zero_point->data[0];
  return kTfLiteOk;
}

QuantParams LegacyQuantParams(const TfLiteTensor* t) {
  QuantParams params;
  const auto* affine = static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
  if (t->quantization.type != kTfLiteAffineQuantization || affine == nullptr ||
      affine->scale == nullptr || affine->zero_point == nullptr || affine->scale->size != 1) {
    return params;
  }
  params.scale = affine->scale->data[0];
  params.zero_point = affine->zero_point->size > 0 ? affine->zero_point->data[0] : 0;
  return params;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
