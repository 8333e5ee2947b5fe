// DIV: out = activation(x / y), broadcasting x against y. FLOAT32 (IEEE
// division), INT32 (truncating; a zero divisor fails at Invoke) and UINT8
// quantized (op version 2). Like upstream, the quantized quotient is formed
// in fixed point: the divisor's reciprocal comes from a Newton-Raphson
// iteration in Q2.29, the dividend is shifted to use all its headroom, and
// one rounding requantization by in1_scale / (in2_scale * out_scale)
// produces the result. A divisor equal to its zero point fails at Invoke.
#include <cstdint>
#include <limits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DIV";

struct DivData : internal::BroadcastOpData {
  // UINT8 only.
  int32_t in1_zero_point = 0, in2_zero_point = 0, out_zero_point = 0;
  internal::QuantizedMultiplier multiplier;
  int32_t act_min = 0, act_max = 0;
};

// Number of redundant sign bits of v (31 for 0 and -1).
int RedundantSignBits(int32_t v) {
  const uint32_t u = static_cast<uint32_t>(v < 0 ? ~v : v);
  return u == 0 ? 31 : __builtin_clz(u) - 1;
}

// a * 2^exponent for a Q-format raw value, saturating (exponent in 1..2).
int32_t SaturatingShiftLeft(int32_t a, int exponent) {
  const int32_t limit = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (a > limit) return std::numeric_limits<int32_t>::max();
  if (a < -limit) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(a) << exponent);
}

// 1 / (1 + a) for a in [0, 1) given as Q0.31, result in Q0.31: three
// Newton-Raphson steps on the half denominator (1 + a) / 2, starting from the
// linear estimate 48/17 - 32/17 * d (all products rounding doubling high
// multiplies, sums wrapping, as gemmlowp's fixed point does).
int32_t OneOverOnePlus(int32_t a) {
  using internal::SaturatingRoundingDoublingHighMul;
  const int64_t sum = int64_t{a} + std::numeric_limits<int32_t>::max();
  const int32_t half_den = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);  // Q0.31
  constexpr int32_t k48Over17 = 1515870810;      // Q2.29
  constexpr int32_t kMinus32Over17 = -1010580540;  // Q2.29
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  auto add = [](int32_t x, int32_t y) {
    return static_cast<int32_t>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y));
  };
  int32_t x = add(k48Over17, SaturatingRoundingDoublingHighMul(half_den, kMinus32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t dx = SaturatingRoundingDoublingHighMul(half_den, x);  // Q2.29
    const int32_t err = add(kOneQ2, -dx);
    const int32_t step = SaturatingRoundingDoublingHighMul(x, err);  // Q4.27
    x = add(x, SaturatingShiftLeft(step, 2));
  }
  // x approximates 2 / (1 + a) in Q2.29, i.e. 1 / (1 + a) in Q1.30.
  return SaturatingShiftLeft(x, 1);
}

// Reciprocal of a positive integer v: returns r (Q0.31) and *shift with
// 1 / v ~= r * 2^-31 * 2^-shift.
int32_t Reciprocal(int32_t v, int* shift) {
  const int lz = __builtin_clz(static_cast<uint32_t>(v));
  *shift = 31 - lz;
  const uint32_t normalized = static_cast<uint32_t>(v) << lz;  // in [2^31, 2^32)
  return OneOverOnePlus(static_cast<int32_t>(normalized - (uint32_t{1} << 31)));
}

uint8_t DivideQuantized(const DivData& d, uint8_t a, uint8_t b) {
  int32_t num = static_cast<int32_t>(a) - d.in1_zero_point;
  int32_t den = static_cast<int32_t>(b) - d.in2_zero_point;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int recip_shift = 0;
  const int32_t recip = Reciprocal(den, &recip_shift);
  const int headroom = RedundantSignBits(num);
  const int32_t scaled = static_cast<int32_t>(static_cast<uint32_t>(num) << headroom);
  const int32_t quotient = internal::SaturatingRoundingDoublingHighMul(scaled, recip);
  const int right_shift = headroom + recip_shift - d.multiplier.shift;  // >= 1, see Prepare
  const int32_t product = internal::SaturatingRoundingDoublingHighMul(quotient, d.multiplier.multiplier);
  // Shifts past 31 (tiny quotients) are out of range for upstream's 32-bit
  // rounding shift (undefined there); the exact rounded value is 0, or -1
  // for the single tie -2^31 / 2^32.
  const int32_t rounded =
      right_shift <= 31 ? internal::RoundingDivideByPOT(product, right_shift)
                        : (right_shift == 32 && product == std::numeric_limits<int32_t>::min() ? -1 : 0);
  const int32_t v = d.out_zero_point + rounded;
  return static_cast<uint8_t>(v < d.act_min ? d.act_min : (v > d.act_max ? d.act_max : v));
}

TfLiteFusedActivation Activation(const TfLiteNode* node) {
  return static_cast<const TfLiteDivParams*>(node->builtin_data)->activation;
}

struct DivOp {
  static constexpr const char* kName = kOp;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt32, kTfLiteUInt8};
  using Data = DivData;
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, DivData* d);
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const DivData& d);
};

TfLiteStatus DivOp::Prepare(TfLiteContext* context, TfLiteNode* node, DivData* d) {
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor* a = internal::InputAt(context, node, 0);
  if (a->type != kTfLiteUInt8) return kTfLiteOk;
  const TfLiteTensor* b = internal::InputAt(context, node, 1);
  const TfLiteTensor* out = internal::OutputAt(context, node, 0);
  internal::QuantParams qa, qb, qo;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "input 0", a, &qa));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "input 1", b, &qb));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "output", out, &qo));
  d->in1_zero_point = qa.zero_point;
  d->in2_zero_point = qb.zero_point;
  d->out_zero_point = qo.zero_point;
  // Single-precision ratio, as upstream computes it.
  const float real = qa.scale / (qb.scale * qo.scale);
  d->multiplier = internal::QuantizeMultiplier(static_cast<double>(real));
  // The dividend uses >= 22 bits of headroom (|x - zero_point| <= 255), so the
  // final right shift stays non-negative up to this multiplier exponent.
  if (d->multiplier.shift > 22) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: UINT8 scale ratio in1 / (in2 * out) = %g is too large (not supported)",
                       kOp, static_cast<double>(real));
    return kTfLiteError;
  }
  return internal::QuantizedActivationRange(context, kOp, Activation(node), out, &d->act_min,
                                            &d->act_max);
}

TfLiteStatus DivOp::Eval(TfLiteContext* context, TfLiteNode* node, const DivData& d) {
  const TfLiteFusedActivation activation = Activation(node);
  const TfLiteTensor* divisor = internal::InputAt(context, node, 1);
  if (divisor->type == kTfLiteFloat32) {
    const auto range = internal::GetActivationRange<float>(activation);
    internal::MapBinary<float>(
        context, node, d,
        [range](float a, float b) { return internal::ApplyRange(a / b, range); });
    return kTfLiteOk;
  }
  if (divisor->type == kTfLiteUInt8) {
    const uint8_t* q = divisor->data.uint8;
    for (int64_t i = 0, n = internal::NumElements(divisor); i < n; ++i) {
      if (q[i] == d.in2_zero_point) {
        TF_LITE_KERNEL_LOG(context, "%s: UINT8 division by zero (divisor element %lld)", kOp,
                           static_cast<long long>(i));
        return kTfLiteError;
      }
    }
    internal::MapBinary<uint8_t>(
        context, node, d, [&d](uint8_t a, uint8_t b) { return DivideQuantized(d, a, b); });
    return kTfLiteOk;
  }
  const int32_t* z = divisor->data.i32;
  for (int64_t i = 0, n = internal::NumElements(divisor); i < n; ++i) {
    if (z[i] == 0) {
      TF_LITE_KERNEL_LOG(context, "%s: INT32 division by zero (divisor element %lld)", kOp,
                         static_cast<long long>(i));
      return kTfLiteError;
    }
  }
  const auto range = internal::GetActivationRange<int32_t>(activation);
  internal::MapBinary<int32_t>(context, node, d, [range](int32_t a, int32_t b) {
    // INT32_MIN / -1 overflows; wrap it like two's-complement negation.
    const int32_t q = (b == -1) ? static_cast<int32_t>(0u - static_cast<uint32_t>(a)) : a / b;
    return internal::ApplyRange(q, range);
  });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_DIV() { return internal::RegisterBinaryOp<DivOp>(); }

}  // namespace kernels
}  // namespace tflite_c
