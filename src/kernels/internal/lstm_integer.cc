#include "src/kernels/internal/lstm_integer.h"

#include <algorithm>
#include <limits>

#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/wrapping_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// ---- int16 fixed point (raw values; the number of integer bits is implicit) --

inline int16_t Wrap(int32_t v) { return static_cast<int16_t>(v); }

inline int16_t SatAdd(int32_t a, int32_t b) {
  return static_cast<int16_t>(std::clamp(a + b, -32768, 32767));
}

// round(a * b / 2^15) with the single overflow (-1 * -1) saturated.
inline int16_t MulHigh(int16_t a, int16_t b) {
  if (a == -32768 && b == -32768) return 32767;
  const int32_t ab = static_cast<int32_t>(a) * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// x / 2^e rounded to nearest, ties away from zero.
inline int32_t DivPot(int32_t x, int e) {
  const int32_t mask = (1 << e) - 1;
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}

// x * 2^e, saturating at the int16 range (e >= 0).
inline int16_t SatShl(int16_t x, int e) {
  if (e == 0) return x;
  const int32_t threshold = (1 << (15 - e)) - 1;
  if (x > threshold) return 32767;
  if (x < -threshold) return -32768;
  return static_cast<int16_t>(x * (1 << e));
}

// A Q-format constant given at 32-bit precision, narrowed to 16 bits.
inline int16_t Const16(int32_t v32) { return static_cast<int16_t>(DivPot(v32, 16)); }

constexpr int16_t kOneQ15 = 32767;

// exp(a) for a in [-1/4, 0), Q0.15 in and out: fourth-order Taylor expansion
// around -1/8.
int16_t ExpQuarter(int16_t a) {
  const int16_t exp_minus_eighth = Const16(1895147668);
  const int16_t one_third = Const16(715827883);
  const int16_t x = Wrap(a + (1 << 12));
  const int16_t x2 = MulHigh(x, x);
  const int16_t x3 = MulHigh(x2, x);
  const int16_t x4 = MulHigh(x2, x2);
  const int16_t x4_over_4 = static_cast<int16_t>(DivPot(x4, 2));
  const int16_t poly =
      static_cast<int16_t>(DivPot(Wrap(MulHigh(Wrap(x4_over_4 + x3), one_third) + x2), 1));
  return SatAdd(exp_minus_eighth, MulHigh(exp_minus_eighth, Wrap(x + poly)));
}

// exp(a) for a <= 0 with `int_bits` integer bits, result Q0.15.
int16_t ExpNegative(int16_t a, int int_bits) {
  const int frac_bits = 15 - int_bits;
  const int16_t quarter = static_cast<int16_t>(1 << (frac_bits - 2));
  const int16_t mask = static_cast<int16_t>(quarter - 1);
  const int16_t rem_minus_quarter = Wrap((a & mask) - quarter);
  int16_t result = ExpQuarter(SatShl(rem_minus_quarter, int_bits));
  const int16_t remainder = Wrap(rem_minus_quarter - a);
  struct Step {
    int exponent;
    int32_t multiplier;  // exp(-2^exponent) in Q0.31
  };
  static constexpr Step kSteps[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084},
                                    {1, 290630308},   {2, 39332535},    {3, 720401},
                                    {4, 242}};
  for (const Step& s : kSteps) {
    if (int_bits <= s.exponent) continue;
    const int bit = frac_bits + s.exponent;
    if (remainder & (1 << bit)) result = MulHigh(result, Const16(s.multiplier));
  }
  if (int_bits > 5) {
    const int16_t minus_32 = Const16(-(1 << (36 - int_bits)));
    if (a < minus_32) result = 0;
  }
  if (a == 0) result = kOneQ15;
  return result;
}

// Newton-Raphson reciprocal of (1 + a) / 2 for a in [0, 1], in Q2.13.
int16_t HalfReciprocal(int16_t a, int16_t* half_denominator_out) {
  const int32_t sum = static_cast<int32_t>(a) + kOneQ15;
  const int16_t half_den = static_cast<int16_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  const int16_t c48_17 = Const16(1515870810);
  const int16_t c_neg32_17 = Const16(-1010580540);
  const int16_t one_q2 = 1 << 13;
  int16_t x = Wrap(c48_17 + MulHigh(half_den, c_neg32_17));
  for (int i = 0; i < 3; ++i) {
    const int16_t hx = MulHigh(half_den, x);
    const int16_t one_minus = Wrap(one_q2 - hx);
    x = Wrap(x + SatShl(MulHigh(x, one_minus), 2));
  }
  *half_denominator_out = half_den;
  return x;
}

// 1 / (1 + a), a in [0, 1], Q0.15.
int16_t OneOverOnePlus(int16_t a) {
  int16_t half_den;
  const int16_t x = HalfReciprocal(a, &half_den);
  return SatShl(x, 1);
}

// (1 - a) / (1 + a), a in [0, 1], Q0.15.
int16_t OneMinusOverOnePlus(int16_t a) {
  int16_t half_den;
  const int16_t x = HalfReciprocal(a, &half_den);
  return SatShl(Wrap(x - (1 << 13)), 2);
}

int16_t Logistic(int16_t a, int int_bits) {
  if (a == 0) return Const16(1 << 30);
  const bool positive = a > 0;
  const int16_t abs_a = positive ? a : Wrap(-a);
  const int16_t r = OneOverOnePlus(ExpNegative(Wrap(-abs_a), int_bits));
  return positive ? r : Wrap(kOneQ15 - r);
}

int16_t Tanh(int16_t a, int int_bits) {
  if (a == 0) return 0;
  const bool negative = a < 0;
  const int16_t neg_abs = negative ? a : Wrap(-a);
  // exp(2 * neg_abs): the same raw value read with one more integer bit.
  const int16_t t = OneMinusOverOnePlus(ExpNegative(neg_abs, int_bits + 1));
  return negative ? Wrap(-t) : t;
}

template <typename Out>
void MatVecAccumulateImpl(const int8_t* in, const int32_t* bias, const int8_t* w,
                          int32_t multiplier, int shift, int n_batch, int n_in, int n_out,
                          int32_t output_zp, Out* out) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min();
  constexpr int32_t kMax = std::numeric_limits<Out>::max();
  for (int b = 0; b < n_batch; ++b) {
    const int8_t* x = in + static_cast<int64_t>(b) * n_in;
    for (int r = 0; r < n_out; ++r) {
      const int8_t* row = w + static_cast<int64_t>(r) * n_in;
      int32_t acc = bias[r];
      for (int c = 0; c < n_in; ++c) acc += static_cast<int32_t>(x[c]) * row[c];
      acc = MultiplyByQuantizedMultiplier(acc, multiplier, shift) + output_zp;
      Out& o = out[static_cast<int64_t>(b) * n_out + r];
      o = static_cast<Out>(std::clamp(acc + static_cast<int32_t>(o), kMin, kMax));
    }
  }
}

}  // namespace

void Int16Sigmoid(const int16_t* in, int n, int16_t* out) {
  for (int i = 0; i < n; ++i) out[i] = Logistic(in[i], 3);
}

bool Int16Tanh(int integer_bits, const int16_t* in, int n, int16_t* out) {
  if (integer_bits < 0 || integer_bits > 6) return false;
  for (int i = 0; i < n; ++i) out[i] = Tanh(in[i], integer_bits);
  return true;
}

void MatVecAccumulate(const int8_t* in, const int32_t* bias, const int8_t* w, int32_t multiplier,
                      int shift, int n_batch, int n_in, int n_out, int32_t output_zp,
                      int16_t* out) {
  MatVecAccumulateImpl(in, bias, w, multiplier, shift, n_batch, n_in, n_out, output_zp, out);
}

void MatVecAccumulate(const int8_t* in, const int32_t* bias, const int8_t* w, int32_t multiplier,
                      int shift, int n_batch, int n_in, int n_out, int32_t output_zp,
                      int8_t* out) {
  MatVecAccumulateImpl(in, bias, w, multiplier, shift, n_batch, n_in, n_out, output_zp, out);
}

void VectorBatchProductAccumulate(const int16_t* v, int n, const int16_t* batch_v, int n_batch,
                                  int32_t multiplier, int shift, int16_t* out) {
  for (int b = 0; b < n_batch; ++b) {
    for (int i = 0; i < n; ++i) {
      int32_t prod = static_cast<int32_t>(v[i]) * *batch_v++;
      prod = MultiplyByQuantizedMultiplier(prod, multiplier, shift);
      *out = static_cast<int16_t>(std::clamp(prod + *out, -32768, 32767));
      ++out;
    }
  }
}

void Int16LayerNorm(const int16_t* in, const int16_t* weights, const int32_t* bias,
                    int32_t scale_a, int scale_b, int32_t variance_limit, int n_batch, int n,
                    int16_t* out) {
  constexpr int kTwoPow20 = 1 << 20;
  for (int b = 0; b < n_batch; ++b) {
    const int16_t* x = in + static_cast<int64_t>(b) * n;
    int16_t* y = out + static_cast<int64_t>(b) * n;
    int64_t sum = 0;
    int64_t sum_sq = 0;
    for (int j = 0; j < n; ++j) {
      const int32_t v = x[j];
      sum += v;
      sum_sq += v * v;
    }
    const int32_t mean = static_cast<int32_t>(sum * 1024 / n);
    const int32_t inv_n = kTwoPow20 / n;
    const int64_t variance = sum_sq * inv_n - static_cast<int64_t>(mean) * mean;
    int32_t variance2 = static_cast<int32_t>(variance / kTwoPow20);
    if (variance2 < 1) variance2 = variance_limit;
    int32_t inv_a;
    int inv_b;
    InvSqrtQuantizedMultiplier(variance2, -1, &inv_a, &inv_b);
    for (int j = 0; j < n; ++j) {
      const int32_t shifted = 1024 * static_cast<int32_t>(x[j]) - mean;
      const int32_t rescaled = MultiplyByQuantizedMultiplier(shifted, inv_a, inv_b);
      const int64_t scaled = static_cast<int64_t>(rescaled) * weights[j] + bias[j];
      const int32_t rounded =
          static_cast<int32_t>((scaled > 0 ? scaled + 512 : scaled - 512) / 1024);
      const int32_t v = MultiplyByQuantizedMultiplier(rounded, scale_a, scale_b + 12);
      y[j] = static_cast<int16_t>(std::clamp(v, -32768, 32767));
    }
  }
}

void CwiseMulShift(const int16_t* a, const int16_t* b, int n, int shift, int16_t* out) {
  for (int i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(a[i]) * b[i];
    out[i] = static_cast<int16_t>(DivPot(v, shift));
  }
}

void CwiseMulRequant(const int16_t* a, const int16_t* b, int n, int32_t multiplier, int shift,
                     int32_t zp, int8_t* out) {
  for (int i = 0; i < n; ++i) {
    int32_t v = static_cast<int32_t>(a[i]) * b[i];
    v = MultiplyByQuantizedMultiplier(v, multiplier, shift) + zp;
    out[i] = static_cast<int8_t>(std::clamp(v, -128, 127));
  }
}

void CwiseAddSat(const int16_t* a, const int16_t* b, int n, int16_t* out) {
  for (int i = 0; i < n; ++i) out[i] = SatAdd(a[i], b[i]);
}

void AddRowSumsTimes(const int8_t* w, int32_t scalar, int rows, int cols, int32_t* out) {
  // int32 that wraps around (as upstream's) for hostile widths.
  for (int r = 0; r < rows; ++r) {
    int32_t sum = 0;
    for (int c = 0; c < cols; ++c) sum = WrappingAdd(sum, int32_t{*w++});
    out[r] = WrappingAdd(out[r], WrappingMul(sum, scalar));
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
