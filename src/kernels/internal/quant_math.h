// Integer arithmetic of quantized kernels, bit-exact with TensorFlow Lite's
// reference kernels (double-rounding variant, its default build): fixed-point
// multipliers, the requantization step, and lookup tables for unary ops.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_MATH_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_MATH_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// ---- fixed-point multipliers ---------------------------------------------------

// A positive real number m * 2^shift with m a Q0.31 value in [0.5, 1)
// (or 0 for a zero or vanishingly small multiplier).
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

QuantizedMultiplier QuantizeMultiplier(double real_multiplier);

// round(a * b / 2^31), saturating the single overflowing case INT32_MIN^2.
// (Inline: these run once per output value of every quantized kernel.)
inline int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::max();
  }
  const int64_t product = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  // Division (not a shift) truncates toward zero, which the nudge relies on.
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

// x / 2^exponent rounded to nearest, ties away from zero.
inline int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// x * multiplier * 2^shift, rounded (the requantization step).
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift) {
  // Valid models give |shift| <= 31; the clamp keeps a corrupt one defined.
  const int left = shift > 0 ? std::min(shift, 31) : 0;
  const int right = shift > 0 ? 0 : std::min(-shift, 31);
  // The left shift wraps like upstream's int arithmetic would on its targets.
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(shifted, multiplier), right);
}
// Wide-accumulator variant (int16 activations): the multiplier is reduced to
// 16 bits first, exactly as upstream does, so results differ slightly from
// the 32-bit variant.
int32_t MultiplyByQuantizedMultiplier(int64_t x, int32_t multiplier, int shift);

inline int32_t MultiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier q) {
  return MultiplyByQuantizedMultiplier(x, q.multiplier, q.shift);
}
inline int32_t MultiplyByQuantizedMultiplier(int64_t x, QuantizedMultiplier q) {
  return MultiplyByQuantizedMultiplier(x, q.multiplier, q.shift);
}

// 1/sqrt(input) as a fixed-point multiplier and shift (Newton-Raphson in Q3.28).
// `reverse_shift` is -1 for a left-shift-positive convention.
void InvSqrtQuantizedMultiplier(int32_t input, int reverse_shift, int32_t* multiplier,
                                int* shift);

// Float-to-int conversions of computed values (a corrupt scale can make
// them NaN or huge): saturated to [lo, hi] before converting, NaN gives 0.
// RoundClamped rounds half away from zero; TruncClamped truncates.
inline int32_t TruncClamped(float v, int32_t lo, int32_t hi) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<float>(lo)) return lo;
  if (v >= static_cast<float>(hi)) return hi;
  return static_cast<int32_t>(v);
}
inline int32_t RoundClamped(float v, int32_t lo, int32_t hi) {
  return TruncClamped(std::round(v), lo, hi);
}

template <typename T>
inline T ClampTo(int32_t v) {
  return static_cast<T>(std::min<int32_t>(std::max<int32_t>(v, std::numeric_limits<T>::min()),
                                          std::numeric_limits<T>::max()));
}

// ---- tensor quantization --------------------------------------------------------

// Per-tensor affine parameters of a quantized tensor.
struct QuantParams {
  float scale = 0.0f;
  int32_t zero_point = 0;
};

// Reads the first scale / zero point of `t`'s affine quantization; reports
// "<op>: <what> of type T must have affine quantization" when it has none,
// and refuses parameters CheckQuantization (quant_validate.h) refuses.
TfLiteStatus GetQuantParams(TfLiteContext* context, const char* op, const char* what,
                            const TfLiteTensor* t, QuantParams* params);

// The per-tensor parameters upstream stores in TfLiteTensor::params: those of
// an affine quantization with exactly one scale, else zeros. Kernels that
// upstream writes against `params` (BATCH_MATMUL) use this so per-channel
// tensors behave as upstream (a zero scale) whatever the runtime stored.
QuantParams LegacyQuantParams(const TfLiteTensor* t);

inline bool IsQuantizedType(TfLiteType type) {
  return type == kTfLiteInt8 || type == kTfLiteUInt8 || type == kTfLiteInt16;
}

// ---- lookup tables -----------------------------------------------------------------

// 8-bit tables have one entry per input value, indexed by the value's bit
// pattern (so int8 -128 is entry 128). 16-bit tables sample the input range
// at 512 points plus the end point and interpolate between them.
constexpr int kLut8Size = 256;
constexpr int kLut16Size = 513;

// Fills an 8-bit (int8 or uint8) table for out = quantize(fn(dequantize(in))).
template <typename T, typename Fn>
void PopulateLut8(QuantParams in, QuantParams out, Fn fn, T* lut) {
  const float inverse_out_scale = 1.0f / out.scale;
  constexpr int32_t lo = std::numeric_limits<T>::min();
  constexpr int32_t hi = std::numeric_limits<T>::max();
  for (int32_t v = lo; v <= hi; ++v) {
    const float real = fn(in.scale * static_cast<float>(v - in.zero_point));
    const float rescaled = std::round(real * inverse_out_scale);
    // fn may give NaN or infinity (RSQRT of a negative value or of 0).
    const int32_t q = TruncClamped(rescaled + static_cast<float>(out.zero_point), lo, hi);
    lut[static_cast<uint8_t>(static_cast<T>(v))] = static_cast<T>(q);
  }
}

// Fills a 513-entry int16 table for out = quantize(fn(dequantize(in))). Each
// sample is nudged so that linear interpolation is accurate at the midpoints.
template <typename Fn>
void PopulateLut16(QuantParams in, QuantParams out, Fn fn, int16_t* lut) {
  constexpr int32_t kMinQ = std::numeric_limits<int16_t>::min();
  constexpr int32_t kMaxQ = std::numeric_limits<int16_t>::max();
  const float in_min = in.scale * static_cast<float>(-32768 - in.zero_point);
  const float in_max = in.scale * static_cast<float>(32767 - in.zero_point);
  const float out_min = out.scale * static_cast<float>(-32768 - out.zero_point);
  const float out_max = out.scale * static_cast<float>(32767 - out.zero_point);
  constexpr int kSteps = kLut16Size - 1;
  const float step = (in_max - in_min) / kSteps;
  const float half_step = step / 2;
  const float to_q = 65536.0f / (out_max - out_min);
  for (int i = 0; i < kSteps; ++i) {
    const float x = in_min + static_cast<float>(i) * step;
    const float y = fn(x);
    const float y_mid = fn(x + half_step);
    const float y_next = fn(in_min + static_cast<float>(i + 1) * step);
    const float sample = std::round(y * to_q);
    const float interpolated_mid = std::round((y_next * to_q + std::round(y * to_q)) / 2);
    const float exact_mid = std::round(y_mid * to_q);
    const float bias = std::round((interpolated_mid - exact_mid) / 2);
    // NaN samples (RSQRT of negative inputs) become 0, infinities the bounds.
    lut[i] = static_cast<int16_t>(TruncClamped(sample - bias, kMinQ, kMaxQ));
  }
  lut[kSteps] = static_cast<int16_t>(RoundClamped(fn(in_max) * to_q, kMinQ, kMaxQ));
}

inline int8_t LookupLut(int8_t v, const int8_t* lut) { return lut[static_cast<uint8_t>(v)]; }
inline uint8_t LookupLut(uint8_t v, const uint8_t* lut) { return lut[v]; }
// The top 9 bits pick the segment, the low 7 interpolate within it.
inline int16_t LookupLut(int16_t v, const int16_t* lut) {
  const int index = 256 + (v >> 7);
  const int frac = v & 0x7f;
  const int base = lut[index];
  // The slope is kept in 16 bits (wrapping), as upstream's table format does.
  const int16_t slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  return static_cast<int16_t>(base + ((slope * frac + 64) >> 7));
}

template <typename T>
void ApplyLut(const T* in, int64_t n, const T* lut, T* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = LookupLut(in[i], lut);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_MATH_H_
