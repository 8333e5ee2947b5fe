// Activations with a parameter or a fixed-point quantized form (TANH, ELU
// and GELU: lut_activations.cc; LOG_SOFTMAX and L2_NORMALIZATION:
// rowwise_activations.cc):
//   HARD_SWISH (x * relu6(x + 3) / 6)     FLOAT32, quantized INT8/UINT8
//   LEAKY_RELU (x > 0 ? x : alpha * x)    FLOAT32, quantized INT8/UINT8/INT16
//   PRELU (x >= 0 ? x : alpha * x, alpha broadcast against x)
//                                         FLOAT32, quantized INT8/UINT8
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::MapUnary;
using internal::UnaryOpData;
using internal::UnaryPath;

// ---- LEAKY_RELU -----------------------------------------------------------------

float Alpha(const TfLiteNode* node) {
  return static_cast<const TfLiteLeakyReluParams*>(node->builtin_data)->alpha;
}

struct LeakyReluOp {
  static constexpr const char* kName = "LEAKY_RELU";
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8,
                                               kTfLiteInt16};
  struct Data : UnaryOpData {
    internal::QuantizedMultiplier identity, alpha;  // alpha's multiplier is |alpha|'s
    bool negative_alpha = false;
  };

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* d) {
    TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kName));
    if (d->path == UnaryPath::kFloat) return kTfLiteOk;
    d->path = UnaryPath::kQuantized;
    TF_LITE_ENSURE_OK(context, internal::ReadUnaryQuantParams(context, kName, input, output, d));
    // Computed in float, then widened, as upstream.
    const float alpha_scale = d->in.scale * Alpha(node) / d->out.scale;
    const float identity_scale = d->in.scale / d->out.scale;
    d->negative_alpha = alpha_scale < 0;
    d->alpha = internal::QuantizeMultiplier(std::fabs(static_cast<double>(alpha_scale)));
    d->identity = internal::QuantizeMultiplier(identity_scale);
    return kTfLiteOk;
  }

  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    return MapUnary<T>(context, node, [&d](T x) {
      const int32_t v = static_cast<int32_t>(x) - d.in.zero_point;
      int32_t scaled;
      if (v >= 0) {
        scaled = internal::MultiplyByQuantizedMultiplier(v, d.identity);
      } else {
        scaled = internal::MultiplyByQuantizedMultiplier(v, d.alpha);
        if (d.negative_alpha) scaled = -scaled;
      }
      return internal::ClampTo<T>(scaled + d.out.zero_point);
    });
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32: {
        const float alpha = Alpha(node);
        return MapUnary<float>(context, node,
                               [alpha](float x) { return x > 0.0f ? x : x * alpha; });
      }
      case kTfLiteInt8:
        return EvalQuantized<int8_t>(context, node, d);
      case kTfLiteUInt8:
        return EvalQuantized<uint8_t>(context, node, d);
      default:
        return EvalQuantized<int16_t>(context, node, d);
    }
  }
};

// ---- PRELU ------------------------------------------------------------------------

// Quantized (INT8, UINT8) as upstream: x - x_zp >= 0 is rescaled by
// in_scale / out_scale, otherwise (x - x_zp) * (alpha - alpha_zp) by
// in_scale * alpha_scale / out_scale (both ratios computed in float).
struct PreluData : internal::BroadcastOpData {
  int32_t input_zero_point = 0, alpha_zero_point = 0, output_zero_point = 0;
  internal::QuantizedMultiplier identity, alpha;
};

struct PreluOp {
  static constexpr const char* kName = "PRELU";
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8};
  using Data = PreluData;

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, Data* d) {
    const TfLiteTensor* input = internal::InputAt(context, node, 0);
    if (input->type == kTfLiteFloat32) return kTfLiteOk;
    internal::QuantParams in, alpha, out;
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kName, "input", input, &in));
    const TfLiteTensor* alpha_tensor = internal::InputAt(context, node, 1);
    const TfLiteTensor* output = internal::OutputAt(context, node, 0);
    TF_LITE_ENSURE_OK(context,
                      internal::GetQuantParams(context, kName, "alpha", alpha_tensor, &alpha));
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kName, "output", output, &out));
    d->input_zero_point = in.zero_point;
    d->alpha_zero_point = alpha.zero_point;
    d->output_zero_point = out.zero_point;
    const float identity_scale = in.scale / out.scale;
    const float alpha_scale = in.scale * alpha.scale / out.scale;
    d->identity = internal::QuantizeMultiplier(identity_scale);
    d->alpha = internal::QuantizeMultiplier(alpha_scale);
    return kTfLiteOk;
  }

  template <typename T>
  static void EvalQuantized(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    internal::MapBinary<T>(context, node, d, [&d](T x, T a) {
      const int32_t v = static_cast<int32_t>(x) - d.input_zero_point;
      const int32_t scaled =
          v >= 0 ? internal::MultiplyByQuantizedMultiplier(v, d.identity)
                 : internal::MultiplyByQuantizedMultiplier(
                       v * (static_cast<int32_t>(a) - d.alpha_zero_point), d.alpha);
      return internal::ClampTo<T>(scaled + d.output_zero_point);
    });
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteInt8: EvalQuantized<int8_t>(context, node, d); break;
      case kTfLiteUInt8: EvalQuantized<uint8_t>(context, node, d); break;
      default:
        internal::MapBinary<float>(context, node, d, [](float x, float alpha) {
          return x >= 0.0f ? x : x * alpha;
        });
    }
    return kTfLiteOk;
  }
};

// ---- HARD_SWISH: float, or INT8/UINT8 in 16-bit fixed point ----------------------
//
// The quantized form follows upstream's integer recipe, so outputs match it
// bit for bit: the input (minus its zero point) is moved to a "high
// resolution" scale (input scale / 128, i.e. shifted left 7 bits); from it
// a "reluish" factor relu6(x + 3) / 6 is formed in Q0.15 (scale 3 / 32768
// before the final halving) and multiplied with the input rescaled to the
// output scale; a last rounding shift and the output zero point finish.

struct HardSwishData : UnaryOpData {
  int16_t output_multiplier = 0, reluish_multiplier = 0;  // Q0.15
  int output_exponent = 0, reluish_exponent = 0;
};

// A Q0.31 multiplier rounded to Q0.15, saturating at the top.
int16_t ToInt16Multiplier(int32_t m) {
  constexpr int32_t kHalf = 1 << 15;
  if (m >= std::numeric_limits<int32_t>::max() - kHalf) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((m + kHalf) >> 16);
}

// round(a * b / 2^15) with the one overflowing case saturated.
int16_t RoundingHighMul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  const int32_t ab = int32_t{a} * int32_t{b};
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// trunc(a * b / 2^15), saturated likewise.
int16_t TruncatingHighMul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((int32_t{a} * int32_t{b}) / (1 << 15));
}

int16_t SaturatingShiftLeft16(int16_t v, int amount) {
  const int64_t r = static_cast<int64_t>(v) * (int64_t{1} << amount);
  return static_cast<int16_t>(std::min<int64_t>(
      std::max<int64_t>(r, std::numeric_limits<int16_t>::min()), std::numeric_limits<int16_t>::max()));
}

// One input value in the recipe above.
template <typename T>
T HardSwishQuantized(const HardSwishData& d, T value) {
  const int16_t x = static_cast<int16_t>(value - d.in.zero_point);
  const int16_t hires = static_cast<int16_t>(x * (1 << 7));
  const int16_t scaled_x = RoundingHighMul16(hires, d.output_multiplier);
  int16_t reluish = hires;
  if (d.reluish_exponent > 0) reluish = SaturatingShiftLeft16(reluish, d.reluish_exponent - 1);
  reluish = RoundingHighMul16(reluish, d.reluish_multiplier);
  if (d.reluish_exponent > 0) reluish = SaturatingShiftLeft16(reluish, 1);
  if (d.reluish_exponent < 0) {
    reluish = static_cast<int16_t>(internal::RoundingDivideByPOT(reluish, -d.reluish_exponent));
  }
  // [-1, 1) in Q0.15 -> [0, 1) in Q0.15: relu6(x + 3) / 6.
  reluish = static_cast<int16_t>((int32_t{reluish} + (1 << 15)) >> 1);
  const int16_t product = TruncatingHighMul16(reluish, scaled_x);
  int32_t v = internal::RoundingDivideByPOT(product, -d.output_exponent);
  return internal::ClampTo<T>(v + d.out.zero_point);
}

struct HardSwishOp {
  static constexpr const char* kName = "HARD_SWISH";
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8};
  using Data = HardSwishData;

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* d) {
    if (d->path == UnaryPath::kFloat) return kTfLiteOk;
    d->path = UnaryPath::kQuantized;
    TF_LITE_ENSURE_OK(context, internal::ReadUnaryQuantParams(context, kName, input, output, d));
    const float hires_input_scale = d->in.scale / 128.0f;
    const float reluish_scale = 3.0f / 32768.0f;
    const internal::QuantizedMultiplier output_m =
        internal::QuantizeMultiplier(hires_input_scale / d->out.scale);
    const internal::QuantizedMultiplier reluish_m =
        internal::QuantizeMultiplier(hires_input_scale / reluish_scale);
    if (output_m.shift > 0) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: output scale %g is too small for input scale %g (input / output "
                         "must stay below 128)",
                         kName, d->out.scale, d->in.scale);
      return kTfLiteError;
    }
    d->output_multiplier = ToInt16Multiplier(output_m.multiplier);
    d->output_exponent = output_m.shift;
    d->reluish_multiplier = ToInt16Multiplier(reluish_m.multiplier);
    d->reluish_exponent = reluish_m.shift;
    return kTfLiteOk;
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteInt8:
        return MapUnary<int8_t>(context, node, [&d](int8_t v) { return HardSwishQuantized(d, v); });
      case kTfLiteUInt8:
        return MapUnary<uint8_t>(context, node,
                                 [&d](uint8_t v) { return HardSwishQuantized(d, v); });
      default:
        return MapUnary<float>(context, node, [](float x) {
          return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f;
        });
    }
  }
};

}  // namespace

const TfLiteRegistration* Register_HARD_SWISH() {
  return internal::RegisterUnaryOp<HardSwishOp>();
}

const TfLiteRegistration* Register_LEAKY_RELU() {
  return internal::RegisterUnaryOp<LeakyReluOp>();
}

const TfLiteRegistration* Register_PRELU() { return internal::RegisterBinaryOp<PreluOp>(); }

}  // namespace kernels
}  // namespace tflite_c
