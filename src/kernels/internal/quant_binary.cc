#include "src/kernels/internal/quant_binary.h"

#include <cmath>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Whether `x` is a power of two to within 1e-3 in log2, as upstream decides it.
bool IsPowerOfTwoScale(float x, int* log2) {
  const float exact = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(exact);
  *log2 = static_cast<int>(rounded);
  return std::abs(exact - rounded) < 1e-3f;
}

TfLiteStatus RequireZeroPoints(TfLiteContext* context, const char* op, const TfLiteTensor* a,
                               const TfLiteTensor* b, const TfLiteTensor* out) {
  if (a->params.zero_point != 0 || b->params.zero_point != 0 || out->params.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: int16 tensors must be symmetric (zero points 0), got %d, %d and %d",
                       op, a->params.zero_point, b->params.zero_point, out->params.zero_point);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The POT path shifts at most one input right; the other must share the
// output's scale.
TfLiteStatus PreparePotInt16(TfLiteContext* context, const char* op, int log2_a, int log2_b,
                             int log2_out, QuantBinaryParams* q) {
  const int shift_a = log2_a - log2_out;
  const int shift_b = log2_b - log2_out;
  if ((shift_a != 0 && shift_b != 0) || shift_a > 0 || shift_b > 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: power-of-two int16 scales need one input at the output scale and the "
                       "other no coarser (input scale exponents %d and %d, output %d)",
                       op, log2_a, log2_b, log2_out);
    return kTfLiteError;
  }
  q->pot_int16 = true;
  q->pot_shift_a = -shift_a;
  q->pot_shift_b = -shift_b;
  return kTfLiteOk;
}

// An input of the 8-bit row path (QuantAddRowParams in qgemm.h).
QuantAddInput RowInput(int32_t zero_point, QuantizedMultiplier m, int32_t sign) {
  QuantAddInput s;
  s.zero_point = zero_point;
  s.high = m.multiplier >> 11;
  s.low = m.multiplier & ((1 << 11) - 1);
  s.right = std::min(-m.shift, 31);
  s.sign = sign;
  return s;
}

}  // namespace

double RescaleToTwiceMax(const QuantParams& a, const QuantParams& b, int left_shift,
                         InputRescale* rescale_a, InputRescale* rescale_b) {
  const double twice_max = 2.0 * std::max(a.scale, b.scale);
  rescale_a->zero_point = a.zero_point;
  rescale_b->zero_point = b.zero_point;
  rescale_a->left_shift = rescale_b->left_shift = left_shift;
  rescale_a->multiplier = QuantizeMultiplier(a.scale / twice_max);
  rescale_b->multiplier = QuantizeMultiplier(b.scale / twice_max);
  return twice_max;
}

TfLiteStatus PrepareQuantBinary(TfLiteContext* context, const char* op, QuantBinaryKind kind,
                                const TfLiteTensor* a, const TfLiteTensor* b,
                                const TfLiteTensor* out, TfLiteFusedActivation activation,
                                bool pot_scale_int16, QuantBinaryParams* q) {
  *q = QuantBinaryParams();
  QuantParams unused;
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input 0", a, &unused));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input 1", b, &unused));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "output", out, &unused));
  // Scales are positive (GetQuantParams); a zero legacy scale means
  // per-channel parameters, which these ops do not take.
  if (a->params.scale == 0 || b->params.scale == 0 || out->params.scale == 0) {
    TF_LITE_KERNEL_LOG(context, "%s: inputs and output need per-tensor quantization", op);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context,
                    QuantizedActivationRange(context, op, activation, out, &q->act_min,
                                             &q->act_max));
  const bool int16 = out->type == kTfLiteInt16;

  if (kind == QuantBinaryKind::kMul) {
    q->a.zero_point = a->params.zero_point;
    q->b.zero_point = b->params.zero_point;
    q->offset_out = out->params.zero_point;
    // Computed in float, then widened, as upstream does.
    const float real = a->params.scale * b->params.scale / out->params.scale;
    q->mult_out = QuantizeMultiplier(static_cast<double>(real));
    return kTfLiteOk;
  }

  if (int16) {
    TF_LITE_ENSURE_OK(context, RequireZeroPoints(context, op, a, b, out));
    int log2_a = 0, log2_b = 0, log2_out = 0;
    if (pot_scale_int16 && IsPowerOfTwoScale(a->params.scale, &log2_a) &&
        IsPowerOfTwoScale(b->params.scale, &log2_b) &&
        IsPowerOfTwoScale(out->params.scale, &log2_out)) {
      return PreparePotInt16(context, op, log2_a, log2_b, log2_out, q);
    }
  } else {
    // ADD and SUB: a zero point outside the type (e.g. INT_MIN from a corrupt
    // model) would overflow the negated offsets below.
    int32_t lo = 0, hi = 0;
    QuantizedTypeRange(out->type, &lo, &hi);
    for (const TfLiteTensor* t : {a, b, out}) {
      if (t->params.zero_point < lo || t->params.zero_point > hi) {
        TF_LITE_KERNEL_LOG(context, "%s: zero point %d is outside the range of %s", op,
                           t->params.zero_point, TfLiteTypeGetName(out->type));
        return kTfLiteError;
      }
    }
  }
  // Both inputs are brought to a common scale (twice the larger one) with
  // `left_shift` bits of headroom, added, then rescaled to the output.
  const int left_shift = int16 ? 15 : 20;
  const double twice_max =
      RescaleToTwiceMax({a->params.scale, a->params.zero_point},
                        {b->params.scale, b->params.zero_point}, left_shift, &q->a, &q->b);
  q->offset_out = out->params.zero_point;
  const double out_scale = static_cast<double>(out->params.scale);
  q->mult_out = QuantizeMultiplier(twice_max / ((1 << left_shift) * out_scale));
  // The 8-bit row path needs input multipliers below 1 (always, as each
  // input scale is at most half of twice the larger one) and none negative.
  if (!int16 && q->a.multiplier.shift <= 0 && q->b.multiplier.shift <= 0 &&
      q->a.multiplier.multiplier >= 0 && q->b.multiplier.multiplier >= 0) {
    static_assert(kQuantAddHeadroom == 20, "the row path's input rescale assumes 20 bits");
    q->rows = true;
    q->row.a = RowInput(q->a.zero_point, q->a.multiplier, 1);
    q->row.b = RowInput(q->b.zero_point, q->b.multiplier, kind == QuantBinaryKind::kSub ? -1 : 1);
    QuantAddOutput& o = q->row.out;
    o.offset = q->offset_out;
    o.multiplier = q->mult_out.multiplier;
    o.left = q->mult_out.shift > 0 ? std::min(q->mult_out.shift, 31) : 0;
    o.right = q->mult_out.shift > 0 ? 0 : std::min(-q->mult_out.shift, 31);
    o.act_min = q->act_min;
    o.act_max = q->act_max;
    if (out->type == kTfLiteInt8) {
      q->row.flip = 0x80;
      q->row.a.zero_point += 128;
      q->row.b.zero_point += 128;
      o.offset += 128;
      o.act_min += 128;
      o.act_max += 128;
    }
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
